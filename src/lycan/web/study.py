"""Seed 002's human study as a table mode: one person, AI seats from a pool, each paradigm in turn.

A study is one participant's series of games (guardian5 by default): each game seats the person
with AI players whose types are drawn from a chosen pool, under one of the interaction paradigms
(`lycan.web.table.PARADIGMS`). Each paradigm is played `games_per_paradigm` times in a row (a pair
by default, as in the seed: "each participant plays 2 games under each of the 3 paradigms"), the
paradigms in an order drawn for the study; after the last game the page asks the person to rank
the paradigms on each dimension of the study (naturalness, engagement and satisfaction by
default). The games are stored under the run `study` with `meta["study"]`, `meta["study_game"]`
and `meta["paradigm"]`; the answers go in the store's `questionnaires` table; `lycan report study`
draws seed 002's Table 4 and Figure 6 from them (`lycan.eval.study`).

The AI seats' types and the paradigms' order come from streams of the study's own seed, never
from a game's deal. A study lives in the server's memory like a table; its link holds a secret
token like a seat's.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from lycan.engine.seeds import fresh_seed, stream
from lycan.store import GameStore, Questionnaire
from lycan.web.lobby import MAX_SEED, Plain, TableError, TableRequest
from lycan.web.table import PARADIGMS, Paradigm, WebTable

DIMENSIONS = ("naturalness", "engagement", "satisfaction")
"""What the questionnaire asks the person to rank the paradigms on, by default (seed 002, Figure 6)."""
STUDY_RUN = "study"
"""The run study games are stored under."""
MAX_STUDIES = 200


def _all_paradigms() -> list[Paradigm]:
    return ["text-text", "video-text", "video-video"]


class StudyError(ValueError):
    """A study request or answer that cannot be taken; the message says why."""


Dimension = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z -]*$")]


class StudyRequest(BaseModel):
    """What the organiser of a study asks for."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    name: Plain = Field("Participant", max_length=24, description="the participant's name at the table")
    preset: Plain = Field("guardian5", max_length=40, description="the rules of every game")
    pool: list[Annotated[str, Field(max_length=20)]] = Field(
        default_factory=list,
        max_length=10,
        description="agent types the AI seats are drawn from (empty: every type this server offers)",
    )
    paradigms: list[Paradigm] = Field(default_factory=lambda: _all_paradigms(), min_length=2, max_length=3)
    games_per_paradigm: int = Field(2, ge=1, le=5)
    dimensions: list[Dimension] = Field(default_factory=lambda: list(DIMENSIONS), min_length=1, max_length=8)
    timeout: float | None = Field(None, gt=0, le=3600, description="seconds per decision, for every seat")
    ai_delay: float | None = Field(None, ge=0, le=10)
    night_min: float | None = Field(None, ge=0, le=120)
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="the study's own seed (AI types, paradigm order)")


class Answers(BaseModel):
    """The person's questionnaire: per dimension, the paradigms from most to least preferred."""

    model_config = ConfigDict(extra="forbid")

    rankings: dict[Dimension, list[Paradigm]] = Field(max_length=8)


@dataclass
class Study:
    """One participant's study: its plan, the tables made for it so far, and whether it answered."""

    id: str
    token: str
    request: StudyRequest
    seed: int
    pool: list[str]
    plan: list[Paradigm]
    tables: list[WebTable] = field(default_factory=list)
    answered: bool = False
    created: float = field(default_factory=time.monotonic)

    @property
    def link(self) -> str:
        """The study page's address (it holds the secret token)."""
        return f"/studies/{self.id}/{self.token}"

    def ai_kinds(self, game: int, n_ai: int) -> list[str]:
        """The AI seats' types in game `game`: drawn from the pool without repeats while it lasts."""
        rng = stream(self.seed, "study-seats", game)
        kinds: list[str] = []
        while len(kinds) < n_ai:
            batch = list(self.pool)
            rng.shuffle(batch)
            kinds += batch
        return kinds[:n_ai]

    @property
    def finished_games(self) -> int:
        """How many of the study's games have ended."""
        return sum(1 for t in self.tables if t.finished)

    @property
    def due(self) -> bool:
        """Whether every game has been played and the questionnaire waits."""
        return len(self.tables) == len(self.plan) and self.finished_games == len(self.plan) and not self.answered

    def next_request(self) -> TableRequest:
        """The table request of the next game.

        Raises:
            StudyError: the current game is still on, or every game has been played.
        """
        if len(self.tables) == len(self.plan):
            raise StudyError("every game of this study has been played")
        if self.tables and not self.tables[-1].finished:
            raise StudyError("finish the current game first")
        r = self.request
        return TableRequest(
            preset=r.preset,
            humans=1,
            names=[r.name],
            ai=self.pool[0],
            timeout=r.timeout,
            ai_delay=r.ai_delay,
            night_min=r.night_min,
            paradigm=self.plan[len(self.tables)],
        )

    def meta(self) -> dict[str, Any]:
        """What the next game records about the study."""
        return {"study": self.id, "study_game": len(self.tables)}

    def state(self) -> dict[str, Any]:
        """The study as its page shows it (only the person's own seat links)."""
        games = []
        for i, paradigm in enumerate(self.plan):
            entry: dict[str, Any] = {"game": i, "paradigm": paradigm, "status": "to play"}
            if i < len(self.tables):
                table = self.tables[i]
                token = next(iter(table.tokens.values()))
                entry["link"] = f"/tables/{table.id}/seats/{token}"
                entry["status"] = "finished" if table.finished else "playing"
                if table.record is not None:
                    entry["winner"] = table.record.winner
            games.append(entry)
        return {
            "study": self.id,
            "name": self.request.name,
            "preset": self.request.preset,
            "games": games,
            "next": len(self.tables) if len(self.tables) < len(self.plan) else None,
            "questionnaire": {
                "due": self.due,
                "answered": self.answered,
                "paradigms": sorted(set(self.plan), key=PARADIGMS.index),
                "dimensions": list(self.request.dimensions),
            },
        }

    def check(self, answers: Answers) -> dict[str, tuple[str, ...]]:
        """The rankings, checked: every dimension of the study, each ranking every paradigm once.

        Raises:
            StudyError: a dimension missing or unknown, or a ranking that is not the study's paradigms.
        """
        wanted = set(self.request.dimensions)
        got = set(answers.rankings)
        if got != wanted:
            missing, extra = sorted(wanted - got), sorted(got - wanted)
            raise StudyError(
                "rank the paradigms on each of: " + ", ".join(self.request.dimensions)
                + (f" (missing {', '.join(missing)})" if missing else "")
                + (f" (not asked: {', '.join(extra)})" if extra else "")
            )  # fmt: skip
        paradigms = set(self.plan)
        for dimension, order in answers.rankings.items():
            if len(order) != len(paradigms) or set(order) != paradigms:
                raise StudyError(f"the ranking for {dimension} must name each of {', '.join(sorted(paradigms))} once")
        return {d: tuple(answers.rankings[d]) for d in self.request.dimensions}


def plan_of(request: StudyRequest, seed: int) -> list[Paradigm]:
    """The paradigm of each game: the paradigms in an order drawn for the study, each played in a run."""
    order = list(dict.fromkeys(request.paradigms))
    if len(order) < 2:
        raise StudyError("a study compares at least two different paradigms")
    stream(seed, "study-order").shuffle(order)
    return [p for p in order for _ in range(request.games_per_paradigm)]


def new_study(request: StudyRequest, available: list[str]) -> Study:
    """A study as `request` asks, with AI types drawn from its pool (default: `available`).

    Raises:
        StudyError: an agent type this server does not offer, or too few paradigms.
    """
    pool = [k.strip().lower() for k in request.pool] or list(available)
    unknown = [k for k in pool if k not in available]
    if unknown:
        raise StudyError(f"unknown AI type {unknown[0]!r}; choose from {', '.join(available)}")
    seed = request.seed if request.seed is not None else fresh_seed()
    return Study(secrets.token_urlsafe(9), secrets.token_urlsafe(24), request, seed, pool, plan_of(request, seed))


def save_answers(study: Study, answers: Answers, store_path: str | Path | None) -> Questionnaire:
    """Check and keep the person's answers (in the store, when there is one).

    Raises:
        StudyError: the questionnaire is not due (games left, or answered already) or the answers are bad.
    """
    if study.answered:
        raise StudyError("this study's questionnaire has been answered already")
    if not study.due:
        raise StudyError("play every game of the study first")
    rankings = study.check(answers)
    games = tuple(t.game_id for t in study.tables)
    kept = Questionnaire(study.id, study.request.name, rankings, games, time.time())
    if store_path is not None:
        with GameStore(store_path) as store:
            store.save_questionnaire(kept)
    study.answered = True
    return kept


class Studies:
    """The studies of one app, by id."""

    def __init__(self) -> None:
        self.by_id: dict[str, Study] = {}

    def add(self, study: Study) -> None:
        """Keep `study`, forgetting the oldest answered ones to make room.

        Raises:
            TableError: the server holds `MAX_STUDIES` unanswered studies.
        """
        if len(self.by_id) >= MAX_STUDIES:
            for old in [s for s, st in self.by_id.items() if st.answered][: len(self.by_id) - MAX_STUDIES + 1]:
                del self.by_id[old]
        if len(self.by_id) >= MAX_STUDIES:
            raise TableError(f"this server already runs {MAX_STUDIES} studies")
        self.by_id[study.id] = study

    def get(self, study_id: str, token: str) -> Study | None:
        """The study `study_id` if `token` is its own, else None."""
        study = self.by_id.get(study_id)
        if study is None or not secrets.compare_digest(study.token, token):
            return None
        return study


__all__ = [
    "DIMENSIONS",
    "STUDY_RUN",
    "Answers",
    "Studies",
    "Study",
    "StudyError",
    "StudyRequest",
    "new_study",
    "plan_of",
    "save_answers",
]
