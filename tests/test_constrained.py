"""Schema-constrained decoding with llguidance (`lycan.models.constrained`).

The sampler is checked on fixed logits; the decoder itself on the packaged tiny model in-process:
its answers keep to the schema, most of their tokens are forced rather than sampled, a seed
reproduces an answer, streaming gives the same text, the KV cache is reused, and a schema
llguidance cannot compile goes to llama-cpp-python's grammar instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from lycan.models import ChatRequest, ModelError, load_model, stream_result
from lycan.models.constrained import sample
from lycan.models.llamacpp import LlamaCppModel

NAMES = ["Alice", "Bob", "Carol"]
ROLES = ["villager", "seer", "werewolf"]
READING = {
    "type": "object",
    "properties": {
        "think": {"type": "string", "maxLength": 40},
        "identifications": {
            "type": "array",
            "minItems": 1,
            "maxItems": 2,
            "items": {
                "type": "object",
                "properties": {
                    "premises": {
                        "type": "array",
                        "items": {"type": "integer", "enum": [3, 7, 12]},
                        "minItems": 1,
                        "maxItems": 3,
                    },
                    "player": {"type": "string", "enum": NAMES},
                    "role": {"type": "string", "enum": ROLES},
                },
                "required": ["premises", "player", "role"],
                "additionalProperties": False,
            },
        },
        "emotion": {"type": "string", "enum": ["calm", "suspicious", "afraid"]},
    },
    "required": ["think", "identifications", "emotion"],
    "additionalProperties": False,
}
PROMPT = (
    "Events: 3 Alice said she is the seer. 7 Bob voted for Alice. 12 Carol said Bob lies. "
    "Who is the werewolf? Answer in JSON."
)


def ask(**fields: Any) -> ChatRequest:
    base: dict[str, Any] = {"temperature": 0.0, "max_tokens": 120, "json_schema": READING}
    return ChatRequest([{"role": "user", "content": PROMPT}], **{**base, **fields})


def check_reading(text: str) -> dict[str, Any]:
    """The answer holds to READING (checked by hand: the schema's every constraint)."""
    answer = json.loads(text)
    assert set(answer) == {"think", "identifications", "emotion"}
    assert isinstance(answer["think"], str) and len(answer["think"]) <= 40
    assert answer["emotion"] in {"calm", "suspicious", "afraid"}
    items = answer["identifications"]
    assert 1 <= len(items) <= 2
    for item in items:
        assert set(item) == {"premises", "player", "role"}
        assert item["player"] in NAMES and item["role"] in ROLES
        assert item["premises"] and set(item["premises"]) <= {3, 7, 12}
    return answer


# -- the sampler on fixed logits -----------------------------------------------------------------


def test_greedy_takes_the_best_allowed_token_not_the_best_token() -> None:
    logits = np.array([0.0, 9.0, 3.0, 5.0, 1.0], dtype=np.float32)
    allowed = np.array([0, 2, 3])
    assert sample(logits, allowed, 0.0, 1.0, np.random.default_rng(0)) == 3


def test_sampling_draws_allowed_tokens_only_and_a_seed_repeats_it() -> None:
    rng = np.random.default_rng(1)
    logits = rng.normal(size=500).astype(np.float32)
    allowed = np.array([5, 40, 41, 300, 499])
    draws = [sample(logits, allowed, 1.0, 1.0, np.random.default_rng(seed)) for seed in range(200)]
    assert set(draws) <= set(allowed.tolist()) and len(set(draws)) > 1
    again = [sample(logits, allowed, 1.0, 1.0, np.random.default_rng(seed)) for seed in range(200)]
    assert draws == again


def test_top_p_and_min_p_cut_the_tail() -> None:
    logits = np.array([10.0, 9.0, 0.0, -1.0], dtype=np.float32)
    allowed = np.arange(4)
    draws = {sample(logits, allowed, 1.5, 0.99, np.random.default_rng(seed)) for seed in range(300)}
    assert draws == {0, 1}  # tokens 2 and 3 are below min-p (0.05 of the best) before the temperature
    narrow = {sample(logits, allowed, 1.5, 0.5, np.random.default_rng(seed)) for seed in range(300)}
    assert narrow == {0}  # the best token alone holds more than top_p


# -- the decoder on a real model -------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny() -> Iterator[LlamaCppModel]:
    model = load_model("local:tiny", n_ctx=1024)
    assert isinstance(model, LlamaCppModel)
    yield model
    model.close()


async def test_answers_keep_to_the_schema_and_most_tokens_are_forced(tiny: LlamaCppModel) -> None:
    result = await tiny.chat(ask())
    check_reading(result.text)
    assert result.finish_reason == "stop"
    assert tiny.last_sampled is not None and 0 < tiny.last_sampled < result.usage.completion_tokens / 2
    for seed in range(3):  # sampled answers too
        check_reading((await tiny.chat(ask(temperature=0.8, top_p=0.95, seed=seed))).text)


async def test_a_seed_reproduces_an_answer(tiny: LlamaCppModel) -> None:
    first = await tiny.chat(ask(temperature=0.9, seed=11))
    again = await tiny.chat(ask(temperature=0.9, seed=11))
    assert first.text == again.text
    others = {(await tiny.chat(ask(temperature=0.9, seed=seed))).text for seed in range(12, 16)}
    assert len(others | {first.text}) > 1  # the seed matters


async def test_streaming_gives_the_answer_piece_by_piece(tiny: LlamaCppModel) -> None:
    stream = tiny.stream(ask())
    pieces = [piece async for piece in stream]
    result = stream_result(stream)
    assert result is not None and len(pieces) > 3
    assert result.text == "".join(pieces) == (await tiny.chat(ask())).text
    assert result.usage.completion_tokens > 0


async def test_the_kv_cache_prefix_is_reused(tiny: LlamaCppModel) -> None:
    other = ChatRequest([{"role": "user", "content": "Name a colour."}], max_tokens=8, json_schema={"type": "string"})
    await tiny.chat(other)
    await tiny.chat(ask())
    whole = tiny.last_prompt_evaluated
    await tiny.chat(ask(max_tokens=60))
    assert whole > 40 and tiny.last_prompt_evaluated <= 2


async def test_the_answer_is_cut_at_max_tokens(tiny: LlamaCppModel) -> None:
    result = await tiny.chat(ask(max_tokens=6))
    assert result.finish_reason == "length" and result.usage.completion_tokens <= 6
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.text)


async def test_a_schema_llguidance_cannot_compile_uses_the_grammar(tiny: LlamaCppModel) -> None:
    schema = {
        "type": "object",
        "properties": {"vote": {"type": "string", "enum": NAMES}, "why": {"type": "string", "maxLength": 20}},
        "required": ["vote"],
        "dependentRequired": {"why": ["vote"]},  # llguidance refuses this keyword
    }
    result = await tiny.chat(ask(json_schema=schema, max_tokens=40))
    assert tiny.last_sampled is None  # llama-cpp-python's grammar answered
    assert json.loads(result.text)["vote"] in NAMES


async def test_the_grammar_path_on_request(tiny: LlamaCppModel) -> None:
    grammar = load_model("local:tiny", n_ctx=1024, schema_decoding="grammar")
    assert isinstance(grammar, LlamaCppModel)
    try:
        result = await grammar.chat(ask())
        check_reading(result.text)
        assert grammar.last_sampled is None and result.usage.completion_tokens > 0
    finally:
        grammar.close()
    with pytest.raises(ModelError, match="schema_decoding must be"):
        load_model("local:tiny", schema_decoding="regex")


async def test_a_prompt_longer_than_the_context_is_a_model_error() -> None:
    small = load_model("local:tiny", n_ctx=64)
    try:
        with pytest.raises(ModelError, match="context window"):
            await small.chat(ask())
    finally:
        assert isinstance(small, LlamaCppModel)
        small.close()
