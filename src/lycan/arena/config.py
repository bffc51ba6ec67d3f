"""Tournament configs and plans: a validated config becomes a list of games with fixed ids and seeds.

A config (YAML or TOML, or a preset name) lists *settings*. A setting has a rule set and either a
team lineup (`village` and `werewolf`: one agent spec plays every seat of its team; `swap` also
plays the mirrored games) or a per-seat lineup (`seats`: one spec per seat, rotated so that every
agent plays every role of the deck in turn, while the seats follow the seeded deal).

Every planned game has an id derived from (run, setting, index) and its seed from (config seed,
setting, index), so re-running a tournament skips the games the store already holds.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from ulid import ULID

from lycan.engine.game import Game
from lycan.engine.seeds import stream
from lycan.rules import ConfigError, RuleSet, resolve_rules
from lycan.rules.files import read_data
from lycan.rules.roles import Team, team_of


# ----------------------------------------------------------------------------- config
class AgentSpec(BaseModel):
    """Who plays a seat: an agent type, optionally a model and options, and the label results use."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str = Field(description="agent type, e.g. random, heuristic, llm")
    model: str | None = Field(None, description="model name for agents that use one")
    provider: str | None = Field(None, description="provider for concurrency limits (default: from the model)")
    label: str | None = Field(None, description="name in results (default: agent or agent:model)")
    options: dict[str, Any] = Field(default_factory=dict, description="keyword options for the agent")
    model_options: dict[str, Any] = Field(
        default_factory=dict, description="keyword options for load_model (e.g. max_concurrency, timeout)"
    )

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, value: object) -> object:
        if isinstance(value, str):
            agent, _, model = value.partition(":")
            return {"agent": agent, "model": model or None}
        return value

    @field_validator("agent")
    @classmethod
    def _known(cls, value: str) -> str:
        from lycan.agents import AGENT_KINDS

        key = value.strip().lower()
        if key not in AGENT_KINDS:
            raise ValueError(f"unknown agent type {value!r}; choose one of {', '.join(AGENT_KINDS)}")
        return key

    @model_validator(mode="after")
    def _options_known(self) -> AgentSpec:
        from lycan.agents import agent_type

        agent_type(self.agent).check(self.options)  # an unknown key or a wrong value, named, at load time
        return self

    @property
    def name(self) -> str:
        """The label this spec's seats get in game records."""
        return self.label or (f"{self.agent}:{self.model}" if self.model else self.agent)

    @property
    def provider_key(self) -> str | None:
        """The provider whose concurrency limit applies.

        `openai/gpt-4o` -> `openai`; a model spec with a server (`openai:qwen@http://host:8080/v1`)
        -> that server's URL, since the backend's own limit is per server too.
        """
        if self.provider:
            return self.provider
        if self.model and "@" in self.model:
            return self.model.rsplit("@", 1)[1].rstrip("/")
        if self.model:
            return self.model.split("/", 1)[0] if "/" in self.model else self.model
        return None


class Setting(BaseModel):
    """One table configuration, played `games` times (per side when `swap`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = Field(None, description="stable name; game ids derive from it (default: a hash)")
    rules: str = Field(description="preset name, ROLE=N list, or a rules file")
    village: AgentSpec | None = None
    werewolf: AgentSpec | None = None
    swap: bool = Field(True, description="also play every game with the teams' agents swapped")
    seats: list[AgentSpec] | None = Field(None, description="one agent per seat (instead of teams)")
    rotate: bool = Field(True, description="rotate roles over the seat lineup so every agent plays every role")
    games: int | None = Field(None, ge=1, description="games (per side); default: the tournament's")
    deals: str | None = Field(
        None, description="settings with the same deals name play the same deals (default: the setting's own)"
    )

    @field_validator("rules")
    @classmethod
    def _rules_ok(cls, value: str) -> str:
        resolve_rules(value)
        return value

    @model_validator(mode="after")
    def _one_lineup(self) -> Setting:
        teams = self.village is not None or self.werewolf is not None
        if teams and self.seats:
            raise ValueError("give either village/werewolf or seats, not both")
        if not teams and not self.seats:
            raise ValueError("give a lineup: village and werewolf agents, or a list of seats")
        if teams and (self.village is None or self.werewolf is None):
            raise ValueError("a team lineup needs both village and werewolf")
        if self.seats is not None:
            n = resolve_rules(self.rules).n_players
            if len(self.seats) != n:
                raise ValueError(f"{self.rules} has {n} seats but the lineup lists {len(self.seats)}")
        return self

    @property
    def key(self) -> str:
        """The name, or a hash of the setting (without `games`) that stays put when others are added."""
        if self.name:
            return self.name
        body = json.dumps(
            _without_empty_model_options(self.model_dump(mode="json", exclude={"games", "name", "deals"})),
            sort_keys=True,
        )
        return "s" + hashlib.sha256(body.encode()).hexdigest()[:10]


def _without_empty_model_options(data: Any) -> Any:
    """`data` without `model_options: {}` entries, so that adding the field kept old settings' keys."""
    if isinstance(data, dict):
        return {k: _without_empty_model_options(v) for k, v in data.items() if not (k == "model_options" and v == {})}
    if isinstance(data, list):
        return [_without_empty_model_options(v) for v in data]
    return data


class TournamentConfig(BaseModel):
    """A whole tournament: the run name in the store, settings, games per setting, seeds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    run: str = Field(description="run name: the scope of results in the store")
    games: int = Field(10, ge=1, description="games per setting (per side when a setting swaps)")
    seed: int = 0
    probe_days: list[int] = Field(default_factory=list, description="days whose talk ends with a role probe")
    settings: list[Setting] = Field(min_length=1)
    meta: dict[str, str] = Field(default_factory=dict, description="written into every game's record meta")

    @model_validator(mode="after")
    def _distinct(self) -> TournamentConfig:
        keys = [s.key for s in self.settings]
        dup = {k for k in keys if keys.count(k) > 1}
        if dup:
            raise ValueError(f"settings {sorted(dup)} appear twice; give them distinct names")
        return self


PRESETS: dict[str, dict[str, Any]] = {
    "smoke": {
        "run": "smoke",
        "games": 4,
        "probe_days": [2],
        "settings": [{"name": "random-guardian5", "rules": "guardian5", "village": "random", "werewolf": "random"}],
    },
    "seed000-roles": {
        "run": "seed000-roles",
        "games": 50,
        "settings": [
            {
                "name": "aiwolf5-rotation",
                "rules": "aiwolf5",
                "seats": [{"agent": "random", "label": f"player{i}"} for i in range(1, 6)],
            }
        ],
    },
    "seed002-table1": {
        # CaM-Wolf's Table 1 (win rate by side and overall), Table 2 (role identification, from the
        # day-2 probe) and Table 4 (votes received), on the embedded model: camwolf against react
        # and against recon, with and without the belief engine's grounding; every setting swaps sides.
        "run": "seed002-table1",
        "games": 50,
        "probe_days": [2],
        "settings": [
            {
                "name": f"camwolf{tag}-vs-{opponent}",
                "rules": "guardian7",
                "village": {"agent": "camwolf", "model": "local", "label": f"camwolf{tag}", "options": options},
                "werewolf": {"agent": opponent, "model": "local"},
            }
            for opponent in ("react", "recon")
            for tag, options in (("", {}), ("+beliefs", {"grounding": "beliefs"}))
        ],
    },
}


def _explain(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "config"
    msg = str(first["msg"]).removeprefix("Value error, ")
    more = f" (and {err.error_count() - 1} more problem(s))" if err.error_count() > 1 else ""
    return f"{where}: {msg}{more}"


def load_config(source: str | os.PathLike[str] | Mapping[str, Any]) -> TournamentConfig:
    """A validated tournament config from a YAML/TOML file, a preset name, or a mapping.

    Raises:
        ConfigError: a missing file, unknown preset, unreadable file or invalid field (one sentence).
    """
    if isinstance(source, Mapping):
        data: Any = dict(source)
    else:
        path = Path(source)
        if path.is_file():
            data = read_data(path, "tournament config")
        elif str(source) in PRESETS:
            data = PRESETS[str(source)]
        else:
            raise ConfigError(
                f"no tournament config file {str(source)!r}; give a .yaml/.toml path or a preset: {', '.join(PRESETS)}"
            )
    if not isinstance(data, Mapping):
        raise ConfigError("a tournament config must be a mapping with run, settings and games")
    try:
        return TournamentConfig.model_validate(data)
    except ValidationError as err:
        raise ConfigError(f"tournament config: {_explain(err)}") from None


# ----------------------------------------------------------------------------- the plan
@dataclass(frozen=True, slots=True)
class GameJob:
    """One planned game: everything a worker needs to play it (picklable)."""

    game_id: str
    run: str
    setting: str
    index: int
    rules: RuleSet
    seed: int
    seats: tuple[AgentSpec, ...]
    probe_days: tuple[int, ...] = ()
    meta: tuple[tuple[str, str], ...] = ()
    """Written into the record's meta (e.g. the reference pool the game was played against)."""

    @property
    def providers(self) -> list[str]:
        """Model providers this game calls, sorted."""
        return sorted({p for s in self.seats if (p := s.provider_key)})


def game_id_for(run: str, setting: str, index: int) -> str:
    """The fixed id of game `index` of `setting` in `run` (a ULID made from a hash)."""
    return str(ULID.from_bytes(hashlib.sha256(f"{run}/{setting}/{index}".encode()).digest()[:16]))


def _seed_for(base: int, setting: str, index: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{base}/{setting}/{index}".encode()).digest()[:6], "big")


def _rotated(rules: RuleSet, seed: int, specs: Sequence[AgentSpec], index: int) -> list[AgentSpec]:
    """Seat the agents so that agent j gets the deck's role number (j + index) mod n.

    The deal (which seat holds which role) comes from the game's seed, so seats vary at random
    while each agent cycles through every role of the deck once per n games. Which of several
    seats of one role an agent gets is drawn from the seed's own `rotation` stream, which tells
    nothing about the deal.
    """
    deal = Game(rules, seed).roles
    deck = rules.deck()
    rng = stream(seed, "rotation")
    free: dict[Any, list[int]] = defaultdict(list)
    for seat, role in enumerate(deal):
        free[role].append(seat)
    for seats in free.values():
        rng.shuffle(seats)
    lineup: list[AgentSpec | None] = [None] * len(deal)
    for j, spec in enumerate(specs):
        lineup[free[deck[(j + index) % len(deck)]].pop()] = spec
    return [s for s in lineup if s is not None]


def plan(config: TournamentConfig) -> list[GameJob]:
    """Every game of the tournament, in a fixed order with fixed ids and seeds."""
    jobs = []
    probe = tuple(config.probe_days)
    meta = tuple(sorted(config.meta.items()))
    for setting in config.settings:
        rules = resolve_rules(setting.rules)
        games = setting.games or config.games
        key = setting.key
        deals = setting.deals or key
        if setting.seats is not None:
            for i in range(games):
                seed = _seed_for(config.seed, deals, i)
                lineup = _rotated(rules, seed, setting.seats, i) if setting.rotate else list(setting.seats)
                jobs.append(
                    GameJob(
                        game_id_for(config.run, key, i), config.run, key, i, rules, seed, tuple(lineup), probe, meta
                    )
                )
            continue
        assert setting.village is not None and setting.werewolf is not None
        sides = [(setting.village, setting.werewolf)]
        if setting.swap and setting.village != setting.werewolf:
            sides.append((setting.werewolf, setting.village))
        for s, (village, werewolf) in enumerate(sides):
            for i in range(games):
                seed = _seed_for(config.seed, deals, i)  # mirrored games share the deal
                deal = Game(rules, seed).roles
                seats = tuple(village if team_of(r) is Team.VILLAGE else werewolf for r in deal)
                index = s * games + i
                jobs.append(
                    GameJob(
                        game_id_for(config.run, key, index), config.run, key, index, rules, seed, seats, probe, meta
                    )
                )
    return jobs
