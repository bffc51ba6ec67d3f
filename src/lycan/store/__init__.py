"""Stored games: an SQLite database of finished games, and JSON Lines export and import.

`GameStore(path)` keeps every game's summary, seats, full event log and answers in one file
(`default_db_path()` unless told otherwise); `export_jsonl` / `import_jsonl` move records between
stores and tools as plain text.
"""

from lycan.store.jsonl import JsonlError, export_jsonl, import_jsonl
from lycan.store.sqlite import (
    SCHEMA_VERSION,
    SEED_LIMIT,
    GameStore,
    GameSummary,
    Questionnaire,
    StoreError,
    check_writable,
    default_db_path,
    record_problem,
)

__all__ = [
    "SCHEMA_VERSION",
    "SEED_LIMIT",
    "GameStore",
    "GameSummary",
    "JsonlError",
    "Questionnaire",
    "StoreError",
    "check_writable",
    "default_db_path",
    "export_jsonl",
    "import_jsonl",
    "record_problem",
]
