"""Claims read from free talk by a chat model (`lycan.beliefs.extract`): the request, the checks on
the answer, faults, caching, the parser path, scoring, and the embedded model on a labelled set."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lycan.beliefs import ClaimExtractor, Labelled, Score, canonical, load_labelled, score
from lycan.beliefs.claims import SpeechParser, Statement
from lycan.beliefs.extract import EXAMPLE_NAMES, EXTRACTED_KINDS, FEW_SHOT, ParserUse, scored
from lycan.models import CachedModel, ChatModel, ChatRequest, ChatResult, ModelError, load_model
from lycan.models.llamacpp import LlamaCppModel
from lycan.rules.roles import Species
from scripted import HANG, ScriptedModel

NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve")
ALICE, BOB, CAROL, DAVE, EVE = range(5)
LABELLED = Path(__file__).parent / "data" / "utterances.jsonl"
FREE = "Bob's whole vibe screams werewolf to me."  # words the rules leave unread


def answer(*statements: object) -> str:
    return json.dumps({"statements": list(statements)})


def fixed(text: str | BaseException | object) -> ScriptedModel:
    return ScriptedModel(lambda _: text)


# -- the request ----------------------------------------------------------------------------------


async def test_one_greedy_schema_constrained_call_scoped_to_the_game() -> None:
    model = fixed(answer({"kind": "accuses", "target": "Bob"}))
    extractor = ClaimExtractor(model, NAMES)
    assert await extractor.extract(FREE, ALICE, scope="game-1") == (Statement("accuses", BOB),)
    assert len(model.requests) == 1
    request = model.requests[0]
    assert request.temperature == 0.0
    assert request.scope == "game-1"
    assert request.json_schema == extractor.schema
    assert request.messages[0]["role"] == "system"
    assert request.messages[-1]["content"].endswith(f"Speaker: Alice\nLine: {FREE}")
    assert extractor.model_calls == 1 and extractor.parser_hits == 0 and not extractor.faults


def test_the_schema_pins_kinds_seats_roles_and_species() -> None:
    extractor = ClaimExtractor(fixed(""), NAMES, roles=("seer", "bodyguard", "villager"), max_statements=3)
    statements = extractor.schema["properties"]["statements"]
    assert statements["maxItems"] == 3
    shapes = {item["properties"]["kind"]["const"]: item for item in statements["items"]["anyOf"]}
    assert tuple(shapes) == EXTRACTED_KINDS
    assert shapes["claim"]["required"] == ["kind", "role"]
    assert shapes["claim"]["properties"]["role"]["enum"] == ["seer", "guardian", "villager"]
    assert shapes["divined"]["properties"]["target"]["enum"] == list(NAMES)
    assert shapes["identified"]["properties"]["species"]["enum"] == ["human", "werewolf"]
    assert set(shapes["liar"]["required"]) == {"kind", "target", "role"}
    assert all(item["additionalProperties"] is False for item in shapes.values())


def test_the_worked_examples_are_answers_the_checks_accept() -> None:
    extractor = ClaimExtractor(fixed(""), EXAMPLE_NAMES)
    for speaker, line, statements in FEW_SHOT:
        read = extractor.read(answer(*statements), EXAMPLE_NAMES.index(speaker), line)
        assert len(read) == len(statements), (line, read)
    assert not extractor.faults
    kinds = {statement["kind"] for _, _, statements in FEW_SHOT for statement in statements}
    assert kinds == set(EXTRACTED_KINDS) - {"identified"}
    assert any(not statements for _, _, statements in FEW_SHOT)


# -- answers and faults ---------------------------------------------------------------------------


async def test_several_statements_in_one_answer() -> None:
    text = "I'm the seer. Last night I looked at Carol and she's a werewolf, vote Carol."
    model = fixed(
        answer(
            {"kind": "claim", "role": "seer"},
            {"kind": "divined", "target": "Carol", "species": "werewolf"},
            {"kind": "will_vote", "target": "Carol"},
            {"kind": "will_vote", "target": "Carol"},  # repeated: kept once
        )
    )
    extractor = ClaimExtractor(model, NAMES, parser="off")
    assert await extractor.extract(text, BOB, scope="g") == (
        Statement("claim", role="seer"),
        Statement("divined", CAROL, species=Species.WEREWOLF),
        Statement("will_vote", CAROL),
    )


@pytest.mark.parametrize("garbage", ["", "I think Bob is the wolf", '{"statements": [', "[1, 2]", '{"claims": []}'])
async def test_an_unreadable_answer_gives_nothing_and_a_fault(garbage: str) -> None:
    extractor = ClaimExtractor(fixed(garbage), NAMES)
    assert await extractor.extract(FREE, ALICE, scope="g") == ()
    assert [fault.kind for fault in extractor.faults] == ["json"]
    assert extractor.faults[0].scope == "g" and extractor.faults[0].speaker == ALICE


async def test_a_late_answer_gives_nothing_a_fault_and_is_asked_again_later() -> None:
    model = fixed(HANG)
    extractor = ClaimExtractor(model, NAMES, timeout=0.05)
    started = time.perf_counter()
    assert await extractor.extract(FREE, ALICE, scope="g") == ()
    assert time.perf_counter() - started < 2
    assert [fault.kind for fault in extractor.faults] == ["timeout"]
    model.responder = lambda _: answer({"kind": "accuses", "target": "Bob"})
    assert await extractor.extract(FREE, ALICE, scope="g") == (Statement("accuses", BOB),)
    assert len(model.requests) == 2


@pytest.mark.parametrize("error", [ModelError("backend unreachable"), RuntimeError("boom"), ValueError("odd")])
async def test_a_failing_model_gives_nothing_and_a_fault(error: Exception) -> None:
    extractor = ClaimExtractor(fixed(error), NAMES)
    assert await extractor.extract(FREE, ALICE, scope="g") == ()
    assert [fault.kind for fault in extractor.faults] == ["error"]
    assert str(error) in extractor.faults[0].detail
    assert extractor.fault_counts["error"] == 1


async def test_statements_off_the_table_are_dropped_one_by_one() -> None:
    text = "Bob is a fake seer, Zed is a wolf, Carol is a vampire, and I'm the king, trust Dave."
    model = fixed(
        answer(
            {"kind": "liar", "target": "Bob", "role": "seer"},  # kept
            {"kind": "accuses", "target": "Zed"},  # no such seat
            {"kind": "accuses", "target": "Alice"},  # the speaker
            {"kind": "divined", "target": "Carol", "species": "vampire"},  # no such species
            {"kind": "claim", "role": "king"},  # no such role
            {"kind": "claim", "role": "werewolf"},  # not a role one claims
            {"kind": "attack", "target": "Dave"},  # not a kind the model may report
            {"kind": "defends"},  # no target
            "defends Dave",  # not an object
            {"kind": "defends", "target": "dave"},  # kept: names are matched case-insensitively
        )
    )
    extractor = ClaimExtractor(model, NAMES, parser="off", max_statements=10)
    assert await extractor.extract(text, ALICE, scope="g") == (
        Statement("liar", BOB, role="seer"),
        Statement("defends", DAVE),
    )
    assert [fault.kind for fault in extractor.faults] == ["invalid"] * 8


async def test_a_speaker_who_is_no_seat_gives_nothing() -> None:
    model = fixed(answer())
    extractor = ClaimExtractor(model, NAMES)
    assert await extractor.extract(FREE, 9, scope="g") == ()
    assert extractor.faults[0].kind == "invalid" and not model.requests


async def test_statements_the_line_does_not_bear_out_are_dropped() -> None:
    statements = (
        {"kind": "accuses", "target": "Eve"},  # Eve is not named
        {"kind": "claim", "role": "medium"},  # no medium is named
        {"kind": "liar", "target": "Bob", "role": "seer"},  # no word of lying
        {"kind": "will_vote", "target": "Bob"},  # no word of voting
        {"kind": "claim", "role": "seer"},  # kept
        {"kind": "accuses", "target": "Bob"},  # kept
    )
    extractor = ClaimExtractor(fixed(answer(*statements)), NAMES, parser="off", max_statements=10)
    text = "As the seer I say Bob is a wolf."
    assert await extractor.extract(text, ALICE, scope="g") == (
        Statement("claim", role="seer"),
        Statement("accuses", BOB),
    )
    assert [fault.kind for fault in extractor.faults] == ["ungrounded"] * 4
    loose = ClaimExtractor(fixed(answer(*statements)), NAMES, parser="off", max_statements=10, grounded=False)
    assert len(await loose.extract(text, ALICE, scope="g")) == 6


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I checked Bob last night, wolf.", Statement("divined", BOB, species=Species.WEREWOLF)),
        ("Bob, who we executed, was a werewolf.", Statement("identified", BOB, species=Species.WEREWOLF)),
        ("Bob is a werewolf.", Statement("accuses", BOB)),
        ("Bob is human.", Statement("defends", BOB)),
    ],
)
async def test_a_result_takes_the_kind_its_words_show(text: str, statement: Statement) -> None:
    said = answer({"kind": "divined", "target": "Bob", "species": "werewolf" if "wolf" in text else "human"})
    extractor = ClaimExtractor(fixed(said), NAMES, parser="off")
    assert await extractor.extract(text, ALICE, scope="g") == (statement,)


# -- the parser, the cache ------------------------------------------------------------------------


async def test_template_talk_is_read_by_the_parser_without_the_model() -> None:
    model = fixed(answer({"kind": "accuses", "target": "Eve"}))
    extractor = ClaimExtractor(model, NAMES)
    assert await extractor.extract("I vote for Bob.", ALICE, scope="g") == (Statement("will_vote", BOB),)
    assert await extractor.extract("COMINGOUT Alice SEER", ALICE, scope="g") == (Statement("claim", role="seer"),)
    assert await extractor.extract("I divined Carol: werewolf.", ALICE, scope="g") == (
        Statement("divined", CAROL, species=Species.WEREWOLF),
    )
    assert model.requests == [] and extractor.parser_hits == 3 and extractor.model_calls == 0


async def test_merge_asks_the_model_too_and_adds_what_the_parser_missed() -> None:
    text = "I'm the seer. Last night I looked at Carol and she's a werewolf."
    said = answer({"kind": "claim", "role": "seer"}, {"kind": "divined", "target": "Carol", "species": "werewolf"})
    first = ClaimExtractor(fixed(said), NAMES)
    merge = ClaimExtractor(fixed(said), NAMES, parser="merge")
    # the rules read the whole line, so the model is not asked; with "merge" it is asked anyway
    assert await first.extract(text, BOB, scope="g") == (
        Statement("claim", role="seer"),
        Statement("divined", CAROL, species=Species.WEREWOLF),
    )
    assert first.model_calls == 0 and first.parser_hits == 1
    assert await merge.extract(text, BOB, scope="g") == (
        Statement("claim", role="seer"),
        Statement("divined", CAROL, species=Species.WEREWOLF),
    )
    failing = ClaimExtractor(fixed(ModelError("down")), NAMES, parser="merge")
    assert await failing.extract("I'm the seer.", BOB, scope="g") == (Statement("claim", role="seer"),)


async def test_an_utterance_is_read_once_per_game_and_speaker() -> None:
    model = fixed(answer({"kind": "accuses", "target": "Bob"}))
    extractor = ClaimExtractor(model, NAMES)
    first = await extractor.extract(FREE, ALICE, scope="game-1")
    assert await extractor.extract(FREE, ALICE, scope="game-1") == first
    assert len(model.requests) == 1 and extractor.cache_hits == 1
    await extractor.extract(FREE, ALICE, scope="game-2")  # another game asks again, in its own scope
    await extractor.extract(FREE, CAROL, scope="game-1")  # so does another speaker
    assert [request.scope for request in model.requests] == ["game-1", "game-2", "game-1"]
    extractor.forget("game-1")
    await extractor.extract(FREE, ALICE, scope="game-1")
    await extractor.extract(FREE, ALICE, scope="game-2")
    assert len(model.requests) == 4


async def test_an_empty_reading_is_remembered_too() -> None:
    model = fixed(answer())
    extractor = ClaimExtractor(model, NAMES)
    for _ in range(3):
        assert await extractor.extract(FREE, ALICE, scope="g") == ()
    assert len(model.requests) == 1
    assert await extractor.extract("Good morning everyone.", ALICE, scope="g") == ()
    assert len(model.requests) == 1  # a line the rules account for whole is never sent


async def test_the_cache_keeps_the_latest_utterances() -> None:
    model = fixed(answer())
    extractor = ClaimExtractor(model, NAMES, cache_size=2)
    for text in ("one", "two", "three", "three", "one"):
        await extractor.extract(f"Bob's {text} vibe screams werewolf", ALICE, scope="g")
    assert len(model.requests) == 4


class SlowModel:
    """Answers after a pause, counting calls."""

    name = "slow"

    def __init__(self) -> None:
        self.calls = 0

    async def chat(self, request: ChatRequest) -> ChatResult:
        self.calls += 1
        await asyncio.sleep(0.05)
        return ChatResult(text=answer({"kind": "accuses", "target": "Bob"}))

    def stream(self, request: ChatRequest) -> Any:
        raise NotImplementedError


async def test_concurrent_readers_of_one_utterance_share_one_call() -> None:
    model = SlowModel()
    extractor = ClaimExtractor(model, NAMES)
    readings = await asyncio.gather(*(extractor.extract(FREE, ALICE, scope="g") for _ in range(4)))
    assert readings == [(Statement("accuses", BOB),)] * 4
    assert model.calls == 1


async def test_a_reader_that_gives_up_does_not_cancel_the_others() -> None:
    model = SlowModel()
    extractor = ClaimExtractor(model, NAMES)
    impatient = asyncio.ensure_future(extractor.extract(FREE, ALICE, scope="g"))
    patient = asyncio.ensure_future(extractor.extract(FREE, ALICE, scope="g"))
    await asyncio.sleep(0)
    impatient.cancel()
    assert await patient == (Statement("accuses", BOB),)
    assert impatient.cancelled() and model.calls == 1


def test_a_synchronous_caller_gets_the_same_reading() -> None:
    extractor = ClaimExtractor(fixed(answer({"kind": "accuses", "target": "Bob"})), NAMES)
    assert extractor.extract_sync(FREE, ALICE, scope="g") == (Statement("accuses", BOB),)


# -- scoring --------------------------------------------------------------------------------------


def test_score_counts_statements_within_each_utterance() -> None:
    predicted = [
        (Statement("accuses", BOB), Statement("will_vote", BOB)),  # one right, one extra
        (),  # one missed
        (Statement("claim", role="seer"),),  # right
        (Statement("accuses", CAROL),),  # right statement, but it belongs to the first utterance
    ]
    gold = [
        (Statement("accuses", BOB), Statement("accuses", CAROL)),
        (Statement("defends", DAVE),),
        (Statement("claim", role="seer"),),
        (),
    ]
    result = score(predicted, gold, resamples=200)
    assert (result.true_positives, result.false_positives, result.false_negatives, result.n) == (2, 2, 2, 4)
    assert result.precision == result.recall == result.f1 == 0.5
    assert 0.0 <= result.f1_low <= result.f1 <= result.f1_high <= 1.0
    assert "F1 0.50" in str(result) and "N=4" in str(result)


def test_score_compares_only_the_fields_a_kind_has() -> None:
    estimate = Statement("accuses", BOB, role="werewolf")  # as the parser reads ESTIMATE Bob WEREWOLF
    assert canonical(estimate) == Statement("accuses", BOB)
    assert score([(estimate,)], [(Statement("accuses", BOB),)], resamples=0).f1 == 1.0


def test_a_result_implies_its_roles_claim_in_labels_and_readings_alike() -> None:
    result = Statement("divined", BOB, species=Species.HUMAN)
    seer = Statement("claim", role="seer")
    assert scored([result]) == [result, seer]
    assert scored([seer, result]) == [seer, result]  # the claim once
    assert scored([Statement("identified", BOB, species=Species.WEREWOLF), Statement("guarded", CAROL)])[2:] == [
        Statement("claim", role="medium"),
        Statement("claim", role="guardian"),
    ]
    # a labeller who wrote the claim and one who did not score a reading of the result alike
    assert score([(result,)], [(result, seer)], resamples=0).f1 == score([(result,)], [(result,)], resamples=0).f1 == 1
    # a result read where none was said costs a false result and a false claim, as in the belief engine
    assert score([(result,)], [()], resamples=0).false_positives == 2


def test_score_edge_cases() -> None:
    nothing = score([(), ()], [(), ()])
    assert (nothing.precision, nothing.recall, nothing.n) == (1.0, 1.0, 2)
    silent = score([()], [(Statement("accuses", BOB),)], resamples=0)
    assert (silent.precision, silent.recall, silent.f1) == (1.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="2 predictions for 1 labelled"):
        score([(), ()], [()])


# -- the labelled set -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def labelled() -> list[Labelled]:
    return load_labelled(LABELLED)


def test_the_labelled_set_covers_every_kind_and_plain_chat(labelled: list[Labelled]) -> None:
    assert len(labelled) >= 80
    assert {item.split for item in labelled} == {"dev", "heldout"}
    kinds = {statement.kind for item in labelled for statement in item.gold}
    assert kinds == set(EXTRACTED_KINDS)
    assert sum(not item.gold for item in labelled) >= 15
    assert sum(len(item.gold) > 1 for item in labelled) >= 15
    for item in labelled:
        assert all(statement.target != item.speaker for statement in item.gold), item.text
        assert all(canonical(statement) == statement for statement in item.gold), item.text


def test_the_parser_alone_is_exact_but_reads_little_free_talk(labelled: list[Labelled]) -> None:
    parsed = [SpeechParser(item.names).parse(item.text, item.speaker) for item in labelled]
    result = score(parsed, [item.gold for item in labelled])
    print(f"\nparser alone, all {len(labelled)} utterances: {result}")
    assert result.precision == 1.0
    assert 0.2 <= result.recall <= 0.4


# -- the embedded model ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def qwen() -> Iterator[CachedModel]:
    """The embedded default model behind a request cache, so the parser modes share their calls."""
    model = load_model("local", n_ctx=2048)
    assert isinstance(model, LlamaCppModel)
    yield CachedModel(model)
    model.close()


async def run(model: ChatModel, items: list[Labelled], parser: ParserUse) -> tuple[Score, list[ClaimExtractor], float]:
    extractors: dict[tuple[str, ...], ClaimExtractor] = {}
    started = time.perf_counter()
    predicted = []
    for item in items:
        extractor = extractors.setdefault(
            item.names,
            ClaimExtractor(model, item.names, parser=parser, timeout=300.0),
        )
        predicted.append(await extractor.extract(item.text, item.speaker, scope="labelled"))
    return score(predicted, [item.gold for item in items]), list(extractors.values()), time.perf_counter() - started


def no_failures(extractors: list[ClaimExtractor]) -> None:
    """Every answer was JSON in time: the only faults are statements the checks dropped."""
    kinds = {fault.kind for extractor in extractors for fault in extractor.faults}
    assert kinds <= {"invalid", "ungrounded"}, [f for e in extractors for f in e.faults]


async def test_the_embedded_model_on_the_held_out_lines(qwen: CachedModel, labelled: list[Labelled]) -> None:
    """The lines written after the prompt was settled; the parser answers what it can, the model the rest."""
    heldout = [item for item in labelled if item.split == "heldout"]
    result, extractors, seconds = await run(qwen, heldout, "first")
    calls = sum(extractor.model_calls for extractor in extractors)
    parsed = score([SpeechParser(i.names).parse(i.text, i.speaker) for i in heldout], [i.gold for i in heldout])
    print(f"\nlocal, parser first, held-out: {result}; {calls} model calls in {seconds:.1f} s")
    print(f"parser alone, held-out: {parsed}")
    no_failures(extractors)
    # measured: P 0.65 R 0.61 F1 0.63 (tp 17 fp 9 fn 11) on the 0.5B model; the parser alone R 0.14
    assert result.f1 >= 0.5
    assert result.precision >= 0.5
    assert result.recall >= parsed.recall + 0.3


@pytest.mark.bench  # a measurement (BENCHMARKS.md, "Claims from free talk"); the held-out test above is the CI check
@pytest.mark.parametrize(("parser", "floor"), [("off", 0.55), ("first", 0.6), ("merge", 0.6)])
async def test_the_embedded_model_on_the_whole_labelled_set(
    qwen: CachedModel, labelled: list[Labelled], parser: ParserUse, floor: float
) -> None:
    result, extractors, seconds = await run(qwen, labelled, parser)
    calls = sum(extractor.model_calls for extractor in extractors)  # some answered by the request cache
    print(f"\nlocal, parser {parser}, all {len(labelled)} utterances: {result}; {calls} calls in {seconds:.1f} s")
    no_failures(extractors)
    # measured F1: off 0.64, first 0.70, merge 0.70
    assert result.f1 >= floor


def test_beliefs_read_free_talk_through_the_extractor() -> None:
    """A line the template parser cannot read moves the posterior once the extractor reads it."""
    from lycan.beliefs import Beliefs
    from lycan.beliefs.evidence import Claim
    from lycan.engine.events import PhaseStarted, Talk
    from lycan.rules import get_preset

    rules = get_preset("aiwolf5")
    line = "seer stuff: I used my crystal ball on Bob last night, wolf!!"
    model = fixed(
        answer({"kind": "claim", "role": "seer"}, {"kind": "divined", "target": "Bob", "species": "werewolf"})
    )
    extractor = ClaimExtractor(model, NAMES)
    events = [
        PhaseStarted(id=0, day=1, phase="day", alive=(0, 1, 2, 3, 4)),
        Talk(id=5, day=1, phase="day", actor=ALICE, text=line),
    ]
    plain = Beliefs(rules, NAMES, seat=EVE, role=rules.deck()[-1], read=SpeechParser(NAMES).parse).update(events)
    assert plain.observations == []
    read = Beliefs(
        rules,
        NAMES,
        seat=EVE,
        role=rules.deck()[-1],
        read=lambda text, who: extractor.extract_sync(text, who, scope="g"),
    ).update(events)
    assert any(isinstance(o, Claim) and o.claimed and o.actor == ALICE for o in read.observations)
    assert read.posterior().side_probability(BOB) > plain.posterior().side_probability(BOB)
    assert len(model.requests) == 1
