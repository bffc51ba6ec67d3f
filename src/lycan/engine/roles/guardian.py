"""The guardian (bodyguard): every night with an attack, protects one living seat from it.

`guardian_self` lets it protect itself; `guardian_repeat` lets it protect the same seat two
nights in a row. It is not asked on a night without attack, nor when no seat is left to protect.
"""

from __future__ import annotations

from typing import ClassVar

from lycan.engine.actions import Action, Request
from lycan.engine.events import Event, Guarded
from lycan.engine.roles.base import Night, RoleChecks, RoleContext, RolePlugin, Secrecy, Shadow, describe
from lycan.rules.roles import Role


class GuardianChecks(RoleChecks):
    """Only a guardian guards, a living seat, itself and the same seat twice only if the rules allow."""

    watches = (Guarded,)
    asks = frozenset({"guard"})

    def __init__(self, shadow: Shadow, out: list[str]) -> None:
        super().__init__(shadow, out)
        self.last_guard: dict[int, int] = {}

    def event(self, e: Event) -> None:
        """A guard."""
        assert isinstance(e, Guarded)
        roles, opts = self.shadow.roles, self.options
        if roles[e.actor] is not Role.GUARDIAN:
            self.fail(f"{describe(e)} by a {roles[e.actor]}")
        if e.target == e.actor and not opts.guardian_self:
            self.fail(f"guardian {e.actor} protects itself on night {e.day}")
        if self.last_guard.get(e.actor) == e.target and not opts.guardian_repeat:
            self.fail(f"guardian {e.actor} protects seat {e.target} twice in a row (night {e.day})")
        if not self.shadow.alive[e.target]:
            self.fail(f"guardian protects dead seat {e.target}")
        self.last_guard[e.actor] = e.target

    def request(self, req: Request, where: str) -> None:
        """The guard targets follow the self and repeat options."""
        seat, targets = req.seat, req.targets
        if seat in targets and not self.options.guardian_self:
            self.fail(f"{where}: the guardian may protect itself")
        last = self.last_guard.get(seat)
        if last is not None and last in targets and not self.options.guardian_repeat:
            self.fail(f"{where}: may protect seat {last} twice in a row")


class Guardian(RolePlugin):
    """Protection from the attack."""

    role = Role.GUARDIAN
    options = ("guardian_self", "guardian_repeat")
    requests = frozenset({"guard"})
    droppable = frozenset({"guard"})
    events: ClassVar[dict[type[Event], Secrecy]] = {Guarded: "actor"}
    night_order = 20
    checks = GuardianChecks

    def __init__(self, seats: tuple[int, ...]) -> None:
        super().__init__(seats)
        self.last_guard: dict[int, int] = {}

    def night_requests(self, table: RoleContext, night: Night) -> list[Request]:
        """A guard request for every living guardian, on nights with an attack."""
        if not night.attacking:
            return []
        opts = table.options
        out = []
        for s in self.living_seats(table):
            last = self.last_guard.get(s)
            targets = tuple(
                t for t in night.living if (t != s or opts.guardian_self) and (opts.guardian_repeat or last != t)
            )
            if targets:
                out.append(table.request(s, "guard", targets=targets))
        return out

    def resolve(self, table: RoleContext, night: Night, answers: dict[int, Action]) -> None:
        """Record each protection for the night and for the repeat rule."""
        for guardian in self.seats:
            act = answers.get(guardian)
            if act is None or act.target is None:  # not asked, or an illegal choice the rules drop
                continue
            table.emit(Guarded, audience=(guardian,), actor=guardian, target=act.target)
            self.last_guard[guardian] = act.target
            night.guarded.append(act.target)
