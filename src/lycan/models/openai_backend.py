"""Any OpenAI-compatible chat server: OpenAI, DeepSeek, vLLM, Ollama, LM Studio, llama.cpp's servers.

`openai:MODEL[@BASE_URL]`. The API key comes from `OPENAI_API_KEY` or `LYCAN_API_KEY`; a server
on this machine (127.0.0.1, localhost) needs none. Calls to one base_url share a concurrency limit;
failures are retried with backoff, 429 (rate limit, honouring Retry-After) apart from 5xx and
connection errors; anything left after the retries becomes a one-sentence `ModelError`.

Requests go through the SDK's plain `post` (its auth, status errors and SSE decoding) with the
body as we build it and answers read as JSON dicts: the SDK's typed request transform and its
pydantic models for every answer and every streamed chunk cost more CPU than the rest of a call
(about 5.8 against 1.9 ms per streamed talk turn), which caps how many games one process runs
against a remote model. The HTTP connection pool keeps as many connections alive as the
concurrency limit lets calls run at once.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from email.utils import parsedate_to_datetime
from typing import Any, Literal, TypeVar
from urllib.parse import urlparse

from lycan.models.base import ChatRequest, ChatResult, ChatStream, ModelError, Usage

T = TypeVar("T")

DEFAULT_BASE_URL = "https://api.openai.com/v1"
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})

Failure = Literal["rate_limit", "server", "connection", "timeout", "fatal"]
SchemaMode = Literal["auto", "json_schema", "json_object", "off"]

CONNECTIONS_PER_CLIENT = 16
"""Calls one HTTP client carries at once. httpx's pool probes every idle connection's socket each
time a request starts or ends, so one pool for many calls costs CPU in proportion to its size:
at 32 games at once it took about half the client's CPU. Several small pools, the least busy one
chosen per call, keep that cost flat."""

# One semaphore per (event loop, base_url): asyncio primitives belong to one loop.
_LIMITS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]] = (
    weakref.WeakKeyDictionary()
)
# Servers that answered `json_schema` with 400/422 and get `json_object` + schema instead.
_JSON_OBJECT_SERVERS: set[str] = set()


def provider_limit(base_url: str, limit: int) -> asyncio.Semaphore:
    """The semaphore that caps concurrent calls to `base_url` (shared by every model using it)."""
    per_loop = _LIMITS.setdefault(asyncio.get_running_loop(), {})
    if base_url not in per_loop:
        per_loop[base_url] = asyncio.Semaphore(limit)
    return per_loop[base_url]


def is_local(base_url: str) -> bool:
    """Whether `base_url` points at this machine (such servers need no API key)."""
    return (urlparse(base_url).hostname or "") in LOCAL_HOSTS


def _status(error: BaseException) -> int | None:
    status = getattr(error, "status_code", None)
    return status if isinstance(status, int) else None


def classify(error: BaseException) -> Failure:
    """Sort a failed call: which failures are worth retrying, and how.

    Returns:
        "rate_limit" (429), "server" (5xx), "timeout", "connection" (nothing answered), or
        "fatal" (any other error: a bad key, a wrong model name, a rejected request).
    """
    import openai

    if isinstance(error, openai.APITimeoutError | asyncio.TimeoutError):
        return "timeout"
    if isinstance(error, openai.APIConnectionError):
        return "connection"
    status = _status(error)
    if status == 429:
        return "rate_limit"
    if status is not None and status >= 500:
        return "server"
    return "fatal"


def retry_after(error: BaseException) -> float | None:
    """Seconds the server asked us to wait (`Retry-After` or `retry-after-ms`), if it said."""
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    milliseconds = headers.get("retry-after-ms")
    if milliseconds is not None:
        try:
            return max(float(milliseconds) / 1000.0, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        return max(parsedate_to_datetime(value).timestamp() - time.time(), 0.0)
    except (TypeError, ValueError):
        return None


def backoff_delay(
    failure: Failure,
    attempt: int,
    error: BaseException,
    *,
    base: float = 0.5,
    cap: float = 30.0,
    rng: random.Random | None = None,
) -> float:
    """How long to wait before try `attempt + 1` (attempt counts from 1).

    A 429 waits what Retry-After says (up to `cap`), or else backs off from a longer base than
    5xx and connection errors do, since a rate limit takes longer to clear than a hiccup.
    """
    if failure == "rate_limit":
        asked = retry_after(error)
        if asked is not None:
            return min(asked, cap)
        base *= 4
    jitter = (rng or random).uniform(0.0, base)
    return float(min(base * 2 ** (attempt - 1) + jitter, cap))


class _Retry(Exception):
    """Internal: a call failed in a retryable way."""

    def __init__(self, error: BaseException, failure: Failure) -> None:
        super().__init__(str(error))
        self.error = error
        self.failure = failure


class OpenAIModel:
    """A chat model served over the OpenAI chat-completions API.

    Args:
        model: the model's name on the server (e.g. `gpt-4o`, `deepseek-chat`).
        base_url: the server (default OpenAI's).
        api_key: the key (default `OPENAI_API_KEY`, then `LYCAN_API_KEY`; not needed locally).
        timeout: seconds one request may take.
        max_retries: retries after the first try (429, 5xx, timeouts, connection errors).
        max_concurrency: calls in flight per base_url, shared by every model using that server.
        schema_mode: how `json_schema` is sent: "json_schema" (OpenAI, vLLM), "json_object"
            (`{"type": "json_object", "schema": ...}`, llama-cpp-python's server), "off", or
            "auto" (json_schema, falling back to json_object where the server rejects it).
        backoff_base: first retry delay in seconds (doubles each try, plus jitter).
        backoff_cap: the longest single wait.
        sleep: the coroutine used to wait between retries (tests replace it).
        client: an `openai.AsyncOpenAI` (or any object with its `post`) to use instead of building one.
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 4,
        max_concurrency: int = 8,
        schema_mode: SchemaMode = "auto",
        backoff_base: float = 0.5,
        backoff_cap: float = 30.0,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        client: Any = None,
    ) -> None:
        if not model:
            raise ModelError(
                "An openai model needs a name, e.g. openai:gpt-4o or openai:qwen@http://127.0.0.1:8080/v1."
            )
        self.model = model
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.name = f"openai:{model}" if self.base_url == DEFAULT_BASE_URL else f"openai:{model}@{self.base_url}"
        key = api_key or os.environ.get("OPENAI_API_KEY") or os.environ.get("LYCAN_API_KEY")
        if not key:
            if not is_local(self.base_url):
                raise ModelError(
                    f"No API key for {self.base_url}: set OPENAI_API_KEY (or LYCAN_API_KEY) before using {self.name}."
                )
            key = "none"
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_concurrency = max_concurrency
        self.schema_mode: SchemaMode = schema_mode
        self.backoff_base = backoff_base
        self.backoff_cap = backoff_cap
        self._sleep = sleep or asyncio.sleep
        self._api_key = key
        self._client = client
        self._clients: list[Any] | None = None
        self._loads: list[int] = []
        self.retries = 0

    def _openai(self) -> list[Any]:
        """The HTTP clients, built on first use: one per `CONNECTIONS_PER_CLIENT` calls allowed at once."""
        if self._clients is None:
            if self._client is not None:
                self._clients = [self._client]
            else:
                self._clients = self._build_clients()
            self._loads = [0] * len(self._clients)
        return self._clients

    def _build_clients(self) -> list[Any]:
        try:
            import httpx2
            import openai
        except ImportError as error:
            raise ModelError(
                "The openai backend needs the openai package; install it with: pip install 'lycan[llm]'"
            ) from error
        count = -(-max(self.max_concurrency, 1) // CONNECTIONS_PER_CLIENT)
        size = -(-max(self.max_concurrency, 1) // count)
        # Keep alive every connection a client may use at once (httpx keeps 20 by default, the
        # openai SDK 100): a smaller pool would close and reopen connections on every burst.
        limits = httpx2.Limits(max_connections=size, max_keepalive_connections=size, keepalive_expiry=30.0)
        return [
            openai.AsyncOpenAI(
                api_key=self._api_key,
                base_url=self.base_url,
                timeout=self.timeout,
                max_retries=0,
                http_client=openai.DefaultAsyncHttpxClient(limits=limits, timeout=self.timeout),
            )
            for _ in range(count)
        ]

    @contextmanager
    def _lease(self) -> Iterator[Any]:
        """The least busy client, counted busy until the caller is done with it (a stream: until closed)."""
        clients = self._openai()
        index = min(range(len(clients)), key=self._loads.__getitem__)
        self._loads[index] += 1
        try:
            yield clients[index]
        finally:
            self._loads[index] -= 1

    async def _post(self, client: Any, arguments: dict[str, Any], *, stream: bool = False) -> Any:
        """POST /chat/completions; the answer (or each streamed chunk) is a plain dict."""
        if not stream:
            return await client.post("/chat/completions", body=arguments, cast_to=object)
        from openai import AsyncStream

        return await client.post(
            "/chat/completions", body=arguments, cast_to=object, stream=True, stream_cls=AsyncStream[object]
        )

    # -- request building ---------------------------------------------------------------------

    def _schema_mode(self) -> SchemaMode:
        if self.schema_mode == "auto":
            return "json_object" if self.base_url in _JSON_OBJECT_SERVERS else "json_schema"
        return self.schema_mode

    def _arguments(self, request: ChatRequest, mode: SchemaMode) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(message) for message in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "top_p": request.top_p,
        }
        if request.seed is not None:
            arguments["seed"] = request.seed
        if request.stop:
            arguments["stop"] = list(request.stop)
        if request.json_schema is not None and mode != "off":
            if mode == "json_object":
                arguments["response_format"] = {"type": "json_object", "schema": request.json_schema}
            else:
                arguments["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": "answer", "schema": request.json_schema},
                }
        return arguments

    # -- failures -----------------------------------------------------------------------------

    def explain(self, error: BaseException, tries: int = 1) -> ModelError:
        """One sentence for a call that failed for good."""
        failure = classify(error)
        status = _status(error)
        where = self.base_url
        if failure == "connection":
            text = f"Cannot reach {where} for {self.name}: is the server running and the address right?"
        elif failure == "timeout":
            text = f"{where} did not answer {self.name} within {self.timeout:g} s (after {tries} tries)."
        elif failure == "rate_limit":
            text = f"{where} kept answering 429 (rate limit) after {tries} tries; lower the concurrency or try later."
        elif failure == "server":
            text = f"{where} kept failing with HTTP {status} after {tries} tries."
        elif status in (401, 403):
            text = f"{where} refused the API key (HTTP {status}); set OPENAI_API_KEY or LYCAN_API_KEY to a valid key."
        elif status == 404:
            text = f"{where} has no model called {self.model!r} (HTTP 404); check the model name."
        else:
            message = getattr(error, "message", None) or str(error)
            text = f"{where} rejected the request for {self.name} (HTTP {status}): {message}"
        return ModelError(text)

    async def _with_retries(
        self, call: Callable[[SchemaMode], Awaitable[T]], request: ChatRequest, *, hold_limit: bool = True
    ) -> T:
        """Run `call` (under the provider limit unless the caller holds it), retrying what is worth retrying."""
        import openai
        from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

        def wait(state: RetryCallState) -> float:
            outcome = state.outcome
            error = outcome.exception() if outcome is not None else None
            assert isinstance(error, _Retry)
            return backoff_delay(
                error.failure, state.attempt_number, error.error, base=self.backoff_base, cap=self.backoff_cap
            )

        async def attempt() -> T:
            mode = self._schema_mode()
            try:
                try:
                    return await call(mode)
                except openai.APIStatusError as error:
                    if not (mode == "json_schema" and self.schema_mode == "auto" and request.json_schema):
                        raise
                    # A 400/422, or a 5xx that names response_format (llama-cpp-python's server
                    # answers its validation errors with 500): the server does not take json_schema.
                    if error.status_code not in (400, 422) and "response_format" not in str(error):
                        raise
                    _JSON_OBJECT_SERVERS.add(self.base_url)
                    return await call("json_object")
            except (TimeoutError, openai.APIError) as error:
                failure = classify(error)
                if failure == "fatal":
                    raise
                raise _Retry(error, failure) from error

        async def limited() -> T:
            if not hold_limit:
                return await attempt()
            async with provider_limit(self.base_url, self.max_concurrency):
                return await attempt()

        tries = 0
        retrying = AsyncRetrying(
            retry=retry_if_exception_type(_Retry),
            wait=wait,
            stop=stop_after_attempt(self.max_retries + 1),
            sleep=self._sleep,
            reraise=True,
        )
        try:
            async for try_ in retrying:
                with try_:
                    tries += 1
                    if tries > 1:
                        self.retries += 1
                    return await limited()
        except _Retry as error:
            raise self.explain(error.error, tries) from error.error
        except openai.APIError as error:
            raise self.explain(error, tries) from error
        raise ModelError(f"{self.name} gave no answer.")  # pragma: no cover - tenacity always returns or raises

    # -- the protocol -------------------------------------------------------------------------

    async def chat(self, request: ChatRequest) -> ChatResult:
        """Answer `request` in one piece (see `ChatModel.chat`)."""
        started = time.perf_counter()

        async def call(mode: SchemaMode) -> Any:
            with self._lease() as client:
                return await self._post(client, self._arguments(request, mode))

        response = await self._with_retries(call, request)
        choices = response.get("choices") if isinstance(response, dict) else None
        if not choices or not isinstance(choices[0], dict):
            raise ModelError(f"{self.base_url} returned no answer for {self.name}.")
        choice = choices[0]
        usage = response.get("usage") or {}
        return ChatResult(
            text=(choice.get("message") or {}).get("content") or "",
            usage=Usage(
                prompt_tokens=int(usage.get("prompt_tokens") or 0),
                completion_tokens=int(usage.get("completion_tokens") or 0),
                latency_s=time.perf_counter() - started,
            ),
            model=self.name,
            finish_reason=choice.get("finish_reason") or "stop",
        )

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """Yield the answer's text as the server sends it (see `ChatModel.stream`).

        Opening the stream is retried like `chat`; a failure after text has arrived is not
        (the caller already holds part of the answer) and becomes a `ModelError`.
        """
        return ChatStream(self._stream(request))

    async def _stream(self, request: ChatRequest) -> AsyncGenerator[str | ChatResult, None]:
        import openai

        started = time.perf_counter()
        async with provider_limit(self.base_url, self.max_concurrency):
            with self._lease() as client:

                async def call(mode: SchemaMode) -> tuple[Any, Any]:
                    arguments = self._arguments(request, mode)
                    arguments.update(stream=True, stream_options={"include_usage": True})
                    chunks = await self._post(client, arguments, stream=True)
                    iterator = chunks.__aiter__()
                    try:
                        first = await iterator.__anext__()
                    except StopAsyncIteration:
                        first = None
                    except BaseException:
                        await chunks.close()
                        raise
                    return chunks, (iterator, first)

                chunks, (iterator, first) = await self._with_retries(call, request, hold_limit=False)
                text: list[str] = []
                usage: dict[str, Any] = {}
                finish = "stop"
                pieces = 0
                try:
                    chunk = first
                    while chunk is not None:
                        if not isinstance(chunk, dict):
                            raise ModelError(f"{self.base_url} sent {self.name} a stream chunk that is not an object.")
                        if chunk.get("usage"):
                            usage = chunk["usage"]
                        for choice in chunk.get("choices") or ():
                            piece = (choice.get("delta") or {}).get("content")
                            if piece:
                                pieces += 1
                                text.append(piece)
                                yield piece
                            if choice.get("finish_reason"):
                                finish = choice["finish_reason"]
                        try:
                            chunk = await iterator.__anext__()
                        except StopAsyncIteration:
                            chunk = None
                except (TimeoutError, openai.APIError) as error:
                    raise ModelError(f"The stream from {self.base_url} for {self.name} broke off: {error}") from error
                finally:
                    await chunks.close()
        yield ChatResult(
            text="".join(text),
            usage=Usage(
                prompt_tokens=int(usage.get("prompt_tokens") or 0),
                completion_tokens=int(usage.get("completion_tokens") or pieces),
                latency_s=time.perf_counter() - started,
            ),
            model=self.name,
            finish_reason=finish,
        )

    async def aclose(self) -> None:
        """Close the HTTP clients."""
        clients, self._clients, self._client = self._clients or [], None, None
        for client in clients:
            await client.close()

    def __repr__(self) -> str:
        return f"OpenAIModel({self.name!r})"
