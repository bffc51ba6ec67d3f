"""Plain-English sentence templates for Werewolf talk, and a parser that reads them back.

The heuristic agent speaks only through these templates, so heuristic players understand each
other; the parser also accepts a few common variants ("I'm the seer", "I vote for ...") so it can
pick up the same statements from people and language models. Text it cannot read is ignored.
No template uses an ASCII comma, which AIWolf NLP servers reject in utterances.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from lycan.rules.roles import Species, parse_role
from lycan.rules.talk import spoken_length

StatementKind = Literal[
    "claim", "divined", "medium", "protected", "vote", "suspect", "trust", "liar", "attack", "fake_plan"
]
CLAIMABLE_ROLES = ("seer", "medium", "guardian", "witch", "hunter", "villager")


@dataclass(frozen=True, slots=True)
class Statement:
    """One thing a speaker said: a role claim, a result, a vote intention, and so on.

    `target` is a seat (or None); `role` is set for claims and lies; `species` for results.
    """

    kind: StatementKind
    target: int | None = None
    role: str = ""
    species: Species | None = None


# ------------------------------------------------------------------ templates
def claim(role: str) -> str:
    """E.g. `I am the seer.`."""
    return f"I am the {role}."


def divined(name: str, species: Species, night: int, today: int) -> str:
    """`Last night I divined Player 3: werewolf.` (or `On night 1 ...` for older results)."""
    when = "Last night" if night == today - 1 else f"On night {night}"
    return f"{when} I divined {name}: {species.value}."


def medium_reading(name: str, species: Species) -> str:
    """E.g. `Player 3 who was executed was a werewolf.`."""
    what = "a werewolf" if species is Species.WEREWOLF else "human"
    return f"{name} who was executed was {what}."


def protected(name: str) -> str:
    """E.g. `Last night I protected Player 4.`."""
    return f"Last night I protected {name}."


def vote(name: str) -> str:
    """E.g. `I will vote for Player 2.`."""
    return f"I will vote for {name}."


def suspect(name: str, reason: str = "") -> str:
    """E.g. `I suspect Player 2 because they voted for me.`."""
    return f"I suspect {name} because {reason}." if reason else f"I suspect {name}."


def trust(name: str) -> str:
    """E.g. `I trust Player 4.`."""
    return f"I trust {name}."


def liar(name: str, role: str = "seer") -> str:
    """E.g. `Player 5 is lying about being the seer.`."""
    return f"{name} is lying about being the {role}."


def attack(name: str) -> str:
    """Whisper, e.g. `Let's attack Player 4.`."""
    return f"Let's attack {name}."


FAKE_PLAN = "I will pretend to be the seer."
GREETING = "Good morning everyone. Let us find the werewolves together."
NOTHING_YET = "I have no strong suspicion yet."


text_length = spoken_length
"""Characters of `text`, spaces not counted (`lycan.rules.talk.spoken_length`)."""


def fit(text: str, limit: int) -> str:
    """`text` cut at a word boundary so that `text_length` is at most `limit` (0: no limit)."""
    if limit <= 0 or text_length(text) <= limit:
        return text
    out: list[str] = []
    used = 0
    for word in text.split():
        if used + len(word) > limit:
            break
        out.append(word)
        used += len(word)
    return " ".join(out) if out else text[:limit]


# ------------------------------------------------------------------ parsing
_SPECIES = {"human": Species.HUMAN, "werewolf": Species.WEREWOLF, "wolf": Species.WEREWOLF}


class SpeechParser:
    """Reads `Statement`s out of utterances for one table of seat names."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self._index = {n.lower(): i for i, n in enumerate(names)}
        self._cache: dict[str, tuple[Statement, ...]] = {}
        alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        who = rf"(?<![\w])({alts})(?![\w])"
        sp = r"(human|werewolf|wolf)"
        role = r"(seer|diviner|medium|guardian|bodyguard|witch|hunter)"
        result_link = r"\s*(?::|,| as| is| was| and (?:they|he|she) (?:are|is|was))\s*(?:an? )?"
        flags = re.IGNORECASE
        self._patterns: list[tuple[StatementKind, re.Pattern[str]]] = [
            ("claim", re.compile(rf"\bI(?: am|'m) (?:the|a|an) {role}\b", flags)),
            ("divined", re.compile(rf"\bI divined {who}{result_link}{sp}\b", flags)),
            ("medium", re.compile(rf"{who},? who was executed,? was (?:an? )?{sp}\b", flags)),
            ("protected", re.compile(rf"\bI (?:protected|guarded) {who}", flags)),
            ("vote", re.compile(rf"\bI(?: will|'ll)? vote (?:for|against) {who}", flags)),
            ("suspect", re.compile(rf"\bI suspect {who}", flags)),
            ("trust", re.compile(rf"\bI trust {who}", flags)),
            ("liar", re.compile(rf"{who} is (?:lying about being|a fake|not the real) (?:the )?(seer|medium)", flags)),
            ("attack", re.compile(rf"\blet(?:'s| us) attack {who}", flags)),
            ("fake_plan", re.compile(r"\bI will pretend to be the seer\b", flags)),
        ]  # fmt: skip

    def seat(self, name: str) -> int:
        """The seat called `name` (matched case-insensitively by the patterns)."""
        return self._index[name.lower()]

    def parse(self, text: str) -> tuple[Statement, ...]:
        """Every statement found in `text`, in the order they appear (cached per text)."""
        hit = self._cache.get(text)
        if hit is None:
            if len(self._cache) >= 4096:
                self._cache.clear()
            hit = self._cache[text] = self._parse(text)
        return hit

    def _parse(self, text: str) -> tuple[Statement, ...]:
        found: list[tuple[int, Statement]] = []
        for kind, pattern in self._patterns:
            for m in pattern.finditer(text):
                found.append((m.start(), self._statement(kind, m)))
        found.sort(key=lambda item: item[0])
        return tuple(s for _, s in found)

    def _statement(self, kind: StatementKind, m: re.Match[str]) -> Statement:
        if kind == "claim":
            role = m.group(1).lower()
            return Statement("claim", role=parse_role(role).value)
        if kind == "fake_plan":
            return Statement("fake_plan")
        target = self.seat(m.group(1))
        if kind in ("divined", "medium"):
            return Statement(kind, target, species=_SPECIES[m.group(2).lower()])
        if kind == "liar":
            return Statement(kind, target, role=m.group(2).lower())
        return Statement(kind, target)


@lru_cache(maxsize=64)
def parser_for(names: tuple[str, ...]) -> SpeechParser:
    """A shared parser for one table of seat names."""
    return SpeechParser(names)


__all__ = [
    "CLAIMABLE_ROLES",
    "FAKE_PLAN",
    "GREETING",
    "NOTHING_YET",
    "SpeechParser",
    "Statement",
    "attack",
    "claim",
    "divined",
    "fit",
    "liar",
    "medium_reading",
    "parser_for",
    "protected",
    "suspect",
    "text_length",
    "trust",
    "vote",
]
