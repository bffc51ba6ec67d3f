"""Complete games per second on one core, per preset and agent type (median of several runs).

Usage: python benchmarks/bench_engine.py [--games 2000] [--runs 5] [--agents random,heuristic]
       [--agents-built per-game|once]
Prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from lycan.agents import make_agent
from lycan.engine import run_sync
from lycan.rules import get_preset, preset_names


def games_per_second(preset: str, agent: str, games: int, seed: int, *, agents_per_game: bool = True) -> float:
    """Games per second; `agents_per_game=False` builds the seats' agents once for the run (random agents only)."""
    rules = get_preset(preset)
    start = time.perf_counter()
    players = [make_agent(agent, seed * 1000 + s) for s in range(rules.n_players)]
    for i in range(games):
        if agents_per_game:
            players = [make_agent(agent, (seed + i) * 1000 + s) for s in range(rules.n_players)]
        run_sync(rules, players, seed + i)  # type: ignore[arg-type]
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--agents", default="random,heuristic")
    parser.add_argument("--presets", default=",".join(preset_names()))
    parser.add_argument(
        "--agents-built",
        choices=("per-game", "once"),
        default="per-game",
        help="new agents every game (default), or once per run: the engine alone (random agents keep no game state)",
    )
    args = parser.parse_args()
    if args.agents_built == "once" and args.agents != "random":
        parser.error("--agents-built once is for random agents (other agents keep per-game state)")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    cpu = platform.processor() or platform.machine()
    print(f"machine: {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(
        f"pinned to one core; {args.games} games per run; median of {args.runs} runs; agents built {args.agents_built}"
    )
    print()
    print("| preset | agents | games/s (median) | runs |")
    print("|---|---|---|---|")
    for agent in args.agents.split(","):
        for preset in args.presets.split(","):
            games = args.games if agent == "random" else max(args.games // 4, 50)
            per_game = args.agents_built == "per-game"
            rates = [
                games_per_second(preset, agent, games, seed=r * 100_000, agents_per_game=per_game)
                for r in range(args.runs)
            ]
            runs = ", ".join(f"{r:,.0f}" for r in rates)
            print(f"| {preset} | {agent} | {statistics.median(rates):,.0f} | {runs} |", flush=True)


if __name__ == "__main__":
    main()
