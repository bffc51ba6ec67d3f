"""`lycan dataset build` and `lycan dataset stats` end to end on a tiny store."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from _data_games import heuristic_games
from lycan.cli import app
from lycan.data import SPLITS, from_row, load_dataset_dir
from lycan.store import GameStore

runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("data") / "games.db"
    with GameStore(path) as store:
        for record in heuristic_games("aiwolf5", 6):
            store.save(record, run="five")
        for record in heuristic_games("guardian7", 4, first_seed=100):
            store.save(record, run="seven")
    return path


def test_build_then_stats_from_one_run(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    args = ["dataset", "build", "--run", "five", "--out", str(out), "--permutations", "24", "--db", str(db)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "samples from 6 games" in result.output
    card = (out / "README.md").read_text()
    assert "runs: five" in card and "aiwolf5 (6)" in card and "heuristic (30)" in card
    loaded = load_dataset_dir(out)
    assert set(loaded) == set(SPLITS)
    rows = [row for split in SPLITS for row in loaded[split]]
    assert {row["preset"] for row in rows} == {"aiwolf5"}
    assert len({tuple(row["permutation"]) for row in rows if row["seat"] == 2}) == 24
    point = from_row(rows[0])
    assert all(e.visible_to(point.seat) for e in point.view.events)

    result = runner.invoke(app, ["dataset", "stats", str(out)])
    assert result.exit_code == 0, result.output
    for word in ("train", "validation", "test", "werewolf", "possessed", "talk / speak", "vote / choose", "N=12"):
        assert word in result.output


def test_build_from_all_runs_filtered_by_preset(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    args = ["dataset", "build", "--all", "--preset", "guardian7", "--out", str(out), "--db", str(db)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "samples from 4 games" in result.output
    loaded = load_dataset_dir(out)
    assert {row["preset"] for split in SPLITS for row in loaded[split]} == {"guardian7"}


def test_build_and_stats_refuse_bad_input_in_one_sentence(db: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "ds")
    for args, words in (
        (["dataset", "build", "--out", out, "--db", str(db)], "--run NAME"),
        (["dataset", "build", "--run", "nope", "--out", out, "--db", str(db)], "no games stored under run 'nope'"),
        (["dataset", "build", "--all", "--preset", "witch6", "--out", out, "--db", str(db)], "gave no samples"),
        (["dataset", "stats", str(tmp_path / "missing")], "holds no dataset"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert words in result.output
        assert "Traceback" not in result.output
