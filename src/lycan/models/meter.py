"""Usage accounting: calls, tokens and latency per cache scope (one game = one scope)."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass

from lycan.models.base import ChatModel, ChatRequest, ChatResult, ChatStream, Usage, stream_result


@dataclass(slots=True)
class ScopeUsage:
    """What the calls of one scope cost."""

    calls: int = 0
    errors: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0

    def add(self, usage: Usage, latency_s: float) -> None:
        """Count one finished call."""
        self.calls += 1
        self.cached += int(usage.cached)
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        self.latency_s += latency_s

    @property
    def tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def merged(self, other: ScopeUsage) -> ScopeUsage:
        """The sum of two tallies."""
        return ScopeUsage(
            calls=self.calls + other.calls,
            errors=self.errors + other.errors,
            cached=self.cached + other.cached,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            latency_s=self.latency_s + other.latency_s,
        )


class UsageMeter:
    """Wraps a model and counts its calls, tokens and latency per `ChatRequest.scope`.

    Latency is measured around each call (for a stream: until its last piece), so answers served
    from a cache further down count their real, near-zero time.
    """

    def __init__(self, model: ChatModel) -> None:
        self.model = model
        self.name = model.name
        self.base_url = str(getattr(model, "base_url", "") or "")
        self.by_scope: dict[str, ScopeUsage] = defaultdict(ScopeUsage)

    def usage(self, scope: str | None = None) -> ScopeUsage:
        """The tally of one scope, or of all scopes together when `scope` is None."""
        if scope is not None:
            return self.by_scope.get(scope, ScopeUsage())
        total = ScopeUsage()
        for tally in self.by_scope.values():
            total = total.merged(tally)
        return total

    async def chat(self, request: ChatRequest) -> ChatResult:
        """The model's answer, counted."""
        started = time.perf_counter()
        try:
            result = await self.model.chat(request)
        except Exception:
            self.by_scope[request.scope].errors += 1
            raise
        self.by_scope[request.scope].add(result.usage, time.perf_counter() - started)
        return result

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """The model's stream, counted when it ends."""
        return ChatStream(self._stream(request))

    async def _stream(self, request: ChatRequest) -> AsyncGenerator[str | ChatResult, None]:
        started = time.perf_counter()
        source = self.model.stream(request)
        pieces = 0
        try:
            async for piece in source:
                pieces += 1
                yield piece
        except Exception:
            self.by_scope[request.scope].errors += 1
            raise
        result = stream_result(source)
        usage = result.usage if result is not None else Usage(completion_tokens=pieces)
        self.by_scope[request.scope].add(usage, time.perf_counter() - started)
        if result is not None:
            yield result
