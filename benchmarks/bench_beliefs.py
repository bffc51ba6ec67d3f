"""Role identification, calibration and cost of `lycan.beliefs` on heuristic-agent games.

For every game (seeds from 1,000,000 up; the shipped models were fitted on seeds from 7,000,000),
every living seat's view at the end of day DAY's talk (where the role probe is asked) is read by the
belief engine, and each other seat's most probable role is its answer. Beside it, in the same
questions: the majority baseline (the deck's commonest role, except that a werewolf names its pack),
hard knowledge alone (the same engine without behaviour likelihoods), and a uniformly random role.
The engine reads talk with `lycan.beliefs.reader.TalkReader`; the same questions are also answered
with the exact template parser as the reader (`beliefs, template parser`), in the same run.
Games can be read from a database or a JSONL file instead of played (`--db`, `--jsonl`: for
instance contest logs imported with `lycan aiwolf-log import`), and played by other agent types
(`--agent`). Calibration: every P(werewolf) the seats give about each other, scored by Brier, log-loss and
expected calibration error (10 equal-width bins), with a reliability plot. Cost: a full game read
event by event, per event.

    python benchmarks/bench_beliefs.py --preset guardian7 --games 1000
    python benchmarks/bench_beliefs.py --jsonl contest.jsonl --day 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from lycan.agents import make_agent
from lycan.beliefs import Beliefs
from lycan.beliefs.claims import parser_for
from lycan.beliefs.fit import moments
from lycan.beliefs.model import INDEX
from lycan.engine import GameRecord, View, run_sync
from lycan.engine.seeds import derive
from lycan.rules import Role, get_preset
from lycan.stats import Rate

FIRST_SEED = 1_000_000


@dataclass
class Tally:
    """Answers to probe questions and P(werewolf) forecasts."""

    questions: int = 0
    beliefs: int = 0
    parser_beliefs: int = 0
    hard: int = 0
    majority: int = 0
    random: float = 0.0
    village_questions: int = 0
    village_beliefs: int = 0
    village_majority: int = 0
    spectator_questions: int = 0
    spectator_beliefs: int = 0
    forecasts: list[tuple[float, int]] = field(default_factory=list)


def play(preset: str, seed: int, agent: str = "heuristic") -> GameRecord:
    rules = get_preset(preset)
    return run_sync(rules, [make_agent(agent, derive(seed, "agent", s)) for s in range(rules.n_players)], seed)


def stored(db: Path | None, jsonl: Path | None) -> list[GameRecord]:
    """Games read from a database or a JSONL file."""
    if jsonl is not None:
        from lycan.store.jsonl import import_jsonl

        records = import_jsonl(jsonl)
    else:
        from lycan.store import GameStore

        assert db is not None
        records = list(GameStore(db).iter_records())
    return list(records)


def score(record: GameRecord, day: int, tally: Tally, seats_per_game: int | None, rng: random.Random) -> None:
    deck = record.rules.deck()
    commonest = max(set(deck), key=lambda r: (deck.count(r), -INDEX[r]))
    kinds = len(set(deck))
    views = [m.view for m in moments(record, day)]
    if seats_per_game is not None and len(views) > seats_per_game:
        views = rng.sample(views, seats_per_game)
    for view in views:
        assert isinstance(view, View)
        post = Beliefs.for_view(view).close_talk().posterior()
        templates = Beliefs.for_view(view, read=parser_for(view.names).parse).close_talk().posterior()
        hard = Beliefs.for_view(view, model=None).posterior()
        pack = set(view.wolves()) if view.role is Role.WEREWOLF else set()
        village = view.role not in (Role.WEREWOLF, Role.POSSESSED)
        for s, truth in enumerate(record.roles):
            if s == view.seat:
                continue
            guess = post.top_role(s)[0]
            base = Role.WEREWOLF if s in pack else commonest
            tally.questions += 1
            tally.beliefs += guess is truth
            tally.parser_beliefs += templates.top_role(s)[0] is truth
            tally.hard += hard.top_role(s)[0] is truth
            tally.majority += base is truth
            tally.random += 1 / kinds
            if village:
                tally.village_questions += 1
                tally.village_beliefs += guess is truth
                tally.village_majority += base is truth
            tally.forecasts.append((float(post.probabilities[s, INDEX[Role.WEREWOLF]]), int(truth is Role.WEREWOLF)))
    for m in moments(record, day, spectator=True):
        post = Beliefs.for_view(m.view).close_talk().posterior()
        for s, truth in enumerate(record.roles):
            tally.spectator_questions += 1
            tally.spectator_beliefs += post.top_role(s)[0] is truth


def calibration(
    forecasts: list[tuple[float, int]], bins: int = 10
) -> tuple[float, float, float, list[tuple[float, float, int]]]:
    """Brier, log-loss, ECE and the reliability bins (mean forecast, frequency, count)."""
    p = np.array([f for f, _ in forecasts])
    y = np.array([o for _, o in forecasts])
    brier = float(np.mean((p - y) ** 2))
    eps = 1e-6
    ll = float(-np.mean(y * np.log(np.clip(p, eps, 1)) + (1 - y) * np.log(np.clip(1 - p, eps, 1))))
    idx = np.minimum((p * bins).astype(int), bins - 1)
    ece, table = 0.0, []
    for b in range(bins):
        inside = idx == b
        if inside.any():
            mean_p, freq, k = float(p[inside].mean()), float(y[inside].mean()), int(inside.sum())
            ece += k / len(p) * abs(mean_p - freq)
            table.append((mean_p, freq, k))
    return brier, ll, ece, table


def plot(table: list[tuple[float, float, int]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 4))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1)
    ax.plot([t[0] for t in table], [t[1] for t in table], marker="o")
    ax.set_xlabel("P(werewolf) given")
    ax.set_ylabel("frequency of werewolves")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def cost(preset: str, runs: int) -> float:
    """Median ms per event of reading one seat's whole game event by event (posterior after each)."""
    per_event = []
    for i in range(runs):
        record = play(preset, FIRST_SEED + 900_000 + i)
        view = list(moments(record))[-1].view
        assert isinstance(view, View)
        beliefs = Beliefs(view.rules, view.names, view.seat, view.role)
        started = time.perf_counter()
        for k in range(1, len(view.events) + 1):
            beliefs.update(view.events[:k])
            beliefs.posterior()
        per_event.append((time.perf_counter() - started) / len(view.events) * 1000)
    return statistics.median(per_event)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--day", type=int, default=2)
    parser.add_argument("--seats", type=int, default=None, help="views scored per game (default: every living seat)")
    parser.add_argument("--cost-runs", type=int, default=5)
    parser.add_argument("--plots", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--agent", default="heuristic", help="the agent type that plays every seat")
    parser.add_argument("--db", type=Path, default=None, help="read the games from this database instead")
    parser.add_argument("--jsonl", type=Path, default=None, help="read the games from this JSONL file instead")
    args = parser.parse_args()
    given = stored(args.db, args.jsonl) if args.db or args.jsonl else None
    presets = sorted({r.rules.name for r in given}) if given is not None else args.preset or ["guardian7"]
    for preset in presets:
        tally = Tally()
        rng = random.Random(0)
        started = time.perf_counter()
        games = 0
        if given is not None:
            records = [r for r in given if r.rules.name == preset]
        else:
            records = (play(preset, FIRST_SEED + i, args.agent) for i in range(args.games))
        total = 0
        for record in records:
            total += 1
            if any(d == args.day for d in {m.day for m in moments(record, args.day, spectator=True)}):
                games += 1
                score(record, args.day, tally, args.seats, rng)
        took = time.perf_counter() - started
        q, vq = tally.questions, tally.village_questions
        print(f"\n{preset}: {games} of {total} games reached the day-{args.day} probe; {q} questions ({took:.0f} s)")
        for label, hits, n in (
            ("beliefs", tally.beliefs, q),
            ("beliefs, template parser", tally.parser_beliefs, q),
            ("hard knowledge only", tally.hard, q),
            ("majority baseline", tally.majority, q),
            ("beliefs, village-side askers", tally.village_beliefs, vq),
            ("majority, village-side askers", tally.village_majority, vq),
            ("spectator (public record)", tally.spectator_beliefs, tally.spectator_questions),
        ):
            rate = Rate(hits, n)
            lo, hi = rate.interval
            print(f"  {label:<32} {rate.value:6.1%}  [{lo:.1%}, {hi:.1%}]")
        print(f"  {'random role':<32} {tally.random / q:6.1%}")
        brier, ll, ece, table = calibration(tally.forecasts)
        print(f"  P(werewolf): {len(tally.forecasts)} forecasts, Brier {brier:.4f}, log-loss {ll:.4f}, ECE {ece:.4f}")
        print("  reliability: " + ", ".join(f"{p:.2f}->{f:.2f} ({k})" for p, f, k in table))
        plot(table, args.plots / f"beliefs_reliability_{preset}.png", f"{preset}, day {args.day}: ECE {ece:.3f}")
        if args.cost_runs and given is None:
            print(f"  cost: {cost(preset, args.cost_runs):.2f} ms per event (median of {args.cost_runs} games)")


if __name__ == "__main__":
    main()
