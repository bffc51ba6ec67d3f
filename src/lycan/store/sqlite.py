"""Finished games in one SQLite file: a summary row per game, its seats, full event log and answers.

The file is opened in WAL mode and carries its schema version, so a tournament can read while it
writes and a later Lycan can tell what it is looking at. Every game is written in one transaction:
a process killed in the middle of a save leaves the game out entirely, never half of it, and saving
a game that is already there changes nothing, so a resumed run simply skips what is done.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from lycan.engine.events import Died, event_to_dict
from lycan.engine.record import GameRecord
from lycan.rules.roles import team_of

#: The schema this code writes; files with a higher version come from a newer Lycan.
#: Version 2 keeps seeds as decimal text (live tables use 128-bit seeds; SQLite integers hold 64 bits).
#: Version 3 adds the model calls of LLM seats (`GameRecord.model_calls`).
SCHEMA_VERSION = 3
#: `PRAGMA application_id` of a Lycan database ("LYCN").
APPLICATION_ID = 0x4C59434E
_EVENT_COLUMNS = ("kind", "id", "day", "phase", "vis", "audience")
#: Seeds must be smaller than this in magnitude (128 bits, the size of `lycan.engine.seeds.fresh_seed()`).
SEED_LIMIT = 2**128

_GAMES_TABLE = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    run TEXT,
    rules_name TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed TEXT NOT NULL,
    n_players INTEGER NOT NULL,
    winner TEXT NOT NULL,
    n_days INTEGER NOT NULL,
    faults INTEGER NOT NULL,
    started_at REAL NOT NULL,
    finished_at REAL NOT NULL,
    meta TEXT NOT NULL
)
"""
_GAMES_INDEXES = (
    "CREATE INDEX IF NOT EXISTS games_by_run ON games (run, started_at)",
    "CREATE INDEX IF NOT EXISTS games_by_time ON games (finished_at)",
)
_JUDGEMENTS_TABLE = """
CREATE TABLE IF NOT EXISTS judgements (
    game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    judge TEXT NOT NULL,
    agent TEXT NOT NULL,
    status TEXT NOT NULL,
    scores TEXT NOT NULL,
    reasons TEXT NOT NULL,
    error TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seat, judge)
) WITHOUT ROWID
"""
"""A judge model's scores of each seat (`lycan judge`). Made on the first judgement, so a file that
holds none is exactly what an older Lycan wrote, and the schema version does not change."""
_QUESTIONNAIRES_TABLE = """
CREATE TABLE IF NOT EXISTS questionnaires (
    study TEXT NOT NULL,
    person TEXT NOT NULL,
    dimension TEXT NOT NULL,
    paradigm TEXT NOT NULL,
    rank INTEGER NOT NULL,
    games TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (study, dimension, paradigm)
) WITHOUT ROWID
"""
"""A study participant's ranking of the interaction paradigms on each dimension (seed 002, Figure 6):
one row per (study, dimension, paradigm), rank 1 the most preferred. Made on the first answer."""
_MODEL_CALLS_TABLE = """
CREATE TABLE IF NOT EXISTS model_calls (
    game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID
"""
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS lycan_info (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
{_GAMES_TABLE};
{";".join(_GAMES_INDEXES)};
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    agent TEXT NOT NULL,
    role TEXT NOT NULL,
    team TEXT NOT NULL,
    survived INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    id INTEGER NOT NULL,
    day INTEGER NOT NULL,
    phase TEXT NOT NULL,
    kind TEXT NOT NULL,
    vis TEXT NOT NULL,
    audience TEXT,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS decisions (
    game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    request INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
{_MODEL_CALLS_TABLE};
"""


class StoreError(LookupError):
    """A game that is not in the store (or an ambiguous id), or a file that is no usable Lycan database.

    The message is one sentence saying what is wrong and what to do.
    """


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One stored game at a glance (what `GameStore.list_games` returns)."""

    game_id: str
    run: str | None
    rules: str
    seed: int
    winner: str
    n_days: int
    faults: int
    finished_at: float
    agents: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Questionnaire:
    """A study participant's answers: for each dimension, the paradigms from most to least preferred.

    `games` are the ids of the games the answers follow (the study's games, in order).
    """

    study: str
    person: str
    rankings: Mapping[str, tuple[str, ...]]
    games: tuple[str, ...] = ()
    created: float = 0.0


class JudgementFields(Protocol):
    """What the store keeps of a judgement (`lycan.eval.judge.SeatJudgement` carries it all)."""

    @property
    def game_id(self) -> str: ...  # noqa: D102

    @property
    def seat(self) -> int: ...  # noqa: D102

    @property
    def agent(self) -> str: ...  # noqa: D102

    @property
    def judge(self) -> str: ...  # noqa: D102

    @property
    def status(self) -> str: ...  # noqa: D102

    @property
    def scores(self) -> Mapping[str, int]: ...  # noqa: D102

    @property
    def reasons(self) -> Mapping[str, str]: ...  # noqa: D102

    @property
    def error(self) -> str: ...  # noqa: D102

    @property
    def created(self) -> float: ...  # noqa: D102


@dataclass(frozen=True, slots=True)
class Judgement:
    """One seat of one game as a judge model scored it, read back from a store.

    Attributes:
        game_id: the game.
        seat: the seat, 0-based.
        agent: the seat's agent label.
        judge: the judge model's spec.
        status: "judged" (scores and reasons hold every criterion asked) or "unjudged".
        scores: per criterion key, 1-5.
        reasons: per criterion key, one sentence.
        error: why the seat is unjudged ("" when judged).
        created: when the judgement was made (Unix seconds).
    """

    game_id: str
    seat: int
    agent: str
    judge: str
    status: str
    scores: dict[str, int]
    reasons: dict[str, str]
    error: str
    created: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (one line of a sidecar judgements file)."""
        return judgement_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Judgement:
        """Inverse of `to_dict`.

        Raises:
            ValueError: a field is missing or of the wrong type (the message names it).
        """
        try:
            scores = {str(k): int(v) for k, v in dict(data["scores"]).items()}
            reasons = {str(k): str(v) for k, v in dict(data["reasons"]).items()}
            judgement = cls(
                game_id=str(data["game_id"]),
                seat=int(data["seat"]),
                agent=str(data["agent"]),
                judge=str(data["judge"]),
                status=str(data["status"]),
                scores=scores,
                reasons=reasons,
                error=str(data.get("error", "")),
                created=float(data.get("created", 0.0)),
            )
        except KeyError as err:
            raise ValueError(f"the judgement has no {err.args[0]}") from None
        except (TypeError, ValueError) as err:
            raise ValueError(f"the judgement has a field of the wrong type ({err})") from None
        if judgement.status not in ("judged", "unjudged"):
            raise ValueError(f"the judgement's status is {judgement.status!r}, not judged or unjudged")
        return judgement


def judgement_to_dict(judgement: JudgementFields) -> dict[str, Any]:
    """Any judgement's stored fields as a JSON-ready dict."""
    return {
        "game_id": judgement.game_id,
        "seat": judgement.seat,
        "agent": judgement.agent,
        "judge": judgement.judge,
        "status": judgement.status,
        "scores": dict(judgement.scores),
        "reasons": dict(judgement.reasons),
        "error": judgement.error,
        "created": judgement.created,
    }


def default_db_path() -> Path:
    """Where games go unless told otherwise: `$LYCAN_DB`, else `~/.local/share/lycan/lycan.db`."""
    env = os.environ.get("LYCAN_DB")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".local" / "share" / "lycan" / "lycan.db"


def record_problem(record: GameRecord) -> str | None:
    """Why `record` cannot be stored, as one sentence; None when it is fine."""
    n = record.rules.n_players
    for what, values in (("names", record.names), ("agents", record.agents), ("roles", record.roles)):
        if len(values) != n:
            return f"game {record.game_id} has {len(values)} {what} for {n} seats"
    if not record.game_id:
        return "the game record has an empty game_id"
    if not -SEED_LIMIT < record.seed < SEED_LIMIT:
        return f"game {record.game_id} has a seed that does not fit in 128 bits ({record.seed})"
    if not record.events:
        return f"game {record.game_id} has no events"
    return None


def _is_read_only(err: sqlite3.Error | None) -> bool:
    """Whether `err` is SQLite's "attempt to write a readonly database" (any of its extended codes)."""
    return err is not None and getattr(err, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_READONLY


def check_writable(path: str | os.PathLike[str]) -> Path:
    """Check, before any game is played, that games can be saved at `path`; creates nothing new.

    An existing file must be a Lycan database that accepts writes (it is opened, and upgraded if
    it is an older one); for a new file, the nearest existing folder above it must be a writable folder.

    Returns:
        The path, with `~` expanded.

    Raises:
        StoreError: one sentence saying why not and what to do.
    """
    target = Path(path).expanduser()
    if target.exists():
        with GameStore(target) as store:
            store.ensure_writable()
        return target
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise StoreError(f"{folder} is a file, so {target} cannot be made there; give another path (or set LYCAN_DB)")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(
            f"the folder {folder} is write-protected, so {target} cannot be made there; "
            "give another path (or set LYCAN_DB)"
        )
    return target


def _meta_column(record: GameRecord) -> dict[str, Any]:
    meta = dict(record.meta)
    if record.probe_days:
        meta["probe_days"] = list(record.probe_days)
    if record.usage:
        meta["usage"] = {str(seat): counters for seat, counters in record.usage.items()}
    return meta


def _json(value: Any, what: str, game_id: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as err:
        problem = f"the {what} of game {game_id} is not plain JSON data ({err})"
        raise StoreError(f"{problem}; keep only JSON values there") from None


@dataclass(frozen=True, slots=True)
class _Rows:
    """A record flattened into the rows of each table."""

    game_id: str
    game: tuple[Any, ...]
    seats: list[tuple[Any, ...]]
    events: list[tuple[Any, ...]]
    decisions: list[tuple[Any, ...]]
    model_calls: list[tuple[Any, ...]]


def _rows(record: GameRecord, run: str | None) -> _Rows:
    problem = record_problem(record)
    if problem is not None:
        raise StoreError(f"cannot store it: {problem}")
    gid = record.game_id
    dead = {e.target for e in record.events if isinstance(e, Died)}
    game = (
        gid,
        run,
        record.rules.name,
        _json(record.rules.model_dump(mode="json"), "rules", gid),
        str(record.seed),
        record.rules.n_players,
        record.winner,
        record.n_days,
        record.faults,
        float(record.started_at),
        float(record.finished_at),
        # The probe days and model usage are typed fields of the record; the file keeps them in the
        # meta column's JSON, where older files had them, and `GameRecord.from_dict` takes them out.
        _json(_meta_column(record), "meta", gid),
    )
    seats = [
        (gid, seat, record.names[seat], record.agents[seat], role.value, team_of(role).value, seat not in dead)
        for seat, role in enumerate(record.roles)
    ]
    events = []
    for idx, event in enumerate(record.events):
        data = event_to_dict(event)
        audience = data.pop("audience")
        rest = {k: v for k, v in data.items() if k not in _EVENT_COLUMNS}
        events.append(
            (
                gid,
                idx,
                event.id,
                event.day,
                event.phase,
                event.kind,
                event.vis,
                None if audience is None else json.dumps(audience),
                _json(rest, f"event {idx}", gid),
            )
        )
    decisions = [
        (gid, idx, d.request, d.seat, d.kind, _json(d.answer.to_dict(), f"decision {idx}", gid))
        for idx, d in enumerate(record.decisions)
    ]
    calls = [
        (gid, idx, c.seat, _json(c.to_dict(), f"model call {idx}", gid)) for idx, c in enumerate(record.model_calls)
    ]
    return _Rows(gid, game, seats, events, decisions, calls)


class GameStore:
    """Finished games in one SQLite file (created, with its folder, if missing).

    Use it as a context manager or call `close()`. One store may be shared by threads; several
    processes may open the same file (writers wait for each other for up to `timeout` seconds).
    A file written by an older Lycan is upgraded in place when opened (unless it is write-protected).

    Raises:
        StoreError: the path is a folder, not an SQLite file, an SQLite file of something else, or
            cannot be opened or made.
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0) -> None:
        self.path = Path(path).expanduser()
        if self.path.is_dir():
            raise StoreError(
                f"{self.path} is a folder, not a Lycan database; give a file path such as {self.path / 'lycan.db'}"
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(
                f"cannot make the folder {self.path.parent} for {self.path.name} ({err.strerror or err}); "
                "give another path (or set LYCAN_DB)"
            ) from None
        self._lock = threading.RLock()
        try:
            self._conn: sqlite3.Connection | None = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as err:
            raise StoreError(f"cannot open {self.path} ({err}); give another path (or set LYCAN_DB)") from None
        try:
            self._prepare()
        except sqlite3.Error as err:
            self.close()
            raise StoreError(f"cannot use {self.path} ({err}); give another path (or set LYCAN_DB)") from None
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ opening
    def _not_lycan(self, detail: str) -> StoreError:
        return StoreError(
            f"{self.path} is not a Lycan game database ({detail}); "
            "give another path (or set LYCAN_DB), or move that file away"
        )

    def _prepare(self) -> None:
        conn = self._db
        try:
            tables = self._tables()
        except sqlite3.DatabaseError:
            raise self._not_lycan("it is not an SQLite file at all") from None
        if not tables:
            with self._write():
                if not self._tables():
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.executemany(
                        "INSERT INTO lycan_info (key, value) VALUES (?, ?)",
                        [("application", "lycan"), ("schema_version", str(SCHEMA_VERSION))],
                    )
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            tables = self._tables()
        if "lycan_info" not in tables:
            raise self._not_lycan("it is an SQLite file of something else, with no lycan_info table")
        info = dict(conn.execute("SELECT key, value FROM lycan_info").fetchall())
        if info.get("application") != "lycan":
            raise self._not_lycan("it is an SQLite file of another application")
        try:
            version = int(info.get("schema_version", ""))
        except ValueError:
            raise self._not_lycan("its schema version is unreadable") from None
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer Lycan (schema {version}, this one knows {SCHEMA_VERSION}); "
                "upgrade Lycan to read it"
            )
        missing = {"games", "seats", "events", "decisions"} - tables
        if missing:
            raise self._not_lycan(f"it lacks the tables {', '.join(sorted(missing))}")
        if version < SCHEMA_VERSION:
            self._migrate()
        conn.execute("PRAGMA foreign_keys = ON")
        with contextlib.suppress(sqlite3.OperationalError):  # read-only media keep their journal mode
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")

    def _migrate(self) -> None:
        """Bring an older file up to `SCHEMA_VERSION` in one transaction, keeping every game.

        Version 1 kept seeds in an INTEGER column, which holds 64 bits; version 2 keeps them as
        text; version 3 adds the table of model calls. SQLite cannot change a column's type, so
        from version 1 the games table is rebuilt (with foreign keys off, so that the seats, events
        and decisions that refer to it stay as they are). A write-protected file is left as it is:
        it can still be read, and writes fail with their own error.
        """
        conn = self._db
        if _is_read_only(self._probe_write()):
            return
        conn.execute("PRAGMA foreign_keys = OFF")
        with self._write():
            info = dict(conn.execute("SELECT key, value FROM lycan_info").fetchall())
            version = int(info.get("schema_version", "0"))
            if version >= SCHEMA_VERSION:
                return  # another process migrated it meanwhile
            conn.execute(_MODEL_CALLS_TABLE)  # version 3: a new table, nothing else changes
            if version >= 2:
                conn.execute("UPDATE lycan_info SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                return
            conn.execute(_GAMES_TABLE.replace("IF NOT EXISTS games", "games_v2", 1))
            copied = conn.execute(
                "INSERT INTO games_v2 SELECT game_id, run, rules_name, rules, CAST(seed AS TEXT), n_players, winner,"
                " n_days, faults, started_at, finished_at, meta FROM games"
            ).rowcount
            if copied != conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]:
                raise StoreError(
                    f"upgrading {self.path} would lose games; it was left as it was (read it with an older Lycan)"
                )
            conn.execute("DROP TABLE games")
            conn.execute("ALTER TABLE games_v2 RENAME TO games")
            for statement in _GAMES_INDEXES:
                conn.execute(statement)
            conn.execute("UPDATE lycan_info SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _probe_write(self) -> sqlite3.Error | None:
        """Try a write that changes nothing and is rolled back; the error it met, or None."""
        with self._lock:
            conn = self._db
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as err:
                return err
            try:
                conn.execute("UPDATE lycan_info SET value = value WHERE key = 'application'")
            except sqlite3.Error as err:
                return err
            finally:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            return None

    def _cannot_write(self, err: sqlite3.Error) -> StoreError:
        if _is_read_only(err):
            return StoreError(
                f"{self.path} is write-protected, so no game can be saved there; "
                "make it writable or give another path (or set LYCAN_DB)"
            )
        return StoreError(f"cannot write to {self.path} ({err}); give another path (or set LYCAN_DB)")

    def ensure_writable(self) -> None:
        """Check that games can be saved here, changing nothing.

        Raises:
            StoreError: the file is write-protected (or otherwise refuses a write).
        """
        err = self._probe_write()
        if err is not None:
            raise self._cannot_write(err)

    def _tables(self) -> set[str]:
        rows = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        return {str(r[0]) for r in rows}

    @property
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"the game store {self.path} is closed; open a new GameStore to use it")
        return self._conn

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything in it lands, or nothing does."""
        with self._lock:
            conn = self._db
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as err:
                raise self._cannot_write(err) from None
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException as err:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                if isinstance(err, sqlite3.Error):
                    raise self._cannot_write(err) from None
                raise

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """One consistent snapshot for several SELECTs."""
        with self._lock:
            conn = self._db
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                conn.execute("COMMIT")

    # ------------------------------------------------------------------ writing
    def save(self, record: GameRecord, run: str | None = None) -> bool:
        """Store one finished game atomically, tagged with `run` (e.g. a tournament's name).

        A game whose id is already stored is left as it is (saving again changes nothing).

        Returns:
            True if the game was written, False if it was already there.

        Raises:
            StoreError: the record cannot be stored, or the file takes no writes (the message says why).
        """
        return self.import_records([record], run=run) == 1

    def import_records(self, records: Iterable[GameRecord], run: str | None = None) -> int:
        """Store many games in one transaction: all of them, or (on any error) none.

        Games already stored, and repeats of one id, are skipped.

        Returns:
            How many games were newly written.

        Raises:
            StoreError: a record cannot be stored (the message names it); nothing was written.
        """
        prepared: dict[str, _Rows] = {}
        for record in records:
            prepared.setdefault(record.game_id, _rows(record, run))
        if not prepared:
            return 0
        added = 0
        with self._write() as conn:
            for rows in prepared.values():
                if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (rows.game_id,)).fetchone():
                    continue
                conn.execute(f"INSERT INTO games VALUES ({', '.join('?' * len(rows.game))})", rows.game)
                conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)", rows.seats)
                conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows.events)
                conn.executemany("INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?)", rows.decisions)
                conn.executemany("INSERT INTO model_calls VALUES (?, ?, ?, ?)", rows.model_calls)
                added += 1
        return added

    # ------------------------------------------------------------------ reading
    def resolve(self, game_id: str) -> str:
        """The full id of the one stored game whose id is `game_id` or starts with it.

        Raises:
            StoreError: no game matches, or several do.
        """
        key = game_id.strip()
        if not key:
            raise StoreError("an empty game id matches every game; give the id or its first few characters")
        conn = self._db
        with self._lock:
            if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (key,)).fetchone():
                return key
            matches: list[str] = []
            for prefix in dict.fromkeys((key, key.upper())):
                rows = conn.execute(
                    "SELECT game_id FROM games WHERE game_id >= ? AND game_id < ? ORDER BY game_id LIMIT 6",
                    (prefix, prefix + "\U0010ffff"),
                ).fetchall()
                matches = [str(r[0]) for r in rows]
                if matches:
                    break
        if not matches:
            raise StoreError(f"no stored game has an id starting with {key!r} in {self.path}; check the id")
        if len(matches) > 1:
            shown = ", ".join(matches[:5]) + (", ..." if len(matches) > 5 else "")
            raise StoreError(f"{key!r} matches several stored games ({shown}); give more characters of the id")
        return matches[0]

    def has(self, game_id: str) -> bool:
        """Whether a game with exactly this id is stored."""
        with self._lock:
            return self._db.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone() is not None

    def get(self, game_id: str) -> GameRecord:
        """The stored game whose id is `game_id` or uniquely starts with it.

        Raises:
            StoreError: no game matches, several do, or the stored rows are damaged.
        """
        gid = self.resolve(game_id)
        with self._read() as conn:
            game = conn.execute(
                "SELECT rules, seed, winner, started_at, finished_at, meta FROM games WHERE game_id = ?", (gid,)
            ).fetchone()
            if game is None:
                raise StoreError(f"no stored game has the id {gid!r} in {self.path}; check the id")
            seats = conn.execute(
                "SELECT name, agent, role FROM seats WHERE game_id = ? ORDER BY seat", (gid,)
            ).fetchall()
            events = conn.execute(
                "SELECT kind, id, day, phase, vis, audience, data FROM events WHERE game_id = ? ORDER BY idx", (gid,)
            ).fetchall()
            decisions = conn.execute(
                "SELECT request, seat, kind, answer FROM decisions WHERE game_id = ? ORDER BY idx", (gid,)
            ).fetchall()
            try:
                calls = conn.execute("SELECT data FROM model_calls WHERE game_id = ? ORDER BY idx", (gid,)).fetchall()
            except sqlite3.OperationalError:  # a write-protected file of schema 2 has no such table
                calls = []
        data = {
            "game_id": gid,
            "rules": json.loads(game[0]),
            "seed": int(game[1]),
            "names": [s[0] for s in seats],
            "agents": [s[1] for s in seats],
            "roles": [s[2] for s in seats],
            "winner": game[2],
            "started_at": game[3],
            "finished_at": game[4],
            "meta": json.loads(game[5]),
            "events": [
                {
                    "kind": kind,
                    "id": eid,
                    "day": day,
                    "phase": phase,
                    "vis": vis,
                    "audience": None if audience is None else json.loads(audience),
                    **json.loads(rest),
                }
                for kind, eid, day, phase, vis, audience, rest in events
            ],
            "decisions": [{"request": r, "seat": s, "kind": k, "answer": json.loads(a)} for r, s, k, a in decisions],
            "model_calls": [json.loads(c[0]) for c in calls],
        }
        try:
            return GameRecord.from_dict(data)
        except ValueError as err:
            raise StoreError(f"game {gid} in {self.path} is damaged ({err}); export the others and rebuild") from None

    def _where(self, run: str | None) -> tuple[str, tuple[Any, ...]]:
        return ("", ()) if run is None else (" WHERE run = ?", (run,))

    def list_games(self, run: str | None = None, limit: int | None = None) -> list[GameSummary]:
        """Summaries of stored games (of one `run`, or all), the most recently finished first."""
        where, args = self._where(run)
        sql = (
            "SELECT game_id, run, rules_name, seed, winner, n_days, faults, finished_at FROM games"
            f"{where} ORDER BY finished_at DESC, game_id DESC"
        )
        if limit is not None:
            sql += " LIMIT ?"
            args = (*args, max(0, int(limit)))
        with self._read() as conn:
            games = conn.execute(sql, args).fetchall()
            agents: dict[str, list[str]] = {str(g[0]): [] for g in games}
            ids = list(agents)
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                for gid, agent in conn.execute(
                    f"SELECT game_id, agent FROM seats WHERE game_id IN ({', '.join('?' * len(chunk))})"
                    " ORDER BY game_id, seat",
                    chunk,
                ):
                    agents[gid].append(agent)
        return [
            GameSummary(
                game_id=g[0],
                run=g[1],
                rules=g[2],
                seed=int(g[3]),
                winner=g[4],
                n_days=g[5],
                faults=g[6],
                finished_at=g[7],
                agents=tuple(agents[g[0]]),
            )
            for g in games
        ]

    def game_ids(self, run: str | None = None) -> set[str]:
        """The ids of stored games (of one `run`, or all): what a resumed tournament skips."""
        where, args = self._where(run)
        with self._lock:
            return {str(r[0]) for r in self._db.execute(f"SELECT game_id FROM games{where}", args)}

    def count(self, run: str | None = None) -> int:
        """How many games are stored (of one `run`, or all)."""
        where, args = self._where(run)
        with self._lock:
            return int(self._db.execute(f"SELECT COUNT(*) FROM games{where}", args).fetchone()[0])

    def iter_records(self, run: str | None = None) -> Iterator[GameRecord]:
        """Every stored game (of one `run`, or all) as a full record, oldest first."""
        where, args = self._where(run)
        with self._lock:
            sql = f"SELECT game_id FROM games{where} ORDER BY started_at, game_id"
            ids = [str(r[0]) for r in self._db.execute(sql, args)]
        for gid in ids:
            yield self.get(gid)

    # ------------------------------------------------------------------ judgements
    def save_judgement(self, judgement: JudgementFields) -> bool:
        """Keep a judge model's judgement of one seat (`lycan judge`), in the `judgements` table.

        A seat that `judgement.judge` has already scored keeps that score: a judged row is never
        replaced; an unjudged one is replaced by the next try.

        Returns:
            Whether the judgement was written.

        Raises:
            StoreError: the game is not stored here, or the file takes no writes.
        """
        row = (
            judgement.game_id,
            judgement.seat,
            judgement.judge,
            judgement.agent,
            judgement.status,
            _json(dict(judgement.scores), "judge's scores", judgement.game_id),
            _json(dict(judgement.reasons), "judge's reasons", judgement.game_id),
            judgement.error,
            float(judgement.created),
        )
        with self._write() as conn:
            if not conn.execute("SELECT 1 FROM games WHERE game_id = ?", (judgement.game_id,)).fetchone():
                raise StoreError(f"no stored game has the id {judgement.game_id!r} in {self.path}; judge stored games")
            conn.execute(_JUDGEMENTS_TABLE)
            written = conn.execute(
                "INSERT INTO judgements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, seat, judge) DO UPDATE SET agent = excluded.agent, status = excluded.status,"
                " scores = excluded.scores, reasons = excluded.reasons, error = excluded.error,"
                " created = excluded.created WHERE judgements.status != 'judged'",
                row,
            ).rowcount
        return written > 0

    def judged_seats(self, judge: str) -> set[tuple[str, int]]:
        """The (game id, seat) pairs that `judge` has scored (unjudged ones are not among them)."""
        return {(j.game_id, j.seat) for j in self.judgements(judge=judge) if j.status == "judged"}

    def judgements(self, game_ids: Collection[str] | None = None, judge: str | None = None) -> list[Judgement]:
        """Stored judgements (of these games, by this judge, or all), by game, seat and judge."""
        sql = "SELECT game_id, seat, agent, judge, status, scores, reasons, error, created FROM judgements"
        args: tuple[Any, ...] = ()
        if judge is not None:
            sql, args = sql + " WHERE judge = ?", (judge,)
        with self._read() as conn:
            if "judgements" not in self._tables():
                return []
            rows = conn.execute(sql + " ORDER BY game_id, seat, judge", args).fetchall()
        wanted = None if game_ids is None else set(game_ids)
        return [
            Judgement(
                game_id=gid,
                seat=seat,
                agent=agent,
                judge=by,
                status=status,
                scores=json.loads(scores),
                reasons=json.loads(reasons),
                error=error,
                created=created,
            )
            for gid, seat, agent, by, status, scores, reasons, error, created in rows
            if wanted is None or gid in wanted
        ]

    # ------------------------------------------------------------------ study questionnaires
    def save_questionnaire(self, answers: Questionnaire) -> None:
        """Keep a study participant's rankings (one study answers once; a second answer replaces none).

        Raises:
            StoreError: the study has answered already, a ranking is empty or repeats a paradigm,
                or the file takes no writes.
        """
        rows = []
        for dimension, order in answers.rankings.items():
            if not order or len(set(order)) != len(order):
                raise StoreError(f"the ranking for {dimension!r} must name each paradigm once")
            for rank, paradigm in enumerate(order, start=1):
                rows.append((answers.study, answers.person, dimension, paradigm, rank,
                             json.dumps(list(answers.games)), float(answers.created)))  # fmt: skip
        with self._write() as conn:
            conn.execute(_QUESTIONNAIRES_TABLE)
            if conn.execute("SELECT 1 FROM questionnaires WHERE study = ?", (answers.study,)).fetchone():
                raise StoreError(f"study {answers.study!r} has answered its questionnaire already")
            conn.executemany("INSERT INTO questionnaires VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    def questionnaires(self, studies: Collection[str] | None = None) -> list[Questionnaire]:
        """Stored questionnaire answers (of these studies, or all), by study."""
        with self._read() as conn:
            if "questionnaires" not in self._tables():
                return []
            rows = conn.execute(
                "SELECT study, person, dimension, paradigm, rank, games, created FROM questionnaires"
                " ORDER BY study, dimension, rank"
            ).fetchall()
        wanted = None if studies is None else set(studies)
        by_study: dict[str, dict[str, Any]] = {}
        for study, person, dimension, paradigm, _rank, games, created in rows:
            if wanted is not None and study not in wanted:
                continue
            entry = by_study.setdefault(study, {"person": person, "games": tuple(json.loads(games)),
                                                "created": created, "rankings": {}})  # fmt: skip
            entry["rankings"].setdefault(dimension, []).append(paradigm)
        return [
            Questionnaire(study, e["person"], {d: tuple(o) for d, o in e["rankings"].items()}, e["games"], e["created"])
            for study, e in by_study.items()
        ]

    # ------------------------------------------------------------------ closing
    def close(self) -> None:
        """Close the file; the store cannot be used afterwards (closing twice is fine)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"GameStore({str(self.path)!r})"
