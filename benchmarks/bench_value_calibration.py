"""The shipped value network on players it never saw, raw and with the calibration stored beside it.

The shipped network was trained on heuristic self-play. Here aiwolf5 games of four agent types
are played twice over, on two seed ranges: calibration games and test games (each type against
itself; deepwolf without search, so that it is its network's own choices). For each type the
network was not trained on, a calibration (`lycan.train.value.fit_calibration`) is fitted on the
calibration games of the *other* such types only, and the test games of the held-out type are
scored three ways: the network as shipped, the network calibrated, and each role's win rate alone
(from the same calibration games). The heuristic row shows the cost of the calibration fitted on
all three other types, on the network's own training type. Every decision is scored with the
action taken: Brier, log-loss, expected calibration error (10 bins) and AUC.

    python benchmarks/bench_value_calibration.py --games 60 [--first-seed 9000000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from lycan.train.value import CALIBRATION_AGENTS, agent_samples, fit_calibration
from lycan.value import default_value
from lycan.value.base import Sample

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_value_loo import scores

TRAINED_ON = "heuristic"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per agent type and seed range")
    parser.add_argument("--first-seed", type=int, default=9_000_000, help="seed of the first calibration game")
    args = parser.parse_args()
    started = time.perf_counter()
    model = default_value()
    kinds = [TRAINED_ON, *CALIBRATION_AGENTS]
    options = {TRAINED_ON: {}, **CALIBRATION_AGENTS}
    calib: dict[str, list[Sample]] = {}
    test: dict[str, list[Sample]] = {}
    for n, kind in enumerate(kinds):
        first = args.first_seed + 100_000 * n
        calib[kind] = agent_samples(kind, args.games, first, options=options[kind])
        test[kind] = agent_samples(kind, args.games, first + 500_000, options=options[kind])
    counts = ", ".join(f"{k} {len(test[k])}" for k in kinds)
    print(f"aiwolf5: {args.games} calibration and {args.games} test games per type; test decisions {counts}")
    print(f"({time.perf_counter() - started:.0f} s to play)")
    print(
        "| held-out type | calibrated on | alpha | network Brier | log-loss | ECE | AUC "
        "| calibrated Brier | log-loss | ECE | role-only Brier | log-loss |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for held in kinds:
        others = {k: calib[k] for k in CALIBRATION_AGENTS if k != held}
        calibration = fit_calibration(model, others, games=args.games)
        samples = test[held]
        p = np.array([model.score(s.view, s.request, [s.action])[0] for s in samples])
        y = np.array([float(s.won) for s in samples])
        c = np.array([calibration.apply(float(q), s.view.role.value) for q, s in zip(p, samples, strict=True)])
        r = np.array([calibration.role_rates[s.view.role.value] for s in samples])
        raw, cal, role = scores(p, y), scores(c, y), scores(r, y)
        print(
            f"| {held}{' (trained on)' if held == TRAINED_ON else ''} | {', '.join(others)} | {calibration.alpha:.2f} "
            f"| {raw[0]:.4f} | {raw[1]:.4f} | {raw[2]:.4f} | {raw[3]:.3f} "
            f"| **{cal[0]:.4f}** | {cal[1]:.4f} | {cal[2]:.4f} | {role[0]:.4f} | {role[1]:.4f} |",
            flush=True,
        )
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
