"""Werewolves against a village that reasons: which pack policy wins, on the same deals.

Every seat of the village side is `heuristic-beliefs` (votes, divinations and guards from the exact
belief engine): the planner that decides what every LLM seat on the embedded model says and how it
votes, and so the village a `camwolf` pack meets in seed 002's tables. The two werewolves play the
same belief-driven heuristic under one policy per row:

- `heuristic`: today's heuristic (a planned fake seer claim with chance 0.35, a counter-claim with
  chance 0.5 once a seer names the pack, accusations argued from the public posterior);
- the ablations that switch one of those off, or force the fake claim;
- `camwolf`: the policy of camwolf's planner (`lycan.agents.camwolf`), read from its class.

For every seed (from `--first-seed` up) each policy plays the same deal with the same agent seeds,
so rows differ by the pack's policy alone. Prints the werewolf win rate with its Wilson 95% interval
and N, and the paired difference from the first row with a 95% interval.

Usage: python benchmarks/bench_wolf_policy.py [--games 3200] [--preset guardian7] [--jobs 2]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor

from lycan.agents import lineup
from lycan.agents.camwolf import CamWolfAgent
from lycan.agents.heuristic import BeliefHeuristicAgent
from lycan.engine import run_sync
from lycan.engine.game import Game
from lycan.eval.stats import Rate
from lycan.rules import Team, get_preset, team_of

Policy = tuple[float, float, bool]
"""(wolf_fake, counter_claim, wolf_reasons): the pack's attributes of `HeuristicAgent`."""


def camwolf_policy() -> Policy:
    """The policy camwolf's planner plays as a werewolf."""
    planner = CamWolfAgent.planner_type
    return (planner.wolf_fake, planner.counter_claim, planner.wolf_reasons)


POLICIES: dict[str, Policy] = {
    "heuristic": (BeliefHeuristicAgent.wolf_fake, BeliefHeuristicAgent.counter_claim, True),
    "always fake": (1.0, BeliefHeuristicAgent.counter_claim, True),
    "no planned fake": (0.0, BeliefHeuristicAgent.counter_claim, True),
    "no fake, no counter-claim": (0.0, 0.0, True),
    "camwolf": camwolf_policy(),
}


def play_chunk(preset: str, policy: Policy, seeds: range) -> tuple[list[int], float]:
    """Werewolf wins (1 or 0) per seed and seconds spent (one worker)."""
    rules = get_preset(preset)
    out: list[int] = []
    start = time.perf_counter()
    for seed in seeds:
        roles = Game(rules, seed).roles
        agents = lineup(["heuristic-beliefs"] * len(roles), seed)
        for seat, role in enumerate(roles):
            if team_of(role) is Team.WEREWOLF:
                wolf = agents[seat]
                assert isinstance(wolf, BeliefHeuristicAgent)
                wolf.wolf_fake, wolf.counter_claim, wolf.wolf_reasons = policy
        rec = run_sync(rules, agents, seed)
        out.append(int(rec.winner == "werewolf"))
    return out, time.perf_counter() - start


def paired(a: list[int], b: list[int]) -> tuple[float, float]:
    """Mean of b - a and the half-width of its normal 95% interval."""
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3200, help="deals per policy")
    parser.add_argument("--preset", default="guardian7")
    parser.add_argument("--first-seed", type=int, default=3_000_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args()
    cpu = platform.processor() or platform.machine()
    print(f"machine: {cpu}, {os.cpu_count()} cores, {args.jobs} workers, Python {platform.python_version()}")
    print(f"{args.preset}, village: heuristic-beliefs; seeds {args.first_seed}..{args.first_seed + args.games - 1}")
    print()
    print("| pack policy (fake, counter-claim, reasons) | N | werewolf wins [95%] | vs first row | games/s per core |")
    print("|---|---|---|---|---|")
    step = max(1, -(-args.games // (args.jobs * 4)))
    end = args.first_seed + args.games
    chunks = [range(s, min(s + step, end)) for s in range(args.first_seed, end, step)]
    first: list[int] | None = None
    with ProcessPoolExecutor(args.jobs) as pool:
        for name, policy in POLICIES.items():
            done = list(pool.map(play_chunk, [args.preset] * len(chunks), [policy] * len(chunks), chunks))
            wins = [w for chunk, _ in done for w in chunk]
            rate = Rate(sum(wins), len(wins))
            lo, hi = rate.interval
            if first is None:
                first, diff = wins, "-"
            else:
                mean, half = paired(first, wins)
                diff = f"{mean * 100:+.1f} [{(mean - half) * 100:+.1f}, {(mean + half) * 100:+.1f}]"
            fake, counter, reasons = policy
            print(
                f"| {name} ({fake:g}, {counter:g}, {'yes' if reasons else 'no'}) | {rate.n} "
                f"| {rate.value:.1%} [{lo:.1%}, {hi:.1%}] | {diff} | {rate.n / sum(t for _, t in done):,.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
