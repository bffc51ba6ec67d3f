"""The table's audio side: the speech protocols a voice backend plugs into, and an ordered audio channel.

The web app does no synthesis or recognition itself. Give `create_app(tts=..., asr=...)` any
objects that fit `SpeechSynthesizer` / `SpeechRecognizer` (the `lycan.voice` backends do), and
the table voices AI speech clause by clause, in order, to exactly the seats that may hear it.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from lycan.agents.persona import Persona
from lycan.engine.manner import Manner
from lycan.voice.persona import voice_for_persona
from lycan.voice.style import styled
from lycan.voice.tts import Voice

log = logging.getLogger("lycan.web")

MAX_AUDIO_BYTES = 8 * 1024 * 1024
"""The largest recording `/transcribe` accepts."""


@runtime_checkable
class SpokenClip(Protocol):
    """A synthesized clip that can be written as a WAV file."""

    def wav_bytes(self) -> bytes:
        """The clip as a complete WAV file."""
        ...


@runtime_checkable
class SpeechSynthesizer(Protocol):
    """Text to speech: `await synthesize(text, voice)` gives one clip; one stable voice per seat."""

    async def synthesize(self, text: str, voice: Any = None) -> SpokenClip:
        """Speak `text` in `voice`."""
        ...

    def voice_for_seat(self, seat: int) -> Any:
        """A stable voice for `seat`."""
        ...


@runtime_checkable
class HasText(Protocol):
    """A transcription result."""

    @property
    def text(self) -> str:
        """The words heard."""
        ...


@runtime_checkable
class SpeechRecognizer(Protocol):
    """Speech to text: `await transcribe(audio_bytes, mime)`."""

    async def transcribe(self, audio: bytes, mime: str = "audio/wav") -> HasText:
        """Transcribe one complete recording."""
        ...


_CLAUSE_END = re.compile(r"(?<=[.!?;:])\s+")


def split_clauses(text: str) -> tuple[list[str], str]:
    """Split off the complete clauses of `text`; returns (clauses, the unfinished rest)."""
    parts = _CLAUSE_END.split(text)
    done = [p.strip() for p in parts[:-1] if p.strip()]
    return done, parts[-1]


_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"\x1a\x45\xdf\xa3", "webm"),
    (0, b"OggS", "ogg"),
    (0, b"RIFF", "wav"),
    (0, b"fLaC", "flac"),
    (0, b"ID3", "mp3"),
    (4, b"ftyp", "mp4"),
)


def audio_problem(data: bytes, mime: str) -> str | None:
    """Why `data` (sent as `mime`) is not a recording we can use, or None if it looks like audio."""
    kind = mime.split(";")[0].strip().lower()
    if not data:
        return "the recording is empty"
    if len(data) > MAX_AUDIO_BYTES:
        return f"the recording is {len(data)} bytes; the limit is {MAX_AUDIO_BYTES} bytes (about a minute of speech)"
    if not (kind.startswith("audio/") or kind == "video/webm"):
        return f"expected an audio recording (audio/webm, audio/ogg, audio/wav, ...), got {kind or 'no content type'}"
    if any(data[at : at + len(magic)] == magic for at, magic, _ in _SIGNATURES):
        return None
    if len(data) > 1 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0:  # an MPEG audio frame
        return None
    return f"the upload says {kind} but does not contain audio in a format we know (WebM, Ogg, WAV, FLAC, MP3, MP4)"


@dataclass(frozen=True, slots=True)
class _Clause:
    seat: int
    utterance_id: int
    index: int
    text: str
    audience: frozenset[int] | None
    manner: Manner | None = None


def voice_in(voice: Any, manner: Manner | None) -> Any:
    """`voice` delivering an utterance in `manner` (a `lycan.voice.Voice` only; other voices are kept).

    A `lycan.voice` backend's voice is styled by `lycan.voice.styled`, which speaks an utterance
    without a manner in the voice's own (its persona's); a synthesizer with voices of its own kind
    speaks every utterance in its seat's voice.
    """
    return styled(voice, manner) if isinstance(voice, Voice) else voice


Personas = Callable[[int], Persona | None]
"""The persona a seat is played in (None: a person's seat, or no persona)."""


Deliver = Callable[[dict[str, Any], "frozenset[int] | None"], None]


class AudioChannel:
    """Voices AI speech clause by clause and delivers the clips strictly in order.

    Text arrives as it is spoken (`feed`) and ends with `finish`; each complete clause is queued
    and one worker synthesizes the queue in order, so clips reach the browsers in speaking order.
    `deliver(message, audience)` sends an `audio` message to the seats in `audience` (None: all).
    An utterance given a manner (`style`) is spoken in it. Each seat speaks in its persona's voice
    (`seat_voice`) where `personas` gives one. Without a synthesizer every call is a no-op.
    """

    def __init__(self, tts: SpeechSynthesizer | None, deliver: Deliver, personas: Personas | None = None) -> None:
        self.tts = tts
        self.deliver = deliver
        self.personas = personas
        self._queue: asyncio.Queue[_Clause | None] = asyncio.Queue()
        self._buffers: dict[tuple[int, int], tuple[str, int]] = {}
        self._manners: dict[tuple[int, int], Manner] = {}
        self._worker: asyncio.Task[None] | None = None

    @property
    def enabled(self) -> bool:
        """Whether speech is voiced at all."""
        return self.tts is not None

    def seat_voice(self, seat: int) -> Any:
        """The voice `seat` speaks in: its persona's (`lycan.voice.voice_for_persona`), or the seat's own.

        Only a synthesizer whose voices are `lycan.voice` voices is given persona voices; one with
        voices of its own kind keeps `voice_for_seat`.
        """
        assert self.tts is not None
        voice = self.tts.voice_for_seat(seat)
        persona = self.personas(seat) if self.personas is not None else None
        if persona is None or not isinstance(voice, Voice):
            return voice
        return voice_for_persona(self.tts, seat, persona)

    def style(self, seat: int, utterance_id: int, manner: Manner) -> None:
        """Speak the utterance's clauses from now on in `manner`."""
        if self.tts is not None:
            self._manners[(seat, utterance_id)] = manner

    def feed(self, seat: int, utterance_id: int, piece: str, audience: frozenset[int] | None) -> None:
        """Add spoken text; complete clauses are queued for synthesis."""
        if self.tts is None:
            return
        text, index = self._buffers.get((seat, utterance_id), ("", 0))
        clauses, rest = split_clauses(text + piece)
        manner = self._manners.get((seat, utterance_id))
        for clause in clauses:
            self._put(_Clause(seat, utterance_id, index, clause, audience, manner))
            index += 1
        self._buffers[(seat, utterance_id)] = (rest, index)

    def finish(self, seat: int, utterance_id: int, audience: frozenset[int] | None) -> None:
        """The utterance is complete: queue what is left of it."""
        if self.tts is None:
            return
        rest, index = self._buffers.pop((seat, utterance_id), ("", 0))
        manner = self._manners.pop((seat, utterance_id), None)
        if rest.strip():
            self._put(_Clause(seat, utterance_id, index, rest.strip(), audience, manner))

    def _put(self, clause: _Clause) -> None:
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work())
        self._queue.put_nowait(clause)

    async def _work(self) -> None:
        assert self.tts is not None
        while True:
            clause = await self._queue.get()
            if clause is None:
                return
            try:
                voice = voice_in(self.seat_voice(clause.seat), clause.manner)
                clip = await self.tts.synthesize(clause.text, voice)
                data = clip.wav_bytes()
            except Exception as err:  # a voice failure must not stop the game
                log.warning("speech synthesis failed for seat %d: %s", clause.seat, err)
                continue
            message = {
                "type": "audio",
                "seat": clause.seat,
                "utterance_id": clause.utterance_id,
                "clause_index": clause.index,
                "mime": "audio/wav",
                "data": base64.b64encode(data).decode("ascii"),
            }
            self.deliver(message, clause.audience)

    def cancel(self) -> None:
        """Drop the queued clips and stop at once (the game was stopped)."""
        if self._worker is not None and not self._worker.done():
            self._worker.cancel()

    async def close(self) -> None:
        """Finish the queued clips, then stop the worker."""
        if self._worker is not None and not self._worker.done():
            self._queue.put_nowait(None)
            await self._worker
