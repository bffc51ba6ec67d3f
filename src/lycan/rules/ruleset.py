"""Rule sets: which roles are dealt, and the options that change how a game runs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from lycan.rules.roles import ROLE_INDEX, Role, parse_role, team_of

TieBreak = Literal["revote_then_random", "random", "no_execution"]
InvalidTarget = Literal["retry", "ignore"]
DISCUSSIONS = ("round_robin", "random_order", "deepwolf", "bidding", "aiwolf")
Discussion = Literal["round_robin", "random_order", "deepwolf", "bidding", "aiwolf"]


class ConfigError(ValueError):
    """A rule set, preset name or config file that cannot be used; the message says how to fix it."""


class TalkLimits(BaseModel):
    """Talk limits, used by the `aiwolf` protocol and as caps by the others."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: int = Field(2, ge=1, description="rounds of the round_robin/random_order protocols")
    per_agent: int = Field(4, ge=1, description="utterances per seat per day (aiwolf)")
    per_day: int = Field(20, ge=1, description="utterances per day for the whole table (aiwolf)")
    max_skip: int = Field(0, ge=0, description="Skips a seat may use per day before Skip means Over")
    max_length: int = Field(125, ge=0, description="characters per utterance, spaces not counted (0: no limit)")
    base_length: int = Field(
        0, ge=0, description="characters before the first @Name mention (0: no limit; AIWolf base_length)"
    )
    mention_length: int = Field(
        0, ge=0, description="characters from the first @Name mention on (0: no limit; AIWolf mention_length)"
    )
    max_turns: int = Field(0, ge=0, description="turn cap for bidding/deepwolf (0: 3 per seat)")


class RuleOptions(BaseModel):
    """Options that vary between rule families; every preset sets the ones its source uses."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tie_break: TieBreak = "revote_then_random"
    allow_self_vote: bool = False
    guardian_repeat: bool = Field(False, description="guardian may protect the same seat twice in a row")
    guardian_self: bool = Field(False, description="guardian may protect itself")
    witch_self_save: bool = False
    witch_both_same_night: bool = Field(True, description="witch may use cure and poison in one night")
    hunter_shoots_when_poisoned: bool = False
    reveal_role_on_death: bool = False
    greeting: bool = Field(False, description="a day-0 talk before the first night")
    first_night_attack: bool = Field(True, description="werewolves attack on the first night")
    whisper: bool = Field(True, description="werewolves whisper at night when 2+ are alive")
    whisper_rounds: int = Field(1, ge=1)
    day0_whisper: bool = Field(
        False,
        description="werewolves whisper on day 0 before the greeting and again on night 0, even without an attack",
    )
    invalid_target: InvalidTarget = Field(
        "retry",
        description=(
            "an illegal vote, attack, divination or guard: asked again with the error, then a random legal "
            "target (retry); or dropped at once, as the AIWolf server does (ignore). Either way a fault is recorded"
        ),
    )
    discussion: Discussion = "round_robin"
    talk: TalkLimits = TalkLimits()
    whisper_limits: TalkLimits = TalkLimits(rounds=1, per_agent=2, per_day=10)
    max_days: int = Field(30, ge=1, description="a game still running after this day is a draw")
    talk_timeout: float = Field(60.0, gt=0, description="seconds for an utterance")
    action_timeout: float = Field(60.0, gt=0, description="seconds for a vote or night action")

    @field_validator("discussion", mode="before")
    @classmethod
    def _known_discussion(cls, value: object) -> object:
        if isinstance(value, str) and value not in DISCUSSIONS:
            raise ValueError(f"unknown discussion protocol {value!r}; use one of {', '.join(DISCUSSIONS)}")
        return value


class RuleSet(BaseModel):
    """Role counts plus options: everything the engine needs to know about the rules."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "custom"
    roles: dict[Role, int]
    options: RuleOptions = RuleOptions()

    @field_validator("roles", mode="before")
    @classmethod
    def _parse_roles(cls, value: object) -> object:
        if isinstance(value, Mapping):
            out: dict[Role, int] = {}
            for key, count in value.items():
                role = key if isinstance(key, Role) else parse_role(str(key))
                out[role] = out.get(role, 0) + int(count)
            return {role: count for role, count in out.items() if count}
        return value

    @model_validator(mode="after")
    def _playable(self) -> RuleSet:
        if any(count < 0 for count in self.roles.values()):
            raise ValueError("role counts must not be negative")
        wolves = self.roles.get(Role.WEREWOLF, 0)
        if wolves == 0:
            raise ValueError("a game needs at least one werewolf; add e.g. werewolf=1")
        humans = self.n_players - wolves
        if wolves >= humans:
            raise ValueError(
                f"{wolves} werewolves against {humans} others is already werewolf parity; "
                "add villagers or remove werewolves"
            )
        if self.n_players > 50:
            raise ValueError(f"{self.n_players} players is more than the 50 a table allows")
        return self

    @property
    def n_players(self) -> int:
        """Number of seats."""
        return sum(self.roles.values())

    def deck(self) -> list[Role]:
        """The roles to deal, in a fixed order (the engine shuffles them with its seeded RNG)."""
        deck: list[Role] = []
        for role in ROLE_INDEX:  # in `Role` order (walking this dict is faster than walking the enum)
            deck += [role] * self.roles.get(role, 0)
        return deck

    def team_size(self, role_team: str) -> int:
        """Seats on `role_team` ('village' or 'werewolf')."""
        return sum(c for r, c in self.roles.items() if team_of(r).value == role_team)

    def describe(self) -> str:
        """One line such as `guardian7: 2 werewolf, 1 seer, 1 guardian, 3 villager`."""
        parts = ", ".join(f"{self.roles[r]} {r.value}" for r in Role if r in self.roles)
        return f"{self.name}: {parts}"
