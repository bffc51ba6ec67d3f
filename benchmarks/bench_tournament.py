"""Tournament throughput: games/min of the local and Ray executors, and latency-bound scaling.

Part 1 plays random-agent tournaments (add `--agents heuristic` where that agent exists) on the
local asyncio executor, the local executor with a process pool, and Ray on this machine.
Part 2 starts a tiny OpenAI-compatible chat-completions server (asyncio, answers after a fixed
delay) and plays games whose every decision makes one HTTP call to it, with N = 1, 4, 16, 32
games at once; the target is a rate at N=32 of at least 0.8 x 32 x the N=1 rate.
Medians of `--runs` runs. Prints Markdown tables.

Usage: python benchmarks/bench_tournament.py [--games 200] [--runs 3] [--delay 0.05] [--no-ray]
"""

from __future__ import annotations

import argparse
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lycan.engine import GameRecord
from lycan.eval.tournament import Executor, LocalExecutor, RayExecutor, load_config, run_tournament


class MemoryStore:
    def __init__(self) -> None:
        self.games: dict[str, GameRecord] = {}

    def save(self, record: GameRecord, run: str | None = None) -> bool:
        new = record.game_id not in self.games
        self.games[record.game_id] = record
        return new

    def game_ids(self, run: str | None = None) -> set[str]:
        return set(self.games)

    def iter_records(self, run: str | None = None) -> Iterator[GameRecord]:
        return iter(self.games.values())


def rate(config: dict[str, Any], executor: Executor) -> float:
    res = run_tournament(load_config(config), store=MemoryStore(), executor=executor, progress=False)
    return res.games_per_minute


def team_config(run: str, agent: str, preset: str, games: int) -> dict[str, Any]:
    return {
        "run": run,
        "games": games,
        "settings": [{"name": run, "rules": preset, "village": agent, "werewolf": agent}],
    }


# ----------------------------------------------------------------------------- latency-bound scaling
SERVER = Path(__file__).with_name("fake_openai_server.py")


def start_server(delay: float) -> tuple[subprocess.Popen[str], int]:
    """The fake OpenAI-compatible server in its own process, on a free port of 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, str(SERVER), str(port), str(delay)], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    if server.stdout.readline().strip() != "ready":
        server.kill()
        raise SystemExit("the fake OpenAI server did not start")
    return server, port


def llm_config(run: str, port: int, games: int, max_concurrency: int) -> dict[str, Any]:
    player = {
        "agent": "llm",
        "model": f"openai:fake@http://127.0.0.1:{port}/v1",
        "model_options": {"max_concurrency": max_concurrency, "timeout": 60.0},
    }
    return {
        "run": run,
        "games": games,
        "settings": [{"name": run, "rules": "guardian5", "village": player, "werewolf": player}],
    }


def steady_rate(stamps: list[float], n: int) -> tuple[float, int]:
    """Games/min between the N-th completion and the last one with N games still in flight.

    With J jobs and N slots, job N+k starts when game k ends, so all N slots are busy until the
    (J-N+1)-th completion; before the N-th completion the games started together are still
    falling out of step. Returns the rate and how many games the window holds.
    """
    stamps = sorted(stamps)
    first, last = n, len(stamps) - n + 1
    if last <= first:
        raise ValueError(f"{len(stamps)} games are too few to measure N={n} in steady state")
    return 60 * (last - first) / (stamps[last - 1] - stamps[first - 1]), last - first


def scaling_run(port: int, n: int, games: int, run: str) -> tuple[float, int, float, float]:
    """One measurement at N: (steady games/min, games in the window, model calls per game, load average)."""
    stamps: list[float] = []
    calls: list[int] = []

    def stamp(record: GameRecord) -> None:
        stamps.append(time.monotonic())
        usage = record.meta.get("usage", {})
        calls.append(sum(int(u.get("calls", 0)) for u in usage.values()))

    config = load_config(llm_config(run, port, games, max_concurrency=max(16, 8 * n)))
    result = run_tournament(
        config, store=MemoryStore(), executor=LocalExecutor(concurrency=n), progress=False, on_record=stamp
    )
    if result.faults:
        print(f"  ({result.faults} faults in {result.played} games)", flush=True)
    per_min, window = steady_rate(stamps, n)
    return per_min, window, statistics.mean(calls), os.getloadavg()[0]


def scaling(delay: float, runs: int, levels: list[int], rounds: int) -> dict[int, tuple[float, float]]:
    """Median steady-state games/min (and the mean load average) per N, `rounds` x N games each run."""
    server, port = start_server(delay)
    try:
        out = {}
        for n in levels:
            games = max(rounds * n, 2 * n + 3)
            measured = [scaling_run(port, n, games, f"llm-{n}-{r}") for r in range(runs)]
            rates = [m[0] for m in measured]
            loads = [m[3] for m in measured]
            out[n] = (statistics.median(rates), statistics.mean(loads))
            print(
                f"  N={n}: {out[n][0]:.1f} games/min (runs {[round(x, 1) for x in rates]}; {games} games a run, "
                f"{measured[0][1]} in the window, {measured[0][2]:.0f} model calls a game, load {loads})",
                flush=True,
            )
        return out
    finally:
        server.kill()
        server.wait()
        if server.stdout is not None:
            server.stdout.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--agents", default="random")
    parser.add_argument("--preset", default="guardian7")
    parser.add_argument("--delay", type=float, default=0.5, help="seconds the fake server takes per answer")
    parser.add_argument("--rounds", type=int, default=4, help="games per run = rounds x N (at least 2N+3)")
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--no-cpu", action="store_true", help="skip the CPU-bound executor table")
    parser.add_argument("--no-scaling", action="store_true", help="skip the latency-bound scaling table")
    parser.add_argument("--levels", default="1,4,16,32")
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs")
    if not args.no_cpu:
        cpu_tables(args)
    main_scaling(args)


def cpu_tables(args: argparse.Namespace) -> None:
    print(f"\n### CPU-bound tournaments ({args.preset}, {args.games} games, median of {args.runs})\n")
    print("| agents | executor | games/min |\n|---|---|---|")
    executors: list[tuple[str, Executor]] = [
        ("local asyncio", LocalExecutor(concurrency=8)),
        ("local, 2-process pool", LocalExecutor(concurrency=8, processes=2)),
    ]
    if not args.no_ray:
        try:
            import ray

            ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
            executors.append((f"Ray (local, {os.cpu_count()} CPUs)", RayExecutor(max_in_flight=64)))
        except ImportError:
            print("(Ray is not installed: pip install 'lycan[ray]')")
    for agent in args.agents.split(","):
        for name, ex in executors:
            rates = [
                rate(team_config(f"{agent}-{name}-{r}", agent, args.preset, args.games), ex) for r in range(args.runs)
            ]
            print(f"| {agent} | {name} | {statistics.median(rates):.0f} |", flush=True)


def main_scaling(args: argparse.Namespace) -> None:
    if args.no_scaling:
        return
    levels = [int(x) for x in args.levels.split(",")]
    print(
        f"\n### Latency-bound scaling: LLM players (style llm, guardian5) against an OpenAI-compatible server "
        f"answering after {args.delay * 1000:.0f} ms; steady state, median of {args.runs}\n"
    )
    res = scaling(args.delay, args.runs, levels, args.rounds)
    base = res[levels[0]][0]
    print("\n| concurrent games N | games/min | x N=1 | share of linear | load avg (1 min) |\n|---|---|---|---|---|")
    for n, (r, load) in res.items():
        print(f"| {n} | {r:.1f} | {r / base:.1f} | {r / base / (n / levels[0]):.0%} | {load:.1f} |")
    top = levels[-1]
    share = res[top][0] / base / (top / levels[0])
    print(f"\nN={top} reaches {share:.0%} of linear scaling (target 80%): {'met' if share >= 0.8 else 'NOT met'}")


if __name__ == "__main__":
    main()
