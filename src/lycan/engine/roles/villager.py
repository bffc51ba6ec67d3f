"""The villager: no power; talks and votes."""

from __future__ import annotations

from lycan.engine.roles.base import RolePlugin
from lycan.rules.roles import Role


class Villager(RolePlugin):
    """No hooks."""

    role = Role.VILLAGER
