"""A seat's view of the game: what that seat knows, and nothing more."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import compress
from typing import TypeVar

from lycan.engine.events import Event, Phase, WolfPack
from lycan.engine.frozen import frozen
from lycan.rules.roles import Role
from lycan.rules.ruleset import RuleSet

E = TypeVar("E", bound=Event)


@frozen
class View:
    """Everything one seat may know: its own role, the rules, and the events visible to it.

    `events` is read-only for agents. `alive` is public knowledge (deaths are announced).
    """

    seat: int
    role: Role
    names: tuple[str, ...]
    rules: RuleSet
    day: int
    phase: Phase
    alive: tuple[bool, ...]
    events: Sequence[Event]

    @property
    def name(self) -> str:
        """The display name of this seat."""
        return self.names[self.seat]

    @property
    def n_players(self) -> int:
        """Number of seats at the table."""
        return len(self.names)

    def living(self) -> list[int]:
        """Seats alive now."""
        return list(compress(range(len(self.alive)), self.alive))

    def living_others(self) -> list[int]:
        """Seats alive now, this one excluded."""
        others = list(compress(range(len(self.alive)), self.alive))
        if self.alive[self.seat]:
            others.remove(self.seat)
        return others

    def of_kind(self, cls: type[E]) -> Iterator[E]:
        """The visible events of one type, in order."""
        return (e for e in self.events if isinstance(e, cls))

    def wolves(self) -> tuple[int, ...]:
        """The werewolves this seat knows of (empty unless it is one)."""
        for e in self.of_kind(WolfPack):
            return e.members
        return ()

    def seat_of(self, name: str) -> int | None:
        """The seat whose name is `name` (case-insensitive), or None."""
        key = name.strip().lower()
        for i, n in enumerate(self.names):
            if n.lower() == key:
                return i
        return None


@frozen
class PublicView:
    """What everyone may know: the public record, the living seats, the day and phase.

    Spectators, narrators and front ends read the game through this (`Session.public_view()`),
    never through the engine's own state.
    """

    names: tuple[str, ...]
    rules: RuleSet
    day: int
    phase: Phase
    alive: tuple[bool, ...]
    events: Sequence[Event]

    @property
    def n_players(self) -> int:
        """Number of seats at the table."""
        return len(self.names)

    def living(self) -> list[int]:
        """Seats alive now."""
        return [s for s, a in enumerate(self.alive) if a]
