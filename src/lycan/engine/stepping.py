"""Stepping through a game's record: where each part of a day or night ends, and what a reader knew then.

`checkpoints(events)` marks where each day's talk, each vote and each night end (read from the public
events alone, so every reader gets the same parts); `view_at(...)` rebuilds what a seat, or a
spectator, knew at any point of the log, from the events that reader may see alone. The web viewer,
the web table's meter and `lycan replay --beliefs` step records with these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from lycan.engine.events import (
    BidPlaced,
    Died,
    Event,
    GameOver,
    Phase,
    PhaseStarted,
    RoleAssigned,
    Talk,
    VoteCast,
    public,
    visible,
)
from lycan.engine.view import PublicView, View
from lycan.rules.ruleset import RuleSet

Part = Literal["talk", "vote", "night"]


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A point of a game's log where one part of a day or night is over.

    `events[:position]` is what had happened by then. A night ends once its news is told at the
    next dawn (deaths, a peaceful night), before that day's talk begins.
    """

    part: Part
    day: int
    position: int

    @property
    def label(self) -> str:
        """The checkpoint for people, e.g. `day 1, after the talk` or `after night 1`."""
        if self.part == "night":
            return f"after night {self.day}"
        return f"day {self.day}, after the {self.part}"


def checkpoints(events: Sequence[Event]) -> list[Checkpoint]:
    """Where each day's talk, each day's vote and each night end in `events`, in order.

    Only public events decide where a part ends, so every reader of the log (any seat, a
    spectator) gets the same parts; a day without talk has no talk checkpoint.
    """
    out: list[Checkpoint] = []
    part: Part | None = None
    day = 0
    said = False  # whether the open talk part holds any talk

    def close(position: int) -> None:
        if part is not None and (part != "talk" or said):
            out.append(Checkpoint(part, day, position))

    for i, e in enumerate(events):
        if e.audience is not None:
            continue
        if isinstance(e, PhaseStarted):
            if e.phase == "night":
                close(i)
                part, day = "night", e.day
            elif part != "night":  # after a night, its news comes first: the night is not over yet
                close(i)
                part, day, said = "talk", e.day, False
        elif isinstance(e, Talk | BidPlaced):
            if part != "talk":
                close(i)
                part, day = "talk", e.day
            said = True
        elif isinstance(e, VoteCast):
            if part != "vote":
                close(i)
                part, day = "vote", e.day
        elif isinstance(e, GameOver):
            close(i)
            part = None
    close(len(events))
    return out


def view_at(
    events: Sequence[Event], rules: RuleSet, names: Sequence[str], upto: int, seat: int | None = None
) -> View | PublicView:
    """What `seat` knew once `events[:upto]` had happened (None: a spectator, the public record).

    The view is built from the events that reader may see alone (through `visible` or `public`);
    the day, phase and who is alive come from the public events.

    Raises:
        ValueError: `seat` had not been dealt a role by then.
    """
    seen = events[:upto]
    day = 0
    phase: Phase = "setup"
    alive = [True] * len(names)
    for e in seen:
        if e.audience is not None:
            continue
        if isinstance(e, PhaseStarted):
            day, phase = e.day, e.phase
            alive = [s in e.alive for s in range(len(names))]
        elif isinstance(e, Died):
            alive[e.target] = False
        elif isinstance(e, GameOver):
            phase = "end"
    if seat is None:
        return PublicView(
            names=tuple(names), rules=rules, day=day, phase=phase, alive=tuple(alive), events=public(seen)
        )
    mine = visible(seen, seat)
    role = next((e.role for e in mine if isinstance(e, RoleAssigned) and e.seat == seat), None)
    if role is None:
        raise ValueError(f"seat {seat} has no role yet after {upto} events")
    return View(seat, role, tuple(names), rules, day, phase, tuple(alive), mine)


__all__ = ["Checkpoint", "Part", "checkpoints", "view_at"]
