"""Game records as JSON Lines: one `GameRecord.to_dict()` object per line.

Export writes a temporary file next to the target and renames it, so a reader never sees half a
file. Import checks every line before it returns anything, so a malformed file adds nothing to a
store: `store.import_records(import_jsonl(path))` writes all of the file or none of it. A line
must also be a game that can have happened under its own rules: the deal must be the rules' deck
and the log must pass the conformance kit's checks (it starts, runs and ends as the engine plays).
A path ending in `.gz` is written and read gzip-compressed (a results archive kept in git is about a
tenth of its SQLite file).

A judge model's scores of the games in such a file (`lycan judge`) go in a sidecar beside it,
`RUN.judgements.jsonl` (`JudgementFile`), so the file of games itself is never rewritten.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import tempfile
from collections import Counter
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from lycan.engine.events import event_from_dict
from lycan.engine.record import GameRecord
from lycan.store.sqlite import Judgement, JudgementFields, judgement_to_dict, record_problem


class JsonlError(ValueError):
    """A JSONL file of game records that cannot be read; the message names the file, line and problem."""


def export_jsonl(records: Iterable[GameRecord], path: str | os.PathLike[str]) -> int:
    """Write `records` to `path`, one JSON object per line, replacing the file atomically.

    Returns:
        How many records were written.
    """
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    written = 0
    try:
        with os.fdopen(fd, "wb") as raw:
            gzipped = target.suffix == ".gz"
            sink: Any = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) if gzipped else contextlib.nullcontext(raw)
            with sink as out:  # closing the gzip stream writes its trailer and leaves `raw` open
                for record in records:
                    line = json.dumps(record.to_dict(), ensure_ascii=False, allow_nan=False)
                    out.write(f"{line}\n".encode())
                    written += 1
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return written


def _parse_line(text: str, check: bool = True) -> GameRecord:
    """One line's record; raises ValueError with a short description of the problem."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not valid JSON ({err.msg} at column {err.colno})") from None
    except RecursionError:
        raise ValueError("its brackets nest too deeply to be a game record") from None
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object (one game record), got {type(data).__name__}")
    events = data.get("events")
    if not isinstance(events, list):
        raise ValueError("the game record has no list of events")
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            raise ValueError(f"event {i} is not a JSON object")
        try:
            event_from_dict(event)
        except (ValueError, TypeError, KeyError) as err:
            raise ValueError(f"event {i}: {err}") from None
    try:
        record = GameRecord.from_dict(data)
    except RecursionError:
        raise ValueError("its values nest too deeply to be a game record") from None
    problem = record_problem(record)
    if problem is None and check:
        problem = impossibility(record)
    if problem is not None:
        raise ValueError(problem)
    return record


def _counts(counts: Counter[Any]) -> str:
    return ", ".join(f"{getattr(role, 'value', role)} {n}" for role, n in sorted(counts.items(), key=str))


def impossibility(record: GameRecord) -> str | None:
    """Why `record` cannot be a game played under its own rules, as one sentence; None when it can be.

    Checks the deal against the rules' deck, then the whole log with the conformance kit
    (`lycan.conformance.check_record`, without replaying: a record stays valid when a later
    engine deals from the same seed differently).
    """
    from lycan.conformance import check_record

    deck = Counter({role: n for role, n in record.rules.roles.items() if n})
    dealt = Counter(record.roles)
    if dealt != deck:
        return f"game {record.game_id} deals {_counts(dealt)}, but its rules {record.rules.name} deal {_counts(deck)}"
    problems = check_record(record, replay_game=False, round_trip=False)
    if problems:
        more = {1: "", 2: " (and 1 more problem)"}.get(len(problems), f" (and {len(problems) - 1} more problems)")
        return f"game {record.game_id} cannot have happened under its rules: {problems[0]}{more}"
    return None


def import_jsonl(path: str | os.PathLike[str], *, check: bool = True) -> list[GameRecord]:
    """Read every record of a JSONL file written by `export_jsonl` (blank lines are ignored).

    With `check` (the default) each record must also be a game that can have happened (see
    `impossibility`).

    Raises:
        JsonlError: the file cannot be read, or a line is not a valid game record (the message
            names the file, the line number and the problem).
    """
    source = Path(path).expanduser()
    try:
        data = source.read_bytes()
        text = (gzip.decompress(data) if source.suffix == ".gz" else data).decode("utf-8")
    except (gzip.BadGzipFile, EOFError) as err:
        raise JsonlError(f"{source} is not a complete gzip file ({err}); export it again") from None
    except UnicodeDecodeError as err:
        raise JsonlError(f"{source} is not UTF-8 text ({err.reason} at byte {err.start}); export it again") from None
    except OSError as err:
        raise JsonlError(f"cannot read {source}: {err.strerror or err}") from None
    records: list[GameRecord] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(_parse_line(line, check))
        except ValueError as err:
            raise JsonlError(f"{source}, line {number}: {err}") from None
    return records


# ----------------------------------------------------------------------------- judgements beside a JSONL run
def judgements_path(run: str | os.PathLike[str]) -> Path:
    """Where the judgements of the games in the JSONL file `run` go: `RUN.judgements.jsonl` beside it."""
    source = Path(run).expanduser()
    return source.with_name(source.name + ".judgements.jsonl")


class JudgementFile:
    """A judge model's judgements of a JSONL run's games, one JSON object a line, only ever appended.

    The latest line of a (game, seat, judge) wins, except that a judged seat is never replaced by
    an unjudged one. Every line is flushed to disk as it is written; a line cut off by a crash is
    dropped on the next write. The same methods as `GameStore`'s (`save_judgement`,
    `judged_seats`, `judgements`), so the judge can use either.

    Raises:
        JsonlError: the file exists but a line is not a judgement (the message names the line).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser()
        self._rows: dict[tuple[str, int, str], Judgement] | None = None

    def _load(self) -> dict[tuple[str, int, str], Judgement]:
        if self._rows is not None:
            return self._rows
        rows: dict[tuple[str, int, str], Judgement] = {}
        try:
            text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        except (OSError, UnicodeDecodeError) as err:
            raise JsonlError(f"cannot read {self.path} ({err}); move it away to judge again") from None
        lines = text.split("\n")
        if not text.endswith("\n"):
            lines = lines[:-1]  # a line cut off by a crash, or nothing
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                if not isinstance(data, dict):
                    raise ValueError("it is not a JSON object")
                judgement = Judgement.from_dict(data)
            except ValueError as err:
                raise JsonlError(f"{self.path}, line {number}: not a judgement ({err}); move the file away") from None
            key = (judgement.game_id, judgement.seat, judgement.judge)
            held = rows.get(key)
            if held is None or held.status != "judged":
                rows[key] = judgement
        self._rows = rows
        return rows

    def save_judgement(self, judgement: JudgementFields) -> bool:
        """Append `judgement` unless its seat is already judged by its judge; whether it was written.

        Raises:
            JsonlError: the file cannot be written.
        """
        rows = self._load()
        key = (judgement.game_id, judgement.seat, judgement.judge)
        held = rows.get(key)
        if held is not None and held.status == "judged":
            return False
        data = judgement_to_dict(judgement)
        line = json.dumps(data, ensure_ascii=False, allow_nan=False) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("ab") as out:
                size = out.tell()
                if size:
                    with self.path.open("rb") as back:
                        back.seek(size - 1)
                        torn = back.read(1) != b"\n"
                    if torn:  # drop the line a crash cut off, so the file stays one judgement a line
                        with self.path.open("rb") as whole:
                            kept = whole.read().rsplit(b"\n", 1)[0]
                        out.truncate(len(kept) + 1 if kept else 0)
                        out.seek(0, os.SEEK_END)
                out.write(line.encode("utf-8"))
                out.flush()
                os.fsync(out.fileno())
        except OSError as err:
            raise JsonlError(f"cannot write {self.path} ({err.strerror or err}); give a writable place") from None
        rows[key] = Judgement.from_dict(data)
        return True

    def judged_seats(self, judge: str) -> set[tuple[str, int]]:
        """The (game id, seat) pairs that `judge` has scored."""
        return {(gid, seat) for (gid, seat, by), j in self._load().items() if by == judge and j.status == "judged"}

    def judgements(self, game_ids: Collection[str] | None = None, judge: str | None = None) -> list[Judgement]:
        """The judgements in the file (of these games, by this judge, or all), by game, seat and judge."""
        wanted = None if game_ids is None else set(game_ids)
        return [
            j
            for key, j in sorted(self._load().items())
            if (judge is None or j.judge == judge) and (wanted is None or j.game_id in wanted)
        ]
