"""`lycan serve --db` is checked before the server starts: a bad path is one sentence and exit status 2.

Before, a folder or a file that is not SQLite started a server that lost every finished game and
answered `GET /api/games` with a 500. No test here starts a server: a bad path fails before uvicorn
runs, and a good one is checked with the same helper, or reaches a stand-in for `uvicorn.run`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from _protect import write_protected
from lycan import cli
from lycan.agents import RandomAgent
from lycan.engine import run_sync
from lycan.rules import get_preset
from lycan.store import GameStore

runner = CliRunner()
OFFLINE = ["--voice", "none", "--asr", "none"]  # nothing to load: the check is all that runs


def bad_db(kind: str, tmp_path: Path) -> Path:
    """A `--db` path no game can be saved at, and why not (`kind`)."""
    if kind == "folder":
        path = tmp_path / "folder.db"
        path.mkdir()
    elif kind == "not SQLite":
        path = tmp_path / "notes.db"
        path.write_text("these are my notes, not a database\n" * 200)
    elif kind == "under a file":
        (tmp_path / "file").write_text("x")
        path = tmp_path / "file" / "games.db"
    else:  # write-protected (by the caller)
        path = tmp_path / "locked.db"
        with GameStore(path) as store:
            store.save(run_sync(get_preset("aiwolf5"), [RandomAgent(s) for s in range(5)], 3))
    return path


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Replace `uvicorn.run` with a stand-in that records its calls, so that no test starts a server."""
    uvicorn = pytest.importorskip("uvicorn")
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append({"app": app, **options}))
    return calls


@pytest.mark.parametrize(
    ("kind", "needle"),
    [
        ("folder", "is a folder"),
        ("not SQLite", "not an SQLite file"),
        ("under a file", "is a file"),
        ("write-protected", "is write-protected"),
    ],
)
def test_serve_refuses_a_bad_db_in_one_sentence_before_starting(
    tmp_path: Path, no_server: list[dict[str, Any]], kind: str, needle: str
) -> None:
    db = bad_db(kind, tmp_path)
    before = db.read_bytes() if db.is_file() else None
    args = ["serve", "--db", str(db), "--port", "0", *OFFLINE]
    if kind == "write-protected":
        with write_protected(db):
            result = runner.invoke(cli.app, args)
    else:
        result = runner.invoke(cli.app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert needle in lines[0] and "Traceback" not in result.output
    assert no_server == []  # the server never started
    assert (db.read_bytes() if db.is_file() else None) == before  # and nothing was written


def test_serve_starts_on_a_good_db(tmp_path: Path, no_server: list[dict[str, Any]]) -> None:
    db = tmp_path / "games.db"
    result = runner.invoke(cli.app, ["serve", "--db", str(db), "--port", "0", *OFFLINE])
    assert result.exit_code == 0, result.output
    assert len(no_server) == 1 and no_server[0]["port"] == 0
    assert "Lycan table at" in result.output


def test_the_check_passes_new_and_existing_databases(tmp_path: Path) -> None:
    fresh = tmp_path / "new" / "games.db"
    assert cli._writable_db(fresh) == fresh
    assert not (tmp_path / "new").exists()  # checking creates nothing
    existing = bad_db("write-protected", tmp_path)  # a good Lycan database while it is not protected
    assert cli._writable_db(existing) == existing
