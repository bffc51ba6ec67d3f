"""A request cache in front of any chat model.

The key is the sha256 of (model name, base_url, messages, sampling config, json_schema, scope), so
identical prompts in two games (two scopes) never share an answer unless the caller gives both
the same scope. Answers live in memory or in a SQLite file that survives restarts.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import AsyncGenerator, AsyncIterator
from pathlib import Path

from lycan.models.base import (
    ChatModel,
    ChatRequest,
    ChatResult,
    ChatStream,
    request_key,
    result_from_dict,
    result_to_dict,
    stream_result,
)

MEMORY = ":memory:"


class CachedModel:
    """Answers repeated requests from a cache instead of the model.

    Sampled answers (temperature > 0) are cached too: within one scope a repeated request gets
    the answer it got the first time, which keeps a re-run game reproducible. Give each game its
    own scope (e.g. its game id) so that no answer crosses from one game into another.

    Args:
        model: the model to ask on a miss.
        path_or_memory: a SQLite file to keep answers in, or None / ":memory:" for this process only.

    Attributes:
        hits: requests answered from the cache.
        misses: requests passed to the model.
    """

    def __init__(self, model: ChatModel, path_or_memory: str | os.PathLike[str] | None = None) -> None:
        self.model = model
        self.name = model.name
        self.base_url = str(getattr(model, "base_url", "") or "")
        self.hits = 0
        self.misses = 0
        self._memory: dict[str, str] | None = None
        self._db: sqlite3.Connection | None = None
        if path_or_memory is None or str(path_or_memory) == MEMORY:
            self._memory = {}
        else:
            path = Path(path_or_memory)
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, result TEXT NOT NULL)")

    def key(self, request: ChatRequest) -> str:
        """The cache key of `request` for this model."""
        return request_key(request, self.name, self.base_url)

    def get(self, request: ChatRequest) -> ChatResult | None:
        """The cached answer to `request`, if there is one (marked `usage.cached`)."""
        key = self.key(request)
        if self._memory is not None:
            stored = self._memory.get(key)
        else:
            assert self._db is not None
            row = self._db.execute("SELECT result FROM answers WHERE key = ?", (key,)).fetchone()
            stored = row[0] if row else None
        return None if stored is None else result_from_dict(json.loads(stored), cached=True)

    def put(self, request: ChatRequest, result: ChatResult) -> None:
        """Store `result` as the answer to `request`."""
        key = self.key(request)
        stored = json.dumps(result_to_dict(result), ensure_ascii=False)
        if self._memory is not None:
            self._memory[key] = stored
        else:
            assert self._db is not None
            self._db.execute("INSERT OR REPLACE INTO answers (key, result) VALUES (?, ?)", (key, stored))

    async def chat(self, request: ChatRequest) -> ChatResult:
        """The cached answer, or the model's (which is then cached)."""
        cached = self.get(request)
        if cached is not None:
            self.hits += 1
            return cached
        self.misses += 1
        result = await self.model.chat(request)
        self.put(request, result)
        return result

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """A cached answer as one piece, or the model's stream (cached once it completes)."""
        return ChatStream(self._stream(request))

    async def _stream(self, request: ChatRequest) -> AsyncGenerator[str | ChatResult, None]:
        cached = self.get(request)
        if cached is not None:
            self.hits += 1
            if cached.text:
                yield cached.text
            yield cached
            return
        self.misses += 1
        source = self.model.stream(request)
        pieces: list[str] = []
        async for piece in source:
            pieces.append(piece)
            yield piece
        result = stream_result(source)
        text = "".join(pieces)
        if result is None:
            result = ChatResult(text=text, model=self.name)
        elif result.text != text:
            result = ChatResult(text=text, usage=result.usage, model=result.model, finish_reason=result.finish_reason)
        self.put(request, result)
        yield result

    def close(self) -> None:
        """Close the cache file."""
        if self._db is not None:
            self._db.close()
            self._db = None
