"""Do a seat position or a player name win more than chance across a run?

Kaggle's werewolf harness shuffles player names to keep models from judging by a name; Lycan draws
AI names per game from a neutral pool and seats from the deal. This checks that it worked, from
the records: for every seat of every game, the chance that it wins is the run's win rate of its
team in games of the same rules (a draw is a loss for both teams). Grouped by seat position or by
name, the wins observed O, the wins expected E = sum p and the variance V = sum p(1 - p) give
chi2 = sum (O - E)^2 / V over the groups with V > 0, read against a chi-square law with that many
degrees of freedom (slightly conservative: the groups' deviations within one game are not
independent). A small p says the factor wins more (or less) than its roles explain.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from lycan.engine.record import GameRecord
from lycan.eval.metrics import seat_won
from lycan.rules.roles import team_of

Factor = Literal["seat", "name"]


@dataclass(frozen=True, slots=True)
class BiasTest:
    """The test of one factor over a run."""

    factor: Factor
    groups: int
    chi2: float
    df: int
    p: float
    top: str
    """The group furthest above chance."""
    excess: float
    """Its wins above the expected, per seat-game."""
    n: int
    """The top group's seat-games."""


def team_rates(records: Sequence[GameRecord]) -> dict[tuple[str, str], float]:
    """Each (rules, team)'s share of games won, over `records`."""
    games: dict[str, int] = defaultdict(int)
    wins: dict[tuple[str, str], int] = defaultdict(int)
    for rec in records:
        games[rec.rules.name] += 1
        wins[(rec.rules.name, rec.winner)] += 1
    return {(rules, team): wins[(rules, team)] / n for rules, n in games.items() for team in ("village", "werewolf")}


def win_bias(records: Sequence[GameRecord], factor: Factor) -> BiasTest | None:
    """The chi-square test of `factor` (see the module docstring), or None with fewer than two groups."""
    from scipy.stats import chi2 as chi2_law

    rates = team_rates(records)
    observed: dict[str, float] = defaultdict(float)
    expected: dict[str, float] = defaultdict(float)
    variance: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for rec in records:
        for seat, role in enumerate(rec.roles):
            key = f"seat {seat + 1}" if factor == "seat" else rec.names[seat]
            p = rates.get((rec.rules.name, team_of(role).value), 0.0)
            observed[key] += seat_won(rec, seat)
            expected[key] += p
            variance[key] += p * (1.0 - p)
            count[key] += 1
    groups = [k for k in observed if variance[k] > 0]
    if len(groups) < 2:
        return None
    chi2 = sum((observed[k] - expected[k]) ** 2 / variance[k] for k in groups)
    df = len(groups)
    top = max(groups, key=lambda k: ((observed[k] - expected[k]) / count[k], k))
    return BiasTest(
        factor,
        len(groups),
        chi2,
        df,
        float(chi2_law.sf(chi2, df)),
        top,
        (observed[top] - expected[top]) / count[top],
        count[top],
    )


__all__ = ["BiasTest", "Factor", "team_rates", "win_bias"]
