"""The speech grammar alone: variety of what AI seats say when every turn is the grammar's wording.

Every seat is an `llm` agent whose model refuses every phrasing request (a scripted model that
answers decisions sensibly), so every public turn is worded by `lycan.agents.wording` from the
acts the seat decided. guardian7 and aiwolf5 games, seats named as a web table names AI seats
(`--names ai`) or `Player N`. Reports distinct word pairs over the first 1,000, 5,000 and 17,000
words and the median words per utterance, as `lycan.eval.speech` measures them for every agent.
No model runs, so a run of 50 games takes about half a minute; `--offset` changes the seats'
wording seeds (not the deals), for the spread of the figures.

    python benchmarks/bench_grammar.py --games 25 --names ai [--offset 0]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from lycan.agents.llm import LLMAgent
from lycan.agents.persona import ai_names
from lycan.engine.runner import run_async
from lycan.eval.speech import speech
from lycan.models.base import ChatRequest, ModelError
from lycan.rules import get_preset

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from scripted import ScriptedModel, sensible


def refuses_phrasing(request: ChatRequest) -> str:
    """Sensible decisions; every request to phrase an act fails, so the grammar words it."""
    if "in your own casual words" in request.messages[-1]["content"]:
        raise ModelError("no phrasing here")
    return sensible(request)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=25, help="deals per preset (seeds 1..N)")
    parser.add_argument("--names", choices=("seats", "ai"), default="ai")
    parser.add_argument("--offset", type=int, default=0, help="added to every seat's wording seed")
    args = parser.parse_args()
    started = time.perf_counter()
    records = []
    for seed in range(1, args.games + 1):
        for preset in ("guardian7", "aiwolf5"):
            rules = get_preset(preset)
            players = [
                LLMAgent(ScriptedModel(refuses_phrasing), seed * 10 + s + args.offset, talk="phrase")
                for s in range(rules.n_players)
            ]
            names = ai_names(rules.n_players, seed) if args.names == "ai" else None
            records.append(asyncio.run(run_async(rules, players, seed, names=names)))
    stats = next(iter(speech(records).values()))
    figures = ", ".join(f"{budget:,} words {stats.distinct_pairs(budget)[0]:.3f}" for budget in (1000, 5000, 17000))
    print(
        f"{len(records)} games, seats {args.names}, offset {args.offset}: distinct word pairs over the first "
        f"{figures}; median words per utterance {stats.median_words:.0f} ({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
