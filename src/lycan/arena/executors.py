"""Playing planned games: players for a job, one game in this process, and the executors.

Executors play `GameJob`s through the session layer and hand back records one at a time:
`LocalExecutor` (asyncio, a limit on games at once and per model provider, optionally a process
pool for CPU-bound agents) and `RayExecutor` (one game per Ray task; `RAY_ADDRESS` selects a cluster).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import AsyncExitStack
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, cast

from lycan.arena.config import AgentSpec, GameJob
from lycan.engine import GameRecord, Player, SyncPlayer, run_async, run_sync
from lycan.engine.runner import usage_of
from lycan.rules import ConfigError


# ----------------------------------------------------------------------------- playing one game
class ModelPool:
    """The chat models of the games one executor plays: one per (model spec, options), shared.

    Sharing matters for throughput: one backend object means one HTTP connection pool and one
    client set-up for all seats and games, instead of one per seat per game.
    """

    def __init__(self) -> None:
        self._models: dict[tuple[str, str], Any] = {}

    @staticmethod
    def key(spec: str, options: Mapping[str, Any] | None = None) -> tuple[str, str]:
        """The key of the one model built for `spec` with `options`."""
        return (spec, json.dumps(dict(options or {}), sort_keys=True, default=str))

    def get(self, spec: str, options: Mapping[str, Any] | None = None) -> Any:
        """The model for `spec` (a `lycan.models.load_model` spec) built with `options`, made once.

        Raises:
            ConfigError: the spec names no usable model (one sentence).
        """
        from lycan.models import ModelError, load_model

        key = self.key(spec, options)
        if key not in self._models:
            try:
                self._models[key] = load_model(spec, **dict(options or {}))
            except (ModelError, TypeError) as err:
                raise ConfigError(f"cannot load model {spec!r}: {err}") from None
        return self._models[key]

    async def aclose(self, *, keep_in_process: bool = False) -> None:
        """Close every model that holds a connection (on the loop that used them).

        With `keep_in_process`, models without a connection (the in-process llama.cpp and Hugging
        Face backends) stay in the pool for the next game, on another event loop: a process-pool
        worker loads its model once, not once per game.
        """
        models = list(self._models.items())
        self._models = {}
        for key, model in models:
            close = getattr(model, "aclose", None)
            if close is not None:
                await close()
            elif keep_in_process:
                self._models[key] = model


def _is_llm(spec: AgentSpec) -> bool:
    """Whether the seat plays through a chat model (LLM types, and `deepwolf` given a model)."""
    from lycan.agents import LLM_KINDS, MODEL_KINDS

    return spec.agent in LLM_KINDS or (spec.model is not None and spec.agent in MODEL_KINDS)


def players_for(specs: Sequence[AgentSpec], seed: int, models: ModelPool | None = None) -> list[Player]:
    """The players of one game through `lycan.agents.lineup` (each seeded with `derive(seed, "agent", seat)`).

    For LLM agent types the model spec is loaded with `lycan.models.load_model` (through `models`
    when given, so that games share one backend per spec).

    Raises:
        ConfigError: an agent type that does not take the options given, or a model that cannot be loaded.
    """
    from lycan.agents import SeatSpec, lineup

    pool = ModelPool() if models is None else models
    seats = [
        SeatSpec(
            spec.agent,
            model=pool.get(spec.model, spec.model_options) if spec.model is not None and _is_llm(spec) else None,
            options=dict(spec.options),
        )
        for spec in specs
    ]
    try:
        return lineup(seats, seed)
    except (TypeError, ValueError) as err:
        raise ConfigError(f"cannot build the players: {err}") from None


def _finish(job: GameJob, record: GameRecord, players: Sequence[object]) -> GameRecord:
    meta = dict(record.meta)
    meta.update(job.meta)
    meta.update(run=job.run, setting=job.setting, index=job.index)
    usage = {s: u for s, p in enumerate(players) if (u := usage_of(p)) is not None} or record.usage
    return replace(record, agents=tuple(s.name for s in job.seats), meta=meta, usage=usage)


def _players(job: GameJob, models: ModelPool | None = None) -> list[Player]:
    """The job's players, each seeded from its own stream (`derive(seed, "agent", seat)`).

    An agent's seed must not reveal the game's seed: from that, an agent could recompute the deal.
    """
    return players_for(job.seats, job.seed, models)


def play_job(job: GameJob, models: ModelPool | None = None) -> GameRecord:
    """Play one planned game in this process (sync fast path when every player can decide at once).

    With `models`, the game's in-process models come from that pool and stay there for later
    games (its connections are closed when the game ends); without it, every model is built for
    this game.
    """
    keep = models is not None
    models = ModelPool() if models is None else models
    players = _players(job, models)
    kw: dict[str, Any] = {"game_id": job.game_id, "probe_days": job.probe_days}
    if all(isinstance(p, SyncPlayer) for p in players):
        record = run_sync(job.rules, cast(list[SyncPlayer], players), job.seed, **kw)
    else:

        async def play() -> GameRecord:
            try:
                return await run_async(job.rules, players, job.seed, **kw)
            finally:
                await models.aclose(keep_in_process=keep)

        record = asyncio.run(play())
    return _finish(job, record, players)


# A process-pool worker's models, kept from game to game (see `LocalExecutor.processes`).
_WORKER_MODELS: ModelPool | None = None
_WORKER_THREADS = 0


def _start_worker(threads: int) -> None:
    """Pool initializer: the CPU threads each in-process model of this worker may use."""
    global _WORKER_MODELS, _WORKER_THREADS
    _WORKER_MODELS = ModelPool()
    _WORKER_THREADS = threads


def _with_threads(spec: AgentSpec, threads: int) -> AgentSpec:
    """`spec` with `n_threads` set for an in-process model that was not given a thread count."""
    from lycan.models import runs_in_process

    if threads < 1 or not spec.model or not runs_in_process(spec.model) or "n_threads" in spec.model_options:
        return spec
    return spec.model_copy(update={"model_options": {**spec.model_options, "n_threads": threads}})


def play_in_worker(job: GameJob) -> GameRecord:
    """Play one game in a process-pool worker: its in-process models are loaded once per worker."""
    seats = tuple(_with_threads(s, _WORKER_THREADS) for s in job.seats)
    return play_job(replace(job, seats=seats), _WORKER_MODELS)


def _in_process_llm(job: GameJob) -> bool:
    """Whether the job has LLM seats and every one of them runs its model inside the process."""
    from lycan.models import runs_in_process

    llm = [s for s in job.seats if s.model and _is_llm(s)]
    return bool(llm) and all(runs_in_process(str(s.model)) for s in llm)


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
    model provider p. A model that answers `n` calls at a time (`lycan.models.calls_at_once`:
    1 for the in-process llama.cpp and Hugging Face backends) has at most `games_per_call * n`
    of its games in play at once: the calls of more games would only queue behind each other,
    and the wait would count against the seats' time limits (eight camwolf games at once on
    the embedded model had 8-33 answers a game cut by the 60 s limit that way, 39% of all).

    With `processes` > 0, games whose players all decide synchronously (CPU-bound agents) run in
    a process pool of that size instead of on the event loop, and so do games whose LLM seats all
    run their model in-process (`local`, `llamacpp:`, `hf:`): each worker loads its own copy of
    the model once and plays one game at a time, so `processes` games are in play at once, each
    model given `os.cpu_count() // processes` CPU threads unless its options name `n_threads`.
    Games on served models (`openai:`) stay on the event loop, where waiting costs nothing.
    """

    concurrency: int = 8
    provider_limits: dict[str, int] = field(default_factory=dict)
    processes: int = 0
    games_per_call: int = 1

    def run(self, jobs: Sequence[GameJob], on_result: OnResult) -> None:
        """Play every job; see `Executor.run`."""
        asyncio.run(self._run(jobs, on_result))

    async def _run(self, jobs: Sequence[GameJob], on_result: OnResult) -> None:
        gate = asyncio.Semaphore(max(1, self.concurrency))
        limits = {p: asyncio.Semaphore(max(1, n)) for p, n in self.provider_limits.items()}
        pool = None
        if self.processes > 0:
            threads = max(1, (os.cpu_count() or 1) // self.processes)
            pool = ProcessPoolExecutor(self.processes, initializer=_start_worker, initargs=(threads,))
        loop = asyncio.get_running_loop()
        models = ModelPool()

        per_model: dict[tuple[str, str], asyncio.Semaphore | None] = {}

        def model_gates(job: GameJob) -> list[asyncio.Semaphore]:
            """The gates of the job's models that serve a limited number of calls, in one order."""
            from lycan.models.base import calls_at_once

            specs = {ModelPool.key(s.model, s.model_options): s for s in job.seats if s.model and _is_llm(s)}
            keys = sorted(specs)
            for key in keys:
                if key not in per_model:
                    spec = specs[key]
                    at_once = calls_at_once(models.get(str(spec.model), spec.model_options))
                    per_model[key] = (
                        None if at_once is None else asyncio.Semaphore(self.games_per_call * max(1, at_once))
                    )
            return [gate for key in keys if (gate := per_model[key]) is not None]

        async def one(job: GameJob) -> GameRecord:
            pooled = pool is not None and (_in_process_llm(job) or _all_sync(job))
            async with AsyncExitStack() as stack:
                for p in job.providers:
                    if p in limits:
                        await stack.enter_async_context(limits[p])
                if not pooled:  # a pooled game's worker has its own copy of the model
                    for model_gate in model_gates(job):
                        await stack.enter_async_context(model_gate)
                async with gate:
                    if pooled:
                        assert pool is not None
                        return await loop.run_in_executor(pool, play_in_worker, job)
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


def unreachable(address: str, timeout: float = 5.0) -> str | None:
    """Why nothing answers at a Ray head's `HOST:PORT` (None: something does, or the address is not of that form).

    Ray itself keeps retrying an address that does not answer for minutes; this asks once.
    """
    host, sep, port = address.rpartition(":")
    if not sep or "://" in address or not port.isdigit():
        return None
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return None
    except OSError as err:
        return err.strerror or type(err).__name__


def play_on_ray_node(job: GameJob) -> GameRecord:
    """`play_job` inside a Ray task; the record notes the cluster node it was played on (`meta["ray_node"]`)."""
    import ray

    record = play_job(job)
    return replace(record, meta={**record.meta, "ray_node": ray.get_runtime_context().get_node_id()})


def warm_ray_node() -> str:
    """Import what a game needs inside a Ray worker, so that the worker is ready when games come; its node's id."""
    import ray

    import lycan.agents
    import lycan.engine

    assert lycan.agents.__name__ and lycan.engine.__name__  # imported for their cost, now rather than at a game
    return str(ray.get_runtime_context().get_node_id())


def _warm_up(ray: Any, timeout: float) -> None:
    """One `warm_ray_node` task per CPU of every live node, pinned to it; waits up to `timeout` seconds."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    warm = ray.remote(num_cpus=1, max_retries=0)(warm_ray_node)
    refs = [
        warm.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=True)).remote()
        for node in ray.nodes()
        if node.get("Alive")
        for _ in range(int(node.get("Resources", {}).get("CPU", 0)))
    ]
    if refs:
        _, late = ray.wait(refs, num_returns=len(refs), timeout=timeout)
        for ref in late:  # a node still starting after `timeout`: its games will wait for it instead
            ray.cancel(ref, force=True)


@dataclass
class RayExecutor:
    """Ray: one game per task, results streamed with `ray.wait`.

    Connects to the cluster at `address` (default: the `RAY_ADDRESS` environment variable; a local
    instance when unset, with `num_cpus` CPUs). At most `max_in_flight` tasks are queued at once.
    Each record notes the node it was played on. A game whose node dies before it ends is played
    again on another node (Ray retries a task whose worker or node was lost, `max_retries` times);
    a finished game has been handed to `on_result` (and saved by the tournament) already, so a
    lost node costs only the games it was playing. Games are spread over the cluster's nodes
    (`scheduling="SPREAD"`): Ray's default keeps short tasks on the driver's node while it keeps
    up, which leaves a cluster's other machines idle; pass "DEFAULT" for Ray's own policy. Before
    the first game, every CPU of every node imports what a game needs (`warm_up` seconds at most):
    a node whose workers start slowly would otherwise get its share of games only after the
    quicker nodes have played most of theirs.
    """

    address: str | None = None
    num_cpus: int | None = None
    max_in_flight: int = 64
    shutdown: bool = False
    max_retries: int = 3
    scheduling: Literal["DEFAULT", "SPREAD"] = "SPREAD"
    warm_up: float = 120.0

    def run(self, jobs: Sequence[GameJob], on_result: OnResult) -> None:
        """Play every job; see `Executor.run`.

        Raises:
            ConfigError: Ray is not installed, or the cluster at the address cannot be reached.
        """
        try:
            import ray
        except ImportError:
            raise ConfigError("the Ray executor needs Ray: pip install 'lycan[ray]'") from None
        if not ray.is_initialized():
            address = self.address or os.environ.get("RAY_ADDRESS")
            kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address:
                problem = unreachable(address)
                if problem is not None:
                    raise ConfigError(f"cannot reach the Ray cluster at {address}: {problem}")
            try:
                if address:
                    ray.init(address=address, **kw)
                else:
                    ray.init(num_cpus=self.num_cpus, **kw)
            except (ConnectionError, TimeoutError, RuntimeError, ValueError) as err:
                first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                raise ConfigError(f"cannot reach the Ray cluster at {address or 'a local instance'}: {first}") from None
        if self.warm_up > 0 and jobs:
            _warm_up(ray, self.warm_up)
        remote = ray.remote(max_retries=self.max_retries, scheduling_strategy=self.scheduling)(play_on_ray_node)
        queue = list(jobs)
        pending: list[Any] = []
        try:
            while queue or pending:
                while queue and len(pending) < self.max_in_flight:
                    pending.append(remote.remote(queue.pop(0)))
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    try:
                        record = ray.get(ref)
                    except ray.exceptions.RayTaskError as err:  # e.g. a node without the model a seat plays on
                        cause = getattr(err, "cause", None)
                        if isinstance(cause, ConfigError):
                            where = f" ({err.ip})" if getattr(err, "ip", None) else ""
                            raise ConfigError(f"a cluster node{where} could not play a game: {cause}") from None
                        raise
                    on_result(record)
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
