"""From self-play or stored games to a playable Deep Wolf: samples, candidates, network, ONNX.

`train_pipeline(PipelineConfig)` plays (or reads) games, turns them into viewpoint samples
(`lycan.data.decision_points`) relabelled by seat permutations, splits them by game, mines the talk
candidates per role, trains the value network, scores it against the role/day/living baseline on
the held-out games, and writes one folder: `model.pt` + `config.json` (PyTorch), `value.onnx` +
`value.onnx.json` (for play), `candidates.json`, `report.json`. The default that ships with Lycan
(`lycan/value/default/`, read by `lycan.value.shipped`) is made this way by `scripts/train_deepwolf`.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field

from lycan.data.augment import permute_action, permute_request, permute_view, seat_permutations
from lycan.data.candidates import Candidates, mine
from lycan.data.samples import DecisionPoint, decision_points
from lycan.engine.record import GameRecord
from lycan.train import selfplay
from lycan.train.config import TomlConfig
from lycan.train.onnx_export import export_onnx
from lycan.train.value import TrainConfig, train_value
from lycan.value.base import Sample
from lycan.value.encoders import make_encoder
from lycan.value.shipped import PlaySettings


class PipelineConfig(TomlConfig):
    """What to train on and how (a TOML file with these keys: `lycan train value CONFIG`)."""

    preset: str = "aiwolf5"
    games: int = 1200
    """Self-play games to generate (when `run` is empty)."""
    agent: str = "heuristic"
    """The agent type that plays the self-play games."""
    explore: float = 0.0
    """Rate at which one seat per self-play game answers a vote or night action at random (`lycan.train.selfplay`)."""
    explore_talk: bool = False
    """The exploring seat also says a random talk candidate at that rate."""
    explore_candidates: str = ""
    """The candidates file it draws from (relative to the config file; "" = those shipped now)."""
    run: str = ""
    """Read stored games of this run (`lycan games`) instead of playing."""
    first_seed: int = 3_000_000
    permutations: int = 2
    """Relabellings per sample (the identity included)."""
    held_out: float = 0.15
    """Share of games kept out of training to score the network."""
    per_role: int = 100
    similarity: float = 0.9
    epochs: int = 2
    batch_size: int = 64
    lr: float = 2e-3
    weight_decay: float = 0.05
    d_model: int = 48
    layers: int = 1
    heads: int = 4
    dropout: float = 0.2
    encoder: str = "minilm"
    device: str = "auto"
    seed: int = 0
    folder: str = Field(default="", repr=False, exclude=True)
    """The config file's folder (set by `load`; not a TOML key)."""
    play: PlaySettings = Field(default_factory=PlaySettings)
    """The `deepwolf` agent's settings for this network, written to `play.json` (unknown keys refused)."""
    extra: dict[str, Any] = Field(default_factory=dict)

    not_keys: ClassVar[frozenset[str]] = frozenset({"folder"})

    @classmethod
    def read_from(cls, path: Path) -> dict[str, Any]:
        """Relative paths in the file are read from its folder."""
        return {"folder": str(path.parent)}

    def path(self, name: str) -> Path:
        """`name` as a path: relative names are read from the config file's folder."""
        p = Path(name)
        return p if p.is_absolute() or not self.folder else Path(self.folder) / p


def self_play(config: PipelineConfig) -> Iterator[GameRecord]:
    """The self-play games of `config` (deterministic in its seeds and its candidates file)."""
    talk = Candidates.load(config.path(config.explore_candidates)) if config.explore_candidates else None
    return selfplay.self_play(
        config.preset,
        config.games,
        config.first_seed,
        config.agent,
        explore=config.explore,
        explore_talk=config.explore_talk,
        talk_candidates=talk,
    )


def augmented(point: DecisionPoint, k: int, rng: random.Random) -> Iterator[Sample]:
    """`point` as a sample under `k` seat relabellings (the identity first)."""
    n = len(point.view.names)
    for perm in seat_permutations(n, point.seat, k, rng):
        view = permute_view(point.view, perm)
        yield Sample(
            view, permute_request(point.request, perm), permute_action(point.action, perm, view.names), point.won
        )


@dataclass
class PipelineReport:
    """What one pipeline run did and measured."""

    games: int = 0
    train_samples: int = 0
    held_out_samples: int = 0
    candidates: dict[str, int] = field(default_factory=dict)
    log_loss: float = 0.0
    brier: float = 0.0
    baseline_log_loss: float = 0.0
    baseline_brier: float = 0.0
    samples_per_s: float = 0.0
    seconds: float = 0.0


def train_pipeline(config: PipelineConfig, out: Path, records: Sequence[GameRecord] | None = None) -> PipelineReport:
    """Run the whole pipeline and write its folder `out` (see the module docstring)."""
    started = time.perf_counter()
    report = PipelineReport()
    rng = random.Random(config.seed)
    train: list[Sample] = []
    held: list[Sample] = []
    points: list[DecisionPoint] = []
    for record in records if records is not None else self_play(config):
        report.games += 1
        for point in decision_points(record):
            if selfplay.held_out(record.game_id, config.held_out):
                held.append(Sample(point.view, point.request, point.action, point.won))
            else:
                points.append(point)
                train.extend(augmented(point, config.permutations, rng))
    if not train or not held:
        raise ValueError(f"too few games ({report.games}) to train on and hold some out")
    encoder = make_encoder(config.encoder)
    candidates = mine(points, encoder.encode, per_role=config.per_role, threshold=config.similarity)
    tc = TrainConfig(
        epochs=config.epochs,
        batch_size=config.batch_size,
        lr=config.lr,
        weight_decay=config.weight_decay,
        d_model=config.d_model,
        layers=config.layers,
        heads=config.heads,
        dropout=config.dropout,
        seed=config.seed,
        device=config.device,
        encoder=config.encoder,
    )
    trained = train_value(train, tc, held_out=held, encoder=encoder)
    out.mkdir(parents=True, exist_ok=True)
    trained.save(out)
    export_onnx(trained, out / "value.onnx")
    candidates.save(out / "candidates.json")
    play = config.play.model_dump(exclude_none=True)
    if play:
        (out / "play.json").write_text(json.dumps(play, indent=1) + "\n", encoding="utf-8")
    else:
        (out / "play.json").unlink(missing_ok=True)  # no margins of an earlier network in this folder
    r = trained.report
    report.train_samples, report.held_out_samples = len(train), len(held)
    report.candidates = {role: len(ts) for role, ts in candidates.by_role.items()}
    if r.held_out is not None and r.baseline is not None:
        report.log_loss, report.brier = r.held_out.log_loss, r.held_out.brier
        report.baseline_log_loss, report.baseline_brier = r.baseline.log_loss, r.baseline.brier
    report.samples_per_s = r.samples_per_s
    report.seconds = time.perf_counter() - started
    (out / "report.json").write_text(
        json.dumps({"config": config.model_dump(), "report": asdict(report)}, indent=1) + "\n",
        encoding="utf-8",
    )
    return report
