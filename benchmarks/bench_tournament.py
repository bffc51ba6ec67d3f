"""Tournament throughput: games/min of the local and Ray executors, and latency-bound scaling.

Part 1 (CPU-bound) plays random-agent tournaments (`--agents heuristic` for the heuristic agent)
on the local asyncio executor, the local executor with a process pool, and Ray on this machine.

Part 2 (latency-bound) asks how throughput grows with the number N of games played at once when
the model is remote and slow: the target is a rate at N=32 of at least 0.8 x 32 x the N=1 rate.

- The server is `fake_openai_server.py` in its own process on 127.0.0.1 (uvicorn): a real
  OpenAI-compatible `POST /v1/chat/completions`, plain and `stream: true` (SSE chunks, one per
  word, and a usage chunk), answering after a fixed delay (`--delay`, default 0.5 s). Talk gets a
  short sentence; a request with a JSON schema gets an object that satisfies it (the first enum
  value of `target`, the minimum bid). 0.5 s is what a hosted API takes for such short answers
  (a few dozen tokens: time to first token plus generation) at the fast end, so the benchmark
  asks our side to keep its own overhead small beside a realistic wait; a shorter delay would
  measure this 2-core machine's CPU instead of scaling, a longer one would hide our overhead.
- The players are real `LLMAgent`s (style `llm`, guardian5, all five seats) built by the
  tournament from the spec `openai:fake@http://127.0.0.1:PORT/v1`, i.e. `load_model` and the
  OpenAI backend, with its per-server concurrency limit raised to 8 x N.
- Steady state: `run_tournament` with `LocalExecutor(concurrency=N)` plays J = max(5N, 2N+9) games,
  so N games are in flight from the start until the last game starts. Games started together
  end at different times, and the last N-1 games end with fewer and fewer in flight (the tail),
  so the rate is taken between the N-th completion (warm-up over) and the (J-N+1)-th (the last
  moment at which all N slots are still busy): games/min = 60 x (J-2N+1) / (t[J-N+1] - t[N]).
  Each run uses its own seeds (the same ones at every N); the table gives the median of `--runs`
  runs, the 1-minute load average at the end of each run (this machine is shared) and the
  benchmark process's CPU use as a share of one core. Games differ in length (about 25 to 35
  model calls), and the window at N=1 holds other games than the one at N=32, so the table also
  gives model calls/min over the same window, a rate that does not depend on that mix.

Usage: python benchmarks/bench_tournament.py [--games 200] [--runs 3] [--delay 0.5] [--levels 1,4,16,32]
       [--no-ray] [--no-cpu] [--no-scaling]
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

from lycan.arena import Executor, LocalExecutor, RayExecutor, load_config, run_tournament
from lycan.engine import GameRecord


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


def llm_config(run: str, port: int, games: int, max_concurrency: int, seed: int) -> dict[str, Any]:
    player = {
        "agent": "llm",
        "model": f"openai:fake@http://127.0.0.1:{port}/v1",
        "model_options": {"max_concurrency": max_concurrency, "timeout": 60.0},
    }
    setting = {"name": "llm-scaling", "rules": "guardian5", "village": player, "werewolf": player}
    return {"run": run, "games": games, "seed": seed, "settings": [setting]}


def steady_rate(ends: list[tuple[float, int]], n: int) -> tuple[float, float, int]:
    """Games/min and model calls/min between the N-th completion and the last one with N in flight.

    `ends` holds (time, model calls) of each finished game. With J jobs and N slots, job N+k starts
    when game k ends, so all N slots are busy until the (J-N+1)-th completion; before the N-th
    completion the games started together are still falling out of step. Returns both rates and
    how many games the window holds.
    """
    ends = sorted(ends)
    first, last = n, len(ends) - n + 1
    if last <= first:
        raise ValueError(f"{len(ends)} games are too few to measure N={n} in steady state")
    minutes = (ends[last - 1][0] - ends[first - 1][0]) / 60
    calls = sum(c for _, c in ends[first:last])
    return (last - first) / minutes, calls / minutes, last - first


def scaling_run(port: int, n: int, games: int, run: str, seed: int = 0) -> tuple[float, float, int, float, float]:
    """One measurement at N.

    Returns:
        steady games/min, steady model calls/min, games in the window, the 1-minute load average
        at the end, and this process's CPU time as a share of one core over the run.
    """
    ends: list[tuple[float, int]] = []

    def stamp(record: GameRecord) -> None:
        ends.append((time.monotonic(), sum(int(u.get("calls", 0)) for u in record.usage.values())))

    config = load_config(llm_config(run, port, games, max_concurrency=max(16, 8 * n), seed=seed))
    wall, cpu = time.monotonic(), time.process_time()
    result = run_tournament(
        config, store=MemoryStore(), executor=LocalExecutor(concurrency=n), progress=False, on_record=stamp
    )
    if result.faults:
        print(f"  ({result.faults} faults in {result.played} games)", flush=True)
    busy = (time.process_time() - cpu) / (time.monotonic() - wall)
    games_per_min, calls_per_min, window = steady_rate(ends, n)
    return games_per_min, calls_per_min, window, os.getloadavg()[0], busy


def scaling(delay: float, runs: int, levels: list[int], rounds: int) -> dict[int, tuple[float, float, float, float]]:
    """Median steady-state games/min (and the mean load average) per N, `rounds` x N games each run."""
    server, port = start_server(delay)
    try:
        out = {}
        for n in levels:
            games = max(rounds * n, 2 * n + 9)
            measured = [scaling_run(port, n, games, f"llm-{n}-{r}", seed=r) for r in range(runs)]
            rates = [m[0] for m in measured]
            calls = [m[1] for m in measured]
            loads = [round(m[3], 2) for m in measured]
            busy = statistics.mean(m[4] for m in measured)
            out[n] = (statistics.median(rates), statistics.median(calls), statistics.mean(loads), busy)
            print(
                f"  N={n}: {out[n][0]:.1f} games/min (runs {[round(x, 1) for x in rates]}), model calls/min "
                f"{[round(x) for x in calls]}; {games} games a run, {measured[0][2]} in the window, "
                f"load {loads}, client CPU {busy:.0%} of a core",
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
    parser.add_argument("--rounds", type=int, default=5, help="games per run = rounds x N (at least 2N+9)")
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
    base, base_calls = res[levels[0]][0], res[levels[0]][1]
    print(
        "\n| concurrent games N | games/min | x N=1 | share of linear | model calls/min | share of linear (calls) "
        "| load avg (1 min) | client CPU |\n|---|---|---|---|---|---|---|---|"
    )
    for n, (r, c, load, busy) in res.items():
        k = n / levels[0]
        print(
            f"| {n} | {r:.1f} | {r / base:.1f} | {r / base / k:.0%} | {c:.0f} | {c / base_calls / k:.0%} "
            f"| {load:.1f} | {busy:.0%} |"
        )
    top = levels[-1]
    k = top / levels[0]
    share, calls_share = res[top][0] / base / k, res[top][1] / base_calls / k
    print(
        f"\nN={top} reaches {share:.0%} of linear scaling in games/min (target 80%): "
        f"{'met' if share >= 0.8 else 'NOT met'}; {calls_share:.0%} in model calls/min, which does not depend "
        "on how long the games in the window happen to be."
    )


if __name__ == "__main__":
    main()
