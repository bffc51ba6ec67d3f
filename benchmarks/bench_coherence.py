"""Coherence of LLM talk on a real model, per LLM style and talk mode.

Run: .venv/bin/python benchmarks/bench_coherence.py [--model local] [--styles llm react recon]
     [--modes free phrase] [--games 2] [--seeds 1 2] [--out coherence.json] [--threads N]

Every seat of a guardian7 game is an agent of one style (`llm`, `react`, `recon`, `camwolf`, or
`camwolf+beliefs` for its belief grounding) in one talk mode (`free`: the model writes the speech,
or, for camwolf, its decided act is spoken in template words; `phrase`: a planner decides the act
and the model only words it), all sharing one model. The metrics are `lycan.eval.coherence`'s,
summed over the games of each (style, mode) cell; the Markdown table gives every rate with its 95%
Wilson interval and N, and the seconds per game. `--out` keeps each game's counts as JSON, rewritten after every game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from lycan.agents import make_agent
from lycan.engine.runner import run_async
from lycan.eval.coherence import Coherence, game_coherence
from lycan.eval.report import coherence_cells
from lycan.models import ChatModel, load_model
from lycan.rules import get_preset

PRESET = "guardian7"


async def play(model: ChatModel, style: str, talk: str, seed: int) -> tuple[Coherence, float]:
    """One game of `style` seats in `talk` mode: its coherence counts and its seconds."""
    rules = get_preset(PRESET)
    kind, _, grounding = style.partition("+")
    options = {"grounding": grounding} if grounding else {}
    players = [
        make_agent(kind, seed * 100 + seat, model=model, talk=talk, **options) for seat in range(rules.n_players)
    ]
    started = time.perf_counter()
    record = await run_async(rules, players, seed)
    seconds = time.perf_counter() - started
    return game_coherence(record)[kind], seconds


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--styles", nargs="+", default=["llm", "react", "recon"])
    parser.add_argument("--modes", nargs="+", default=["free", "phrase"])
    parser.add_argument("--games", type=int, default=2, help="games per cell (seeds 1..N unless --seeds)")
    parser.add_argument("--seeds", type=int, nargs="+", default=None)
    parser.add_argument("--out", type=Path, default=None, help="JSON file of every game's counts")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    seeds = args.seeds or list(range(1, args.games + 1))
    options = {"n_ctx": 2048}
    if args.threads:
        options["n_threads"] = args.threads
    model = load_model(args.model, **options)
    cells: dict[str, Coherence] = {}
    seconds: dict[str, list[float]] = {}
    games: list[dict[str, object]] = []
    try:
        # seed outermost: the cells of one seed run back to back, so a change of load on a shared
        # machine falls on every cell alike and their seconds per game stay comparable
        order = [(seed, style, mode) for seed in seeds for style in args.styles for mode in args.modes]
        for seed, style, mode in order:
            label = f"{style}, {mode}"
            counts, took = await play(model, style, mode, seed)
            cells[label] = cells[label] + counts if label in cells else counts
            seconds.setdefault(label, []).append(took)
            games.append({"style": style, "mode": mode, "seed": seed, "seconds": took, **asdict(counts)})
            print(f"# {label} seed {seed}: {took:.0f} s, {counts}", flush=True)
            if args.out:
                args.out.write_text(json.dumps(games, indent=1))
    finally:
        close = getattr(model, "close", None)
        if close is not None:
            close()
    header, rows = coherence_cells(cells)
    header.append("s/game (median, min-max)")
    for row, label in zip(rows, cells, strict=True):
        took = seconds[label]
        row.append(f"{statistics.median(took):.0f} ({min(took):.0f}-{max(took):.0f})")
    print()
    print(f"{PRESET} on {args.model}, every seat one style; seeds {', '.join(map(str, seeds))}")
    print()
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    asyncio.run(main())
