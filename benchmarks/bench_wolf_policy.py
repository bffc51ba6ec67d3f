"""Policies of one side against a table that reasons: which wins, on the same deals.

Every seat is `heuristic-beliefs` (votes, divinations and guards from the exact belief engine): the
planner that decides what every LLM seat on the embedded model says and how it votes, and so the
table a `camwolf` seat meets in seed 002's tables. One side's seats play that planner under one
policy per row (attributes of `lycan.agents.heuristic_beliefs.BeliefHeuristicAgent`); the other side keeps
the defaults.

Werewolf side (`--side werewolf`):
- `heuristic`: today's heuristic (a planned fake seer claim with chance 0.35, a counter-claim with
  chance 0.5 once a seer names the pack, accusations argued from the public posterior);
- the ablations that switch one of those off, or force the fake claim;
- `camwolf`: the policy of camwolf's planner (`lycan.agents.camwolf`), read from its class.

Village side (`--side village`): the heuristic's village, and camwolf's planner, which spares the
lone seer claimant (`trust_lone_seer`); the `llm` seat's planner, which trusts no claimant, and the
same with the trust (the last two rows); held to its word by a vote-score weight (`word_weight`); or
naming no vote while its top two choices are within a margin (`Torn`: it breaks no word, since it
gives none it may break); or naming a vote only where it says why it suspects that seat (`Grounded`).

For every seed (from `--first-seed` up) each policy plays the same deal with the same agent seeds,
so rows differ by the side's policy alone. Prints that side's win rate with its Wilson 95% interval
and N, and the paired difference from the first row with a 95% interval.

Usage: python benchmarks/bench_wolf_policy.py [--games 3200] [--side both] [--preset guardian7] [--jobs 2] [--rows llm]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor

from lycan.agents import lineup, speech
from lycan.agents.camwolf import CamWolfAgent
from lycan.agents.heuristic_beliefs import BeliefHeuristicAgent
from lycan.agents.speech import SpeechAct
from lycan.engine import run_sync
from lycan.engine.game import Game
from lycan.eval.coherence import game_coherence
from lycan.rules import Role, Team, get_preset, team_of
from lycan.stats import Rate, paired_difference

Policy = dict[str, object]
"""Attributes of `BeliefHeuristicAgent` set on every seat of the side."""

CAMWOLF = CamWolfAgent.planner_type
SIDE_LABEL = "policy"
"""The agent label of the side's seats in the records (for their votes as said)."""
PACK_ATTRIBUTES = ("wolf_fake", "counter_claim", "wolf_reasons", "wolf_keeps_word")
WOLF_POLICIES: dict[str, Policy] = {
    "heuristic": {},
    "always fake": {"wolf_fake": 1.0},
    "no planned fake": {"wolf_fake": 0.0},
    "no fake, no counter-claim": {"wolf_fake": 0.0, "counter_claim": 0.0},
    "camwolf": {name: getattr(CAMWOLF, name) for name in PACK_ATTRIBUTES},
    "camwolf, breaks its word": {
        **{name: getattr(CAMWOLF, name) for name in PACK_ATTRIBUTES},
        "wolf_keeps_word": False,
    },
    "heuristic, possessed calls a random player a werewolf": {"possessed_black": 0.25},
}
VILLAGE_POLICIES: dict[str, Policy] = {
    "heuristic-beliefs": {},
    "camwolf": {"trust_lone_seer": CAMWOLF.trust_lone_seer},
    **{
        f"camwolf, keeps its word by {w:g}": {"trust_lone_seer": CAMWOLF.trust_lone_seer, "word_weight": w}
        for w in (0.1, 0.3)
    },
    **{
        f"camwolf, names no vote when torn by {m:g}": {"trust_lone_seer": CAMWOLF.trust_lone_seer, "torn_margin": m}
        for m in (0.02, 0.1)
    },
    # the `llm` seat's planner (`lycan.agents.llm.LLMAgent.planner`), as it is and with the trust
    "llm, trusts no claimant": {"converse": True, "wolf_keeps_word": True, "trust_lone_seer": False},
    "llm, spares a lone seer claimant": {"converse": True, "wolf_keeps_word": True, "trust_lone_seer": True},
    "llm, names only votes it can ground": {
        "converse": True,
        "wolf_keeps_word": True,
        "trust_lone_seer": False,
        "grounded": True,
    },
    "llm, its seer names a vote only with a reason": {
        "converse": True,
        "wolf_keeps_word": True,
        "trust_lone_seer": False,
        "grounded": True,
        "grounded_roles": (Role.SEER,),
    },
}


class Torn(CAMWOLF):
    """Camwolf's planner that says whom it suspects but not whom it will vote for while its top two are close.

    A seat that breaks its word reads as a liar; one that names no vote until it is sure breaks none.
    `torn_margin` is the vote-score gap below which it names none (0: it always does).
    """

    torn_margin = 0.0

    def _agenda(self, mem, view):  # type: ignore[no-untyped-def]
        items = super()._agenda(mem, view)
        post = self._posterior(mem, view) if self.torn_margin > 0 else None
        if post is None or mem.role in (Role.WEREWOLF, Role.POSSESSED):
            return items
        scores = sorted(self._vote_scores(mem, view, post, view.living_others()).values(), reverse=True)
        if len(scores) >= 2 and scores[0] - scores[1] < self.torn_margin:
            items = [(key, act) for key, act in items if act.kind not in ("vote", "agree")]
            mem.planned_vote = None
        return items


class Grounded(BeliefHeuristicAgent):
    """A planner whose village-side seat names its vote only when it says why it suspects that seat.

    A seer with nothing but a human result, or a villager with no evidence yet, says it has no
    suspect (on its first turn of the day) instead of a vote the table may follow on no grounds.
    """

    grounded = True
    grounded_roles: tuple[Role, ...] = tuple(r for r in Role if r not in (Role.WEREWOLF, Role.POSSESSED))
    """The roles whose seats name a vote only with a reason (the village's, unless a row says which)."""

    def _agenda(self, mem, view):  # type: ignore[no-untyped-def]
        items = super()._agenda(mem, view)
        if mem.role not in self.grounded_roles:
            return items
        vote = next((act.target for _, act in items if act.kind == "vote"), None)
        if vote is None or any(act.kind == "suspect" and act.target == vote for _, act in items):
            return items
        at = next(i for i, (_, act) in enumerate(items) if act.kind == "vote")
        kept = [(key, act) for key, act in items if act.kind not in ("vote", "agree")]
        if not mem.spoke[view.day] and not any(act.kind in speech.OPINIONS for _, act in kept):
            kept.insert(at, (("nothing", view.day), SpeechAct("nothing", to=items[at][1].to)))
        mem.planned_vote = None
        return kept


def describe(side: str, policy: Policy) -> str:
    """The policy's attributes as the table shows them."""
    if side == "werewolf":
        fake, counter, reasons, word = (policy.get(n, getattr(BeliefHeuristicAgent, n)) for n in PACK_ATTRIBUTES)
        yes = {True: "yes", False: "no"}
        return f"fake {fake:g}, counter-claim {counter:g}, argues: {yes[reasons]}, keeps its word: {yes[word]}"
    trust = policy.get("trust_lone_seer", BeliefHeuristicAgent.trust_lone_seer)
    word = policy.get("word_weight", BeliefHeuristicAgent.word_weight)
    torn = policy.get("torn_margin", 0.0)
    text = f"spares a lone seer claimant: {'yes' if trust else 'no'}, weight of its own word: {word:g}"
    text += f", no vote named within {torn:g}" if torn else ""
    roles = policy.get("grounded_roles")
    whose = " (" + ", ".join(r.value for r in roles) + ")" if isinstance(roles, tuple) else ""
    return text + (f", names a vote only with a reason{whose}" if policy.get("grounded") else "")


def play_chunk(preset: str, side: str, policy: Policy, seeds: range) -> tuple[list[int], tuple[int, int], float]:
    """Wins of `side` (1 or 0) per seed, the side's votes as said (kept, promised) and seconds spent (one worker)."""
    rules = get_preset(preset)
    team = Team(side)
    out: list[int] = []
    kept = promised = 0
    start = time.perf_counter()
    for seed in seeds:
        roles = Game(rules, seed).roles
        agents = lineup(["heuristic-beliefs"] * len(roles), seed)
        for seat, role in enumerate(roles):
            if team_of(role) is team:
                if "torn_margin" in policy:
                    agents[seat] = Torn(agents[seat].seed)  # type: ignore[attr-defined]
                elif "grounded" in policy:
                    agents[seat] = Grounded(agents[seat].seed)  # type: ignore[attr-defined]
                agents[seat].label = SIDE_LABEL  # the record names the side's seats apart
                for name, value in policy.items():
                    setattr(agents[seat], name, value)
        rec = run_sync(rules, agents, seed)
        out.append(int(rec.winner == side))
        words = game_coherence(rec).get(SIDE_LABEL)
        if words is not None:
            kept, promised = kept + words.promises_kept, promised + words.promises
    return out, (kept, promised), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3200, help="deals per policy")
    parser.add_argument("--side", choices=("werewolf", "village", "both"), default="both")
    parser.add_argument("--preset", default="guardian7")
    parser.add_argument("--first-seed", type=int, default=3_000_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--rows", help="only the policies whose name starts with this (the first row is then theirs)")
    args = parser.parse_args()
    cpu = platform.processor() or platform.machine()
    print(f"machine: {cpu}, {os.cpu_count()} cores, {args.jobs} workers, Python {platform.python_version()}")
    last = args.first_seed + args.games - 1
    print(f"{args.preset}, every other seat heuristic-beliefs; seeds {args.first_seed}..{last}")
    step = max(1, -(-args.games // (args.jobs * 4)))
    end = args.first_seed + args.games
    chunks = [range(s, min(s + step, end)) for s in range(args.first_seed, end, step)]
    sides = ("werewolf", "village") if args.side == "both" else (args.side,)
    with ProcessPoolExecutor(args.jobs) as pool:
        for side in sides:
            print()
            print(f"| {side} side policy | N | {side} wins [95%] | vs first row | votes as said | games/s per core |")
            print("|---|---|---|---|---|---|")
            first: list[int] | None = None
            for name, policy in (WOLF_POLICIES if side == "werewolf" else VILLAGE_POLICIES).items():
                if args.rows and not name.startswith(args.rows):
                    continue
                n = len(chunks)
                done = list(pool.map(play_chunk, [args.preset] * n, [side] * n, [policy] * n, chunks))
                wins = [w for chunk, _, _ in done for w in chunk]
                said = Rate(sum(k for _, (k, _), _ in done), sum(p for _, (_, p), _ in done))
                rate = Rate(sum(wins), len(wins))
                lo, hi = rate.interval
                if first is None:
                    first, diff = wins, "-"
                else:
                    d = paired_difference(wins, first)
                    diff = f"{d.mean * 100:+.1f} [{d.low * 100:+.1f}, {d.high * 100:+.1f}]"
                print(
                    f"| {name} ({describe(side, policy)}) | {rate.n} | {rate.value:.1%} [{lo:.1%}, {hi:.1%}] "
                    f"| {diff} | {said.value:.1%} N={said.n} | {rate.n / sum(t for _, _, t in done):,.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
