"""The seer: every night divines one other living seat and learns whether it is a werewolf.

The possessed reads as human (`species_of`). The seer divines on the first night too, even
when the werewolves do not attack.
"""

from __future__ import annotations

from typing import ClassVar

from lycan.engine.actions import Action, Request
from lycan.engine.events import Divined, Event
from lycan.engine.roles.base import Night, RoleChecks, RoleContext, RolePlugin, Secrecy, describe
from lycan.rules.roles import Role, species_of


class SeerChecks(RoleChecks):
    """Only a seer divines, never itself, and learns the truth."""

    watches = (Divined,)
    asks = frozenset({"divine"})

    def event(self, e: Event) -> None:
        """A divination."""
        assert isinstance(e, Divined)
        roles = self.shadow.roles
        target = roles[e.target]
        if roles[e.actor] is not Role.SEER:
            self.fail(f"{describe(e)} by a {roles[e.actor]}")
        if target is None or e.result is not species_of(target):
            self.fail(f"{describe(e)} reports {e.result} for a {target}")
        if e.target == e.actor:
            self.fail(f"seer {e.actor} divines itself")

    def request(self, req: Request, where: str) -> None:
        """A seer is never offered itself."""
        if req.seat in req.targets:
            self.fail(f"{where}: may divine itself")


class Seer(RolePlugin):
    """Divination."""

    role = Role.SEER
    requests = frozenset({"divine"})
    droppable = frozenset({"divine"})
    events: ClassVar[dict[type[Event], Secrecy]] = {Divined: "actor"}
    night_order = 10
    checks = SeerChecks

    def night_requests(self, table: RoleContext, night: Night) -> list[Request]:
        """A divination request for every living seer."""
        request = table.request
        return [
            request(s, "divine", targets=tuple([t for t in night.living if t != s])) for s in self.living_seats(table)
        ]

    def resolve(self, table: RoleContext, night: Night, answers: dict[int, Action]) -> None:
        """Tell each seer the species of the seat it chose."""
        roles = table.roles
        for seer in self.seats:
            act = answers.get(seer)
            if act is None or act.target is None:  # not asked, or an illegal choice the rules drop
                continue
            table.emit(Divined, audience=(seer,), actor=seer, target=act.target, result=species_of(roles[act.target]))
