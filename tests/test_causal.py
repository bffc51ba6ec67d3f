"""Counterfactual premise intervention on hand-built logs, the seed's causal reward on fixed cases,
faithfulness as a metric, speaking turns and the training configs (no model is loaded here; the
GRPO step and the adapter are in `test_causal_grpo.py`)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from lycan.agents.camwolf import PRIVATE_HEADER, Identification
from lycan.causal import (
    Answer,
    BeliefIntervener,
    Checked,
    Intervention,
    InterventionPlan,
    RewardSwitches,
    causal_reward,
    intervene,
    measure,
    score_answer,
    without,
)
from lycan.causal.config import SMOKE, ReasonerConfig, shipped
from lycan.causal.intervene import ChatIntervener, reinfer_messages
from lycan.causal.rewards import repeats_in
from lycan.causal.turns import sample_turns, self_play_records, split_turns, turn_messages, turns_of
from lycan.engine.events import (
    Divined,
    Event,
    EventIds,
    GameStarted,
    PhaseStarted,
    RoleAssigned,
    Talk,
    VoteCast,
    WolfPack,
    visible,
)
from lycan.engine.view import View
from lycan.models.base import ChatRequest, ChatResult, Usage
from lycan.rules import Role, get_preset
from lycan.rules.roles import Species

RULES = get_preset("aiwolf5")
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")
TRUTH = (Role.SEER, Role.WEREWOLF, Role.POSSESSED, Role.VILLAGER, Role.VILLAGER)


def _log() -> list[Event]:
    """A hand-built aiwolf5 night and first day: Ann (seer) divines Bob (werewolf); Cat (possessed) counter-claims.

    Bob speaks too: a seat that says nothing all day gives no evidence of not claiming, which alone
    would make it the likeliest werewolf without the divination.
    """
    ids = EventIds(len(NAMES))
    log: list[Event] = []

    def add(cls: type[Event], audience: frozenset[int] | None = None, **fields: Any) -> None:
        vis = "public" if audience is None else "seat"
        log.append(
            cls(
                id=ids.next(audience),
                day=fields.pop("day", 1),
                phase=fields.pop("phase", "day"),
                vis=vis,
                audience=audience,
                **fields,
            )
        )

    add(
        GameStarted,
        day=0,
        phase="setup",
        rules="aiwolf5",
        names=NAMES,
        role_counts=tuple((r, n) for r, n in RULES.roles.items()),
    )
    for seat, role in enumerate(TRUTH):
        add(RoleAssigned, frozenset({seat}), day=0, phase="setup", seat=seat, role=role)
    add(WolfPack, frozenset({1}), day=0, phase="setup", members=(1,))
    add(PhaseStarted, day=0, phase="night", alive=(0, 1, 2, 3, 4))
    add(Divined, frozenset({0}), day=0, phase="night", actor=0, target=1, result=Species.WEREWOLF)
    add(PhaseStarted, alive=(0, 1, 2, 3, 4))
    add(Talk, actor=0, text="I am the seer. Last night I divined Bob: werewolf.")
    add(Talk, actor=2, text="I am the seer. Last night I divined Bob: human.")
    add(Talk, actor=3, text="I have no strong suspicion yet.")
    add(Talk, actor=1, text="I have no strong suspicion yet.")
    add(Talk, actor=4, text="I will vote for Bob.")
    add(VoteCast, actor=4, target=1)
    return log


def _view(seat: int, log: list[Event] | None = None) -> View:
    events = visible(log if log is not None else _log(), seat)
    return View(
        seat=seat,
        role=TRUTH[seat],
        names=NAMES,
        rules=RULES,
        day=1,
        phase="day",
        alive=(True,) * 5,
        events=tuple(events),
    )


def _id(view: View, cls: type[Event], **match: Any) -> int:
    return next(e.id for e in view.events if isinstance(e, cls) and all(getattr(e, k) == v for k, v in match.items()))


# ---------------------------------------------------------------------- removal


def test_removal_takes_out_exactly_that_event_and_nothing_else() -> None:
    log = _log()
    for seat in range(5):
        view = _view(seat, log)
        for event in view.events:
            cut = without(view, event.id)
            assert [e.id for e in cut.events] == [e.id for e in view.events if e.id != event.id]
            assert cut.events == tuple(e for e in view.events if e is not event)  # the same objects, unchanged
            assert (cut.seat, cut.role, cut.names, cut.day, cut.alive) == (
                view.seat,
                view.role,
                view.names,
                view.day,
                view.alive,
            )
            assert all(e.visible_to(seat) for e in cut.events)  # never more than the seat saw
            assert set(cut.events) <= set(visible(log, seat))


def test_nothing_the_seat_could_not_see_can_be_removed_or_named() -> None:
    log = _log()
    seer, villager = _view(0, log), _view(3, log)
    divined = _id(seer, Divined)
    with pytest.raises(KeyError, match="not in seat 3's view"):
        without(villager, divined)
    pack = next(e.id for e in log if isinstance(e, WolfPack))
    with pytest.raises(KeyError):
        without(seer, pack)


def test_the_belief_engine_reinfers_from_the_intervened_view() -> None:
    seer = _view(0)
    beliefs = BeliefIntervener()
    divined = _id(seer, Divined)
    assert beliefs.infer_now(seer, 1) is Role.WEREWOLF  # the seer's own result
    assert beliefs.infer_now(without(seer, divined), 1) is not Role.WEREWOLF
    talk = _id(seer, Talk, actor=3)
    assert beliefs.infer_now(without(seer, talk), 1) is Role.WEREWOLF
    assert beliefs.meter.calls == 3


async def test_intervene_runs_the_seeds_relevant_and_irrelevant_interventions() -> None:
    seer = _view(0)
    divined, quiet = _id(seer, Divined), _id(seer, Talk, actor=3)
    claim, vote = _id(seer, Talk, actor=2), _id(seer, VoteCast)
    wolf = Identification((divined, quiet), "my result", 1, Role.WEREWOLF)
    liar = Identification((claim, vote), "a counter-claim", 2, Role.POSSESSED)
    wrong = Identification((vote,), "a guess", 3, Role.WEREWOLF)
    checked = await intervene(seer, [wolf, liar, wrong], TRUTH, BeliefIntervener(), random.Random(1))
    first, second, third = checked
    assert first.correct and [(i.removed, i.changed) for i in first.relevant] == [(divined, True), (quiet, False)]
    assert len(first.irrelevant) == 1 and first.irrelevant[0].removed in (claim, vote)  # cited by another only
    assert not first.irrelevant[0].changed
    assert second.correct and {i.removed for i in second.irrelevant} <= {divined, quiet}
    assert not third.correct and third.relevant == () and third.irrelevant == ()  # wrong: no intervention


async def test_plans_switch_interventions_off_and_draw_uncited_events_from_the_log() -> None:
    seer = _view(0)
    divined = _id(seer, Divined)
    wolf = Identification((divined,), "my result", 1, Role.WEREWOLF)
    alone = await intervene(seer, [wolf], TRUTH, BeliefIntervener(), random.Random(0))
    assert alone[0].irrelevant == ()  # the seed draws from other identifications' premises: none here
    logged = await intervene(seer, [wolf], TRUTH, BeliefIntervener(), random.Random(0), InterventionPlan(pool="log"))
    assert len(logged[0].irrelevant) == 1 and logged[0].irrelevant[0].removed != divined
    none = await intervene(
        seer, [wolf], TRUTH, BeliefIntervener(), random.Random(0), InterventionPlan(relevant=False, irrelevant=False)
    )
    assert none[0].relevant == () and none[0].irrelevant == ()


class _Echo:
    """A chat model that answers the role it finds in the prompt's last line of log (for the chat intervener)."""

    name = "echo"

    def __init__(self) -> None:
        self.requests: list[ChatRequest] = []

    async def chat(self, request: ChatRequest) -> ChatResult:
        self.requests.append(request)
        text = request.messages[-1]["content"]
        role = "werewolf" if "divined bob: werewolf" in text.lower() else "villager"
        return ChatResult(json.dumps({"role": role}), Usage(0, 0, 0.0), self.name)

    def stream(self, request: ChatRequest) -> Any:
        raise NotImplementedError


async def test_a_chat_model_reinfers_on_the_reasoner_prompt_without_the_event() -> None:
    seer = _view(0)
    model = _Echo()
    chat = ChatIntervener(model)  # type: ignore[arg-type]
    assert await chat.infer(seer, 1) is Role.WEREWOLF
    claim = _id(seer, Talk, actor=0)
    assert await chat.infer(without(seer, claim), 1) is Role.VILLAGER
    asked = model.requests[-1]
    assert "Bob's role" in asked.messages[-1]["content"] and asked.json_schema is not None
    assert f"[{claim}]" not in asked.messages[-1]["content"]  # the removed line is gone from the log
    messages = reinfer_messages(seer, 1)
    assert messages[0]["role"] == "system"
    assert all("Your task" not in m["content"] and "Other living players" not in m["content"] for m in messages)
    assert messages[-1]["content"].split("\n")[-1].startswith("What is Bob's role?")


# ---------------------------------------------------------------------- rewards


def _checked(correct: bool, premises: int, relevant: list[bool], irrelevant: list[bool]) -> Checked:
    ident = Identification(tuple(range(premises)), "", 1, Role.WEREWOLF)
    return Checked(
        ident,
        correct,
        tuple(Intervention(i, True, None, c) for i, c in enumerate(relevant)),
        tuple(Intervention(100 + i, False, None, c) for i, c in enumerate(irrelevant)),
    )


def test_the_reward_on_fixed_cases() -> None:
    # correct, both premises causal, the irrelevant one not: +1
    assert causal_reward([_checked(True, 2, [True, True], [False])]).total == 1.0
    # correct, one of three premises spurious: +1 - 1/3
    r = causal_reward([_checked(True, 3, [True, False, True], [False])])
    assert (r.correctness, r.faithfulness) == (1.0, pytest.approx(-1 / 3))
    # correct, every premise spurious and the uncited event mattered: +1 - 1 - 0.5
    assert causal_reward([_checked(True, 2, [False, False], [True])]).total == pytest.approx(-0.5)
    # wrong: -1, and no faithfulness term at all
    assert causal_reward([_checked(False, 2, [], [])]).total == -1.0
    # two identifications add up; a repeated player costs -1
    both = causal_reward([_checked(True, 1, [True], []), _checked(False, 1, [], [])], repeats=1)
    assert (both.correctness, both.faithfulness, both.repeat, both.total) == (0.0, 0.0, -1.0, -1.0)
    # a format violation: -1 and nothing else
    broken = causal_reward([], format_ok=False)
    assert (broken.total, broken.format, broken.correctness) == (-1.0, -1.0, 0.0)


def test_the_ablations_switch_parts_of_the_faithfulness_reward_off() -> None:
    case = [_checked(True, 2, [False, True], [True])]
    assert causal_reward(case).faithfulness == pytest.approx(-1.0)
    assert causal_reward(case, switches=RewardSwitches(relevant=False)).faithfulness == -0.5
    assert causal_reward(case, switches=RewardSwitches(irrelevant=False)).faithfulness == -0.5
    assert causal_reward(case, switches=RewardSwitches(faithfulness=False)).total == 1.0
    assert RewardSwitches(faithfulness=False).plan() == InterventionPlan(relevant=False, irrelevant=False)


def test_repeats_count_further_identifications_of_the_same_player() -> None:
    text = json.dumps(
        {"identifications": [{"player": "Bob"}, {"player": "bob "}, {"player": "Cat"}, {"player": "Bob"}]}
    )
    assert repeats_in(text) == 2 and repeats_in("no json") == 0


def _answer(*idents: tuple[list[int], str, str]) -> str:
    return json.dumps(
        {"identifications": [{"premises": p, "deduction": "because", "player": n, "role": r} for p, n, r in idents]}
    )


async def test_score_answer_reads_intervenes_and_rewards() -> None:
    seer = _view(0)
    divined, quiet = _id(seer, Divined), _id(seer, Talk, actor=3)
    beliefs = BeliefIntervener()
    good, _ = await score_answer(_answer(([divined], "Bob", "werewolf")), seer, TRUTH, beliefs, random.Random(0))
    assert (good.correctness, good.faithfulness, good.format, good.total) == (1.0, 0.0, 0.0, 1.0)
    padded, _ = await score_answer(
        _answer(([divined, quiet], "Bob", "werewolf")), seer, TRUTH, beliefs, random.Random(0)
    )
    assert padded.total == pytest.approx(0.5)  # the quiet line carries nothing: -1/2
    for broken in ("not json", _answer(([999], "Bob", "werewolf")), _answer(([divined], "Ann", "werewolf")), "{}"):
        reward, checked = await score_answer(broken, seer, TRUTH, beliefs, random.Random(0))
        assert (reward.total, reward.format, checked) == (-1.0, -1.0, [])
    repeated, _ = await score_answer(
        _answer(([divined], "Bob", "werewolf"), ([quiet], "Bob", "villager")), seer, TRUTH, beliefs, random.Random(0)
    )
    assert repeated.repeat == -1.0 and repeated.correctness == 1.0


# ---------------------------------------------------------------------- the metric


async def test_faithfulness_counts_premises_and_uncited_events_with_intervals() -> None:
    seer = _view(0)
    divined, quiet = _id(seer, Divined), _id(seer, Talk, actor=3)
    answers = [
        Answer(_answer(([divined], "Bob", "werewolf")), seer, TRUTH),
        Answer(_answer(([quiet], "Bob", "werewolf")), seer, TRUTH),
        Answer(_answer(([quiet], "Dan", "werewolf")), seer, TRUTH),
        Answer("garbage", seer, TRUTH),
    ]
    result = await measure(answers, BeliefIntervener(), seed=3)
    assert (result.answers, result.well_formed, result.identifications, result.correct) == (4, 3, 3, 2)
    assert (result.premises_changed, result.premises) == (1, 2)
    assert result.uncited == 2 and result.calls == 4
    data = result.to_dict()
    assert data["premises_change_conclusion"]["n"] == 2 and 0 <= data["accuracy"]["low"] <= 2 / 3
    assert data["format"]["value"] == 0.75


# ---------------------------------------------------------------------- turns and configs


def test_speaking_turns_hold_only_what_the_seat_saw() -> None:
    records = self_play_records("aiwolf5", 2, 11)
    turns = [t for r in records for t in turns_of(r)]
    assert turns and all(t.request.kind == "talk" for t in turns)
    for record in records:
        for t in (t for t in turns if t.game_id == record.game_id):
            assert set(t.view.events) <= set(visible(record.events, t.seat)) and t.truth == record.roles
    picked = sample_turns(records, 5, random.Random(0))
    assert len(picked) == 5 and len({t.key for t in picked}) == 5
    train, held = split_turns(turns, 0.5)
    assert {t.game_id for t in train}.isdisjoint({t.game_id for t in held}) and len(train) + len(held) == len(turns)
    messages = turn_messages(turns[-1], log_lines=3)
    public, _, private = messages[1]["content"].partition(PRIVATE_HEADER)
    rows = [line for line in public.split("\n") if line.startswith("[")]
    assert len(rows) == 3 and "Answer with JSON only" in messages[1]["content"]
    assert "Your secret role" in public, "who the seat is comes before what only it knows"
    assert "\n[" in private, "the rows only the seat saw are kept"
    whole = turn_messages(turns[-1])[1]["content"]
    assert private.split("\n[")[1:] == whole.partition(PRIVATE_HEADER)[2].split("\n[")[1:]


@pytest.mark.parametrize("name", ["reasoner-cpu-tiny.toml", "reasoner-gpu-0.5b.toml", "reasoner-gpu-1.5b.toml"])
def test_the_shipped_configs_load(name: str) -> None:
    config = ReasonerConfig.load(shipped(name))
    assert (config.epsilon, config.beta, config.lora_rank) == (0.2, 0.04, 16)
    if "gpu" in name:
        assert (config.games, config.turns, config.num_generations, config.turns_per_step) == (500, 3000, 8, 128)
        assert config.turns_per_step * config.num_generations == config.micro_batch * config.accumulation


def test_bad_configs_say_what_is_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("colour = 'red'\n")
    with pytest.raises(ValueError, match="unknown key"):
        ReasonerConfig.load(bad)
    with pytest.raises(ValueError, match="multiple of micro_batch"):
        ReasonerConfig(turns_per_step=3, num_generations=2, micro_batch=4)
    with pytest.raises(ValueError, match="reference"):
        ReasonerConfig(reference="guess")
    assert ReasonerConfig.from_dict(dict(SMOKE)).model == "local:tiny"


# ---------------------------------------------------------------------- records and the command line


def test_faithfulness_of_the_reasoner_answers_a_record_keeps(tmp_path: Path) -> None:
    import asyncio

    from typer.testing import CliRunner

    from lycan.agents.camwolf import CamWolfAgent
    from lycan.causal import measure_records, record_answers
    from lycan.cli import app
    from lycan.engine.runner import run_async
    from lycan.store import GameStore
    from test_camwolf import conclude, reasoner

    model = reasoner(conclude())
    players = [CamWolfAgent(model, 50 + s, talk="phrase") for s in range(RULES.n_players)]
    record = asyncio.run(run_async(RULES, players, 5))
    answers = list(record_answers(record))
    assert answers and all(a.truth == record.roles for a in answers)
    assert all(set(a.view.events) <= set(visible(record.events, a.view.seat)) for a in answers)
    result = asyncio.run(measure_records([record], BeliefIntervener()))
    assert result.answers == len(answers) and result.well_formed == len(answers)

    db = tmp_path / "games.db"
    with GameStore(db) as store:
        store.save(record, run="cw")
    shown = CliRunner().invoke(app, ["causal", "faithfulness", "cw", "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    assert "Faithfulness of cw" in shown.output and "intervention calls" in shown.output
    missing = CliRunner().invoke(app, ["causal", "faithfulness", "nothing", "--db", str(db)])
    assert missing.exit_code == 2 and "no games stored" in missing.output


@pytest.mark.parametrize("name", ["reasoner-gpu-0.5b.toml", "reasoner-gpu-1.5b.toml"])
def test_the_gpu_configs_start(name: str) -> None:
    """The seed's scale is planned without a GPU: config, data, TRL and peft settings (nothing is trained)."""
    from lycan.causal.train import dry_run

    plan = dry_run(ReasonerConfig.load(shipped(name)), games=2)
    assert plan["answers_per_step"] == 1024 and plan["micro_batch"] * plan["accumulation"] == 1024
    assert plan["generation_batch"] == 1024 and plan["steps"] == 63
    assert plan["sample_turns"] > 0 and plan["empty_answer_reward"] == -1.0
    assert plan["checkpoint"]  # a path, or why the model's package is missing
