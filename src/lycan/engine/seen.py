"""What a person's camera showed while they spoke: expressions and head gestures, with their onsets.

A `Seen` travels with a person's spoken action into its `Talk` event (seed 002's Perceiver turns a
player's video into a description beside the transcript). It is part of the utterance, so it has
exactly the utterance's audience: everyone for public talk, the pack for a whisper. It is built in
the person's browser from the camera; only this description, never an image, reaches the server.

The vocabularies are closed and the size is bounded, so a description from a client is checked
like any other input (`Seen.parse`) and reads the same in every seat's log (`Seen.caption`).
Directions are the speaker's own: `turn_left` is a turn to the speaker's left.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

CueKind = Literal["expression", "gesture"]
SeenExpression = Literal["neutral", "smile", "frown", "raised", "sad"]
SeenGesture = Literal["nod", "shake", "tilt", "turn_left", "turn_right", "look_down"]

CUE_KINDS: tuple[str, ...] = get_args(CueKind)
SEEN_EXPRESSIONS: tuple[str, ...] = get_args(SeenExpression)
SEEN_GESTURES: tuple[str, ...] = get_args(SeenGesture)
SEEN_VOCABULARY: dict[str, tuple[str, ...]] = {"expression": SEEN_EXPRESSIONS, "gesture": SEEN_GESTURES}
"""The words each kind of cue may use."""

MAX_CUES = 6
"""The most cues one utterance's description may have."""

MAX_ONSET = 300.0
"""The latest onset (seconds after the utterance began) a cue may have."""

_PHRASES = {
    ("expression", "neutral"): "straight-faced",
    ("expression", "smile"): "smiling",
    ("expression", "frown"): "frowning",
    ("expression", "raised"): "raising eyebrows",
    ("expression", "sad"): "looking sad",
    ("gesture", "nod"): "nods",
    ("gesture", "shake"): "shakes head",
    ("gesture", "tilt"): "tilts head",
    ("gesture", "turn_left"): "turns to the left",
    ("gesture", "turn_right"): "turns to the right",
    ("gesture", "look_down"): "looks down",
}


class SeenError(ValueError):
    """A description that is not one: an unknown field or word, too many cues, a bad onset."""


@dataclass(frozen=True, slots=True)
class Cue:
    """One thing seen: an expression held or a gesture made, `onset` seconds into the utterance."""

    kind: CueKind
    value: str
    onset: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in SEEN_VOCABULARY:
            raise SeenError(f"a cue's kind must be one of {', '.join(CUE_KINDS)}, not {self.kind!r}")
        if self.value not in SEEN_VOCABULARY[self.kind]:
            allowed = ", ".join(SEEN_VOCABULARY[self.kind])
            raise SeenError(f"{self.kind} {self.value!r} is not one of {allowed}")
        if not isinstance(self.onset, int | float) or isinstance(self.onset, bool) or not math.isfinite(self.onset):
            raise SeenError("a cue's onset must be a number of seconds")
        if not 0.0 <= self.onset <= MAX_ONSET:
            raise SeenError(f"a cue's onset must be between 0 and {MAX_ONSET:g} seconds, not {self.onset:g}")

    @property
    def phrase(self) -> str:
        """How the cue reads in a log: `frowning`, `shakes head`."""
        return _PHRASES[(self.kind, self.value)]


@dataclass(frozen=True, slots=True)
class Seen:
    """The description of one utterance: its cues in order of onset (at most `MAX_CUES`)."""

    cues: tuple[Cue, ...]

    def __post_init__(self) -> None:
        if not self.cues:
            raise SeenError("a description needs at least one cue")
        if len(self.cues) > MAX_CUES:
            raise SeenError(f"a description has at most {MAX_CUES} cues, not {len(self.cues)}")
        if any(a.onset > b.onset for a, b in zip(self.cues, self.cues[1:], strict=False)):
            raise SeenError("a description's cues must be in order of onset")

    @classmethod
    def parse(cls, data: object) -> Seen:
        """The description in `data` (`{"cues": [{"kind", "value", "onset"}, ...]}`), checked strictly.

        Raises:
            SeenError: anything but that shape, an unknown field or word, too many cues, a bad onset.
        """
        if not isinstance(data, dict) or set(data) != {"cues"}:
            raise SeenError("a description is an object with one field, 'cues'")
        cues = data["cues"]
        if not isinstance(cues, list):
            raise SeenError("'cues' must be a list")
        if len(cues) > MAX_CUES:
            raise SeenError(f"a description has at most {MAX_CUES} cues, not {len(cues)}")
        out = []
        for cue in cues:
            if not isinstance(cue, dict) or not set(cue) <= {"kind", "value", "onset"} or "kind" not in cue:
                raise SeenError("each cue is an object with 'kind', 'value' and 'onset' only")
            kind, value, onset = cue["kind"], cue.get("value"), cue.get("onset", 0.0)
            if not isinstance(kind, str) or not isinstance(value, str):
                raise SeenError("a cue's kind and value must be words")
            out.append(Cue(kind, value, onset))  # type: ignore[arg-type]
        return cls(tuple(sorted(out, key=lambda c: c.onset)))

    def to_dict(self) -> dict[str, list[dict[str, object]]]:
        """JSON-ready form (`parse` reads it back)."""
        return {"cues": [{"kind": c.kind, "value": c.value, "onset": round(c.onset, 2)} for c in self.cues]}

    def caption(self) -> str:
        """The description as every listener reads it: `(frowning, shakes head)`; repeats said once."""
        phrases = list(dict.fromkeys(c.phrase for c in self.cues))
        return "(" + ", ".join(phrases) + ")"


__all__ = [
    "CUE_KINDS",
    "MAX_CUES",
    "MAX_ONSET",
    "SEEN_EXPRESSIONS",
    "SEEN_GESTURES",
    "SEEN_VOCABULARY",
    "Cue",
    "CueKind",
    "Seen",
    "SeenError",
    "SeenExpression",
    "SeenGesture",
]
