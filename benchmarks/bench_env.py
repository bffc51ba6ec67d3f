"""AEC environment steps per second with random masked actions (median of several runs).

Usage: python benchmarks/bench_env.py [--steps 20000] [--runs 3] [--presets guardian7,aiwolf5]
Every environment seat is played by `action_space.sample(mask)`; a step is one `last()` (the
observation: text, vector and mask) plus one `step()`, the agents' removal at the end included.
Prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from lycan.env import aec_env


def steps_per_second(preset: str, steps: int, seed: int) -> tuple[float, float]:
    """(steps per second, games per second) over whole games until at least `steps` steps."""
    env = aec_env(preset)
    done = games = 0
    start = time.perf_counter()
    while done < steps:
        env.reset(seed=seed + games)
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(seed + games * 100 + i)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
            done += 1
        games += 1
    elapsed = time.perf_counter() - start
    return done / elapsed, games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--presets", default="guardian7,aiwolf5")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    cpu = platform.processor() or platform.machine()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    print(f"machine: {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load average {load}")
    print(f"pinned to one core; at least {args.steps} steps per run; median of {args.runs} runs")
    print()
    print("| preset | steps/s (median) | games/s (median) | runs (steps/s) |")
    print("|---|---|---|---|")
    for preset in args.presets.split(","):
        rates = [steps_per_second(preset, args.steps, seed=r * 100_000) for r in range(args.runs)]
        steps = [s for s, _ in rates]
        games = [g for _, g in rates]
        runs = ", ".join(f"{s:,.0f}" for s in steps)
        print(f"| {preset} | {statistics.median(steps):,.0f} | {statistics.median(games):,.1f} | {runs} |", flush=True)


if __name__ == "__main__":
    main()
