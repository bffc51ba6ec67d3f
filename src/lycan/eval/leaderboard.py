"""Ratings against a frozen reference pool, from records: the numbers and the page of `lycan leaderboard`.

An entrant's games against a pool (`lycan.arena.pool.pool_tournament`: every entry, both sides,
the same deals) give its rating: its Bradley-Terry log-odds edge over the pool's average entry,
with the side advantage fitted apart, in Elo points (400 points: 10 to 1 odds) with a bootstrap
95% interval (`lycan.eval.ratings.relative_strength`). Beside it: its win rate as the village and
as the werewolves and per role (Wilson intervals), the games, and what a game cost it (model
calls, tokens and seconds of its seats). Entrants rated against the same pool version share the
scale; records of another version never enter. Per side and per role, the entrant is measured
against the pool's own play on the same deals (each entry against itself, `pool_baseline`): its
wins on a side, or in a role when it held one seat among an entry's, above the pool's there.
A game-theoretic rating stands beside the Elo one:
Nash averaging over the meta-game of every entrant and entry of the pool version (`pool_nash`,
`lycan.eval.ratings.nash_averaging`), an entrant's win rate above its side's against the mixture
of agents no one can exploit, which copies of an agent or many weak opponents do not move.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from lycan.engine.record import GameRecord
from lycan.eval.metrics import Prices, fault_stats, seat_won, seats_of, usage_stats
from lycan.eval.ratings import ELO_PER_LOGIT, NashRating, matches, nash_averaging, relative_strength
from lycan.rules.roles import Role, Team, team_of
from lycan.stats import Rate


@dataclass(frozen=True, slots=True)
class Edge:
    """Wins above the pool's own on the same deals, in Elo points, with a paired bootstrap 95% interval.

    `entrant` is the entrant's win rate (on a side, or in a role), `pool` the win rate of the same
    side or role in the pool's self-play on the same deals (`lycan.arena.pool.pool_baseline`);
    the edge is logit(entrant) - logit(pool), each smoothed by half a game, times 400/ln 10.
    """

    value: float
    lo: float
    hi: float
    entrant: Rate
    pool: Rate


def deal_edge(pairs: Sequence[tuple[bool, bool]], n_boot: int = 300, seed: int = 0) -> Edge:
    """The `Edge` of (entrant won, pool won) pairs, one per deal; NaN without pairs."""
    if not pairs:
        return Edge(math.nan, math.nan, math.nan, Rate(0, 0), Rate(0, 0))
    a = np.array(pairs, dtype=float)
    n = len(a)

    def edges(wins: np.ndarray) -> np.ndarray:  # wins: (..., 2) sums of entrant and pool wins
        p = (wins + 0.5) / (n + 1)
        logit = np.log(p) - np.log1p(-p)
        out: np.ndarray = ELO_PER_LOGIT * (logit[..., 0] - logit[..., 1])
        return out

    total = a.sum(axis=0)
    idx = np.random.default_rng(seed).integers(0, n, (n_boot, n))
    lo, hi = np.percentile(edges(a[idx].sum(axis=1)), [2.5, 97.5]) if n_boot else (edges(total),) * 2
    return Edge(float(edges(total)), float(lo), float(hi), Rate(int(total[0]), n), Rate(int(total[1]), n))


@dataclass(frozen=True, slots=True)
class PoolRating:
    """One entrant's standing against one pool version."""

    entrant: str
    pool: str
    elo: float
    lo: float
    hi: float
    games: int
    village: Rate
    werewolf: Rate
    by_role: dict[Role, Rate]
    calls: float
    tokens: float
    seconds: float
    """Per game, over the entrant's seats."""
    sides: dict[Team, Edge] = field(default_factory=dict)
    """As each side (games where it held the whole side), its wins above the pool's self-play on the same deals."""
    roles: dict[Role, Edge] = field(default_factory=dict)
    """In each role (games where it held one seat), its wins above the pool's self-play on the same deals."""
    cost: float = 0.0
    """Money per game over the entrant's seats, at the prices given (0 without)."""
    cost_per_day: float = math.nan
    """Money per day alive of the entrant's seats (Kaggle's cost per turn)."""
    faults: float = 0.0
    """Faults (a decision retried to the end and replaced by a legal fallback) per 100 decisions."""

    @property
    def width(self) -> float:
        """The width of the 95% interval, in Elo points (inf before it can be worked out)."""
        return self.hi - self.lo if math.isfinite(self.hi - self.lo) else math.inf


def _deal_pairs(
    mine: Sequence[GameRecord], baseline: Sequence[GameRecord], entrant: str
) -> tuple[dict[Team, list[tuple[bool, bool]]], dict[Role, list[tuple[bool, bool]]]]:
    """(entrant won, pool won) per game, by side where it held a whole side and by role where it held one seat.

    Each game is paired with its opponent entry's self-play on the same deal (same rules and
    seed); a game whose self-play is not stored is left out.
    """
    selfplay = {(r.rules.name, r.seed, r.agents[0]): r for r in baseline}
    sides: dict[Team, list[tuple[bool, bool]]] = {}
    roles: dict[Role, list[tuple[bool, bool]]] = {}
    for r in mine:
        seats = [s for s, a in enumerate(r.agents) if a == entrant]
        entry = next((a for a in r.agents if a != entrant), None)
        base = selfplay.get((r.rules.name, r.seed, entry)) if entry else None
        if base is None:
            continue
        role = r.roles[seats[0]]
        team = team_of(role)
        pair = (seat_won(r, seats[0]), base.winner == team.value)
        if len(seats) == 1:
            roles.setdefault(role, []).append(pair)
        if seats == seats_of(r, team):  # a lone werewolf's seat is its whole side too
            sides.setdefault(team, []).append(pair)
    return sides, roles


def pool_rating(
    records: Sequence[GameRecord],
    entrant: str,
    pool: str,
    entries: Sequence[str],
    n_boot: int = 300,
    prices: Prices | None = None,
    baseline: Sequence[GameRecord] = (),
) -> PoolRating:
    """`entrant`'s rating against `pool` (`NAME@VERSION`) from the records of that pool version among `records`.

    `entries` are the pool's entry names (the reference the edge is measured from); `baseline`
    the pool's self-play records (`lycan.arena.pool.pool_baseline`), against which the ratings per
    side and per role are measured deal by deal (none without them). An edge per side cannot come
    from a Bradley-Terry fit of these games alone: an entrant that always holds a whole side
    trades its side-specific strength off exactly against the side advantage.
    """
    mine = [r for r in records if r.meta.get("pool") == pool and entrant in r.agents]
    strength = relative_strength(matches(mine), entrant, entries, n_boot=n_boot)
    side_pairs, role_pairs = _deal_pairs(mine, [b for b in baseline if b.meta.get("pool") == pool], entrant)
    side_rates: dict[Team, list[int]] = {Team.VILLAGE: [0, 0], Team.WEREWOLF: [0, 0]}
    role_rates: dict[Role, list[int]] = {}
    for r in mine:
        seats = [s for s, a in enumerate(r.agents) if a == entrant]
        team = team_of(r.roles[seats[0]])
        if seats == seats_of(r, team):  # it held the whole side
            side_rates[team][0] += seat_won(r, seats[0])
            side_rates[team][1] += 1
        for s in seats:
            cell = role_rates.setdefault(r.roles[s], [0, 0])
            cell[0] += seat_won(r, s)
            cell[1] += 1
    n = max(1, len(mine))
    use = usage_stats(mine, prices).get(entrant)
    fault = fault_stats(mine).get(entrant)
    return PoolRating(
        entrant,
        pool,
        strength.value * ELO_PER_LOGIT,
        strength.lo * ELO_PER_LOGIT,
        strength.hi * ELO_PER_LOGIT,
        len(mine),
        Rate(*side_rates[Team.VILLAGE]),
        Rate(*side_rates[Team.WEREWOLF]),
        {role: Rate(*cell) for role, cell in sorted(role_rates.items(), key=lambda kv: kv[0].value)},
        use.total_calls / n if use else 0.0,
        use.total_tokens / n if use else 0.0,
        use.total_latency_s / n if use else 0.0,
        sides={t: deal_edge(p, n_boot) for t, p in sorted(side_pairs.items(), key=lambda kv: kv[0].value)},
        roles={role: deal_edge(p, n_boot) for role, p in sorted(role_pairs.items(), key=lambda kv: kv[0].value)},
        cost=use.total_cost / n if use else 0.0,
        cost_per_day=use.cost_per_day if use else math.nan,
        faults=fault.per_100[0] if fault and fault.decisions else 0.0,
    )


def pool_nash(records: Sequence[GameRecord], pool: str, n_boot: int = 200) -> dict[str, NashRating]:
    """Nash averaging of every agent in the records of pool version `pool` (entrants and entries), by label."""
    mine = [r for r in records if r.meta.get("pool") == pool]
    return {r.agent: r for r in nash_averaging(matches(mine), n_boot=n_boot)}


def _nash(r: NashRating | None) -> str:
    if r is None:
        return "n/a"
    return f"{r.value * 100:+.1f} [{r.lo * 100:+.1f}, {r.hi * 100:+.1f}]"


def _rate(r: Rate) -> str:
    if not r.n:
        return "n/a"
    lo, hi = r.interval
    return f"{r.value:.0%} [{lo:.0%}, {hi:.0%}] N={r.n}"


def _edge(e: Edge | None) -> str:
    if e is None or not math.isfinite(e.value):
        return "n/a"
    return f"{e.value:+.0f} [{e.lo:+.0f}, {e.hi:+.0f}] ({e.entrant.value:.0%} vs {e.pool.value:.0%}, N={e.entrant.n})"


def _money(x: float) -> str:
    return f"{x:.4f}" if math.isfinite(x) else "n/a"


HEADER = [
    "entrant", "rating (Elo vs pool average)", "95% interval", "Nash averaging (points)", "games",
    "as village (Elo vs pool self-play)", "as werewolves (Elo vs pool self-play)", "village wins", "werewolf wins",
    "per role (Elo vs pool self-play)", "per role wins", "faults / 100 decisions", "calls / game", "tokens / game",
    "seconds / game", "cost / game", "cost / day alive",
]  # fmt: skip
"""The leaderboard's columns (`rows`)."""


def rows(ratings: Sequence[PoolRating], nash: dict[str, NashRating] | None = None) -> tuple[list[str], list[list[str]]]:
    """The leaderboard as plain cells, best rating first (`nash`: `pool_nash`'s ratings, a column beside Elo)."""
    out = []
    for p in sorted(ratings, key=lambda p: -p.elo if math.isfinite(p.elo) else math.inf):
        per_role = (
            "; ".join(f"{role.value} {_edge(e)}" for role, e in p.roles.items())
            if p.roles
            else "n/a (no one-seat games)"
        )
        out.append(
            [
                p.entrant,
                f"{p.elo:+.0f}" if math.isfinite(p.elo) else "n/a",
                f"[{p.lo:+.0f}, {p.hi:+.0f}] (width {p.width:.0f})" if math.isfinite(p.width) else "n/a",
                _nash((nash or {}).get(p.entrant)),
                str(p.games),
                _edge(p.sides.get(Team.VILLAGE)),
                _edge(p.sides.get(Team.WEREWOLF)),
                _rate(p.village),
                _rate(p.werewolf),
                per_role,
                "; ".join(f"{role.value} {_rate(rate)}" for role, rate in p.by_role.items()),
                f"{p.faults:.2f}",
                f"{p.calls:.1f}",
                f"{p.tokens:.0f}",
                f"{p.seconds:.2f}",
                _money(p.cost),
                _money(p.cost_per_day),
            ]
        )
    return list(HEADER), out


def leaderboard_html(
    ratings: Sequence[PoolRating], pool: str, entries: Sequence[str], nash: dict[str, NashRating] | None = None
) -> str:
    """The leaderboard page: every entrant rated against `pool`, with the pool's entries named."""
    header, body = rows(ratings, nash)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    lines = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in body)
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>Lycan leaderboard: {html.escape(pool)}</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #bbb;padding:4px 8px;text-align:left}th{background:#eee}</style></head><body>"
        f"<h1>Leaderboard against pool {html.escape(pool)}</h1>"
        f"<p>Reference entries: {html.escape(', '.join(entries))}. Ratings are each entrant's Bradley-Terry "
        "edge over the pool's average entry in Elo points (400 points: 10 to 1 odds), side advantage fitted "
        "apart, with bootstrap 95% intervals; Nash averaging is the entrant's win rate above its side's, in "
        "percentage points, against the maximum-entropy Nash mixture of every agent rated on this pool version "
        "(0: in the mixture), with bootstrap 95% intervals. As village, as werewolves and per role: the "
        "entrant's wins on that side (holding the whole side) or in that role (holding one seat among an "
        "entry's) against the pool's own on the same deals (each entry playing itself), in Elo points "
        "(logit difference), with paired bootstrap 95% intervals and both win rates. Win rates with Wilson "
        "95% intervals; faults are decisions replaced by a legal fallback; cost at the prices given.</p>"
        f"<table id='leaderboard'><thead><tr>{head}</tr></thead><tbody>{lines}</tbody></table></body></html>"
    )


__all__ = ["HEADER", "Edge", "PoolRating", "deal_edge", "leaderboard_html", "pool_nash", "pool_rating", "rows"]
