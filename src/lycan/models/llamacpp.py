"""In-process llama.cpp (llama-cpp-python) for any GGUF file: `llamacpp:/path/model.gguf`.

One `LlamaCppModel` owns one llama context, which is not thread-safe, so every call runs on the
instance's single worker thread: calls are served one at a time and the event loop stays free.

Prompt-cache reuse: llama.cpp already reuses the longest common token prefix of the previous
prompt. Interleaved callers (the seats of a game) would keep evicting each other's prefix, so the
KV cache of each `ChatRequest.session` is saved when another session takes the context and loaded
again when that session comes back; its next prompt then only evaluates what is new.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import lycan.models.constrained as constrained
from lycan.models.base import ChatRequest, ChatResult, ChatStream, ModelError, Usage
from lycan.rules.text import for_terminal

T = TypeVar("T")
_DONE = object()


@dataclass(slots=True)
class _SessionState:
    """The KV cache of one session's sequence and the tokens it holds."""

    tokens: list[int]
    data: bytes


LLAMA_LOG = logging.getLogger("lycan.llama_cpp")
"""llama.cpp's own messages. Errors only by default; `verbose=True` on a model shows them all."""
LLAMA_LOG.setLevel(logging.ERROR)

# ggml's log levels (ggml.h): 1 debug, 2 info, 3 warn, 4 error, 5 continues the previous line.
_GGML_LEVELS = {1: logging.DEBUG, 2: logging.INFO, 3: logging.WARNING, 4: logging.ERROR}
_log_callback: Any = None


def _import_llama() -> Any:
    global _log_callback
    try:
        import llama_cpp
    except ImportError as error:
        raise ModelError(
            "The llama.cpp backend needs llama-cpp-python; install it with: pip install 'lycan[llm]'"
        ) from error
    if _log_callback is None:
        # llama-cpp-python's own callback maps ggml's levels one step off, so warnings such as
        # "n_ctx_seq (256) > n_ctx_train (0)" (from the vocabulary-only copy that counts tokens)
        # reached the terminal as errors even with verbose=False. Route them through logging.
        last = [logging.DEBUG]

        @llama_cpp.llama_log_callback  # type: ignore[untyped-decorator]
        def forward(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
            lvl = last[0] if level == 5 else _GGML_LEVELS.get(level, logging.DEBUG)
            last[0] = lvl
            line = text.decode("utf-8", errors="replace").rstrip()
            if line and LLAMA_LOG.isEnabledFor(lvl):
                LLAMA_LOG.log(lvl, "%s", for_terminal(line))  # it may quote the prompt: names and talk

        llama_cpp.llama_log_set(forward, ctypes.c_void_p(0))
        _log_callback = forward  # the C library keeps only a pointer: keep the object alive
    return llama_cpp


class LlamaCppModel:
    """A GGUF model run in-process by llama.cpp.

    Args:
        path: the .gguf file.
        name: the model's name in results and cache keys (default `llamacpp:PATH`).
        n_ctx: context window in tokens.
        n_threads: CPU threads for decoding and prompt evaluation (default: half the cores).
        n_batch: prompt tokens evaluated per batch.
        max_sessions: how many sessions' KV caches are kept in memory (least recently used go
            first; each costs its tokens' KV, about 12 KB a token for Qwen2.5-0.5B); 0 turns it off.
        schema_decoding: how an answer with a `json_schema` is constrained: "llguidance" (the
            default: `lycan.models.constrained`, tokens the schema forces are evaluated in one batch,
            not sampled) or "grammar" (llama-cpp-python's GBNF grammar, one token at a time). Where
            llguidance is missing, cannot compile a schema or the model has no chat template, the
            grammar is used.
        verbose: let llama.cpp print its logs.
        **llama_options: passed on to `llama_cpp.Llama` (e.g. `n_threads_batch`, `n_gpu_layers`).

    Attributes:
        last_prompt_evaluated: prompt tokens the last call really evaluated (the rest was reused).
        last_sampled: completion tokens of the last call that were sampled (with llguidance, the
            rest were forced by the schema and evaluated in batches); None where not counted.
        prompt_evaluated_total: the sum of `last_prompt_evaluated` over every call.
        session_loads: times a session's saved KV cache was loaded back.
        session_saves: times a session's KV cache was saved because another session took over.
    """

    base_url = ""
    calls_at_once = 1
    """Calls answered at the same time: one worker thread runs the model, one call after another."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        name: str | None = None,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_batch: int = 512,
        max_sessions: int = 16,
        schema_decoding: str = "llguidance",
        verbose: bool = False,
        **llama_options: Any,
    ) -> None:
        self.path = Path(path).expanduser()
        if not self.path.is_file():
            raise ModelError(f"There is no GGUF model file at {self.path}; give the path of an existing .gguf file.")
        self.name = name or f"llamacpp:{self.path}"
        self.n_ctx = n_ctx
        if verbose:
            LLAMA_LOG.setLevel(logging.DEBUG)
            if not LLAMA_LOG.handlers:
                LLAMA_LOG.addHandler(logging.StreamHandler())
        self._options: dict[str, Any] = {
            "n_ctx": n_ctx,
            "n_batch": n_batch,
            "verbose": verbose,
            **llama_options,
        }
        # Prompt evaluation uses as many threads as decoding. Half the cores by default: on 2 busy
        # cores 1 thread prefilled 2x faster than 2, while on 2 idle cores 2 threads ran ~1.8x faster.
        threads = n_threads or max(1, (os.cpu_count() or 2) // 2)
        self._options.setdefault("n_threads", threads)
        self._options.setdefault("n_threads_batch", threads)
        self.max_sessions = max_sessions
        if schema_decoding not in ("llguidance", "grammar"):
            raise ModelError(f"schema_decoding must be 'llguidance' or 'grammar', not {schema_decoding!r}")
        self.schema_decoding = schema_decoding
        self._decoder: constrained.SchemaDecoder | None = None
        self._decoder_failed = schema_decoding != "llguidance" or not constrained.available()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="llamacpp")
        self._llama: Any = None
        self._vocab: Any = None
        self._vocab_lock = threading.Lock()
        self._sessions: OrderedDict[str, _SessionState] = OrderedDict()
        self._current_session = ""
        self.session_loads = 0
        self.session_saves = 0
        self.last_prompt_evaluated = 0
        self.prompt_evaluated_total = 0
        self.last_sampled: int | None = None

    # -- worker-thread side -------------------------------------------------------------------

    def _model(self) -> Any:
        if self._llama is None:
            llama_cpp = _import_llama()
            try:
                self._llama = llama_cpp.Llama(model_path=str(self.path), **self._options)
            except (ValueError, RuntimeError) as error:
                raise ModelError(f"llama.cpp could not load {self.path}: {error}") from error
        return self._llama

    def _save_session(self, llama: Any, session: str) -> None:
        llama_cpp = _import_llama()
        ctx = llama._ctx.ctx
        size = int(llama_cpp.llama_state_seq_get_size(ctx, 0))
        buffer = (ctypes.c_uint8 * size)()
        written = int(llama_cpp.llama_state_seq_get_data(ctx, buffer, size, 0))
        if written <= 0:
            return
        tokens = [int(token) for token in llama.input_ids[: llama.n_tokens]]
        self._sessions[session] = _SessionState(tokens=tokens, data=bytes(buffer)[:written])
        self._sessions.move_to_end(session)
        self.session_saves += 1
        while len(self._sessions) > self.max_sessions:
            self._sessions.popitem(last=False)

    def _load_session(self, llama: Any, session: str) -> None:
        state = self._sessions.get(session)
        if state is None:
            return
        llama_cpp = _import_llama()
        ctx = llama._ctx.ctx
        llama._ctx.kv_cache_clear()
        buffer = (ctypes.c_uint8 * len(state.data)).from_buffer_copy(state.data)
        if int(llama_cpp.llama_state_seq_set_data(ctx, buffer, len(state.data), 0)) == 0:
            llama.reset()
            return
        llama.input_ids[: len(state.tokens)] = state.tokens
        llama.n_tokens = len(state.tokens)
        llama._requires_eval = True
        self._sessions.move_to_end(session)
        self.session_loads += 1

    def _enter_session(self, llama: Any, session: str) -> None:
        """Make `session`'s KV cache the live one (saving the one it replaces)."""
        if session == self._current_session:
            return
        if self._current_session and llama.n_tokens > 0 and self.max_sessions > 0:
            self._save_session(llama, self._current_session)
        if session:
            self._load_session(llama, session)
        self._current_session = session

    def _prepare(self, request: ChatRequest) -> Any:
        """The loaded model, with `request.session`'s KV cache live and the perf counters reset."""
        llama = self._model()
        self._enter_session(llama, request.session)
        _import_llama().llama_perf_context_reset(llama._ctx.ctx)
        return llama

    def _count_prompt(self, llama: Any) -> None:
        """Record how many prompt tokens the last call really evaluated (after prefix reuse)."""
        self.last_prompt_evaluated = int(_import_llama().llama_perf_context(llama._ctx.ctx).n_p_eval)
        self.prompt_evaluated_total += self.last_prompt_evaluated

    def _arguments(self, request: ChatRequest) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "messages": [dict(message) for message in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "top_p": request.top_p,
            "stop": list(request.stop),
        }
        if request.seed is not None:
            arguments["seed"] = request.seed
        if request.json_schema is not None:
            arguments["response_format"] = {"type": "json_object", "schema": request.json_schema}
        return arguments

    def _schema_matcher(self, llama: Any, request: ChatRequest) -> Any:
        """An llguidance matcher for the request's schema, or None where the grammar path is taken."""
        if request.json_schema is None or self._decoder_failed:
            return None
        if self._decoder is None:
            try:
                self._decoder = constrained.SchemaDecoder.for_llama(llama)
            except (ModelError, ImportError, ValueError, RuntimeError) as error:
                LLAMA_LOG.warning("schema decoding falls back to the grammar: %s", for_terminal(str(error)))
                self._decoder_failed = True
                return None
        return self._decoder.matcher(request.json_schema)

    def _constrained(
        self,
        request: ChatRequest,
        matcher: Any,
        started: float,
        emit: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> ChatResult:
        assert self._decoder is not None
        try:
            done = self._decoder.run(request, matcher, emit, cancelled)
        except (ValueError, RuntimeError) as error:
            raise ModelError(f"{self.name} failed while generating: {error}") from error
        self.last_prompt_evaluated = done.evaluated_prompt
        self.prompt_evaluated_total += done.evaluated_prompt
        self.last_sampled = done.sampled_tokens
        return ChatResult(
            text=done.text,
            usage=Usage(
                prompt_tokens=done.prompt_tokens,
                completion_tokens=done.completion_tokens,
                latency_s=time.perf_counter() - started,
            ),
            model=self.name,
            finish_reason=done.finish_reason,
        )

    def _complete(self, request: ChatRequest) -> ChatResult:
        started = time.perf_counter()
        llama = self._prepare(request)
        matcher = self._schema_matcher(llama, request)
        if matcher is not None:
            return self._constrained(request, matcher, started)
        self.last_sampled = None
        try:
            response = llama.create_chat_completion(**self._arguments(request))
        except ValueError as error:
            raise ModelError(f"{self.name} rejected the request: {error}") from error
        except RuntimeError as error:
            raise ModelError(f"{self.name} failed while generating: {error}") from error
        self._count_prompt(llama)
        choice = response["choices"][0]
        usage = response.get("usage", {})
        return ChatResult(
            text=choice["message"].get("content") or "",
            usage=Usage(
                prompt_tokens=int(usage.get("prompt_tokens", 0)),
                completion_tokens=int(usage.get("completion_tokens", 0)),
                latency_s=time.perf_counter() - started,
            ),
            model=self.name,
            finish_reason=choice.get("finish_reason") or "stop",
        )

    def _stream_into(self, request: ChatRequest, emit: Callable[[object], None], stop: threading.Event) -> None:
        started = time.perf_counter()
        try:
            llama = self._prepare(request)
            matcher = self._schema_matcher(llama, request)
            if matcher is not None:
                result = self._constrained(request, matcher, started, emit, stop.is_set)
                emit(replace(result, text=""))  # the usage; the text went out piece by piece
                return
            self.last_sampled = None
            chunks: Iterator[dict[str, Any]] = llama.create_chat_completion(**self._arguments(request), stream=True)
            pieces = 0
            finish = "stop"
            try:
                for chunk in chunks:
                    if stop.is_set():
                        finish = "cancelled"
                        break
                    choice = chunk["choices"][0]
                    piece = choice.get("delta", {}).get("content")
                    if piece:
                        pieces += 1
                        emit(piece)
                    if choice.get("finish_reason"):
                        finish = choice["finish_reason"]
            finally:
                close = getattr(chunks, "close", None)
                if close is not None:
                    close()
            self._count_prompt(llama)
            # Streamed chunks carry no usage: a piece is (nearly always) one token, and the
            # context holds the prompt plus every evaluated completion token.
            prompt_tokens = max(int(llama.n_tokens) - pieces + (1 if finish == "length" else 0), 0)
            emit(
                ChatResult(
                    text="",
                    usage=Usage(
                        prompt_tokens=prompt_tokens,
                        completion_tokens=pieces,
                        latency_s=time.perf_counter() - started,
                    ),
                    model=self.name,
                    finish_reason=finish,
                )
            )
        except ModelError as error:
            emit(error)
        except ValueError as error:
            emit(ModelError(f"{self.name} rejected the request: {error}"))
        except Exception as error:
            emit(ModelError(f"{self.name} failed while generating: {error}"))
        finally:
            emit(_DONE)

    # -- tokenizer (any thread) ---------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        """How many tokens `text` is in this model's vocabulary (no special tokens added).

        Uses a vocabulary-only copy of the model, so counting never waits for a call in progress.

        Raises:
            ModelError: the model file cannot be read.
        """
        if self._vocab is None:
            with self._vocab_lock:
                if self._vocab is None:
                    llama_cpp = _import_llama()
                    try:
                        self._vocab = llama_cpp.Llama(
                            model_path=str(self.path), vocab_only=True, n_ctx=64, verbose=False
                        )
                    except (ValueError, RuntimeError) as error:
                        raise ModelError(f"llama.cpp could not read the vocabulary of {self.path}: {error}") from error
        return len(self._vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    # -- event-loop side ----------------------------------------------------------------------

    async def _run(self, function: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function)

    async def load(self) -> None:
        """Load the model now (otherwise the first call does)."""
        await self._run(self._model)

    async def chat(self, request: ChatRequest) -> ChatResult:
        """Answer `request` in one piece (see `ChatModel.chat`)."""
        return await self._run(lambda: self._complete(request))

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """Yield the answer's text as it is generated (see `ChatModel.stream`).

        Closing the stream early stops generation after the current token. The finished stream's
        `result` carries the usage (completion tokens counted as streamed pieces).
        """
        return ChatStream(self._stream(request))

    async def _stream(self, request: ChatRequest) -> AsyncGenerator[str | ChatResult, None]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[object] = asyncio.Queue()
        stop = threading.Event()

        def emit(item: object) -> None:
            if not stop.is_set():
                try:
                    loop.call_soon_threadsafe(queue.put_nowait, item)
                except RuntimeError:  # the event loop is gone: nobody is listening any more
                    stop.set()

        job = loop.run_in_executor(self._executor, self._stream_into, request, emit, stop)
        text: list[str] = []
        try:
            while True:
                item = await queue.get()
                if item is _DONE:
                    break
                if isinstance(item, BaseException):
                    raise item
                if isinstance(item, ChatResult):
                    yield ChatResult(
                        text="".join(text), usage=item.usage, model=item.model, finish_reason=item.finish_reason
                    )
                    continue
                assert isinstance(item, str)
                text.append(item)
                yield item
        finally:
            stop.set()
            if not job.done():
                job.cancel()

    def close(self) -> None:
        """Free the model and stop the worker thread (waits for a call in progress)."""
        self._executor.shutdown(wait=True)
        if self._llama is not None:
            self._llama.close()
            self._llama = None
        if self._vocab is not None:
            self._vocab.close()
            self._vocab = None
        self._sessions.clear()

    def __repr__(self) -> str:
        return f"LlamaCppModel({self.name!r})"
