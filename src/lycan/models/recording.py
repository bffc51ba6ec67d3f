"""Record every model call to JSONL, and replay a recording without any model.

A line is `{"call": "chat"|"stream", "key": ..., "model": ..., "request": {...}, "result": {...},
"pieces": [...]}`. `ReplayModel` answers a request from the recording's lines with the same key
(a request repeated N times gets the N recorded answers in order, then the last one again).
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import AsyncGenerator, AsyncIterator
from pathlib import Path
from typing import Any

from lycan.models.base import (
    ChatModel,
    ChatRequest,
    ChatResult,
    ChatStream,
    ModelError,
    request_key,
    request_to_dict,
    result_from_dict,
    result_to_dict,
    stream_result,
)


def replay_key(request: ChatRequest) -> str:
    """The key a recorded call is found by: the request alone (the model is the one recorded)."""
    return request_key(request)


class RecordingModel:
    """Passes calls to `model` and appends each one (request, result, streamed pieces) to `path`."""

    def __init__(self, model: ChatModel, path: str | os.PathLike[str]) -> None:
        self.model = model
        self.name = model.name
        self.base_url = str(getattr(model, "base_url", "") or "")
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def _append(self, call: str, request: ChatRequest, result: ChatResult, pieces: list[str] | None) -> None:
        line: dict[str, Any] = {
            "call": call,
            "key": replay_key(request),
            "model": self.name,
            "request": request_to_dict(request),
            "result": result_to_dict(result),
        }
        if pieces is not None:
            line["pieces"] = pieces
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")

    async def chat(self, request: ChatRequest) -> ChatResult:
        """The model's answer, recorded."""
        result = await self.model.chat(request)
        self._append("chat", request, result, None)
        return result

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """The model's stream, recorded piece by piece once it completes."""
        return ChatStream(self._stream(request))

    async def _stream(self, request: ChatRequest) -> AsyncGenerator[str | ChatResult, None]:
        source = self.model.stream(request)
        pieces: list[str] = []
        finished = False
        try:
            async for piece in source:
                pieces.append(piece)
                yield piece
            finished = True
        finally:
            # A caller that stops reading early (the speech was complete) is recorded too, with the
            # pieces it read: a replay serves those, and the caller stops at the same place again.
            text = "".join(pieces)
            result = stream_result(source) if finished else None
            if result is None:
                result = ChatResult(text=text, model=self.name, finish_reason="stop" if finished else "cancelled")
            elif result.text != text:
                result = ChatResult(
                    text=text, usage=result.usage, model=result.model, finish_reason=result.finish_reason
                )
            self._append("stream", request, result, pieces)
        yield result


class ReplayModel:
    """Answers requests from a recording made by `RecordingModel`, without any model.

    Args:
        path: the JSONL recording.
        name: the model name to report (default: the recorded one).

    Raises:
        ModelError: the recording is missing or malformed.
    """

    base_url = ""

    def __init__(self, path: str | os.PathLike[str], name: str | None = None) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise ModelError(f"There is no recording at {self.path}; record one with RecordingModel first.")
        self._answers: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._served: dict[str, int] = defaultdict(int)
        recorded_name = ""
        with self.path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                    self._answers[str(entry["key"])].append(entry)
                except (json.JSONDecodeError, KeyError, TypeError) as error:
                    raise ModelError(
                        f"Line {number} of the recording {self.path} is not a recorded call: {error}"
                    ) from error
                recorded_name = recorded_name or str(entry.get("model", ""))
        self.name = name or recorded_name or f"replay:{self.path}"

    def _entry(self, request: ChatRequest) -> dict[str, Any]:
        key = replay_key(request)
        entries = self._answers.get(key)
        if not entries:
            last = request.messages[-1]["content"] if request.messages else ""
            preview = last if len(last) <= 60 else last[:57] + "..."
            raise ModelError(
                f"The recording {self.path} has no answer for the request {key[:12]} "
                f"(scope {request.scope!r}, last message {preview!r})."
            )
        index = min(self._served[key], len(entries) - 1)
        self._served[key] += 1
        return entries[index]

    async def chat(self, request: ChatRequest) -> ChatResult:
        """The recorded answer to `request`."""
        return result_from_dict(self._entry(request)["result"])

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """The recorded pieces of the answer to `request` (one piece if it was recorded whole)."""
        return ChatStream(self._stream(request))

    async def _stream(self, request: ChatRequest) -> AsyncGenerator[str | ChatResult, None]:
        entry = self._entry(request)
        result = result_from_dict(entry["result"])
        pieces = entry.get("pieces")
        for piece in pieces if pieces is not None else [result.text]:
            if piece:
                yield piece
        yield result
