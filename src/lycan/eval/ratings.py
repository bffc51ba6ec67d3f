"""Ratings of agents from team games: OpenSkill (Plackett-Luce), Bradley-Terry and Nash averaging, with intervals.

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
from scipy.optimize import linprog, minimize

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


# ----------------------------------------------------------------------------- Nash averaging
@dataclass(frozen=True, slots=True)
class NashRating:
    """An agent's payoff against the meta-game's maximum-entropy Nash mixture, with a bootstrap 95% interval.

    `value` is 0 for an agent in the equilibrium's support and negative for one the mixture beats;
    `weight` is the agent's share of the mixture. Payoffs are win rates above the side's own.
    """

    agent: str
    value: float
    lo: float
    hi: float
    weight: float
    games: int


def meta_game(games: Sequence[Match]) -> tuple[list[str], np.ndarray]:
    """The agents and the antisymmetric payoff matrix of their meta-game.

    Entry (a, b) is a's mean outcome against b above its side's: a game counts for each pair of
    different agents on opposite teams (a mixed team shares it among its agents), a's outcome
    being 1 for a win less the win rate of a's side over all `games`, so that a side that wins
    more is no edge of its own. Where a and b met on both sides, each orientation counts half.
    Pairs that never met pay 0. Draws are left out.
    """
    decided = [m for m in games if m.winner != "draw" and m.village and m.werewolf]
    labels = sorted({label for m in decided for label in (*m.village, *m.werewolf)})
    k = len(labels)
    if not decided:
        return labels, np.zeros((k, k))
    index = {label: i for i, label in enumerate(labels)}
    village_rate = sum(m.winner == "village" for m in decided) / len(decided)
    total = np.zeros((2, k, k))  # [orientation: a in the village, a in the pack]
    weight = np.zeros((2, k, k))
    for m in decided:
        village, pack = Counter(m.village), Counter(m.werewolf)
        won = float(m.winner == "village") - village_rate  # the village's outcome above its side's
        for a, na in village.items():
            for b, nb in pack.items():
                if a == b:
                    continue
                w = (na / len(m.village)) * (nb / len(m.werewolf))
                i, j = index[a], index[b]
                total[0, i, j] += w * won
                weight[0, i, j] += w
                total[1, j, i] -= w * won
                weight[1, j, i] += w
    met = weight > 0
    mean = np.divide(total, weight, out=np.zeros_like(total), where=met)
    # the mean of the orientations that happened; (a, b) in one is (b, a) negated in the other
    return labels, mean.sum(axis=0) / np.maximum(met.sum(axis=0), 1)


def max_entropy_nash(payoff: np.ndarray) -> np.ndarray:
    """The maximum-entropy Nash mixture of the symmetric zero-sum game whose row payoffs are `payoff`.

    The game's value is 0, so a mixture p is an equilibrium exactly when no pure strategy gains
    against it (p @ payoff >= 0 in every column). A linear program finds one such mixture; among
    them the one of largest entropy is the one Nash averaging uses (Balduzzi et al., 2018,
    "Re-evaluating evaluation"), which makes the ratings unmoved by copies of an agent.
    """
    k = payoff.shape[0]
    if k == 1:
        return np.ones(1)
    # an equilibrium: maximise v subject to p @ payoff >= v, sum p = 1, p >= 0
    c = np.zeros(k + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-payoff.T, np.ones((k, 1))])
    lp = linprog(c, A_ub=a_ub, b_ub=np.zeros(k), A_eq=[[1.0] * k + [0.0]], b_eq=[1.0],
                 bounds=[(0, None)] * k + [(None, None)], method="highs")  # fmt: skip
    start = np.clip(lp.x[:k], 0, None) if lp.success else np.full(k, 1 / k)
    start /= start.sum()
    tol = 1e-9

    def neg_entropy(p: np.ndarray) -> tuple[float, np.ndarray]:
        q = np.clip(p, 1e-12, None)
        return float(np.sum(q * np.log(q))), np.log(q) + 1.0

    res = minimize(
        neg_entropy, start, jac=True, method="SLSQP", bounds=[(0.0, 1.0)] * k,
        constraints=[
            {"type": "eq", "fun": lambda p: np.sum(p) - 1.0, "jac": lambda p: np.ones(k)},
            {"type": "ineq", "fun": lambda p: p @ payoff + tol, "jac": lambda p: payoff.T},
        ],
        options={"maxiter": 200, "ftol": 1e-12},
    )  # fmt: skip
    p = np.clip(res.x, 0.0, None) if res.success and np.min(res.x @ payoff) >= -1e-6 else start
    return np.asarray(p / p.sum(), dtype=float)


def nash_averaging(games: Sequence[Match], n_boot: int = 200, seed: int = 0) -> list[NashRating]:
    """Nash averaging of the agents in `games`: each agent's payoff against the maximum-entropy Nash mixture.

    A rating that does not reward beating many weak or copied opponents: an agent is rated by
    how it does against the mixture no agent can exploit (`meta_game`, `max_entropy_nash`).
    Percentile 95% intervals come from `n_boot` resamples of the games. Best first.
    """
    labels, payoff = meta_game(games)
    if not labels:
        return []
    p = max_entropy_nash(payoff)
    value = payoff @ p
    rng = np.random.default_rng(seed)
    decided = [m for m in games if m.winner != "draw" and m.village and m.werewolf]
    boots = np.full((n_boot, len(labels)), np.nan)
    index = {label: i for i, label in enumerate(labels)}
    for b in range(n_boot):
        sample = [decided[i] for i in rng.integers(0, len(decided), len(decided))]
        names, pay = meta_game(sample)
        v = pay @ max_entropy_nash(pay)
        for name, x in zip(names, v, strict=True):
            boots[b, index[name]] = x
    played = Counter(label for m in decided for label in {*m.village, *m.werewolf})
    out = []
    for i, label in enumerate(labels):
        column = boots[:, i][~np.isnan(boots[:, i])]
        lo, hi = np.percentile(column, [2.5, 97.5]) if len(column) else (value[i], value[i])
        out.append(NashRating(label, float(value[i]), float(lo), float(hi), float(p[i]), played[label]))
    out.sort(key=lambda r: (r.value, r.weight), reverse=True)
    return out
