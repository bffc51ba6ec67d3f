"""Seed 002's human study, from stored games and questionnaires: Table 4 and Figure 6.

Study games are played by one person with AI seats drawn from a pool (`lycan.web.study`); their
records carry `meta["study"]` and `meta["paradigm"]`. After the study's games the person ranks
the interaction paradigms on each dimension (naturalness, engagement, satisfaction, ...).

- Table 4 (`agents_with_people`): per AI agent type, over the seats it held at study tables: the
  win rate, the votes it received per game, and the votes it received from the person per game.
- Figure 6 (`paradigm_scores`): per paradigm and dimension, the mean points it earned, where a
  ranking of n paradigms gives n-1 points to the first, ..., 0 to the last (2/1/0 for three, as in
  the seed), with a bootstrap 95% interval over participants; "overall" averages a participant's
  points over the dimensions first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from lycan.engine.record import GameRecord
from lycan.eval.estimates import Mean, bootstrap_mean
from lycan.eval.metrics import HUMAN, votes_received
from lycan.stats import Rate

OVERALL = "overall"


class QuestionnaireLike(Protocol):
    """What the study tables read from a questionnaire (a `lycan.store.Questionnaire`)."""

    @property
    def study(self) -> str: ...  # noqa: D102

    @property
    def rankings(self) -> Mapping[str, tuple[str, ...]]: ...  # noqa: D102


def is_study_game(record: GameRecord) -> bool:
    """Whether `record` is a game of a study (it carries the study's id)."""
    return bool(record.meta.get("study"))


def points(order: Sequence[str]) -> dict[str, int]:
    """The points of each paradigm in one ranking (most preferred first): n-1, n-2, ..., 0."""
    n = len(order)
    return {paradigm: n - 1 - i for i, paradigm in enumerate(order)}


def paradigm_scores(answers: Sequence[QuestionnaireLike], n_boot: int = 1000) -> dict[str, dict[str, Mean]]:
    """Each paradigm's mean points per dimension (and `OVERALL`), over the participants who ranked it."""
    by: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for answer in answers:
        mine: dict[str, list[int]] = defaultdict(list)
        for dimension, order in answer.rankings.items():
            for paradigm, p in points(order).items():
                by[paradigm][dimension].append(p)
                mine[paradigm].append(p)
        for paradigm, ps in mine.items():
            by[paradigm][OVERALL].append(sum(ps) / len(ps))
    return {
        paradigm: {dim: bootstrap_mean(values, n_boot=n_boot) for dim, values in dims.items()}
        for paradigm, dims in sorted(by.items())
    }


@dataclass(frozen=True, slots=True)
class AgentWithPeople:
    """One AI agent type at study tables (seed 002, Table 4)."""

    agent: str
    win: Rate
    votes: Mean
    human_votes: Mean


def agents_with_people(records: Sequence[GameRecord]) -> list[AgentWithPeople]:
    """Table 4 over the study games among `records`: AI agent types, best win rate first."""
    study = [r for r in records if is_study_game(r)]
    stats = votes_received(study)
    rows = [AgentWithPeople(a, v.win, v.received, v.from_humans) for a, v in stats.items() if a != HUMAN]
    return sorted(rows, key=lambda r: (-r.win.value if r.win.n else 0.0, r.agent))


def study_tables(
    records: Sequence[GameRecord], answers: Sequence[QuestionnaireLike], n_boot: int = 1000
) -> list[tuple[str, list[str], list[list[str]]]]:
    """The two study tables as plain cells (none when `records` hold no study game)."""
    study = [r for r in records if is_study_game(r)]
    if not study:
        return []
    ids = {str(r.meta["study"]) for r in study}
    out = []
    rows = agents_with_people(study)
    out.append(
        (
            f"Study: AI agents with people at the table (seed 002, Table 4; {len(study)} games, {len(ids)} studies)",
            ["agent", "seat-games", "win rate", "votes received / game", "votes from the person / game"],
            [[r.agent, str(r.win.n), _rate(r.win), _mean(r.votes), _mean(r.human_votes)] for r in rows],
        )
    )
    mine = [a for a in answers if a.study in ids]
    if mine:
        scores = paradigm_scores(mine, n_boot=n_boot)
        dims = list(dict.fromkeys(d for a in mine for d in a.rankings))
        out.append(
            (
                f"Study: paradigm scores (seed 002, Figure 6; points 2/1/0 for ranks 1/2/3; {len(mine)} participants)",
                ["paradigm", *dims, OVERALL],
                [[p, *(_mean(s[d]) if d in s else "" for d in (*dims, OVERALL))] for p, s in scores.items()],
            )
        )
    return out


def _rate(r: Rate) -> str:
    if not r.n:
        return "n/a"
    lo, hi = r.interval
    return f"{r.value:.0%} [{lo:.0%}, {hi:.0%}]"


def _mean(m: Mean) -> str:
    if not m.n:
        return "n/a"
    return f"{m.value:.2f} [{m.lo:.2f}, {m.hi:.2f}] N={m.n}"


__all__ = [
    "OVERALL",
    "AgentWithPeople",
    "QuestionnaireLike",
    "agents_with_people",
    "is_study_game",
    "paradigm_scores",
    "points",
    "study_tables",
]
