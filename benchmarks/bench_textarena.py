"""Engine speed beside TextArena's SecretMafia-v0-raw (7 players), decisions per second, in one run.

Lycan plays guardian7 (2 werewolves, seer, guardian, 3 villagers) with random agents through the
session layer; TextArena plays SecretMafia-v0-raw with 7 players (2 mafia, doctor, detective,
3 villagers) with a random agent that always answers a valid action for the phase. A decision
is one answer given to the engine: one request answered in Lycan, one `step` in TextArena.
Runs alternate between the two so that both see the same machine load, and the ratio of the
medians is reported.

TextArena is not a dependency of Lycan: install it in a venv of its own and pass that venv's
python, e.g.

    python -m venv /tmp/ta && /tmp/ta/bin/pip install textarena==0.7.4
    .venv/bin/python benchmarks/bench_textarena.py --textarena-python /tmp/ta/bin/python

Both sides run pinned to the same single core.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

TEXTARENA_SIDE = r"""
import json, random, re, sys, time
import textarena as ta

games, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
decisions = 0
start = time.perf_counter()
for g in range(games):
    env = ta.make("SecretMafia-v0-raw")
    env.reset(num_players=7, seed=seed + g)
    done = False
    while not done:
        pid, _ = env.get_observation()
        inner = env.unwrapped if hasattr(env, "unwrapped") else env
        phase = inner.phase.value
        alive = [p for p in inner.state.game_state["alive_players"] if p != pid] or [pid]
        if phase == "Day-Discussion":
            action = f"I am watching Player {rng.choice(alive)}."
        else:
            action = f"[Player {rng.choice(alive)}]"
        done, _ = env.step(action)
        decisions += 1
    env.close()
elapsed = time.perf_counter() - start
print(json.dumps({"games": games, "decisions": decisions, "seconds": elapsed}))
"""


def lycan_side(games: int, seed: int) -> dict[str, float]:
    from lycan.agents import RandomAgent
    from lycan.engine.seeds import derive
    from lycan.engine.session import Session
    from lycan.rules import get_preset

    rules = get_preset("guardian7")
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed + g
        players = [RandomAgent(derive(game_seed, "agent", s)) for s in range(rules.n_players)]
        record = Session(rules, players, game_seed).run_sync()
        decisions += len(record.decisions)
    elapsed = time.perf_counter() - start
    return {"games": games, "decisions": decisions, "seconds": elapsed}


def textarena_side(python: str, games: int, seed: int) -> dict[str, float]:
    out = subprocess.run(
        [python, "-c", TEXTARENA_SIDE, str(games), str(seed)], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--textarena-python", required=True, help="python of a venv with textarena==0.7.4")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, inherited by the subprocess
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()}")
    print(f"Python {platform.python_version()}; pinned to one core; {args.games} games per run; {args.runs} runs")
    ours: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for run in range(args.runs):
        ours.append(lycan_side(args.games, 1000 * run))
        theirs.append(textarena_side(args.textarena_python, args.games, 1000 * run))
        print(
            f"run {run + 1}: lycan {ours[-1]['decisions'] / ours[-1]['seconds']:,.0f} decisions/s, "
            f"textarena {theirs[-1]['decisions'] / theirs[-1]['seconds']:,.0f} decisions/s",
            file=sys.stderr,
        )

    def med(rows: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] / r["seconds"] for r in rows)

    print("| engine | decisions/s (median) | games/s (median) | decisions/game |")
    print("|---|---|---|---|")
    for name, rows in (("Lycan guardian7, random agents", ours), ("TextArena SecretMafia-v0-raw, 7 players", theirs)):
        per_game = sum(r["decisions"] for r in rows) / sum(r["games"] for r in rows)
        print(f"| {name} | {med(rows, 'decisions'):,.0f} | {med(rows, 'games'):,.0f} | {per_game:.1f} |")
    ratio = statistics.median(
        (a["decisions"] / a["seconds"]) / (b["decisions"] / b["seconds"]) for a, b in zip(ours, theirs, strict=True)
    )
    print(f"\nLycan / TextArena, decisions per second (median of per-run ratios): {ratio:.2f}x")


if __name__ == "__main__":
    main()
