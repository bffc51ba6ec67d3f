"""Ratings against a frozen reference pool, from records: the numbers and the page of `lycan leaderboard`.

An entrant's games against a pool (`lycan.arena.pool.pool_tournament`: every entry, both sides,
the same deals) give its rating: its Bradley-Terry log-odds edge over the pool's average entry,
with the side advantage fitted apart, in Elo points (400 points: 10 to 1 odds) with a bootstrap
95% interval (`lycan.eval.ratings.relative_strength`). Beside it: its win rate as the village and
as the werewolves and per role (Wilson intervals), the games, and what a game cost it (model
calls, tokens and seconds of its seats). Entrants rated against the same pool version share the
scale; records of another version never enter. A game-theoretic rating stands beside the Elo one:
Nash averaging over the meta-game of every entrant and entry of the pool version (`pool_nash`,
`lycan.eval.ratings.nash_averaging`), an entrant's win rate above its side's against the mixture
of agents no one can exploit, which copies of an agent or many weak opponents do not move.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

from lycan.engine.record import GameRecord
from lycan.eval.metrics import seat_won
from lycan.eval.ratings import ELO_PER_LOGIT, NashRating, matches, nash_averaging, relative_strength
from lycan.rules.roles import Role, Team, team_of
from lycan.stats import Rate


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

    @property
    def width(self) -> float:
        """The width of the 95% interval, in Elo points (inf before it can be worked out)."""
        return self.hi - self.lo if math.isfinite(self.hi - self.lo) else math.inf


def pool_rating(
    records: Sequence[GameRecord], entrant: str, pool: str, entries: Sequence[str], n_boot: int = 300
) -> PoolRating:
    """`entrant`'s rating against `pool` (`NAME@VERSION`) from the records of that pool version among `records`.

    `entries` are the pool's entry names (the reference the edge is measured from).
    """
    mine = [r for r in records if r.meta.get("pool") == pool and entrant in r.agents]
    strength = relative_strength(matches(mine), entrant, entries, n_boot=n_boot)
    sides: dict[Team, list[int]] = {Team.VILLAGE: [0, 0], Team.WEREWOLF: [0, 0]}
    roles: dict[Role, list[int]] = {}
    calls = tokens = seconds = 0.0
    for r in mine:
        seats = [s for s, a in enumerate(r.agents) if a == entrant]
        if not seats:
            continue
        team = team_of(r.roles[seats[0]])
        sides[team][0] += seat_won(r, seats[0])
        sides[team][1] += 1
        for s in seats:
            cell = roles.setdefault(r.roles[s], [0, 0])
            cell[0] += seat_won(r, s)
            cell[1] += 1
            usage = r.usage.get(s, {})
            calls += float(usage.get("calls", 0) or 0)
            tokens += float(usage.get("prompt_tokens", 0) or 0) + float(usage.get("completion_tokens", 0) or 0)
            seconds += float(usage.get("latency_s", 0) or 0)
    n = max(1, len(mine))
    return PoolRating(
        entrant,
        pool,
        strength.value * ELO_PER_LOGIT,
        strength.lo * ELO_PER_LOGIT,
        strength.hi * ELO_PER_LOGIT,
        len(mine),
        Rate(*sides[Team.VILLAGE]),
        Rate(*sides[Team.WEREWOLF]),
        {role: Rate(*cell) for role, cell in sorted(roles.items(), key=lambda kv: kv[0].value)},
        calls / n,
        tokens / n,
        seconds / n,
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


def rows(ratings: Sequence[PoolRating], nash: dict[str, NashRating] | None = None) -> tuple[list[str], list[list[str]]]:
    """The leaderboard as plain cells, best rating first (`nash`: `pool_nash`'s ratings, a column beside Elo)."""
    header = ["entrant", "rating (Elo vs pool average)", "95% interval", "Nash averaging (points)", "games",
              "as village", "as werewolves", "per role", "calls / game", "tokens / game", "seconds / game"]  # fmt: skip
    out = []
    for p in sorted(ratings, key=lambda p: -p.elo if math.isfinite(p.elo) else math.inf):
        out.append(
            [
                p.entrant,
                f"{p.elo:+.0f}" if math.isfinite(p.elo) else "n/a",
                f"[{p.lo:+.0f}, {p.hi:+.0f}] (width {p.width:.0f})" if math.isfinite(p.width) else "n/a",
                _nash((nash or {}).get(p.entrant)),
                str(p.games),
                _rate(p.village),
                _rate(p.werewolf),
                "; ".join(f"{role.value} {_rate(rate)}" for role, rate in p.by_role.items()),
                f"{p.calls:.1f}",
                f"{p.tokens:.0f}",
                f"{p.seconds:.2f}",
            ]
        )
    return header, out


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
        "(0: in the mixture), with bootstrap 95% intervals; win rates with Wilson 95% intervals.</p>"
        f"<table id='leaderboard'><thead><tr>{head}</tr></thead><tbody>{lines}</tbody></table></body></html>"
    )


__all__ = ["PoolRating", "leaderboard_html", "pool_nash", "pool_rating", "rows"]
