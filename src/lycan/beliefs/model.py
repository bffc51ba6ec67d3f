"""Behaviour likelihoods: P(behaviour | role of the actor, roles of the others), fitted from stored games.

One `BehaviourModel` holds, per preset:
- `claim[key][r]`: P(a seat of role r claims the role on this talk day | it had not yet), where the
  key names the claimed role, the day (0, 1, later) and whether the claim is contested (1), or
  contested by a seat a claimant of the role had named a werewolf (2);
- `claim[key + PACK][werewolf]`: the same for a werewolf when a werewolf (its partner) had claimed the
  role before it: a pack fakes a role once, so one werewolf claiming the seer right after another is
  rare, and a werewolf that counter-claims a seer claimant is likelier than the pooled rate says
  (in guardian7 planner games, 0 of 512 turns after a partner's claim against 384 of 1,194 after
  the seer's). Scored over deals (it depends on two seats' roles) where the model has it;
- `report[kind][a, t]`: P(an announced result says werewolf | announcer role a, target role t);
- `choice[kind][a, t]`: the log-weight with which a seat of role a picks a seat of role t (votes,
  vote intentions, accusations, defences), a conditional logit over the seats it could pick;
- `tau`: a temperature on the summed log-likelihood of the choices (votes, intentions, accusations,
  defences) per day (day 1, and any later day: games that last longer are those where the evidence
  misled), chosen on held-out games for calibration (the factors are treated as independent, which
  overcounts the many correlated votes of a table that follows one lead);
- `tau_said`: the temperature of what seats say about themselves and their results (claims,
  silence, announced results), chosen with `tau`: a lone claim is one piece of evidence, and
  tempering it as hard as twenty votes left a lone seer claimant at P(seer) 0.2 where such
  claimants were the seer 85% of the time.

Bernoulli parameters are maximum-likelihood counts with light smoothing toward the pooled rate;
logit weights maximise the conditional likelihood with a small Gaussian prior (gradient ascent).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from lycan.beliefs.evidence import Claim, Observation, Report
from lycan.rules.roles import ROLE_INDEX, Role, Species

ROLES: tuple[Role, ...] = tuple(ROLE_INDEX)
R = len(ROLES)
INDEX = ROLE_INDEX
#: Probabilities of Bernoulli factors are kept inside [CLIP, 1 - CLIP]: no behaviour is certain, so
#: one player who breaks the pattern of the training games cannot rule out the truth.
CLIP = 0.01

Array = npt.NDArray[np.float64]
#: The suffix of a claim parameter for a werewolf whose partner had claimed the role before it.
PACK = "/pack"
_WOLF = ROLE_INDEX[Role.WEREWOLF]


@dataclass
class BehaviourModel:
    """Fitted likelihood parameters for one preset (see the module docstring)."""

    preset: str
    claim: dict[str, Array] = field(default_factory=dict)
    report: dict[str, Array] = field(default_factory=dict)
    choice: dict[str, Array] = field(default_factory=dict)
    tau: float = 1.0
    """The temperature of day 1 (and of day 0)."""
    tau_later: float | None = None
    """The temperature from day 2 on (None: `tau`)."""
    tau_said: float | None = None
    """The temperature of claims and announced results on day 1 (None: `tau`, one temperature for all)."""
    tau_said_later: float | None = None
    """The same from day 2 on (None: `tau_said`, or the choices' temperature when that is None too)."""
    games: int = 0
    source: str = ""

    def tau_for(self, day: int) -> float:
        """The temperature of choices for beliefs held on `day`."""
        return self.tau if day < 2 or self.tau_later is None else self.tau_later

    def taus_for(self, day: int) -> tuple[float, float]:
        """The temperatures (claims and results, choices) for beliefs held on `day`."""
        choice = self.tau_for(day)
        said = self.tau_said if day < 2 or self.tau_said_later is None else self.tau_said_later
        return (choice if said is None else said), choice

    @staticmethod
    def said(obs: Observation) -> bool:
        """Whether `obs` is a statement about the actor itself or its results (tempered by `tau_said`)."""
        return isinstance(obs, Claim | Report)

    # ------------------------------------------------------------------ factors
    def log_factor(self, obs: Observation, deals: npt.NDArray[np.int8]) -> Array | None:
        """Log P(obs | deal) for every row of `deals` (None: the model has nothing to say)."""
        if not len(deals):
            return np.zeros(0)
        if isinstance(obs, Claim):
            p = self.claim_rates(obs)
            if p is None:
                return None
            q = p[deals[:, obs.actor]]
            pack = self.pack_rate(obs)
            if pack is not None:
                partnered = (deals[:, obs.actor] == _WOLF) & (deals[:, list(obs.before)] == _WOLF).any(axis=1)
                q = np.where(partnered, pack, q)
            return np.log(q if obs.claimed else 1.0 - q)
        if isinstance(obs, Report):
            table = self.report.get(obs.kind)
            if table is None:
                return None
            q = table[deals[:, obs.actor], deals[:, obs.target]]
            return np.log(q if obs.species is Species.WEREWOLF else 1.0 - q)
        theta = self.choice.get(obs.kind)
        if theta is None:
            return None
        # log of exp(theta[a, t]) / sum over candidates c of exp(theta[a, role of c]); the sum is the
        # whole deck's total for role a minus the seats that were not candidates (usually few)
        weights = np.exp(theta)
        a = deals[:, obs.actor].astype(np.intp) * R
        flat = weights.ravel()
        cands = set(obs.candidates)
        others = [x for x in range(deals.shape[1]) if x not in cands]
        if len(others) < len(cands):
            deck = np.bincount(deals[0], minlength=R).astype(np.float64)
            denom = (weights @ deck)[deals[:, obs.actor]]
            for x in others:
                denom = denom - flat[a + deals[:, x]]
        else:
            denom = np.zeros(len(deals))
            for c in obs.candidates:
                denom += flat[a + deals[:, c]]
        chosen = theta.ravel()[a + deals[:, obs.target]]
        return np.asarray(chosen - np.log(np.maximum(denom, 1e-300)), dtype=np.float64)

    def claim_rates(self, obs: Claim) -> Array | None:
        """P(claim) per role of the actor for `obs`'s parameter, or its fallback's (None: neither)."""
        p = self.claim.get(obs.key)
        if p is None and obs.fallback is not None:
            p = self.claim.get(obs.fallback)
        return p

    def pack_rate(self, obs: Claim) -> float | None:
        """A werewolf's P(claim) for `obs` where a partner had claimed the role before it.

        None where the model has no such parameter, or nobody had claimed before.
        """
        if not obs.before:
            return None
        p = self.claim.get(obs.key + PACK)
        if p is None and obs.fallback is not None:
            p = self.claim.get(obs.fallback + PACK)
        return None if p is None else float(p[_WOLF])

    def pack_delta(self, obs: Claim) -> float:
        """What `log_factor` adds to `unary`'s werewolf entry where a partner of the actor had claimed before.

        0.0 where the model has no such rate, or nobody had claimed before.
        """
        pack, p = self.pack_rate(obs), self.claim_rates(obs)
        if pack is None or p is None:
            return 0.0
        if obs.claimed:
            return float(np.log(pack) - np.log(p[_WOLF]))
        return float(np.log(1.0 - pack) - np.log(1.0 - p[_WOLF]))

    def unary(self, obs: Claim) -> Array | None:
        """A claim's log-factor per role of its actor, as if no partner of a werewolf actor had claimed before.

        That case adds `pack_delta`; None where the model has nothing to say.
        """
        p = self.claim_rates(obs)
        if p is None:
            return None
        return np.log(p if obs.claimed else 1.0 - p)

    # ------------------------------------------------------------------ files
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (roles named, so the file survives a change of `Role`'s order)."""

        def vec(a: Array) -> dict[str, float]:
            return {ROLES[i].value: round(float(a[i]), 6) for i in range(R)}

        def mat(a: Array) -> dict[str, dict[str, float]]:
            return {ROLES[i].value: vec(a[i]) for i in range(R)}

        return {
            "preset": self.preset,
            "games": self.games,
            "source": self.source,
            "tau": self.tau,
            "tau_later": self.tau_later,
            "tau_said": self.tau_said,
            "tau_said_later": self.tau_said_later,
            "claim": {k: vec(v) for k, v in sorted(self.claim.items())},
            "report": {k: mat(v) for k, v in sorted(self.report.items())},
            "choice": {k: mat(v) for k, v in sorted(self.choice.items())},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BehaviourModel:
        """Read `to_dict`'s form back (roles missing from the file get neutral values).

        Raises:
            ValueError: the data is not a behaviour model.
        """
        try:

            def vec(d: dict[str, float], default: float) -> Array:
                out = np.full(R, default, dtype=np.float64)
                for name, v in d.items():
                    out[INDEX[Role(name)]] = float(v)
                return out

            def mat(d: dict[str, dict[str, float]], default: float) -> Array:
                out = np.full((R, R), default, dtype=np.float64)
                for name, row in d.items():
                    out[INDEX[Role(name)]] = vec(row, default)
                return out

            return cls(
                preset=str(data["preset"]),
                claim={k: vec(v, 0.5) for k, v in data.get("claim", {}).items()},
                report={k: mat(v, 0.5) for k, v in data.get("report", {}).items()},
                choice={k: mat(v, 0.0) for k, v in data.get("choice", {}).items()},
                tau=float(data.get("tau", 1.0)),
                tau_later=None if data.get("tau_later") is None else float(data["tau_later"]),
                tau_said=None if data.get("tau_said") is None else float(data["tau_said"]),
                tau_said_later=None if data.get("tau_said_later") is None else float(data["tau_said_later"]),
                games=int(data.get("games", 0)),
                source=str(data.get("source", "")),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(f"not a behaviour model: {err}") from err

    def save(self, path: Path) -> None:
        """Write the model as JSON."""
        path.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> BehaviourModel:
        """Read a model file.

        Raises:
            ValueError: the file is not a behaviour model (or not JSON).
        """
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise ValueError(f"cannot read behaviour model {path}: {err}") from err
        return cls.from_dict(data)


_DEFAULTS: dict[str, BehaviourModel | None] = {}


def default_model(preset: str, kind: str | None = None) -> BehaviourModel | None:
    """The fitted model shipped for `preset` (None where none ships).

    With `kind` (an agent type, e.g. `react`), the model fitted on seats of that type where one
    ships (`params/<preset>@<kind>.json`), otherwise the preset's default: players of a type no
    model was fitted for are read with the model for unknown players.
    """
    name = f"{preset}@{kind}" if kind else preset
    if name not in _DEFAULTS:
        ref = resources.files("lycan.beliefs") / "params" / f"{name}.json"
        model = None
        if ref.is_file():
            model = BehaviourModel.from_dict(json.loads(ref.read_text(encoding="utf-8")))
        elif kind:
            model = default_model(preset)
        _DEFAULTS[name] = model
    return _DEFAULTS[name]


# ---------------------------------------------------------------------- fitting
@dataclass
class Counts:
    """Sufficient statistics of the training games, gathered by `tally`."""

    claim_pos: dict[str, Array] = field(default_factory=dict)
    claim_all: dict[str, Array] = field(default_factory=dict)
    report_wolf: dict[str, Array] = field(default_factory=dict)
    report_all: dict[str, Array] = field(default_factory=dict)
    choices: dict[str, list[tuple[int, int, Array]]] = field(default_factory=dict)
    """Per kind: (actor role, chosen role, role counts of the candidates)."""
    games: int = 0

    def add(self, observations: Iterable[Observation], roles: tuple[Role, ...]) -> None:
        """Count one game's observations against its true roles."""
        self.games += 1
        for obs in observations:
            if isinstance(obs, Claim):
                r = INDEX[roles[obs.actor]]
                key = obs.key
                if r == _WOLF and any(roles[s] is Role.WEREWOLF for s in obs.before):
                    key += PACK
                pos = self.claim_pos.setdefault(key, np.zeros(R))
                tot = self.claim_all.setdefault(key, np.zeros(R))
                pos[r] += obs.claimed
                tot[r] += 1
            elif isinstance(obs, Report):
                wolf = self.report_wolf.setdefault(obs.kind, np.zeros((R, R)))
                tot = self.report_all.setdefault(obs.kind, np.zeros((R, R)))
                a, t = INDEX[roles[obs.actor]], INDEX[roles[obs.target]]
                wolf[a, t] += obs.species is Species.WEREWOLF
                tot[a, t] += 1
            else:
                m = np.zeros(R)
                for c in obs.candidates:
                    m[INDEX[roles[c]]] += 1
                self.choices.setdefault(obs.kind, []).append((INDEX[roles[obs.actor]], INDEX[roles[obs.target]], m))


def _bernoulli(pos: Array, tot: Array, strength: float = 2.0) -> Array:
    """Per-cell rates shrunk toward the pooled rate of their row (or of everything for a vector)."""
    if pos.ndim == 1:
        prior = np.full_like(pos, (pos.sum() + 1.0) / (tot.sum() + 2.0))
    else:
        prior = ((pos.sum(axis=1) + 1.0) / (tot.sum(axis=1) + 2.0))[:, None] * np.ones_like(pos)
    return np.clip((pos + strength * prior) / (tot + strength), CLIP, 1.0 - CLIP)


def _logit_mle(rows: list[tuple[int, int, Array]], l2: float = 0.5, steps: int = 400) -> Array:
    """Weights theta[a, t] maximising sum log(exp theta[a, t] / sum_r m_r exp theta[a, r]) - l2 |theta|^2 / 2."""
    theta = np.zeros((R, R))
    if not rows:
        return theta
    a = np.array([r[0] for r in rows], dtype=np.intp)
    t = np.array([r[1] for r in rows], dtype=np.intp)
    m = np.stack([r[2] for r in rows])
    n = len(rows)
    chosen = np.zeros((R, R))
    np.add.at(chosen, (a, t), 1.0)
    # Adam on the mean log-likelihood
    mom, vel = np.zeros_like(theta), np.zeros_like(theta)
    lr, b1, b2 = 0.1, 0.9, 0.999
    for step in range(1, steps + 1):
        logits = theta[a]  # (n, R)
        w = m * np.exp(logits - logits.max(axis=1, keepdims=True))
        p = w / w.sum(axis=1, keepdims=True)
        expected = np.zeros((R, R))
        np.add.at(expected, a, p)
        grad = (chosen - expected) / n - l2 * theta / n
        mom = b1 * mom + (1 - b1) * grad
        vel = b2 * vel + (1 - b2) * grad * grad
        theta += lr * (mom / (1 - b1**step)) / (np.sqrt(vel / (1 - b2**step)) + 1e-8)
    # only differences within a row matter; centre rows for readability
    return np.asarray(theta - theta.mean(axis=1, keepdims=True), dtype=np.float64)


def estimate(counts: Counts, preset: str, *, source: str = "") -> BehaviourModel:
    """Maximum-likelihood (lightly smoothed) parameters from `counts`."""
    return BehaviourModel(
        preset=preset,
        claim={k: _bernoulli(counts.claim_pos[k], counts.claim_all[k]) for k in counts.claim_all},
        report={k: _bernoulli(counts.report_wolf[k], counts.report_all[k]) for k in counts.report_all},
        choice={k: _logit_mle(rows) for k, rows in counts.choices.items()},
        games=counts.games,
        source=source,
    )
