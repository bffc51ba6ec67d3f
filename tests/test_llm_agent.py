from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from lycan.agents import LLMAgent, make_agent, parse_lineup
from lycan.agents.persona import Persona, persona_for
from lycan.engine import Game, GameRecord, Request, run_async
from lycan.engine.events import Event, Fault, GameOver, Talk
from lycan.models.base import ChatModel, ChatRequest, ModelError
from lycan.rules import Role, RuleSet, get_preset
from scripted import HANG, ScriptedModel, is_talk, seat_of, sensible

STYLES = ("llm", "react", "recon")


def quick(rules: RuleSet, timeout: float = 0.05) -> RuleSet:
    opts = rules.options.model_copy(update={"talk_timeout": timeout, "action_timeout": timeout})
    return rules.model_copy(update={"options": opts})


def play(
    rules: RuleSet,
    models: list[ScriptedModel],
    seed: int,
    *,
    style: str = "llm",
    on_event: Callable[[Event], None] | None = None,
    impatient: int | None = None,
    **kw: object,
) -> tuple[GameRecord, list[LLMAgent]]:
    agents = [LLMAgent(m, seed * 100 + s, style=style, **kw) for s, m in enumerate(models)]  # type: ignore[arg-type]
    if impatient is not None:
        # Only the misbehaving seat gets a short deadline, so a loaded machine cannot time out the others.
        agents[impatient].timeout = 0.05  # type: ignore[attr-defined]
    rec = asyncio.run(run_async(rules, agents, seed, on_event=on_event))
    return rec, agents


def test_llm_agent_satisfies_the_protocols(scripted_model: type[ScriptedModel]) -> None:
    model = scripted_model()
    assert isinstance(model, ChatModel)
    agent = LLMAgent(model, 1, style="react")
    assert agent.label == "react"


def test_make_agent_registers_llm_kinds() -> None:
    model = ScriptedModel()
    for kind in STYLES:
        with pytest.raises(ValueError, match="needs a chat model"):
            make_agent(kind, 1)
        agent = make_agent(kind, 1, model=model, persona="a patient shepherd")
        assert isinstance(agent, LLMAgent) and agent.label == kind
    assert make_agent("random", 1, model=model).label == "random"  # type: ignore[attr-defined]
    auto = LLMAgent(model, 7, persona="auto")
    assert auto.persona == persona_for(7) == LLMAgent(model, 7).persona
    assert "Your manner of speaking: " + auto.persona.describe() in auto.builder.system(
        Game(get_preset("aiwolf5"), 1).view(0)
    )
    worded = LLMAgent(model, 7, persona="a quiet, careful sort who asks questions")
    assert (worded.persona.temperament, worded.persona.verbosity) == ("careful", "terse")
    assert "a quiet, careful sort" in worded.builder.system(Game(get_preset("aiwolf5"), 1).view(0))
    worded.set_persona(Persona("wry", "chatty", ("summaries",)))
    assert "dry and wry" in worded.builder.system(Game(get_preset("aiwolf5"), 1).view(0))
    assert parse_lineup("llm,react,recon,random", 5) == ["llm", "react", "recon", "random", "llm"]
    with pytest.raises(ValueError, match="style"):
        LLMAgent(model, 1, style="cot")
    with pytest.raises(ValueError, match="context window"):
        LLMAgent(model, 1, max_prompt_tokens=2000)


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("preset", ["aiwolf5", "guardian7", "witch6"])
def test_well_behaved_games_finish_without_faults(preset: str, style: str) -> None:
    rules = quick(get_preset(preset), 5.0)
    models = [ScriptedModel() for _ in range(rules.n_players)]
    rec, agents = play(rules, models, 3, style=style)
    assert isinstance(rec.events[-1], GameOver)
    assert not [e for e in rec.events if isinstance(e, Fault)]
    assert rec.agents == (style,) * rules.n_players
    spoken = [e for e in rec.events if isinstance(e, Talk) and not (e.over or e.skip)]
    assert spoken and all(e.text.startswith("I have a feeling") for e in spoken)
    for seat, (agent, model) in enumerate(zip(agents, models, strict=True)):
        assert agent.usage.calls == len(model.requests)
        assert agent.usage.parse_failures == 0
        assert (agent.usage.prompt_tokens > 0) == (agent.usage.calls > 0)
        for req in model.requests:
            assert req.scope == agent.scope
            assert req.session == f"{agent.scope}:{seat}"
    assert sum(a.usage.calls > 0 for a in agents) >= rules.n_players - 1


def misbehaving(mode: str) -> Callable[[ChatRequest], object]:
    calls = iter(range(10**6))

    def respond(req: ChatRequest) -> object:
        n = next(calls)
        if mode == "garbage":
            return "%%% ??? lorem ipsum" if not is_talk(req) else ""
        if mode == "empty":
            return ""
        if mode == "raise":
            return ModelError("backend unreachable")
        if mode == "hang":
            return HANG
        # "mixed": cycle through bad and good answers, truncated JSON among them
        good = sensible(req)
        if is_talk(req):
            return ["", good, HANG][n % 3]
        truncated = good[:-2]  # cut off inside the last string: still readable
        return [truncated, "I pick nobody at all", good, json.dumps({"target": "Nobody Here"}), "{"][n % 5]

    return respond


@pytest.mark.parametrize(
    ("preset", "mode", "reason"),
    [
        ("aiwolf5", "garbage", "ParseError"),
        ("aiwolf5", "hang", "no answer within"),
        ("guardian7", "raise", "ModelError: backend unreachable"),
        ("guardian7", "empty", "empty"),
        ("witch6", "hang", "no answer within"),
        ("witch6", "mixed", ""),
    ],
)
def test_misbehaving_seat_faults_alone_and_the_game_finishes(preset: str, mode: str, reason: str) -> None:
    rules = quick(get_preset(preset), 10.0)
    exchanges = []
    for seed in (1, 2):
        bad = Game(rules, seed).roles.index(Role.SEER)  # asked on the first night: never dead before a request
        models = [ScriptedModel(misbehaving(mode) if s == bad else None) for s in range(rules.n_players)]
        rec, agents = play(rules, models, seed, style=["llm", "react", "recon"][seed % 3], impatient=bad)
        assert isinstance(rec.events[-1], GameOver)
        faults = [e for e in rec.events if isinstance(e, Fault)]
        assert all(f.seat == bad for f in faults), [(f.seat, f.reasons) for f in faults]
        exchanges += agents[bad].exchanges
        if mode != "mixed" and any(d.seat == bad for d in rec.decisions):
            assert faults
            assert all(reason in " ".join(f.reasons) for f in faults)
            assert all(f.audience == frozenset({bad}) for f in faults)
        if mode in ("garbage", "empty"):
            assert agents[bad].usage.parse_failures > 0
        if mode == "raise":
            assert agents[bad].usage.model_errors > 0
        if mode == "hang":
            assert agents[bad].usage.timeouts > 0
        for s, agent in enumerate(agents):
            if s != bad:
                assert agent.usage.parse_failures == agent.usage.model_errors == agent.usage.timeouts == 0
    if mode == "mixed":
        assert any(x.error for x in exchanges)
        repaired = [x for x in exchanges if x.raw.startswith("{") and not x.raw.endswith("}") and len(x.raw) > 2]
        assert repaired and all(x.error == "" for x in repaired)


def test_retry_prompt_shows_the_error() -> None:
    rules = get_preset("guardian7")
    game = Game(rules, 5)
    batch = next(game.play())
    req = batch[0]
    model = ScriptedModel()
    agent = LLMAgent(model, 1)
    view = game.view(req.seat)
    retry = Request(99, req.seat, req.kind, req.day, targets=req.targets, attempt=1, error="seat 9 is not legal")
    asyncio.run(agent.act(view, retry))
    assert "Your previous answer was not accepted: seat 9 is not legal" in model.requests[-1].messages[-1]["content"]
    asyncio.run(agent.act(view, req))
    assert "not accepted" not in model.requests[-1].messages[-1]["content"]


@pytest.mark.parametrize("style", ["react", "recon"])
def test_private_reasoning_never_reaches_speech(style: str) -> None:
    def respond(req: ChatRequest) -> str:
        if not is_talk(req):
            return json.dumps(
                {"thought": "SECRET-CHOICE", "target": req.json_schema["properties"]["target"]["enum"][0]}
            )  # type: ignore[index]
        if style == "react":
            return "Thought: SECRET-THOUGHT I am the werewolf.\nAction: Good morning everyone, let us be careful."
        return (
            "Contemplation: SECRET-PLAN.\nFirst-order: SECRET-THEY-THINK.\nSecond-order: SECRET-I-WANT.\n"
            "Speech: Good morning everyone, let us be careful."
        )

    tokens: list[tuple[int, str]] = []
    rules = quick(get_preset("guardian7"), 5.0)
    models = [ScriptedModel(respond) for _ in range(rules.n_players)]
    rec, agents = play(rules, models, 4, style=style, on_token=lambda seat, piece: tokens.append((seat, piece)))
    talk = [e for e in rec.events if isinstance(e, Talk)]
    assert talk
    assert all(e.text == "Good morning everyone, let us be careful." for e in talk if not e.over)
    assert not any("SECRET" in piece for _, piece in tokens)
    assert any("SECRET" in x.raw for a in agents for x in a.exchanges)
    for model in models:  # nobody's thoughts reach anybody's prompt
        assert not any("SECRET" in m["content"] for r in model.requests for m in r.messages)


def test_streaming_tokens_arrive_in_order_before_the_talk_event() -> None:
    log: list[tuple[str, int, str]] = []
    rules = quick(get_preset("aiwolf5"), 5.0)
    models = [ScriptedModel(piece=2) for _ in range(rules.n_players)]

    def on_event(e: Event) -> None:
        if isinstance(e, Talk) and not (e.over or e.skip):
            log.append(("event", e.actor, e.text))

    rec, _ = play(
        rules,
        models,
        7,
        style="recon",
        on_event=on_event,
        on_token=lambda seat, piece: log.append(("token", seat, piece)),
    )
    utterances = [e for e in rec.events if isinstance(e, Talk) and not (e.over or e.skip)]
    assert len([x for x in log if x[0] == "event"]) == len(utterances)
    pending: dict[int, str] = {}
    for kind, seat, text in log:
        if kind == "token":
            assert len(pending) <= 1 or seat in pending  # one speaker at a time
            pending[seat] = pending.get(seat, "") + text
        else:
            # every utterance was streamed in full, piece by piece, before the engine recorded it
            assert pending.pop(seat, "") == text
    assert not pending


def test_async_token_callback_is_awaited() -> None:
    got: list[str] = []

    async def on_token(seat: int, piece: str) -> None:
        await asyncio.sleep(0)
        got.append(piece)

    rules = quick(get_preset("aiwolf5"), 5.0)
    rec, _ = play(rules, [ScriptedModel() for _ in range(5)], 2, on_token=on_token)
    first = next(e for e in rec.events if isinstance(e, Talk) and not e.over)
    assert "".join(got).startswith(first.text)


def test_prompt_dir_overrides_templates(tmp_path: Path) -> None:
    (tmp_path / "task_vote.txt").write_text("CUSTOM VOTE among $targets.\n$format\n")
    rules = quick(get_preset("guardian7"), 5.0)
    models = [ScriptedModel() for _ in range(7)]
    play(rules, models, 1, prompt_dir=tmp_path)
    votes = [r for m in models for r in m.requests if "CUSTOM VOTE" in r.messages[-1]["content"]]
    assert votes
    (tmp_path / "task_attack.txt").write_text("Attack $whom")
    with pytest.raises(ValueError, match="unknown placeholder"):
        LLMAgent(ScriptedModel(), 1, prompt_dir=tmp_path)
    with pytest.raises(ValueError, match="does not exist"):
        LLMAgent(ScriptedModel(), 1, prompt_dir=tmp_path / "nope")


def test_tokenizer_of_the_model_is_used() -> None:
    model = ScriptedModel(count_tokens=lambda text: len(text.split()))
    rules = quick(get_preset("aiwolf5"), 5.0)
    _, agents = play(rules, [model] + [ScriptedModel() for _ in range(4)], 3)
    words = sum(len(m["content"].split()) for r in model.requests for m in r.messages)
    assert agents[0].usage.prompt_tokens == words + 8 * len(model.requests)


def test_each_game_gets_its_own_scope_even_with_a_reused_agent() -> None:
    rules = quick(get_preset("aiwolf5"), 5.0)
    models = [ScriptedModel() for _ in range(5)]
    agents = [LLMAgent(m, s) for s, m in enumerate(models)]
    one = asyncio.run(run_async(rules, agents, 1))
    first = [a.scope for a in agents]
    assert first == [one.game_id] * 5  # the session gives every seat the game's id as its scope
    n_first = len(models[0].requests)
    two = asyncio.run(run_async(rules, agents, 2))
    assert all(a.scope != f for a, f in zip(agents, first, strict=True))
    assert {r.scope for r in models[0].requests[n_first:]} == {agents[0].scope} == {two.game_id}
    fixed = LLMAgent(ScriptedModel(), 1, scope="game-42")
    assert fixed.scope == "game-42"


def test_model_calls_go_into_the_record_and_no_view() -> None:
    rules = quick(get_preset("aiwolf5"), 5.0)
    models = [ScriptedModel(misbehaving("garbage") if s == 2 else None) for s in range(5)]
    rec, agents = play(rules, models, 4)
    calls = rec.model_calls
    assert len(calls) == sum(len(m.requests) for m in models) > 0
    assert {c.seat for c in calls} == {s for s in range(5) if models[s].requests}
    assert all(c.model and c.prompt_tokens > 0 for c in calls)
    bad = [c for c in calls if c.seat == 2]
    assert bad and any(c.error for c in bad) and any(c.reasoning for c in bad)
    assert GameRecord.from_dict(json.loads(json.dumps(rec.to_dict()))).model_calls == calls
    for agent in agents:
        assert agent.drain_model_calls() == []  # the session took them all
    texts = " ".join(str(e) for e in rec.events)
    assert "ModelCall" not in texts


def test_sampling_seed_is_deterministic_and_changes_on_retry() -> None:
    rules = quick(get_preset("aiwolf5"), 5.0)
    a = [ScriptedModel() for _ in range(5)]
    b = [ScriptedModel() for _ in range(5)]
    rec_a, _ = play(rules, a, 9)
    rec_b, _ = play(rules, b, 9)
    assert [e for e in rec_a.events] == [e for e in rec_b.events]
    assert [r.seed for r in a[0].requests] == [r.seed for r in b[0].requests]
    assert len({r.seed for r in a[0].requests}) == len(a[0].requests)


def test_hang_is_cut_by_the_engine_timeout_quickly() -> None:
    rules = quick(get_preset("aiwolf5"), 0.02)
    models = [ScriptedModel(lambda r: HANG) for _ in range(5)]
    rec, agents = play(rules, models, 1)
    assert isinstance(rec.events[-1], GameOver)
    assert {f.seat for f in rec.events if isinstance(f, Fault)} == set(range(5))
    assert all(a.usage.timeouts > 0 for a in agents)


def test_rng_variety_in_sensible_answers() -> None:
    # guard against a scripted model that always answers the same target
    req = ChatRequest(
        messages=[{"role": "user", "content": "x"}],
        json_schema={"properties": {"target": {"enum": ["A", "B", "C"]}, "reason": {}}},
        seed=1,
    )
    picks = {json.loads(sensible(req, random.Random(i)))["target"] for i in range(30)}
    assert picks == {"A", "B", "C"}
    assert seat_of(ChatRequest(messages=[], session="g:3")) == 3


def test_whispers_are_never_streamed_out() -> None:
    """Streamed pieces go to every viewer, so only public talk may be streamed."""
    rules = quick(get_preset("guardian7"), 5.0)
    pieces: list[tuple[int, str]] = []
    models = [ScriptedModel() for _ in range(rules.n_players)]
    rec, _ = play(rules, models, 4, on_token=lambda seat, piece: pieces.append((seat, piece)))
    whispers = [e for e in rec.events if isinstance(e, Talk) and e.channel == "whisper" and not e.over]
    public_talk = [e for e in rec.events if isinstance(e, Talk) and e.channel == "talk" and not (e.over or e.skip)]
    assert whispers and public_talk
    streamed = "".join(p for _, p in pieces)
    for talk in public_talk:
        assert talk.text in streamed
    assert len(streamed) == sum(len(t.text) for t in public_talk)


def test_talk_is_capped_by_the_agent_where_the_rules_set_no_cap() -> None:
    """The aiwolf presets cap no utterance; the small model then ran on listing names, so seats cap their own."""
    from lycan.agents.prompt import UTTERANCE_CHARS
    from lycan.rules.talk import spoken_length

    rules = quick(get_preset("aiwolf5"), 5.0)
    assert rules.options.talk.max_length == 0

    def rambling(request: ChatRequest) -> str:
        return "Player 1, Player 2, " * 100 if is_talk(request) else sensible(request)

    models = [ScriptedModel(rambling) for _ in range(5)]
    record, _ = play(rules, models, 2)
    talk_calls = [r for m in models for r in m.requests if is_talk(r)]
    assert talk_calls and all(r.max_tokens <= UTTERANCE_CHARS // 3 + 8 for r in talk_calls)
    spoken = [e for e in record.events if isinstance(e, Talk) and not (e.over or e.skip)]
    assert spoken and all(spoken_length(e.text) <= UTTERANCE_CHARS for e in spoken)
