"""Tie-break rules of the day's vote, chosen by name (`RuleOptions.tie_break`).

A rule is a pure function of the tied seats, the vote round (0 for the first vote) and the
public random stream; it says what the tie leads to: a revote among some seats, an execution, or
no execution. It never sees the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from lycan.engine.frozen import frozen


@frozen
class Revote:
    """Vote again, choosing only among `candidates`."""

    candidates: tuple[int, ...]


@frozen
class Execute:
    """Execute `seat`."""

    seat: int


@frozen
class Spare:
    """Execute nobody, for `reason`."""

    reason: str


Outcome = Revote | Execute | Spare
TieBreak = Callable[[tuple[int, ...], int, random.Random], Outcome]
"""`(tied seats in seat order, vote round, public random stream) -> outcome`."""
MAX_ROUNDS = 5
"""A vote still tied after this many rounds executes nobody, whatever the rule."""


def revote_then_random(tied: tuple[int, ...], rnd: int, rng: random.Random) -> Outcome:
    """Revote among the tied seats once; a second tie is broken at random."""
    return Revote(tied) if rnd == 0 else Execute(rng.choice(tied))


def random_choice(tied: tuple[int, ...], rnd: int, rng: random.Random) -> Outcome:
    """A tied seat chosen at random (AIWolf: one vote round)."""
    return Execute(rng.choice(tied))


def no_execution(tied: tuple[int, ...], rnd: int, rng: random.Random) -> Outcome:
    """A tie executes nobody."""
    return Spare(f"tie between {len(tied)} players")


TIE_BREAKS: dict[str, TieBreak] = {
    "revote_then_random": revote_then_random,
    "random": random_choice,
    "no_execution": no_execution,
}
