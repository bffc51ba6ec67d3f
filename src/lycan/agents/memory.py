"""A seat's memory, derived only from its `View`: today's events as lines, earlier days as notes.

Today is kept verbatim (utterances quoted and neutralised); each earlier day is summarised by
fixed rules into a few lines of the seat's own notes: role claims and reported results heard in
talk, the votes, executions and deaths, and the seat's private results (divinations, medium
readings, protections, potions, the pack's attacks). The same view always gives the same notes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from lycan.engine.events import (
    AttackChosen,
    Died,
    Divined,
    Event,
    Executed,
    Guarded,
    HunterShot,
    MediumResult,
    NoExecution,
    PeacefulNight,
    PotionUsed,
    Talk,
    VoteCast,
    WitchWoken,
)
from lycan.engine.view import View
from lycan.render import Line, event_line
from lycan.render import quoted_name as _n
from lycan.rules.roles import ROLE_ALIASES, Role, parse_role

# ----------------------------------------------------------------------------- digests
# Every role name and alias the rules know (`lycan.rules.roles`), longest first so that a regex
# alternation prefers "werewolves" to "werewolf".
_ROLE_WORDS = "|".join(re.escape(w) for w in sorted({r.value for r in Role} | set(ROLE_ALIASES), key=len, reverse=True))
_CLAIM = re.compile(r"\b(?:i am|i'm|im|as)\s+(?:the\s+|a\s+|an\s+)?(" + _ROLE_WORDS + r")\b", re.IGNORECASE)


def _canon(word: str) -> str:
    """The role a role word names (`wolf` -> `werewolf`)."""
    return parse_role(word).value


@functools.lru_cache(maxsize=64)
def _report_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(
        r"(?<!\w)(" + alternatives + r")(?!\w)\s+(?:is|was|must be|seems)\s+(?:a\s+|an\s+|the\s+)?"
        r"(not a werewolf|human|" + _ROLE_WORDS + r")\b",
        re.IGNORECASE,
    )


def _claims(speaker: str, text: str, names: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    m = _CLAIM.search(text)
    if m:
        role = m.group(1).lower()
        out.append(f"{speaker} claimed {_canon(role)}")
    lowered = {n.lower(): seat for seat, n in enumerate(names)}
    for hit in _report_pattern(names).finditer(text):
        seat = lowered.get(hit.group(1).lower())
        what = hit.group(2).lower()
        what = "human" if what.startswith("not") or what == "human" else _canon(what)
        out.append(f"{speaker} said {_n(names, seat)} is {what}")
    return out


def day_notes(events: Iterable[Event], view: View, day: int) -> list[str]:
    """A rule-based digest of the events of `day` as `view.seat` saw them (a few short lines)."""
    names, me = view.names, view.seat
    heard: list[str] = []
    votes: list[str] = []
    outcome: list[str] = []
    private: list[str] = []
    for e in events:
        if isinstance(e, Talk) and not (e.over or e.skip):
            speaker = "You" if e.actor == me else _n(names, e.actor)
            where = " (whisper)" if e.channel == "whisper" else ""
            for c in _claims(speaker, e.text, names):
                if c + where not in heard:
                    heard.append(c + where)
        elif isinstance(e, VoteCast):
            who = "you" if e.actor == me else _n(names, e.actor)
            votes.append(f"{who}->{_n(names, e.target)}")
        elif isinstance(e, Executed | NoExecution | Died | PeacefulNight | HunterShot):
            line = event_line(e, view, dated=False)  # the digest names the day itself
            if line is not None:
                outcome.append(line.text)
        elif isinstance(e, Divined | MediumResult | Guarded | PotionUsed | AttackChosen):
            line = event_line(e, view, dated=False)
            if line is not None:
                private.append(line.text)
        elif isinstance(e, WitchWoken) and e.attacked is not None:
            private.append(f"The werewolves attacked {_n(names, e.attacked)}.")
    out: list[str] = []
    if outcome:
        out.append(f"Day {day}: " + " ".join(outcome))
    if heard:
        out.append(f"Day {day} talk: " + "; ".join(heard[:8]) + ".")
    if votes:
        out.append(f"Day {day} votes: " + ", ".join(votes) + ".")
    if private:
        out.append(f"Night {day} (private): " + " ".join(private))
    return out


class SeatMemory:
    """Notes of earlier days for one seat in one game, computed once per day and then reused."""

    def __init__(self) -> None:
        self._notes: dict[int, list[str]] = {}
        self._lines: dict[int, Line | None] = {}

    def reset(self) -> None:
        """Forget everything (a new game)."""
        self._notes.clear()
        self._lines.clear()

    def notes(self, view: View) -> list[str]:
        """The digest of every day before `view.day`, oldest first."""
        lines: list[str] = []
        for day in range(view.day):
            if day not in self._notes:
                self._notes[day] = day_notes((e for e in view.events if e.day == day), view, day)
            lines.extend(self._notes[day])
        return lines

    def today(self, view: View) -> list[Line]:
        """Every line of the current day, oldest first (each event is rendered once)."""
        out: list[Line] = []
        for e in view.events:
            if e.day != view.day:
                continue
            if e.id not in self._lines:
                self._lines[e.id] = event_line(e, view)
            line = self._lines[e.id]
            if line is not None:
                out.append(line)
        return out
