"""Roles as plug-ins: one module per role, and the registry that maps each `Role` to its plug-in.

The engine knows phases, talk and voting; everything a role adds (night requests and what their
answers do, what happens when it dies or is voted out, whether it votes) is in its module, a
`RolePlugin` subclass (`lycan.engine.roles.base` documents the hooks), together with its
invariants for the conformance kit (a `RoleChecks` subclass).

To add a role: name it in `lycan.rules.roles.Role`, write its module here, list it in `PLUGINS`,
describe it to LLM players in `lycan/agents/prompts/role_<name>.txt`, and run
`lycan check --preset werewolf=1,<name>=1,villager=3`. The village idiot was added that way.
"""

from __future__ import annotations

from lycan.engine.events import EVENT_TYPES, Event
from lycan.engine.roles.base import (
    Answers,
    Asking,
    DeathCause,
    Night,
    RoleChecks,
    RoleContext,
    RolePlugin,
    Secrecy,
    Shadow,
    Steps,
    hooks_of,
)
from lycan.engine.roles.guardian import Guardian
from lycan.engine.roles.hunter import Hunter
from lycan.engine.roles.idiot import Idiot
from lycan.engine.roles.medium import Medium
from lycan.engine.roles.possessed import Possessed
from lycan.engine.roles.seer import Seer
from lycan.engine.roles.villager import Villager
from lycan.engine.roles.werewolf import Werewolf
from lycan.engine.roles.witch import Witch
from lycan.rules.roles import Role

PLUGINS: dict[Role, type[RolePlugin]] = {}
"""The plug-in of every role."""


def register(plugin: type[RolePlugin]) -> type[RolePlugin]:
    """Make `plugin` the rules of its role, and let records hold the events it adds.

    Raises:
        ValueError: the role has a plug-in already, or one of its event kinds is taken.

    """
    if plugin.role in PLUGINS:
        raise ValueError(f"role {plugin.role.value} already has the plug-in {PLUGINS[plugin.role].__name__}")
    for cls in plugin.events:
        known = EVENT_TYPES.setdefault(cls.kind, cls)
        if known is not cls:
            raise ValueError(f"event kind {cls.kind!r} of {plugin.__name__} is taken by {known.__name__}")
    PLUGINS[plugin.role] = plugin
    return plugin


for _plugin in (Werewolf, Possessed, Seer, Medium, Guardian, Witch, Hunter, Idiot, Villager):
    register(_plugin)


def plugin_for(role: Role) -> type[RolePlugin]:
    """The plug-in of `role`.

    Raises:
        KeyError: no plug-in is registered for `role`.

    """
    return PLUGINS[role]


_LAYOUTS: dict[frozenset[Role], tuple[tuple[type[RolePlugin], frozenset[str]], ...]] = {}


def plugins_for(roles: frozenset[Role]) -> tuple[tuple[type[RolePlugin], frozenset[str]], ...]:
    """The plug-ins a game dealing `roles` needs, in night order, each with the hooks it uses.

    Plug-ins that use no hook are left out: a game need not make them.
    """
    layout = _LAYOUTS.get(roles)
    if layout is None:
        classes = sorted((PLUGINS[r] for r in roles), key=lambda c: (c.night_order, c.role.value))
        layout = _LAYOUTS[roles] = tuple((c, hooks_of(c)) for c in classes if hooks_of(c))
    return layout


def role_of_request() -> dict[str, Role]:
    """Request kinds that only one role is asked, and that role."""
    return {kind: plugin.role for plugin in PLUGINS.values() for kind in plugin.requests}


def event_secrecy() -> dict[type[Event], Secrecy]:
    """Who may know each event a role adds, by the rules."""
    return {cls: secrecy for plugin in PLUGINS.values() for cls, secrecy in plugin.events.items()}


__all__ = [
    "PLUGINS",
    "Answers",
    "Asking",
    "DeathCause",
    "Night",
    "RoleChecks",
    "RoleContext",
    "RolePlugin",
    "Secrecy",
    "Shadow",
    "Steps",
    "event_secrecy",
    "plugin_for",
    "plugins_for",
    "register",
    "role_of_request",
]
