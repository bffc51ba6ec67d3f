"""The suspicion meter: every seat's chance of being on the werewolf side, read from one view alone.

`meter(view)` reads a seat's view or a spectator's public view (then nothing but the public record);
along a growing view, a `Meter` reads each new event once. The web table, the web replay viewer and
`lycan replay --beliefs` show it.
"""

from __future__ import annotations

from dataclasses import dataclass

from lycan.beliefs.tracker import Beliefs
from lycan.engine.view import PublicView, View
from lycan.rules.roles import Role


@dataclass(frozen=True, slots=True)
class Suspicion:
    """One seat on the suspicion meter: its chance of being on the werewolf side, and its likeliest role."""

    seat: int
    werewolf_side: float
    role: Role
    """The most probable role (the first in `Role` order among equals)."""
    role_probability: float

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form, probabilities to 4 decimals."""
        return {
            "seat": self.seat,
            "werewolf": round(self.werewolf_side, 4),
            "role": self.role.value,
            "role_p": round(self.role_probability, 4),
        }


class Meter:
    """Suspicion meter readings along one growing view, each new event read once (`Beliefs`).

    A view that does not continue the last one (another seat, another game, an earlier point) is
    read from the start.
    """

    def __init__(self) -> None:
        self._beliefs: Beliefs | None = None
        self._key: tuple[object, ...] = ()

    def read(self, view: View | PublicView) -> tuple[Suspicion, ...]:
        """Every seat's P(werewolf side) and likeliest role given `view` alone.

        Raises:
            ValueError: no role deal fits the view (a log that cannot have happened).
        """
        key = (view.seat if isinstance(view, View) else None, view.names, view.rules)
        beliefs = self._beliefs
        seen = len(beliefs.events) if beliefs is not None else 0
        continues = beliefs is not None and key == self._key and len(view.events) >= seen
        if beliefs is not None and continues and (not seen or view.events[seen - 1] == beliefs.events[-1]):
            beliefs.update(view.events)
        else:
            beliefs = Beliefs.for_view(view)
            self._beliefs, self._key = beliefs, key
        post = beliefs.posterior()
        out = []
        for seat in range(len(view.names)):
            role, p = post.top_role(seat)
            out.append(Suspicion(seat, post.side_probability(seat), role, p))
        return tuple(out)


def meter(view: View | PublicView) -> tuple[Suspicion, ...]:
    """Every seat's P(werewolf side) and likeliest role given `view` alone (`lycan.beliefs.tracker`).

    Feed it a spectator's `PublicView` for a meter anyone may see: it then reads the public record
    and nothing else. Along a growing view, keep one `Meter` instead.

    Raises:
        ValueError: no role deal fits the view (a log that cannot have happened).
    """
    return Meter().read(view)


__all__ = ["Meter", "Suspicion", "meter"]
