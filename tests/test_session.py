"""The one driver: stepping, seats, hooks, game context, records."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from lycan.agents import RandomAgent
from lycan.engine import Action, Failure, Request, View, replay
from lycan.engine.actions import OVER
from lycan.engine.events import Event, Fault, GameOver
from lycan.engine.seeds import derive
from lycan.engine.session import Hooks, LocalSeat, ReplayMismatch, ReplaySeat, Session
from lycan.rules import get_preset

ROOT = Path(__file__).resolve().parents[1]


def randoms(n: int, seed: int) -> list[RandomAgent]:
    return [RandomAgent(derive(seed, "agent", s)) for s in range(n)]


def test_only_the_session_advances_games() -> None:
    """`Game.play()` is started and its generator advanced in engine/session.py alone."""
    driving = re.compile(r"\bgame\.play\(\)|\bgen\.send\(|_gen\.send\(|next\(gen\)")
    found = sorted(
        str(path.relative_to(ROOT / "src" / "lycan"))
        for path in (ROOT / "src" / "lycan").rglob("*.py")
        if driving.search(path.read_text())
    )
    assert found == ["engine/session.py"]


def test_stepping_by_hand_gives_the_same_game_as_running_it() -> None:
    rules = get_preset("guardian7")
    fast = Session(rules, randoms(7, 3), 3, game_id="g")  # nothing between batches: the direct loop
    whole = fast.run_sync()
    assert fast.finished
    heard: list[Event] = []
    hooked = Session(rules, randoms(7, 3), 3, game_id="g", hooks=Hooks(on_event=heard.append)).run_sync()
    assert hooked.events == whole.events and hooked.decisions == whole.decisions and heard == list(whole.events)
    session = Session(rules, randoms(7, 3), 3, game_id="g")
    batch = session.start()
    steps = 0
    while batch is not None:
        assert not session.finished
        batch = session.send(session.answer_now(batch))
        steps += 1
    assert session.finished and steps > 5
    stepped = session.record()
    assert stepped.events == whole.events and stepped.decisions == whole.decisions
    with pytest.raises(RuntimeError, match="no open batch"):
        session.send({})
    assert asyncio.run(Session(rules, randoms(7, 3), 3).run()).events == whole.events
    assert replay(whole).events == list(whole.events)


class Slow:
    label = "slow"
    timeout = 0.01

    async def act(self, view: View, request: Request) -> Action:
        await asyncio.sleep(1)
        return OVER


class Crashing:
    label = "crashing"

    def decide(self, view: View, request: Request) -> Action:
        raise RuntimeError("boom")

    async def act(self, view: View, request: Request) -> Action:
        return self.decide(view, request)


def test_a_local_seat_turns_lateness_and_exceptions_into_failures() -> None:
    rules = get_preset("aiwolf5")
    session = Session(rules, randoms(5, 1), 1)
    batch = session.start()
    assert batch
    req, view = batch[0], session.view(batch[0].seat)
    late = asyncio.run(LocalSeat(Slow()).answer(view, req))
    assert isinstance(late, Failure) and "no answer within 0.01 s" in late.reason
    assert LocalSeat(Slow(), timeout=0.02).timeout_for(req) == 0.02
    assert LocalSeat(RandomAgent(1)).timeout_for(req) == req.timeout
    crash = LocalSeat(Crashing()).answer_now(view, req)
    assert isinstance(crash, Failure) and "RuntimeError: boom" in crash.reason
    # the game goes on: faults are the engine's, in that seat's view only
    record = asyncio.run(Session(rules, [Crashing(), *randoms(4, 1)], 1).run())
    faults = [e for e in record.events if isinstance(e, Fault)]
    assert faults and all(f.seat == 0 and f.audience == frozenset({0}) for f in faults)


def test_a_replay_seat_refuses_a_record_that_does_not_fit() -> None:
    record = Session(get_preset("guardian5"), randoms(5, 2), 2).run_sync()
    by_id = {d.request: d for d in record.decisions}
    other = Session(get_preset("aiwolf5"), [ReplaySeat(by_id)] * 5, 2)  # other rules: other requests
    with pytest.raises(ReplayMismatch):
        other.run_sync()


class Listening(RandomAgent):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.games: list[tuple[str, int]] = []

    def begin_game(self, game_id: str, seat: int) -> None:
        self.games.append((game_id, seat))


def test_hooks_and_game_context() -> None:
    rules = get_preset("guardian7")
    agents = [Listening(s) for s in range(7)]
    seen: list[Event] = []
    batches: list[int] = []

    async def before(session: Session, batch: list[Request]) -> None:
        batches.append(len(batch))

    def stop_after_five(session: Session, batch: list[Request], answers: dict[int, object]) -> str | None:
        return "aborted: enough" if len(batches) >= 5 else None

    hooks = Hooks(before_batch=before, on_event=seen.append, after_answers=stop_after_five)
    record = asyncio.run(Session(rules, agents, 4, game_id="game-x", hooks=hooks).run())
    assert [a.games for a in agents] == [[("game-x", s)] for s in range(7)]
    assert len(batches) == 5
    assert seen == list(record.events)
    over = record.events[-1]
    assert isinstance(over, GameOver) and over.winner == "draw" and over.reason == "aborted: enough"
    assert record.meta["aborted"] == "aborted: enough" and record.game_id == "game-x"
    # the spectator's view: the public record only, and the game's public state
    spectator = Session(rules, randoms(7, 4), 4)
    spectator.run_sync()
    public = spectator.public_view()
    assert list(public.events) == [e for e in spectator.game.events if e.audience is None]
    assert public.alive == tuple(spectator.game.alive) and public.phase == "end"
    with pytest.raises(ValueError, match="before_batch"):
        Session(rules, randoms(7, 1), 1, hooks=Hooks(before_batch=before)).run_sync()
    with pytest.raises(ValueError, match="needs 7 players"):
        Session(rules, randoms(5, 1), 1)


def test_a_seat_says_everything_the_session_asks_of_it() -> None:
    from lycan.engine.session import Seat, SeatBase, as_seat

    class Half:
        is_seat = True
        label = "half"

        async def answer(self, view: object, request: object) -> object:
            return None

    with pytest.raises(TypeError, match="lacks can_answer_now, reports_model_calls, begin_game, drain"):
        as_seat(Half())

    class Whole(SeatBase):
        label = "whole"

        async def answer(self, view: object, request: object) -> object:
            return None

    whole = Whole()
    assert as_seat(whole) is whole and isinstance(whole, Seat)
    assert not whole.can_answer_now and list(whole.drain()) == [] and whole.begin_game("g", 0) is None
