"""Stored games in the browser: the list, and any finished game step by step as one reader saw it.

`game_for_viewer(record, seat)` is what the viewer page steps through: the events `seat` saw
(None: the public record, as every spectator saw it), each with its line, and after each the
suspicion meter read from that same view alone (`lycan.beliefs.meter`), marked where each day's
talk, vote and night end. The true roles come with it: only finished games are served, and their
roles were revealed to everyone at the end.

`StoredGames` serves them from the store the tables save to: the record of a game still being
played is never served (it is not stored before it ends, and a table still playing it is checked
too), nor are seeds, model calls or the record-only events. Working out a meter for every step of a
13-player game takes seconds, so it runs in worker threads, a few at a time, the last views worked
out are kept, and the cost is bounded: only a few requests may wait for a worker (others are told
to come back), and each network may have only so many views worked out in a while.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from fastapi import HTTPException

from lycan.beliefs.meter import Meter
from lycan.engine.events import GameOver, event_to_dict
from lycan.engine.record import GameRecord
from lycan.engine.stepping import checkpoints, view_at
from lycan.render import describe_event
from lycan.rules import team_of
from lycan.web.limits import CreationLimit

StoredGamesMode = Literal["all", "web", "none"]
"""Which stored games a server shows: all of them, only those played at its tables (run `web`), or none."""

GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
"""What a game id in a request may look like (ULIDs, and the ids of imported games)."""

MAX_LISTED = 500
"""The most games one list request returns."""


def _readings(record: GameRecord, upto: int, seat: int | None, reader: Meter) -> list[dict[str, Any]] | None:
    try:
        readings = reader.read(view_at(record.events, record.rules, record.names, upto, seat))
    except ValueError:  # a record no deal fits (e.g. a damaged import): no meter, the game still shows
        return None
    return [r.to_dict() for r in readings]


def game_for_viewer(record: GameRecord, seat: int | None = None) -> dict[str, Any]:
    """The finished game `record` as `seat` saw it (None: the public record), for the viewer page.

    `events` holds exactly the events that reader saw (`lycan.engine.visible` or `public`), as
    `event_to_dict` writes them. `steps` holds one entry per event worth a line: its index in
    `events`, the line, how many public events had been seen by then (`public`, to find the same
    moment in another reader's view), the checkpoints it closes, and the meter after it (for the
    last, the game's end, the meter just before the reveal).

    Raises:
        ValueError: the game has not finished.
    """
    events = record.events
    if not events or not isinstance(events[-1], GameOver):
        raise ValueError(f"game {record.game_id} has not finished")
    ends = {point.position: point.label for point in checkpoints(events)}
    reader = Meter()
    shown: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    seen_public = 0
    for i, event in enumerate(events):
        if i in ends and steps:
            steps[-1]["checkpoints"].append(ends[i])
        if not (event.audience is None if seat is None else event.visible_to(seat)):
            continue
        shown.append(event_to_dict(event))
        seen_public += event.audience is None
        text = describe_event(event, record.names, viewer=seat)
        if text is None:
            continue
        end = isinstance(event, GameOver)
        steps.append(
            {
                "event": len(shown) - 1,
                "kind": event.kind,
                "day": event.day,
                "phase": event.phase,
                "text": text,
                "private": event.audience is not None,
                "public": seen_public,
                "checkpoints": [],
                "meter": _readings(record, i if end else i + 1, seat, reader),
            }
        )
    over = events[-1]
    assert isinstance(over, GameOver)
    return {
        "game_id": record.game_id,
        "rules": record.rules.name,
        "title": record.rules.describe(),
        "names": list(record.names),
        "agents": list(record.agents),
        "viewer": seat,
        "role": None if seat is None else record.roles[seat].value,
        "winner": record.winner,
        "reason": over.reason,
        "roles": [
            {"seat": s, "name": record.names[s], "role": role.value, "team": team_of(role).value}
            for s, role in enumerate(record.roles)
        ],
        "events": shown,
        "steps": steps,
    }


class StoredGames:
    """The stored games a server shows, and their views for the viewer page.

    Args:
        store_path: the SQLite file the tables save to (None: no games).
        mode: which games to show (see `StoredGamesMode`).
        playing: whether a table of this server is still playing the game with this id.
        cache_size: views kept once worked out.
        workers: views worked out at once; more requests wait their turn.
        waiting: requests that may wait for a worker; more are answered 503 at once.
        per_client: (count, seconds): views a network may have worked out (not served from the cache)
            in any `seconds`; None: no limit.
    """

    def __init__(
        self,
        store_path: str | Path | None,
        mode: StoredGamesMode,
        playing: Callable[[str], bool],
        *,
        cache_size: int = 32,
        workers: int = 2,
        waiting: int = 4,
        per_client: tuple[int, float] | None = (30, 600.0),
    ) -> None:
        self.path = Path(store_path) if store_path is not None and mode != "none" else None
        self.run = "web" if mode == "web" else None
        self.playing = playing
        self.cache: OrderedDict[tuple[str, int | None], dict[str, Any]] = OrderedDict()
        self.cache_size = cache_size
        self.workers = workers
        self.waiting = waiting
        self._queued = 0
        self.limit = CreationLimit(*per_client) if per_client is not None else None
        self._turns: asyncio.Semaphore | None = None  # made on the server's loop, at first use

    def _available(self) -> Path | None:
        return self.path if self.path is not None and self.path.exists() else None

    async def summaries(self, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` games (at most `MAX_LISTED`), without their seeds."""
        path = self._available()
        if path is None:
            return []

        def read() -> list[dict[str, Any]]:
            from lycan.store import GameStore

            with GameStore(path) as store:
                rows = store.list_games(run=self.run, limit=max(0, min(limit, MAX_LISTED)))
            return [
                {
                    "game_id": r.game_id,
                    "run": r.run,
                    "rules": r.rules,
                    "winner": r.winner,
                    "days": r.n_days,
                    "faults": r.faults,
                    "finished_at": r.finished_at,
                    "agents": list(r.agents),
                }
                for r in rows
                if not self.playing(r.game_id)
            ]

        return await asyncio.to_thread(read)

    async def game(self, game_id: str, seat: int | None, client: str = "unknown") -> dict[str, Any]:
        """The finished game `game_id` (its whole id) as `seat` saw it (None: the public record).

        `client` is the asker's network (`lycan.web.limits.client_key`), for the per-network limit.

        Raises:
            HTTPException: 400 for a malformed id or a seat the game lacks; 404 for a game not
                stored here, not shown by this server, or still being played; 429 for a network
                over its limit; 503 when too many views are waiting to be worked out.
        """
        if not GAME_ID.fullmatch(game_id):
            raise HTTPException(400, "a game id is 1 to 64 letters, digits, '-' or '_'; take one from /api/games")
        path = self._available()
        if path is None:
            raise HTTPException(404, "this server shows no stored games")
        if self.playing(game_id):
            raise HTTPException(404, "that game is still being played; watch it live, and replay it here once it ends")
        key = (game_id, seat)
        cached = self.cache.get(key)
        if cached is not None:
            self.cache.move_to_end(key)
            return cached

        def work() -> dict[str, Any]:
            from lycan.store import GameStore, StoreError

            try:
                with GameStore(path) as store:
                    if not store.has(game_id) or (self.run is not None and game_id not in store.game_ids(self.run)):
                        raise HTTPException(404, "no stored game on this server has that id; see /api/games")
                    record = store.get(game_id)
            except StoreError:  # its message names the server's files: not for the browser
                raise HTTPException(503, "the stored games cannot be read just now; try again later") from None
            if seat is not None and not 0 <= seat < len(record.names):
                raise HTTPException(400, f"'as' must be a seat from 0 to {len(record.names) - 1}, or left out")
            try:
                return game_for_viewer(record, seat)
            except ValueError as err:
                raise HTTPException(404, str(err)) from None

        now = time.monotonic()
        if self.limit is not None and (wait := self.limit.wait(client, now)) > 0:
            seconds = math.ceil(wait)
            raise HTTPException(
                429,
                f"you have opened {self.limit.count} stored games in the last {self.limit.window:g} seconds, the "
                f"most this server works out for one network; try again in {seconds} seconds",
                headers={"Retry-After": str(seconds)},
            )
        if self._queued >= self.workers + self.waiting:
            raise HTTPException(
                503,
                "the server is busy working out other stored games; try again shortly",
                headers={"Retry-After": "5"},
            )
        if self._turns is None:
            self._turns = asyncio.Semaphore(self.workers)
        if self.limit is not None:
            self.limit.note(client, now)
        self._queued += 1
        try:
            async with self._turns:
                view = await asyncio.to_thread(work)
        finally:
            self._queued -= 1
        self.cache[key] = view
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        return view
