"""The one async chat protocol every model backend implements."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
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
