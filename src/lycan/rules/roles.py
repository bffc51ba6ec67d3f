"""Roles, teams and species: the vocabulary of the game.

A role's rules live in its plug-in (`lycan.engine.roles`); adding a role means adding its name
here and its module there.
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    """A secret role dealt to one seat."""

    WEREWOLF = "werewolf"
    POSSESSED = "possessed"
    SEER = "seer"
    MEDIUM = "medium"
    GUARDIAN = "guardian"
    WITCH = "witch"
    HUNTER = "hunter"
    IDIOT = "idiot"
    VILLAGER = "villager"


ROLE_INDEX: dict[Role, int] = {role: i for i, role in enumerate(Role)}
"""Each role's number, in `Role` order (the columns of role-probability tables)."""


class Team(StrEnum):
    """The side a role wins with."""

    VILLAGE = "village"
    WEREWOLF = "werewolf"


class Species(StrEnum):
    """What a divination or a medium reading reports."""

    HUMAN = "human"
    WEREWOLF = "werewolf"


ROLE_ALIASES: dict[str, Role] = {
    "wolf": Role.WEREWOLF,
    "werewolves": Role.WEREWOLF,
    "betrayer": Role.POSSESSED,
    "madman": Role.POSSESSED,
    "diviner": Role.SEER,
    "bodyguard": Role.GUARDIAN,
    "guard": Role.GUARDIAN,
    "doctor": Role.GUARDIAN,
    "village_idiot": Role.IDIOT,
    "fool": Role.IDIOT,
    "villagers": Role.VILLAGER,
}


def parse_role(name: str) -> Role:
    """Return the role called `name` (case-insensitive; aliases such as `bodyguard` allowed).

    Raises:
        ValueError: the name is no role; the message lists the known ones.

    """
    key = name.strip().lower()
    if key in ROLE_ALIASES:
        return ROLE_ALIASES[key]
    try:
        return Role(key)
    except ValueError:
        known = ", ".join(r.value for r in Role)
        raise ValueError(f"unknown role {name!r}; known roles are {known}") from None


def team_of(role: Role) -> Team:
    """The team `role` wins with: werewolves and the possessed are on the werewolf side."""
    return Team.WEREWOLF if role in (Role.WEREWOLF, Role.POSSESSED) else Team.VILLAGE


def species_of(role: Role) -> Species:
    """What a seer sees: only werewolves read as werewolf; the possessed reads as human."""
    return Species.WEREWOLF if role is Role.WEREWOLF else Species.HUMAN


#: Roles whose holder is asked something at night, in no particular order.
NIGHT_ROLES = frozenset({Role.WEREWOLF, Role.SEER, Role.GUARDIAN, Role.WITCH})
#: Roles that matter most to the village; key-role survival is measured on these.
KEY_ROLES = frozenset({Role.SEER, Role.MEDIUM, Role.GUARDIAN, Role.WITCH, Role.HUNTER})
