"""Game records as JSON Lines: one `GameRecord.to_dict()` object per line.

Export writes a temporary file next to the target and renames it, so a reader never sees half a
file. Import checks every line before it returns anything, so a malformed file adds nothing to a
store: `store.import_records(import_jsonl(path))` writes all of the file or none of it.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
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
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            for record in records:
                out.write(json.dumps(record.to_dict(), ensure_ascii=False, allow_nan=False))
                out.write("\n")
                written += 1
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return written


def _parse_line(text: str) -> GameRecord:
    """One line's record; raises ValueError with a short description of the problem."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not valid JSON ({err.msg} at column {err.colno})") from None
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
    record = GameRecord.from_dict(data)
    problem = record_problem(record)
    if problem is not None:
        raise ValueError(problem)
    return record


def import_jsonl(path: str | os.PathLike[str]) -> list[GameRecord]:
    """Read every record of a JSONL file written by `export_jsonl` (blank lines are ignored).

    Raises:
        JsonlError: the file cannot be read, or a line is not a valid game record (the message
            names the file, the line number and the problem).
    """
    source = Path(path).expanduser()
    try:
        text = source.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise JsonlError(f"{source} is not UTF-8 text ({err.reason} at byte {err.start}); export it again") from None
    except OSError as err:
        raise JsonlError(f"cannot read {source}: {err.strerror or err}") from None
    records: list[GameRecord] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(_parse_line(line))
        except ValueError as err:
            raise JsonlError(f"{source}, line {number}: {err}") from None
    return records
