"""Seed 002's study mode: the plan, the AI seats from the pool, the questionnaire, Table 4 and Figure 6."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from lycan.engine.events import VoteCast
from lycan.engine.record import GameRecord
from lycan.eval.study import OVERALL, agents_with_people, paradigm_scores, points, study_tables
from lycan.store import GameStore, Questionnaire, StoreError
from lycan.web.study import Answers, StudyError, StudyRequest, new_study, plan_of

POOL = ["heuristic", "heuristic-beliefs", "deepwolf", "random"]


def test_each_paradigm_is_played_in_a_run_in_an_order_drawn_for_the_study() -> None:
    request = StudyRequest(games_per_paradigm=2)
    plans = {tuple(plan_of(request, seed)) for seed in range(40)}
    for plan in plans:
        assert len(plan) == 6
        assert all(plan[i] == plan[i + 1] for i in (0, 2, 4))  # pairs
        assert sorted(set(plan)) == ["text-text", "video-text", "video-video"]
    assert len(plans) == 6  # every order turns up
    assert plan_of(request, 7) == plan_of(request, 7)
    with pytest.raises(StudyError, match="at least two"):
        plan_of(StudyRequest(paradigms=["text-text", "text-text"]), 1)


def test_ai_seats_come_from_the_pool_without_repeats_and_from_the_studys_own_stream() -> None:
    study = new_study(StudyRequest(seed=5, pool=POOL), [*POOL, "llm"])
    games = [study.ai_kinds(g, 4) for g in range(6)]
    assert all(sorted(kinds) == sorted(POOL) for kinds in games)  # four seats, four types: one each
    assert len({tuple(k) for k in games}) > 1  # seated differently from game to game
    assert games == [new_study(StudyRequest(seed=5, pool=POOL), POOL).ai_kinds(g, 4) for g in range(6)]
    small = new_study(StudyRequest(seed=5, pool=["heuristic", "random"]), POOL)
    assert sorted(small.ai_kinds(0, 4)) == ["heuristic", "heuristic", "random", "random"]
    with pytest.raises(StudyError, match="unknown AI type 'oracle'"):
        new_study(StudyRequest(pool=["oracle"]), POOL)


def test_answers_must_rank_every_paradigm_once_on_every_dimension() -> None:
    study = new_study(StudyRequest(seed=1, paradigms=["text-text", "video-text"], games_per_paradigm=1), POOL)
    good = {d: ["video-text", "text-text"] for d in ("naturalness", "engagement", "satisfaction")}
    assert study.check(Answers(rankings=good))["engagement"] == ("video-text", "text-text")
    with pytest.raises(StudyError, match="missing satisfaction"):
        study.check(Answers(rankings={k: v for k, v in good.items() if k != "satisfaction"}))
    with pytest.raises(StudyError, match="once"):
        study.check(Answers(rankings={**good, "engagement": ["text-text", "text-text"]}))
    with pytest.raises(StudyError, match="once"):
        study.check(Answers(rankings={**good, "engagement": ["video-video", "text-text"]}))


def test_points_and_paradigm_scores_match_a_hand_count() -> None:
    assert points(["video-video", "video-text", "text-text"]) == {"video-video": 2, "video-text": 1, "text-text": 0}
    answers = [
        Questionnaire("s1", "A", {"naturalness": ("video-video", "video-text", "text-text"),
                                  "engagement": ("video-text", "video-video", "text-text")}),
        Questionnaire("s2", "B", {"naturalness": ("video-video", "text-text", "video-text"),
                                  "engagement": ("video-video", "video-text", "text-text")}),
        Questionnaire("s3", "C", {"naturalness": ("text-text", "video-video", "video-text"),
                                  "engagement": ("video-video", "text-text", "video-text")}),
    ]  # fmt: skip
    scores = paradigm_scores(answers, n_boot=200)
    # video-video: naturalness 2, 2, 1 -> 5/3; engagement 1, 2, 2 -> 5/3; overall (1.5, 2, 1.5) -> 5/3
    assert math.isclose(scores["video-video"]["naturalness"].value, 5 / 3)
    assert math.isclose(scores["video-video"]["engagement"].value, 5 / 3)
    assert math.isclose(scores["video-video"][OVERALL].value, 5 / 3)
    # text-text: naturalness 0, 1, 2 -> 1; engagement 0, 0, 1 -> 1/3
    assert math.isclose(scores["text-text"]["naturalness"].value, 1.0)
    assert math.isclose(scores["text-text"]["engagement"].value, 1 / 3)
    assert scores["text-text"]["naturalness"].n == 3
    lo, hi = scores["text-text"]["naturalness"].interval
    assert 0.0 <= lo < 1.0 < hi <= 2.0


def hand_record(game_id: str, votes: list[tuple[int, int]], winner: str, study: str | None = "s1") -> GameRecord:
    """A 5-seat record (the person in seat 0) with first-round votes and a winner; roles from guardian5."""
    from lycan.rules import get_preset
    from lycan.rules.roles import Role

    rules = get_preset("guardian5")
    roles = (Role.VILLAGER, Role.WEREWOLF, Role.SEER, Role.GUARDIAN, Role.VILLAGER)
    events = tuple(VoteCast(id=i, day=1, phase="day", actor=a, target=t) for i, (a, t) in enumerate(votes))
    return GameRecord(
        game_id=game_id,
        rules=rules,
        seed=0,
        names=("Ann", "B", "C", "D", "E"),
        roles=roles,
        agents=("human", "camwolf", "react", "camwolf", "react"),
        events=events,
        decisions=(),
        winner=winner,
        meta={"study": study} if study else {},
    )


def test_table_4_counts_wins_and_votes_received_by_hand() -> None:
    # game 1: the person votes C (react), B and D vote C, C votes B, E votes B; the village wins
    g1 = hand_record("g1", [(0, 2), (1, 2), (3, 2), (2, 1), (4, 1)], "village")
    # game 2: the person votes B (camwolf wolf), the others vote E; the werewolves win
    g2 = hand_record("g2", [(0, 1), (1, 4), (2, 4), (3, 4)], "werewolf")
    other = hand_record("g3", [(0, 3)], "village", study=None)  # not a study game: left out
    rows = {r.agent: r for r in agents_with_people([g1, g2, other])}
    assert set(rows) == {"camwolf", "react"}
    # camwolf seats: B (wolf: lost g1, won g2), D (guardian: won g1, lost g2) -> 2 of 4
    assert (rows["camwolf"].win.wins, rows["camwolf"].win.n) == (2, 4)
    # votes received per seat-game: B 2 and 1, D 0 and 0 -> 0.75; from the person: B's 1 in g2 -> 0.25
    assert math.isclose(rows["camwolf"].votes.value, 0.75)
    assert math.isclose(rows["camwolf"].human_votes.value, 0.25)
    # react seats: C 3 (1 from the person) and 0, E 0 and 3 -> 6/4; from the person 1/4
    assert math.isclose(rows["react"].votes.value, 1.5)
    assert math.isclose(rows["react"].human_votes.value, 0.25)
    answers = [Questionnaire("s1", "Ann", {"naturalness": ("video-video", "text-text")})]
    titles = [t for t, _, _ in study_tables([g1, g2, other], answers)]
    assert any("Table 4" in t for t in titles) and any("Figure 6" in t for t in titles)
    assert study_tables([other], answers) == []


def test_the_store_keeps_one_questionnaire_per_study(tmp_path: Path) -> None:
    answers = Questionnaire("s1", "Ann", {"naturalness": ("video-video", "text-text")}, ("g1", "g2"), 1.0)
    with GameStore(tmp_path / "s.db") as store:
        assert store.questionnaires() == []
        store.save_questionnaire(answers)
        assert store.questionnaires() == [answers]
        assert store.questionnaires(["other"]) == []
        with pytest.raises(StoreError, match="answered its questionnaire already"):
            store.save_questionnaire(answers)
        with pytest.raises(StoreError, match="each paradigm once"):
            store.save_questionnaire(Questionnaire("s2", "Bo", {"naturalness": ("text-text", "text-text")}))
