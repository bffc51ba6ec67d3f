"""`lycan serve --db` is checked before the server starts, and a good path still starts it.

Before, a folder or a file that is not SQLite started a server that lost every finished game and
answered `GET /api/games` with a 500. The bad paths are refused in `test_cli_storage.py`, with every
other command's; here a good path is checked with the same helper, or reaches a stand-in for
`uvicorn.run`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from lycan import cli
from lycan.agents import RandomAgent
from lycan.engine import run_sync
from lycan.rules import get_preset
from lycan.store import GameStore

runner = CliRunner()
OFFLINE = ["--voice", "none", "--asr", "none"]  # nothing to load: the check is all that runs


def test_serve_starts_on_a_good_db(tmp_path: Path, no_server: list[dict[str, Any]]) -> None:
    db = tmp_path / "games.db"
    result = runner.invoke(cli.app, ["serve", "--db", str(db), "--port", "0", *OFFLINE])
    assert result.exit_code == 0, result.output
    assert len(no_server) == 1 and no_server[0]["port"] == 0
    assert "Lycan table at" in result.output


def test_the_check_passes_new_and_existing_databases(tmp_path: Path) -> None:
    fresh = tmp_path / "new" / "games.db"
    assert cli.writable_db(fresh) == fresh
    assert not (tmp_path / "new").exists()  # checking creates nothing
    existing = tmp_path / "games.db"
    with GameStore(existing) as store:
        store.save(run_sync(get_preset("aiwolf5"), [RandomAgent(s) for s in range(5)], 3))
    assert cli.writable_db(existing) == existing
