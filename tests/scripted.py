"""A scripted `ChatModel` for tests: answers come from a function of the request, streamed in pieces."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

from lycan.models.base import ChatRequest, ChatResult, ModelError, Usage

HANG = object()
"""Return this from a responder to make the call never finish (the engine's timeout ends it)."""

Responder = Callable[[ChatRequest], Any]


def seat_of(request: ChatRequest) -> int:
    """The seat a request is for, from its session `scope:seat`."""
    return int(request.session.rsplit(":", 1)[1])


def task_text(request: ChatRequest) -> str:
    return request.messages[-1]["content"]


def is_talk(request: ChatRequest) -> bool:
    return request.json_schema is None


def legal_options(request: ChatRequest) -> list[str]:
    assert request.json_schema is not None
    return list(request.json_schema["properties"]["target"]["enum"])


def is_probe(request: ChatRequest) -> bool:
    return request.json_schema is not None and "guesses" in request.json_schema["properties"]


def probe_guesses(request: ChatRequest, rng: random.Random) -> dict[str, dict[str, Any]]:
    """A role and confidence, drawn from the schema's options, for every player a probe asks about."""
    assert request.json_schema is not None
    guesses = request.json_schema["properties"]["guesses"]["properties"]
    out = {}
    for name, guess in guesses.items():
        options = guess["properties"]
        out[name] = {
            "role": rng.choice(options["role"]["enum"]),
            "confidence": rng.choice(options["confidence"]["enum"]),
        }
    return out


def instance(schema: dict[str, Any], rng: random.Random) -> Any:
    """A value that fits the JSON schema `schema`: enums drawn with `rng`, every property filled in."""
    if "enum" in schema:
        return rng.choice(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return instance(schema[key][0], rng)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        return {name: instance(sub, rng) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [instance(schema.get("items", {}), rng) for _ in range(max(1, schema.get("minItems", 1)))]
    if kind == "integer":
        return int(schema.get("minimum", 0))
    if kind == "number":
        return float(schema.get("minimum", 0))
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    return "a hunch"


def sensible(request: ChatRequest, rng: random.Random | None = None) -> str:
    """A well-formed answer in whatever format the request asks for."""
    rng = rng or random.Random(request.seed)
    schema = request.json_schema
    if schema is None:
        words = f"I have a feeling about this table, note {rng.randrange(10**6)}."
        text = task_text(request)
        if '"Action:"' in text:
            return f"Thought: I should sound calm and careful.\nAction: {words}"
        if "Speech:" in text:
            return (
                "Contemplation: I know little yet.\nFirst-order: they think I am quiet.\n"
                f"Second-order: I want them to trust me.\nSpeech: {words}"
            )
        return words
    if "bid" in schema["properties"]:
        return json.dumps({"bid": rng.randrange(4)})
    if "guesses" in schema["properties"]:
        return json.dumps({"guesses": probe_guesses(request, rng)})
    if "target" not in schema["properties"]:  # another structured answer (e.g. CaM-Wolf's Reasoner)
        return json.dumps(instance(schema, rng))
    options = [o for o in legal_options(request) if o != "none"] or ["none"]
    if "thought" in schema["properties"]:
        return json.dumps({"thought": "weighing it up", "target": rng.choice(options)})
    return json.dumps({"target": rng.choice(options), "reason": "a hunch"})


class ScriptedModel:
    """Answers with `responder(request)`: a string, an exception to raise, or `HANG`.

    `stream` yields the answer in pieces of `piece` characters. Every request is kept in
    `requests`. With `count_tokens` set, the model exposes a tokenizer-like counter.
    """

    name = "scripted"

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        piece: int = 3,
        count_tokens: Callable[[str], int] | None = None,
    ) -> None:
        self.responder: Responder = responder or sensible
        self.piece = piece
        self.requests: list[ChatRequest] = []
        if count_tokens is not None:
            self.count_tokens = count_tokens

    async def _answer(self, request: ChatRequest) -> str:
        self.requests.append(request)
        out = self.responder(request)
        if out is HANG:
            await asyncio.sleep(3600)
        if isinstance(out, BaseException):
            raise out
        return str(out)

    async def chat(self, request: ChatRequest) -> ChatResult:
        text = await self._answer(request)
        return ChatResult(text=text, usage=Usage(prompt_tokens=0, completion_tokens=0), model=self.name)

    async def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        text = await self._answer(request)
        for i in range(0, len(text), self.piece):
            await asyncio.sleep(0)
            yield text[i : i + self.piece]


def failing(message: str = "backend unreachable") -> ModelError:
    return ModelError(message)
