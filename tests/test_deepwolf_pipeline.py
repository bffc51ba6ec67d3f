"""Deep Wolf end to end: self-play -> samples -> candidates -> value network -> ONNX -> an agent that plays."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lycan.agents import make_agent
from lycan.agents.deepwolf import RECORD_MODEL, DeepWolfAgent
from lycan.cli import app
from lycan.data.candidates import Candidates
from lycan.engine import run_sync
from lycan.engine.events import Fault, Talk
from lycan.engine.seeds import derive
from lycan.rules import get_preset
from lycan.store import GameStore
from lycan.train.pipeline import PipelineConfig, train_pipeline
from lycan.value import default_calibration, default_candidates, default_value
from lycan.value.onnx import OnnxValue

SMALL = PipelineConfig(
    games=40,
    encoder="hash:64",
    epochs=1,
    d_model=16,
    heads=2,
    permutations=2,
    per_role=20,
    explore=0.3,
    explore_talk=True,
    play={"margin": 0.1, "talk_margin": {"seer": 1.0}},
)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("deepwolf")
    report = train_pipeline(SMALL, out)
    assert report.games == 40 and report.train_samples > report.held_out_samples > 0
    return out


def test_the_pipeline_writes_a_playable_network(trained: Path) -> None:
    for name in ("model.pt", "config.json", "value.onnx", "value.onnx.json", "candidates.json", "report.json"):
        assert (trained / name).is_file(), name
    report = json.loads((trained / "report.json").read_text())["report"]
    assert 0 < report["log_loss"] < 1.5 and report["candidates"]["seer"] > 0
    cands = Candidates.load(trained / "candidates.json")
    assert all(len(ts) <= 20 for ts in cands.by_role.values())


def test_a_deepwolf_seat_plays_legal_games_with_the_trained_network(trained: Path) -> None:
    rules = get_preset("aiwolf5")
    value, cands = OnnxValue(trained / "value.onnx"), Candidates.load(trained / "candidates.json")
    for seed in range(3):
        players = [make_agent("heuristic", derive(seed, "agent", s)) for s in range(5)]
        players[seed % 5] = DeepWolfAgent(seed, value=value, candidates=cands)
        record = run_sync(rules, players, seed)  # type: ignore[arg-type]
        assert not [e for e in record.events if isinstance(e, Fault) and e.seat == seed % 5]
        notes = [c for c in record.model_calls if c.model == RECORD_MODEL]
        assert notes and all(c.seat == seed % 5 and not c.error for c in notes)
        said = [e.text for e in record.events if isinstance(e, Talk) and e.actor == seed % 5 and not (e.over or e.skip)]
        assert len(said) == len(set(said))  # never a sentence twice


def test_a_trained_folder_is_playable_by_name_with_options_given_as_text(trained: Path) -> None:
    assert json.loads((trained / "play.json").read_text()) == {"margin": 0.1, "talk_margin": {"seer": 1.0}}
    stored = make_agent("deepwolf", 1, network=str(trained))  # the folder's own margins
    assert isinstance(stored, DeepWolfAgent) and stored.margin == 0.1
    assert stored.talk_margin("seer") == 1.0 and stored.talk_margin("villager") == 0.1
    agent = make_agent("deepwolf", 1, network=str(trained), margin="0.05", anchor=" None", temperature="0")
    assert isinstance(agent, DeepWolfAgent) and agent.margin == 0.05 and agent._anchor is None
    # the caller's margin replaces the folder's settings, for talk too
    assert agent.talk_margin("seer") == 0.05 and agent.talk_margin("werewolf") == 0.05
    given = make_agent("deepwolf", 1, network=str(trained), talk_margin="0.2", margin="none", anchor=" Heuristic")
    assert isinstance(given, DeepWolfAgent) and given.talk_margin("seer") == 0.2 and given.margin == 0.1
    record = run_sync(get_preset("aiwolf5"), [agent, *(make_agent("heuristic", s) for s in range(4))], 7)
    assert not [e for e in record.events if isinstance(e, Fault) and e.seat == 0]
    assert [c for c in record.model_calls if c.model == RECORD_MODEL and c.seat == 0]
    with pytest.raises(ValueError, match="no trained value network"):
        make_agent("deepwolf", 1, network=str(trained / "missing"))


def test_training_through_the_cli_and_bad_configs(tmp_path: Path) -> None:
    runner = CliRunner()
    cfg = tmp_path / "c.toml"
    cfg.write_text('preset = "aiwolf5"\ngames = 20\nencoder = "hash:32"\nepochs = 1\nd_model = 16\nheads = 2\n')
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "play.json").write_text('{"margin": 0.5}')  # an earlier network's margins
    result = runner.invoke(app, ["train", "value", str(cfg), "--out", str(tmp_path / "net")])
    assert result.exit_code == 0, result.output
    assert "20 games" in result.output and (tmp_path / "net" / "value.onnx").is_file()
    assert not (tmp_path / "net" / "play.json").exists()  # not carried over to a network without [play]
    cfg.write_text('preset = "aiwolf5"\ngamez = 20\n')
    bad = runner.invoke(app, ["train", "value", str(cfg), "--out", str(tmp_path / "x")])
    assert bad.exit_code != 0 and "unknown key(s) gamez" in bad.output


def test_config_files_name_their_candidates_relative_to_themselves_and_check_play_keys(tmp_path: Path) -> None:
    shipped = PipelineConfig.load(Path(__file__).parents[1] / "src/lycan/value/deepwolf-aiwolf5.toml")
    assert shipped.explore_talk and shipped.path(shipped.explore_candidates).is_file()
    assert isinstance(shipped.play.talk_margin, dict) and shipped.play.talk_margin["seer"] == 1.0
    # the settings shipped beside the network are the config's (a retrain writes them from it)
    stored = json.loads((Path(__file__).parents[1] / "src/lycan/value/default/play.json").read_text())
    assert (
        stored == shipped.play.model_dump(exclude_none=True)
        and stored["search_talk"]["seer"] == 0
        and min(stored["rollouts"].values()) > 0
    )
    assert stored["search_hold"] == {"seer": 1, "*": 0}  # a seer searches when to come out
    cfg = tmp_path / "c.toml"
    cfg.write_text('explore_candidates = "cands.json"\n[play]\nmargins = 0.1\n')
    with pytest.raises(ValueError, match=r"play\.margins: Extra inputs are not permitted"):
        PipelineConfig.load(cfg)
    cfg.write_text('explore_candidates = "cands.json"\n')
    assert PipelineConfig.load(cfg).path("cands.json") == tmp_path / "cands.json"
    assert PipelineConfig().path("cands.json") == Path("cands.json")


def test_the_shipped_network_plays_from_the_command_line(tmp_path: Path) -> None:
    value, cands = default_value(), default_candidates()
    assert cands.by_role and value.score  # loads from the package
    db = tmp_path / "g.db"
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "simulate",
            "--preset",
            "aiwolf5",
            "--agents",
            "deepwolf,heuristic",
            "-n",
            "2",
            "--save",
            "--run",
            "dw",
            "--db",
            str(db),
        ],
    )
    assert result.exit_code == 0, result.output
    with GameStore(db) as store:
        records = list(store.iter_records(run="dw"))
    assert len(records) == 2 and all("deepwolf" in r.agents for r in records)
    calls = [c for r in records for c in r.model_calls if c.model == RECORD_MODEL]
    assert calls and not [c.error for c in calls if c.error]  # the shipped network scored every decision
    game = records[0].game_id
    shown = runner.invoke(app, ["replay", game, "--values", "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    assert "P(win) by the value network" in shown.output and "mean P(win) of its choices by day" in shown.output
    assert "played out (won):" in shown.output  # the shipped settings search every decision
    # the shipped network's calibration: each chosen P(win) noted calibrated, and shown so
    calibration = default_calibration()
    assert calibration is not None
    for c in calls:
        detail = json.loads(c.reasoning)
        raw = detail["chosen"][1]
        role = next(r.roles[c.seat] for r in records if c in r.model_calls).value
        assert detail["calibrated"] == pytest.approx(calibration.apply(raw, role), abs=1e-6)
    assert "calibrated (the network's own figure in brackets)" in shown.output
    assert re.search(r"chose \d\.\d\d \[\d\.\d\d\]", shown.output)
