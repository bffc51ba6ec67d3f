"""The value network on agent types it never saw: leave-one-agent-type-out training and testing.

aiwolf5 games of several agent types are played here (each type against itself, seeds from
5,000,000 up; deepwolf without search, so that it is its network's own choices). For each type T,
a value network is trained on the games of every other type and tested on T's games, every
decision scored with the action taken: Brier, log-loss, expected calibration error (10 equal
bins) and AUC, beside two baselines fitted on the same training games: the win rate of the seat's
role alone, and `FrequencyBaseline` (role, day and living seats). Beside the network as trained, the
network shrunk toward the role-only rate by the alpha that the training types alone give when each
of them is left out in turn (`lycan.train.value.cross_type_shrinkage`: three more networks per
held-out type, none of which sees the held-out type). The network is small and trained briefly on
a CPU (hashing sentence encoder); a GPU run of `lycan.train.pipeline` uses the same code at full size.

    python benchmarks/bench_value_loo.py --games 150
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np

from lycan.agents import make_agent
from lycan.data.samples import decision_points
from lycan.engine import run_sync
from lycan.engine.seeds import derive
from lycan.rules import get_preset
from lycan.train.value import FrequencyBaseline, TrainConfig, cross_type_shrinkage, shrink, train_value
from lycan.value.base import Sample

TYPES: dict[str, dict[str, object]] = {
    "heuristic": {},
    "heuristic-beliefs": {},
    "random": {},
    "deepwolf": {"rollouts": 0},
}


def games_of(kind: str, games: int, first: int) -> list[list[Sample]]:
    rules = get_preset("aiwolf5")
    out = []
    for i in range(games):
        seed = first + i
        players = [make_agent(kind, derive(seed, "agent", s), **TYPES[kind]) for s in range(rules.n_players)]
        record = run_sync(rules, players, seed)  # type: ignore[arg-type]
        out.append([Sample(p.view, p.request, p.action, p.won) for p in decision_points(record)])
    return out


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    """Brier, log-loss, ECE (10 bins) and AUC."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    brier = float(np.mean((p - y) ** 2))
    ll = float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))
    bins = np.minimum((p * 10).astype(int), 9)
    ece = float(
        sum(abs(p[bins == b].mean() - y[bins == b].mean()) * (bins == b).mean() for b in range(10) if (bins == b).any())
    )
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    pos = y.sum()
    auc = float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / max(pos * (len(y) - pos), 1))
    return brier, ll, ece, auc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150, help="games per agent type")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--encoder", default="hash:256")
    args = parser.parse_args()
    started = time.perf_counter()
    data = {kind: games_of(kind, args.games, 5_000_000 + 100_000 * n) for n, kind in enumerate(TYPES)}
    counts = ", ".join(f"{k} {sum(map(len, v))}" for k, v in data.items())
    took = time.perf_counter() - started
    print(f"aiwolf5: {args.games} games per type, {counts} decisions ({took:.0f} s)")
    print(
        "| held-out type | decisions | network Brier | log-loss | ECE | AUC | shrunk Brier (alpha) | shrunk log-loss "
        "| shrunk ECE | role-only Brier | role, day, living Brier |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for held in TYPES:
        train = [s for kind, games in data.items() if kind != held for game in games for s in game]
        test = [s for game in data[held] for s in game]
        config = TrainConfig(epochs=args.epochs, encoder=args.encoder, device="cpu")
        model = train_value(train, config)
        p = np.array([model.score(s.view, s.request, [s.action])[0] for s in test])
        y = np.array([float(s.won) for s in test])
        brier, ll, ece, auc = scores(p, y)
        wins: dict[str, list[float]] = defaultdict(list)
        for s in train:
            wins[s.view.role.value].append(float(s.won))
        role_only = np.array([np.mean(wins[s.view.role.value]) for s in test])
        freq = FrequencyBaseline().fit(train)
        freq_p = np.array([freq.prob(s.view) for s in test])
        inner = {kind: [s for game in games for s in game] for kind, games in data.items() if kind != held}
        alpha, _ = cross_type_shrinkage(inner, config)
        s_brier, s_ll, s_ece, _ = scores(shrink(p, role_only, alpha), y)
        print(
            f"| {held} | {len(test)} | {brier:.4f} | {ll:.4f} | {ece:.4f} | {auc:.3f} | "
            f"**{s_brier:.4f}** ({alpha:.2f}) | {s_ll:.4f} | {s_ece:.4f} | "
            f"{scores(role_only, y)[0]:.4f} | {scores(freq_p, y)[0]:.4f} |",
            flush=True,
        )
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
