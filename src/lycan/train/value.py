"""Training, evaluation, saving and loading of the value network, and the baseline it must beat.

`train_value(samples, config, held_out=...)` fits one `ValueNet` for every role and seat with
binary cross-entropy and AdamW, and reports log-loss and Brier score on held-out games next to
a baseline that knows only the seat's role, the day and the number of living seats
(`FrequencyBaseline`). Split samples by game, never by decision, so that held-out games are
unseen games.
"""

from __future__ import annotations

import json
import math
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from lycan.engine.actions import Action, Request
from lycan.engine.view import View
from lycan.value.base import Calibration, Sample, ValueModel, as_sample, prepare
from lycan.value.encoders import CachedEncoder, TextEncoder, make_encoder
from lycan.value.features import (
    BATCH_INPUTS,
    Batch,
    CandidateFeatures,
    ViewFeatures,
    candidate_features,
    collate,
    view_features,
)
from lycan.value.network import NetConfig, ValueNet

_EPS = 1e-7


@contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """Run the block with `n` torch CPU threads (0: unchanged), then restore the previous count."""
    if n <= 0 or n == torch.get_num_threads():
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@dataclass(frozen=True)
class TrainConfig:
    """How to train the value network.

    Attributes:
        epochs: passes over the training samples.
        batch_size: samples per step.
        lr: AdamW's learning rate.
        weight_decay: AdamW's weight decay.
        d_model: token width.
        layers: transformer layers.
        heads: attention heads.
        max_events: the last events of a view the network reads.
        dropout: dropout while training.
        seed: seeds the initial weights and the order of samples.
        device: `cpu`, `cuda`, or `auto` (cuda when available).
        encoder: the sentence encoder (`minilm` or `hash:DIM`).
        encoder_cache: a file caching sentence vectors across runs, or None.
        threads: torch CPU threads while training and scoring (0: leave torch's setting). The
            network is small, so one thread is fastest: more threads mostly wait on each other.
    """

    epochs: int = 6
    batch_size: int = 64
    lr: float = 2e-3
    weight_decay: float = 0.01
    d_model: int = 64
    layers: int = 2
    heads: int = 4
    max_events: int = 128
    dropout: float = 0.1
    seed: int = 0
    device: str = "auto"
    encoder: str = "minilm"
    encoder_cache: str | None = None
    threads: int = 1

    def net_config(self, text_dim: int) -> NetConfig:
        """The network shape this training config asks for."""
        return NetConfig(
            text_dim=text_dim,
            d_model=self.d_model,
            layers=self.layers,
            heads=self.heads,
            max_events=self.max_events,
            dropout=self.dropout,
        )


def resolve_device(name: str) -> torch.device:
    """The torch device for `auto`, `cpu` or `cuda`.

    Raises:
        ValueError: cuda was asked for but none is available, or an unknown name.
    """
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError("device 'cuda' was asked for but torch sees no GPU; use device 'cpu' or 'auto'")
    if name == "cpu" or name.startswith("cuda"):
        return torch.device(name)
    raise ValueError(f"unknown device {name!r}; use 'cpu', 'cuda' or 'auto'")


@dataclass(frozen=True)
class Metrics:
    """Log-loss and Brier score of predictions over `n` samples."""

    log_loss: float
    brier: float
    n: int


def metrics(probs: Sequence[float] | np.ndarray, won: Sequence[bool] | np.ndarray) -> Metrics:
    """Log-loss (natural log) and Brier score of `probs` against outcomes `won`."""
    p = np.clip(np.asarray(probs, dtype=np.float64), _EPS, 1 - _EPS)
    y = np.asarray(won, dtype=np.float64)
    if len(p) == 0:
        return Metrics(math.nan, math.nan, 0)
    log_loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    return Metrics(log_loss, float(np.mean((p - y) ** 2)), len(p))


class FrequencyBaseline:
    """P(win) from the seat's role, the day and the living seats alone: a smoothed frequency table.

    Backs off from (role, day, living) to (role, day) to (role) with `strength` pseudo-counts.

    Args:
        strength: the pseudo-count each level borrows from the level above.
        depth: how many of the levels to use: 3 (role, day, living), 2 (role, day) or 1 (the
            role alone: the role-only baseline).
    """

    def __init__(self, strength: float = 10.0, depth: int = 3) -> None:
        if depth not in (1, 2, 3):
            raise ValueError(f"depth must be 1, 2 or 3, not {depth}")
        self.strength = strength
        self.depth = depth
        self._counts: dict[tuple[Any, ...], list[float]] = defaultdict(lambda: [0.0, 0.0])

    def _keys(self, view: View) -> tuple[tuple[Any, ...], ...]:
        alive = sum(view.alive)
        return ((view.role,), (view.role, view.day), (view.role, view.day, alive))[: self.depth]

    def fit(self, samples: Iterable[Any]) -> FrequencyBaseline:
        """Count wins per key over `samples`; returns self."""
        for item in samples:
            s = as_sample(item)
            for key in ((), *self._keys(s.view)):
                self._counts[key][0] += float(s.won)
                self._counts[key][1] += 1.0
        return self

    def prob(self, view: View) -> float:
        """The smoothed win frequency for `view`'s role, day and living seats."""
        wins, n = self._counts.get((), (0.0, 0.0))
        p = (wins + 1.0) / (n + 2.0)
        for key in self._keys(view):
            wins, n = self._counts.get(key, (0.0, 0.0))
            p = (wins + self.strength * p) / (n + self.strength)
        return p

    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        """The same probability for every candidate (the baseline ignores actions)."""
        return [self.prob(view)] * len(candidates)


def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(np.asarray(p, dtype=float), 1e-6, 1 - 1e-6)
    out: np.ndarray = np.log(q) - np.log1p(-q)
    return out


def shrink(probs: Sequence[float] | np.ndarray, anchor: Sequence[float] | np.ndarray, alpha: float) -> np.ndarray:
    """P(win) pulled toward `anchor` on the logit scale: sigmoid(logit(a) + alpha * (logit(p) - logit(a))).

    alpha 1 keeps `probs`, 0 gives `anchor`. The anchor does not depend on the candidate action,
    so shrinking never changes which candidate a view's scores rank first.
    """
    a = _logit(np.asarray(anchor, dtype=float))
    z = a + alpha * (_logit(np.asarray(probs, dtype=float)) - a)
    out: np.ndarray = 1.0 / (1.0 + np.exp(-z))
    return out


def fit_shrinkage(
    probs: Sequence[float] | np.ndarray, anchor: Sequence[float] | np.ndarray, won: Sequence[bool] | np.ndarray
) -> float:
    """The alpha in [0, 1] (steps of 0.01) whose `shrink` has the least log-loss against `won`.

    Fit it on predictions for games of agent types the network was not trained on (see
    `cross_type_shrinkage`): on its own training types a network is trusted more than it should be
    on players it never saw.

    Raises:
        ValueError: no samples, or arrays of different lengths.
    """
    p, a, y = (np.asarray(x, dtype=float) for x in (probs, anchor, won))
    if not len(p) or not (len(p) == len(a) == len(y)):
        raise ValueError(f"need as many predictions, anchors and outcomes (got {len(p)}, {len(a)}, {len(y)}), and some")
    best, best_loss = 1.0, math.inf
    for alpha in np.linspace(0.0, 1.0, 101):
        q = np.clip(shrink(p, a, float(alpha)), _EPS, 1 - _EPS)
        loss = float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))
        if loss < best_loss - 1e-12:
            best, best_loss = float(alpha), loss
    return best


def cross_type_shrinkage(by_type: dict[str, list[Sample]], config: TrainConfig) -> tuple[float, dict[str, float]]:
    """How far to trust a network on players of a type it never saw: alpha for `shrink` toward the role-only rate.

    Leave one type out inside `by_type` (at least two agent types): a network trained on the
    other types' samples predicts the left-out type's, beside the role-only win rate of the same
    training samples; alpha is fitted on all those predictions together (`fit_shrinkage`).
    Returns alpha and, per type, the alpha its predictions alone would give.

    Raises:
        ValueError: fewer than two types.
    """
    if len(by_type) < 2:
        raise ValueError(f"cross-type shrinkage needs games of at least two agent types, not {len(by_type)}")
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    per_type: dict[str, float] = {}
    for held, test in by_type.items():
        train = [s for kind, samples in by_type.items() if kind != held for s in samples]
        model = train_value(train, config)
        base = FrequencyBaseline(depth=1).fit(train)
        p = model.predict(test)
        a = np.array([base.prob(as_sample(s).view) for s in test])
        y = np.array([float(as_sample(s).won) for s in test])
        per_type[held] = fit_shrinkage(p, a, y)
        parts.append((p, a, y))
    p, a, y = (np.concatenate([part[i] for part in parts]) for i in range(3))
    return fit_shrinkage(p, a, y), per_type


CALIBRATION_AGENTS: dict[str, dict[str, Any]] = {
    "heuristic-beliefs": {},
    "random": {},
    "deepwolf": {"rollouts": 0},
}
"""The agent types whose games calibrate a network for players it never saw, with their options
(deepwolf without search: its network's own choices)."""


def agent_samples(
    kind: str, games: int, first_seed: int, *, preset: str = "aiwolf5", options: dict[str, Any] | None = None
) -> list[Sample]:
    """Every decision of `games` games with every seat an agent of `kind`, seeds `first_seed` on.

    Raises:
        ValueError: an unknown agent type or preset.
    """
    import asyncio

    from lycan.agents import make_agent
    from lycan.data.samples import decision_points
    from lycan.engine import run_async
    from lycan.engine.seeds import derive
    from lycan.rules import get_preset

    rules = get_preset(preset)
    out: list[Sample] = []
    for seed in range(first_seed, first_seed + games):
        players = [make_agent(kind, derive(seed, "agent", s), **(options or {})) for s in range(rules.n_players)]
        record = asyncio.run(run_async(rules, players, seed))
        out += [Sample(p.view, p.request, p.action, p.won) for p in decision_points(record)]
    return out


def role_rates(samples: Iterable[Any]) -> dict[str, float]:
    """The win rate of each role over the decisions of `samples` (each decision counted)."""
    wins: dict[str, list[float]] = defaultdict(list)
    for item in samples:
        s = as_sample(item)
        wins[s.view.role.value].append(float(s.won))
    return {role: float(np.mean(w)) for role, w in sorted(wins.items())}


def fit_calibration(
    model: ValueModel, by_type: Mapping[str, Sequence[Sample]], *, games: int = 0, preset: str = "aiwolf5"
) -> Calibration:
    """The `Calibration` of `model` on decisions of agent types it was not trained on.

    Each decision is scored with the action taken; the anchor is each role's win rate over all the
    decisions; alpha is the one whose pull has the least log-loss (`fit_shrinkage`).

    Raises:
        ValueError: no decisions.
    """
    samples = [as_sample(s) for kind in sorted(by_type) for s in by_type[kind]]
    if not samples:
        raise ValueError("calibrating a value network needs decisions of at least one game")
    rates = role_rates(samples)
    p = np.array([model.score(s.view, s.request, [s.action])[0] for s in samples])
    a = np.array([rates[s.view.role.value] for s in samples])
    y = np.array([float(s.won) for s in samples])
    return Calibration(fit_shrinkage(p, a, y), rates, tuple(sorted(by_type)), len(samples), games, preset)


@dataclass
class TrainReport:
    """What training did: per-epoch training loss, speed, and held-out metrics with the baseline's."""

    train_loss: list[float] = field(default_factory=list)
    n_train: int = 0
    seconds: float = 0.0
    samples_per_s: float = 0.0
    held_out: Metrics | None = None
    baseline: Metrics | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


def _to_tensors(batch: Batch, device: torch.device) -> list[torch.Tensor]:
    return [torch.from_numpy(batch[name]).to(device) for name in BATCH_INPUTS]


class TrainedValue:
    """A trained value network with its sentence encoder: a `ValueModel` on PyTorch.

    Args:
        net: the network.
        config: how it was trained (its shape, encoder and event window).
        encoder: the sentence encoder it was trained with.
        report: what training did, if known.
    """

    def __init__(
        self, net: ValueNet, config: TrainConfig, encoder: TextEncoder, report: TrainReport | None = None
    ) -> None:
        self.net = net.eval()
        self.config = config
        self.encoder = encoder
        self.report = report or TrainReport()

    @property
    def device(self) -> torch.device:
        """Where the network's weights are."""
        return next(self.net.parameters()).device

    def logits(self, batch: Batch) -> np.ndarray:
        """Raw logits (B, K) for a batch of network inputs."""
        with torch.no_grad(), torch_threads(self.config.threads):
            out = self.net(*_to_tensors(batch, self.device))
        result: np.ndarray = out.float().cpu().numpy()
        return result

    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        """P(win) for each candidate: one encoder pass for the view, a small head per candidate."""
        if not candidates:
            return []
        batch = prepare(view, request, candidates, self.encoder, self.config.max_events)
        logits = self.logits(batch)[0]
        return [float(p) for p in 1.0 / (1.0 + np.exp(-logits))]

    def predict(self, samples: Iterable[Any], batch_size: int = 256) -> np.ndarray:
        """P(win) of each sample's own action."""
        feats = _featurize([as_sample(s) for s in samples], self.config.max_events)
        out: list[np.ndarray] = []
        for start in range(0, len(feats), batch_size):
            chunk = feats[start : start + batch_size]
            batch, _ = collate([f[0] for f in chunk], [[f[1]] for f in chunk], self.encoder)
            out.append(1.0 / (1.0 + np.exp(-self.logits(batch)[:, 0])))
        return np.concatenate(out) if out else np.zeros(0)

    def save(self, path: str | Path) -> Path:
        """Write `config.json` (training config, network shape, encoder) and `model.pt` into folder `path`."""
        folder = Path(path)
        folder.mkdir(parents=True, exist_ok=True)
        meta = {
            "train": asdict(self.config),
            "net": self.net.config.to_dict(),
            "encoder": self.encoder.name,
            "report": self.report.to_dict(),
        }
        (folder / "config.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        torch.save(self.net.state_dict(), folder / "model.pt")
        return folder


def load_value(path: str | Path, *, device: str = "cpu", encoder: TextEncoder | None = None) -> TrainedValue:
    """Load a value network saved by `TrainedValue.save`.

    Args:
        path: the folder.
        device: where to load it (`cpu`, `cuda`, `auto`).
        encoder: a sentence encoder to use instead of the one named in the folder (same `dim`).

    Raises:
        FileNotFoundError: the folder holds no saved value network.
        ValueError: the encoder's size differs from the network's.
    """
    folder = Path(path)
    if not (folder / "config.json").is_file() or not (folder / "model.pt").is_file():
        raise FileNotFoundError(f"{folder} holds no value network (config.json and model.pt); train and save one first")
    meta = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config = TrainConfig(**meta["train"])
    net_config = NetConfig(**meta["net"])
    enc = encoder or make_encoder(meta["encoder"], cache_path=config.encoder_cache)
    if enc.dim != net_config.text_dim:
        raise ValueError(f"encoder {enc.name} gives {enc.dim}-d vectors but the network reads {net_config.text_dim}-d")
    dev = resolve_device(device)
    net = ValueNet(net_config)
    net.load_state_dict(torch.load(folder / "model.pt", map_location=dev, weights_only=True))
    net.to(dev)
    report = TrainReport(**{k: v for k, v in meta.get("report", {}).items() if k in ("train_loss", "n_train")})
    return TrainedValue(net, config, enc, report)


def _featurize(samples: Sequence[Sample], max_events: int) -> list[tuple[ViewFeatures, CandidateFeatures, bool]]:
    return [
        (view_features(s.view, s.request, max_events=max_events), candidate_features(s.view, s.action), s.won)
        for s in samples
    ]


def _length_batches(lengths: np.ndarray, batch_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Batches of similar length (little padding) in random order; random within equal lengths."""
    order = np.lexsort((rng.random(len(lengths)), lengths))
    batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
    return [batches[i] for i in rng.permutation(len(batches))]


def train_value(
    samples: Iterable[Any],
    config: TrainConfig | None = None,
    *,
    held_out: Iterable[Any] | None = None,
    encoder: TextEncoder | None = None,
) -> TrainedValue:
    """Train one value network for every role and seat.

    Args:
        samples: `(view, request, action, won)` tuples (or objects with those attributes).
        config: the training config (defaults: `TrainConfig()`).
        held_out: samples from other games, to report held-out metrics and the baseline's.
        encoder: the sentence encoder (default: `make_encoder(config.encoder)`).

    Returns:
        The trained model; its `report` holds the training loss, speed and held-out metrics.

    Raises:
        ValueError: no samples.
    """
    cfg = config or TrainConfig()
    enc = encoder or make_encoder(cfg.encoder, cache_path=cfg.encoder_cache)
    train = [as_sample(s) for s in samples]
    if not train:
        raise ValueError("no training samples; play or load some games first")
    with torch_threads(cfg.threads):
        model = _fit(train, cfg, enc)
    if held_out is not None:
        test = [as_sample(s) for s in held_out]
        won = [s.won for s in test]
        model.report.held_out = metrics(model.predict(test), won)
        baseline = FrequencyBaseline().fit(train)
        model.report.baseline = metrics([baseline.prob(s.view) for s in test], won)
    return model


def _fit(train: list[Sample], cfg: TrainConfig, enc: TextEncoder) -> TrainedValue:
    device = resolve_device(cfg.device)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    net = ValueNet(cfg.net_config(enc.dim)).to(device)
    optimizer = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    loss_fn = nn.BCEWithLogitsLoss()
    started = time.perf_counter()
    feats = _featurize(train, cfg.max_events)
    lengths = np.array([len(f[0].texts) for f in feats])
    steps = cfg.epochs * math.ceil(len(feats) / cfg.batch_size)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=cfg.lr, total_steps=max(steps, 1))
    report = TrainReport(n_train=len(feats))
    for _ in range(cfg.epochs):
        net.train()
        total = 0.0
        for idx in _length_batches(lengths, cfg.batch_size, rng):
            chunk = [feats[i] for i in idx]
            batch, _ = collate([f[0] for f in chunk], [[f[1]] for f in chunk], enc)
            target = torch.tensor([float(f[2]) for f in chunk], device=device)
            logits = net(*_to_tensors(batch, device))[:, 0]
            loss = loss_fn(logits, target)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            total += loss.item() * len(chunk)
        report.train_loss.append(total / len(feats))
    report.seconds = time.perf_counter() - started
    report.samples_per_s = cfg.epochs * len(feats) / report.seconds if report.seconds > 0 else 0.0
    return TrainedValue(net, cfg, enc, report)


__all__ = [
    "CALIBRATION_AGENTS",
    "CachedEncoder",
    "FrequencyBaseline",
    "Metrics",
    "TrainConfig",
    "TrainReport",
    "TrainedValue",
    "agent_samples",
    "cross_type_shrinkage",
    "fit_calibration",
    "fit_shrinkage",
    "load_value",
    "metrics",
    "resolve_device",
    "role_rates",
    "shrink",
    "torch_threads",
    "train_value",
]
