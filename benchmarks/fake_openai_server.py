"""A latency-bound OpenAI-compatible chat server for benchmarks: every answer comes after a fixed delay.

`python benchmarks/fake_openai_server.py PORT DELAY_S` serves `POST /v1/chat/completions` (plain
JSON and `stream: true` server-sent events in the OpenAI chunk format, with a usage chunk when
`stream_options.include_usage` is set) and `GET /v1/models` on 127.0.0.1 with uvicorn. It prints
`ready` once it listens.

What it answers: with a `response_format` JSON schema (`json_schema.schema`, or llama.cpp's
`json_object` + `schema`) an object that satisfies it: the first enum value, the minimum of an
integer, a short string within `maxLength`; without one, a short sentence. The delay is the whole
answer's latency (the first byte comes after it), so the server models a remote model whose time
is spent elsewhere, never this machine's CPU.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

SENTENCE = "I have been watching the votes closely, and I think we should listen before we accuse anyone."


def value_for(schema: dict[str, Any]) -> Any:
    """A value that satisfies the (small) JSON schema our agents send."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        return {name: value_for(sub) for name, sub in props.items()}
    if kind == "integer":
        return int(schema.get("minimum", 0))
    if kind == "number":
        return float(schema.get("minimum", 0))
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    text = "it fits what I saw"
    return text[: int(schema.get("maxLength", len(text)))]


def answer_for(body: dict[str, Any]) -> str:
    """The text of the answer to one chat-completions request body."""
    fmt = body.get("response_format") or {}
    schema = fmt.get("json_schema", {}).get("schema") if fmt.get("type") == "json_schema" else fmt.get("schema")
    if isinstance(schema, dict):
        return json.dumps(value_for(schema))
    return SENTENCE


class App:
    """The ASGI application (no framework: the benchmark should measure the client, not routing)."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.count = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        path, method = scope["path"], scope["method"]
        if method == "GET" and path.endswith("/models"):
            await self._json(send, 200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
            return
        if method != "POST" or not path.endswith("/chat/completions"):
            await self._json(send, 404, {"error": {"message": f"no route {method} {path}", "type": "not_found"}})
            return
        raw = b""
        while True:
            message = await receive()
            raw += message.get("body", b"")
            if not message.get("more_body"):
                break
        body = json.loads(raw)
        self.count += 1
        text = answer_for(body)
        model = body.get("model", "fake")
        prompt_tokens = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": len(text) // 4 + 1}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        ident, created = f"chatcmpl-{self.count}", int(time.time())
        await asyncio.sleep(self.delay)
        if not body.get("stream"):
            choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
            out = {"id": ident, "object": "chat.completion", "created": created, "model": model}
            await self._json(send, 200, {**out, "choices": [choice], "usage": usage})
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")],
            }
        )
        head = {"id": ident, "object": "chat.completion.chunk", "created": created, "model": model}
        words = text.split(" ")
        pieces = [w if i == 0 else " " + w for i, w in enumerate(words)]
        chunks = [{**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}]
        chunks += [{**head, "choices": [{"index": 0, "delta": {"content": p}}]} for p in pieces]
        chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        if (body.get("stream_options") or {}).get("include_usage"):
            chunks.append({**head, "choices": [], "usage": usage})
        events = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        await send({"type": "http.response.body", "body": events.encode()})

    @staticmethod
    async def _json(send: Send, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})


def main() -> None:
    import uvicorn

    port, delay = int(sys.argv[1]), float(sys.argv[2])
    config = uvicorn.Config(
        App(delay), host="127.0.0.1", port=port, log_level="warning", access_log=False, backlog=2048
    )
    server = uvicorn.Server(config)

    async def serve() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        print("ready", flush=True)
        await task

    asyncio.run(serve())


if __name__ == "__main__":
    main()
