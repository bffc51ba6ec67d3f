"""Search by rollouts: worlds rebuilt from one seat's view, candidates played out, a clear winner taken."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from lycan.agents import HeuristicAgent, make_agent
from lycan.agents.deepwolf import HOLD, RECORD_MODEL, DeepWolfAgent
from lycan.agents.rollout import Estimate, Script, choose, misfits, play_world
from lycan.engine import Game, Request, View, run_sync
from lycan.engine.actions import OVER, Action
from lycan.engine.events import Died, Divined, Fault, Talk, VoteCast
from lycan.engine.session import Session
from lycan.rules import Role, get_preset


def test_a_game_can_be_dealt_by_hand_and_a_wrong_deal_is_refused() -> None:
    rules = get_preset("aiwolf5")
    deal = (Role.SEER, Role.WEREWOLF, Role.VILLAGER, Role.POSSESSED, Role.VILLAGER)
    assert Game(rules, 3, deal=deal).roles == deal
    assert Game(rules, 3).roles == Game(rules, 3).roles  # drawn from the seed otherwise
    with pytest.raises(ValueError, match="in some order"):
        Game(rules, 3, deal=(Role.SEER, Role.WEREWOLF, Role.WEREWOLF, Role.POSSESSED, Role.VILLAGER))
    with pytest.raises(ValueError, match="in some order"):
        Game(rules, 3, deal=deal[:4])


class Recorder(HeuristicAgent):
    """A heuristic player that keeps every (view, request) it was asked, for tests to search from."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked: list[tuple[View, Request, Action]] = []

    def decide(self, view: View, request: Request) -> Action:
        action = super().decide(view, request)
        frozen = View(
            view.seat, view.role, view.names, view.rules, view.day, view.phase, view.alive, tuple(view.events)
        )
        self.asked.append((frozen, request, action))
        return action


def _played(seed: int, seat: int, preset: str = "aiwolf5") -> tuple[Session, Recorder]:
    rules = get_preset(preset)
    players: list[HeuristicAgent] = [HeuristicAgent(s) for s in range(rules.n_players)]
    recorder = Recorder(seat)
    players[seat] = recorder
    session = Session(rules, players, seed)
    session.run_sync()
    return session, recorder


@pytest.mark.parametrize("seed", range(12))
def test_the_script_holds_only_what_the_seat_saw(seed: int) -> None:
    session, rec = _played(seed, seed % 5)
    game = session.game
    view = rec.asked[-1][0]
    script = Script.of(view)
    public_talk = [e for e in game.public if isinstance(e, Talk) and e.channel == "talk"]
    said = [a for acts in script.talk.values() for a in acts]
    assert len(said) == len([e for e in view.events if isinstance(e, Talk) and e.channel == "talk"])
    assert len(said) <= len(public_talk)
    assert all((e.actor, e.day, e.round) in script.votes for e in view.events if isinstance(e, VoteCast))
    night_deaths = {e.day - 1: e.target for e in view.events if isinstance(e, Died) and e.cause == "night"}
    own = {("divine", e.day): e.target for e in view.events if isinstance(e, Divined) and e.actor == view.seat}
    for (kind, night), target in script.night.items():
        if kind == "attack" and view.role is not Role.WEREWOLF:
            assert night_deaths[night] == target  # a villager knows an attack only by its victim
        elif kind == "divine":
            assert view.role is Role.SEER and own[("divine", night)] == target
    if view.role is not Role.SEER:
        assert not any(kind == "divine" for kind, _ in script.night)


def test_worlds_rebuilt_with_the_true_deal_reach_the_decision_where_the_view_stands() -> None:
    fitted = tried = 0
    for seed in range(6):
        session, rec = _played(seed, 0)
        for view, request, action in rec.asked:
            if request.kind not in ("vote", "divine", "attack") or request.attempt:
                continue
            tried += 1
            result = play_world(view, request, action, session.game.roles, seed * 7 + 1, HeuristicAgent)
            fitted += result is not None
    assert tried >= 8
    assert fitted >= 0.8 * tried  # a tie broken the other way may drop a world, rarely


def test_in_a_rebuilt_world_only_past_days_talk_is_closed_by_the_script() -> None:
    from lycan.agents.rollout import _World

    _, rec = _played(3, 0)
    view, request, _ = next(
        (v, r, a) for v, r, a in rec.asked if r.kind == "talk" and r.day == 1 and not r.attempt and r.talk.turn > 0
    )
    world = _World(Script.of(view), view, request, HeuristicAgent, 1)
    spoken = {s: len(acts) for (s, d), acts in Script.of(view).talk.items() if d == 1}
    other = next(s for s in view.living_others() if s in spoken)
    today = Request(id=99, seat=other, kind="talk", day=1)
    for _ in range(spoken[other]):  # what it said today in the view, in order
        act = world.scripted(today)
        assert act is not None
    assert world.scripted(today) is None  # then its turns are the world's own: the base policy speaks
    day0 = Request(id=98, seat=other, kind="talk", day=0)
    replayed = [world.scripted(day0) for _ in Script.of(view).talk[(other, 0)]]
    assert replayed == Script.of(view).talk[(other, 0)]  # day 0 replayed as it was
    assert world.scripted(day0) == OVER  # and once it is used up, a past day's talk is over


def test_a_deal_that_gives_the_seat_another_role_is_refused() -> None:
    session, rec = _played(2, 1)
    view, request, action = next((v, r, a) for v, r, a in rec.asked if r.kind == "vote")
    other = next(r for r in session.game.roles if r is not view.role)
    deal = list(session.game.roles)
    j = deal.index(other)
    deal[view.seat], deal[j] = deal[j], deal[view.seat]
    with pytest.raises(ValueError, match="its own role"):
        play_world(view, request, action, deal, 1, HeuristicAgent)


class Rows(Estimate):
    """Hand-built outcomes, handed out `first` at a time, for the choice rule alone."""

    def __init__(self, rows: list[tuple[bool, ...]], weights: list[float] | None = None) -> None:  # nothing is played
        self.candidates = [Action.choose(i) for i in range(len(rows[0]))]
        self.outcomes, self.weight, self.dropped, self._rows = [], [], 0, rows
        self._weights = weights or [1.0] * len(rows)

    def run(self, worlds: int, tries: int = 3, deadline: float | None = None) -> Rows:
        start = len(self.outcomes)
        self.outcomes.extend(self._rows[start : start + worlds])
        self.weight.extend(self._weights[start : start + worlds])
        return self


def test_the_proposal_is_kept_unless_another_candidate_wins_clearly_more_often() -> None:
    # equal everywhere: the proposal
    assert choose(Rows([(True, True)] * 16), first=16, most=64, margin=0.05) == 0
    # ahead by 2 of 16 with 2 discordant worlds: not clear, and no more worlds to look at
    rows = [(False, True), (False, True)] + [(True, True)] * 14
    assert choose(Rows(rows), first=16, most=16, margin=0.05) == 0
    # ahead by 9 of 16, none the other way: 9 >= 2 * sqrt(9)
    rows = [(False, False, True)] * 9 + [(True, True, True)] * 7
    assert choose(Rows(rows), first=16, most=16, margin=0.05) == 2
    # a lead that becomes clear only with more worlds is found by looking further
    early = [(False, True), (True, False), (False, True)] + [(True, True)] * 13
    late = [(False, True)] * 10 + [(True, True)] * 6
    assert choose(Rows(early + late), first=16, most=16, margin=0.05) == 0
    assert choose(Rows(early + late), first=16, most=64, margin=0.05) == 1
    # out of time: the choice is made on the worlds played so far
    assert choose(Rows(early + late), first=16, most=64, margin=0.05, deadline=0.0) == 0
    # rounds that keep no world (every draw dropped) still end the search
    assert choose(Rows(early[:3] + [(True, True)] * 13), first=16, most=64, margin=0.05) == 0
    # a tie between two others and the proposal: the proposal
    assert choose(Rows([(True, True, True)] * 16), first=16, most=64, margin=0.0) == 0


def test_weighted_worlds_count_as_their_effective_number() -> None:
    # 9 worlds where the other candidate wins alone: clear when they weigh as much as the rest ...
    rows = [(False, True)] * 9 + [(True, True)] * 7
    assert choose(Rows(rows), first=16, most=16, margin=0.05) == 1
    # ... not when they weigh next to nothing (the worlds that explain the table say otherwise)
    assert choose(Rows(rows, [0.01] * 9 + [1.0] * 7), first=16, most=16, margin=0.05) == 0
    # and the heavy worlds decide, whichever way they go
    flipped = [(True, False)] * 7 + [(False, True)] * 9
    assert choose(Rows(flipped), first=16, most=16, margin=0.05) == 0  # 9 against 7: not clear
    assert choose(Rows(flipped, [0.05] * 7 + [1.0] * 9), first=16, most=16, margin=0.05) == 1
    est = Rows(rows, [0.5] * 16).run(16)
    assert est.effective == pytest.approx(16.0)  # equal weights: the plain count
    assert est.wins(1) == pytest.approx(16.0) and est.rate(0) == pytest.approx(7 / 16)
    light = Rows(rows, [0.01] * 9 + [1.0] * 7).run(16)
    assert light.effective < 8 and light.rate(0) > 0.98


def test_weighing_worlds_by_misfits_finds_a_heuristic_tables_werewolf_more_often() -> None:
    """A villager's P(the true werewolf) at its day-1 vote: the belief posterior alone, then each deal
    weighed by how well it explains the table's answers (`fit ** misfits`, over a few world seeds)."""
    from lycan.beliefs.tracker import Beliefs

    rules = get_preset("aiwolf5")
    plain = fitted = 0.0
    games = 0
    for seed in range(16):
        seat = Game(rules, seed).roles.index(Role.VILLAGER)
        session, rec = _played(seed, seat)
        asked = [(v, r) for v, r, _ in rec.asked if r.kind == "vote" and r.day == 1 and not r.attempt]
        if not asked:
            continue
        view, request = asked[0]
        wolf = session.game.roles.index(Role.WEREWOLF)
        deals, weights = Beliefs.for_view(view).deals()
        script = Script.of(view)
        rng = random.Random(seed)
        fits = []
        for deal in deals:
            counts = [misfits(view, request, deal, rng.getrandbits(48), HeuristicAgent, script) for _ in range(3)]
            fits.append(sum(0.0 if c is None else 0.5**c for c in counts) / 3)
        total = sum(weights)
        plain += sum(w for d, w in zip(deals, weights, strict=True) if d[wolf] is Role.WEREWOLF) / total
        both = [w * f for w, f in zip(weights, fits, strict=True)]
        fitted += sum(b for d, b in zip(deals, both, strict=True) if d[wolf] is Role.WEREWOLF) / sum(both)
        games += 1
    assert games >= 12
    assert fitted / games > plain / games + 0.1, (plain / games, fitted / games)


def test_a_world_whose_seer_claimed_a_divination_divines_that_seat() -> None:
    from lycan.agents.rollout import _World

    for seed in range(20):
        session, rec = _played(seed, 0)
        if session.game.roles[0] is Role.SEER:
            continue
        view, request, _ = next(((v, r, a) for v, r, a in rec.asked if r.kind == "vote" and r.day == 1), (None,) * 3)
        if view is None:
            continue
        script = Script.of(view)
        claims = [e for e in view.events if isinstance(e, Talk) and e.day == 1 and "I divined" in e.text]
        if not claims:
            continue
        claimant = claims[0].actor
        named = script.claimed[(claimant, 0)]
        assert view.names[named] in claims[0].text
        world = _World(script, view, request, HeuristicAgent, 1)
        others = tuple(s for s in range(5) if s != claimant)
        asked = Request(id=7, seat=claimant, kind="divine", day=0, targets=others)
        assert world.scripted(asked) == Action.choose(named)
        dead = Request(id=8, seat=claimant, kind="divine", day=0, targets=tuple(s for s in others if s != named))
        assert world.scripted(dead) is None  # the seat it named is not there to divine: the world's own choice
        return
    pytest.fail("no game with a seer claim seen by a non-seer")


def test_late_divination_reports_are_filed_under_the_nights_still_free() -> None:
    script = Script()
    script.claim(1, 2, 3)  # said on day 2, nothing said before: night 0
    script.claim(1, 2, 4)  # a second name that day: night 1
    script.claim(1, 2, 3)  # a name said again: nothing new
    script.claim(1, 3, 0)  # day 3: night 2
    script.claim(2, 1, 4)  # another claimant keeps its own nights
    script.claim(2, 1, 0)  # no night before day 1 is free any more: dropped
    script.claim(3, 2, 1, night=1)  # a night given ("Last night" on day 2) is taken
    script.claim(3, 2, 2, night=1)  # ... unless it is taken already
    assert script.claimed == {(1, 0): 3, (1, 1): 4, (1, 2): 0, (2, 0): 4, (3, 1): 1, (3, 0): 2}
    from lycan.agents.rollout import _night_of

    assert _night_of("I am the seer. Last night I divined Player 2: human.", "Player 2", 2) == 1
    assert (
        _night_of("On night 0 I divined Player 2: werewolf. Last night I divined Player 3: human.", "Player 2", 2) == 0
    )
    assert _night_of("I divined Player 2: human.", "Player 2", 2) is None


def test_fitted_worlds_weigh_differently_and_light_ones_are_not_played() -> None:
    rules = get_preset("aiwolf5")
    seed = 5
    seat = Game(rules, seed).roles.index(Role.VILLAGER)
    _, rec = _played(seed, seat)
    view, request, action = next((v, r, a) for v, r, a in rec.asked if r.kind == "vote" and r.day == 1)
    candidates = [action, *(Action.choose(t) for t in request.targets if Action.choose(t) != action)][:2]
    est = Estimate(view, request, candidates, random.Random(1), fit=0.5, cutoff=0.0).run(24)
    assert est.worlds >= 16 and len(set(est.weight)) > 1
    assert 0 < est.effective < est.worlds
    assert all(0.0 <= est.rate(i) <= 1.0 for i in range(len(candidates)))
    strict = Estimate(view, request, candidates, random.Random(1), fit=0.5, cutoff=1.0).run(24)
    assert strict.dropped > est.dropped  # worlds lighter than the heaviest seen are skipped
    plain = Estimate(view, request, candidates, random.Random(1)).run(8)
    assert plain.weight == [1.0] * plain.worlds and plain.effective == pytest.approx(plain.worlds)
    with pytest.raises(ValueError, match="fit"):
        Estimate(view, request, candidates, random.Random(1), fit=1.5)


def test_fitting_keeps_the_searched_games_legal() -> None:
    rules = get_preset("aiwolf5")
    seed = 21
    seat = Game(rules, seed).roles.index(Role.VILLAGER)
    players: list[object] = [HeuristicAgent(s) for s in range(5)]
    players[seat] = DeepWolfAgent(seed, rollouts=8, search_fit=0.5)
    record = run_sync(rules, players, seed)
    assert not [e for e in record.events if isinstance(e, Fault)]
    assert any("searched" in json.loads(c.reasoning) for c in record.model_calls)
    with pytest.raises(ValueError, match="search_fit"):
        DeepWolfAgent(1, search_fit=0)


def test_search_plays_legal_games_and_records_each_candidates_win_rate() -> None:
    rules = get_preset("aiwolf5")
    searched = 0
    for seed in (11, 12):
        wolf = Game(rules, seed).roles.index(Role.WEREWOLF)
        players: list[object] = [HeuristicAgent(s) for s in range(5)]
        players[wolf] = DeepWolfAgent(seed, rollouts=8, search_talk=2)
        record = run_sync(rules, players, seed)
        assert record.winner in ("village", "werewolf")
        assert not [e for e in record.events if isinstance(e, Fault)]
        for call in record.model_calls:
            assert call.model == RECORD_MODEL and call.seat == wolf
            detail = json.loads(call.reasoning)
            if "searched" not in detail:
                continue
            searched += 1
            rates = dict((text, rate) for text, rate in detail["searched"])
            assert all(0.0 <= r <= 1.0 for r in rates.values())
            assert detail["searched"][0][0] == detail["proposal"][0]  # the proposal is played first
            if detail["chosen"][0] != detail["proposal"][0]:  # a departure only for a better rate
                assert rates[detail["chosen"][0]] > rates[detail["proposal"][0]]
    assert searched >= 2


def test_search_is_chosen_by_options_as_text_and_needs_an_anchor() -> None:
    rules = get_preset("aiwolf5")
    agent = make_agent("deepwolf", 3, rollouts="4", search_talk="0", search_margin="0.1")
    assert isinstance(agent, DeepWolfAgent) and (agent.worlds("seer"), agent.search_talk) == (4, {"*": 0})
    record = run_sync(rules, [agent, *(HeuristicAgent(s) for s in range(1, 5))], 5)
    assert record.winner in ("village", "werewolf")
    with pytest.raises(ValueError, match="anchor"):
        DeepWolfAgent(1, rollouts=4, anchor=None)


def test_the_same_view_and_stream_give_the_same_estimate() -> None:
    _, rec = _played(4, 2)
    view, request, _ = next((v, r, a) for v, r, a in rec.asked if r.kind == "vote")
    candidates = [Action.choose(t) for t in request.targets]
    a = Estimate(view, request, candidates, random.Random(9)).run(6)
    b = Estimate(view, request, candidates, random.Random(9)).run(6)
    assert a.outcomes == b.outcomes and a.worlds == 6


@pytest.mark.parametrize("preset", ["aiwolf5", "guardian7"])
def test_worlds_are_drawn_only_among_deals_the_seat_cannot_rule_out(preset: str) -> None:
    for seed in range(8):
        rules = get_preset(preset)
        seat = seed % rules.n_players
        session, rec = _played(seed, seat, preset)
        truth = session.game.roles
        for view, request, _ in rec.asked[:: max(1, len(rec.asked) // 4)]:
            est = Estimate(
                view, request, [Action.choose(t) for t in request.targets] or [Action("over")], random.Random(0)
            )
            assert truth in est.deals  # what really happened is never ruled out
            for deal in est.deals:
                assert deal[seat] is view.role
                for e in view.events:
                    if isinstance(e, Divined) and e.actor == seat:
                        assert (deal[e.target] is Role.WEREWOLF) == (e.result.value == "werewolf")
                if view.role is Role.WEREWOLF:
                    assert {s for s, r in enumerate(deal) if r is Role.WEREWOLF} == set(view.wolves())
            assert abs(sum(est.weights) - 1.0) < 1e-9


class LikesSuspicion:
    """A stand-in network that rates any suspicion highest and every target alike."""

    def score(self, view: View, request: Request, candidates: list[Action]) -> list[float]:
        return [0.9 if a.kind == "speak" and a.text.startswith("I suspect") else 0.5 for a in candidates]


def test_what_is_not_searched_or_fails_to_search_keeps_the_networks_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from lycan.data.candidates import Candidates

    rules = get_preset("aiwolf5")
    cands = Candidates({r: ["I suspect {0}.", "Good morning."] for r in ("villager", "seer", "possessed", "werewolf")})

    def lineup() -> list[object]:
        seat = DeepWolfAgent(1, value=LikesSuspicion(), candidates=cands, margin=0.01, rollouts=4, search_talk=0)
        return [seat, *(HeuristicAgent(s) for s in range(1, 5))]

    record = run_sync(rules, lineup(), 8)
    said = [e.text for e in record.events if isinstance(e, Talk) and e.actor == 0 and not (e.over or e.skip)]
    assert said and said[0].startswith("I suspect")  # talk not searched: the network's departure stands
    notes = [json.loads(c.reasoning) for c in record.model_calls if c.kind == "vote"]
    assert notes and all("searched" in n for n in notes)  # targets were searched

    def broken(*args: object, **kw: object) -> None:
        raise RuntimeError("no worlds today")

    monkeypatch.setattr("lycan.agents.rollout.Estimate.__init__", broken)
    record = run_sync(rules, lineup(), 8)
    assert record.winner in ("village", "werewolf") and not [e for e in record.events if isinstance(e, Fault)]
    errors = [c.error for c in record.model_calls if c.kind == "vote"]
    assert errors and all(e == "search: RuntimeError: no worlds today" for e in errors)


def test_the_talk_pool_is_the_proposal_the_best_others_and_one_about_each_seat() -> None:
    from lycan.data.candidates import Candidates

    _, rec = _played(5, 0)
    view, request, action = next((v, r, a) for v, r, a in rec.asked if r.kind == "talk" and r.day == 1)
    cands = Candidates({view.role.value: ["I suspect {0}.", "I will vote for {0}.", "Good morning.", "Hello all."]})
    agent = DeepWolfAgent(1, value=LikesSuspicion(), candidates=cands, search_talk=1, rollouts=4)
    options = [action, *(o for o in agent.options(view, request) if o != action)]
    ranked = list(range(len(options)))
    pool = agent._talk_pool(view, options, ranked, 0)
    texts = [options[i].text for i in pool]
    assert pool[0] == 0 and len(set(texts)) == len(texts)
    assert len(pool) <= 1 + 1 + len(view.living_others())
    for seat in view.living_others():  # something about every other living seat is weighed
        assert any(view.names[seat] in t for t in texts[1:])


class LikesHolding:
    """A stand-in network that rates holding back highest."""

    def score(self, view: View, request: Request, candidates: list[Action]) -> list[float]:
        return [0.99 if a == HOLD else 0.5 for a in candidates]


def _seer_on_day_one(seed: int) -> tuple[Recorder, View, Request, Action]:
    """A heuristic seer's game of `seed`: its recorder, and its first day-1 talk turn (view, request, answer)."""
    _, rec = _played(seed, Game(get_preset("aiwolf5"), seed).roles.index(Role.SEER))
    view, request, action = next((v, r, a) for v, r, a in rec.asked if r.kind == "talk" and r.day == 1)
    return rec, view, request, action


def test_holding_back_is_played_out_only_beside_a_searched_proposal_that_says_something() -> None:
    rec, view, request, action = _seer_on_day_one(3)
    assert action.kind == "speak" and "seer" in action.text  # the heuristic seer comes out at once
    held = DeepWolfAgent(1, search_hold=1, search_talk=0, rollouts=4)
    assert held._may_hold(view, request, action)
    assert not DeepWolfAgent(1, search_talk=0, rollouts=4, search_hold=0)._may_hold(view, request, action)
    assert not DeepWolfAgent(1, search_hold=1, rollouts=0)._may_hold(view, request, action)  # not searched
    assert not held._may_hold(view, dataclasses.replace(request, attempt=1), action)  # a retry is not searched
    assert not held._may_hold(view, request, OVER) and not held._may_hold(view, request, None)
    assert not held._may_hold(view, request, Action.speak("Good morning."))  # nothing to hold back
    vote_view, vote, _ = next((v, r, a) for v, r, a in rec.asked if r.kind == "vote")
    assert not held._may_hold(vote_view, vote, Action.choose(vote.targets[0]))
    options = [action, *(o for o in held.options(view, request) if o != action), HOLD]
    ranked = list(range(len(options)))
    hold = len(options) - 1
    assert held._talk_pool(view, options, ranked, 0, hold) == [0, hold]
    assert held._talk_pool(view, options, ranked, 0) == [0]
    wide = DeepWolfAgent(1, search_hold=1, search_talk=2, rollouts=4)
    pool = wide._talk_pool(view, options, ranked, 0, hold)
    assert hold in pool and len([i for i in pool[:4] if i != hold]) == 3  # beside the proposal and 2 others
    with pytest.raises(ValueError, match="search_hold"):
        DeepWolfAgent(1, search_hold=2)
    with pytest.raises(ValueError, match="search_hold"):
        DeepWolfAgent(1, search_hold="0.5")


def test_a_seat_that_said_it_has_no_suspicion_yet_does_not_hold_back_again() -> None:
    rules = get_preset("aiwolf5")
    for seed in range(20):
        seat = Game(rules, seed).roles.index(Role.VILLAGER)
        _, rec = _played(seed, seat)
        later = [
            (v, r)
            for v, r, _ in rec.asked
            if r.kind == "talk"
            and any(isinstance(e, Talk) and e.actor == seat and e.text == HOLD.text for e in v.events)
        ]
        if later:
            break
    view, request = later[0]
    claim = Action.speak("I will vote for " + view.names[view.living_others()[0]] + ".")
    agent = DeepWolfAgent(1, search_hold=1, rollouts=4)
    assert not agent._may_hold(view, request, claim)  # never a sentence twice


def test_the_network_alone_never_picks_holding_back() -> None:
    _, view, request, _ = _seer_on_day_one(3)
    agent = DeepWolfAgent(1, value=LikesHolding(), margin=0.0, talk_margin=0.0, search_hold=1, rollouts=0)
    assert agent.choose(view, request) != HOLD


@pytest.mark.parametrize("seed", [0, 6])  # deals where holding back is clearly worth it (by 0.18 and 0.23)
def test_a_seer_searching_when_to_come_out_holds_back_a_white_result_then_claims(seed: int) -> None:
    rules = get_preset("aiwolf5")
    seer = Game(rules, seed).roles.index(Role.SEER)
    players: list[object] = [HeuristicAgent(s) for s in range(5)]
    players[seer] = DeepWolfAgent(seed, search_hold=1, rollouts=32, search_seconds=30)
    record = run_sync(rules, players, seed)
    assert not [e for e in record.events if isinstance(e, Fault)]
    talks = [c for c in record.model_calls if c.kind == "talk"]
    first = next(json.loads(c.reasoning) for c in talks if "searched" in json.loads(c.reasoning))
    assert HOLD.text in [text for text, _ in first["searched"]]
    said = [e for e in record.events if isinstance(e, Talk) and e.actor == seer and e.day == 1 and e.text]
    white = [e for e in record.events if isinstance(e, Divined) and e.day == 0]
    assert white and white[0].result.value == "human"  # nothing urgent to announce
    assert said[0].text == HOLD.text  # it held back at its first turn
    assert any("seer" in e.text for e in said[1:])  # and came out later that day


def test_search_seconds_are_per_role_and_never_past_half_the_requests_timeout() -> None:
    _, rec = _played(6, 0)
    view, request, _ = next((v, r, a) for v, r, a in rec.asked if r.kind == "vote")
    agent = DeepWolfAgent(1, search_seconds={view.role.value: 9.0, "*": 1.0})
    assert agent._seconds(view, request) == min(9.0, request.timeout / 2)
    assert DeepWolfAgent(1, search_seconds="0.5")._seconds(view, request) == 0.5
    short = dataclasses.replace(request, timeout=3.0)
    assert agent._seconds(view, short) == 1.5
    with pytest.raises(ValueError, match="search_seconds"):
        DeepWolfAgent(1, search_seconds=0)
