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
    python benchmarks/bench_deepwolf.py --others llm --games 50 --jobs 1 --results vs_llm.jsonl

With `--others llm --model SPEC` the four other seats are `llm` players on that model (loaded once
per worker process and shared by its seats; games through the async runner). With `--results FILE`
the run appends every game to FILE and skips those already there, so it can stop and resume.

An agent is `TYPE` or `TYPE:KEY=VALUE,...` (options passed to `make_agent`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from lycan.engine import Game, run_sync
from lycan.engine.seeds import derive
from lycan.rules import Role, get_preset, team_of
from lycan.stats import Rate, paired_difference

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


def report(
    agents: list[str], roles: list[Role], outcomes: dict[tuple[str, str], list[bool]], seconds: dict[str, list[float]]
) -> None:
    """Print one row per role: each agent's win rate, the first agent's s/game, each against the last."""
    head = " ".join(f"{a:>30}" for a in agents)
    versus = "  ".join(f"{a} - {agents[-1]}" for a in agents[:-1])
    print(f"{'role':<10} {head}  s/game ({agents[0]})  {versus} (paired)")
    for role in roles:
        shown = []
        for agent in agents:
            wins = outcomes.get((role.value, agent), [])
            rate = Rate(sum(wins), len(wins))
            lo, hi = rate.interval if wins else (0.0, 1.0)
            shown.append(f"{rate.value if wins else 0:6.1%} [{lo:.1%}, {hi:.1%}] N={len(wins)}")
        row = " ".join(f"{c:>30}" for c in shown)
        diff = ""
        base = outcomes.get((role.value, agents[-1]), [])
        for agent in agents[:-1]:  # each against the last agent named (the baseline), over the deals both played
            mine = outcomes.get((role.value, agent), [])
            n = min(len(mine), len(base))
            if n >= 2:
                d = paired_difference(mine[:n], base[:n])
                diff += f"  {d.mean:+.1%} [{d.low:+.1%}, {d.high:+.1%}] N={n}"
            else:
                diff += "  - (N<2)"
        times = seconds.get(f"{role.value} {agents[0]}", [])
        per_game = sum(times) / len(times) if times else float("nan")
        print(f"{role.value:<10} {row}  {per_game:.3f}{diff}", flush=True)


def load_results(path: Path) -> dict[tuple[str, str, str, int], dict[str, Any]]:
    """The games already in a results file, by (others, agent, role, seed); an unreadable line is an error."""
    done: dict[tuple[str, str, str, int], dict[str, Any]] = {}
    if not path.exists():
        return done
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            done[(row["others"], row["agent"], row["role"], int(row["seed"]))] = row
        except (ValueError, KeyError) as error:
            raise SystemExit(f"{path}:{number}: not a result line ({error}); fix or remove it") from error
    return done


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
    parser.add_argument(
        "--results",
        type=Path,
        help="a JSON-lines file: each finished game is appended, games already in it are not played again "
        "(a long run stops and resumes; games go deal by deal, every role and agent, so a partial file is paired)",
    )
    parser.add_argument("--report", action="store_true", help="only print the table of the --results file")
    args = parser.parse_args()
    agents: list[str] = args.agents
    roles = [r for r in ROLES if r.value in args.roles]
    others = args.others if args.others == "heuristic" else f"{args.others} on {args.model}"
    others_key = args.others if args.others == "heuristic" else f"{args.others}:{args.model}"
    print(f"aiwolf5, one seat of the role played by the agent, four {others} seats; N = {args.games} per cell")
    pairs = {role: seats_for(role, args.games, args.first_seed) for role in roles}
    done = load_results(args.results) if args.results else {}
    jobs = [
        (agent, role, seed, seat)
        for index in range(args.games)
        for role in roles
        for agent in agents
        for seed, seat in [pairs[role][index]]
        if (others_key, agent, role.value, seed) not in done
    ]
    if args.report:
        jobs = []
    outcomes: dict[tuple[str, str], list[bool]] = {}
    seconds: dict[str, list[float]] = {}

    def tally() -> None:
        outcomes.clear()
        seconds.clear()
        for role in roles:
            for agent in agents:
                for seed, _ in pairs[role]:
                    row = done.get((others_key, agent, role.value, seed))
                    if row is None:
                        break  # keep each cell a prefix of the deals, so cells pair deal by deal
                    outcomes.setdefault((role.value, agent), []).append(bool(row["win"]))
                    seconds.setdefault(f"{role.value} {agent}", []).append(float(row["seconds"]))

    chunk = 1 if args.others != "heuristic" else 8
    with ProcessPoolExecutor(args.jobs) as pool:
        calls = [(agent, seed, seat, args.others, args.model) for agent, _, seed, seat in jobs]
        for (agent, role, seed, seat), (won, spent) in zip(jobs, pool.map(play, calls, chunksize=chunk), strict=True):
            row = {"others": others_key, "agent": agent, "role": role.value, "seed": seed, "seat": seat}
            row |= {"win": won, "seconds": round(spent, 3)}
            done[(others_key, agent, role.value, seed)] = row
            if args.results:
                with args.results.open("a") as out:
                    out.write(json.dumps(row) + "\n")
    tally()
    report(agents, roles, outcomes, seconds)


if __name__ == "__main__":
    main()
