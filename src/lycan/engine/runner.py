"""Drivers that run a `Game` against players: async (timeouts, concurrency) and a fast sync path.

A player is anything with `async act(view, request) -> Action`. Players that can answer without
waiting also offer `decide(view, request) -> Action`; when every player does, `run_sync` plays a
game with no event loop at all (the fast path for simulation).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from lycan.engine.actions import Action, Answer, Failure, Request
from lycan.engine.events import Event
from lycan.engine.game import Answers, Decision, Game
from lycan.engine.record import GameRecord
from lycan.engine.view import View
from lycan.rules.ruleset import RuleSet

EventHook = Callable[[Event], None]


@runtime_checkable
class Player(Protocol):
    """What the engine needs of a seat: an answer to each request, given only the seat's view."""

    async def act(self, view: View, request: Request) -> Action:
        """Answer `request`."""
        ...


@runtime_checkable
class SyncPlayer(Player, Protocol):
    """A player that can answer at once, without an event loop."""

    def decide(self, view: View, request: Request) -> Action:
        """Answer `request` synchronously."""
        ...


def _label(player: object) -> str:
    return str(getattr(player, "label", None) or getattr(player, "name", None) or type(player).__name__)


def _checked(answer: object) -> Answer:
    if isinstance(answer, Action | Failure):
        return answer
    return Failure(f"answer must be an Action, got {type(answer).__name__}")


def _decide(player: SyncPlayer, view: View, req: Request) -> Answer:
    try:
        return _checked(player.decide(view, req))
    except Exception as err:  # an agent's bug must not end the game
        return Failure(f"agent error: {type(err).__name__}: {err}")


async def _act(player: Player, view: View, req: Request) -> Answer:
    # A player may set its own `timeout` (seconds, or None for no limit), e.g. a person at a terminal.
    timeout = getattr(player, "timeout", req.timeout)
    try:
        async with asyncio.timeout(timeout):
            return _checked(await player.act(view, req))
    except TimeoutError:
        return Failure(f"no answer within {timeout:g} s")
    except Exception as err:  # an agent's bug must not end the game
        return Failure(f"agent error: {type(err).__name__}: {err}")


def _flush(game: Game, sent: int, hook: EventHook | None) -> int:
    if hook is not None:
        for event in game.events[sent:]:
            hook(event)
    return len(game.events)


def usage_of(player: object) -> dict[str, Any] | None:
    """A player's model-usage counters as a dict (its `usage` attribute), or None if it has none."""
    usage = getattr(player, "usage", None)
    if usage is None:
        return None
    if hasattr(usage, "to_dict"):
        usage = usage.to_dict()
    return dict(usage) if isinstance(usage, Mapping) else None


def _finish(game: Game, players: Sequence[object], started: float, **kw: Any) -> GameRecord:
    meta: dict[str, Any] = dict(kw.pop("meta", None) or {})
    usage = {str(s): u for s, p in enumerate(players) if (u := usage_of(p)) is not None}
    if usage:
        meta["usage"] = usage
    return GameRecord.from_game(
        game, agents=[_label(p) for p in players], started_at=started, finished_at=time.time(), meta=meta, **kw
    )


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
    game = Game(rules, seed, names, probe_days=probe_days)
    _check_seats(rules, players)
    started = time.time()
    gen = game.play()
    sent = 0
    try:
        batch = next(gen)
        while True:
            sent = _flush(game, sent, on_event)
            answers: Answers = {}
            for req in batch:
                answers[req.id] = _decide(players[req.seat], game.view(req.seat), req)
            batch = gen.send(answers)
    except StopIteration:
        pass
    _flush(game, sent, on_event)
    return _finish(game, players, started, game_id=game_id)


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
    game = Game(rules, seed, names, probe_days=probe_days)
    _check_seats(rules, players)
    started = time.time()
    gen = game.play()
    sent = 0
    try:
        batch = next(gen)
        while True:
            sent = _flush(game, sent, on_event)
            answers = await collect(game, players, batch)
            batch = gen.send(answers)
    except StopIteration:
        pass
    _flush(game, sent, on_event)
    return _finish(game, players, started, game_id=game_id)


async def collect(game: Game, players: Sequence[Player], batch: list[Request]) -> Answers:
    """Ask every request of `batch` of its seat's player, concurrently."""
    if len(batch) == 1:
        req = batch[0]
        return {req.id: await _act(players[req.seat], game.view(req.seat), req)}
    results = await asyncio.gather(*(_act(players[r.seat], game.view(r.seat), r) for r in batch))
    return {r.id: a for r, a in zip(batch, results, strict=True)}


def _check_seats(rules: RuleSet, players: Sequence[object]) -> None:
    if len(players) != rules.n_players:
        raise ValueError(f"{rules.name} needs {rules.n_players} players, got {len(players)}")


class ReplayMismatch(ValueError):
    """The recorded answers do not fit the requests the engine makes."""


def replay(record: GameRecord) -> Game:
    """Re-run a recorded game from its rules, seed and answers; returns the finished Game.

    Raises:
        ReplayMismatch: the engine asked for something the record has no answer to.

    """
    probe_days = [int(d) for d in record.meta.get("probe_days", ())]
    game = Game(record.rules, record.seed, record.names, probe_days=probe_days)
    by_id: dict[int, Decision] = {d.request: d for d in record.decisions}
    gen = game.play()
    try:
        batch = next(gen)
        while True:
            answers: Answers = {}
            for req in batch:
                d = by_id.get(req.id)
                if d is None or d.seat != req.seat or d.kind != req.kind:
                    raise ReplayMismatch(f"no recorded answer fits request {req.id} ({req.kind} for seat {req.seat})")
                answers[req.id] = d.answer
            batch = gen.send(answers)
    except StopIteration:
        pass
    return game
