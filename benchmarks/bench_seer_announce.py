"""How often a seer that found a living werewolf announces it, for rule-based agents (the planners of phrase mode).

    python benchmarks/bench_seer_announce.py --games 300 --agents heuristic-beliefs heuristic

Every seat of guardian7 is the agent; seeds 1,000,000 onwards; counted by `lycan.eval.coherence`
(the report's Coherence table): of the seer seats that divined a werewolf and spoke again while it
lived, the share that announced a werewolf result. Wilson 95% intervals.
"""

from __future__ import annotations

import argparse
import time

from lycan.agents import make_agent
from lycan.engine import run_sync
from lycan.engine.seeds import derive
from lycan.eval.coherence import coherence
from lycan.rules import get_preset

FIRST_SEED = 1_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--preset", default="guardian7")
    parser.add_argument("--agents", nargs="+", default=["heuristic-beliefs", "heuristic"])
    args = parser.parse_args()
    rules = get_preset(args.preset)
    print("| agent | games | seer announces a werewolf it found alive | s |")
    print("|---|---|---|---|")
    for agent in args.agents:
        started = time.perf_counter()
        records = []
        for seed in range(FIRST_SEED, FIRST_SEED + args.games):
            players = [make_agent(agent, derive(seed, "agent", s)) for s in range(rules.n_players)]
            records.append(run_sync(rules, players, seed))  # type: ignore[arg-type]
        rate = coherence(records)[agent].seer_announce_rate
        print(f"| {agent} | {args.games} | {rate} | {time.perf_counter() - started:.0f} |", flush=True)


if __name__ == "__main__":
    main()
