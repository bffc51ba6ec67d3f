"""An utterance's manner applied to a seat's voice: speaking rate, pitch, delivery noise and spoken instructions.

Each backend reads what it understands of the styled `Voice`: espeak-ng its rate (`speed`) and pitch,
Piper its length scale (`1 / speed`) and noise scales (`variation`, the `noise_w` option), Kokoro
and GPT-SoVITS the rate, and OpenAI-compatible speech servers the rate and the `instructions` option,
one sentence describing the delivery (models such as gpt-4o-mini-tts follow it).
"""

from __future__ import annotations

from dataclasses import replace

from lycan.engine.manner import Manner
from lycan.voice.tts import Voice

PACE_SPEED: dict[str, float] = {"slow": 0.78, "normal": 1.0, "fast": 1.3}
"""Speaking rate factor by pace."""
EMOTION_SPEED: dict[str, float] = {"sad": 0.92, "worried": 1.05, "angry": 1.06, "cheerful": 1.04}
"""A smaller rate factor by emotion (1 when absent)."""
PITCH_STEP: dict[str, int] = {"low": -18, "normal": 0, "high": 18}
"""espeak-ng pitch steps (0-99 scale) by pitch, relative to the voice's own."""
EMOTION_PITCH: dict[str, int] = {"cheerful": 6, "worried": 4, "sad": -6, "angry": -3}
"""Smaller pitch steps by emotion (0 when absent)."""
EMOTION_VARIATION: dict[str, float] = {
    "confident": 0.8,
    "sad": 0.9,
    "suspicious": 1.1,
    "cheerful": 1.2,
    "worried": 1.25,
    "angry": 1.3,
}
"""Factor on Piper's noise scales by emotion (1 when absent): confident speech is even, excited speech varies."""

ESPEAK_PITCH = 50
"""espeak-ng's default pitch, the base when a voice sets none."""
PIPER_NOISE_SCALE = 0.667
"""Piper's default noise scale, the base when a voice sets no `variation`."""

_TONES: dict[str, str] = {
    "calm": "a calm, even tone",
    "confident": "a confident, assured tone",
    "suspicious": "a suspicious, probing tone",
    "worried": "a worried, anxious tone",
    "angry": "an angry, forceful tone",
    "cheerful": "a cheerful, warm tone",
    "sad": "a sad, subdued tone",
}
_PACES = {"slow": "slowly", "fast": "quickly"}
_PITCHES = {"low": "in a low voice", "high": "in a high voice"}


def instructions(manner: Manner) -> str:
    """One sentence asking a speech model for `manner`'s delivery, e.g. "Speak in an angry, forceful tone, quickly."."""
    extra = [part for part in (_PACES.get(manner.pace), _PITCHES.get(manner.pitch)) if part]
    how = f", {' and '.join(extra)}" if extra else ""
    return f"Speak in {_TONES[manner.emotion]}{how}."


def styled(voice: Voice, manner: Manner | None) -> Voice:
    """`voice` delivering an utterance in `manner`, or in the voice's own `manner` when that is None.

    A voice's own manner (a persona's default) is a fallback, not a base: an utterance's manner
    replaces it, so a cheerful persona's angry line is angry, not both. The result has no manner
    of its own left, so styling it again changes nothing. A normal, calm delivery changes nothing.

    Pace and emotion scale the speaking rate; pitch and emotion move espeak-ng's pitch from the
    voice's own (50 when it sets none), kept within 0-99; emotion scales Piper's noise scales; and
    the `instructions` option describes the whole delivery (after any instructions the voice has).
    """
    if manner is None:
        manner = voice.manner
    if voice.manner is not None:
        voice = replace(voice, manner=None)
    if manner is None or (manner.pace, manner.pitch, manner.emotion) == ("normal", "normal", "calm"):
        return voice
    speed = voice.speed * PACE_SPEED[manner.pace] * EMOTION_SPEED.get(manner.emotion, 1.0)
    step = PITCH_STEP[manner.pitch] + EMOTION_PITCH.get(manner.emotion, 0)
    pitch = voice.pitch
    if step:
        pitch = max(0, min(99, (ESPEAK_PITCH if pitch is None else pitch) + step))
    factor = EMOTION_VARIATION.get(manner.emotion, 1.0)
    variation = round((PIPER_NOISE_SCALE if voice.variation is None else voice.variation) * factor, 3)
    options: dict[str, object] = {}
    noise_w = voice.option("noise_w")
    if noise_w is not None:
        options["noise_w"] = round(float(noise_w) * factor, 3)
    said = instructions(manner)
    own = voice.option("instructions")
    options["instructions"] = f"{own} {said}" if own else said
    return replace(voice, speed=round(speed, 3), pitch=pitch, variation=variation).with_options(**options)


__all__ = ["instructions", "styled"]
