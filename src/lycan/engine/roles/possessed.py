"""The possessed (madman): a human on the werewolves' side, with no power of its own.

It wins with the werewolves (`team_of`), but reads as human to the seer and the medium and
counts as human in the win check. The werewolves do not know who it is.
"""

from __future__ import annotations

from lycan.engine.roles.base import RolePlugin
from lycan.rules.roles import Role


class Possessed(RolePlugin):
    """No hooks: everything about the possessed is its team."""

    role = Role.POSSESSED
