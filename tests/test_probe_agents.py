"""Agents answering the role probe: the heuristic agent from the exact belief engine, the LLM
agents from a prompt and a JSON schema (parsing, retries, the belief summary), and one probe
answered by the real embedded model."""

from __future__ import annotations

import asyncio
import json
import math
import time
from dataclasses import replace

import pytest

from lycan.agents import HeuristicAgent, LLMAgent, SeatSpec, lineup, make_agent
from lycan.agents.llm import CONFIDENCES, probe_schema
from lycan.agents.parsing import ParseError, parse_probe, read_probability
from lycan.beliefs import posterior
from lycan.engine import Action, Game, GameRecord, Request, View, run_async, run_sync
from lycan.engine.actions import PASS, ProbeInfo
from lycan.engine.events import Fault, GameOver, PhaseStarted, ProbeAnswered
from lycan.eval.metrics import calibration, probe_accuracy
from lycan.models.base import ChatRequest
from lycan.rules import Role, get_preset
from scripted import ScriptedModel, is_probe, sensible

NAMES = tuple(f"Player {i}" for i in range(1, 8))
ROLES = ("werewolf", "seer", "guardian", "villager")


def probe_request(seat: int = 0, roles: tuple[str, ...] = ROLES) -> Request:
    targets = tuple(s for s in range(len(NAMES)) if s != seat)
    return Request(9, seat, "probe", 2, targets=targets, can_pass=True, info=ProbeInfo(roles=roles))


def guesses(text: str, seat: int = 0) -> dict[tuple[int, Role], float | None]:
    action = parse_probe(text, probe_request(seat), NAMES)
    assert action.kind == "probe"
    assert probe_request(seat).check(action) is None
    return {(s, r): p for s, r, p in action.guesses}


# -- parsing ----------------------------------------------------------------------------------------


def test_parse_probe_reads_the_schema_answer() -> None:
    text = json.dumps(
        {
            "thought": "Player 3 lied about a divination",
            "guesses": {
                "Player 2": {"role": "villager", "confidence": 0.5},
                "Player 3": {"role": "werewolf", "confidence": 0.8},
                "Player 4": {"role": "seer", "confidence": 1.0},
            },
        }
    )
    assert guesses(text) == {
        (1, Role.VILLAGER): 0.5,
        (2, Role.WEREWOLF): 0.8,
        (3, Role.SEER): 1.0,
    }


def test_parse_probe_partial_and_loose_answers() -> None:
    # seats left out are simply not guessed; names match loosely; aliases are roles
    assert guesses('{"guesses": {"player 3": {"role": "Wolf", "confidence": 0.7}}}') == {(2, Role.WEREWOLF): 0.7}
    # the map without its wrapper, plain strings with percentages, and a bare seat number
    assert guesses('{"Player 3": "werewolf 70%", "5": "bodyguard", "Player 6": ["seer", 0.4]}') == {
        (2, Role.WEREWOLF): 0.7,
        (4, Role.GUARDIAN): None,
        (5, Role.SEER): 0.4,
    }
    # a list of items, and a distribution for one seat
    items = [{"player": "Player 2", "role": "villager", "probability": "0.6"}, {"name": "Player 7", "guess": "seer"}]
    assert guesses(json.dumps(items)) == {(1, Role.VILLAGER): 0.6, (6, Role.SEER): None}
    dist = guesses('{"guesses": {"Player 4": {"werewolf": 0.6, "villager": 0.4}}}')
    assert dist == {(3, Role.WEREWOLF): 0.6, (3, Role.VILLAGER): 0.4}
    # an answer cut off by the token limit keeps the complete entries
    cut = '```json\n{"guesses": {"Player 2": {"role": "seer", "confidence": 0.9}, "Player 3": {"role": "wer'
    assert guesses(cut)[(1, Role.SEER)] == 0.9
    # free text, one seat per line; the asking seat itself is never guessed
    text = "Player 1: villager\nPlayer 2: I think werewolf (80%)\nPlayer 3 - guardian, 0.3\nno idea about the rest"
    assert guesses(text) == {(1, Role.WEREWOLF): 0.8, (2, Role.GUARDIAN): 0.3}


def test_parse_probe_drops_wrong_role_names_and_unknown_players() -> None:
    text = json.dumps(
        {
            "guesses": {
                "Player 2": {"role": "witch", "confidence": 0.9},  # a role, but not in this game
                "Player 3": {"role": "vampire", "confidence": 0.9},  # no role at all
                "Player 4": {"role": "unknown", "confidence": 0.2},  # not guessed
                "Player 9": {"role": "werewolf", "confidence": 0.9},  # no such player
                "Player 5": {"role": "seer", "confidence": 0.6},
            }
        }
    )
    assert guesses(text) == {(4, Role.SEER): 0.6}
    with pytest.raises(ParseError, match="witch is not in this game"):
        parse_probe('{"guesses": {"Player 2": {"role": "witch"}}}', probe_request(), NAMES)
    with pytest.raises(ParseError, match="'vampire' is no role"):
        parse_probe('{"guesses": {"Player 2": {"role": "vampire"}}}', probe_request(), NAMES)
    with pytest.raises(ParseError, match="not one of the players asked about"):
        parse_probe('{"guesses": {"Player 1": {"role": "seer"}}}', probe_request(seat=0), NAMES)


def test_parse_probe_clamps_probabilities() -> None:
    text = json.dumps(
        {
            "guesses": {
                "Player 2": {"role": "villager", "confidence": 1.7},
                "Player 3": {"role": "werewolf", "confidence": -0.2},
                "Player 4": {"role": "seer", "confidence": 85},
                "Player 5": {"role": "seer", "confidence": "high"},
                "Player 6": {"role": "guardian", "confidence": 1e9},
            }
        }
    )
    assert guesses(text) == {
        (1, Role.VILLAGER): 1.0,
        (2, Role.WEREWOLF): 0.0,
        (3, Role.SEER): 0.85,
        (4, Role.SEER): None,
        (5, Role.GUARDIAN): 1.0,
    }
    assert read_probability("55 %") == 0.55
    assert read_probability(True) is None and read_probability(float("nan")) is None
    assert read_probability(0.25) == 0.25 and read_probability(1) == 1.0


@pytest.mark.parametrize(
    "garbage",
    ["", "   ", "I think everyone here is lovely.", "{}", '{"target": "Player 3"}', "[1, 2, 3]", '"werewolf"', "{{{"],
)
def test_parse_probe_rejects_garbage_with_the_format(garbage: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_probe(garbage, probe_request(), NAMES)
    assert '"guesses"' in str(err.value) and "werewolf, seer, guardian, villager" in str(err.value)


def test_probe_schema_asks_every_seat_for_a_role_of_the_game() -> None:
    names = ["Player 2", "Player 3"]
    schema = probe_schema("llm", names, list(ROLES))
    assert schema["required"] == ["guesses"]
    inner = schema["properties"]["guesses"]
    assert inner["required"] == names and set(inner["properties"]) == set(names)
    guess = inner["properties"]["Player 2"]["properties"]
    assert guess["role"]["enum"] == list(ROLES)
    assert guess["confidence"]["enum"] == list(CONFIDENCES) == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    assert json.dumps(CONFIDENCES) == "[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]"
    assert list(probe_schema("recon", names, list(ROLES))["properties"]) == ["thought", "guesses"]


# -- the heuristic agent: the belief engine's distributions ----------------------------------------


class CheckedHeuristic(HeuristicAgent):
    """A heuristic agent that keeps, for each probe it answers, the posterior of the view it saw."""

    def __init__(self, seed: int, expected: dict[tuple[int, int], dict[int, dict[Role, float]]]) -> None:
        super().__init__(seed)
        self.expected = expected

    def decide(self, view: View, request: Request) -> Action:
        if request.kind == "probe":
            post = posterior(view)
            self.expected[(request.day, view.seat)] = {t: post.role_probabilities(t) for t in request.targets}
        return super().decide(view, request)


def heuristic_games(n: int, probe_days: tuple[int, ...] = (1, 2)) -> list[GameRecord]:
    rules = get_preset("guardian7")
    return [
        run_sync(rules, [HeuristicAgent(seed * 100 + s) for s in range(7)], seed, probe_days=probe_days)
        for seed in range(n)
    ]


def test_heuristic_probe_answers_are_the_posterior_of_its_view() -> None:
    rules = get_preset("guardian7")
    checked = 0
    for seed in range(6):
        expected: dict[tuple[int, int], dict[int, dict[Role, float]]] = {}
        players = [CheckedHeuristic(seed * 100 + s, expected) for s in range(7)]
        rec = run_sync(rules, players, seed, probe_days=(1, 2))
        assert isinstance(rec.events[-1], GameOver)
        days = {e.day: e.alive for e in rec.events if isinstance(e, PhaseStarted) and e.phase == "day"}
        probes = [e for e in rec.events if isinstance(e, ProbeAnswered)]
        for day in (1, 2):
            if day in days and any(e.day == day and e.kind == "vote_cast" for e in rec.events):
                assert {p.seat for p in probes if p.day == day} == set(days[day])
        for p in probes:
            assert p.error is None
            want = expected[(p.day, p.seat)]
            got: dict[int, dict[Role, float]] = {}
            for seat, role, prob in p.guesses:
                assert prob is not None and 0.0 < prob <= 1.0
                got.setdefault(seat, {})[role] = prob
            assert set(got) == set(range(7)) - {p.seat}
            assert got == want
            for dist in got.values():
                assert math.isclose(sum(dist.values()), 1.0, abs_tol=1e-9)
            # it knows its own team's certainties: a werewolf sees its pack as werewolves
            if rec.roles[p.seat] is Role.WEREWOLF:
                mates = [s for s in range(7) if s != p.seat and rec.roles[s] is Role.WEREWOLF]
                assert all(got[m] == pytest.approx({Role.WEREWOLF: 1.0}) for m in mates)
            checked += 1
    assert checked > 40


def test_heuristic_passes_a_probe_its_view_cannot_explain() -> None:
    view = Game(get_preset("guardian7"), 1).view(0)
    # a seer at a table whose deck holds no seer: no deal fits, so the agent passes
    impossible = view.rules.model_copy(update={"roles": {Role.VILLAGER: 7}})
    assert HeuristicAgent(1).decide(replace(view, role=Role.SEER, rules=impossible), probe_request()) == PASS
    assert HeuristicAgent(1).decide(view, probe_request()).kind == "probe"


def test_probe_metrics_for_the_heuristic_agent() -> None:
    records = heuristic_games(30, probe_days=(2,))
    stats = probe_accuracy(records)["heuristic"]
    assert stats.answered.wins == stats.answered.n > 0
    assert stats.accuracy.n == stats.baseline.n > 100
    # exact posteriors from hard knowledge alone: at least as good as always guessing "villager"
    assert stats.accuracy.value >= stats.baseline.value - 0.05
    cal = calibration(records)["heuristic"]
    assert cal.brier.n > stats.accuracy.n  # a guess per role with p > 0, not one per seat
    assert 0.0 < cal.brier.value < 0.25 and 0.0 < cal.log_loss.value < math.log(2)
    assert cal.bins and sum(b.count for b in cal.bins) == cal.brier.n
    for b in cal.bins:
        assert b.lo - 1e-9 <= b.mean_prob <= b.hi + 1e-9


# -- LLM agents ------------------------------------------------------------------------------------


def probe_calls(model: ScriptedModel) -> list[ChatRequest]:
    return [r for r in model.requests if is_probe(r)]


@pytest.mark.parametrize("style", ["llm", "react", "recon"])
def test_llm_agents_answer_the_probe(style: str) -> None:
    rules = get_preset("guardian7")
    models = [ScriptedModel() for _ in range(rules.n_players)]
    agents = [LLMAgent(m, 40 + s, style=style) for s, m in enumerate(models)]
    rec = asyncio.run(run_async(rules, agents, 4, probe_days=(1,)))
    probes = [e for e in rec.events if isinstance(e, ProbeAnswered)]
    assert probes and all(p.error is None for p in probes)
    for p in probes:
        assert {s for s, _, _ in p.guesses} == set(range(7)) - {p.seat}
        assert all(prob in CONFIDENCES for _, _, prob in p.guesses)
    call = probe_calls(models[probes[0].seat])[0]
    task = call.messages[-1]["content"]
    assert "Roles in this game: werewolf, seer, guardian, villager." in task
    assert "Nobody will ever see this answer" in task and "Chances from what you know" not in task
    assert call.json_schema is not None and call.max_tokens <= 16 + 20 * 6 + (64 if style != "llm" else 0)
    # the exchange log shows the guesses, and no probe ever reaches a prompt of another seat
    exchange = next(x for x in agents[probes[0].seat].exchanges if x.kind == "probe")
    assert exchange.action.startswith("probe Player ") and exchange.error == ""
    assert all("probe" not in r.messages[-1]["content"].lower() for m in models for r in m.requests if not is_probe(r))
    assert isinstance(rec.events[-1], GameOver)


class ViewKeeper:
    """Passes every request to an agent and keeps the view each probe was asked from."""

    def __init__(self, agent: LLMAgent) -> None:
        self.agent = agent
        self.label = agent.label
        self.views: list[View] = []

    async def act(self, view: View, request: Request) -> Action:
        if request.kind == "probe":  # a snapshot: the events the view holds may grow afterwards
            self.views.append(replace(view, events=tuple(view.events)))
        return await self.agent.act(view, request)


def test_probe_beliefs_option_adds_the_belief_summary() -> None:
    rules = get_preset("guardian7")
    model = ScriptedModel()
    specs = [SeatSpec("llm", options={"probe_beliefs": True}), "llm", *(["heuristic"] * 5)]
    players = lineup(specs, 5, model=model)
    assert isinstance(players[0], LLMAgent) and players[0].probe_beliefs
    assert isinstance(players[1], LLMAgent) and not players[1].probe_beliefs
    assert make_agent("react", 1, model=model, probe_beliefs=True).probe_beliefs  # type: ignore[attr-defined]
    keeper = ViewKeeper(players[0])
    asyncio.run(run_async(rules, [keeper, *players[1:]], 5, probe_days=(1,)))
    by_seat = {int(r.session.rsplit(":", 1)[1]): r.messages[-1]["content"] for r in probe_calls(model)}
    assert set(by_seat) == {0, 1}
    assert "Chances from what you know for certain" in by_seat[0]
    assert "Chances from what you know for certain" not in by_seat[1]
    post = posterior(keeper.views[0])
    for target in range(1, 7):
        ranked = sorted(post.role_probabilities(target).items(), key=lambda kv: -kv[1])[:3]
        line = f"Player {target + 1}: " + ", ".join(f"{r.value} {p:.2f}" for r, p in ranked)
        assert line in by_seat[0]


def test_garbage_probe_answers_are_retried_then_recorded_as_unanswered() -> None:
    rules = get_preset("guardian7")

    def responder(request: ChatRequest) -> str:
        return "Everyone here seems nice to me!" if is_probe(request) else sensible(request)

    model = ScriptedModel(responder)
    players = [LLMAgent(model, 7), *(HeuristicAgent(s) for s in range(1, 7))]
    rec = asyncio.run(run_async(rules, players, 11, probe_days=(1, 2)))
    assert isinstance(rec.events[-1], GameOver) and rec.winner is not None
    mine = [e for e in rec.events if isinstance(e, ProbeAnswered) and e.seat == 0]
    assert mine and all(p.guesses == () and p.error and "no guess could be read" in p.error for p in mine)
    others = [e for e in rec.events if isinstance(e, ProbeAnswered) and e.seat != 0]
    assert others and all(p.error is None for p in others)
    calls = probe_calls(model)
    assert len(calls) == 2 * len(mine)  # each probe asked again once, with the reason shown
    assert "Your previous answer was not accepted: no guess could be read" in calls[1].messages[-1]["content"]
    agent = players[0]
    assert isinstance(agent, LLMAgent) and agent.usage.parse_failures == len(calls)
    assert [x.attempt for x in agent.exchanges if x.kind == "probe"][:2] == [0, 1]
    # a probe failure is no fault of play
    assert not any(isinstance(e, Fault) and e.request == "probe" for e in rec.events)
    again = GameRecord.from_dict(rec.to_dict())
    assert again.events == rec.events


def test_a_second_good_answer_counts() -> None:
    rules = get_preset("guardian7")
    asked: list[int] = []

    def responder(request: ChatRequest) -> str:
        if is_probe(request):
            asked.append(1)
            return "no idea" if len(asked) % 2 else sensible(request)
        return sensible(request)

    players = [LLMAgent(ScriptedModel(responder), 7), *(HeuristicAgent(s) for s in range(1, 7))]
    rec = asyncio.run(run_async(rules, players, 11, probe_days=(1,)))
    mine = next(e for e in rec.events if isinstance(e, ProbeAnswered) and e.seat == 0)
    assert mine.error is None and len(mine.guesses) == 6 and len(asked) == 2


# -- the real embedded model -----------------------------------------------------------------------


class ProbedByModel:
    """Plays seat by the heuristic agent; only the role probe is answered by the LLM agent.

    The model answers the probe from a real day of talk, and the game stays a few seconds long.
    """

    label = "llm"

    def __init__(self, llm: LLMAgent, seed: int) -> None:
        self.llm = llm
        self.plain = HeuristicAgent(seed)

    async def act(self, view: View, request: Request) -> Action:
        if request.kind == "probe":
            return await self.llm.act(view, request)
        return self.plain.decide(view, request)


async def test_the_embedded_model_answers_a_day_one_probe() -> None:
    from lycan.models import load_model

    started = time.perf_counter()
    model = load_model("local", n_ctx=2048)
    try:
        # the probe's time limit is generous: this checks what the model answers, not how fast (a
        # busy machine once took more than the preset's 60 s and the probe went unanswered)
        aiwolf5 = get_preset("aiwolf5")
        rules = aiwolf5.model_copy(update={"options": aiwolf5.options.model_copy(update={"action_timeout": 600.0})})
        # 32 tokens hold the first seat's entry or two; the rest of the cut JSON is dropped
        llms = [LLMAgent(model, 60, max_tokens={"llm_probe": 32}, temperature=0.0)]
        players = [ProbedByModel(llms[0], 0), *(HeuristicAgent(s) for s in range(1, 5))]
        rec = await run_async(rules, players, 8, probe_days=(1,))
    finally:
        close = getattr(model, "close", None)
        if close is not None:
            close()
    assert isinstance(rec.events[-1], GameOver)
    answered = [e for e in rec.events if isinstance(e, ProbeAnswered) and e.seat == 0 and e.error is None]
    assert answered, [x.raw for llm in llms for x in llm.exchanges]
    assert all(role in rules.roles for p in answered for _, role, _ in p.guesses)
    print(f"embedded-model probe: {time.perf_counter() - started:.1f} s, {[p.guesses for p in answered]}")
