"""Hugging Face transformers for a local checkpoint: `hf:PATH` (the `[hf]` extra).

PATH is a checkpoint folder (config.json, weights, a tokenizer with a chat template), a `.gguf`
file (transformers dequantizes it; the `gguf` package is needed), or a LoRA adapter folder written
by `lycan train reasoner` (peft's `adapter_config.json`; its base checkpoint is named in
`lycan_base.json`, and the `peft` package is needed). `HFModel(path, adapter=DIR)` puts an adapter
on any base.

Generation runs on the instance's single worker thread (the model is not shared between threads);
streaming goes through `transformers.TextIteratorStreamer`. Nothing is downloaded.

Plain checkpoints refuse a JSON schema (transformers has no grammar here); an adapter folder
answers it unconstrained (`schema="free"`): its Reasoner was trained to keep the format without
one, and the caller validates the answer.
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
from typing import Any, Literal, TypeVar

from lycan.models.base import ChatRequest, ChatResult, ChatStream, ModelError, Usage

T = TypeVar("T")
SchemaMode = Literal["refuse", "free"]
ADAPTER_BASE = "lycan_base.json"
"""The file of an adapter folder that names its base checkpoint (`{"base": spec, "path": ...}`)."""


def checkpoint_location(spec: str | os.PathLike[str]) -> tuple[Path, str | None]:
    """Where a checkpoint lies: (folder, GGUF file name or None for a Hugging Face folder).

    `spec` is `local`, `local:1.5b` or `local:tiny` (an embedded GGUF model), a `.gguf` file, or
    a checkpoint folder.

    Raises:
        ModelError: no such file or folder (or a missing embedded model package).
    """
    text = str(spec).strip()
    if text == "local" or text.startswith("local:"):
        from lycan.models.local import model_path

        gguf = model_path(text.partition(":")[2].strip().lower())
        return gguf.parent, gguf.name
    path = Path(text).expanduser()
    if path.suffix.lower() == ".gguf":
        if not path.is_file():
            raise ModelError(f"There is no GGUF file at {path}.")
        return path.parent, path.name
    if not path.is_dir():
        raise ModelError(f"There is no Hugging Face checkpoint folder at {path}; give a local folder path.")
    if not (path / "config.json").is_file():
        raise ModelError(f"{path} has no config.json, so it is not a Hugging Face checkpoint folder.")
    return path, None


def adapter_base(folder: Path) -> str:
    """The base checkpoint of a LoRA adapter folder (from `lycan_base.json`, else peft's config).

    Raises:
        ModelError: the folder names no base.
    """
    import json

    for name, key in ((ADAPTER_BASE, "path"), ("adapter_config.json", "base_model_name_or_path")):
        file = folder / name
        if file.is_file():
            try:
                base = json.loads(file.read_text(encoding="utf-8")).get(key)
            except ValueError:
                base = None
            if base:
                return str(base)
    raise ModelError(f"The adapter folder {folder} names no base checkpoint; write its path into {ADAPTER_BASE}.")


def is_adapter(path: Path) -> bool:
    """Whether `path` is a peft adapter folder."""
    return path.is_dir() and (path / "adapter_config.json").is_file()


def converted(gguf: Path) -> Path:
    """A Hugging Face folder holding the GGUF file `gguf` dequantized (float32), converted once.

    transformers dequantizes a GGUF file on every load (SmolLM2-135M: about 40 s on two CPU cores);
    the converted folder loads in about a second. It lives in the model cache
    (`lycan.models.local.cache_dir()/hf/`), named by the file's name, size and modification time,
    and is written to a temporary folder first, so a crash or a concurrent run never leaves half of one.

    Raises:
        ModelError: the gguf package is missing or transformers cannot read the file.
    """
    import hashlib
    import shutil
    import tempfile

    from lycan.models.local import cache_dir

    stat = gguf.stat()
    key = hashlib.sha256(f"{gguf.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:12]
    target = cache_dir() / "hf" / f"{gguf.stem}-{key}"
    if (target / "config.json").is_file():
        return target
    torch, transformers = _import_transformers()
    try:
        import gguf as _  # noqa: F401  (transformers reads GGUF files through it)
    except ImportError as error:
        raise ModelError("Loading a GGUF file into transformers needs the gguf package: pip install gguf") from error
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model = transformers.AutoModelForCausalLM.from_pretrained(
            str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32
        )
    except (OSError, ValueError, KeyError) as error:
        raise ModelError(f"transformers could not read the GGUF file {gguf}: {error}") from error
    quantizer = getattr(model, "hf_quantizer", None)
    if quantizer is not None:  # the weights are dequantized already; only the marker is left
        quantizer.remove_quantization_config(model)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        model.save_pretrained(str(temporary))
        tokenizer.save_pretrained(str(temporary))
        try:
            temporary.rename(target)
        except OSError:  # another run finished first
            if not (target / "config.json").is_file():
                raise
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    return target


def load_checkpoint(
    spec: str | os.PathLike[str], *, dtype: str = "auto", adapter: str | os.PathLike[str] | None = None
) -> tuple[Any, Any]:
    """Load (model, tokenizer) for a checkpoint spec (see `checkpoint_location`), with an optional adapter.

    An adapter folder may be given as `spec` itself. The tokenizer comes from the adapter folder
    when it holds one (no GGUF conversion), else from the base.

    Raises:
        ModelError: missing packages, files, or a checkpoint transformers cannot load.
    """
    torch, transformers = _import_transformers()
    if adapter is None and is_adapter(Path(str(spec)).expanduser()):
        adapter, spec = spec, adapter_base(Path(str(spec)).expanduser())
    folder, gguf = checkpoint_location(spec)
    if gguf:
        folder = converted(folder / gguf)
    adapter_tokenizer = adapter is not None and (Path(str(adapter)) / "tokenizer_config.json").is_file()
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(
            str(adapter if adapter_tokenizer else folder), local_files_only=True
        )
        model = transformers.AutoModelForCausalLM.from_pretrained(
            str(folder), local_files_only=True, dtype=dtype if dtype == "auto" else getattr(torch, dtype)
        )
    except (OSError, ValueError, KeyError) as error:
        raise ModelError(f"transformers could not load {folder}: {error}") from error
    if adapter:
        try:
            from peft import PeftModel
        except ImportError as error:
            raise ModelError("Loading a LoRA adapter needs the peft package: pip install 'lycan[train]'") from error
        try:
            model = PeftModel.from_pretrained(model, str(adapter))
        except (OSError, ValueError, KeyError) as error:
            raise ModelError(f"peft could not load the adapter {adapter}: {error}") from error
    return model, tokenizer


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
    """A causal language model from a local Hugging Face checkpoint (folder, GGUF file or adapter folder).

    Args:
        path: the checkpoint folder (config.json, weights, tokenizer files), a `.gguf` file, or a
            LoRA adapter folder (its base named in `lycan_base.json`).
        name: the model's name in results and cache keys (default `hf:PATH`).
        device: a torch device ("cpu", "cuda", ...).
        dtype: a torch dtype name ("float32", "bfloat16", ...), or "auto".
        n_threads: torch CPU threads (default: torch's choice).
        adapter: a LoRA adapter folder to put on the base `path`.
        schema: what a request with a JSON schema gets: `refuse` (a ModelError) or `free` (an
            unconstrained answer, for the caller to validate). Default: `free` with an adapter,
            else `refuse`.
    """

    base_url = ""
    calls_at_once = 1
    """Calls answered at the same time: the model runs in this process, one call after another."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        name: str | None = None,
        device: str = "cpu",
        dtype: str = "auto",
        n_threads: int | None = None,
        adapter: str | os.PathLike[str] | None = None,
        schema: SchemaMode | None = None,
    ) -> None:
        self.path = Path(path).expanduser()
        self.adapter = Path(adapter).expanduser() if adapter else None
        if self.adapter is None and is_adapter(self.path):
            self.adapter, self.base = self.path, adapter_base(self.path)
        else:
            self.base = str(self.path)
        if self.adapter is not None and not is_adapter(self.adapter):
            raise ModelError(f"{self.adapter} is no LoRA adapter folder (it has no adapter_config.json).")
        checkpoint_location(self.base)  # a clear error now for a missing checkpoint
        self.schema: SchemaMode = schema or ("free" if self.adapter is not None else "refuse")
        self.name = name or (f"hf:{self.path}" if adapter is None else f"hf:{self.path}+{self.adapter}")
        self.device = device
        self.dtype = dtype
        self.n_threads = n_threads
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hf")
        self._model: Any = None
        self._tokenizer: Any = None

    def _load(self) -> tuple[Any, Any]:
        if self._model is None:
            torch, _ = _import_transformers()
            if self.n_threads:
                torch.set_num_threads(self.n_threads)
            model, tokenizer = load_checkpoint(self.base, dtype=self.dtype, adapter=self.adapter)
            model.to(self.device)
            model.eval()
            self._tokenizer, self._model = tokenizer, model
        return self._tokenizer, self._model

    def _inputs(self, request: ChatRequest) -> tuple[Any, dict[str, Any]]:
        tokenizer, _ = self._load()
        if request.json_schema is not None and self.schema == "refuse":
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
