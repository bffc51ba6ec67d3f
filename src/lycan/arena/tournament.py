"""Running a tournament: plan, skip what the store holds, play the rest, save each game atomically.

A run killed at any moment loses at most the games in flight and never counts a game twice.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from lycan.arena.config import TournamentConfig, load_config, plan
from lycan.arena.executors import Executor, make_executor
from lycan.engine import GameRecord
from lycan.rules import ConfigError


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
    """Prompt plus completion tokens in `record.usage` (0 when absent)."""
    return sum(
        int(u.get("prompt_tokens", 0) or 0) + int(u.get("completion_tokens", 0) or 0) for u in record.usage.values()
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
