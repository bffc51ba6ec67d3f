"""Every role deal a seat's hard knowledge allows, and the posterior it gives over roles.

A deal assigns one role to every seat (the rules' deck, in any order). What a seat knows for
certain prunes them: its own role, its werewolf pack, its divinations and medium readings, roles
revealed on death, and night victims that werewolves cannot have been (their targets exclude the
pack, so where no witch could have poisoned, a night's victim is no werewolf; the witch also learns
whom the werewolves attacked). Every deal left is equally likely under hard knowledge alone; soft
evidence (claims, votes) will weigh them.

All deals of a deck are built once per (deck, table size) as a NumPy array (aiwolf5: 60,
guardian7: 420, aiwolf13: 1,441,440 rows), so a posterior is a few vectorised comparisons.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from lycan.engine.events import AttackChosen, Died, Divined, Event, Executed, MediumResult, WitchWoken
from lycan.engine.view import PublicView, View
from lycan.rules.roles import ROLE_INDEX, Role, Species

_INDEX = ROLE_INDEX
_WOLF = _INDEX[Role.WEREWOLF]

Deals = npt.NDArray[np.int8]


@functools.lru_cache(maxsize=16)
def all_deals(deck: tuple[Role, ...]) -> Deals:
    """Every distinct assignment of `deck`'s roles to its seats, one row per deal (role indices)."""
    n = len(deck)
    counts: dict[Role, int] = {}
    for role in deck:
        counts[role] = counts.get(role, 0) + 1
    # Rarest roles first keeps the partial deals few until the commonest role fills what is left.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], _INDEX[rc[0]]))
    *placed, (last_role, _) = groups
    deals = np.full((1, n), -1, dtype=np.int8)
    for role, count in placed:
        free_per_row = n - int((deals[0] >= 0).sum())
        # every partial deal has the same number of free seats, in seat order
        free = np.nonzero(deals < 0)[1].reshape(len(deals), free_per_row)
        combos = np.array(list(itertools.combinations(range(free_per_row), count)), dtype=np.intp)
        rows = np.repeat(np.arange(len(deals)), len(combos))
        grown = deals[rows]
        chosen = free[rows[:, None], np.tile(combos, (len(deals), 1))]
        grown[np.arange(len(grown))[:, None], chosen] = _INDEX[role]
        deals = grown
    deals[deals < 0] = _INDEX[last_role]
    deals.setflags(write=False)
    return deals


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows for certain, read from its view alone."""

    seat: int | None
    """None for a spectator (the public record only)."""
    role: Role | None
    known: dict[int, Role] = field(default_factory=dict)
    """Seats whose role is certain (own role, revealed on death)."""
    wolves: frozenset[int] | None = None
    """The werewolf pack, if the seat is one (then nobody else is a werewolf)."""
    species: dict[int, Species] = field(default_factory=dict)
    """Divinations and medium readings: what each checked seat is."""
    not_wolf: frozenset[int] = frozenset()
    """Seats that cannot be werewolves (night victims where no witch could poison)."""

    @classmethod
    def of(cls, view: View | PublicView) -> Knowledge:
        """Everything certain in `view` (a seat's view, or the public record for spectators)."""
        if isinstance(view, View):
            pack = frozenset(view.wolves()) if view.role is Role.WEREWOLF else None
            return cls.from_events(view.seat, view.role, pack, view.rules.roles.get(Role.WITCH, 0) > 0, view.events)
        return cls.from_events(None, None, None, view.rules.roles.get(Role.WITCH, 0) > 0, view.events)

    @classmethod
    def from_events(
        cls, seat: int | None, role: Role | None, pack: frozenset[int] | None, witch: bool, events: Iterable[Event]
    ) -> Knowledge:
        """Everything certain in `events` for `seat` of `role` (`witch`: the deck has a witch who may poison)."""
        known: dict[int, Role] = {} if seat is None or role is None else {seat: role}
        species: dict[int, Species] = {}
        not_wolf: set[int] = set()
        for e in events:
            if isinstance(e, Divined | MediumResult):
                species[e.target] = e.result
            elif isinstance(e, Died | Executed) and e.role is not None:
                known[e.target] = e.role
            elif isinstance(e, Died) and e.cause == "night" and not witch:
                not_wolf.add(e.target)
            elif isinstance(e, WitchWoken) and e.attacked is not None:
                not_wolf.add(e.attacked)
            elif isinstance(e, AttackChosen):
                not_wolf.add(e.target)
        return cls(seat, role, known, pack, species, frozenset(not_wolf))

    def base(self) -> Knowledge:
        """Only what the seat knew from the deal (its role and pack), none of the later facts."""
        known = {} if self.seat is None or self.role is None else {self.seat: self.role}
        return Knowledge(self.seat, self.role, known, self.wolves)


FACTS = (Divined, MediumResult, Died, Executed, WitchWoken, AttackChosen)
"""Event types that can add certain knowledge."""


def consistent(deals: Deals, knowledge: Knowledge) -> npt.NDArray[np.bool_]:
    """A mask of the deals that agree with everything `knowledge` holds for certain."""
    keep = np.ones(len(deals), dtype=bool)
    for seat, role in knowledge.known.items():
        keep &= deals[:, seat] == _INDEX[role]
    if knowledge.wolves is not None:
        for seat in range(deals.shape[1]):
            is_wolf = seat in knowledge.wolves
            keep &= (deals[:, seat] == _WOLF) == is_wolf
    for seat, species in knowledge.species.items():
        keep &= (deals[:, seat] == _WOLF) == (species is Species.WEREWOLF)
    for seat in knowledge.not_wolf:
        keep &= deals[:, seat] != _WOLF
    return keep
