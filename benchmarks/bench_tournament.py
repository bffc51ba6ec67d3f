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
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

from lycan.agents import AGENT_KINDS, RandomAgent
from lycan.engine import Action, GameRecord, Request, View
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


# ----------------------------------------------------------------------------- the fake model server
SERVER = """
import asyncio, json, sys
DELAY = float(sys.argv[2])

async def handle(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\\r\\n\\r\\n")
            length = 0
            for line in head.split(b"\\r\\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = json.loads(await reader.readexactly(length)) if length else {}
            await asyncio.sleep(DELAY)
            out = json.dumps({"id": "x", "object": "chat.completion", "model": body.get("model", "fake"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 120, "completion_tokens": 8, "total_tokens": 128}}).encode()
            writer.write(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: "
                         + str(len(out)).encode() + b"\\r\\n\\r\\n" + out)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", int(sys.argv[1]), backlog=512)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()

asyncio.run(main())
"""


class HttpAgent(RandomAgent):
    """Random play, but every decision first waits for one chat completion over HTTP (keep-alive)."""

    label = "http"
    port = 0

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.usage = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "latency_s": 0.0, "model": "fake"}

    async def _chat(self) -> None:
        if self.conn is None:
            self.conn = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.conn
        body = json.dumps({"model": "fake", "messages": [{"role": "user", "content": "your move"}]}).encode()
        start = time.perf_counter()
        writer.write(
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:"))
        usage = json.loads(await reader.readexactly(length))["usage"]
        self.usage["calls"] += 1
        self.usage["prompt_tokens"] += usage["prompt_tokens"]
        self.usage["completion_tokens"] += usage["completion_tokens"]
        self.usage["latency_s"] += time.perf_counter() - start

    async def act(self, view: View, request: Request) -> Action:
        await self._chat()
        return self.decide(view, request)


def scaling(delay: float, runs: int, levels: list[int]) -> dict[int, float]:
    port = 18_000 + os.getpid() % 1000
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(delay)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        server.stdout.readline()
        HttpAgent.port = port
        AGENT_KINDS["http"] = lambda seed: HttpAgent(seed)
        out = {}
        for n in levels:
            games = max(8, 8 * n)
            rates = [
                rate(team_config(f"http-{n}-{r}", "http", "guardian5", games), LocalExecutor(concurrency=n))
                for r in range(runs)
            ]
            out[n] = statistics.median(rates)
            print(f"  N={n}: {out[n]:.1f} games/min ({games} games, runs {[round(x, 1) for x in rates]})", flush=True)
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
    parser.add_argument("--delay", type=float, default=0.05)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--levels", default="1,4,16,32")
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs")
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
    print(f"\n### Latency-bound scaling (one {args.delay * 1000:.0f} ms HTTP call per decision, guardian5)\n")
    levels = [int(x) for x in args.levels.split(",")]
    res = scaling(args.delay, args.runs, levels)
    print("\n| concurrent games N | games/min | x N=1 | ideal |\n|---|---|---|---|")
    for n, r in res.items():
        print(f"| {n} | {r:.1f} | {r / res[levels[0]]:.1f} | {n / levels[0]:.0f} |")
    top = levels[-1]
    ok = res[top] >= 0.8 * top / levels[0] * res[levels[0]]
    share = res[top] / res[levels[0]] / (top / levels[0])
    print(f"\nN={top} reaches {share:.0%} of linear scaling (target 80%): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
