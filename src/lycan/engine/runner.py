"""Whole games in one call, over the one driver (`lycan.engine.session.Session`).

`run_sync` plays a game with no event loop when every player answers at once (the fast path for
simulation); `run_async` asks simultaneous decisions concurrently, each under its timeout;
`replay` re-runs a record from its answers alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from lycan.engine.actions import Request
from lycan.engine.game import Answers, Decision, Game
from lycan.engine.record import GameRecord
from lycan.engine.session import (
    EventHook,
    Hooks,
    LocalSeat,
    Player,
    ReplayMismatch,
    ReplaySeat,
    Session,
    SyncPlayer,
    usage_of,
)
from lycan.rules.ruleset import RuleSet

__all__ = [
    "EventHook",
    "Player",
    "ReplayMismatch",
    "SyncPlayer",
    "collect",
    "replay",
    "run_async",
    "run_sync",
    "usage_of",
]


def run_sync(
    rules: RuleSet,
    players: Sequence[SyncPlayer],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    on_event: EventHook | None = None,
    game_id: str | None = None,
    probe_days: Sequence[int] = (),
) -> GameRecord:
    """Play one game with players that all answer synchronously (`probe_days`: see `Game`)."""
    session = Session(
        rules, players, seed, names=names, game_id=game_id, probe_days=probe_days, hooks=Hooks(on_event=on_event)
    )
    return session.run_sync()


async def run_async(
    rules: RuleSet,
    players: Sequence[Player],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    on_event: EventHook | None = None,
    game_id: str | None = None,
    probe_days: Sequence[int] = (),
) -> GameRecord:
    """Play one game; simultaneous decisions are requested concurrently, each under its timeout.

    `probe_days`: see `Game`.
    """
    session = Session(
        rules, players, seed, names=names, game_id=game_id, probe_days=probe_days, hooks=Hooks(on_event=on_event)
    )
    return await session.run()


async def collect(game: Game, players: Sequence[Player], batch: list[Request]) -> Answers:
    """Ask every request of `batch` of its seat's player, concurrently (each in a `LocalSeat`)."""
    results = await asyncio.gather(*(LocalSeat(players[r.seat]).answer(game.view(r.seat), r) for r in batch))
    return {r.id: a for r, a in zip(batch, results, strict=True)}


def replay(record: GameRecord) -> Game:
    """Re-run a recorded game from its rules, seed and answers; returns the finished Game.

    Raises:
        ReplayMismatch: the engine asked for something the record has no answer to.

    """
    probe_days = record.probe_days
    by_id: dict[int, Decision] = {d.request: d for d in record.decisions}
    seat = ReplaySeat(by_id)
    session = Session(
        record.rules, [seat] * record.rules.n_players, record.seed, names=record.names, probe_days=probe_days
    )
    batch = session.start()
    while batch is not None:
        batch = session.send(session.answer_now(batch))
    return session.game
