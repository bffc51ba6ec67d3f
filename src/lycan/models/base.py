"""The one async chat protocol every model backend implements."""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict, runtime_checkable


class Message(TypedDict):
    """One chat message."""

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    """What one model call cost."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """Everything that determines a model's answer (and so the request-cache key).

    `scope` isolates caches: a game id, so no answer ever leaks from one game into another.
    `session` names a stable prompt prefix (e.g. one seat) whose KV cache a backend may reuse.
    `json_schema`, when given, asks for output that matches it (where the backend supports it).
    """

    messages: Sequence[Message]
    max_tokens: int = 256
    temperature: float = 0.7
    top_p: float = 1.0
    seed: int | None = None
    stop: tuple[str, ...] = ()
    json_schema: dict[str, Any] | None = None
    scope: str = ""
    session: str = ""


@dataclass(frozen=True, slots=True)
class ChatResult:
    """A finished answer."""

    text: str
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    finish_reason: str = "stop"


class ModelError(RuntimeError):
    """A model call failed in a way a caller can report in one sentence (after retries)."""


@runtime_checkable
class ChatModel(Protocol):
    """An async chat backend: a whole answer, or its text streamed piece by piece."""

    name: str

    async def chat(self, request: ChatRequest) -> ChatResult:
        """Answer `request` in one piece.

        Raises:
            ModelError: the backend failed after its retries.
        """
        ...

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """Yield the answer's text in pieces as the model writes it.

        Raises:
            ModelError: the backend failed after its retries.
        """
        ...


class ChatStream(AsyncIterator[str]):
    """The text of an answer, piece by piece; once it is exhausted, `result` holds the whole answer.

    Backends build it from an async generator that yields text pieces and, last, one
    `ChatResult` (with usage). Callers that only want text iterate it like any `AsyncIterator[str]`;
    wrappers (meters, recorders) read `result` afterwards.
    """

    def __init__(self, source: AsyncGenerator[str | ChatResult, None]) -> None:
        self._source = source
        self.result: ChatResult | None = None

    def __aiter__(self) -> ChatStream:
        return self

    async def __anext__(self) -> str:
        while True:
            item = await self._source.__anext__()
            if isinstance(item, ChatResult):
                self.result = item
                continue
            return item

    async def aclose(self) -> None:
        """Stop the stream early and let the backend release what it holds."""
        await self._source.aclose()


def calls_at_once(model: object) -> int | None:
    """How many calls `model` answers at the same time (None: no limit it knows of).

    Backends that run the model in this process serve one call at a time (`calls_at_once = 1`);
    wrappers (`CachedModel`, `RecordingModel`, ...) answer for the model they wrap.
    """
    for _ in range(8):  # wrappers hold the model they wrap as `.model`
        value = getattr(model, "calls_at_once", None)
        if isinstance(value, int):
            return value
        inner = getattr(model, "model", None)
        if inner is None or inner is model:
            return None
        model = inner
    return None


def stream_result(stream: AsyncIterator[str]) -> ChatResult | None:
    """The finished answer of an exhausted stream, where its backend reports one."""
    result = getattr(stream, "result", None)
    return result if isinstance(result, ChatResult) else None


async def collect(stream: AsyncIterator[str]) -> str:
    """Read a stream to its end and return the whole text."""
    return "".join([piece async for piece in stream])


def request_to_dict(request: ChatRequest) -> dict[str, Any]:
    """A JSON-ready dict of everything in `request`."""
    return {
        "messages": [{"role": message["role"], "content": message["content"]} for message in request.messages],
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "top_p": request.top_p,
        "seed": request.seed,
        "stop": list(request.stop),
        "json_schema": request.json_schema,
        "scope": request.scope,
        "session": request.session,
    }


def request_from_dict(data: dict[str, Any]) -> ChatRequest:
    """The inverse of `request_to_dict`."""
    return ChatRequest(
        messages=[Message(role=message["role"], content=message["content"]) for message in data["messages"]],
        max_tokens=int(data.get("max_tokens", 256)),
        temperature=float(data.get("temperature", 0.7)),
        top_p=float(data.get("top_p", 1.0)),
        seed=data.get("seed"),
        stop=tuple(data.get("stop", ())),
        json_schema=data.get("json_schema"),
        scope=str(data.get("scope", "")),
        session=str(data.get("session", "")),
    )


def result_to_dict(result: ChatResult) -> dict[str, Any]:
    """A JSON-ready dict of `result`."""
    return {
        "text": result.text,
        "model": result.model,
        "finish_reason": result.finish_reason,
        "usage": {
            "prompt_tokens": result.usage.prompt_tokens,
            "completion_tokens": result.usage.completion_tokens,
            "latency_s": result.usage.latency_s,
            "cached": result.usage.cached,
        },
    }


def result_from_dict(data: dict[str, Any], *, cached: bool | None = None) -> ChatResult:
    """The inverse of `result_to_dict` (optionally marking the usage as served from a cache)."""
    usage = data.get("usage", {})
    return ChatResult(
        text=str(data["text"]),
        usage=Usage(
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            latency_s=float(usage.get("latency_s", 0.0)),
            cached=bool(usage.get("cached", False)) if cached is None else cached,
        ),
        model=str(data.get("model", "")),
        finish_reason=str(data.get("finish_reason", "stop")),
    )


def request_key(request: ChatRequest, model: str = "", base_url: str = "") -> str:
    """The sha256 (hex) that identifies a request's answer: model, base_url, messages, sampling, schema, scope.

    `session` is left out: it only says which KV cache a backend may reuse, never what the answer is.
    """
    data = request_to_dict(request)
    del data["session"]
    data["model"] = model
    data["base_url"] = base_url
    encoded = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()
