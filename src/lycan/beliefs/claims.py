"""Structured claims read out of talk, deterministically.

A `Statement` is one speech act a speaker made: a role claim (`claim`), a divine result announced
(`divined`), a medium reading (`identified`), a protection reported (`guarded`), a vote intention
(`will_vote`), an accusation (`accuses`), a defence (`defends`), calling a claimant a liar (`liar`),
and two whisper-only acts of werewolves (`attack`, `fake_plan`).

`SpeechParser` reads the plain-English templates of the heuristic agent (`lycan.agents.speech`)
with a few common variants people and models use ("I'm the seer", "I vote for ..."), and the AIWolf
protocol language (`COMINGOUT Agent[01] SEER`, `DIVINED Agent[02] WEREWOLF`, `ESTIMATE ...`,
`VOTE ...`). Text it cannot read yields nothing; free talk goes to the model extractor
(`lycan.beliefs.extract`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Protocol, cast

from lycan.rules.roles import Role, Species, parse_role

StatementKind = Literal[
    "claim", "divined", "identified", "guarded", "will_vote", "accuses", "defends", "liar", "attack", "fake_plan"
]
CLAIMABLE_ROLES = ("seer", "medium", "guardian", "witch", "hunter", "villager")
RESULT_ROLES: dict[str, str] = {"divined": "seer", "identified": "medium", "guarded": "guardian"}
"""The role whose night action a reported result or protection tells of (and so claims)."""


@dataclass(frozen=True, slots=True)
class Statement:
    """One thing a speaker said: a role claim, a result, a vote intention, and so on.

    `target` is a seat (or None); `role` is set for claims and liar calls; `species` for results.
    """

    kind: StatementKind
    target: int | None = None
    role: str = ""
    species: Species | None = None


class TalkParser(Protocol):
    """Anything that reads a speaker's statements out of a line (`SpeechParser`, `TalkReader`)."""

    def parse(self, text: str, speaker: int | None = None) -> tuple[Statement, ...]:
        """Every statement `speaker` made in `text`, in order."""
        ...


_SPECIES = {"human": Species.HUMAN, "werewolf": Species.WEREWOLF, "wolf": Species.WEREWOLF}
_EVIL = {Role.WEREWOLF.value, Role.POSSESSED.value}


class SpeechParser:
    """Reads `Statement`s out of utterances for one table of seat names."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self._index = {n.lower(): i for i, n in enumerate(names)}
        self._cache: dict[tuple[str, int | None], tuple[Statement, ...]] = {}
        alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        who = rf"(?<![\w\[])({alts})(?![\w\]])" if alts else r"(?!x)x"
        sp = r"(human|werewolf|wolf)"
        role = r"(seer|diviner|medium|guardian|bodyguard|witch|hunter)"
        any_role = r"(villager|seer|medium|bodyguard|guardian|possessed|werewolf|witch|hunter)"
        result_link = r"\s*(?::|,| as| is| was| and (?:they|he|she) (?:are|is|was))\s*(?:an? )?"
        i, cs = re.IGNORECASE, 0
        distrust = r"(?: suspect| am suspicious of|'m suspicious of| do not trust| don't trust)"
        wolf_guess = r"(?:is|might be|could be) (?:a |the )?(?:were)?wolf\b"
        self._patterns: list[tuple[str, re.Pattern[str]]] = [
            ("claim", re.compile(rf"\bI(?: am|'m) (?:the|a|an) {role}\b", i)),
            ("divined", re.compile(rf"\bI divined {who}{result_link}{sp}\b", i)),
            ("identified", re.compile(rf"{who},? who was executed,? was (?:an? )?{sp}\b", i)),
            ("guarded", re.compile(rf"\bI (?:protected|guarded) {who}", i)),
            ("will_vote", re.compile(rf"\bI(?: will|'ll| am|'m)? (?:vote|voting) (?:for|against) {who}", i)),
            ("will_vote", re.compile(rf"\bmy vote (?:goes|will go) (?:to|against) {who}", i)),
            ("accuses", re.compile(rf"\bI{distrust} {who}", i)),
            ("accuses", re.compile(rf"\bI (?:think|believe) {who} {wolf_guess}", i)),
            ("defends", re.compile(rf"\bI (?:trust|believe in) {who}", i)),
            ("defends", re.compile(rf"\bI (?:think|believe) {who} is (?:innocent|human|honest)\b", i)),
            ("liar", re.compile(rf"{who} is (?:lying about being|a fake|not the real) (?:the )?(seer|medium)", i)),
            ("attack", re.compile(rf"\blet(?:'s| us) attack {who}", i)),
            ("fake_plan", re.compile(r"\bI will pretend to be the seer\b", i)),
            # the AIWolf protocol language (upper-case keywords)
            ("co", re.compile(rf"\bCOMINGOUT {who} {any_role.upper()}\b", cs)),
            ("estimate", re.compile(rf"\bESTIMATE {who} {any_role.upper()}\b", cs)),
            ("divined", re.compile(rf"\bDIVINED {who} (HUMAN|WEREWOLF)\b", cs)),
            ("identified", re.compile(rf"\bIDENTIFIED {who} (HUMAN|WEREWOLF)\b", cs)),
            ("guarded", re.compile(rf"\bGUARDED {who}", cs)),
            ("will_vote", re.compile(rf"(?<![\w(])VOTE {who}", cs)),
        ]  # fmt: skip

    def seat(self, name: str) -> int:
        """The seat called `name` (matched case-insensitively by the patterns)."""
        return self._index[name.lower()]

    def parse(self, text: str, speaker: int | None = None) -> tuple[Statement, ...]:
        """Every statement `speaker` made in `text`, in the order they appear (cached per text).

        `speaker` settles AIWolf `COMINGOUT X ROLE`: a claim when X is the speaker, otherwise an
        estimate of X (an accusation for werewolf or possessed, a defence for anything else).
        """
        key = (text, speaker)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) >= 4096:
                self._cache.clear()
            hit = self._cache[key] = self._parse(text, speaker)
        return hit

    def _parse(self, text: str, speaker: int | None) -> tuple[Statement, ...]:
        found: list[tuple[int, Statement]] = []
        for kind, pattern in self._patterns:
            for m in pattern.finditer(text):
                found.append((m.start(), self._statement(kind, m, speaker)))
        found.sort(key=lambda item: item[0])
        return tuple(s for _, s in found)

    def _statement(self, kind: str, m: re.Match[str], speaker: int | None) -> Statement:
        if kind == "claim":
            return Statement("claim", role=parse_role(m.group(1).lower()).value)
        if kind == "fake_plan":
            return Statement("fake_plan")
        target = self.seat(m.group(1))
        if kind in ("co", "estimate"):
            role = parse_role(m.group(2).lower()).value
            if kind == "co" and (speaker is None or target == speaker):
                return Statement("claim", role=role)
            return Statement("accuses" if role in _EVIL else "defends", target, role=role)
        if kind in ("divined", "identified"):
            return Statement(cast("StatementKind", kind), target, species=_SPECIES[m.group(2).lower()])
        if kind == "liar":
            return Statement("liar", target, role=m.group(2).lower())
        assert kind in ("guarded", "will_vote", "accuses", "defends", "attack"), kind
        return Statement(cast("StatementKind", kind), target)


def stated_vote(statements: Iterable[Statement]) -> int | None:
    """The seat the last vote intention among `statements` names (None if they state none)."""
    said = [s.target for s in statements if s.kind == "will_vote" and s.target is not None]
    return said[-1] if said else None


@lru_cache(maxsize=64)
def parser_for(names: tuple[str, ...]) -> SpeechParser:
    """A shared parser for one table of seat names."""
    return SpeechParser(names)


__all__ = [
    "CLAIMABLE_ROLES",
    "RESULT_ROLES",
    "SpeechParser",
    "Statement",
    "StatementKind",
    "TalkParser",
    "parser_for",
    "stated_vote",
]
