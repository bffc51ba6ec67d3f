"""The belief engine on agent types it was not fitted on: leave-one-agent-type-out role identification.

Games of several agent types (guardian7 by default): heuristic and heuristic-beliefs games played
here (seeds from 8,000,000 up, disjoint from the shipped fit and from bench_beliefs), plus stored
games of other types read from JSONL (by default `benchmarks/results/seed002.jsonl.gz`: 400 games
of camwolf, camwolf+beliefs, react and recon seats on the embedded model). Games are split 70/30 by
a hash of their id (`lycan.train.selfplay.held_out`). For each agent type T, behaviour models are
fitted on the training games:

- **pooled without T**: every seat of every other type (a game of players the model never saw);
- **T alone**: T's own seats (the model one would fit, and calibrate, for a known type);
- **pooled**: every seat of every type;
- **shipped**: the model that ships with Lycan (heuristic games only).

Each is scored on the test games by the role-identification probe (every living seat's view at the
end of the day-2 talk names each other seat's most probable role), on the questions about seats of
type T, beside the majority baseline (a werewolf names its pack) on the same questions.

    python benchmarks/bench_beliefs_types.py --games 500
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from lycan.agents import make_agent
from lycan.beliefs import Beliefs
from lycan.beliefs.fit import fit, moments, seat_kind
from lycan.beliefs.model import INDEX, BehaviourModel, default_model
from lycan.engine import GameRecord, View, run_sync
from lycan.engine.seeds import derive
from lycan.rules import Role, get_preset
from lycan.stats import Rate
from lycan.store.jsonl import import_jsonl
from lycan.train.selfplay import held_out

FIRST_SEED = 8_000_000


@dataclass
class Score:
    hits: int = 0
    baseline: int = 0
    questions: int = 0


def play(preset: str, kind: str, games: int) -> list[GameRecord]:
    rules = get_preset(preset)
    out = []
    for i in range(games):
        seed = FIRST_SEED + i + (0 if kind == "heuristic" else 500_000)
        out.append(run_sync(rules, [make_agent(kind, derive(seed, "agent", s)) for s in range(rules.n_players)], seed))
    return out


def score(model: BehaviourModel | None, records: Sequence[GameRecord], kind: str, day: int) -> Score:
    """Role identification on the questions about seats of `kind`, with the majority baseline."""
    out = Score()
    for record in records:
        deck = record.rules.deck()
        commonest = max(set(deck), key=lambda r: (deck.count(r), -INDEX[r]))
        for m in moments(record, day):
            view = m.view
            assert isinstance(view, View)
            post = Beliefs.for_view(view, model).close_talk().posterior()
            pack = set(view.wolves()) if view.role is Role.WEREWOLF else set()
            for s, truth in enumerate(record.roles):
                if s == view.seat or seat_kind(record, s) != kind:
                    continue
                out.questions += 1
                out.hits += post.top_role(s)[0] is truth
                out.baseline += (Role.WEREWOLF if s in pack else commonest) is truth
    return out


def fitted(records: Sequence[GameRecord], preset: str, kinds: Collection[str]) -> BehaviourModel:
    return fit(records, preset, kinds=set(kinds), source="bench_beliefs_types")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="guardian7")
    parser.add_argument("--games", type=int, default=500, help="games played here per agent type")
    parser.add_argument("--play", action="append", default=None, help="agent types played here")
    parser.add_argument("--jsonl", type=Path, action="append", default=None, help="stored games of other types")
    parser.add_argument("--day", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    by_source: list[list[GameRecord]] = [
        play(args.preset, kind, args.games) for kind in args.play or ["heuristic", "heuristic-beliefs"]
    ]
    for path in args.jsonl if args.jsonl is not None else [Path("benchmarks/results/seed002.jsonl.gz")]:
        by_source.append([r for r in import_jsonl(path) if r.rules.name == args.preset])
    train: list[GameRecord] = []
    test: list[GameRecord] = []
    for games in by_source:
        for game in games:
            (test if held_out(game.game_id, 0.3) else train).append(game)
    kinds = sorted({seat_kind(r, s) for r in train for s in range(len(r.roles))})
    took = time.perf_counter() - started
    print(f"{args.preset}: {len(train)} training and {len(test)} test games of {', '.join(kinds)} ({took:.0f} s)")
    pooled = fitted(train, args.preset, kinds)
    shipped = default_model(args.preset)
    print(
        "| held-out type | questions | pooled without it | its own fit | pooled, all types | shipped "
        "| majority baseline |"
    )
    print("|---|---|---|---|---|---|---|")
    for kind in kinds:
        cells = []
        without = fitted(train, args.preset, [k for k in kinds if k != kind])
        own = fitted(train, args.preset, [kind])
        results = [score(m, test, kind, args.day) for m in (without, own, pooled, shipped)]
        n = results[0].questions
        if not n:
            print(f"| {kind} | 0 | (no test game reached day {args.day} with a seat of this type) |")
            continue
        for r in results:
            lo, hi = Rate(r.hits, n).interval
            cells.append(f"{r.hits / n:.1%} [{lo:.1%}, {hi:.1%}]")
        base = results[0].baseline / n
        print(f"| {kind} | {n} | " + " | ".join(cells) + f" | {base:.1%} |")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
