"""Rows: to_row/from_row give back the same sample, through JSON and through Arrow; splits by game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _data_games import PRESETS, heuristic_games, play
from lycan.agents import HeuristicAgent
from lycan.data import (
    SPLITS,
    build_dataset,
    decision_points,
    from_row,
    load_dataset_dir,
    record_rows,
    seat_permutations,
    split_of,
    to_row,
    write_dataset,
)
from lycan.data.build import dataset_stats
from lycan.engine import run_sync
from lycan.rules import Role, RuleSet


@pytest.mark.parametrize("preset", PRESETS)
def test_a_row_gives_back_an_equal_sample_through_json(preset: str) -> None:
    for seed in range(3):
        record, _ = play(preset, seed)
        for point in decision_points(record):
            row = json.loads(json.dumps(to_row(point, split="train")))
            assert row["rules"] is None and row["preset"] == preset
            back = from_row(row)
            assert back == point
            assert back.view == point.view


def test_custom_rules_travel_in_the_row() -> None:
    rules = RuleSet(name="tiny", roles={Role.WEREWOLF: 1, Role.SEER: 1, Role.VILLAGER: 3})
    record = run_sync(rules, [HeuristicAgent(s) for s in range(5)], 4)
    point = next(iter(decision_points(record)))
    row = json.loads(json.dumps(to_row(point)))
    assert row["rules"] is not None
    assert from_row(row) == point


def test_splits_go_by_game_and_no_game_is_in_two() -> None:
    records = heuristic_games("guardian5", 40)
    dataset, summary = build_dataset(records, permutations=3, seed=5)
    seen: dict[str, str] = {}
    for split in SPLITS:
        for gid in dataset[split]["game_id"]:
            assert seen.setdefault(gid, split) == split
            assert split_of(gid) == split
        assert set(dataset[split]["split"]) <= {split}
    assert len(seen) == 40 == sum(summary.games.values())
    assert all(summary.games[s] > 0 for s in SPLITS)
    assert summary.total_rows == sum(len(dataset[s]) for s in SPLITS)
    with pytest.raises(ValueError):
        split_of("x", (0.5, 0.6, 0.1))


def test_arrow_rows_give_back_the_relabelled_samples(tmp_path: Path) -> None:
    records = heuristic_games("aiwolf5", 4)
    dataset, summary = build_dataset(records, permutations=24, seed=1)
    expected = [row for r in records for row in record_rows(r, permutations=24, seed=1)]
    assert summary.total_rows == len(expected)
    assert {tuple(row["permutation"]) for row in expected if row["seat"] == 0} == set(seat_permutations(5, 0))
    write_dataset(dataset, summary, tmp_path / "ds")
    loaded = load_dataset_dir(tmp_path / "ds")
    by_key = {(r["game_id"], r["request"]["id"], tuple(r["permutation"])): r for r in expected}
    checked = 0
    for split in SPLITS:
        for row in loaded[split]:
            want = by_key[(row["game_id"], row["request"]["id"], tuple(row["permutation"]))]
            assert from_row(row) == from_row(want)
            checked += 1
    assert checked == len(expected)
    stats = dataset_stats(loaded)
    assert sum(stats.rows.values()) == len(expected)
    assert sum(r.n for r in stats.wins.values()) == 4 * 5  # each (game, seat) once
    card = (tmp_path / "ds" / "README.md").read_text()
    assert "leakage" in card and "SHA-256" in card and "24 per decision" in card
