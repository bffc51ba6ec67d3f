"""The hunter: on dying, may shoot one living seat, who dies too (a shot hunter shoots in turn).

A hunter killed by the witch's poison shoots only if `hunter_shoots_when_poisoned`.
"""

from __future__ import annotations

from typing import ClassVar

from lycan.engine.events import Event, HunterShot
from lycan.engine.roles.base import DeathCause, Night, RoleChecks, RoleContext, RolePlugin, Secrecy, Steps, describe
from lycan.rules.roles import Role


class HunterChecks(RoleChecks):
    """Only a hunter who has just died shoots, a living seat, and not when poisoned unless allowed."""

    watches = (HunterShot,)
    posthumous = (HunterShot,)

    def event(self, e: Event) -> None:
        """A hunter's shot."""
        assert isinstance(e, HunterShot)
        shadow = self.shadow
        if shadow.roles[e.actor] is not Role.HUNTER or shadow.alive[e.actor] or e.actor not in shadow.just_died:
            self.fail(f"{describe(e)}: only a hunter who just died may shoot")
        poisoned = shadow.resolved.poisoned if shadow.resolved is not None else ()
        if e.actor in poisoned and not self.options.hunter_shoots_when_poisoned:
            self.fail(f"hunter {e.actor} shoots although poisoned")
        if not shadow.alive[e.target]:
            self.fail(f"hunter shoots dead seat {e.target}")


class Hunter(RolePlugin):
    """The dying shot."""

    role = Role.HUNTER
    options = ("hunter_shoots_when_poisoned",)
    requests = frozenset({"shoot"})
    posthumous = frozenset({"shoot"})
    events: ClassVar[dict[type[Event], Secrecy]] = {HunterShot: "public"}
    checks = HunterChecks

    def on_death(self, table: RoleContext, seat: int, cause: DeathCause, night: Night | None) -> Steps:
        """Offer the shot (not after poison unless allowed); the shot seat dies and its own death hook runs."""
        if night is not None and seat in night.poisoned and not table.options.hunter_shoots_when_poisoned:
            return
        targets = tuple(table.living())
        if not targets:
            return
        act = (yield from table.ask([table.request(seat, "shoot", targets=targets, can_pass=True)]))[seat]
        if act.kind == "choose" and act.target is not None:
            table.emit(HunterShot, actor=seat, target=act.target)
            table.kill(act.target, "shot")
            yield from table.after_death(act.target, "shot")
