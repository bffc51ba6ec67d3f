import asyncio

from lycan.agents import RandomAgent
from lycan.engine import Action, Failure, GameRecord, Request, View, replay, run_async, run_sync, visible
from lycan.engine.actions import PASS, ProbeInfo
from lycan.engine.events import ProbeAnswered
from lycan.rules import Role, get_preset


class Refuser(RandomAgent):
    """Plays randomly but answers probes with PASS, a Failure-raising bug, or nonsense, by seat."""

    def decide(self, view: View, request: Request) -> Action:
        if request.kind == "probe":
            if view.seat % 3 == 0:
                return PASS
            if view.seat % 3 == 1:
                raise RuntimeError("probe not supported")
            return Action.probe([(view.seat, "villager", 0.5)])  # itself: not a legal target
        return super().decide(view, request)


def _players(n: int, seed: int, cls: type[RandomAgent] = RandomAgent) -> list[RandomAgent]:
    return [cls(seed * 100 + s) for s in range(n)]


def _long_game(rules_name: str, cls: type[RandomAgent] = RandomAgent) -> GameRecord:
    rules = get_preset(rules_name)
    for seed in range(200):
        rec = run_sync(rules, _players(rules.n_players, seed, cls), seed, probe_days=(2,))
        if rec.n_days >= 2 and any(e.kind == "probe_answered" for e in rec.events):
            return rec
    raise AssertionError("no game reached the day-2 vote")


def test_probe_answers_are_recorded_and_never_visible() -> None:
    rec = _long_game("guardian7")
    probes = [e for e in rec.events if isinstance(e, ProbeAnswered)]
    alive_day2 = next(e for e in rec.events if e.kind == "phase_started" and e.day == 2 and e.phase == "day")
    assert {p.seat for p in probes} <= set(alive_day2.alive)  # type: ignore[attr-defined]
    for p in probes:
        assert p.audience == frozenset() and p.day == 2 and p.error is None
        assert {s for s, _, _ in p.guesses} == set(range(7)) - {p.seat}
        assert all(isinstance(r, Role) and prob is not None and abs(prob - 0.25) < 1e-9 for _, r, prob in p.guesses)
    # the probe comes after the day-2 talk and before the day-2 vote
    kinds = [e.kind for e in rec.events if e.day == 2]
    first_probe = kinds.index("probe_answered")
    assert "talk" in kinds[:first_probe]
    assert "talk" not in kinds[first_probe:]
    for seat in range(7):
        assert not any(isinstance(e, ProbeAnswered) for e in visible(rec.events, seat))
    assert rec.probe_days == (2,)
    assert replay(rec).events == list(rec.events)
    again = GameRecord.from_dict(rec.to_dict())
    assert again.events == rec.events and again.decisions == rec.decisions


def test_probe_never_reaches_any_view_during_play() -> None:
    rules = get_preset("guardian7")
    leaked: list[int] = []
    asked = 0

    class Watcher(RandomAgent):
        def decide(self, view: View, request: Request) -> Action:
            if any(e.kind == "probe_answered" for e in view.events):
                leaked.append(view.seat)
            return super().decide(view, request)

    for seed in range(10):
        rec = run_sync(rules, _players(rules.n_players, seed, Watcher), seed, probe_days=(1, 2, 3))
        asked += sum(1 for e in rec.events if e.kind == "probe_answered")
    assert asked > 10
    assert leaked == []


def test_agents_without_probe_support_break_nothing() -> None:
    rec = _long_game("guardian7", Refuser)
    probes = [e for e in rec.events if isinstance(e, ProbeAnswered)]
    assert probes and all(p.guesses == () and p.error for p in probes)
    assert not any(e.kind == "fault" for e in rec.events if e.day == 2 and e.phase == "day")
    assert replay(rec).events == list(rec.events)


def test_probe_over_async_runner_with_failures() -> None:
    rules = get_preset("guardian7")

    class AsyncFailer(RandomAgent):
        async def act(self, view: View, request: Request) -> Action:
            if request.kind == "probe" and view.seat == 0:
                raise RuntimeError("no")
            return self.decide(view, request)

    for seed in range(40):
        rec = asyncio.run(run_async(rules, _players(7, seed, AsyncFailer), seed, probe_days=(2,)))
        probes = [e for e in rec.events if isinstance(e, ProbeAnswered)]
        if probes:
            errs = {p.seat: p.error for p in probes}
            assert all((err is not None) == (seat == 0) for seat, err in errs.items())
            return
    raise AssertionError("no game reached the probe")


def test_probe_request_checks() -> None:
    req = Request(1, 0, "probe", 2, targets=(1, 2), can_pass=True, info=ProbeInfo(roles=("werewolf", "villager")))
    assert req.check(PASS) is None
    assert req.check(Action.probe([(1, "wolf", 0.7), (1, "villager", 0.3), (2, "villager", None)])) is None
    assert req.check(Action.probe([(0, "villager", None)]))
    assert req.check(Action.probe([(1, "seer", None)]))
    assert req.check(Action.probe([(1, "villager", 1.5)]))
    assert req.check(Action.probe([(1, "villager", 0.5), (1, "villager", 0.5)]))
    assert req.check(Action.choose(1))
    assert req.check(Failure("x")) == "x"
    assert req.legal_actions() == [PASS]
    a = Action.probe([(2, Role.WEREWOLF, 0.9)])
    from lycan.engine.actions import answer_from_dict

    assert answer_from_dict(a.to_dict()) == a
