"""Game records as JSON Lines: one `GameRecord.to_dict()` object per line.

Export writes a temporary file next to the target and renames it, so a reader never sees half a
file. Import checks every line before it returns anything, so a malformed file adds nothing to a
store: `store.import_records(import_jsonl(path))` writes all of the file or none of it. A line
must also be a game that can have happened under its own rules: the deal must be the rules' deck
and the log must pass the conformance kit's checks (it starts, runs and ends as the engine plays).
A path ending in `.gz` is written and read gzip-compressed (a results archive kept in git is about a
tenth of its SQLite file).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lycan.engine.events import event_from_dict
from lycan.engine.record import GameRecord
from lycan.store.sqlite import record_problem


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
