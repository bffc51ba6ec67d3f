"""Speech metrics from records: copies, word-pair variety, reasons checked against the record, answers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lycan.agents import make_agent
from lycan.agents.phrasing import names_in
from lycan.engine.events import Divined, Talk
from lycan.engine.record import GameRecord
from lycan.engine.runner import run_sync
from lycan.eval.report import tables
from lycan.eval.speech import SpeechStats, game_speech, speech
from lycan.rules import get_preset
from lycan.rules.roles import Role


def _game(seed: int, preset: str = "guardian7") -> GameRecord:
    rules = get_preset(preset)
    return run_sync(rules, [make_agent("heuristic-beliefs", seed * 10 + s) for s in range(rules.n_players)], seed)


def _with_talk(record: GameRecord, after: int, actor: int, text: str) -> GameRecord:
    """`record` with one public line by `actor` added after event index `after`."""
    events = list(record.events)
    at = events[after]
    line = Talk(id=10_000, day=at.day, phase="day", actor=actor, text=text)
    return replace(record, events=(*events[: after + 1], line, *events[after + 1 :]))


def test_template_talk_is_copied_and_repetitive() -> None:
    records = [_game(seed) for seed in range(4)]
    stats = speech(records)["heuristic-beliefs"]
    assert stats.games == 4 and stats.utterances > 40
    assert stats.copied_share > 0.2  # the same template sentences from several seats
    share, counted = stats.distinct_pairs(1_000)
    assert 0 < share < 0.3 and counted <= 1_000
    assert stats.accusations > 0 and 0 < stats.cited <= stats.accusations - stats.false_citations
    assert stats.false_citations == 0
    assert 0 < stats.answer_share < 1


def test_a_reason_is_checked_against_what_the_speaker_saw() -> None:
    for seed in range(20):
        record = _game(seed)
        found = next(
            ((i, e) for i, e in enumerate(record.events) if isinstance(e, Divined) and e.result.value == "human"), None
        )
        if found is None:
            continue
        i, divined = found
        seer = divined.actor
        other = next(s for s in range(len(record.names)) if s not in (seer, divined.target))
        assert record.roles[other] is not Role.SEER
        who = record.names[divined.target]
        line = f"I suspect {who} because my divination showed they are human."
        as_seer = game_speech(_with_talk(record, i, seer, line))["heuristic-beliefs"]
        as_other = game_speech(_with_talk(record, i, other, line))["heuristic-beliefs"]
        base = game_speech(record)["heuristic-beliefs"]
        assert as_seer.cited == base.cited + 1 and as_seer.false_citations == base.false_citations
        assert as_other.false_citations == base.false_citations + 1 and as_other.cited == base.cited
        return
    pytest.fail("no game with a human divination")


def test_copies_and_answers_are_counted_per_line() -> None:
    for seed in range(20):
        record = _game(seed)
        talk = [(i, e) for i, e in enumerate(record.events) if isinstance(e, Talk) and e.channel == "talk"]
        texts = [e.text for _, e in talk]
        found = next(
            (
                (i, e, q)
                for i, e in talk
                if e.day >= 1 and texts.count(e.text) == 1
                for q in names_in(e.text, record.names)
                if q != e.actor
            ),
            None,
        )
        if found is None:
            continue
        i, line, named = found
        base = game_speech(record)["heuristic-beliefs"]
        # another seat repeats the line word for word: both lines are now copies
        other = next(s for s in range(len(record.names)) if s not in (line.actor, named))
        copied = game_speech(_with_talk(record, i, other, line.text))["heuristic-beliefs"]
        assert copied.copied == base.copied + 2
        # the seat it named answers the speaker by name: one more turn, one more answer
        reply = f"{record.names[line.actor]} you are wrong about me."
        answered = game_speech(_with_talk(record, i, named, reply))["heuristic-beliefs"]
        assert (answered.turns, answered.answers, answered.replies) == (
            base.turns + 1,
            base.answers + 1,
            base.replies + 1,
        )
        # a line that names nobody answers nothing
        silent = game_speech(_with_talk(record, i, named, "Hard to say."))["heuristic-beliefs"]
        assert (silent.turns, silent.answers, silent.replies) == (base.turns + 1, base.answers, base.replies)
        return
    pytest.fail("no line naming another seat")


def test_word_pairs_are_counted_over_the_budget_only() -> None:
    stats = SpeechStats("x", said=[["a", "b", "c"], ["a", "b", "d"], ["e", "f"]])
    assert stats.distinct_pairs(100) == (4 / 5, 8)
    assert stats.distinct_pairs(3) == (1.0, 3)
    assert stats.distinct_pairs(5) == (2 / 3, 5)


def test_the_report_has_a_speech_section_for_any_run() -> None:
    titles = [title for title, _, _ in tables([_game(1), _game(2, "aiwolf5")])]
    assert any(t.startswith("Speech") for t in titles)
