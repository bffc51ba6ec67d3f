"""How an utterance is delivered: its vocal style and the speaker's visible expression.

A `Manner` travels with a spoken action into its `Talk` event, so it has the utterance's own
audience (everyone for public talk, the pack for a whisper) and is in the record. Voices read the
vocal part (pace, pitch, emotion) and avatars the visible part (expression, gesture). The
vocabularies are closed, so that a small model can fill them under a grammar and every front end
knows every value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

Pace = Literal["slow", "normal", "fast"]
Pitch = Literal["low", "normal", "high"]
Emotion = Literal["calm", "confident", "suspicious", "worried", "angry", "cheerful", "sad"]
Expression = Literal["neutral", "smile", "frown", "narrowed", "wide", "sad"]
Gesture = Literal["none", "nod", "shake", "point", "shrug", "lean"]

PACES: tuple[str, ...] = get_args(Pace)
PITCHES: tuple[str, ...] = get_args(Pitch)
EMOTIONS: tuple[str, ...] = get_args(Emotion)
EXPRESSIONS: tuple[str, ...] = get_args(Expression)
GESTURES: tuple[str, ...] = get_args(Gesture)
VOCABULARY: dict[str, tuple[str, ...]] = {
    "pace": PACES,
    "pitch": PITCHES,
    "emotion": EMOTIONS,
    "expression": EXPRESSIONS,
    "gesture": GESTURES,
}
"""The allowed values of each field, by field name."""


@dataclass(frozen=True, slots=True)
class Manner:
    """The delivery of one utterance.

    Raises:
        ValueError: a value outside its field's vocabulary (`VOCABULARY`).
    """

    pace: Pace = "normal"
    pitch: Pitch = "normal"
    emotion: Emotion = "calm"
    expression: Expression = "neutral"
    gesture: Gesture = "none"

    def __post_init__(self) -> None:
        for name, allowed in VOCABULARY.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"manner {name} {value!r} is not one of {', '.join(allowed)}")

    @classmethod
    def read(cls, data: object) -> Manner:
        """The manner described by `data` (a mapping of field names); unknown or bad values keep the default."""
        if not isinstance(data, dict):
            return cls()
        fields = {k: str(data[k]).strip().lower() for k in VOCABULARY if k in data}
        return cls(**{k: v for k, v in fields.items() if v in VOCABULARY[k]})  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, str]:
        """JSON-ready form."""
        return {k: getattr(self, k) for k in VOCABULARY}


__all__ = ["EMOTIONS", "EXPRESSIONS", "GESTURES", "PACES", "PITCHES", "VOCABULARY", "Manner"]
