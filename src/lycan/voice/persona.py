"""A seat's voice from its persona: the persona's gender and age where the backend can, its mood always.

A persona (`lycan.agents.persona.Persona`) is a fictional character, so its voice may follow it
openly: a female persona speaks in a female voice where the backend can tell its voices apart by
gender (`voice_for_gender`: espeak-ng's variants, Kokoro's voices, OpenAI's voices, GPT-SoVITS
references that say their gender), an older one a little lower and slower, a younger one a little
higher and quicker. A backend that cannot tell gives the seat's own voice (`voice_for_seat`). Either
way the voice carries the persona's default delivery (`Voice.manner`, from `Persona.emotion`), which
`lycan.voice.styled` applies to every utterance that brings no manner of its own.

Seats stay apart as `voice_for_seat` keeps them: a backend draws a gender's voices in seat order
from a list of that gender's own, stepping accent or pace with the seat as well, so that two seats
share a voice only as far apart as the backend's voices run out (espeak-ng: not within 30 seats,
whatever their personas; OpenAI's eleven voices: not within 6).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from lycan.engine.manner import Manner
from lycan.voice.tts import Voice

if TYPE_CHECKING:  # only read here (gender, age, emotion): speaking need not load every agent
    from lycan.agents.persona import Persona


@dataclass(frozen=True, slots=True)
class AgeBand:
    """How a voice changes for personas up to an age.

    Attributes:
        below: the band holds ages under this.
        speed: a factor on the speaking rate.
        pitch: steps on espeak-ng's pitch (0-99), for voices that set one.
    """

    below: int
    speed: float
    pitch: int


AGE_BANDS: tuple[AgeBand, ...] = (
    AgeBand(30, 1.05, 4),
    AgeBand(55, 1.0, 0),
    AgeBand(1000, 0.93, -6),
)
"""Younger personas speak a little quicker and higher, older ones slower and lower; the middle is unchanged."""


class SeatVoices(Protocol):
    """Anything that gives each seat a voice (every `lycan.voice` backend does)."""

    def voice_for_seat(self, seat: int) -> Voice:
        """A stable voice for `seat`."""
        ...


@runtime_checkable
class GenderedVoices(Protocol):
    """A backend that can choose a seat's voice by gender (`lycan.voice.tts.BaseTTS.voice_for_gender`)."""

    def voice_for_gender(self, seat: int, gender: str) -> Voice | None:
        """A stable voice for `seat` that sounds `gender`, or None if the backend cannot tell."""
        ...


def age_band(age: int) -> AgeBand:
    """The band of `AGE_BANDS` that `age` falls in."""
    return next((band for band in AGE_BANDS if age < band.below), AGE_BANDS[-1])


def aged(voice: Voice, age: int) -> Voice:
    """`voice` for a speaker of `age`: its rate and (when it sets one) its pitch moved by `age_band`."""
    band = age_band(age)
    pitch = voice.pitch if voice.pitch is None else max(0, min(99, voice.pitch + band.pitch))
    return replace(voice, speed=round(voice.speed * band.speed, 3), pitch=pitch)


def persona_manner(persona: Persona) -> Manner:
    """The delivery a persona's utterances take when they bring none: its emotion, at normal pace and pitch."""
    return Manner(emotion=persona.emotion())


def voice_for_persona(tts: SeatVoices, seat: int, persona: Persona | None) -> Voice:
    """The voice of `seat`, played by `persona` (None: the seat's own voice, `tts.voice_for_seat`).

    A backend that can choose by gender gives a voice of the persona's gender, aged (`aged`); one
    that cannot gives the seat's own voice. The voice's `manner` is the persona's default delivery
    (`persona_manner`); `lycan.voice.styled` applies it to utterances that bring no manner.
    """
    if persona is None:
        return tts.voice_for_seat(seat)
    chosen = tts.voice_for_gender(seat, persona.gender) if isinstance(tts, GenderedVoices) else None
    voice = tts.voice_for_seat(seat) if chosen is None else aged(chosen, persona.age)
    return replace(voice, manner=persona_manner(persona))


__all__ = [
    "AGE_BANDS",
    "AgeBand",
    "GenderedVoices",
    "SeatVoices",
    "age_band",
    "aged",
    "persona_manner",
    "voice_for_persona",
]
