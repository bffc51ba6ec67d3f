"""Playing strength of the `deepwolf` agent in aiwolf5 (seed 000's Tables 2-3 shape).

For each role, on N seeds whose deal gives that role to some seat, that seat is played once by
`deepwolf` (the shipped network) and once by `heuristic`, the other four seats by `heuristic`
every time: the same deals, so the difference is the agent's. Win rates with Wilson 95% intervals,
and the paired difference of each agent with the last one over the same deals (mean of per-deal win
differences, normal 95% interval): pairing removes the deals' own variance, so it resolves far
smaller differences than two independent intervals do.

    python benchmarks/bench_deepwolf.py --games 500 --jobs 2
    python benchmarks/bench_deepwolf.py --agents deepwolf:anchor=heuristic-beliefs heuristic-beliefs heuristic
    python benchmarks/bench_deepwolf.py --others llm --model local --games 25 --roles villager werewolf

With `--others llm --model SPEC` the four other seats are `llm` players on that model (loaded once
per worker process and shared by its seats; games through the async runner).

An agent is `TYPE` or `TYPE:KEY=VALUE,...` (options passed to `make_agent`).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from lycan.engine import Game, run_sync
from lycan.engine.seeds import derive
from lycan.eval.stats import Rate
from lycan.rules import Role, get_preset, team_of

ROLES = (Role.VILLAGER, Role.SEER, Role.POSSESSED, Role.WEREWOLF)
FIRST_SEED = 1_000_000


def seats_for(role: Role, games: int, first: int = FIRST_SEED) -> list[tuple[int, int]]:
    """(seed, seat) pairs: the first `games` seeds from `first`, each with a seat dealt `role`."""
    rules = get_preset("aiwolf5")
    out = []
    seed = first
    while len(out) < games:
        roles = Game(rules, seed).roles
        holders = [s for s, r in enumerate(roles) if r is role]
        out.append((seed, holders[seed % len(holders)]))
        seed += 1
    return out


_MODELS: dict[str, Any] = {}


def play(job: tuple[str, int, int, str, str]) -> tuple[bool, float]:
    """Play one game with `agent` on `seat` and `others` elsewhere; (whether that seat's side won, seconds)."""
    from lycan.agents import LLM_KINDS, make_agent
    from lycan.engine.runner import run_async

    agent, seed, seat, others, model_spec = job
    kind, _, spec = agent.partition(":")
    options = dict(item.split("=", 1) for item in spec.split(",") if item)
    rules = get_preset("aiwolf5")
    model = None
    if others in LLM_KINDS:
        if model_spec not in _MODELS:
            from lycan.models import load_model

            _MODELS[model_spec] = load_model(model_spec)
        model = _MODELS[model_spec]
    players = [make_agent(others, derive(seed, "agent", s), model=model) for s in range(rules.n_players)]
    players[seat] = make_agent(kind, derive(seed, "agent", seat), **options)
    started = time.perf_counter()
    sync = model is None
    record = run_sync(rules, players, seed) if sync else asyncio.run(run_async(rules, players, seed))  # type: ignore[arg-type]
    return team_of(record.roles[seat]).value == record.winner, time.perf_counter() - started


def paired(a: list[bool], b: list[bool]) -> tuple[float, float, float]:
    """Mean of a_i - b_i over paired outcomes, with a normal 95% interval."""
    diffs = [int(x) - int(y) for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--agents", nargs="+", default=["deepwolf", "heuristic"], help="agents to compare")
    parser.add_argument("--others", default="heuristic", help="the agent type of the four other seats")
    parser.add_argument("--model", default="local", help="their model, when they are an LLM type")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED, help="seeds from here (keep selection apart)")
    parser.add_argument(
        "--roles",
        nargs="+",
        choices=[r.value for r in ROLES],
        default=[r.value for r in ROLES],
        help="roles to measure",
    )
    args = parser.parse_args()
    agents: list[str] = args.agents
    others = args.others if args.others == "heuristic" else f"{args.others} on {args.model}"
    print(f"aiwolf5, one seat of the role played by the agent, four {others} seats; N = {args.games} per cell")
    head = " ".join(f"{a:>30}" for a in agents)
    versus = "  ".join(f"{a} - {agents[-1]}" for a in agents[:-1])
    print(f"{'role':<10} {head}  s/game ({agents[0]})  {versus} (paired)")
    with ProcessPoolExecutor(args.jobs) as pool:
        for role in (r for r in ROLES if r.value in args.roles):
            pairs = seats_for(role, args.games, args.first_seed)
            cells = {}
            outcomes: dict[str, list[bool]] = {}
            for agent in agents:
                jobs = [(agent, seed, seat, args.others, args.model) for seed, seat in pairs]
                results = list(pool.map(play, jobs, chunksize=1 if args.others != "heuristic" else 8))
                outcomes[agent] = [w for w, _ in results]
                cells[agent] = (
                    Rate(sum(w for w, _ in results), len(results)),
                    sum(t for _, t in results) / len(results),
                )
            shown = []
            for agent in agents:
                rate = cells[agent][0]
                lo, hi = rate.interval
                shown.append(f"{rate.value:6.1%} [{lo:.1%}, {hi:.1%}]")
            row = " ".join(f"{c:>30}" for c in shown)
            diff = ""
            for agent in agents[:-1]:  # each against the last agent named (the baseline)
                mean, lo, hi = paired(outcomes[agent], outcomes[agents[-1]])
                diff += f"  {mean:+.1%} [{lo:+.1%}, {hi:+.1%}]"
            print(f"{role.value:<10} {row}  {cells[agents[0]][1]:.3f}{diff}", flush=True)


if __name__ == "__main__":
    main()
