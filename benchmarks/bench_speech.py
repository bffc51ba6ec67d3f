"""How LLM seats talk on a real model: variety, length, reasons, answers, and the old faults.

Run: .venv/bin/python benchmarks/bench_speech.py [--model local] [--agents llm camwolf]
     [--presets guardian7 aiwolf5] [--games 4] [--seed 1] [--records speech.jsonl] [--threads N]
     [--words 17000] [--names ai]

Every seat of a game is one agent type (`llm` in phrase mode, `camwolf`, or `heuristic-beliefs`,
whose talk is the plain templates, as the reference), all seats sharing one model. Games run seed
by seed, the agent types of one seed back to back, so load falls on them alike. The metrics are
`lycan.eval.speech`'s (word for word by another seat, distinct word pairs over the first 1,000 and
17,000 words, words per utterance, accusations citing a seen event and false citations, turns
answering earlier talk) and `lycan.eval.coherence`'s (prompt echo, self-narration, werewolf
self-reveal, votes as said), per agent type over every preset, then per agent type and preset.
`--records` keeps every game as JSON Lines (rewritten after each game), for `lycan report`.
`--words N` plays on past `--games` until every agent type has said N words in public (the
17,000-word budget needs about 35 games per type). `--names ai` names the seats as a web table names
its AI seats (`lycan.agents.persona.ai_names`: fictional names drawn per game from a stream of
their own); by default they are `Player 1` .. `Player n`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from lycan.agents import make_agent
from lycan.agents.persona import ai_names
from lycan.engine.events import Talk
from lycan.engine.record import GameRecord
from lycan.engine.runner import run_async
from lycan.eval.coherence import coherence
from lycan.eval.report import speech_cells
from lycan.eval.speech import speech, verbosity_medians
from lycan.models import ChatModel, load_model
from lycan.rules import get_preset
from lycan.stats import Rate
from lycan.store.jsonl import export_jsonl


async def play(
    model: ChatModel | None, agent: str, preset: str, seed: int, named: bool = False
) -> tuple[GameRecord, float]:
    """One game of `preset` with every seat an `agent`: its record and its seconds."""
    rules = get_preset(preset)
    options = {"model": model, "talk": "phrase"} if agent != "heuristic-beliefs" else {}
    players = [make_agent(agent, seed * 100 + seat, **options) for seat in range(rules.n_players)]
    names = ai_names(rules.n_players, seed) if named else None
    started = time.perf_counter()
    record = await run_async(rules, players, seed, names=names)
    return record, time.perf_counter() - started


def public_words(record: GameRecord) -> int:
    """Words said in public talk in `record` (turns that pass or skip say none)."""
    return sum(len(e.text.split()) for e in record.events if isinstance(e, Talk) and e.channel == "talk")


def _pct(r: Rate) -> str:
    return f"{r.value:.1%} N={r.n}" if r.n else "N/A"


def table(records: Sequence[GameRecord], label: str, seconds: dict[str, list[float]]) -> None:
    """Print the speech and coherence tables of `records` (keys: agent type, `label` added)."""
    talk = speech(records)
    faults = coherence(records)
    header, rows = speech_cells({f"{a}{label}": s for a, s in talk.items()})
    header += ["echo", "self-narration", "werewolf self-reveal", "votes as said", "words by verbosity", "s/game"]
    for row, (agent, st) in zip(rows, talk.items(), strict=True):
        c = faults[agent]
        took = seconds.get(agent, [])
        by = ", ".join(f"{k} {v:g}" for k, v in verbosity_medians(st).items()) or "-"
        row += [
            _pct(c.echo_rate),
            _pct(c.narration_rate),
            _pct(c.wolf_reveal_rate),
            _pct(c.promise_rate),
            by,
            f"{statistics.median(took):.0f} ({min(took):.0f}-{max(took):.0f})" if took else "-",
        ]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--agents", nargs="+", default=["llm", "camwolf"])
    parser.add_argument("--presets", nargs="+", default=["guardian7", "aiwolf5"])
    parser.add_argument("--games", type=int, default=4, help="games per agent type and preset")
    parser.add_argument("--seed", type=int, default=1, help="the first seed (seeds seed..seed+games-1)")
    parser.add_argument("--records", type=Path, default=None, help="JSON Lines file of every game")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--words", type=int, default=0, help="play on until every agent type said this many words")
    parser.add_argument("--names", choices=("seats", "ai"), default="seats", help="Player N, or AI names")
    args = parser.parse_args(argv)
    options = {"n_ctx": 2048}
    if args.threads:
        options["n_threads"] = args.threads
    needs_model = any(a != "heuristic-beliefs" for a in args.agents)
    model = load_model(args.model, **options) if needs_model else None
    records: list[GameRecord] = []
    seconds: dict[tuple[str, str], list[float]] = {}
    said = dict.fromkeys(args.agents, 0)
    seed = args.seed
    try:
        while seed < args.seed + args.games or any(n < args.words for n in said.values()):
            for preset in args.presets:
                for agent in args.agents:
                    if seed >= args.seed + args.games and said[agent] >= args.words:
                        continue
                    record, took = await play(model, agent, preset, seed, named=args.names == "ai")
                    said[agent] += public_words(record)
                    records.append(record)
                    seconds.setdefault((agent, preset), []).append(took)
                    print(f"# {agent} {preset} seed {seed}: {took:.0f} s", flush=True)
                    if args.records:
                        export_jsonl(records, args.records)
            seed += 1
    finally:
        close = getattr(model, "close", None)
        if close is not None:
            close()
    print()
    named = "AI names" if args.names == "ai" else "seats named Player N"
    print(f"Every preset ({', '.join(args.presets)}) on {args.model}, seeds {args.seed}-{seed - 1}, {named}")
    print("public words per agent type: " + ", ".join(f"{a} {n}" for a, n in said.items()))
    print()
    pooled = {a: [s for (b, _), v in seconds.items() if b == a for s in v] for a in args.agents}
    table(records, "", pooled)
    for preset in args.presets:
        print()
        print(f"{preset}:")
        print()
        mine = [r for r in records if r.rules.name == preset]
        table(mine, f" ({preset})", {a: seconds.get((a, preset), []) for a in args.agents})


if __name__ == "__main__":
    asyncio.run(main())
