"""The medium: each night after an execution, learns whether the executed seat was a werewolf."""

from __future__ import annotations

from typing import ClassVar

from lycan.engine.events import Event, MediumResult
from lycan.engine.roles.base import Night, RoleChecks, RoleContext, RolePlugin, Secrecy, describe
from lycan.rules.roles import Role, species_of


class MediumChecks(RoleChecks):
    """Only a medium gets readings, true ones, of the last executed seat."""

    watches = (MediumResult,)

    def event(self, e: Event) -> None:
        """A medium reading."""
        assert isinstance(e, MediumResult)
        roles = self.shadow.roles
        target = roles[e.target]
        if roles[e.actor] is not Role.MEDIUM:
            self.fail(f"{describe(e)} by a {roles[e.actor]}")
        if target is None or e.result is not species_of(target):
            self.fail(f"{describe(e)} reports {e.result} for a {target}")
        if e.target != self.shadow.last_executed:
            self.fail(f"{describe(e)} is not about the last executed seat {self.shadow.last_executed}")


class Medium(RolePlugin):
    """Readings of the executed."""

    role = Role.MEDIUM
    events: ClassVar[dict[type[Event], Secrecy]] = {MediumResult: "actor"}
    checks = MediumChecks

    def dusk(self, table: RoleContext, night: Night) -> None:
        """After an execution, tell every living medium the species of the executed seat."""
        target = night.executed
        if target is None:
            return
        result = species_of(table.roles[target])
        for medium in self.living_seats(table):
            table.emit(MediumResult, audience=(medium,), actor=medium, target=target, result=result)
