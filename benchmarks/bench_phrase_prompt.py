"""The phrasing prompt, paired: the same speech acts worded under two versions of the prompt.

Run: .venv/bin/python benchmarks/bench_phrase_prompt.py [--games 4] [--model local] [--threads 1]
     [--before DIR] [--seed-base 5000] [--out words.jsonl]

Plays guardian7 games in which every seat is `heuristic-beliefs` (the planner of decide-then-phrase
talk) and keeps each public talk and whisper act with the view and request it answered. Each act is
then worded twice by an `llm` seat in phrase mode, through the agent's own phrasing path and with
the same sampling seed: once with the packaged prompts ("after") and once with the prompt folder
`--before` (by default the packaged prompts with the phrasing prompt's earlier ending, "speak as
yourself (I, me).").

Reported per version: phrasings rejected (the template is spoken instead) with 95% Wilson intervals
and their reasons; the model's phrasings that stammer ("I, I", "I, me, ..."); and the paired
difference in rejections, over the same acts.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import tempfile
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from lycan.agents.base import SyncAgent
from lycan.agents.heuristic_beliefs import BeliefHeuristicAgent
from lycan.agents.llm import LLMAgent
from lycan.agents.phrasing import clean, stammers
from lycan.engine.actions import Action, Request
from lycan.engine.runner import run_async
from lycan.engine.view import View
from lycan.models import load_model
from lycan.rules import get_preset
from lycan.stats import Rate, paired_difference

PRESET = "guardian7"
EARLIER_ENDING = ("speak as yourself.", "speak as yourself (I, me).")
"""The phrasing prompt's ending before the stammer fix: (what it says now, what it said)."""


class ActRecorder(SyncAgent):
    """A planner seat that keeps every speech act it decides, with the view and request it answered."""

    def __init__(self, seed: int, acts: list[tuple[View, Request, Action]]) -> None:
        self.planner = BeliefHeuristicAgent(seed)
        self.acts = acts

    def decide(self, view: View, request: Request) -> Action:
        action = self.planner.decide(view, request)
        if request.kind in ("talk", "whisper") and action.kind == "speak" and action.text:
            self.acts.append((view, request, action))
        return action


def earlier_prompts(folder: Path) -> Path:
    """A prompt folder holding the phrasing prompt as it was before the stammer fix."""
    now = resources.files("lycan.agents").joinpath("prompts", "phrase_user.txt").read_text(encoding="utf-8")
    if EARLIER_ENDING[0] not in now:
        raise SystemExit(f"the packaged phrase_user.txt no longer ends {EARLIER_ENDING[0]!r}; pass --before DIR")
    (folder / "phrase_user.txt").write_text(now.replace(*EARLIER_ENDING))
    return folder


async def word(agent: LLMAgent, view: View, request: Request, act: Action) -> tuple[str, str]:
    """The agent's phrasing of `act`: (the model's cleaned words, why they were rejected or "")."""
    await agent._phrase(view, request, act)
    exchange = agent.exchanges[-1]
    return clean(exchange.raw, view.name), exchange.error


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed-base", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--before", type=Path, default=None, help="prompt folder of the earlier version")
    parser.add_argument("--out", type=Path, default=None, help="JSON lines: each act's wording and verdict per version")
    args = parser.parse_args(argv)
    rules = get_preset(PRESET)
    acts: list[tuple[View, Request, Action]] = []
    for game in range(args.games):
        seed = args.seed_base + game
        await run_async(rules, [ActRecorder(seed * 100 + seat, acts) for seat in range(rules.n_players)], seed)
    options = {"n_ctx": 2048}
    if args.threads:
        options["n_threads"] = args.threads
    model = load_model(args.model, **options)
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        out = stack.enter_context(args.out.open("a")) if args.out else None
        before_dir = args.before or earlier_prompts(Path(tmp))
        versions = {
            "before": LLMAgent(model, 1, talk="phrase", prompt_dir=before_dir),
            "after": LLMAgent(model, 1, talk="phrase"),
        }
        rejected: dict[str, list[int]] = {v: [] for v in versions}
        stammered: dict[str, int] = dict.fromkeys(versions, 0)
        reasons: dict[str, collections.Counter[str]] = {v: collections.Counter() for v in versions}
        started = time.perf_counter()
        for i, (view, request, act) in enumerate(acts):
            for version, agent in versions.items():
                text, error = await word(agent, view, request, act)
                rejected[version].append(int(bool(error)))
                stammered[version] += stammers(text)
                if error:
                    reasons[version][error.removeprefix("phrasing rejected: ")] += 1
                if out is not None:
                    out.write(json.dumps({"act": i, "version": version, "text": text, "error": error}) + "\n")
            if (i + 1) % 20 == 0:
                print(f"# {i + 1} of {len(acts)} acts, {time.perf_counter() - started:.0f} s", flush=True)
    getattr(model, "close", lambda: None)()
    whispers = sum(1 for _, request, _ in acts if request.kind == "whisper")
    last = args.seed_base + args.games - 1
    print(f"\n{len(acts)} acts ({whispers} whispers) from {args.games} games, seeds {args.seed_base}-{last}")
    print("| prompt | phrasings rejected | stammers in the model's words | rejection reasons |")
    print("|---|---|---|---|")
    for version in versions:
        n = len(rejected[version])
        top = ", ".join(f"{reason} {count}" for reason, count in reasons[version].most_common())
        print(f"| {version} | {Rate(sum(rejected[version]), n)} | {Rate(stammered[version], n)} | {top} |")
    print(f"\nrejected, after - before (paired by act): {paired_difference(rejected['after'], rejected['before'])}")


if __name__ == "__main__":
    asyncio.run(main())
