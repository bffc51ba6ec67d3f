"""A tiny append-only SQLite store with the GameStore API a tournament uses (for tests).

Rows are never replaced, so a game saved twice shows up twice.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lycan.engine import GameRecord


class TinyStore:
    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(str(path), timeout=30, isolation_level=None)
        self.db.execute("CREATE TABLE IF NOT EXISTS games (id TEXT, run TEXT, body TEXT)")

    def save(self, record: GameRecord, run: str | None = None) -> bool:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO games VALUES (?, ?, ?)", (record.game_id, run, json.dumps(record.to_dict())))
        return True

    def game_ids(self, run: str | None = None) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT id FROM games WHERE run IS ?", (run,))}

    def rows(self, run: str | None = None) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM games WHERE run IS ?", (run,)).fetchone()[0])

    def iter_records(self, run: str | None = None) -> Iterator[GameRecord]:
        for (body,) in self.db.execute("SELECT body FROM games WHERE run IS ?", (run,)):
            yield GameRecord.from_dict(json.loads(body))

    def close(self) -> None:
        self.db.close()


def open_store(path: str | Path) -> Any:
    """The real GameStore when lycan.store exists, else the tiny one."""
    try:
        from lycan.store import GameStore  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return TinyStore(path)
    return GameStore(path)
