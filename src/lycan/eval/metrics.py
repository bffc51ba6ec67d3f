"""Metrics computed from game records: every figure comes with its N and a 95% interval.

Proportions carry Wilson intervals (`Rate`), means carry bootstrap intervals (`Mean`).
An *agent* is the label a record gives a seat (`record.agents[seat]`, e.g. `random` or
`llm:qwen2.5-0.5b`); seats labelled `human` are people. A seat *wins* when the record's winner is
its role's team; a draw is a win for nobody.
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from lycan.engine.events import Died, Executed, PhaseStarted, ProbeAnswered, Talk, VoteCast
from lycan.engine.record import GameRecord
from lycan.eval.estimates import Mean, bootstrap_mean
from lycan.rules import ConfigError
from lycan.rules.files import read_data
from lycan.rules.roles import KEY_ROLES, Role, Team, team_of
from lycan.stats import Rate

HUMAN = "human"


# ----------------------------------------------------------------------------- basics
def seat_won(record: GameRecord, seat: int) -> bool:
    """Whether `seat` is on the winning team (False on a draw)."""
    return record.winner == team_of(record.roles[seat]).value


def seats_of(record: GameRecord, team: Team) -> list[int]:
    """The seats whose role is on `team`."""
    return [s for s, r in enumerate(record.roles) if team_of(r) is team]


def _agents(records: Iterable[GameRecord]) -> list[str]:
    seen: dict[str, None] = {}
    for rec in records:
        for a in rec.agents:
            seen.setdefault(a, None)
    return list(seen)


# ----------------------------------------------------------------------------- win rates
@dataclass(frozen=True, slots=True)
class SideRates:
    """Win rates of one agent against one opponent, by the side it played (seed 002, Table 1)."""

    agent: str
    opponent: str
    village: Rate
    werewolf: Rate

    @property
    def overall(self) -> Rate:
        """Both sides pooled (equal to the mean of the two when both have the same N)."""
        return Rate(self.village.wins + self.werewolf.wins, self.village.n + self.werewolf.n)


def side_win_rates(records: Iterable[GameRecord], agent: str, opponent: str | None = None) -> SideRates:
    """Win rate of `agent` when it plays a whole team against `opponent` playing the other team.

    A game counts for the village side when every village-team seat is `agent` and every
    werewolf-team seat is `opponent` (any other label when `opponent` is None), and the other
    way round for the werewolf side. Games with mixed teams are not counted.
    """
    wins = {Team.VILLAGE: 0, Team.WEREWOLF: 0}
    games = {Team.VILLAGE: 0, Team.WEREWOLF: 0}
    for rec in records:
        for side, other in ((Team.VILLAGE, Team.WEREWOLF), (Team.WEREWOLF, Team.VILLAGE)):
            mine = {rec.agents[s] for s in seats_of(rec, side)}
            theirs = {rec.agents[s] for s in seats_of(rec, other)}
            if mine != {agent}:
                continue
            if (opponent is not None and theirs != {opponent}) or (opponent is None and agent in theirs):
                continue
            games[side] += 1
            wins[side] += rec.winner == side.value
    return SideRates(
        agent,
        opponent or "any",
        Rate(wins[Team.VILLAGE], games[Team.VILLAGE]),
        Rate(wins[Team.WEREWOLF], games[Team.WEREWOLF]),
    )


def team_lineup(record: GameRecord) -> tuple[str, str] | None:
    """(village agent, werewolf agent) when one agent plays every seat of each side; else None."""
    village = {record.agents[s] for s in seats_of(record, Team.VILLAGE)}
    werewolf = {record.agents[s] for s in seats_of(record, Team.WEREWOLF)}
    if len(village) == 1 and len(werewolf) == 1:
        return next(iter(village)), next(iter(werewolf))
    return None


def matchups(records: Sequence[GameRecord]) -> list[SideRates]:
    """Every agent against every opponent it met in team games, by side (one game is one trial).

    For each pair that met (one agent on every village seat, one on every werewolf seat), in order
    of first meeting: A against B, and B against A when they differ. Games with mixed sides are
    left out; self-play gives one row whose sides are the two teams' win rates.
    """
    pairs: dict[tuple[str, str], None] = {}
    for rec in records:
        lineup = team_lineup(rec)
        if lineup is not None:
            pairs.setdefault(lineup)
            pairs.setdefault((lineup[1], lineup[0]))
    return [side_win_rates(records, agent, opponent) for agent, opponent in pairs]


@dataclass(frozen=True, slots=True)
class RoleTable:
    """Win rate per agent and role (seed 000, Tables 2 and 3); a cell with N = 0 is N/A."""

    roles: tuple[Role, ...]
    rows: dict[str, dict[Role, Rate]]
    overall: dict[str, Rate]
    average: dict[Role, Rate]


def win_rates_by_role(records: Sequence[GameRecord]) -> RoleTable:
    """Win rate of every agent in every role, each agent overall, and each role pooled over agents."""
    cells: dict[str, dict[Role, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    roles_seen: set[Role] = set()
    for rec in records:
        for seat, (agent, role) in enumerate(zip(rec.agents, rec.roles, strict=True)):
            cell = cells[agent][role]
            cell[0] += seat_won(rec, seat)
            cell[1] += 1
            roles_seen.add(role)
    roles = tuple(r for r in Role if r in roles_seen)
    rows = {a: {r: Rate(*cells[a].get(r, [0, 0])) for r in roles} for a in _agents(records)}
    overall = {a: Rate(sum(x.wins for x in row.values()), sum(x.n for x in row.values())) for a, row in rows.items()}
    average = {
        r: Rate(sum(row[r].wins for row in rows.values()), sum(row[r].n for row in rows.values())) for r in roles
    }
    return RoleTable(roles, rows, overall, average)


def win_rates(records: Sequence[GameRecord]) -> dict[str, Rate]:
    """Win rate of every agent over all the seats it played."""
    return win_rates_by_role(records).overall


def team_win_rates(records: Sequence[GameRecord]) -> dict[str, Rate]:
    """How often each team won, over all games (`village`, `werewolf`, `draw`)."""
    n = len(records)
    return {w: Rate(sum(1 for r in records if r.winner == w), n) for w in ("village", "werewolf", "draw")}


# ----------------------------------------------------------------------------- votes
@dataclass(frozen=True, slots=True)
class VoteStats:
    """Votes an agent received per game, from everyone and from human seats (seed 002, Table 4)."""

    agent: str
    received: Mean
    from_humans: Mean
    win: Rate


def votes_received(records: Sequence[GameRecord], *, revotes: bool = False) -> dict[str, VoteStats]:
    """Per agent: mean votes received per game, mean votes from human seats, and win rate.

    Each seat in each game is one sample.
    Only first-round votes count unless `revotes` is True (a tie's revote would count the same
    voters twice). `from_humans` is over games that had at least one human seat other than the
    agent's own; it is NaN with N = 0 where there were none.
    """
    received: dict[str, list[float]] = defaultdict(list)
    human: dict[str, list[float]] = defaultdict(list)
    wins: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for rec in records:
        got = [0] * len(rec.agents)
        got_h = [0] * len(rec.agents)
        for e in rec.events:
            if isinstance(e, VoteCast) and (revotes or e.round == 0):
                got[e.target] += 1
                if rec.agents[e.actor] == HUMAN:
                    got_h[e.target] += 1
        for seat, agent in enumerate(rec.agents):
            received[agent].append(got[seat])
            if any(a == HUMAN for s, a in enumerate(rec.agents) if s != seat):
                human[agent].append(got_h[seat])
            wins[agent][0] += seat_won(rec, seat)
            wins[agent][1] += 1
    return {
        a: VoteStats(a, bootstrap_mean(received[a]), bootstrap_mean(human.get(a, [])), Rate(*wins[a]))
        for a in _agents(records)
    }


# Kaggle's Game Arena werewolf harness (kaggle-environments, `envs/werewolf/eval/loaders.py`,
# `GameResult.iterate_voting_mini_game`, and `envs/werewolf/eval/metrics.py`, `GameSetEvaluator.evaluate`)
# defines IRP, VSS, KSR, margin and speed of win, and their win-dependent (WD) forms; the functions
# below follow those definitions on Lycan's records. Its "villagers" are the village team, its
# "wolves" the werewolves (the possessed is neither a villager nor a wolf there: here it is on the
# werewolf team, so its votes do not count, and a vote for it is not a vote for a werewolf).
def _village_won(rec: GameRecord) -> bool:
    return rec.winner == Team.VILLAGE.value


def identification_precision(
    records: Iterable[GameRecord], *, by_role: bool = False, win_dependent: bool = False
) -> dict[str, Rate]:
    """Identification precision (IRP), as Kaggle's werewolf arena defines it.

    Kaggle: "for every day vote cast by a villager, score 1 if they voted for a werewolf, 0
    otherwise", averaged over the agent's votes. Here every day vote by a village-team seat counts,
    revotes included. With `by_role`, keys are `agent/role` and every role counts (for a
    werewolf-team seat a vote at a werewolf is a vote at a partner). `win_dependent` is Kaggle's
    WD-IRP: a vote scores only when the village won.
    """
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for rec in records:
        scores = not win_dependent or _village_won(rec)
        for e in rec.events:
            if not isinstance(e, VoteCast):
                continue
            role = rec.roles[e.actor]
            if by_role:
                key = f"{rec.agents[e.actor]}/{role.value}"
            elif team_of(role) is Team.VILLAGE:
                key = rec.agents[e.actor]
            else:
                continue
            tally[key][0] += scores and rec.roles[e.target] is Role.WEREWOLF
            tally[key][1] += 1
    return {k: Rate(*v) for k, v in tally.items()}


def vote_success(records: Iterable[GameRecord], *, win_dependent: bool = False) -> dict[str, Rate]:
    """Vote success (VSS), as Kaggle's werewolf arena defines it.

    Kaggle: "for villager votes on days a werewolf was exiled, score 1 if they voted for the
    exiled werewolf, 0 otherwise". Here: on each day whose execution was a werewolf, the votes of
    the round that executed it (a revote when the first round tied) cast by village-team seats.
    `win_dependent` is Kaggle's WD-VSS: a vote scores only when the village won.
    """
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for rec in records:
        scores = not win_dependent or _village_won(rec)
        day_votes: list[VoteCast] = []
        for e in rec.events:
            if isinstance(e, VoteCast):
                if day_votes and (day_votes[-1].day, day_votes[-1].round) != (e.day, e.round):
                    day_votes = []  # a new round (or day): only the round that executes counts
                day_votes.append(e)
            elif isinstance(e, Executed):
                if rec.roles[e.target] is Role.WEREWOLF:
                    for v in day_votes:
                        if v.day == e.day and team_of(rec.roles[v.actor]) is Team.VILLAGE:
                            cell = tally[rec.agents[v.actor]]
                            cell[0] += scores and v.target == e.target
                            cell[1] += 1
                day_votes = []
    return {k: Rate(*v) for k, v in tally.items()}


def _alive_at_end(rec: GameRecord) -> set[int]:
    dead = {e.target for e in rec.events if isinstance(e, Died)}
    return set(range(len(rec.roles))) - dead


def survival(records: Iterable[GameRecord], *, by_role: bool = False, win_dependent: bool = False) -> dict[str, Rate]:
    """Survival (Kaggle's KSR): the share of an agent's seats alive at the end of the game.

    Kaggle scores every player 1 if alive at the end, per agent and per role (`by_role`: keys
    `agent/role`). `win_dependent` is Kaggle's WD-KSR, "the joint probability of winning and
    surviving". (`key_role_survival` gives the key roles' survival day by day.)
    """
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for rec in records:
        alive = _alive_at_end(rec)
        for seat, agent in enumerate(rec.agents):
            key = f"{agent}/{rec.roles[seat].value}" if by_role else agent
            tally[key][0] += seat in alive and (not win_dependent or seat_won(rec, seat))
            tally[key][1] += 1
    return {k: Rate(*v) for k, v in tally.items()}


def game_days(rec: GameRecord) -> int:
    """The days a game lasted: the last day it reached (at least 1)."""
    return max([1, *(e.day for e in rec.events)])


@dataclass(frozen=True, slots=True)
class WinDominance:
    """How an agent's won games were won (Kaggle's dominance metrics), over the seats that won."""

    agent: str
    margin: Mean
    """Margin of win: the share of the winning team alive at the end."""
    speed: Mean
    """Speed of win: 1 / the days the game lasted."""


def win_dominance(records: Sequence[GameRecord]) -> dict[str, WinDominance]:
    """Margin and speed of win, as Kaggle's werewolf arena defines them.

    Kaggle: in a won game, "margin of win = living teammates / total team size" of the winning
    team, and "speed of win = 1 / game duration" in days; each is averaged over the won games of
    every seat an agent played (a seat that lost adds nothing). Agents that never won have NaN means.
    """
    margins: dict[str, list[float]] = defaultdict(list)
    speeds: dict[str, list[float]] = defaultdict(list)
    for rec in records:
        alive = _alive_at_end(rec)
        winners = [s for s in range(len(rec.roles)) if seat_won(rec, s)]
        margin = sum(1 for s in winners if s in alive) / len(winners) if winners else math.nan
        speed = 1 / game_days(rec)
        for s in winners:
            margins[rec.agents[s]].append(margin)
            speeds[rec.agents[s]].append(speed)
    return {
        a: WinDominance(a, bootstrap_mean(margins.get(a, [])), bootstrap_mean(speeds.get(a, [])))
        for a in _agents(records)
    }


# ----------------------------------------------------------------------------- survival
@dataclass(frozen=True, slots=True)
class Survival:
    """Key-role survival (KSR): alive at the start of each day, and at the end of the game."""

    role: Role
    by_day: dict[int, Rate]
    at_end: Rate


def key_role_survival(records: Iterable[GameRecord], roles: Iterable[Role] = KEY_ROLES) -> dict[Role, Survival]:
    """For each key role present: the share of its holders alive when each day begins, and at the end.

    "When day d begins" is after the night's deaths are announced; N is the holders in games that
    reached day d.
    """
    wanted = set(roles)
    by_day: dict[Role, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    end: dict[Role, list[int]] = defaultdict(lambda: [0, 0])
    for rec in records:
        holders = [(s, r) for s, r in enumerate(rec.roles) if r in wanted]
        if not holders:
            continue
        dead: set[int] = set()
        for e in rec.events:
            if isinstance(e, PhaseStarted) and e.phase == "day" and e.day >= 1:
                for s, r in holders:
                    cell = by_day[r][e.day]
                    cell[0] += s in e.alive
                    cell[1] += 1
            elif isinstance(e, Died):
                dead.add(e.target)
        for s, r in holders:
            end[r][0] += s not in dead
            end[r][1] += 1
    return {
        r: Survival(r, {d: Rate(*c) for d, c in sorted(by_day[r].items())}, Rate(*end[r])) for r in Role if r in end
    }


# ----------------------------------------------------------------------------- identification
def _top_guesses(probe: ProbeAnswered) -> dict[int, tuple[Role, float | None]]:
    """The guess that counts for each seat: the most probable (the first when none has one)."""
    best: dict[int, tuple[Role, float | None]] = {}
    for seat, role, prob in probe.guesses:
        old = best.get(seat)
        if old is None or (prob is not None and (old[1] is None or prob > old[1])):
            best[seat] = (role, prob)
    return best


def majority_role(record: GameRecord) -> Role:
    """The most common role of the deck (ties go to the first in `Role` order)."""
    counts = record.rules.roles
    return max((r for r in Role if r in counts), key=lambda r: counts[r])


@dataclass(frozen=True, slots=True)
class ProbeStats:
    """Role-identification probe results of one agent (seed 002, Table 2).

    `accuracy`: correct top guesses over every seat asked about, in probes the agent answered
    (a seat left out counts as wrong). `baseline`: what always answering the deck's most common
    role would score on the same questions. `answered`: probes answered over probes asked.
    """

    agent: str
    accuracy: Rate
    baseline: Rate
    answered: Rate


def probe_accuracy(records: Iterable[GameRecord], *, team: Team | None = None) -> dict[str, ProbeStats]:
    """Accuracy of every agent's probe answers beside the majority-role baseline.

    With `team`, only probes answered by seats of that team count (werewolves know their
    partners, so `team=Team.VILLAGE` is the fairer test).
    """
    acc: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # correct, baseline hits, questions
    asked: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for rec in records:
        major = majority_role(rec)
        for e in rec.events:
            if not isinstance(e, ProbeAnswered):
                continue
            if team is not None and team_of(rec.roles[e.seat]) is not team:
                continue
            agent = rec.agents[e.seat]
            asked[agent][1] += 1
            if e.error is not None:
                continue
            asked[agent][0] += 1
            top = _top_guesses(e)
            cell = acc[agent]
            for t in range(len(rec.roles)):
                if t == e.seat:
                    continue
                guess = top.get(t)
                cell[0] += guess is not None and guess[0] is rec.roles[t]
                cell[1] += rec.roles[t] is major
                cell[2] += 1
    out = {}
    for agent, (answered, n) in asked.items():
        c, b, q = acc.get(agent, [0, 0, 0])
        out[agent] = ProbeStats(agent, Rate(c, q), Rate(b, q), Rate(answered, n))
    return out


@dataclass(frozen=True, slots=True)
class CalibrationBin:
    """Forecasts whose probability fell in [lo, hi): how many, their mean, how often they were right."""

    lo: float
    hi: float
    count: int
    mean_prob: float
    frequency: float


@dataclass(frozen=True, slots=True)
class Calibration:
    """Scores of the probabilities in probe answers: Brier score, log-loss and reliability bins.

    Every `(seat, role, p)` guess with a probability is one binary forecast "seat holds role"
    with probability p; the outcome is 1 when it does. Lower Brier and log-loss are better.
    """

    agent: str
    brier: Mean
    log_loss: Mean
    bins: tuple[CalibrationBin, ...] = field(default=())


def calibration(records: Iterable[GameRecord], n_bins: int = 10, eps: float = 1e-6) -> dict[str, Calibration]:
    """Brier score, log-loss and `n_bins` equal-width calibration bins per agent.

    Over probe guesses that carry a probability; log-loss clips probabilities to [eps, 1 - eps].
    """
    pairs: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for rec in records:
        for e in rec.events:
            if isinstance(e, ProbeAnswered) and e.error is None:
                for seat, role, prob in e.guesses:
                    if prob is not None:
                        pairs[rec.agents[e.seat]].append((prob, int(rec.roles[seat] is role)))
    out = {}
    for agent, ps in pairs.items():
        brier = [(p - y) ** 2 for p, y in ps]
        ll = [-math.log(min(max(p if y else 1 - p, eps), 1 - eps)) for p, y in ps]
        bins = []
        for i in range(n_bins):
            lo, hi = i / n_bins, (i + 1) / n_bins
            inside = [(p, y) for p, y in ps if lo <= p < hi or (i == n_bins - 1 and p == 1.0)]
            if inside:
                k = len(inside)
                bins.append(CalibrationBin(lo, hi, k, sum(p for p, _ in inside) / k, sum(y for _, y in inside) / k))
        out[agent] = Calibration(agent, bootstrap_mean(brier), bootstrap_mean(ll), tuple(bins))
    return out


# ----------------------------------------------------------------------------- faults
@dataclass(frozen=True, slots=True)
class FaultStats:
    """Faults of one agent: per seat and game (mean), and per 100 decisions (with N decisions)."""

    agent: str
    faults: int
    decisions: int
    per_game: Mean

    @property
    def per_100(self) -> tuple[float, float, float]:
        """Faults per 100 decisions with its Wilson 95% interval: (value, lo, hi)."""
        rate = Rate(min(self.faults, self.decisions), self.decisions)
        lo, hi = rate.interval
        return 100 * rate.value, 100 * lo, 100 * hi


def decisions_by_seat(record: GameRecord) -> list[int]:
    """Answers each seat gave in play (retries included, probe answers not)."""
    out = [0] * len(record.agents)
    for d in record.decisions:
        if d.kind != "probe":
            out[d.seat] += 1
    return out


def fault_stats(records: Sequence[GameRecord]) -> dict[str, FaultStats]:
    """Faults (fallbacks after two bad answers) per agent: total, per seat-game, per 100 decisions."""
    per_game: dict[str, list[float]] = defaultdict(list)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for rec in records:
        faults = [0] * len(rec.agents)
        for e in rec.events:
            if e.kind == "fault":
                faults[e.seat] += 1  # type: ignore[attr-defined]
        for seat, n in enumerate(decisions_by_seat(rec)):
            agent = rec.agents[seat]
            per_game[agent].append(faults[seat])
            totals[agent][0] += faults[seat]
            totals[agent][1] += n
    return {a: FaultStats(a, totals[a][0], totals[a][1], bootstrap_mean(per_game[a])) for a in _agents(records)}


# ----------------------------------------------------------------------------- usage and cost
@dataclass(frozen=True, slots=True)
class Price:
    """Price of a model in currency units per million tokens."""

    __pydantic_config__ = ConfigDict(
        extra="forbid", allow_inf_nan=False
    )  # a misspelt key is an error, not a free model

    prompt: Annotated[float, Field(ge=0)] = 0.0
    completion: Annotated[float, Field(ge=0)] = 0.0


Prices = Mapping[str, Price]


def load_prices(path: str | os.PathLike[str]) -> dict[str, Price]:
    """A price table from a TOML, YAML or JSON file: `MODEL = {prompt = P, completion = C}` per million tokens.

    The model is the name usage entries carry (else the agent label after `:`), e.g.
    `[gpt-4o-mini]` / `prompt = 0.15` / `completion = 0.6`.

    Raises:
        ConfigError: no such file, not TOML/YAML/JSON, or an entry that is not two non-negative prices.
    """
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"no price table {str(path)!r}")
    data = read_data(file, "price table")
    if isinstance(data, dict):
        nested = next(
            (k for k, v in data.items() if isinstance(v, dict) and any(isinstance(x, dict) for x in v.values())), None
        )
        if nested is not None:
            raise ConfigError(
                f'{file}: the model name {nested!r} was split at its dots; quote it, as in ["{nested}.…"]'
            )
    try:
        return TypeAdapter(dict[str, Price]).validate_python(data or {})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ConfigError(f"{file}: {where + ': ' if where else ''}{first.get('msg', 'invalid')}") from None


@dataclass(frozen=True, slots=True)
class UsageStats:
    """Model use of one agent, per seat and game (means) and per decision (pooled ratios)."""

    agent: str
    calls: Mean
    tokens: Mean
    latency_s: Mean
    cost: Mean
    decisions: int
    total_calls: int
    total_tokens: int
    total_latency_s: float
    total_cost: float
    days: int = 0
    """Days the agent's seats were alive, summed (Kaggle's turns: a seat's turns are the days it lived)."""

    @property
    def cost_per_day(self) -> float:
        """Cost per day alive (Kaggle's cost per turn, pooled over seats rather than averaged per game)."""
        return self.total_cost / self.days if self.days else math.nan

    @property
    def tokens_per_day(self) -> float:
        """Prompt plus completion tokens per day alive."""
        return self.total_tokens / self.days if self.days else math.nan

    @property
    def tokens_per_decision(self) -> float:
        """Prompt plus completion tokens per decision."""
        return self.total_tokens / self.decisions if self.decisions else math.nan

    @property
    def latency_per_decision(self) -> float:
        """Seconds of model latency per decision."""
        return self.total_latency_s / self.decisions if self.decisions else math.nan

    @property
    def cost_per_decision(self) -> float:
        """Cost per decision."""
        return self.total_cost / self.decisions if self.decisions else math.nan


def seat_usage(record: GameRecord, seat: int) -> dict[str, float] | None:
    """The usage entry of `seat` in `record.usage`, if any."""
    entry = record.usage.get(seat)
    return dict(entry) if entry is not None else None


def _model_of(record: GameRecord, seat: int, entry: Mapping[str, object]) -> str:
    model = entry.get("model")
    if isinstance(model, str) and model:
        return model
    label = record.agents[seat]
    return label.split(":", 1)[1] if ":" in label else label


def days_alive(rec: GameRecord) -> list[int]:
    """Per seat, the days it lived.

    Up to the day it was executed or shot, up to the day before a death announced at dawn (a
    night death, or a hunter's shot before the day's first talk or vote), else every day of the game.
    """
    out = [game_days(rec)] * len(rec.roles)
    dawn = False  # between a day's start and its first talk or vote
    for e in rec.events:
        if isinstance(e, PhaseStarted):
            dawn = e.phase == "day"
        elif isinstance(e, (Talk, VoteCast)):
            dawn = False
        elif isinstance(e, Died):
            out[e.target] = max(0, e.day - 1) if e.cause == "night" or dawn else e.day
    return out


def usage_stats(records: Sequence[GameRecord], prices: Prices | None = None) -> dict[str, UsageStats]:
    """Calls, tokens, latency and cost per game, per decision and per day alive for every agent with usage.

    Reads `record.usage`: `{seat: {"calls", "prompt_tokens", "completion_tokens",
    "latency_s", optional "model"}}`. The price of a seat's calls is looked up in `prices` by the
    entry's `model`, else by the part of the agent label after `:`; unknown models cost 0.
    """
    prices = prices or {}
    cols: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    decisions: dict[str, int] = defaultdict(int)
    days: dict[str, int] = defaultdict(int)
    for rec in records:
        dec = decisions_by_seat(rec)
        lived = days_alive(rec)
        for seat, agent in enumerate(rec.agents):
            entry = seat_usage(rec, seat)
            if entry is None:
                continue
            price = prices.get(_model_of(rec, seat, entry), Price())
            pt = float(entry.get("prompt_tokens", 0) or 0)
            ct = float(entry.get("completion_tokens", 0) or 0)
            c = cols[agent]
            c["calls"].append(float(entry.get("calls", 0) or 0))
            c["tokens"].append(pt + ct)
            c["latency"].append(float(entry.get("latency_s", 0.0) or 0.0))
            c["cost"].append((pt * price.prompt + ct * price.completion) / 1e6)
            decisions[agent] += dec[seat]
            days[agent] += lived[seat]
    return {
        a: UsageStats(
            a,
            bootstrap_mean(c["calls"]),
            bootstrap_mean(c["tokens"]),
            bootstrap_mean(c["latency"]),
            bootstrap_mean(c["cost"]),
            decisions[a],
            int(sum(c["calls"])),
            int(sum(c["tokens"])),
            sum(c["latency"]),
            sum(c["cost"]),
            days[a],
        )
        for a, c in cols.items()
    }
