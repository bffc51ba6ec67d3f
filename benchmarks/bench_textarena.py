"""Engine speed beside TextArena's SecretMafia-v0-raw (7 players), decisions per second, in one run.

Lycan plays guardian7 (2 werewolves, seer, guardian, 3 villagers) with random agents through the
session layer; TextArena plays SecretMafia-v0-raw with 7 players (2 mafia, doctor, detective,
3 villagers) with a random agent that always answers a valid action for the phase. A decision
is one answer given to the engine: one request answered in Lycan, one `step` in TextArena.
Runs alternate between the two so that both see the same machine load, and the median of the
per-run ratios is reported. Lycan's side runs twice per run: with seven new seeded agents every
game, and with seven agents for the whole run, as TextArena's side draws every seat's actions from
one generator seeded once per run (the like-for-like comparison of the engines).

TextArena is not a dependency of Lycan: install it in a venv of its own and pass that venv's
python, e.g.

    python -m venv /tmp/ta && /tmp/ta/bin/pip install textarena==0.7.4
    .venv/bin/python benchmarks/bench_textarena.py --textarena-python /tmp/ta/bin/python

Both sides run pinned to the same single core.

`--floor` adds a third side: the least work per decision an engine of Lycan's design does, written
as one flat loop with nothing else (one frozen slotted request, one random legal choice, one
legality check, one frozen slotted event appended to the log and to the seven seats' views), run
for as many decisions as Lycan made. No generators, no roles, no game logic: what CPython itself
allows per decision, the ceiling of any Python engine that keeps typed requests and per-seat views.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

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


def lycan_side(games: int, seed: int, *, agents_per_game: bool = True) -> dict[str, float]:
    """Lycan's side; `agents_per_game`: seven new seeded agents every game, else seven for the whole run.

    TextArena's side draws every seat's actions from one generator seeded once per run, so the
    engines compare like for like with agents built once; built per game, Lycan's side also pays
    for seeding seven Mersenne Twisters a game (about a tenth of its time), an agent's cost.
    """
    from lycan.agents import RandomAgent
    from lycan.engine.seeds import derive
    from lycan.engine.session import Session
    from lycan.rules import get_preset

    rules = get_preset("guardian7")
    decisions = 0
    start = time.perf_counter()
    players = [RandomAgent(derive(seed, "agent", s)) for s in range(rules.n_players)]
    for g in range(games):
        game_seed = seed + g
        if agents_per_game:
            players = [RandomAgent(derive(game_seed, "agent", s)) for s in range(rules.n_players)]
        record = Session(rules, players, game_seed).run_sync()
        decisions += len(record.decisions)
    elapsed = time.perf_counter() - start
    return {"games": games, "decisions": decisions, "seconds": elapsed}


@dataclass(frozen=True, slots=True)
class _Request:
    id: int
    seat: int
    kind: str
    day: int
    targets: tuple[int, ...]
    can_pass: bool
    timeout: float


@dataclass(frozen=True, slots=True)
class _Event:
    id: int
    day: int
    phase: str
    audience: frozenset[int] | None
    actor: int
    target: int


def floor_side(decisions: int, seed: int, seats: int = 7) -> dict[str, float]:
    """`decisions` decisions of the bare loop described in the module docstring."""
    rng = random.Random(seed)
    targets = tuple(range(seats))
    log: list[_Event] = []
    views: list[list[_Event]] = [[] for _ in range(seats)]
    per_game = 37  # about a guardian7 game's decisions: then a new log and new views
    start = time.perf_counter()
    for i in range(decisions):
        req = _Request(i, i % seats, "vote", 1, targets, False, 5.0)
        choice = rng.choice(req.targets)
        if choice not in req.targets:
            raise AssertionError("illegal")
        event = _Event(i, req.day, "day", None, req.seat, choice)
        log.append(event)
        for view in views:
            view.append(event)
        if i % per_game == per_game - 1:
            log, views = [], [[] for _ in range(seats)]
    elapsed = time.perf_counter() - start
    return {"games": decisions / per_game, "decisions": decisions, "seconds": elapsed}


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
    parser.add_argument("--floor", action="store_true", help="also run the bare per-decision loop (see above)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, inherited by the subprocess
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()}")
    print(f"Python {platform.python_version()}; pinned to one core; {args.games} games per run; {args.runs} runs")
    ours: list[dict[str, float]] = []
    once: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    floor: list[dict[str, float]] = []

    def rate(rows: list[dict[str, float]]) -> str:
        return f"{rows[-1]['decisions'] / rows[-1]['seconds']:,.0f}"

    for run in range(args.runs):
        ours.append(lycan_side(args.games, 1000 * run))
        once.append(lycan_side(args.games, 1000 * run, agents_per_game=False))
        theirs.append(textarena_side(args.textarena_python, args.games, 1000 * run))
        if args.floor:
            floor.append(floor_side(int(ours[-1]["decisions"]), run))
        print(
            f"run {run + 1} (decisions/s): lycan {rate(ours)}, lycan agents once {rate(once)}, "
            f"textarena {rate(theirs)}" + (f", floor {rate(floor)}" if floor else ""),
            file=sys.stderr,
        )

    def med(rows: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] / r["seconds"] for r in rows)

    print("| engine | decisions/s (median) | games/s (median) | decisions/game |")
    print("|---|---|---|---|")
    sides = [
        ("Lycan guardian7, random agents built per game", ours),
        ("Lycan guardian7, random agents built once per run", once),
        ("TextArena SecretMafia-v0-raw, 7 players", theirs),
    ]
    if floor:
        sides.append(("the bare per-decision loop (`--floor`)", floor))
    for name, rows in sides:
        per_game = sum(r["decisions"] for r in rows) / sum(r["games"] for r in rows)
        print(f"| {name} | {med(rows, 'decisions'):,.0f} | {med(rows, 'games'):,.0f} | {per_game:.1f} |")
    for label, rows in (("agents built per game", ours), ("agents built once per run", once)):
        pairs = zip(rows, theirs, strict=True)
        ratio = statistics.median((a["decisions"] / a["seconds"]) / (b["decisions"] / b["seconds"]) for a, b in pairs)
        print(f"\nLycan ({label}) / TextArena, decisions per second (median of per-run ratios): {ratio:.2f}x")
    if floor:
        pairs = zip(floor, theirs, strict=True)
        bare = statistics.median((a["decisions"] / a["seconds"]) / (b["decisions"] / b["seconds"]) for a, b in pairs)
        print(f"bare loop / TextArena, decisions per second (median of per-run ratios): {bare:.2f}x")


if __name__ == "__main__":
    main()
