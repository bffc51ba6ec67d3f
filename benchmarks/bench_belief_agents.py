"""Do heuristic agents play better when they act on the exact belief engine? Win rates, both sides.

For every seed (from 1,000,000 up) and preset, three games on the same deal:
- `heuristic` village vs `heuristic` werewolves (today's baseline),
- `heuristic-beliefs` on every village-side seat vs `heuristic` on the werewolf side,
- `heuristic` on every village-side seat vs `heuristic-beliefs` on the werewolf side.
Prints the village win rate of each setting with its Wilson 95% interval and N, and games/s.

Usage: python benchmarks/bench_belief_agents.py [--games 2000] [--presets guardian7,aiwolf5] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor

from lycan.agents import lineup
from lycan.engine import run_sync
from lycan.engine.game import Game
from lycan.rules import Team, get_preset, team_of
from lycan.stats import Rate

FIRST_SEED = 1_000_000
PLAIN, BELIEFS = "heuristic", "heuristic-beliefs"
#: (village side, werewolf side) of each setting.
SETTINGS = ((PLAIN, PLAIN), (BELIEFS, PLAIN), (PLAIN, BELIEFS))


def play_chunk(preset: str, village: str, werewolf: str, seeds: range) -> tuple[int, int, float]:
    """Village wins, games played and seconds spent over `seeds` (one worker)."""
    rules = get_preset(preset)
    wins = 0
    start = time.perf_counter()
    for seed in seeds:
        kinds = [village if team_of(role) is Team.VILLAGE else werewolf for role in Game(rules, seed).roles]
        rec = run_sync(rules, lineup(kinds, seed), seed)  # type: ignore[arg-type]
        wins += rec.winner == "village"
    return wins, len(seeds), time.perf_counter() - start


def run_setting(pool: ProcessPoolExecutor, preset: str, village: str, werewolf: str, games: int, jobs: int) -> None:
    step = -(-games // (jobs * 4))
    chunks = [range(s, min(s + step, FIRST_SEED + games)) for s in range(FIRST_SEED, FIRST_SEED + games, step)]
    start = time.perf_counter()
    done = list(pool.map(play_chunk, *zip(*[(preset, village, werewolf, c) for c in chunks], strict=True)))
    wall = time.perf_counter() - start
    rate = Rate(sum(d[0] for d in done), sum(d[1] for d in done))
    lo, hi = rate.interval
    per_core = rate.n / sum(d[2] for d in done)
    print(
        f"| {preset} | {village} | {werewolf} | {rate.n} | {rate.value:.1%} [{lo:.1%}, {hi:.1%}] "
        f"| {rate.n / wall:,.1f} | {per_core:,.1f} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="seeds per setting and preset")
    parser.add_argument("--presets", default="guardian7,aiwolf5")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args()
    cpu = platform.processor() or platform.machine()
    print(f"machine: {cpu}, {os.cpu_count()} cores, {args.jobs} workers, Python {platform.python_version()}")
    print(f"seeds {FIRST_SEED}..{FIRST_SEED + args.games - 1}; the same deals in every setting")
    print()
    print("| preset | village side | werewolf side | N | village wins [95% CI] | games/s | games/s per core |")
    print("|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(args.jobs) as pool:
        for preset in args.presets.split(","):
            for village, werewolf in SETTINGS:
                run_setting(pool, preset.strip(), village, werewolf, args.games, args.jobs)


if __name__ == "__main__":
    main()
