"""Playing strength of the `deepwolf` agent in aiwolf5 (seed 000's Tables 2-3 shape).

For each role, on N seeds whose deal gives that role to some seat, that seat is played once by
`deepwolf` (the shipped network) and once by `heuristic`, the other four seats by `heuristic`
every time: the same deals, so the difference is the agent's. Win rates with Wilson 95% intervals.

    python benchmarks/bench_deepwolf.py --games 500 --jobs 2
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from lycan.engine import Game, run_sync
from lycan.engine.seeds import derive
from lycan.eval.stats import Rate
from lycan.rules import Role, get_preset, team_of

ROLES = (Role.VILLAGER, Role.SEER, Role.POSSESSED, Role.WEREWOLF)
FIRST_SEED = 1_000_000


def seats_for(role: Role, games: int) -> list[tuple[int, int]]:
    """(seed, seat) pairs: the first `games` seeds from FIRST_SEED, each with a seat dealt `role`."""
    rules = get_preset("aiwolf5")
    out = []
    seed = FIRST_SEED
    while len(out) < games:
        roles = Game(rules, seed).roles
        holders = [s for s, r in enumerate(roles) if r is role]
        out.append((seed, holders[seed % len(holders)]))
        seed += 1
    return out


def play(job: tuple[str, int, int]) -> tuple[bool, float]:
    """Play one game with `agent` on `seat`; (whether that seat's side won, seconds)."""
    from lycan.agents import make_agent

    agent, seed, seat = job
    rules = get_preset("aiwolf5")
    players = [make_agent("heuristic", derive(seed, "agent", s)) for s in range(rules.n_players)]
    players[seat] = make_agent(agent, derive(seed, "agent", seat))
    started = time.perf_counter()
    record = run_sync(rules, players, seed)  # type: ignore[arg-type]
    return team_of(record.roles[seat]).value == record.winner, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"aiwolf5, one seat of the role played by the agent, four heuristic seats; N = {args.games} per cell")
    print(f"{'role':<10} {'deepwolf':>26} {'heuristic':>26}  s/game (deepwolf)")
    with ProcessPoolExecutor(args.jobs) as pool:
        for role in ROLES:
            pairs = seats_for(role, args.games)
            cells = {}
            for agent in ("deepwolf", "heuristic"):
                results = list(pool.map(play, [(agent, seed, seat) for seed, seat in pairs], chunksize=8))
                cells[agent] = (
                    Rate(sum(w for w, _ in results), len(results)),
                    sum(t for _, t in results) / len(results),
                )
            shown = []
            for agent in ("deepwolf", "heuristic"):
                rate = cells[agent][0]
                lo, hi = rate.interval
                shown.append(f"{rate.value:6.1%} [{lo:.1%}, {hi:.1%}]")
            print(f"{role.value:<10} {shown[0]:>26} {shown[1]:>26}  {cells['deepwolf'][1]:.3f}", flush=True)


if __name__ == "__main__":
    main()
