"""The one async text-to-speech protocol, voices, and errors shared by every backend."""

from __future__ import annotations

import asyncio
import re
import threading
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar, runtime_checkable

from lycan.engine.manner import Manner
from lycan.voice.audio import AudioClip, concat


class VoiceError(RuntimeError):
    """A speech backend cannot do what was asked; the message says why in one sentence."""


class TTSError(VoiceError):
    """Synthesis failed (the engine crashed, the server answered with an error, ...)."""


class BackendUnavailable(VoiceError):
    """A backend cannot be used here: a package or program is missing, or a server is unreachable."""


@dataclass(frozen=True, slots=True)
class Voice:
    """How one speaker sounds; each backend reads the fields it understands.

    Attributes:
        name: the backend's voice id (`en-us+f3` for espeak-ng, `jf_alpha` or a blend
            `jf_alpha:0.6,jm_kumo:0.4` for Kokoro, `alloy` for OpenAI, a reference name for GPT-SoVITS).
        speed: speaking rate relative to normal (1.0; above 1 is faster).
        pitch: espeak-ng pitch, 0-99 (None: the voice's default).
        variation: how much the delivery varies (Piper's noise_scale; None: the model's default).
        options: further backend-specific settings as (key, value) pairs.
        manner: the delivery of an utterance that brings no manner of its own (a persona's, see
            `lycan.voice.persona`). No backend reads it: `lycan.voice.styled` applies it, so that
            an utterance's own manner replaces it rather than adding to it.
    """

    name: str = ""
    speed: float = 1.0
    pitch: int | None = None
    variation: float | None = None
    options: tuple[tuple[str, Any], ...] = field(default=())
    manner: Manner | None = None

    def option(self, key: str, default: Any = None) -> Any:
        """The value of option `key`, or `default`."""
        return dict(self.options).get(key, default)

    def with_options(self, **options: Any) -> Voice:
        """A copy with `options` added or replaced."""
        merged = dict(self.options)
        merged.update(options)
        return replace(self, options=tuple(sorted(merged.items())))


KOKORO_NAME = re.compile(r"^[a-z][fm]_[a-z0-9_]+$")
"""Kokoro's voice names: a language letter, `f` or `m`, and a name (`af_bella`, `jm_kumo`)."""


def name_gender(name: str) -> str | None:
    """The gender a Kokoro-style voice name says (`af_bella` female, `jm_kumo` male), or None.

    Kokoro, and servers that serve its voices through OpenAI's speech API (Kokoro-FastAPI), name
    their voices so; other names say nothing.
    """
    if not KOKORO_NAME.match(name):
        return None
    return "female" if name[1] == "f" else "male"


@runtime_checkable
class TTSBackend(Protocol):
    """Speech synthesis: a whole clip, or the clip in chunks as the engine produces them."""

    name: str

    async def synthesize(self, text: str, voice: Voice | None = None) -> AudioClip:
        """Speak `text` in `voice` (the backend's default voice if None).

        Raises:
            TTSError: synthesis failed.
            BackendUnavailable: the engine or server cannot be reached.
        """
        ...

    def stream(self, text: str, voice: Voice | None = None) -> AsyncIterator[AudioClip]:
        """Yield `text` spoken in `voice` as consecutive chunks, the first as early as possible."""
        ...

    def voice_for_seat(self, seat: int) -> Voice:
        """A stable voice for `seat`, different from the other seats' voices as far as the backend allows."""
        ...


class BaseTTS(ABC):
    """Shared behaviour: `synthesize` joins the chunks that `stream` yields."""

    name: str = "tts"

    @abstractmethod
    def stream(self, text: str, voice: Voice | None = None) -> AsyncIterator[AudioClip]:
        """Yield `text` spoken in `voice` as consecutive chunks."""

    @abstractmethod
    def voice_for_seat(self, seat: int) -> Voice:
        """A stable voice for `seat`."""

    def voice_for_gender(self, seat: int, gender: str) -> Voice | None:
        """A stable voice for `seat` that sounds `gender` (`female`, `male` or `neutral`), or None.

        None says the backend cannot tell its voices apart by gender (the default); callers then
        use `voice_for_seat`. A backend that can keeps seats apart as `voice_for_seat` does, whatever
        gender each seat asks for (`lycan.voice.persona`).
        """
        return None

    async def synthesize(self, text: str, voice: Voice | None = None) -> AudioClip:
        """Speak `text` in `voice` as one clip.

        Raises:
            TTSError: synthesis failed or produced no audio.
        """
        chunks = [chunk async for chunk in self.stream(text, voice)]
        if not chunks:
            raise TTSError(f"{self.name} produced no audio for {text[:40]!r}")
        return chunks[0] if len(chunks) == 1 else concat(chunks)

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release what the backend holds (connections, models)."""


T = TypeVar("T")
_DONE = object()


async def iterate_in_thread(make: Callable[[], Iterator[T]]) -> AsyncIterator[T]:
    """Run a blocking generator in a worker thread and yield its items without blocking the loop.

    Closing the async iterator early stops the generator after the item it is working on.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Any] = asyncio.Queue()
    stop = threading.Event()

    def put(item: Any) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, item)

    def run() -> None:
        try:
            for item in make():
                put(("item", item))
                if stop.is_set():
                    break
        except BaseException as err:
            put(("error", err))
        finally:
            put(_DONE)

    worker = loop.run_in_executor(None, run)
    try:
        while True:
            entry = await queue.get()
            if entry is _DONE:
                break
            tag, value = entry
            if tag == "error":
                raise value
            yield value
    finally:
        stop.set()
        await asyncio.wait([worker])
