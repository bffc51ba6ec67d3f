"""How well one villager knows the werewolf: the belief posterior alone, and deals weighed by misfits.

For aiwolf5 games of heuristic players, at a villager's first vote (day 1), every deal its view
allows is weighed (a) by the belief posterior (`lycan.beliefs`) and (b) by the posterior times
`fit ** misfits`, the mean over a few world seeds of how many of the other seats' answers the
heuristic player of that seat, in that deal, would not have given (`lycan.agents.rollout.misfits`,
the weighting `deepwolf`'s search uses). Reported: how often the most probable werewolf is the
true one, the mean probability given to the true werewolf, and the cost of one misfit count.

    python benchmarks/bench_search_fit.py --games 100 --fits 0.5 0.25
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from lycan.agents.heuristic import HeuristicAgent
from lycan.agents.rollout import Script, misfits
from lycan.beliefs.tracker import Beliefs
from lycan.engine.game import Game
from lycan.rules import Role, get_preset
from lycan.stats import Rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=3, help="world seeds per deal")
    parser.add_argument("--fits", type=float, nargs="+", default=[0.5, 0.25])
    args = parser.parse_args()
    rules = get_preset("aiwolf5")
    top: Counter[str] = Counter()
    mass: Counter[str] = Counter()
    games, calls, spent = 0, 0, 0.0
    for seed in range(args.first_seed, args.first_seed + args.games):
        game = Game(rules, seed)
        agents = [HeuristicAgent(s) for s in range(rules.n_players)]
        seat = game.roles.index(Role.VILLAGER)
        play = game.play()
        batch = next(play)
        try:
            while not any(r.seat == seat and r.kind == "vote" and r.day == 1 for r in batch):
                batch = play.send({r.id: agents[r.seat].decide(game.view(r.seat), r) for r in batch})
        except StopIteration:
            continue
        request = next(r for r in batch if r.seat == seat and r.kind == "vote")
        view = game.view(seat)
        wolf = game.roles.index(Role.WEREWOLF)
        deals, weights = Beliefs.for_view(view).deals()
        script = Script.of(view)
        rng = random.Random(seed)
        counts = []
        for deal in deals:
            row = []
            for _ in range(args.worlds):
                started = time.perf_counter()
                row.append(misfits(view, request, deal, rng.getrandbits(48), HeuristicAgent, script))
                spent += time.perf_counter() - started
                calls += 1
            counts.append(row)
        games += 1
        settings: list[tuple[str, list[float]]] = [("belief posterior", list(weights))]
        for fit in args.fits:
            fitted = [
                w * sum(0.0 if c is None else fit**c for c in row) / len(row)
                for w, row in zip(weights, counts, strict=True)
            ]
            settings.append((f"x fit {fit}", fitted))
        for name, ws in settings:
            by_wolf: Counter[int] = Counter()
            for deal, w in zip(deals, ws, strict=True):
                by_wolf[deal.index(Role.WEREWOLF)] += w
            total = sum(by_wolf.values()) or 1.0
            top[name] += max(by_wolf, key=lambda s: by_wolf[s]) == wolf
            mass[name] += by_wolf[wolf] / total
    print(f"aiwolf5 heuristic games, a villager at its day-1 vote; N = {games} games, {args.worlds} world seeds a deal")
    print(f"{'weighting':<20} {'top suspect is the werewolf':>32} {'mean P(true werewolf)':>22}")
    for name in top:
        rate = Rate(top[name], games)
        lo, hi = rate.interval
        print(f"{name:<20} {rate.value:>17.1%} [{lo:.1%}, {hi:.1%}] {mass[name] / games:>22.3f}")
    print(f"one misfit count: {1000 * spent / calls:.2f} ms (N = {calls})")


if __name__ == "__main__":
    main()
