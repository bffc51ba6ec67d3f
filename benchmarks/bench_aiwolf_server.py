"""Benchmark the AIWolf NLP server: games per minute, and server memory per concurrent game.

The server runs in this process; the agents (our protocol client around RandomAgent) run in a
child process, so the figures are the server's own.

    python benchmarks/bench_aiwolf_server.py [--games 40] [--concurrent 20] [--repeats 3]

Throughput: one team of 5 clients answering instantly plays `--games` games in a row (each
client reconnects after a game). Memory: `--concurrent` tables of 5 clients whose agents wait
20 ms per answer play at once; tracemalloc's peak above the idle baseline, divided by the tables.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import statistics
import time
import tracemalloc

from lycan.agents import RandomAgent
from lycan.aiwolf.client import run_client
from lycan.aiwolf.server import AiwolfServer
from lycan.engine.actions import Action, Request
from lycan.engine.view import View


class SlowRandom(RandomAgent):
    """A random agent that takes `delay` seconds to answer."""

    def __init__(self, seed: int, delay: float) -> None:
        super().__init__(seed)
        self.delay = delay

    async def act(self, view: View, request: Request) -> Action:
        await asyncio.sleep(self.delay)
        return self.decide(view, request)


async def _clients(url: str, teams: int, games: int, delay: float) -> None:
    async def one(team: int, index: int) -> None:
        for g in range(games):
            agent = SlowRandom(team * 1000 + index * 10 + g, delay) if delay else RandomAgent(index * 10 + g)
            await run_client(url, agent, f"bench{team}x", index)

    await asyncio.gather(*(one(t, i + 1) for t in range(teams) for i in range(5)))


def _client_main(url: str, teams: int, games: int, delay: float) -> None:
    asyncio.run(_clients(url, teams, games, delay))


async def throughput(games: int) -> float:
    async with AiwolfServer("aiwolf5", seed=1, action_timeout=10, response_timeout=10) as server:
        proc = mp.get_context("spawn").Process(target=_client_main, args=(server.url, 1, games, 0.0))
        start = time.perf_counter()
        proc.start()
        await server.wait_for_games(games, timeout=600)
        elapsed = time.perf_counter() - start
        await asyncio.to_thread(proc.join, 30)
    return games / elapsed * 60


async def memory(concurrent: int) -> float:
    tracemalloc.start()
    async with AiwolfServer("aiwolf5", seed=1, action_timeout=10, response_timeout=10) as server:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        proc = mp.get_context("spawn").Process(target=_client_main, args=(server.url, concurrent, 1, 0.02))
        proc.start()
        peak_live = 0
        while len(server.records) < concurrent:
            await asyncio.sleep(0.05)
            current, _ = tracemalloc.get_traced_memory()
            if len(server._tasks) == concurrent:
                peak_live = max(peak_live, current)
        await asyncio.to_thread(proc.join, 30)
    tracemalloc.stop()
    return (peak_live - base) / concurrent / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rates = [asyncio.run(throughput(args.games)) for _ in range(args.repeats)]
    kib = [asyncio.run(memory(args.concurrent)) for _ in range(args.repeats)]
    print(f"games per minute (aiwolf5, 5 instant clients): median {statistics.median(rates):.0f}  runs {rates}")
    print(
        f"server memory per concurrent game ({args.concurrent} at once): median {statistics.median(kib):.0f} KiB"
        f"  runs {[round(k) for k in kib]}"
    )


if __name__ == "__main__":
    main()
