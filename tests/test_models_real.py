"""Real models: the packaged tiny model in-process, llama.cpp's OpenAI-compatible server over HTTP,
a stub HTTP server for failures, and a record -> replay round trip."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from llama_server import free_port, llama_server
from lycan.models import (
    ChatModel,
    ChatRequest,
    ModelError,
    RecordingModel,
    ReplayModel,
    collect,
    load_model,
    stream_result,
)
from lycan.models.llamacpp import LlamaCppModel
from lycan.models.local import model_path
from lycan.models.openai_backend import OpenAIModel

VOTE_SCHEMA = {
    "type": "object",
    "properties": {
        "vote": {"type": "string", "enum": ["Alice", "Bob", "Carol"]},
        "confidence": {"type": "integer", "minimum": 0, "maximum": 100},
    },
    "required": ["vote", "confidence"],
}


def ask(text: str, system: str = "", **fields: Any) -> ChatRequest:
    messages: list[Any] = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": text})
    return ChatRequest(messages, **{"temperature": 0.0, "max_tokens": 24, **fields})


@pytest.fixture(scope="module")
def tiny() -> Iterator[LlamaCppModel]:
    model = load_model("local:tiny", n_ctx=2048)
    assert isinstance(model, LlamaCppModel)
    yield model
    model.close()


# -- in-process llama.cpp -------------------------------------------------------------------------


async def test_tiny_chat(tiny: LlamaCppModel) -> None:
    assert isinstance(tiny, ChatModel) and tiny.name == "local:tiny"
    result = await tiny.chat(ask("What is the capital of France? Answer in one word."))
    assert "paris" in result.text.lower()
    assert result.usage.prompt_tokens > 10 and 0 < result.usage.completion_tokens <= 24
    assert result.usage.latency_s > 0 and result.model == "local:tiny"


def test_llama_cpp_warnings_stay_out_of_the_terminal(capfd: pytest.CaptureFixture[str]) -> None:
    """The vocabulary-only copy that counts tokens once printed 'n_ctx_seq (256) > n_ctx_train (0)'."""
    model = LlamaCppModel(model_path("tiny"))
    try:
        assert model.count_tokens("hello there") > 0
    finally:
        model.close()
    out, err = capfd.readouterr()
    assert "n_ctx" not in out + err and "llama_context" not in out + err


async def test_tiny_stream_matches_its_result(tiny: LlamaCppModel) -> None:
    stream = tiny.stream(ask("Count from one to five in words.", max_tokens=20))
    pieces = [piece async for piece in stream]
    result = stream_result(stream)
    assert len(pieces) > 3 and result is not None
    assert result.text == "".join(pieces) and result.usage.completion_tokens == len(pieces)
    assert result.usage.prompt_tokens > 10
    whole = await tiny.chat(ask("Count from one to five in words.", max_tokens=20))
    assert whole.text == result.text  # greedy decoding: streaming changes nothing


async def test_tiny_json_schema(tiny: LlamaCppModel) -> None:
    result = await tiny.chat(
        ask("Alice, Bob and Carol are players. Vote for the one you suspect.", max_tokens=40, json_schema=VOTE_SCHEMA)
    )
    answer = json.loads(result.text)
    assert answer["vote"] in {"Alice", "Bob", "Carol"} and 0 <= answer["confidence"] <= 100


async def test_calls_are_serialised_and_the_loop_stays_free(tiny: LlamaCppModel) -> None:
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0.01)

    task = asyncio.create_task(ticker())
    results = await asyncio.gather(*(tiny.chat(ask(f"Say the number {n}.", max_tokens=8)) for n in range(3)))
    done.set()
    await task
    assert all(result.text for result in results) and ticks >= 5


async def test_a_stream_closed_early_frees_the_model(tiny: LlamaCppModel) -> None:
    stream = tiny.stream(ask("Write a long story about a village.", max_tokens=200))
    async for _ in stream:
        break
    await stream.aclose()  # type: ignore[attr-defined]
    started = time.perf_counter()
    assert (await tiny.chat(ask("Say yes.", max_tokens=4))).text
    assert time.perf_counter() - started < 10  # not stuck behind 200 tokens of story


async def test_session_kv_cache_is_restored(tiny: LlamaCppModel) -> None:
    log = " ".join(f"Day {i % 3}: player {i % 5} accused player {(i * 3) % 5} of lying." for i in range(14))
    seat_a = "You are seat A in a Werewolf game. Game log: " + log
    seat_b = "You are seat B, a villager who trusts nobody. Notes: " + log[::-1]
    first = await tiny.chat(ask("Who is most suspicious?", seat_a, session="A", max_tokens=4))
    cold = tiny.last_prompt_evaluated
    await tiny.chat(ask("Who do you vote for?", seat_b, session="B", max_tokens=4))
    loads = tiny.session_loads
    warm_result = await tiny.chat(ask("Who do you vote for?", seat_a, session="A", max_tokens=6))
    warm = tiny.last_prompt_evaluated
    assert first.usage.prompt_tokens > 200 and cold > 200
    assert tiny.session_loads == loads + 1 and warm < cold / 5
    await tiny.chat(ask("Anything else?", seat_b, session="B", max_tokens=4))  # B's prefix is live again
    recomputed = await tiny.chat(ask("Who do you vote for?", seat_a, max_tokens=6))
    assert tiny.last_prompt_evaluated > cold / 2  # evaluated (nearly) from scratch
    assert recomputed.text == warm_result.text  # the restored cache gives the same answer


async def test_record_then_replay_without_the_model(tiny: LlamaCppModel, tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    recorder = RecordingModel(tiny, path)
    said = await recorder.chat(ask("Name a colour.", scope="game-1", max_tokens=6))
    pieces = [piece async for piece in recorder.stream(ask("Name an animal.", scope="game-1", max_tokens=6))]
    replay = ReplayModel(path)
    assert replay.name == "local:tiny"
    again = await replay.chat(ask("Name a colour.", scope="game-1", max_tokens=6))
    assert again.text == said.text and again.usage.completion_tokens == said.usage.completion_tokens
    assert [piece async for piece in replay.stream(ask("Name an animal.", scope="game-1", max_tokens=6))] == pieces
    with pytest.raises(ModelError, match="no answer"):
        await replay.chat(ask("Name a colour.", scope="game-2", max_tokens=6))


async def test_default_local_model_is_assembled_verified_and_answers() -> None:
    path = model_path("")
    assert path.stat().st_size > 400_000_000 and path.with_name(path.name + ".sha256").is_file()
    model = load_model("local", n_ctx=512)
    try:
        result = await model.chat(ask("What is 2 + 2? Answer with the number only.", max_tokens=4))
        assert "4" in result.text
    finally:
        assert isinstance(model, LlamaCppModel)
        model.close()


# -- llama.cpp's OpenAI-compatible server over real HTTP ------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with llama_server(model_path("tiny"), 1024, tmp_path_factory.mktemp("server")) as base_url:
        yield base_url


async def test_openai_backend_against_llama_server(server: str) -> None:
    model = load_model(f"openai:smollm2@{server}", timeout=60)
    assert isinstance(model, OpenAIModel)
    try:
        result = await model.chat(ask("What is the capital of France? Answer in one word."))
        assert "paris" in result.text.lower()
        assert result.usage.prompt_tokens > 10 and result.usage.completion_tokens > 0
        stream = model.stream(ask("Count from one to five in words.", max_tokens=20))
        pieces = [piece async for piece in stream]
        finished = stream_result(stream)
        assert len(pieces) > 3 and finished is not None and finished.text == "".join(pieces)
        assert finished.usage.completion_tokens > 0
        voted = await model.chat(
            ask("Alice, Bob and Carol play. Vote for one.", max_tokens=40, json_schema=VOTE_SCHEMA)
        )
        assert json.loads(voted.text)["vote"] in {"Alice", "Bob", "Carol"}
    finally:
        await model.aclose()


async def test_an_unreachable_server_is_one_sentence() -> None:
    model = OpenAIModel("m", f"http://127.0.0.1:{free_port()}/v1", max_retries=1, backoff_base=0.01, timeout=5)
    with pytest.raises(ModelError, match=r"^Cannot reach http://127\.0\.0\.1:\d+/v1 for openai:m@.*running"):
        await model.chat(ask("hello"))
    with pytest.raises(ModelError, match="Cannot reach"):
        await collect(model.stream(ask("hello")))
    await model.aclose()


# -- failures from a stub server ------------------------------------------------------------------

ANSWER = {
    "id": "stub",
    "object": "chat.completion",
    "created": 0,
    "model": "stub",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "fine"}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6},
}


class Stub:
    """An HTTP server that plays a script of (status, headers, delay) answers, then answers 200."""

    def __init__(self, script: list[tuple[int, dict[str, str], float]]) -> None:
        self.script = list(script)
        self.seen = 0
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                stub.seen += 1
                status, headers, delay = stub.script.pop(0) if stub.script else (200, {}, 0.0)
                time.sleep(delay)
                body = json.dumps(ANSWER if status == 200 else {"error": {"message": f"stub {status}"}}).encode()
                try:
                    self.send_response(status)
                    for key, value in {"content-type": "application/json", **headers}.items():
                        self.send_header(key, value)
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (timeout test)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


@pytest.fixture
def stub() -> Iterator[Any]:
    made: list[Stub] = []

    def make(script: list[tuple[int, dict[str, str], float]]) -> Stub:
        made.append(Stub(script))
        return made[-1]

    yield make
    for each in made:
        each.close()


async def test_5xx_then_success_is_retried(stub: Any) -> None:
    server = stub([(500, {}, 0.0), (503, {}, 0.0)])
    model = OpenAIModel("m", server.base_url, backoff_base=0.01)
    result = await model.chat(ask("hi"))
    assert result.text == "fine" and server.seen == 3 and model.retries == 2
    await model.aclose()


async def test_429_waits_as_told(stub: Any) -> None:
    server = stub([(429, {"retry-after": "0.3"}, 0.0)])
    model = OpenAIModel("m", server.base_url, backoff_base=0.01)
    started = time.perf_counter()
    assert (await model.chat(ask("hi"))).text == "fine"
    assert time.perf_counter() - started >= 0.3 and server.seen == 2
    await model.aclose()


async def test_persistent_5xx_and_timeouts_become_one_sentence(stub: Any) -> None:
    server = stub([(500, {}, 0.0)] * 3)
    model = OpenAIModel("m", server.base_url, backoff_base=0.01, max_retries=2)
    with pytest.raises(ModelError, match=r"kept failing with HTTP 500 after 3 tries\.$"):
        await model.chat(ask("hi"))
    await model.aclose()
    slow = stub([(200, {}, 1.5), (200, {}, 1.5)])
    model = OpenAIModel("m", slow.base_url, backoff_base=0.01, max_retries=1, timeout=0.3)
    with pytest.raises(ModelError, match=r"did not answer openai:m@.* within 0\.3 s \(after 2 tries\)"):
        await model.chat(ask("hi"))
    await model.aclose()


async def test_a_wrong_model_name_is_one_sentence(stub: Any) -> None:
    server = stub([(404, {}, 0.0)])
    model = OpenAIModel("no-such-model", server.base_url, backoff_base=0.01)
    with pytest.raises(ModelError, match="has no model called 'no-such-model' \\(HTTP 404\\); check the model name"):
        await model.chat(ask("hi"))
    assert server.seen == 1
    await model.aclose()


async def test_the_provider_limit_caps_concurrency(stub: Any) -> None:
    server = stub([(200, {}, 0.2)] * 6)
    model = OpenAIModel("m", server.base_url, max_concurrency=2)
    started = time.perf_counter()
    await asyncio.gather(*(model.chat(ask(f"hi {n}")) for n in range(6)))
    assert time.perf_counter() - started >= 0.55  # 6 calls of 0.2 s, two at a time
    await model.aclose()


# -- connection reuse under concurrency -----------------------------------------------------------


async def test_every_concurrent_call_keeps_its_connection_alive() -> None:
    """120 calls at once, twice: the second round reuses the first round's 120 connections.

    (The openai SDK's own pool keeps only 100 alive, httpx's 20: the rest would be reopened.)
    """
    connections = 0
    delay = 0.2

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                await reader.readexactly(length)
                await asyncio.sleep(delay)
                body = json.dumps(ANSWER).encode()
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                    + str(len(body)).encode()
                    + b"\r\n\r\n"
                    + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=256)
    port = server.sockets[0].getsockname()[1]
    model = OpenAIModel("m", f"http://127.0.0.1:{port}/v1", max_concurrency=120, timeout=30)
    try:
        for _ in range(2):
            answers = await asyncio.gather(*(model.chat(ask(f"call {i}")) for i in range(120)))
            assert {a.text for a in answers} == {"fine"}
        assert connections == 120
    finally:
        await model.aclose()
        server.close()
        await server.wait_closed()
