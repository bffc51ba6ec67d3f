"""Schema-constrained decoding on the embedded model: llguidance with forced tokens vs llama-cpp-python's grammar.

The requests are the camwolf Reasoner's, built as the agent builds them (its prompt, its schema, one
KV-cache session per game): guardian7 games are played by heuristic seats, and at each seat's first
talk turn of each day from day 1 the Reasoner request for that view is taken. Every request is
answered by two in-process copies of the model, one per decoding, alternating which goes first,
so both see the same load. Reported: seconds per call (median and total), completion tokens,
the share of them sampled, and how many answers `read_reasoning` accepts.

    .venv/bin/python benchmarks/bench_schema_decoding.py --games 2 --threads 1
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import time
from dataclasses import dataclass, field, replace
from typing import Any

from lycan.agents.camwolf import REASON_TOKENS, CamWolfAgent, read_reasoning, reasoner_schema
from lycan.agents.heuristic import HeuristicAgent
from lycan.agents.parsing import ParseError
from lycan.engine.actions import Request
from lycan.engine.game import Game
from lycan.engine.view import View
from lycan.models import ChatRequest, load_model
from lycan.models.llamacpp import LlamaCppModel
from lycan.rules import Role, get_preset

MODES = ("grammar", "llguidance")


@dataclass
class Tally:
    seconds: list[float] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    sampled: list[int] = field(default_factory=list)
    accepted: int = 0


def reasoner_requests(seed: int, model: LlamaCppModel) -> list[tuple[View, ChatRequest]]:
    """The Reasoner's requests of one guardian7 game played by heuristic seats."""
    game = Game(get_preset("guardian7"), seed)
    seats = [HeuristicAgent(seed * 10 + s) for s in range(game.rules.n_players)]
    agent = CamWolfAgent(model, seed, talk="phrase")
    out: list[tuple[View, ChatRequest]] = []
    seen: set[tuple[int, int]] = set()
    play = game.play()
    try:
        batch = next(play)
        while True:
            for request in batch:
                if request.kind == "talk" and request.day >= 1 and (request.seat, request.day) not in seen:
                    seen.add((request.seat, request.day))
                    out.append((game.view(request.seat), _chat(agent, game.view(request.seat), request, seed)))
            batch = play.send({r.id: seats[r.seat].decide(game.view(r.seat), r) for r in batch})
    except StopIteration:
        return out


def _chat(agent: CamWolfAgent, view: View, request: Request, seed: int) -> ChatRequest:
    prompt = agent.prompt(view)
    messages, ids = prompt.messages(view), prompt.ids
    roles = [r.value for r in Role if r in view.rules.roles]
    names = [view.names[s] for s in range(view.n_players) if s != view.seat]
    return ChatRequest(
        messages=messages,
        max_tokens=REASON_TOKENS,
        temperature=agent.temperature,
        top_p=agent.top_p,
        seed=seed * 7919 + request.id,
        json_schema=reasoner_schema(names, roles, ids),
        session=f"game-{seed}:reason",
    )


def _accepted(text: str, view: View) -> bool:
    """Whether the camwolf agent can use this Reasoner answer (`read_reasoning` takes it)."""
    try:
        read_reasoning(text, view)
    except ParseError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--model", default="local")
    args = parser.parse_args()
    models: dict[str, Any] = {
        mode: load_model(args.model, n_threads=args.threads, schema_decoding=mode) for mode in MODES
    }
    for model in models.values():
        asyncio.run(model.load())
    tallies = {mode: Tally() for mode in MODES}
    calls = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        requests = reasoner_requests(seed, models["grammar"])
        for index, (view, chat) in enumerate(requests):
            order = MODES if (calls + index) % 2 == 0 else MODES[::-1]
            for mode in order:
                model = models[mode]
                started = time.perf_counter()
                result = asyncio.run(model.chat(replace(chat, session=f"{chat.session}:{mode}")))
                tally = tallies[mode]
                tally.seconds.append(time.perf_counter() - started)
                tally.tokens.append(result.usage.completion_tokens)
                tally.sampled.append(model.last_sampled or result.usage.completion_tokens)
                tally.accepted += _accepted(result.text, view)
        calls += len(requests)
    print(
        f"{args.model}, {calls} Reasoner calls from {args.games} guardian7 games (seeds {args.first_seed}+), "
        f"{args.threads} thread(s); {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    print("| decoding | s/call (median) | s total | completion tokens (median) | sampled | answers accepted |")
    print("|---|---|---|---|---|---|")
    for mode in MODES:
        t = tallies[mode]
        share = sum(t.sampled) / max(1, sum(t.tokens))
        print(
            f"| {mode} | {statistics.median(t.seconds):.2f} | {sum(t.seconds):.1f} | "
            f"{statistics.median(t.tokens):.0f} | {share:.0%} | {t.accepted} of {len(t.seconds)} |"
        )
    ratio = sum(tallies["grammar"].seconds) / sum(tallies["llguidance"].seconds)
    print(f"grammar / llguidance, total seconds: {ratio:.2f}x")
    for model in models.values():
        model.close()


if __name__ == "__main__":
    main()
