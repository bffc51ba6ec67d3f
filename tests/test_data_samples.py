"""Decision points: each seat's exact view at each accepted answer, and nothing it could not see."""

from __future__ import annotations

from collections import Counter

import pytest

from _data_games import PRESETS, play
from lycan.data import decision_points
from lycan.engine import Action, Request, View, run_sync
from lycan.engine.events import Talk, VoteCast
from lycan.rules import get_preset, team_of


@pytest.mark.parametrize("preset", PRESETS)
def test_every_sample_is_the_seats_own_live_view_and_shows_only_what_it_could_see(preset: str) -> None:
    for seed in range(20):
        record, seen = play(preset, seed, probe_days=(1,) if seed % 4 == 0 else ())
        points = list(decision_points(record))
        assert points
        for p in points:
            assert p.seat == p.request.seat == p.view.seat
            assert all(e.visible_to(p.seat) for e in p.view.events)
            assert p.view == seen[p.request.id]  # the view the engine gave at that request
            assert p.role is record.roles[p.seat]
            assert p.won == (record.winner == team_of(p.role).value)
            assert p.request.kind != "probe"
            assert p.request.check(p.action) is None
        if not record.faults:
            # every accepted utterance and vote is one sample
            talks = Counter(e.actor for e in record.events if isinstance(e, Talk))
            votes = Counter(e.actor for e in record.events if isinstance(e, VoteCast))
            assert talks == Counter(p.seat for p in points if p.request.is_talk)
            assert votes == Counter(p.seat for p in points if p.request.kind == "vote")


class Stammerer:
    """Says nothing legal at first (an empty utterance), then speaks on the retry."""

    label = "stammerer"

    def decide(self, view: View, request: Request) -> Action:
        if request.is_talk:
            return Action.speak("   ") if request.attempt == 0 else Action.speak(f"I am {view.name}.")
        return Action.choose(request.targets[0]) if request.targets else Action("pass")

    async def act(self, view: View, request: Request) -> Action:
        return self.decide(view, request)


def test_refused_answers_give_no_sample_and_the_accepted_retry_does() -> None:
    rules = get_preset("guardian5")
    record = run_sync(rules, [Stammerer() for _ in range(rules.n_players)], 7)
    points = [p for p in decision_points(record) if p.request.is_talk]
    assert points
    assert all(p.request.attempt == 1 and p.request.error for p in points)
    assert all(p.action.text.startswith("I am ") for p in points)
    refused = [d for d in record.decisions if isinstance(d.answer, Action) and d.answer.text == "   "]
    assert len(refused) == len(points)


def test_probe_requests_give_no_sample_unless_asked() -> None:
    record, _ = play("aiwolf5", 3, probe_days=(0, 1))
    assert any(d.kind == "probe" for d in record.decisions)
    assert all(p.request.kind != "probe" for p in decision_points(record))
    assert any(p.request.kind == "probe" for p in decision_points(record, probes=True))
