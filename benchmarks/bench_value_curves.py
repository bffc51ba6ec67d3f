"""The shipped value network on fresh games: P(win) per role over days, and its calibration.

Heuristic aiwolf5 games on seeds 1,000,000+ (the network learnt from seeds 3,000,000+); every
decision of every seat is scored with the action actually taken. Prints the mean P(win) and the
observed win rate per role and day (seed 000's value-over-time figure, for every game), Brier,
log-loss and ECE over all decisions, and writes two plots to benchmarks/results/.

Games can be read from a database or a JSONL file instead (`--db`, `--jsonl`, e.g. contest logs
imported with `lycan aiwolf-log import`: decisions are then read from the events, see
`lycan.data.samples.event_points`), or played by another agent type (`--agent`). Beside the
network, the role-only baseline: each decision forecast with its role's win rate over the same
games (what knowing one's role alone gives).

    python benchmarks/bench_value_curves.py --games 300
    python benchmarks/bench_value_curves.py --jsonl contest.jsonl
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from lycan.agents import make_agent
from lycan.data.samples import decision_points
from lycan.engine import run_sync
from lycan.engine.seeds import derive
from lycan.rules import get_preset
from lycan.value import default_value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--plots", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--agent", default="heuristic", help="the agent type that plays every seat")
    parser.add_argument("--db", type=Path, default=None, help="read aiwolf5 games from this database instead")
    parser.add_argument("--jsonl", type=Path, default=None, help="read aiwolf5 games from this JSONL file instead")
    args = parser.parse_args()
    rules = get_preset("aiwolf5")
    value = default_value()
    by_role_day: dict[tuple[str, int], list[tuple[float, int]]] = defaultdict(list)
    pairs: list[tuple[float, int]] = []
    roles_won: list[tuple[str, int]] = []
    started = time.perf_counter()
    if args.db is not None or args.jsonl is not None:
        if args.jsonl is not None:
            from lycan.store.jsonl import import_jsonl

            records = [r for r in import_jsonl(args.jsonl) if r.rules.name == "aiwolf5"]
        else:
            from lycan.store import GameStore

            records = [r for r in GameStore(args.db).iter_records() if r.rules.name == "aiwolf5"]
        args.games = len(records)
    else:
        records = (
            run_sync(
                rules, [make_agent(args.agent, derive(1_000_000 + i, "agent", s)) for s in range(5)], 1_000_000 + i
            )
            for i in range(args.games)
        )
    for record in records:
        for p in decision_points(record):
            v = value.score(p.view, p.request, [p.action])[0]
            pairs.append((v, int(p.won)))
            roles_won.append((p.role.value, int(p.won)))
            by_role_day[(p.role.value, min(p.view.day, 3))].append((v, int(p.won)))
    took = time.perf_counter() - started
    p = np.array([a for a, _ in pairs])
    y = np.array([b for _, b in pairs])
    brier = float(np.mean((p - y) ** 2))
    ll = float(-np.mean(y * np.log(np.clip(p, 1e-6, 1)) + (1 - y) * np.log(np.clip(1 - p, 1e-6, 1))))
    bins = np.minimum((p * 10).astype(int), 9)
    table = [
        (float(p[bins == b].mean()), float(y[bins == b].mean()), int((bins == b).sum()))
        for b in range(10)
        if (bins == b).any()
    ]
    ece = sum(k / len(p) * abs(mp - fr) for mp, fr, k in table)
    print(f"{args.games} games, {len(pairs)} decisions ({took:.0f} s)")
    print(f"Brier {brier:.4f}, log-loss {ll:.4f}, ECE {ece:.4f}")
    rate = {r: np.mean([w for rr, w in roles_won if rr == r]) for r in {rr for rr, _ in roles_won}}
    base = np.array([rate[r] for r, _ in roles_won])
    print(f"role-only baseline: Brier {float(np.mean((base - y) ** 2)):.4f}")
    print("reliability: " + ", ".join(f"{a:.2f}->{b:.2f} ({k})" for a, b, k in table))
    roles = sorted({r for r, _ in by_role_day})
    print(f"{'role':<10} " + " ".join(f"{'day ' + str(d) + ('+' if d == 3 else ''):>17}" for d in range(4)))
    for role in roles:
        cells = []
        for d in range(4):
            got = by_role_day.get((role, d), [])
            cells.append(f"{np.mean([v for v, _ in got]):.2f} / {np.mean([w for _, w in got]):.2f}" if got else "-")
        print(f"{role:<10} " + " ".join(f"{c:>17}" for c in cells))
    print("(each cell: mean predicted P(win) / observed win rate)")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    args.plots.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for role in roles:
        days = [d for d in range(4) if by_role_day.get((role, d))]
        ax.plot(days, [np.mean([v for v, _ in by_role_day[(role, d)]]) for d in days], marker="o", label=role)
    ax.set_xlabel("day (3 = day 3 and later)")
    ax.set_ylabel("mean P(win) of the taken action")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.plots / "value_by_day.png", dpi=100)
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1)
    ax.plot([t[0] for t in table], [t[1] for t in table], marker="o")
    ax.set_xlabel("P(win) predicted")
    ax.set_ylabel("observed win rate")
    ax.set_title(f"value network, aiwolf5: ECE {ece:.3f}", fontsize=9)
    fig.tight_layout()
    fig.savefig(args.plots / "value_reliability.png", dpi=100)


if __name__ == "__main__":
    main()
