"""Tournaments: a validated config becomes a plan of games with fixed ids; executors play them.

A config (YAML or TOML, or a preset name) lists *settings*. A setting has a rule set and either a
team lineup (`village` and `werewolf`: one agent spec plays every seat of its team; `swap` also
plays the mirrored games) or a per-seat lineup (`seats`: one spec per seat, rotated so that every
agent plays every role of the deck in turn, while the seats follow the seeded deal).

Every planned game has an id derived from (run, setting, index) and its seed from (config seed,
setting, index), so re-running a tournament skips the games the store already holds: a run killed
at any moment loses at most the games in flight and never counts a game twice.

Executors play `GameJob`s and hand back records one at a time: `LocalExecutor` (asyncio, a limit
on games at once and per model provider, optionally a process pool for CPU-bound agents) and
`RayExecutor` (one game per Ray task; `RAY_ADDRESS` selects a cluster).
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import json
import os
import time
import tomllib
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import AsyncExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, cast

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from ulid import ULID

from lycan.engine import GameRecord, Player, SyncPlayer, run_async, run_sync
from lycan.engine.game import Game
from lycan.engine.runner import usage_of
from lycan.engine.seeds import derive, stream
from lycan.rules import ConfigError, RuleSet, resolve_rules
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
            _without_empty_model_options(self.model_dump(mode="json", exclude={"games", "name"})), sort_keys=True
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
        "run": "seed002-table1",
        "games": 50,
        "probe_days": [2],
        "settings": [
            {"name": "heuristic-vs-random", "rules": "guardian7", "village": "heuristic", "werewolf": "random"},
            {"name": "random-vs-random", "rules": "guardian7", "village": "random", "werewolf": "random"},
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
            try:
                text = path.read_text()
                data = tomllib.loads(text) if path.suffix == ".toml" else yaml.safe_load(text)
            except (OSError, tomllib.TOMLDecodeError, yaml.YAMLError) as err:
                raise ConfigError(f"cannot read tournament config {path}: {err}") from None
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
    for setting in config.settings:
        rules = resolve_rules(setting.rules)
        games = setting.games or config.games
        key = setting.key
        if setting.seats is not None:
            for i in range(games):
                seed = _seed_for(config.seed, key, i)
                lineup = _rotated(rules, seed, setting.seats, i) if setting.rotate else list(setting.seats)
                jobs.append(
                    GameJob(game_id_for(config.run, key, i), config.run, key, i, rules, seed, tuple(lineup), probe)
                )
            continue
        assert setting.village is not None and setting.werewolf is not None
        sides = [(setting.village, setting.werewolf)]
        if setting.swap and setting.village != setting.werewolf:
            sides.append((setting.werewolf, setting.village))
        for s, (village, werewolf) in enumerate(sides):
            for i in range(games):
                seed = _seed_for(config.seed, key, i)  # mirrored games share the deal
                deal = Game(rules, seed).roles
                seats = tuple(village if team_of(r) is Team.VILLAGE else werewolf for r in deal)
                index = s * games + i
                jobs.append(
                    GameJob(game_id_for(config.run, key, index), config.run, key, index, rules, seed, seats, probe)
                )
    return jobs


# ----------------------------------------------------------------------------- playing one game
class ModelPool:
    """The chat models of the games one executor plays: one per (model spec, options), shared.

    Sharing matters for throughput: one backend object means one HTTP connection pool and one
    client set-up for all seats and games, instead of one per seat per game.
    """

    def __init__(self) -> None:
        self._models: dict[tuple[str, str], Any] = {}

    def get(self, spec: str, options: Mapping[str, Any] | None = None) -> Any:
        """The model for `spec` (a `lycan.models.load_model` spec) built with `options`, made once.

        Raises:
            ConfigError: the spec names no usable model (one sentence).
        """
        from lycan.models import ModelError, load_model

        key = (spec, json.dumps(dict(options or {}), sort_keys=True, default=str))
        if key not in self._models:
            try:
                self._models[key] = load_model(spec, **dict(options or {}))
            except (ModelError, TypeError) as err:
                raise ConfigError(f"cannot load model {spec!r}: {err}") from None
        return self._models[key]

    async def aclose(self) -> None:
        """Close every model that holds a connection (on the loop that used them)."""
        models, self._models = list(self._models.values()), {}
        for model in models:
            close = getattr(model, "aclose", None)
            if close is not None:
                await close()


def _is_llm(spec: AgentSpec) -> bool:
    from lycan.agents import LLM_KINDS

    return spec.agent in LLM_KINDS


def build_player(spec: AgentSpec, seed: int, models: ModelPool | None = None) -> Player:
    """A new player for `spec`: `make_agent(agent, seed)`, with `model=` and options when given.

    For LLM agent types the model spec is loaded with `lycan.models.load_model` (through `models`
    when given, so that games share one backend per spec); other types get the string as it is.

    Raises:
        ConfigError: the agent type does not accept a model or the options, or the model cannot be loaded.
    """
    from lycan.agents import AGENT_KINDS, make_agent

    if spec.model is None and not spec.options:
        return make_agent(spec.agent, seed)
    factory = cast(Callable[..., Player], AGENT_KINDS[spec.agent])
    kwargs = dict(spec.options)
    if spec.model is not None:
        kwargs["model"] = (
            (ModelPool() if models is None else models).get(spec.model, spec.model_options)
            if _is_llm(spec)
            else spec.model
        )
    try:
        return factory(seed, **kwargs)
    except TypeError as err:
        raise ConfigError(f"agent type {spec.agent!r} does not take {sorted(kwargs)}: {err}") from None


def _finish(job: GameJob, record: GameRecord, players: Sequence[object]) -> GameRecord:
    meta = dict(record.meta)
    meta.update(run=job.run, setting=job.setting, index=job.index)
    usage = {str(s): u for s, p in enumerate(players) if (u := usage_of(p)) is not None}
    if usage:
        meta["usage"] = usage
    return replace(record, agents=tuple(s.name for s in job.seats), meta=meta)


def _players(job: GameJob, models: ModelPool | None = None) -> list[Player]:
    """The job's players, each seeded from its own stream (`derive(seed, "agent", seat)`).

    An agent's seed must not reveal the game's seed: from that, an agent could recompute the deal.
    """
    return [build_player(spec, derive(job.seed, "agent", seat), models) for seat, spec in enumerate(job.seats)]


def play_job(job: GameJob) -> GameRecord:
    """Play one planned game in this process (sync fast path when every player can decide at once)."""
    models = ModelPool()
    players = _players(job, models)
    kw: dict[str, Any] = {"game_id": job.game_id, "probe_days": job.probe_days}
    if all(isinstance(p, SyncPlayer) for p in players):
        record = run_sync(job.rules, cast(list[SyncPlayer], players), job.seed, **kw)
    else:

        async def play() -> GameRecord:
            try:
                return await run_async(job.rules, players, job.seed, **kw)
            finally:
                await models.aclose()

        record = asyncio.run(play())
    return _finish(job, record, players)


async def play_job_async(job: GameJob, models: ModelPool | None = None) -> GameRecord:
    """Play one planned game on the running event loop (LLM seats take their models from `models`)."""
    own = models is None
    pool = ModelPool() if models is None else models
    try:
        players = _players(job, pool)
        record = await run_async(job.rules, players, job.seed, game_id=job.game_id, probe_days=job.probe_days)
        return _finish(job, record, players)
    finally:
        if own:
            await pool.aclose()


# ----------------------------------------------------------------------------- executors
OnResult = Callable[[GameRecord], None]


class Executor(Protocol):
    """Plays jobs and hands back each record as soon as it is finished."""

    def run(self, jobs: Sequence[GameJob], on_result: OnResult) -> None:
        """Play every job; call `on_result` (in this thread) once per finished game."""
        ...


@dataclass
class LocalExecutor:
    """asyncio in this process, with limits on games at once.

    At most `concurrency` games run at once, and at most `provider_limits[p]` of them call
    model provider p.

    With `processes` > 0, games whose players all decide synchronously (CPU-bound agents) run in
    a process pool of that size instead of on the event loop.
    """

    concurrency: int = 8
    provider_limits: dict[str, int] = field(default_factory=dict)
    processes: int = 0

    def run(self, jobs: Sequence[GameJob], on_result: OnResult) -> None:
        """Play every job; see `Executor.run`."""
        asyncio.run(self._run(jobs, on_result))

    async def _run(self, jobs: Sequence[GameJob], on_result: OnResult) -> None:
        gate = asyncio.Semaphore(max(1, self.concurrency))
        limits = {p: asyncio.Semaphore(max(1, n)) for p, n in self.provider_limits.items()}
        pool = ProcessPoolExecutor(self.processes) if self.processes > 0 else None
        loop = asyncio.get_running_loop()
        models = ModelPool()

        async def one(job: GameJob) -> GameRecord:
            async with AsyncExitStack() as stack:
                for p in job.providers:
                    if p in limits:
                        await stack.enter_async_context(limits[p])
                async with gate:
                    if pool is not None and _all_sync(job):
                        return await loop.run_in_executor(pool, play_job, job)
                    return await play_job_async(job, models)

        try:
            pending = {asyncio.ensure_future(one(j)) for j in jobs}
            while pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    on_result(task.result())
        finally:
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
            await models.aclose()
            if pool is not None:
                pool.shutdown(cancel_futures=True)


def _all_sync(job: GameJob) -> bool:
    if any(_is_llm(s) for s in job.seats):
        return False
    return all(isinstance(p, SyncPlayer) for p in _players(job))


@dataclass
class RayExecutor:
    """Ray: one game per task, results streamed with `ray.wait`.

    Connects to `address` (default: the `RAY_ADDRESS` environment variable; a local instance when
    unset, with `num_cpus` CPUs). At most `max_in_flight` tasks are queued at once.
    """

    address: str | None = None
    num_cpus: int | None = None
    max_in_flight: int = 64
    shutdown: bool = False

    def run(self, jobs: Sequence[GameJob], on_result: OnResult) -> None:
        """Play every job; see `Executor.run`."""
        try:
            import ray
        except ImportError:
            raise ConfigError("the Ray executor needs Ray: pip install 'lycan[ray]'") from None
        if not ray.is_initialized():
            address = self.address or os.environ.get("RAY_ADDRESS")
            kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address:
                ray.init(address=address, **kw)
            else:
                ray.init(num_cpus=self.num_cpus, **kw)
        remote = ray.remote(play_job)
        queue = list(jobs)
        pending: list[Any] = []
        try:
            while queue or pending:
                while queue and len(pending) < self.max_in_flight:
                    pending.append(remote.remote(queue.pop(0)))
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    on_result(ray.get(ref))
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            if self.shutdown:
                ray.shutdown()


def make_executor(name: str | Executor, **options: Any) -> Executor:
    """`local` or `ray` (with their options), or an executor object as it is.

    Raises:
        ConfigError: an unknown executor name.
    """
    if not isinstance(name, str):
        return name
    if name == "local":
        return LocalExecutor(**options)
    if name == "ray":
        return RayExecutor(**options)
    raise ConfigError(f"unknown executor {name!r}; use local or ray")


# ----------------------------------------------------------------------------- running
class Store(Protocol):
    """The part of `lycan.store.GameStore` a tournament uses."""

    def save(self, record: GameRecord, run: str | None = None) -> bool:
        """Store one record atomically under `run`."""
        ...

    def game_ids(self, run: str | None = None) -> set[str]:
        """Ids of the stored games of `run`."""
        ...


@dataclass
class TournamentResult:
    """What one call of `run_tournament` did."""

    run: str
    planned: int
    skipped: int
    played: int = 0
    faults: int = 0
    tokens: int = 0
    seconds: float = 0.0

    @property
    def games_per_minute(self) -> float:
        """Games finished per minute of wall time in this call."""
        return 60 * self.played / self.seconds if self.seconds > 0 else 0.0


def record_tokens(record: GameRecord) -> int:
    """Prompt plus completion tokens in `record.meta["usage"]` (0 when absent)."""
    usage = record.meta.get("usage")
    if not isinstance(usage, Mapping):
        return 0
    return sum(
        int(u.get("prompt_tokens", 0) or 0) + int(u.get("completion_tokens", 0) or 0)
        for u in usage.values()
        if isinstance(u, Mapping)
    )


def run_tournament(
    config_path: str | os.PathLike[str] | TournamentConfig,
    db: str | os.PathLike[str] | None = None,
    executor: str | Executor = "local",
    *,
    store: Store | None = None,
    progress: bool = True,
    on_record: Callable[[GameRecord], None] | None = None,
) -> TournamentResult:
    """Play every game of a tournament that the store does not hold yet, saving each as it ends.

    Args:
        config_path: a YAML/TOML file, a preset name (see `PRESETS`), or a loaded config.
        db: the SQLite file of the `lycan.store.GameStore` to use (ignored when `store` is given).
        executor: `local`, `ray`, or an `Executor` object.
        store: any object with `save(record, run=)` and `game_ids(run=)` (default: `GameStore(db)`).
        progress: show a rich progress bar with ETA, games/min, faults and tokens so far.
        on_record: called with each record after it is saved.

    Returns:
        How many games were planned, skipped as already stored, and played; faults and tokens of
        the games played; wall time.

    Raises:
        ConfigError: an invalid config or executor (one sentence).
    """
    config = config_path if isinstance(config_path, TournamentConfig) else load_config(config_path)
    own_store = store is None
    if store is None:
        if db is None:
            raise ConfigError("give a database path (db) or a store")
        store = cast(Store, importlib.import_module("lycan.store").GameStore(db))
    try:
        jobs = plan(config)
        done = store.game_ids(run=config.run)
        todo = [j for j in jobs if j.game_id not in done]
        result = TournamentResult(config.run, len(jobs), len(jobs) - len(todo))
        started = time.monotonic()
        with _Progress(progress, config.run, len(jobs), result.skipped) as bar:

            def saved(record: GameRecord) -> None:
                assert store is not None
                store.save(record, run=config.run)
                result.played += 1
                result.faults += record.faults
                result.tokens += record_tokens(record)
                result.seconds = time.monotonic() - started
                bar.update(result)
                if on_record is not None:
                    on_record(record)

            if todo:
                make_executor(executor).run(todo, saved)
        result.seconds = time.monotonic() - started
        return result
    finally:
        if own_store and hasattr(store, "close"):
            store.close()


class _Progress:
    """A rich progress bar (or nothing) for a tournament."""

    def __init__(self, enabled: bool, run: str, total: int, skipped: int) -> None:
        self.enabled = enabled
        self.bar: Any = None
        if enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                TextColumn(
                    "{task.fields[rate]:.1f} games/min  faults {task.fields[faults]}  tokens {task.fields[tokens]}"
                ),
            )
            self.task = self.bar.add_task(run, total=total, completed=skipped, rate=0.0, faults=0, tokens=0)
        self.skipped = skipped

    def __enter__(self) -> _Progress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def update(self, result: TournamentResult) -> None:
        if self.bar is not None:
            self.bar.update(
                self.task,
                completed=self.skipped + result.played,
                rate=result.games_per_minute,
                faults=result.faults,
                tokens=result.tokens,
            )
