"""Fitting behaviour models from finished games, and the moments at which beliefs are scored.

`fit(records, preset)` counts every public act of every game against the true roles (maximum
likelihood, see `lycan.beliefs.model`), then picks the temperatures (claims and results, choices;
day 1, later days) that minimise the log-loss of P(werewolf) on held-out games, at the end of
every day's talk, for every living seat. `fit(..., kinds={"react"})` counts only the acts of seats
played by those agent types (`seat_kind`) and calibrates on questions about them: a model of how
one type of player behaves, from games it played against anyone.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from lycan.beliefs.evidence import Observer
from lycan.beliefs.model import PACK, BehaviourModel, Counts, estimate
from lycan.beliefs.tracker import Beliefs
from lycan.engine.events import Event, Executed, NoExecution, PhaseStarted, VoteCast, public, visible
from lycan.engine.record import GameRecord
from lycan.engine.view import PublicView, View
from lycan.rules.roles import Role

#: Temperatures of choices tried when calibrating.
TAUS = (0.05, 0.1, 0.15, 0.25, 0.35, 0.5, 0.65, 0.8, 1.0, 1.25)
#: Temperatures of claims and announced results tried beside each of `TAUS` (and `TAUS`' own value,
#: one temperature for all).
SAID_TAUS = (0.35, 0.5, 0.75, 1.0)


def talk_ends(events: Sequence[Event]) -> dict[int, int]:
    """For each day with talk, the index of the first event after it (where a probe would be asked)."""
    out: dict[int, int] = {}
    day: int | None = None
    for i, e in enumerate(events):
        if isinstance(e, PhaseStarted):
            if e.phase == "day":
                day = e.day
            elif day is not None:
                out.setdefault(day, i)
                day = None
        elif day is not None and isinstance(e, VoteCast | Executed | NoExecution) and e.day == day:
            out.setdefault(day, i)
            day = None
    return out


@dataclass(frozen=True, slots=True)
class Moment:
    """One seat's view (or the public's) at the end of one day's talk, with the truth."""

    record: GameRecord
    day: int
    view: View | PublicView


def _alive(events: Sequence[Event], n: int) -> tuple[bool, ...]:
    alive = tuple(True for _ in range(n))
    for e in events:
        if isinstance(e, PhaseStarted):
            alive = tuple(s in e.alive for s in range(n))
    return alive


def moments(record: GameRecord, day: int | None = None, *, spectator: bool = False) -> Iterator[Moment]:
    """Every living seat's view (or the public view) at the end of the talk of `day` (None: every day)."""
    ends = talk_ends(record.events)
    n = record.rules.n_players
    for d, end in sorted(ends.items()):
        if day is not None and d != day:
            continue
        upto = record.events[:end]
        alive = _alive(upto, n)
        if spectator:
            yield Moment(record, d, PublicView(record.names, record.rules, d, "day", alive, public(upto)))
            continue
        for seat in range(n):
            if alive[seat]:
                events = visible(upto, seat)
                yield Moment(
                    record, d, View(seat, record.roles[seat], record.names, record.rules, d, "day", alive, events)
                )


def seat_kind(record: GameRecord, seat: int) -> str:
    """The agent type that played `seat` ("react:local" is a react seat; "" when not recorded)."""
    label = record.agents[seat] if seat < len(record.agents) else ""
    return label.split(":", 1)[0]


def counts(records: Sequence[GameRecord], kinds: Collection[str] | None = None) -> Counts:
    """The sufficient statistics of `records` (every public act, read as a spectator).

    With `kinds`, only the acts of seats played by those agent types are counted.
    """
    out = Counts()
    for rec in records:
        observer = Observer(rec.names, None, rec.rules.roles)
        obs = observer.read(public(rec.events))
        obs += observer.close(rec.events[-1].id if rec.events else 0)
        if kinds is not None:
            obs = [o for o in obs if seat_kind(rec, o.actor) in kinds]
        out.add(obs, rec.roles)
    return out


def log_losses(
    model: BehaviourModel,
    records: Sequence[GameRecord],
    taus: Sequence[float],
    *,
    said: Sequence[float] = (),
    views: int = 1500,
    kinds: Collection[str] | None = None,
) -> dict[int, dict[tuple[float, float], float]]:
    """Mean binary log-loss of every other seat's P(werewolf) per pair of temperatures, per day.

    The pairs are (claims and results, choices): every tau of `taus` with itself (one temperature
    for all) and with every value of `said`.

    (The calibration that matters most: whom to suspect. Scoring the full role marginals instead
    chose colder temperatures in aiwolf13, whose rarer roles are harder to tell apart, and left
    P(werewolf) underconfident.)

    Days are pooled as 1 (day 0 and 1) and 2 (any later day). Over every living seat's view at the
    end of every day's talk, at most `views` of them per pool (spread evenly over the games).
    """
    pools: dict[int, list[Moment]] = {1: [], 2: []}
    for rec in records:
        for m in moments(rec):
            pools[min(max(m.day, 1), 2)].append(m)
    pairs = sorted({(t, t) for t in taus} | {(s, t) for s in said for t in taus})
    out: dict[int, dict[tuple[float, float], float]] = {}
    for pool, found in pools.items():
        losses: dict[tuple[float, float], list[float]] = {pair: [] for pair in pairs}
        for m in found[:: max(1, len(found) // views)]:
            beliefs = Beliefs.for_view(m.view, model).close_talk()
            seat = m.view.seat if isinstance(m.view, View) else None
            truth = [
                (s, r is Role.WEREWOLF)
                for s, r in enumerate(m.record.roles)
                if s != seat and (kinds is None or seat_kind(m.record, s) in kinds)
            ]
            if not truth:
                continue
            wolves = beliefs.role_probabilities(Role.WEREWOLF, pairs)
            for pair, wolf in zip(pairs, wolves, strict=True):
                losses[pair].extend(-float(np.log(max(wolf[s] if w else 1.0 - wolf[s], 1e-6))) for s, w in truth)
        if found:
            out[pool] = {pair: float(np.mean(v)) for pair, v in losses.items() if v}
    return out


def merge_counter_claims(c: Counts) -> Counts:
    """`c` with every counter-claim by the accused (`seer/1/2`) counted as a contested claim (`seer/1/1`)."""
    pos: dict[str, npt.NDArray[np.float64]] = {}
    alls: dict[str, npt.NDArray[np.float64]] = {}
    for key, total in c.claim_all.items():
        base, pack = (key.removesuffix(PACK), PACK) if key.endswith(PACK) else (key, "")
        into = (base[:-1] + "1" if base.endswith("/2") else base) + pack
        pos[into] = pos.get(into, 0) + c.claim_pos[key]
        alls[into] = alls.get(into, 0) + total
    return replace(c, claim_pos=pos, claim_all=alls)


def fit(
    records: Sequence[GameRecord],
    preset: str,
    *,
    holdout: float = 0.25,
    source: str = "",
    kinds: Collection[str] | None = None,
    calibrate: Sequence[GameRecord] = (),
) -> BehaviourModel:
    """A behaviour model for `preset` from `records` (games of that preset), temperature calibrated.

    `kinds`: count and calibrate on the seats of these agent types only (None: every seat).
    `calibrate`: games of other players (of the preset) to calibrate on beside the held-out part of
    `records`, each set weighing alike: the likelihoods come from `records`, the temperatures suit
    both kinds of table (a model for players of unknown type).

    Raises:
        ValueError: no game of the preset (with a seat of `kinds`), or too few to hold some out.
    """
    games = [r for r in records if r.rules.name == preset]
    if kinds is not None:
        games = [r for r in games if any(seat_kind(r, s) in kinds for s in range(len(r.roles)))]
    if not games:
        raise ValueError(f"no stored game of preset {preset!r} to fit")
    cut = max(1, int(len(games) * (1 - holdout))) if len(games) > 1 else 1
    train, held = games[:cut], games[cut:] or games[:1]
    others = [r for r in calibrate if r.rules.name == preset]
    trained = counts(train, kinds)

    def scored(c: Counts) -> dict[int, dict[tuple[float, float], float]]:
        model = estimate(c, preset, source=source)
        scores = log_losses(model, held, TAUS, said=SAID_TAUS, kinds=kinds)
        if others:
            more = log_losses(model, others, TAUS, said=SAID_TAUS, kinds=kinds)
            for pool, by_pair in more.items():
                mine = scores.setdefault(pool, by_pair)
                for pair in list(mine):
                    mine[pair] = (mine[pair] + by_pair.get(pair, mine[pair])) / 2
        return scores

    # a counter-claim by the accused keeps its own parameter only where that reads the held-out
    # games better than scoring it as any contested claim (with few such claims it may not); where
    # the training games hold none, the two models are one and it is scored once
    variants = {True: scored(trained)}
    if any(key.removesuffix(PACK).endswith("/2") for key in trained.claim_all):
        variants[False] = scored(merge_counter_claims(trained))
    split = min(variants, key=lambda v: (sum(min(b.values()) for b in variants[v].values() if b), not v))
    scores = variants[split]
    best = {pool: min(by_pair, key=lambda p: (by_pair[p], p)) for pool, by_pair in scores.items() if by_pair}
    everything = counts(games, kinds)
    if not split:
        source += ("; " if source else "") + "counter-claims scored as contested claims"
    final = estimate(everything if split else merge_counter_claims(everything), preset, source=source)
    final.tau_said, final.tau = best.get(1, (1.0, 1.0))
    if 2 in best:
        final.tau_said_later, final.tau_later = best[2]
    return final
