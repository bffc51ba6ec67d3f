"""Imported games are data like any other: decisions read from events, fits per agent type, state values."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lycan.aiwolf.log import import_log
from lycan.beliefs.fit import counts, fit, seat_kind
from lycan.beliefs.model import BehaviourModel, default_model
from lycan.cli import app
from lycan.data.samples import decision_points
from lycan.engine import visible
from lycan.engine.events import Talk
from lycan.store import GameStore
from lycan.store.jsonl import import_jsonl

LOGS = Path(__file__).parent / "aiwolf_logs"
SEED002 = Path(__file__).parents[1] / "benchmarks" / "results" / "seed002.jsonl.gz"


def imported(name: str):  # type: ignore[no-untyped-def]
    return import_log((LOGS / name).read_bytes().decode("utf-8"))


@pytest.mark.parametrize("name", ["aiwolf13_whispers_errored.log", "inlg2025_5p_aborted.log"])
def test_decision_points_of_a_log_without_recorded_answers(name: str) -> None:
    record = imported(name)
    assert not record.decisions  # an imported log holds events, not the engine's requests
    points = list(decision_points(record))
    kinds = Counter(p.request.kind for p in points)
    assert kinds["talk"] > 0 and kinds["vote"] > 0 and kinds["divine"] > 0
    events = list(record.events)
    for p in points:
        at = next(i for i, e in enumerate(events) if len(visible(events[:i], p.seat)) == len(p.view.events))
        # the view is exactly what the seat could see just before it acted: nothing of others' secrets
        assert tuple(p.view.events) == tuple(visible(events[:at], p.seat))
        assert p.view.role is record.roles[p.seat] and p.role is record.roles[p.seat]
        if p.action.target is not None:
            assert p.action.target in p.request.targets and p.seat not in p.request.targets
        else:
            assert p.action.kind == "speak" and p.action.text
    said = [e for e in events if isinstance(e, Talk) and not e.over and not e.skip and e.text]
    assert kinds["talk"] + kinds["whisper"] == len(said)


def test_the_value_network_rates_imported_views_and_states() -> None:
    pytest.importorskip("onnxruntime", reason="the shipped network runs on onnxruntime (the train extra)")
    from lycan.value import default_value, state_value

    record = imported("inlg2025_5p_aborted.log")
    value = default_value()
    points = list(decision_points(record))
    rated = [value.score(p.view, p.request, [p.action])[0] for p in points]
    states = [state_value(value, p.view) for p in points]
    assert all(0.0 < v < 1.0 for v in rated + states)
    assert len(set(round(s, 6) for s in states)) > 1  # the state's value moves as the game goes on


def test_behaviour_fitted_on_the_seats_of_one_agent_type() -> None:
    records = [r for r in import_jsonl(SEED002) if r.rules.name == "guardian7"][::3]
    kinds = {seat_kind(r, s) for r in records for s in range(7)}
    assert {"camwolf", "react", "recon"} <= kinds  # labels such as "react:local" name the type
    every = counts(records)
    react = counts(records, {"react"})
    assert (
        0
        < sum(sum(v.sum() for v in react.claim_all.values()) for _ in [0])
        < sum(v.sum() for v in every.claim_all.values())
    )
    model = fit(records, "guardian7", kinds={"react"})
    pooled = fit(records, "guardian7")
    assert isinstance(model, BehaviourModel) and model.to_dict() != pooled.to_dict()
    with pytest.raises(ValueError, match="no stored game"):
        fit(records, "guardian7", kinds={"nobody"})


def test_a_type_without_its_own_model_is_read_with_the_default() -> None:
    assert default_model("guardian7", "no-such-agent") is default_model("guardian7")
    assert default_model("guardian7", None) is default_model("guardian7")


def test_beliefs_fit_reads_imported_games_per_agent_type(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with GameStore(db) as store:
        for record in import_jsonl(SEED002)[:120]:
            store.save(record, run="contest")
    out = tmp_path / "react.json"
    result = CliRunner().invoke(
        app,
        [
            "beliefs",
            "fit",
            "--run",
            "contest",
            "--preset",
            "guardian7",
            "--agent",
            "react",
            "--db",
            str(db),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert BehaviourModel.load(out).games > 0


def test_a_dataset_is_built_from_imported_logs(tmp_path: Path) -> None:
    db = tmp_path / "logs.db"
    runner = CliRunner()
    got = runner.invoke(app, ["aiwolf-log", "import", str(LOGS / "aiwolf13_whispers_errored.log"), "--db", str(db)])
    assert got.exit_code == 0, got.output
    built = runner.invoke(app, ["dataset", "build", "--out", str(tmp_path / "ds"), "--all", "--db", str(db)])
    assert built.exit_code == 0, built.output
    assert "96 samples from 1 games" in built.output
