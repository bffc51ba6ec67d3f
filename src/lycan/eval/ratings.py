"""Ratings of agents from team games: OpenSkill (Plackett-Luce) and Bradley-Terry with bootstrap intervals.

Every game is one match: the village team against the werewolf team, ranked by the winner (a draw
ranks them equal). A team is the list of its seats' agent labels, so teams may differ in size and
mix agent types. Werewolf games favour one side; schedules that let every agent play both sides
(as `lycan.arena` does) keep that out of the ratings, and Bradley-Terry also fits a
side term for it.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.optimize import minimize

from lycan.engine.record import GameRecord
from lycan.eval.metrics import seats_of
from lycan.rules.roles import Team

Outcome = Literal["village", "werewolf", "draw"]


@dataclass(frozen=True, slots=True)
class Match:
    """One game as a rating sees it: the labels on each team and who won."""

    village: tuple[str, ...]
    werewolf: tuple[str, ...]
    winner: Outcome


def matches(records: Iterable[GameRecord], key: Callable[[GameRecord, int], str] | None = None) -> list[Match]:
    """One `Match` per record; `key(record, seat)` names a seat's entrant (default: its agent label)."""
    key = key or (lambda rec, seat: rec.agents[seat])
    return [
        Match(
            tuple(key(r, s) for s in seats_of(r, Team.VILLAGE)),
            tuple(key(r, s) for s in seats_of(r, Team.WEREWOLF)),
            r.winner,
        )
        for r in records
    ]


# ----------------------------------------------------------------------------- OpenSkill
@dataclass(frozen=True, slots=True)
class SkillRating:
    """An OpenSkill rating: mean skill `mu`, uncertainty `sigma`, and `ordinal` = mu - 3 sigma."""

    agent: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate (mu - 3 sigma) to rank by."""
        return self.mu - 3 * self.sigma

    @property
    def interval(self) -> tuple[float, float]:
        """The interval mu plus or minus 1.96 sigma."""
        return self.mu - 1.96 * self.sigma, self.mu + 1.96 * self.sigma


def openskill_ratings(games: Sequence[Match]) -> list[SkillRating]:
    """OpenSkill Plackett-Luce ratings of every label, best (highest ordinal) first.

    Each match rates its two teams with every seat as a team member; a label that holds several
    seats in one game moves by the mean of its seats' updates (and takes their mean sigma).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    state: dict[str, tuple[float, float]] = {}
    played: Counter[str] = Counter()
    for m in games:
        if not m.village or not m.werewolf:
            continue
        teams = [
            [model.rating(*state.get(label, (model.mu, model.sigma)), name=label) for label in team]
            for team in (m.village, m.werewolf)
        ]
        ranks: list[float] = [0, 0] if m.winner == "draw" else ([0, 1] if m.winner == "village" else [1, 0])
        new = model.rate(teams, ranks=ranks)
        moves: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for old_team, new_team in zip(teams, new, strict=True):
            for old, upd in zip(old_team, new_team, strict=True):
                moves[str(old.name)].append((upd.mu - old.mu, upd.sigma))
        for label, ds in moves.items():
            mu, _ = state.get(label, (model.mu, model.sigma))
            state[label] = (mu + sum(d for d, _ in ds) / len(ds), sum(s for _, s in ds) / len(ds))
            played[label] += 1
    out = [SkillRating(label, mu, sigma, played[label]) for label, (mu, sigma) in state.items()]
    return sorted(out, key=lambda r: r.ordinal, reverse=True)


# ----------------------------------------------------------------------------- Bradley-Terry
@dataclass(frozen=True, slots=True)
class Strength:
    """A Bradley-Terry strength on the logit scale (0 = average entrant) with a bootstrap 95% interval."""

    agent: str
    value: float
    lo: float
    hi: float
    games: int

    @property
    def interval(self) -> tuple[float, float]:
        """The bootstrap 95% interval."""
        return self.lo, self.hi


@dataclass(frozen=True, slots=True)
class BradleyTerry:
    """Fitted strengths (best first), the village side's advantage in logits, and the games used."""

    strengths: list[Strength]
    village_advantage: float
    n_games: int

    def __getitem__(self, agent: str) -> Strength:
        for s in self.strengths:
            if s.agent == agent:
                return s
        raise KeyError(agent)


def _design(games: Sequence[Match], labels: list[str]) -> tuple[np.ndarray, np.ndarray]:
    index = {label: i for i, label in enumerate(labels)}
    x = np.zeros((len(games), len(labels)))
    y = np.zeros(len(games))
    for g, m in enumerate(games):
        for label in m.village:
            x[g, index[label]] += 1 / len(m.village)
        for label in m.werewolf:
            x[g, index[label]] -= 1 / len(m.werewolf)
        y[g] = m.winner == "village"
    return x, y


def _fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Logistic regression with an intercept (the side term), both under a small ridge."""
    k = x.shape[1]
    xa = np.hstack([x, np.ones((x.shape[0], 1))])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = xa @ w
        nll = float(np.sum(np.logaddexp(0.0, z) - y * z))
        p = 1.0 / (1.0 + np.exp(-z))
        grad = xa.T @ (p - y)
        return nll + ridge * float(np.sum(w**2)), grad + 2 * ridge * w

    res = minimize(loss, np.zeros(k + 1), jac=True, method="L-BFGS-B")
    w = np.asarray(res.x, dtype=float)
    w[:k] -= w[:k].mean()
    return w


def bradley_terry(games: Sequence[Match], n_boot: int = 200, seed: int = 0, ridge: float = 0.01) -> BradleyTerry:
    """Fit Bradley-Terry strengths by logistic regression, with percentile bootstrap 95% intervals.

    Model: P(village wins) = sigmoid(h + mean strength of village seats - mean strength of
    werewolf seats), where h is the village side's advantage. Draws are left out; a small ridge
    keeps the fit finite when an entrant or a side always wins. Intervals come from refitting on `n_boot`
    resamples of the games.
    """
    decided = [m for m in games if m.winner != "draw" and m.village and m.werewolf]
    labels = sorted({label for m in decided for label in (*m.village, *m.werewolf)})
    if not decided:
        return BradleyTerry([], math.nan, 0)
    x, y = _design(decided, labels)
    w = _fit(x, y, ridge)
    rng = np.random.default_rng(seed)
    boots = np.array([_fit(x[idx], y[idx], ridge)[: len(labels)] for idx in rng.integers(0, len(y), (n_boot, len(y)))])
    played = Counter(label for m in decided for label in {*m.village, *m.werewolf})
    out = []
    for i, label in enumerate(labels):
        lo, hi = np.percentile(boots[:, i], [2.5, 97.5]) if n_boot else (w[i], w[i])
        out.append(Strength(label, float(w[i]), float(lo), float(hi), played[label]))
    out.sort(key=lambda s: s.value, reverse=True)
    return BradleyTerry(out, float(w[-1]), len(decided))


ELO_PER_LOGIT = 400 / math.log(10)
"""Elo points per logit of win odds (a 400-point gap is 10:1 odds)."""


def relative_strength(
    games: Sequence[Match], agent: str, reference: Sequence[str], n_boot: int = 200, seed: int = 0, ridge: float = 0.01
) -> Strength:
    """`agent`'s Bradley-Terry strength minus the mean strength of `reference`, in logits, with a bootstrap interval.

    Against a fixed set of opponents (a reference pool) this is the agent's log-odds edge over
    the pool's average member, with the side advantage fitted apart; entrants rated against the
    same pool on the same deals are on one scale. The interval comes from refitting on `n_boot`
    resamples of the games. NaN with no decided game.
    """
    decided = [m for m in games if m.winner != "draw" and m.village and m.werewolf]
    labels = sorted({label for m in decided for label in (*m.village, *m.werewolf)})
    if agent not in labels:
        return Strength(agent, math.nan, math.nan, math.nan, 0)
    index = {label: i for i, label in enumerate(labels)}
    refs = [index[r] for r in reference if r in index]
    x, y = _design(decided, labels)

    def edge(w: np.ndarray) -> float:
        return float(w[index[agent]] - (np.mean(w[refs]) if refs else 0.0))

    value = edge(_fit(x, y, ridge))
    rng = np.random.default_rng(seed)
    boots = [edge(_fit(x[idx], y[idx], ridge)) for idx in rng.integers(0, len(y), (n_boot, len(y)))]
    lo, hi = np.percentile(boots, [2.5, 97.5]) if n_boot else (value, value)
    played = sum(1 for m in decided if agent in m.village or agent in m.werewolf)
    return Strength(agent, value, float(lo), float(hi), played)
