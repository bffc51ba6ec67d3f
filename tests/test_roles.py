"""Roles are plug-ins: one module per role, a registry, and an engine that names none of them."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import ClassVar, get_args

import pytest

import lycan.engine.game
from lycan.engine.actions import RequestKind
from lycan.engine.events import EVENT_TYPES, Event
from lycan.engine.frozen import frozen_kw
from lycan.engine.roles import PLUGINS, RolePlugin, Secrecy, plugin_for, plugins_for, register
from lycan.engine.roles.base import Night
from lycan.rules import Role, RuleOptions

ENGINE = Path(lycan.engine.game.__file__).parent
POWER_ROLES = [r for r in Role if r not in (Role.WEREWOLF, Role.VILLAGER)]


# ----------------------------------------------------------------------------- the role registry
def test_every_role_has_a_plugin() -> None:
    assert set(PLUGINS) == set(Role)
    for role, plugin in PLUGINS.items():
        assert plugin.role is role and plugin_for(role) is plugin


@pytest.mark.parametrize("role", list(Role))
def test_a_plugin_declares_what_it_uses(role: Role) -> None:
    plugin = PLUGINS[role]
    assert set(plugin.options) <= set(RuleOptions.model_fields), plugin.options
    kinds = set(get_args(RequestKind))
    assert plugin.requests <= kinds
    assert plugin.posthumous <= plugin.requests and plugin.droppable <= plugin.requests
    for cls, secrecy in plugin.events.items():
        assert EVENT_TYPES[cls.kind] is cls
        assert secrecy in ("public", "wolves", "actor", "seat", "record")
    if plugin.checks is not None:
        assert set(plugin.checks.asks) <= kinds


def test_request_kinds_belong_to_one_role() -> None:
    owners: dict[str, list[Role]] = {}
    for plugin in PLUGINS.values():
        for kind in plugin.requests:
            owners.setdefault(kind, []).append(plugin.role)
    assert all(len(roles) == 1 for roles in owners.values()), owners


def test_plugins_for_a_deal_skip_roles_without_hooks() -> None:
    layout = plugins_for(frozenset({Role.WEREWOLF, Role.SEER, Role.GUARDIAN, Role.VILLAGER}))
    assert [cls.role for cls, _ in layout] == [Role.WEREWOLF, Role.SEER, Role.GUARDIAN]  # night order
    assert all(hooks for _, hooks in layout)


def test_register_refuses_a_second_plugin_or_a_taken_event_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    class Again(RolePlugin):
        role = Role.SEER

    with pytest.raises(ValueError, match="already has the plug-in Seer"):
        register(Again)

    @frozen_kw
    class Clash(Event):
        kind: ClassVar[str] = "divined"

    class Clashing(RolePlugin):
        role = Role.VILLAGER
        events: ClassVar[dict[type[Event], Secrecy]] = {Clash: "actor"}

    monkeypatch.delitem(PLUGINS, Role.VILLAGER)
    with pytest.raises(ValueError, match="event kind 'divined' of Clashing is taken by Divined"):
        register(Clashing)
    assert EVENT_TYPES["divined"] is not Clash


def test_night_deaths() -> None:
    night = Night(1, (0, 1, 2, 3), attacking=True, executed=None)
    assert night.deaths() == []
    night.attacked = 2
    assert night.deaths() == [2]
    night.guarded.append(2)
    night.poisoned += [3, 0]
    assert night.deaths() == [0, 3]


# ----------------------------------------------------------------------------- the engine knows no power role
def _names(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.alias):
            out.add(node.name)
    return out


def test_the_game_names_no_power_role_and_none_of_their_events() -> None:
    source = (ENGINE / "game.py").read_text(encoding="utf-8")
    names = _names(ast.parse(source))
    for role in POWER_ROLES:
        assert role.name not in names, f"game.py names Role.{role.name}"
        assert role.value not in source.lower(), f"game.py mentions the {role.value}"
    for plugin in PLUGINS.values():
        for cls in plugin.events:
            assert cls.__name__ not in names, f"game.py uses {cls.__name__}, an event of the {plugin.role.value}"
    assert not {"Divined", "Guarded", "WitchWoken", "PotionUsed", "MediumResult", "HunterShot"} & names
