"""`lycan` on bad storage and bad records: one sentence, exit status 2, nothing played or written."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from _protect import write_protected
from lycan.agents import RandomAgent
from lycan.cli import app
from lycan.engine import GameRecord, run_sync
from lycan.rules import Role, get_preset
from lycan.store import GameStore, export_jsonl

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def one_sentence(code: int, out: str) -> str:
    """The error line of a refused command (and that it was all the command printed)."""
    assert code == 2, out
    assert "Traceback" not in out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), out
    return lines[0]


def games(n: int, seed0: int = 0) -> list[GameRecord]:
    rules = get_preset("aiwolf5")
    return [run_sync(rules, [RandomAgent(seed * 101 + s) for s in range(5)], seed) for seed in range(seed0, seed0 + n)]


@pytest.fixture
def jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "two.jsonl"
    export_jsonl(games(2), path)
    return path


def bad_db(kind: str, tmp_path: Path) -> Path:
    if kind == "folder":
        path = tmp_path / "folder.db"
        path.mkdir()
    elif kind == "garbage":
        path = tmp_path / "garbage.db"
        path.write_bytes(bytes(range(256)) * 40)
    else:  # a Lycan database that is write-protected (made so by the caller)
        path = tmp_path / "locked.db"
        with GameStore(path) as store:
            store.save(games(1, seed0=50)[0])
    return path


COMMANDS = {
    "simulate": ["simulate", "--preset", "aiwolf5", "--agents", "random", "--games", "3", "--save"],
    "game": ["game", "--preset", "aiwolf5", "--agents", "random"],
    "play": ["play", "--preset", "aiwolf5", "--agents", "random", "--seat", "1"],
    "import": ["import"],
    "serve": ["serve", "--port", "0", "--voice", "none", "--asr", "none"],
}


pytestmark = pytest.mark.usefixtures("no_server")  # `serve` must never start a server here


@pytest.mark.parametrize("kind", ["folder", "garbage", "write-protected"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_bad_database_is_one_sentence_before_any_game(
    tmp_path: Path, jsonl: Path, command: str, kind: str, no_server: list[dict[str, object]]
) -> None:
    db = bad_db(kind, tmp_path)
    args = [*COMMANDS[command], *([str(jsonl)] if command == "import" else []), "--db", str(db)]
    if kind == "write-protected":
        with write_protected(db):
            line = one_sentence(*invoke(*args))
        with GameStore(db) as store:
            assert store.count() == 1
    else:
        line = one_sentence(*invoke(*args))
    assert str(db) in line
    assert {"folder": "is a folder", "garbage": "not an SQLite file", "write-protected": "is write-protected"}[
        kind
    ] in line
    assert no_server == []  # `serve` never started (the other commands never do)


@pytest.mark.parametrize("command", ["simulate", "serve"])
def test_a_database_that_cannot_be_made_is_one_sentence(tmp_path: Path, command: str) -> None:
    (tmp_path / "file").write_text("x")
    db = tmp_path / "file" / "games.db"
    line = one_sentence(*invoke(*COMMANDS[command], "--db", str(db)))
    assert "is a file" in line


def test_deeply_nested_jsonl_is_one_sentence(tmp_path: Path) -> None:
    src = tmp_path / "nested.jsonl"
    src.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    db = tmp_path / "db.db"
    line = one_sentence(*invoke("import", str(src), "--db", str(db)))
    assert "line 1" in line and "nest too deeply" in line
    assert not db.exists()


@pytest.mark.parametrize(
    ("spoil", "needle"),
    [
        (lambda r: dataclasses.replace(r, roles=(Role.WEREWOLF,) * 5), "deals werewolf 5"),
        (lambda r: dataclasses.replace(r, events=r.events[:5]), "does not end with game_over"),
    ],
)
def test_import_refuses_games_that_cannot_have_happened(tmp_path: Path, spoil: object, needle: str) -> None:
    good, bad = games(2)
    src = tmp_path / "bad.jsonl"
    src.write_text(json.dumps(good.to_dict()) + "\n" + json.dumps(spoil(bad).to_dict()) + "\n")  # type: ignore[operator]
    db = tmp_path / "db.db"
    line = one_sentence(*invoke("import", str(src), "--db", str(db)))
    assert "line 2" in line and needle in line
    assert not db.exists()


def test_import_counts_what_it_stored(tmp_path: Path, jsonl: Path) -> None:
    db = tmp_path / "db.db"
    twice = tmp_path / "twice.jsonl"
    twice.write_text(jsonl.read_text() + jsonl.read_text().splitlines()[0] + "\n")
    code, out = invoke("import", str(twice), "--db", str(db))
    assert code == 0, out
    assert f"imported 2 of 3 games from {twice} (1 repeated in the file)" in out
    code, out = invoke("import", str(jsonl), "--db", str(db))
    assert code == 0, out
    assert f"imported 0 of 2 games from {jsonl} (2 already stored)" in out
    with GameStore(db) as store:
        assert store.count() == 2
    code, out = invoke("import", str(jsonl), "--db", str(tmp_path / "fresh.db"))
    assert f"imported 2 games from {jsonl}" in out


def test_a_gzipped_export_imports_under_its_run_so_a_tournament_resumes(tmp_path: Path) -> None:
    """An archive (`.jsonl.gz`) round-trips every record, and `--run` files the games under a run."""
    from lycan.arena import load_config, run_tournament

    config = load_config("smoke")
    played = tmp_path / "played.db"
    first = run_tournament(config, db=played)
    archive = tmp_path / "games.jsonl.gz"
    code, out = invoke("export", str(archive), "--db", str(played), "--run", config.run)
    assert code == 0 and f"wrote {first.played} games" in out, out
    assert archive.read_bytes()[:2] == b"\x1f\x8b"  # gzip's magic number: the file really is compressed

    restored = tmp_path / "restored.db"
    code, out = invoke("import", str(archive), "--db", str(restored), "--run", config.run)
    assert code == 0 and f"imported {first.played} games" in out, out
    with GameStore(played) as a, GameStore(restored) as b:
        before, after = (list(store.iter_records(run=config.run)) for store in (a, b))
    assert [r.to_dict() for r in before] == [r.to_dict() for r in after]
    again = run_tournament(config, db=restored)
    assert (again.skipped, again.played) == (first.played, 0)

    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(archive.read_bytes()[:-20])
    line = one_sentence(*invoke("import", str(cut), "--db", str(tmp_path / "cut.db")))
    assert "is not a complete gzip file" in line


def test_export_to_a_missing_folder_or_a_folder_is_refused(tmp_path: Path, jsonl: Path) -> None:
    db = tmp_path / "db.db"
    assert invoke("import", str(jsonl), "--db", str(db))[0] == 0
    missing = tmp_path / "no" / "such" / "folder" / "out.jsonl"
    line = one_sentence(*invoke("export", str(missing), "--db", str(db)))
    assert "does not exist" in line and str(missing.parent) in line
    assert not (tmp_path / "no").exists()
    line = one_sentence(*invoke("export", str(tmp_path), "--db", str(db)))
    assert "is a folder" in line
    code, out = invoke("export", str(tmp_path / "out.jsonl"), "--db", str(db))
    assert code == 0 and "wrote 2 games" in out


def test_check_takes_a_custom_deal_and_a_rules_file(tmp_path: Path) -> None:
    code, out = invoke("check", "--preset", "werewolf=1,seer=1,villager=3", "--games", "20", "--jobs", "1")
    assert code == 0, out
    assert ": 20 games in" in out and "0 violation(s)" in out
    rules = tmp_path / "rules.yaml"
    rules.write_text("preset: guardian7\noptions:\n  reveal_role_on_death: true\n")
    code, out = invoke("check", "--preset", f"aiwolf5,{rules}", "--games", "20", "--jobs", "2")
    assert code == 0, out
    assert out.count(": 20 games in") == 2  # not "(320 games/s)"
    line = one_sentence(*invoke("check", "--preset", "werewolf=1,dragon=1,villager=3", "--games", "5"))
    assert "unknown role" in line
