"""Counterfactual premise intervention: calls per turn, their cost, and what running them at once gives.

    python benchmarks/bench_interventions.py --turns 200 --chat local:tiny --chat-turns 10

Answers are the `camwolf` agent's belief-engine answers (two identifications, premises = the
events that moved the posterior most) on speaking turns of heuristic self-play (aiwolf5). Each
answer's correct identifications are intervened on as the seed does (every cited premise, and
one premise cited by the other identification). Intervention models: the belief engine, and a
chat model spec (the embedded llama.cpp models) at concurrency 1 and 4. The faithfulness of
these answers is printed too (share of cited premises whose removal changes the conclusion).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time

from lycan.agents.camwolf import Planner, belief_reasoning
from lycan.causal import BeliefIntervener, ChatIntervener, InterventionPlan, intervene
from lycan.causal.faithfulness import Answer, measure
from lycan.causal.turns import sample_turns, self_play_records


def answers(n: int, seed: int) -> list[Answer]:
    records = self_play_records("aiwolf5", max(10, n // 5), 7_000_000)
    turns = sample_turns(records, n, random.Random(seed))
    planner = Planner(0)
    out = []
    for t in turns:
        reasoning = belief_reasoning(planner, t.view)
        idents = [i.to_dict(t.view.names) for i in reasoning.identifications]
        if idents:
            out.append(Answer(json.dumps({"identifications": idents}), t.view, t.truth))
    return out


async def cost(items: list[Answer], intervener: object, concurrency: int) -> dict[str, float]:
    from lycan.agents.camwolf import read_reasoning

    rng = random.Random(0)
    meter = intervener.meter  # type: ignore[attr-defined]
    calls0, started = meter.calls, time.perf_counter()
    for a in items:
        reasoning = read_reasoning(a.text, a.view)
        await intervene(
            a.view, reasoning.identifications, a.truth, intervener, rng, InterventionPlan(), concurrency=concurrency
        )  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    calls = meter.calls - calls0
    return {
        "turns": len(items),
        "calls": calls,
        "calls_per_turn": round(calls / len(items), 2),
        "ms_per_call": round(1000 * seconds / max(1, calls), 2),
        "seconds_per_turn": round(seconds / len(items), 3),
        "concurrency": concurrency,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--chat", default="", help="a chat model spec to time as intervention model too")
    parser.add_argument("--chat-turns", type=int, default=10)
    args = parser.parse_args()
    items = answers(args.turns, 0)
    results: dict[str, object] = {"answers": len(items)}
    results["beliefs"] = await cost(items, BeliefIntervener(), 1)
    for reference in ("conclusion", "unperturbed"):
        plan = InterventionPlan(pool="log", reference=reference)  # type: ignore[arg-type]
        results[f"faithfulness_{reference}"] = (await measure(items, BeliefIntervener(), plan=plan)).to_dict()
    if args.chat:
        from lycan.models import load_model

        model = load_model(args.chat)
        few = items[: args.chat_turns]
        for concurrency in (1, 4):
            results[f"{args.chat}_c{concurrency}"] = await cost(few, ChatIntervener(model), concurrency)
    results["load_average"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
