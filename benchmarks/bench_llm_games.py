"""Whole games of LLM players on a real model: time, model calls, tokens and faults per game.

Run: .venv/bin/python benchmarks/bench_llm_games.py [--model local] [--presets aiwolf5 guardian7]
     [--runs 3] [--style llm] [--threads N]

Every seat is an `LLMAgent` sharing one model. Per game it reports wall-clock seconds, model
calls, prompt tokens sent, prompt tokens llama.cpp really evaluated (the rest came from the
per-seat KV caches), completion tokens, decisions and faults per 100 decisions; the Markdown
table shows the median over `--runs` games (seeds 1..runs) with the min-max range.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from lycan.agents.llm import LLMAgent
from lycan.engine.events import Fault
from lycan.engine.runner import run_async
from lycan.models import ChatModel, load_model
from lycan.models.llamacpp import LlamaCppModel
from lycan.rules import get_preset


@dataclass
class GameStats:
    """What one game cost."""

    seconds: float
    calls: int
    prompt_tokens: int
    evaluated: int
    completion_tokens: int
    decisions: int
    faults: int
    largest_prompt: int
    days: int
    winner: str

    @property
    def faults_per_100(self) -> float:
        return 100.0 * self.faults / max(self.decisions, 1)


async def play(model: ChatModel, preset: str, seed: int, style: str) -> GameStats:
    rules = get_preset(preset)
    players = [LLMAgent(model, seed * 100 + seat, style=style) for seat in range(rules.n_players)]
    evaluated_before = model.prompt_evaluated_total if isinstance(model, LlamaCppModel) else 0
    started = time.perf_counter()
    record = await run_async(rules, players, seed)
    seconds = time.perf_counter() - started
    for event in record.events:
        if isinstance(event, Fault):
            print(f"#   fault seat {event.seat} {event.request}: {event.reasons}", flush=True)
    talk_calls = sum(1 for p in players for x in p.exchanges if x.kind in ("talk", "whisper"))
    print(f"#   talk calls {talk_calls}, other calls {sum(len(p.exchanges) for p in players) - talk_calls}")
    evaluated = (model.prompt_evaluated_total - evaluated_before) if isinstance(model, LlamaCppModel) else 0
    return GameStats(
        seconds=seconds,
        calls=sum(p.usage.calls for p in players),
        prompt_tokens=sum(p.usage.prompt_tokens for p in players),
        evaluated=evaluated,
        completion_tokens=sum(p.usage.completion_tokens for p in players),
        decisions=len(record.decisions),
        faults=sum(isinstance(e, Fault) for e in record.events),
        largest_prompt=max(p.usage.largest_prompt for p in players),
        days=max(e.day for e in record.events),
        winner=str(record.winner),
    )


def cell(values: Sequence[float], digits: int = 0) -> str:
    mid = statistics.median(values)
    if len(values) == 1:
        return f"{mid:.{digits}f}"
    return f"{mid:.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--presets", nargs="+", default=["aiwolf5", "guardian7"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--style", default="llm")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    options = {"n_ctx": 2048}
    if args.threads:
        options["n_threads"] = args.threads
    model = load_model(args.model, **options)
    rows = []
    try:
        for preset in args.presets:
            games = []
            for seed in range(1, args.runs + 1):
                stats = await play(model, preset, seed, args.style)
                games.append(stats)
                print(f"# {preset} seed {seed}: {stats}", flush=True)
            rows.append((preset, games))
    finally:
        close = getattr(model, "close", None)
        if close is not None:
            close()
    print()
    print(f"{args.style} players on {args.model}; median (min-max) over N games, seeds 1..N")
    print()
    print(
        "| preset | N | s/game | calls | prompt tok | evaluated tok | completion tok | s/call | decisions "
        "| faults/100 dec | largest prompt |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for preset, games in rows:
        print(
            f"| {preset} | {len(games)} | {cell([g.seconds for g in games])} | {cell([g.calls for g in games])} "
            f"| {cell([g.prompt_tokens for g in games])} | {cell([g.evaluated for g in games])} "
            f"| {cell([g.completion_tokens for g in games])} | {cell([g.seconds / g.calls for g in games], 2)} "
            f"| {cell([g.decisions for g in games])} | {cell([g.faults_per_100 for g in games], 1)} "
            f"| {max(g.largest_prompt for g in games)} |"
        )


if __name__ == "__main__":
    asyncio.run(main())
