"""The value network's calibration for players it never saw: fitting, storing, applying, shipping."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from lycan.engine.actions import Action, Request
from lycan.engine.view import View
from lycan.train.value import agent_samples, fit_calibration, role_rates
from lycan.value import CalibratedValue, Calibration, default_calibration, default_value, state_value
from lycan.value.base import Sample


@pytest.fixture(scope="module")
def samples() -> list[Sample]:
    return agent_samples("random", 12, 4_200_000)


def test_the_pull_keeps_alpha_one_gives_the_rate_at_zero_and_leaves_unseen_roles_alone() -> None:
    rates = {"seer": 0.6}
    assert Calibration(1.0, rates).apply(0.9, "seer") == pytest.approx(0.9)
    assert Calibration(0.0, rates).apply(0.9, "seer") == pytest.approx(0.6)
    half = Calibration(0.5, rates).apply(0.9, "seer")
    assert 0.6 < half < 0.9
    assert Calibration(0.5, rates).apply(0.9, "werewolf") == 0.9
    ranked = [Calibration(0.3, rates).apply(p, "seer") for p in (0.1, 0.4, 0.7, 0.95)]
    assert ranked == sorted(ranked)  # the pull keeps the order of a view's candidates


def test_a_calibration_survives_saving_and_refuses_what_is_not_one(tmp_path: Path) -> None:
    calibration = Calibration(0.4, {"seer": 0.55, "villager": 0.5}, ("random",), 120, 3)
    path = calibration.save(tmp_path)  # a folder: calibration.json inside
    assert path == tmp_path / "calibration.json"
    assert Calibration.load(tmp_path) == calibration
    assert Calibration.load(path) == calibration
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"alpha": 0.5}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.json"):
        Calibration.load(bad)
    for broken in ({"alpha": "abc", "role_rates": {}}, {"alpha": 0.5, "role_rates": {}, "agents": "random"}):
        bad.write_text(json.dumps(broken), encoding="utf-8")
        with pytest.raises(ValueError, match=r"bad\.json"):
            Calibration.load(bad)
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ValueError, match=r"bad\.json"):
        Calibration.load(bad)
    with pytest.raises(FileNotFoundError):
        Calibration.load(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="alpha"):
        Calibration(1.5, {})
    with pytest.raises(ValueError, match="seer"):
        Calibration(0.5, {"seer": 2.0})


class _Table:
    """A value model that answers from a table of outcomes: the truth (`sure` near 1) or nothing (`sure` 0.5)."""

    def __init__(self, samples: Sequence[Sample], sure: float) -> None:
        self.won = {id(s.view): s.won for s in samples}
        self.sure = sure

    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        p = self.sure if self.won[id(view)] else 1 - self.sure
        return [p] * len(candidates)


def test_fitting_trusts_a_model_that_knows_and_distrusts_one_that_does_not(samples: list[Sample]) -> None:
    knows = fit_calibration(_Table(samples, 0.9), {"random": samples}, games=12)
    guesses = fit_calibration(_Table(samples, 0.5), {"random": samples}, games=12)
    assert knows.alpha > 0.9
    assert guesses.alpha == 0.0  # a flat 0.5 says nothing: the role's rate is better
    assert knows.role_rates == role_rates(samples)
    assert knows.agents == ("random",) and knows.decisions == len(samples) and knows.games == 12
    with pytest.raises(ValueError, match="at least one game"):
        fit_calibration(_Table(samples, 0.9), {"random": []})


def test_the_shipped_network_reads_calibrated_figures_with_the_calibration_it_ships(samples: list[Sample]) -> None:
    model = default_value()
    calibration = default_calibration()
    assert calibration is not None
    assert 0.0 < calibration.alpha < 1.0
    assert "heuristic" not in calibration.agents  # fitted on players the network was not trained on
    assert set(calibration.role_rates) == {"villager", "seer", "possessed", "werewolf"}
    view = samples[len(samples) // 2].view
    raw = state_value(model, view)
    assert state_value(model, view, calibration) == pytest.approx(calibration.apply(raw, view.role.value))
    wrapped = CalibratedValue(model, calibration)
    s = next(s for s in samples if s.request.kind == "vote" and len(s.request.targets) > 2)
    candidates = [Action.choose(t) for t in s.request.targets]
    raw_scores = model.score(s.view, s.request, candidates)
    calibrated = wrapped.score(s.view, s.request, candidates)
    role = s.view.role.value
    assert calibrated == pytest.approx([calibration.apply(p, role) for p in raw_scores])
    assert calibrated != pytest.approx(raw_scores)  # the pull moves the figures...
    assert sorted(range(len(candidates)), key=raw_scores.__getitem__) == sorted(
        range(len(candidates)), key=calibrated.__getitem__
    )


def test_the_calibrate_command_plays_fits_and_writes(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lycan.cli import app

    out = tmp_path / "calibration.json"
    result = CliRunner().invoke(app, ["train", "calibrate", "--games", "1", "--agent", "random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    calibration = Calibration.load(out)
    assert calibration.agents == ("random",) and calibration.games == 1 and calibration.decisions > 0
    refused = CliRunner().invoke(app, ["train", "calibrate", "--agent", "heuristic", "--out", str(out)])
    assert refused.exit_code != 0 and "choose from" in refused.output
    # nothing is played where nothing could be written, and the shipped calibration is never overwritten
    nowhere = CliRunner().invoke(app, ["train", "calibrate", "--out", str(tmp_path / "no" / "such.json")])
    assert nowhere.exit_code != 0 and "no folder" in nowhere.output
    shipped = CliRunner().invoke(app, ["train", "calibrate", "--games", "1"])
    assert shipped.exit_code != 0 and "--out" in shipped.output
