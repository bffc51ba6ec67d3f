"""Hugging Face transformers for a local checkpoint folder: `hf:PATH` (the `[hf]` extra).

Generation runs on the instance's single worker thread (the model is not shared between threads);
streaming goes through `transformers.TextIteratorStreamer`. Nothing is downloaded: the checkpoint
must be a folder on disk with a tokenizer that has a chat template.
"""

from __future__ import annotations

import asyncio
import os
import queue
import threading
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from lycan.models.base import ChatRequest, ChatResult, ChatStream, ModelError, Usage

T = TypeVar("T")


def _import_transformers() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError as error:
        raise ModelError(
            "The hf backend needs torch and transformers; install them with: pip install 'lycan[hf]'"
        ) from error
    return torch, transformers


class HFModel:
    """A causal language model from a local Hugging Face checkpoint folder.

    Args:
        path: the checkpoint folder (config.json, weights, tokenizer files).
        name: the model's name in results and cache keys (default `hf:PATH`).
        device: a torch device ("cpu", "cuda", ...).
        dtype: a torch dtype name ("float32", "bfloat16", ...), or "auto".
        n_threads: torch CPU threads (default: torch's choice).
    """

    base_url = ""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        name: str | None = None,
        device: str = "cpu",
        dtype: str = "auto",
        n_threads: int | None = None,
    ) -> None:
        self.path = Path(path).expanduser()
        if not self.path.is_dir():
            raise ModelError(f"There is no Hugging Face checkpoint folder at {self.path}; give a local folder path.")
        if not (self.path / "config.json").is_file():
            raise ModelError(f"{self.path} has no config.json, so it is not a Hugging Face checkpoint folder.")
        self.name = name or f"hf:{self.path}"
        self.device = device
        self.dtype = dtype
        self.n_threads = n_threads
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hf")
        self._model: Any = None
        self._tokenizer: Any = None

    def _load(self) -> tuple[Any, Any]:
        if self._model is None:
            torch, transformers = _import_transformers()
            if self.n_threads:
                torch.set_num_threads(self.n_threads)
            try:
                tokenizer = transformers.AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
                dtype = self.dtype if self.dtype == "auto" else getattr(torch, self.dtype)
                model = transformers.AutoModelForCausalLM.from_pretrained(
                    str(self.path), local_files_only=True, dtype=dtype
                )
            except (OSError, ValueError, KeyError) as error:
                raise ModelError(f"transformers could not load {self.path}: {error}") from error
            model.to(self.device)
            model.eval()
            self._tokenizer, self._model = tokenizer, model
        return self._tokenizer, self._model

    def _inputs(self, request: ChatRequest) -> tuple[Any, dict[str, Any]]:
        tokenizer, _ = self._load()
        if request.json_schema is not None:
            raise ModelError(f"{self.name} cannot constrain output to a JSON schema; use a llamacpp or openai model.")
        try:
            encoded = tokenizer.apply_chat_template(
                [dict(message) for message in request.messages],
                add_generation_prompt=True,
                return_tensors="pt",
                return_dict=True,
            )
        except (ValueError, TypeError) as error:
            raise ModelError(f"The tokenizer of {self.path} has no usable chat template: {error}") from error
        encoded = {key: value.to(self.device) for key, value in encoded.items()}
        settings: dict[str, Any] = {
            "max_new_tokens": request.max_tokens,
            "pad_token_id": tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id,
        }
        if request.temperature > 0:
            settings.update(do_sample=True, temperature=request.temperature, top_p=request.top_p)
        else:
            settings.update(do_sample=False)
        if request.stop:
            settings["stop_strings"] = list(request.stop)
            settings["tokenizer"] = tokenizer
        return encoded, settings

    def _seed(self, request: ChatRequest) -> None:
        if request.seed is not None:
            torch, _ = _import_transformers()
            torch.manual_seed(request.seed)

    def _complete(self, request: ChatRequest) -> ChatResult:
        started = time.perf_counter()
        encoded, settings = self._inputs(request)
        torch, _ = _import_transformers()
        self._seed(request)
        with torch.inference_mode():
            output = self._model.generate(**encoded, **settings)
        prompt_tokens = int(encoded["input_ids"].shape[-1])
        new = output[0][prompt_tokens:]
        text = self._tokenizer.decode(new, skip_special_tokens=True)
        return ChatResult(
            text=_cut_at_stop(text, request.stop),
            usage=Usage(
                prompt_tokens=prompt_tokens,
                completion_tokens=int(new.shape[-1]),
                latency_s=time.perf_counter() - started,
            ),
            model=self.name,
            finish_reason="length" if int(new.shape[-1]) >= request.max_tokens else "stop",
        )

    async def _run(self, function: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, function)

    async def load(self) -> None:
        """Load the checkpoint now (otherwise the first call does)."""
        await self._run(self._load)

    async def chat(self, request: ChatRequest) -> ChatResult:
        """Answer `request` in one piece (see `ChatModel.chat`)."""
        return await self._run(lambda: self._complete(request))

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """Yield the answer's text as it is generated (see `ChatModel.stream`)."""
        return ChatStream(self._stream(request))

    async def _stream(self, request: ChatRequest) -> AsyncGenerator[str | ChatResult, None]:
        started = time.perf_counter()
        encoded, settings = await self._run(lambda: self._inputs(request))
        torch, transformers = _import_transformers()
        streamer = transformers.TextIteratorStreamer(
            self._tokenizer, skip_prompt=True, skip_special_tokens=True, timeout=0.2
        )
        stop = threading.Event()

        class _Stop(transformers.StoppingCriteria):  # type: ignore[misc,name-defined]
            def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> bool:
                return stop.is_set()

        def generate() -> None:
            self._seed(request)
            with torch.inference_mode():
                self._model.generate(
                    **encoded,
                    **settings,
                    streamer=streamer,
                    stopping_criteria=transformers.StoppingCriteriaList([_Stop()]),
                )

        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(self._executor, generate)
        pieces: list[str] = []
        try:
            while True:
                piece = await loop.run_in_executor(None, _next_piece, streamer)
                if piece is None:
                    break
                if piece is _WAITING:
                    if job.done():
                        break
                    continue
                if piece:
                    pieces.append(piece)
                    yield piece
            await job
        finally:
            stop.set()
        text = "".join(pieces)
        completion = len(self._tokenizer(text, add_special_tokens=False)["input_ids"]) if text else 0
        yield ChatResult(
            text=text,
            usage=Usage(
                prompt_tokens=int(encoded["input_ids"].shape[-1]),
                completion_tokens=completion,
                latency_s=time.perf_counter() - started,
            ),
            model=self.name,
        )

    def close(self) -> None:
        """Drop the model and stop the worker thread."""
        self._executor.shutdown(wait=True)
        self._model = None
        self._tokenizer = None


_WAITING = "\x00waiting"


def _next_piece(streamer: Any) -> str | None:
    """The streamer's next text piece, None at the end, or `_WAITING` if none came in time."""
    try:
        piece: str = next(streamer)
    except StopIteration:
        return None
    except queue.Empty:
        return _WAITING
    return piece


def _cut_at_stop(text: str, stop: tuple[str, ...]) -> str:
    cut = len(text)
    for marker in stop:
        index = text.find(marker)
        if index >= 0:
            cut = min(cut, index)
    return text[:cut]
