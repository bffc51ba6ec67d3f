"""The posterior over role deals for one seat (or a spectator), kept up to date event by event.

P(deal | view) is proportional to 1[deal agrees with what the seat knows for certain] times the
product of the behaviour likelihoods of every public act it saw (`lycan.beliefs.model`), each kind
raised to its temperature (claims and announced results to one, choices such as votes to
another). Every deal is enumerated (aiwolf13: up to 1,441,440 rows, vectorised), so the result is
exact for the model; `Posterior.method` says so.

`Beliefs` keeps the log-weights of the deals the seat's own role allows, one sum for what seats
said about themselves and one for their choices, and adds each new observation's factor once;
claims, which depend on one seat's role only, are pooled per seat and applied together (a werewolf's
claim after an earlier claimant also depends on whether that was its partner: that term is pooled
per seat and earlier claimants, and applied over the deals).
`Beliefs.influences` removes one event at a time and recomputes: the exact counterfactual "what
would I believe had this not happened", with the size of the move.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import numpy.typing as npt

from lycan.beliefs.deals import FACTS, Knowledge, all_deals, consistent
from lycan.beliefs.evidence import Choice, Claim, Observation, Observer, Reader, Report
from lycan.beliefs.model import INDEX, ROLES, BehaviourModel, default_model
from lycan.engine.actions import PASS, Action, ProbeInfo, Request
from lycan.engine.events import Event, WolfPack
from lycan.engine.view import PublicView, View
from lycan.rules.roles import Role, Team, team_of
from lycan.rules.ruleset import RuleSet

_WOLF_SIDE = np.array([team_of(r) is Team.WEREWOLF for r in ROLES])
#: A sample is drawn again, in proportion to what was said, once its effective size falls below
#: this share of the drawn deals.
MIN_EFFECTIVE = 0.01
#: The share of a proposal spread uniformly over every allowed deal.
UNIFORM_SHARE = 0.1
ModelChoice = BehaviourModel | Literal["default"] | None


@dataclass(frozen=True)
class Posterior:
    """Role probabilities for every seat, from the deals one seat's knowledge allows."""

    seat: int | None
    """Whose knowledge this is (None: a spectator's)."""
    deals: int
    """How many deals are consistent with the certain knowledge."""
    roles: tuple[Role, ...]
    probabilities: npt.NDArray[np.float64]
    """`probabilities[s, r]`: P(seat s holds roles[r])."""
    map_deal: tuple[Role, ...]
    """One most probable deal."""
    method: str = "exact"
    """How the deals were weighed: `exact` (every deal enumerated) or `sampled ...` (importance sampling)."""
    observations: int = 0
    """Soft observations weighed (0: hard knowledge alone)."""

    def role_probabilities(self, seat: int) -> dict[Role, float]:
        """P(role) for `seat`, roles with probability 0 left out."""
        row = self.probabilities[seat]
        return {self.roles[r]: float(p) for r, p in enumerate(row) if p > 0}

    def side_probability(self, seat: int, team: Team = Team.WEREWOLF) -> float:
        """P(`seat` is on `team`'s side)."""
        return min(1.0, float(sum(p for r, p in enumerate(self.probabilities[seat]) if team_of(self.roles[r]) is team)))

    def top_role(self, seat: int) -> tuple[Role, float]:
        """The most probable role of `seat` and its probability."""
        r = int(np.argmax(self.probabilities[seat]))
        return self.roles[r], float(self.probabilities[seat, r])


@dataclass(frozen=True, slots=True)
class Influence:
    """Removing event `event_id` would move P(`seat` is a werewolf-side role) by `-delta`.

    `delta` = P(with the event) - P(without it): positive when the event made the seat more suspect.
    `kind`: `fact` (certain knowledge) or the observation kind (claim, report, choice).
    """

    event_id: int
    seat: int
    delta: float
    kind: str


class Beliefs:
    """One seat's (or a spectator's) posterior, updated from its growing view.

    Args:
        rules: the game's rules (their deck, and their preset's fitted model by default).
        names: the table's names.
        seat: whose view (None: the public record).
        role: that seat's role.
        pack: the werewolf pack, when the seat is a werewolf.
        model: a behaviour model, `"default"` (the one shipped for the preset, if any) or None
            (hard knowledge alone).
        max_deals: above this many deals (aiwolf13 has up to 1,441,440) the posterior is estimated
            on `sample` deals drawn from those the seat's knowledge allows, each weighed by its
            likelihood over its chance of being drawn (importance sampling). The first draw is
            uniform; once the weights have collapsed onto few deals (claims and results weigh in
            full), the deals are drawn again in proportion to what was said, computed over every
            allowed deal (see `_draw`). The draws depend on what the seat has seen alone.
        sample: how many deals to draw when sampling.
        read: how talk becomes statements (default: `lycan.beliefs.reader.TalkReader`, rules that
            know what they did not read; a `ClaimExtractor`'s reader adds a model for the rest).
    """

    def __init__(
        self,
        rules: RuleSet,
        names: tuple[str, ...],
        seat: int | None = None,
        role: Role | None = None,
        pack: frozenset[int] | None = None,
        model: ModelChoice = "default",
        *,
        max_deals: int = 300_000,
        sample: int = 200_000,
        read: Reader | None = None,
    ) -> None:
        self.rules = rules
        self.max_deals, self.sample = max_deals, sample
        self.model = default_model(rules.name) if model == "default" else model
        self.seat, self.role = seat, role
        self._witch = rules.roles.get(Role.WITCH, 0) > 0
        deck = tuple(sorted(rules.deck(), key=lambda r: INDEX[r]))
        self.knowledge = Knowledge(seat, role, {} if seat is None or role is None else {seat: role}, pack)
        self._full = all_deals(deck)
        self._pending: dict[int, npt.NDArray[np.float64]] = {}
        self._pending_pack: dict[tuple[int, tuple[int, ...]], float] = {}
        """Per (werewolf seat, earlier claimants): the log-factor added where one of them is its partner."""
        self.observer = Observer(names, seat, rules.roles, read)
        self.observations: list[Observation] = []
        self.events: list[Event] = []
        self.method = "exact"
        self._closed = -1
        self._fixed = False
        self._draw(consistent(self._full, self.knowledge))

    def _draw(self, allowed: npt.NDArray[np.bool_], observations: Sequence[Observation] = ()) -> None:
        """Take every allowed deal as the base, or a sample of them when they are too many.

        Without statements among `observations` the sample is uniform (without replacement).
        With them, each allowed deal is proposed in proportion to the likelihood of the claims,
        silences and results (cheap factors of one or two seats, computed over every allowed deal,
        at the claims' temperature), mixed with a uniform share so no deal is left out; deals are
        drawn with replacement and keep their log proposal weight in `logq` (relative to uniform),
        which the weights divide out. The choices, costly over every deal, weigh the sample only.
        """
        rows = np.flatnonzero(allowed)
        self.method = "exact"
        logq: npt.NDArray[np.float64] | None = None
        if len(rows) > self.max_deals and self.model is not None:  # certain knowledge alone stays cheap
            # seeded by what the seat has seen only, so the draw reveals nothing and repeats exactly
            key = [len(rows), 0 if self.seat is None else self.seat + 1, len(self.knowledge.known), len(self.events)]
            rng = np.random.default_rng(key)
            said = self._said(self._full[rows], observations)
            if said is None:
                rows = np.sort(rng.choice(rows, size=self.sample, replace=False))
                how = "uniformly"
            else:
                x = self.temperatures()[0] * said
                p = np.exp(x - x.max())
                q = (1.0 - UNIFORM_SHARE) * p / p.sum() + UNIFORM_SHARE / len(rows)
                pick = np.sort(rng.choice(len(rows), size=self.sample, replace=True, p=q))
                logq = np.log(q[pick] * len(rows))
                rows = rows[pick]
                how = f"by {len(observations)} observations"
            self.method = f"sampled {self.sample} of {int(allowed.sum())} deals {how}, importance-weighted"
        self._drawn_at = len(observations)
        self.base = self._full[rows]
        self.mask = np.ones(len(rows), dtype=bool)
        self.logq = np.zeros(len(rows), dtype=np.float64) if logq is None else logq
        """Log of each row's chance of being drawn, relative to a uniform draw (0 when exact)."""
        self.logw = np.zeros(len(rows), dtype=np.float64)
        """Log-likelihood of every deal under the claims, silences and announced results."""
        self.logc = np.zeros(len(rows), dtype=np.float64)
        """Log-likelihood of every deal under the choices (votes, intentions, accusations, defences)."""

    @classmethod
    def for_view(
        cls, view: View | PublicView, model: ModelChoice = "default", *, read: Reader | None = None
    ) -> Beliefs:
        """Beliefs for `view`'s seat (a spectator for a public view), `view` already read (`read`: see the class)."""
        if isinstance(view, View):
            pack = frozenset(view.wolves()) if view.role is Role.WEREWOLF and view.wolves() else None
            beliefs = cls(view.rules, view.names, view.seat, view.role, pack, model, read=read)
        else:
            beliefs = cls(view.rules, view.names, model=model, read=read)
        return beliefs.update(view.events)

    # ------------------------------------------------------------------ reading
    def update(self, events: Sequence[Event]) -> Beliefs:
        """Read the events of `events` past those already read (the whole view may be passed)."""
        new = events[len(self.events) :]
        if not new:
            return self
        self.events.extend(new)
        for e in new:  # a werewolf learns its pack once the deal is done
            if isinstance(e, WolfPack) and self.role is Role.WEREWOLF and self.knowledge.wolves is None:
                self.knowledge = replace(self.knowledge, wolves=frozenset(e.members))
                self._rebase()
        self._add(self.observer.read(new))
        if any(isinstance(e, FACTS) for e in new):
            know = Knowledge.from_events(self.seat, self.role, self.knowledge.wolves, self._witch, self.events)
            if know != self.knowledge:
                self.knowledge = know
                self.mask = consistent(self.base, know)
                if self.method != "exact" and self.mask.sum() < self.sample // 4:
                    self._redraw()
        return self

    def _rebase(self) -> None:
        """The seat's own knowledge of the deal changed: take the deals again and reweigh them."""
        observations, self.observations = self.observations, []
        self._pending.clear()
        self._pending_pack.clear()
        self._draw(consistent(self._full, self.knowledge.base()), observations)
        self.mask = consistent(self.base, self.knowledge)
        self._add(observations)

    def _redraw(self) -> None:
        """Draw the sample again among the deals still allowed, in proportion to what was said."""
        observations, self.observations = self.observations, []
        self._pending.clear()
        self._pending_pack.clear()
        self._draw(consistent(self._full, self.knowledge), observations)
        self.mask = consistent(self.base, self.knowledge)
        self._add(observations)

    def _said(self, deals: npt.NDArray[np.int8], observations: Sequence[Observation]) -> npt.NDArray[np.float64] | None:
        """The log-likelihood of the claims, silences and results of `observations` for every row of `deals`."""
        model = self.model
        if model is None or not any(model.said(obs) for obs in observations):
            return None
        out = np.zeros(len(deals), dtype=np.float64)
        unary: dict[int, npt.NDArray[np.float64]] = {}
        packs: dict[tuple[int, tuple[int, ...]], float] = {}
        for obs in observations:
            if isinstance(obs, Claim):
                u = model.unary(obs)
                if u is not None:
                    unary[obs.actor] = u if obs.actor not in unary else unary[obs.actor] + u
                    if delta := model.pack_delta(obs):
                        packs[obs.actor, obs.before] = packs.get((obs.actor, obs.before), 0.0) + delta
            elif model.said(obs):
                factor = model.log_factor(obs, deals)
                if factor is not None:
                    out += factor
        for seat, u in unary.items():
            out += u[deals[:, seat]]
        for (seat, before), delta in packs.items():
            out += delta * _partnered(deals, seat, before)
        return out

    def _refresh(self) -> None:
        """Draw a sample again once its weights rest on too few deals (and something was seen since)."""
        if self.method == "exact" or self._fixed or len(self.observations) <= self._drawn_at or not self.mask.any():
            return
        w = self._weights((self.logw, self.logc), self.mask)
        if w.sum() ** 2 < MIN_EFFECTIVE * self.sample * (w**2).sum():
            self._redraw()
            self._flush()

    def close_talk(self) -> Beliefs:
        """Count today's silence now (when the talk is over but no vote has been cast yet)."""
        last = self.events[-1].id if self.events else 0
        self._add(self.observer.close(last))
        self._closed = len(self.events)
        return self

    def _add(self, observations: list[Observation]) -> None:
        model = self.model
        if model is None:
            return
        for obs in observations:
            if isinstance(obs, Claim):
                unary = model.unary(obs)
                if unary is None:
                    continue
                pending = self._pending.get(obs.actor)
                self._pending[obs.actor] = unary if pending is None else pending + unary
                if delta := model.pack_delta(obs):
                    key = (obs.actor, obs.before)
                    self._pending_pack[key] = self._pending_pack.get(key, 0.0) + delta
            else:
                factor = model.log_factor(obs, self.base)
                if factor is None:
                    continue
                if model.said(obs):
                    self.logw += factor
                else:
                    self.logc += factor
            self.observations.append(obs)

    def _flush(self) -> None:
        for seat, unary in self._pending.items():
            self.logw += unary[self.base[:, seat]]
        for (seat, before), delta in self._pending_pack.items():
            self.logw += delta * _partnered(self.base, seat, before)
        self._pending.clear()
        self._pending_pack.clear()

    # ------------------------------------------------------------------ results
    def temperatures(self, tau: float | None = None, said: float | None = None) -> tuple[float, float]:
        """(claims and results, choices) temperatures: the model's for today unless given.

        `tau` alone sets both (one temperature for every kind, as a calibration sweep asks).
        """
        if tau is None:
            day = self.events[-1].day if self.events else 0
            model_said, tau = self.model.taus_for(day) if self.model is not None else (1.0, 1.0)
            said = model_said if said is None else said
        return (tau if said is None else said), tau

    def _weights(
        self,
        logs: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
        mask: npt.NDArray[np.bool_],
        tau: float | None = None,
        said: float | None = None,
    ) -> npt.NDArray[np.float64]:
        t_said, t_choice = self.temperatures(tau, said)
        logw, logc = logs
        w = np.zeros(len(logw))
        if mask.any():
            x = t_said * logw[mask] + t_choice * logc[mask] - self.logq[mask]
            w[mask] = np.exp(x - x.max())
        return w

    def _marginals(self, w: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        n = self.base.shape[1]
        out = np.zeros((n, len(ROLES)))
        total = w.sum()
        for s in range(n):
            out[s] = np.bincount(self.base[:, s], weights=w, minlength=len(ROLES))
        return np.asarray(np.clip(out / total, 0.0, 1.0), dtype=np.float64)

    def _ready(self) -> None:
        """Apply the pooled claims, draw a collapsed sample again, and check that some deal fits.

        Raises:
            ValueError: no deal fits what the seat knows.
        """
        self._flush()
        self._refresh()
        if not self.mask.any():
            who = "the public record" if self.seat is None else f"seat {self.seat}"
            raise ValueError(f"no deal of {len(self.base)} fits what {who} knows")

    def posterior(self, tau: float | None = None, said: float | None = None) -> Posterior:
        """The posterior now (`tau`, `said`: other temperatures than the model's, see `temperatures`).

        Raises:
            ValueError: no deal fits what the seat knows (a log that cannot have happened).
        """
        self._ready()
        w = self._weights((self.logw, self.logc), self.mask, tau, said)
        return Posterior(
            seat=self.seat,
            deals=int(self.mask.sum()),
            roles=ROLES,
            probabilities=self._marginals(w),
            map_deal=tuple(ROLES[r] for r in self.base[int(np.argmax(w))]),
            method=self.method,
            observations=len(self.observations),
        )

    def deals(self, tau: float | None = None, said: float | None = None) -> tuple[list[tuple[Role, ...]], list[float]]:
        """Every deal the seat's knowledge allows (or the sample of them), with its posterior weight.

        Raises:
            ValueError: no deal fits what the seat knows.
        """
        self._ready()
        rows = np.flatnonzero(self.mask)
        w = self._weights((self.logw, self.logc), self.mask, tau, said)[rows]
        return [tuple(ROLES[r] for r in self.base[i]) for i in rows], (w / w.sum()).tolist()

    def role_probabilities(self, role: Role, temperatures: Sequence[tuple[float, float]]) -> npt.NDArray[np.float64]:
        """P(each seat holds `role`) under each (claims and results, choices) pair of temperatures.

        One row per pair: a calibration sweep without the full marginals of `posterior`.

        On a sample (`method` not `exact`) the deals were drawn at the model's temperatures, and
        the further a pair lies from them the fewer deals carry its weight: at a choice temperature
        of 1.0 on aiwolf13 views, 7 to 915 of 200,000 drawn deals did, and a seat's P(werewolf) was
        off by up to 0.18 on one view in six. A sweep that averages over many views (`fit.log_losses`)
        takes that as noise; a single view's figures far from the model's temperatures are rough.

        Raises:
            ValueError: no deal fits what the seat knows.
        """
        self._ready()
        holds = (self.base[self.mask] == INDEX[role]).astype(np.float64)
        logw, logc, logq = self.logw[self.mask], self.logc[self.mask], self.logq[self.mask]
        out = np.zeros((len(temperatures), self.base.shape[1]))
        for i, (said, tau) in enumerate(temperatures):
            x = said * logw + tau * logc - logq
            w = np.exp(x - x.max())
            out[i] = np.clip(w @ holds / w.sum(), 0.0, 1.0)
        return out

    def influences(self, seats: Sequence[int] | None = None, top: int = 3) -> dict[int, list[Influence]]:
        """For each seat, the `top` events whose removal would move its P(werewolf side) most.

        Every event is first scored cheaply (its observations' factors taken out of the weights, or,
        for a certain fact, the knowledge recomputed without it); the leading candidates are then
        removed for real and the whole view read again, so each reported move is the exact
        counterfactual (a removed claim also changes who was first to claim, and that day's
        silence). Silence itself is no event, so it is never listed.
        """
        self._flush()
        self._refresh()
        seats = [s for s in range(self.base.shape[1]) if s != self.seat] if seats is None else list(seats)
        if not seats:
            return {}
        wolf_side = _WOLF_SIDE[self.base[:, seats]]  # (deals, seats)

        def side(w: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            total = w.sum()
            return np.asarray(w @ wolf_side / total if total > 0 else np.full(len(seats), np.nan), dtype=np.float64)

        now = side(self._weights((self.logw, self.logc), self.mask))
        rough: dict[int, tuple[str, npt.NDArray[np.float64]]] = {}
        by_event: dict[int, list[Observation]] = defaultdict(list)
        for obs in self.observations:
            if not isinstance(obs, Claim) or obs.claimed:
                by_event[obs.event_id].append(obs)
        model = self.model
        for event_id, group in by_event.items():
            assert model is not None
            logw, logc = self.logw.copy(), self.logc.copy()
            for obs in group:
                factor = model.log_factor(obs, self.base)
                if factor is not None:
                    if model.said(obs):
                        logw -= factor
                    else:
                        logc -= factor
            rough[event_id] = (type(group[0]).__name__.lower(), now - side(self._weights((logw, logc), self.mask)))
        for i, e in enumerate(self.events):
            if isinstance(e, FACTS):
                rest = self.events[:i] + self.events[i + 1 :]
                know = Knowledge.from_events(self.seat, self.role, self.knowledge.wolves, self._witch, rest)
                if know != self.knowledge:
                    moved = self._weights((self.logw, self.logc), consistent(self.base, know))
                    rough[e.id] = ("fact", now - side(moved))
        candidates: set[int] = set()
        for j in range(len(seats)):
            ranked = sorted(rough, key=lambda eid: -abs(np.nan_to_num(rough[eid][1][j])))
            candidates.update(ranked[: 2 * top])
        exact = {eid: now - side_of(self._without(eid), seats) for eid in candidates}
        out: dict[int, list[Influence]] = {}
        for j, s in enumerate(seats):
            found = [
                Influence(eid, s, float(d[j]), _kind_about(by_event.get(eid), s) or rough[eid][0])
                for eid, d in exact.items()
                if np.isfinite(d[j])
            ]
            found.sort(key=lambda inf: (-abs(inf.delta), inf.event_id))
            out[s] = [inf for inf in found[:top] if abs(inf.delta) > 1e-9]
        return out

    def _without(self, event_id: int) -> Posterior:
        """The posterior had event `event_id` not happened (read again from the start)."""
        kept = [e for e in self.events if e.id != event_id]
        pack = self.knowledge.wolves
        again = Beliefs(
            self.rules, self.observer.names, self.seat, self.role, pack, self.model, read=self.observer.reader
        )
        again.max_deals, again.sample = self.max_deals, self.sample
        if self.method != "exact":  # the same sample, so only the event differs
            again.base, again.method, again.logq, again._fixed = self.base, self.method, self.logq, True
            again.mask = np.ones(len(self.base), dtype=bool)
            again.logw, again.logc = np.zeros(len(self.base)), np.zeros(len(self.base))
        again.update(kept)
        if self._closed == len(self.events):
            again.close_talk()
        return again.posterior()


def _partnered(deals: npt.NDArray[np.int8], seat: int, before: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """Rows of `deals` in which `seat` is a werewolf and one of `before` is too."""
    wolf = INDEX[Role.WEREWOLF]
    return np.asarray((deals[:, seat] == wolf) & (deals[:, list(before)] == wolf).any(axis=1))


def _kind_about(group: list[Observation] | None, seat: int) -> str | None:
    """The kind of the observation of an event that was about `seat` (a vote, a result), if any.

    A line that claims a role and names whom the speaker will vote for moves the named seat by the
    vote intention, so that is the reason to cite, not the claim.
    """
    for obs in group or ():
        if isinstance(obs, Choice | Report) and obs.target == seat:
            return type(obs).__name__.lower()
    return None


def side_of(post: Posterior, seats: Sequence[int]) -> npt.NDArray[np.float64]:
    """P(werewolf side) of `seats` in `post`."""
    return np.asarray(post.probabilities[seats] @ _WOLF_SIDE, dtype=np.float64)


def probe_answer(view: View, request: Request) -> Action:
    """Answer a role probe with `view`'s posterior: every role with P > 0 for every asked seat.

    Roles the probe does not offer are left out; a view no deal fits gets a pass.
    """
    try:
        post = posterior(view)
    except ValueError:
        return PASS
    roles = set(request.info.roles) if isinstance(request.info, ProbeInfo) else None
    return Action.probe(
        (seat, role, p)
        for seat in request.targets
        for role, p in post.role_probabilities(seat).items()
        if roles is None or role.value in roles
    )


def posterior(view: View | PublicView, model: ModelChoice = "default") -> Posterior:
    """The posterior over roles for every seat given `view` (a seat's view, or the public record).

    `model`: the behaviour model weighing soft evidence; `"default"` uses the one fitted for the
    preset when one ships, None uses certain knowledge alone.

    Raises:
        ValueError: no deal fits the view (a log that cannot have happened).
    """
    return Beliefs.for_view(view, model).posterior()
