"""The `camwolf` agent: Reasoner answers validated against the seat's view, conclusions that drive
votes, speech and the probe, and the manner that reaches the record (scripted models here; the
embedded model plays it in `test_camwolf_real.py`)."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from lycan.agents import lineup, make_agent
from lycan.agents.camwolf import (
    STEER_MARGIN,
    CamWolfAgent,
    Identification,
    Reasoning,
    read_reasoning,
    reasoner_log,
    reasoner_prompt,
    reasoner_schema,
)
from lycan.agents.heuristic import HeuristicAgent
from lycan.agents.parsing import ParseError
from lycan.arena.config import AgentSpec
from lycan.arena.executors import players_for
from lycan.beliefs.claims import Statement, parser_for
from lycan.engine.actions import Action, Request
from lycan.engine.events import Talk, VoteCast
from lycan.engine.game import Game
from lycan.engine.manner import Manner
from lycan.engine.record import GameRecord
from lycan.engine.runner import run_async, run_sync
from lycan.engine.seeds import derive
from lycan.engine.view import View
from lycan.models.base import ChatRequest
from lycan.rules import Role, Species, Team, get_preset, team_of
from scripted import ScriptedModel, sensible


def _is_reason(request: ChatRequest) -> bool:
    return request.json_schema is not None and "identifications" in request.json_schema["properties"]


def reasoner(pick: Any) -> ScriptedModel:
    """A model whose Reasoner answers come from `pick(request, schema)`; every other call is `sensible`."""

    def respond(request: ChatRequest) -> object:
        if _is_reason(request):
            return pick(request, request.json_schema)
        return sensible(request)

    return ScriptedModel(respond)


def conclude(player_rank: int = 0, role: str = "werewolf", premises: Any = None) -> Any:
    """Answers that conclude `role` for one of the listed players, citing the newest events shown."""

    def pick(request: ChatRequest, schema: dict[str, Any]) -> str:
        item = schema["properties"]["identifications"]["items"]["properties"]
        names = item["player"]["enum"]
        ids = item["premises"]["items"].get("enum", [0])
        return json.dumps(
            {
                "think": "Two votes went the same way.",
                "identifications": [
                    {
                        "premises": premises if premises is not None else ids[-2:],
                        "deduction": "they voted together",
                        "player": names[player_rank % len(names)],
                        "role": role,
                    }
                ],
                "style": {"pace": "fast", "pitch": "low", "emotion": "suspicious"},
                "vision": {"expression": "narrowed", "gesture": "point"},
            }
        )

    return pick


def _view(seed: int = 3) -> View:
    game = Game(get_preset("guardian7"), seed)
    batch = next(game.play())
    return game.view(batch[0].seat)


def test_the_schema_only_offers_visible_events_other_players_and_the_manner_vocabulary() -> None:
    schema = reasoner_schema(["Player 2", "Player 3"], ["villager", "werewolf"], [4, 9])
    item = schema["properties"]["identifications"]["items"]["properties"]
    assert item["premises"]["items"]["enum"] == [4, 9] and item["premises"]["minItems"] == 1
    assert item["player"]["enum"] == ["Player 2", "Player 3"]
    assert schema["properties"]["style"]["properties"]["pace"]["enum"] == ["slow", "normal", "fast"]


def test_premises_outside_the_view_or_missing_are_format_errors() -> None:
    view = _view()
    other = next(s for s in range(view.n_players) if s != view.seat)
    seen = [e.id for e in view.events]
    good = {
        "think": "",
        "identifications": [{"premises": seen[:1], "deduction": "d", "player": view.names[other], "role": "werewolf"}],
        "style": {"pace": "slow"},
        "vision": {"expression": "smile", "gesture": "wave"},
    }
    reasoning = read_reasoning(json.dumps(good), view)
    assert reasoning.identifications[0].player == other
    assert reasoning.manner == Manner(pace="slow", expression="smile")  # "wave" is no gesture: default kept
    for premises, message in (([10_000], "not in your log"), ([], "no premise"), (["x"], "no event id")):
        bad = json.loads(json.dumps(good))
        bad["identifications"][0]["premises"] = premises
        with pytest.raises(ParseError, match=message):
            read_reasoning(json.dumps(bad), view)
    bad = json.loads(json.dumps(good))
    bad["identifications"][0]["player"] = view.names[view.seat]
    with pytest.raises(ParseError, match="no other player"):
        read_reasoning(json.dumps(bad), view)
    with pytest.raises(ParseError):
        read_reasoning("the wolves are near", view)


def _play(model: ScriptedModel, seed: int = 5, **kw: Any) -> tuple[list[CamWolfAgent], Any]:
    rules = get_preset("guardian7")
    players = [CamWolfAgent(model, seed * 10 + s, talk="phrase", **kw) for s in range(rules.n_players)]
    record = asyncio.run(run_async(rules, players, seed))
    return players, record


def test_votes_follow_the_conclusions_and_speech_carries_the_manner() -> None:
    # with no margin the Reasoner's werewolf is the vote whatever the evidence says (the default
    # margin, where it is only a tie-breaker, is tested below)
    players, record = _play(reasoner(conclude()), steer_margin=None)
    assert record.winner is not None
    spoken = [e for e in record.events if isinstance(e, Talk) and e.channel == "talk" and not (e.over or e.skip)]
    day_talk = [e for e in spoken if e.day >= 1]
    assert day_talk and all(e.manner == Manner("fast", "low", "suspicious", "narrowed", "point") for e in day_talk)
    followed = checked = 0
    for vote in (e for e in record.events if isinstance(e, VoteCast)):
        agent = players[vote.actor]
        wolf = [i.player for d, r in agent.reasonings if d == vote.day for i in r.identifications]
        if wolf and wolf[0] != vote.actor and record.roles[vote.actor] is not Role.WEREWOLF:
            checked += 1
            followed += vote.target == wolf[0]
    assert checked and followed >= 0.8 * checked, (followed, checked)
    reasons = [c for c in record.model_calls if c.kind == "reason"]
    assert reasons and all(not c.error for c in reasons)
    assert "identifications" in reasons[0].reasoning


def test_a_bad_premise_is_repaired_once_then_falls_back_to_the_belief_engine() -> None:
    calls: list[int] = []

    def pick(request: ChatRequest, schema: dict[str, Any]) -> str:
        calls.append(1)
        return conclude(premises=[123_456])(request, schema)

    players, record = _play(reasoner(pick))
    errors = [c for c in record.model_calls if c.kind == "reason" and c.error.startswith("format error")]
    assert errors and all("not in your log" in c.error for c in errors)
    assert sum(p.fallbacks for p in players) > 0
    assert all(r.fallback for p in players for _, r in p.reasonings)
    assert len(calls) == 2 * sum(len(p.reasonings) for p in players)


def test_the_probe_is_answered_from_the_conclusions() -> None:
    rules = get_preset("guardian7")
    model = reasoner(conclude(role="seer"))
    players = [CamWolfAgent(model, 70 + s, talk="phrase") for s in range(rules.n_players)]
    record = asyncio.run(run_async(rules, players, 7, probe_days=(1,)))
    probes = [d for d in record.decisions if d.kind == "probe"]
    assert probes
    for d in probes:
        agent = players[d.seat]
        concluded = {i.player: i.role for day, r in agent.reasonings if day <= 1 for i in r.identifications}
        for seat, role, p in d.answer.guesses:
            if seat in concluded and p == 0.7:
                assert role is concluded[seat]
        if concluded:
            assert any(seat in concluded and role is concluded[seat] for seat, role, _ in d.answer.guesses)


def test_grounding_shows_the_belief_engines_evidence_with_event_ids() -> None:
    seen: list[str] = []

    def pick(request: ChatRequest, schema: dict[str, Any]) -> str:
        seen.append(request.messages[-1]["content"])
        return conclude()(request, schema)

    _play(reasoner(pick), grounding="beliefs")
    grounded = [t for t in seen if "What the evidence says" in t]
    assert grounded, "the summary was shown"
    assert any("werewolf side" in t for t in grounded)


def test_camwolf_is_an_agent_type_that_needs_a_model() -> None:
    with pytest.raises(ValueError, match="needs a chat model"):
        make_agent("camwolf", 1)
    agent = make_agent("camwolf", 1, model=ScriptedModel(), grounding="beliefs")
    assert isinstance(agent, CamWolfAgent) and agent.label == "camwolf"
    assert agent.planner().trust_lone_seer  # the default; a tournament's options can turn it off
    untrusting = make_agent("camwolf", 1, model=ScriptedModel(), trust_lone_seer=False)
    assert isinstance(untrusting, CamWolfAgent) and not untrusting.planner().trust_lone_seer
    assert CamWolfAgent.planner_type.trust_lone_seer  # set on the seat's planner, not its class
    # a tournament seat's options reach it (the model is never called here)
    spec = AgentSpec(agent="camwolf", model="openai:fake@http://127.0.0.1:9/v1", options={"trust_lone_seer": False})
    (seat,) = players_for([spec], seed=1)
    assert isinstance(seat, CamWolfAgent) and not seat.planner().trust_lone_seer
    with pytest.raises(ValueError, match="grounding"):
        make_agent("camwolf", 1, model=ScriptedModel(), grounding="vibes")


def test_conclusions_that_the_seats_knowledge_rules_out_are_dropped() -> None:
    # every Reasoner answer names the first listed player a werewolf: a werewolf seat knows the pack,
    # so the conclusion survives only where that player is its partner
    players, record = _play(reasoner(conclude(role="werewolf")))
    pack = {s for s, r in enumerate(record.roles) if r is Role.WEREWOLF}
    for seat in pack:
        for _, reasoning in players[seat].reasonings:
            if not reasoning.fallback:
                assert all(i.player in pack for i in reasoning.identifications)
    assert sum(p.impossible for p in players) > 0


def _first_day_talk(seed: int = 3) -> tuple[View, Any]:
    """A day-1 talk request of guardian7 and its seat's view (the other requests answered by heuristics)."""
    from dataclasses import replace

    from lycan.agents.heuristic import HeuristicAgent

    game = Game(get_preset("guardian7"), seed)
    agents = [HeuristicAgent(s) for s in range(7)]
    play = game.play()
    batch = next(play)
    while True:
        for request in batch:
            if request.kind == "talk" and request.day >= 1:
                return game.view(request.seat), replace(request, timeout=5.0)
        batch = play.send({r.id: agents[r.seat].decide(game.view(r.seat), r) for r in batch})


def test_a_hanging_reasoner_leaves_time_to_answer_within_the_request() -> None:
    import time

    from scripted import HANG

    view, request = _first_day_talk()
    agent = CamWolfAgent(reasoner(lambda request, schema: HANG), 1, talk="phrase")
    started = time.perf_counter()
    action = asyncio.run(agent.act(view, request))
    took = time.perf_counter() - started
    assert took < request.timeout, took
    assert request.check(action) is None
    assert agent.usage.timeouts >= 1 and agent.reasonings and agent.reasonings[-1][1].fallback


def test_the_reasoners_of_one_day_share_the_table_and_public_log_and_keep_secrets_after_it() -> None:
    seen: list[ChatRequest] = []

    def pick(request: ChatRequest, schema: dict[str, Any]) -> str:
        seen.append(request)
        return conclude()(request, schema)

    for seed in (5, 6, 7):
        seen.clear()
        players, record = _play(reasoner(pick), seed=seed)
        assert {r.session for r in seen} == {f"{players[0].scope}:reason"}
        assert len({r.messages[0]["content"] for r in seen}) == 1, "one system prompt for every seat"
        system = seen[0].messages[0]["content"]
        assert "secret role" not in system and "You are" not in system
        secret_ids = {e.id for e in record.events if e.audience is not None}
        shared = 0
        for before, after in itertools.pairwise(seen):
            head_a, _, tail_a = before.messages[1]["content"].partition("\nYou are ")
            head_b, _, tail_b = after.messages[1]["content"].partition("\nYou are ")
            assert tail_a and tail_b, "who the seat is comes after the public log"
            for head in (head_a, head_b):
                # the public part names no private event and no seat's secret role
                ids = {int(i) for i in re.findall(r"^\[(\d+)\]", head, flags=re.M)}
                assert not ids & secret_ids
                assert "secret role" not in head
            ids_a = re.findall(r"^\[(\d+)\]", head_a, flags=re.M)
            ids_b = re.findall(r"^\[(\d+)\]", head_b, flags=re.M)
            if ids_a and ids_b[: len(ids_a)] == ids_a:
                assert head_b.startswith(head_a), "a later seat's log extends the earlier one's"
                shared += 1
        assert shared >= 3, shared


@pytest.mark.parametrize("preset", ["guardian7", "aiwolf13"])
def test_the_reasoners_log_keeps_today_and_a_window_of_earlier_days_that_rarely_moves(preset: str) -> None:
    from lycan.agents.camwolf import HISTORY_LINES, LOG_LINES, WHISPER_LINES
    from lycan.agents.heuristic import HeuristicAgent
    from lycan.data.samples import decision_points
    from lycan.engine import run_sync
    from lycan.engine.events import AttackVote
    from lycan.engine.events import Talk as TalkEvent
    from lycan.render import event_line

    rules = get_preset(preset)
    windows: dict[tuple[int, int], set[tuple[str, ...]]] = {}
    checked = 0
    for seed in range(4):
        record = run_sync(rules, [HeuristicAgent(seed * 10 + s) for s in range(rules.n_players)], seed)
        for point in decision_points(record):
            if point.request.kind != "talk":
                continue
            view = point.view
            public_rows, private_rows = reasoner_log(view)
            public, private = [r for _, r in public_rows], [r for _, r in private_rows]
            today = [r for r in public if r.split("] ", 1)[1].startswith(f"Day {view.day}:")]
            earlier = public[: len(public) - len(today)]
            assert len(today) <= LOG_LINES and len(earlier) <= HISTORY_LINES
            assert not any("You said" in r for r in public), "the public log reads as a spectator's"
            windows.setdefault((seed, view.day), set()).add(tuple(earlier))
            secret = [e for e in view.events if e.audience is not None and event_line(e, view) is not None]
            shown = {int(r[1:].split("]", 1)[0]) for r in private}
            results = {e.id for e in secret if not isinstance(e, TalkEvent | AttackVote)}
            assert results <= shown, "the seat's results, role and pack are all kept"
            assert not shown & {e.id for e in secret if isinstance(e, AttackVote)}, "the pack's choice stands for picks"
            assert len(shown - results) <= WHISPER_LINES
            assert reasoner_prompt(view).ids == [i for i, _ in public_rows + private_rows]
            checked += 1
    assert checked > 50
    assert all(len(w) <= 3 for w in windows.values()), "earlier days' window moves at most twice a day"


def _pack_games(
    policy: Callable[[int], HeuristicAgent] | None, seeds: range, side: Team = Team.WEREWOLF
) -> list[GameRecord]:
    """guardian7 games of `heuristic-beliefs` seats, with `policy` (None: the same) on every seat of `side`."""
    rules = get_preset("guardian7")
    records = []
    for seed in seeds:
        agents = lineup(["heuristic-beliefs"] * 7, seed)
        if policy is not None:
            for seat, role in enumerate(Game(rules, seed).roles):
                if team_of(role) is side:
                    agents[seat] = policy(derive(seed, "agent", seat))
        records.append(run_sync(rules, agents, seed))
    return records


def _wolf_statements(record: GameRecord) -> list[Statement]:
    """What the werewolves said, in talk and whispers, as parsed statements."""
    parser = parser_for(record.names)
    return [
        s
        for e in record.events
        if isinstance(e, Talk) and record.roles[e.actor] is Role.WEREWOLF and not (e.over or e.skip)
        for s in parser.parse(e.text, e.actor)
    ]


def test_a_camwolf_pack_never_fakes_a_seer_and_names_its_vote_without_arguing() -> None:
    seeds = range(900, 930)
    said = [s for r in _pack_games(CamWolfAgent.planner_type, seeds) for s in _wolf_statements(r)]
    assert any(s.kind == "will_vote" for s in said)
    assert not [s for s in said if s.kind in ("claim", "divined", "fake_plan", "accuses", "liar")]
    # the same deals with the heuristic's pack: its fakes and arguments are there to be missed
    plain = [s for r in _pack_games(None, seeds) for s in _wolf_statements(r)]
    assert any(s.kind == "claim" and s.role == "seer" for s in plain)
    assert any(s.kind == "fake_plan" for s in plain)


def test_the_camwolf_pack_wins_more_than_the_heuristics_on_the_same_deals() -> None:
    # +5.5 points [+0.3, +10.7] over 400 deals (BENCHMARKS.md), +9.5 on these 200, so the test asks
    # for a margin of 5 (it had been 15 in 60 before the village weighed claims in full and the pack
    # lost its easy wins)
    seeds = range(3_000_000, 3_000_200)
    ours = [r.winner == "werewolf" for r in _pack_games(CamWolfAgent.planner_type, seeds)]
    theirs = [r.winner == "werewolf" for r in _pack_games(None, seeds)]
    assert sum(ours) - sum(theirs) >= 0.05 * len(seeds), (sum(ours), sum(theirs))


def _votes_against_a_lone_seer(record: GameRecord) -> list[VoteCast]:
    """Village votes for the seer while the seer was the only player to have claimed seer.

    A revote's voter who is one of the two tied players has the other as its only choice: not counted.
    """
    parser = parser_for(record.names)
    claimants: set[int] = set()
    tally: dict[tuple[int, int], dict[int, int]] = {}  # (day, round) -> votes per target
    out = []
    for e in record.events:
        if isinstance(e, Talk) and e.channel == "talk" and not (e.over or e.skip):
            statements = parser.parse(e.text, e.actor)
            if any((st.kind == "claim" and st.role == "seer") or st.kind == "divined" for st in statements):
                claimants.add(e.actor)
        elif isinstance(e, VoteCast):
            count = tally.setdefault((e.day, e.round), {})
            count[e.target] = count.get(e.target, 0) + 1
            before = tally.get((e.day, e.round - 1), {})
            tied = {t for t, n in before.items() if n == max(before.values())} if before else set()
            forced = len(tied) == 2 and e.actor in tied
            lone_seer = len(claimants) == 1 and e.target in claimants and record.roles[e.target] is Role.SEER
            if lone_seer and not forced and team_of(record.roles[e.actor]) is Team.VILLAGE:
                out.append(e)
    return out


def test_a_camwolf_village_never_votes_out_its_lone_seer_claimant() -> None:
    seeds = range(900, 960)
    ours = _pack_games(CamWolfAgent.planner_type, seeds, Team.VILLAGE)
    assert not [v for r in ours for v in _votes_against_a_lone_seer(r)]
    # the heuristic's belief-driven village, on the same deals, does
    assert [v for r in _pack_games(None, seeds, Team.VILLAGE) for v in _votes_against_a_lone_seer(r)]


def _villagers_as(probe: Callable[[int], HeuristicAgent], seeds: range) -> None:
    """guardian7 games of heuristic-beliefs seats, each villager a `probe` (which asks its questions as it plays)."""
    rules = get_preset("guardian7")
    for seed in seeds:
        agents = lineup(["heuristic-beliefs"] * 7, seed)
        for seat, role in enumerate(Game(rules, seed).roles):
            if role is Role.VILLAGER:
                agents[seat] = probe(derive(seed, "agent", seat))
        run_sync(rules, agents, seed)


def test_the_reasoners_werewolf_conclusion_does_not_steer_a_vote_onto_a_lone_seer_claimant() -> None:
    checked: list[tuple[int, int | None, int | None, int | None]] = []  # claimant; votes: trusting, not, stale steer

    class Probe(HeuristicAgent):
        """A villager that, at each vote, asks a camwolf seat in its place whom it would vote for."""

        def decide(self, view: View, request: Request) -> Action:
            lone = CamWolfAgent.planner_type(1).lone_seer(view)
            if request.kind == "vote" and lone is not None and lone in request.targets and len(request.targets) > 1:
                results = []
                for trust in (True, False):
                    agent = CamWolfAgent(ScriptedModel(sensible), seed=1, trust_lone_seer=trust, steer_margin=None)
                    wrong = Identification((view.events[-1].id,), "a bluff", lone, Role.WEREWOLF)
                    agent.reasonings.append((view.day, Reasoning("", (wrong,), Manner())))
                    results.append(asyncio.run(agent.act(view, request)).target)
                stale = CamWolfAgent(ScriptedModel(sensible), seed=1, steer_margin=None)  # steered before the claim
                stale.planner().steer = lone
                results.append(asyncio.run(stale.act(view, request)).target)
                checked.append((lone, results[0], results[1], results[2]))
            return super().decide(view, request)

    _villagers_as(Probe, range(900, 920))
    assert checked and all(lone not in (trusting, stale) for lone, trusting, _, stale in checked), checked
    assert all(lone == steered for lone, _, steered, _ in checked), checked  # without the trust, it steers


def test_once_the_lone_seer_claimant_reports_a_werewolf_the_reasoner_no_longer_steers_the_vote() -> None:
    checked: list[tuple[int, int | None, int | None, int | None, int]] = []  # wolf; trusting, unsteered, not; steer

    class Probe(HeuristicAgent):
        """A villager that, at each vote, asks a camwolf seat in its place whom it would vote for."""

        def decide(self, view: View, request: Request) -> Action:
            planner = CamWolfAgent.planner_type(1)
            lone = planner.lone_seer(view)
            reported = planner._memory(view).seer_claims.get(lone, {}) if lone is not None else {}
            wolves = [t for t, sp in reported.items() if sp is Species.WEREWOLF and t in request.targets]
            if request.kind == "vote" and wolves:
                other = next(t for t in request.targets if t not in (*wolves, lone))
                results = []
                for trust, concluded in ((True, True), (True, False), (False, True)):
                    agent = CamWolfAgent(ScriptedModel(sensible), seed=1, trust_lone_seer=trust, steer_margin=None)
                    if concluded:
                        wrong = Identification((view.events[-1].id,), "a hunch", other, Role.WEREWOLF)
                        agent.reasonings.append((view.day, Reasoning("", (wrong,), Manner())))
                    results.append(asyncio.run(agent.act(view, request)).target)
                checked.append((wolves[-1], *results, other))
            return super().decide(view, request)

    _villagers_as(Probe, range(900, 940))
    assert checked and all(trusting == unsteered for _, trusting, unsteered, _, _ in checked), checked
    assert sum(wolf == trusting for wolf, trusting, _, _, _ in checked) >= 0.8 * len(checked), checked
    assert all(steered == steer for _, _, _, steered, steer in checked), checked  # without the trust: the Reasoner's


def test_the_reasoners_werewolf_decides_only_between_players_the_evidence_rates_alike() -> None:
    """A conclusion the evidence rates far below its best is not the vote; one within the margin is."""
    far: list[tuple[int, int | None, int | None, int | None]] = []  # concluded; unsteered, default, no margin
    near: list[tuple[int, int | None]] = []  # concluded; vote

    class Probe(HeuristicAgent):
        """A villager that, at each vote, asks camwolf seats in its place whom they would vote for."""

        def decide(self, view: View, request: Request) -> Action:
            if request.kind == "vote" and len(request.targets) > 2:
                planner = CamWolfAgent.planner_type(1)
                mem = planner._memory(view)
                post = planner._posterior(mem, view)
                lone = planner._lone_seer(mem, view)
                if post is not None and lone is None:
                    scores = planner._vote_scores(mem, view, post, request.targets)
                    best = max(scores.values())

                    def vote(concluded: int, **kw: Any) -> int | None:
                        agent = CamWolfAgent(ScriptedModel(sensible), seed=1, **kw)
                        hunch = Identification((view.events[-1].id,), "a hunch", concluded, Role.WEREWOLF)
                        agent.reasonings.append((view.day, Reasoning("", (hunch,), Manner())))
                        return asyncio.run(agent.act(view, request)).target

                    unsteered = asyncio.run(CamWolfAgent(ScriptedModel(sensible), seed=1).act(view, request)).target
                    low = min(scores, key=scores.__getitem__)
                    if best - scores[low] > STEER_MARGIN + 0.01:
                        far.append((low, unsteered, vote(low), vote(low, steer_margin=None)))
                    close = [t for t in scores if t != unsteered and scores[t] >= best - STEER_MARGIN + 0.001]
                    if close:
                        near.append((close[0], vote(close[0])))
            return super().decide(view, request)

    _villagers_as(Probe, range(900, 915))
    assert len(far) >= 20 and near, (len(far), len(near))
    assert all(steered == unsteered for _, unsteered, steered, _ in far), far
    assert all(free == low for low, _, _, free in far), far
    assert all(concluded == voted for concluded, voted in near), near


@pytest.mark.parametrize("margin", [-0.1, float("nan"), float("inf"), "0.05"])
def test_a_steer_margin_that_is_no_number_from_zero_up_is_refused(margin: object) -> None:
    with pytest.raises(ValueError, match="steer_margin"):
        CamWolfAgent(ScriptedModel(sensible), seed=1, steer_margin=margin)  # type: ignore[arg-type]
