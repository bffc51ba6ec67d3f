"""Stepping through a record: where each part of a day and night ends, views rebuilt at any point, the meter."""

from __future__ import annotations

import dataclasses
import math

import pytest

from lycan.agents import RandomAgent
from lycan.beliefs.meter import meter
from lycan.engine import View, run_sync
from lycan.engine.actions import Action, Request
from lycan.engine.events import GameOver, PhaseStarted, public, visible
from lycan.engine.seeds import derive
from lycan.engine.stepping import checkpoints, view_at
from lycan.engine.view import PublicView
from lycan.rules import Team, get_preset, team_of


class Recording(RandomAgent):
    """A random player that keeps every view it was asked with, as it was then."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.views: list[View] = []

    def decide(self, view: View, request: Request) -> Action:
        self.views.append(dataclasses.replace(view, events=tuple(view.events)))
        return super().decide(view, request)


@pytest.mark.parametrize("preset", ["aiwolf5", "guardian7", "witch6", "aiwolf13"])
def test_views_rebuilt_from_the_record_are_the_views_the_seats_were_given(preset: str) -> None:
    rules = get_preset(preset)
    players = [Recording(derive(5, "agent", s)) for s in range(rules.n_players)]
    record = run_sync(rules, players, 5)
    position = {id(e): i for i, e in enumerate(record.events)}
    checked = 0
    for seat, player in enumerate(players):
        for given in player.views:
            upto = position[id(given.events[-1])] + 1
            rebuilt = view_at(record.events, rules, record.names, upto, seat)
            assert isinstance(rebuilt, View)
            assert (rebuilt.seat, rebuilt.role, rebuilt.day, rebuilt.phase, rebuilt.alive) == (
                given.seat,
                given.role,
                given.day,
                given.phase,
                given.alive,
            )
            assert list(rebuilt.events) == list(given.events)
            checked += 1
    assert checked > 20
    everyone = view_at(record.events, rules, record.names, len(record.events))
    assert isinstance(everyone, PublicView) and everyone.phase == "end"
    assert list(everyone.events) == public(record.events)
    assert list(view_at(record.events, rules, record.names, len(record.events), 0).events) == visible(record.events, 0)


@pytest.mark.parametrize("preset", ["aiwolf5", "guardian7", "witch6"])
def test_checkpoints_close_each_talk_vote_and_night_in_order(preset: str) -> None:
    rules = get_preset(preset)
    record = run_sync(rules, [RandomAgent(derive(2, "agent", s)) for s in range(rules.n_players)], 2)
    points = checkpoints(record.events)
    assert [p.position for p in points] == sorted({p.position for p in points})
    nights = [e.day for e in record.events if isinstance(e, PhaseStarted) and e.phase == "night"]
    assert [p.day for p in points if p.part == "night"] == nights
    for p in points:
        before, at = record.events[p.position - 1], record.events[p.position]
        assert at.audience is None and before.day <= at.day
        if p.part == "night":  # the night's news is out before it closes, and talk or the end comes next
            assert at.kind in ("talk", "bid", "vote", "game_over", "phase_started")
    assert isinstance(record.events[points[-1].position], GameOver)
    wolves = sum(team_of(r) is Team.WEREWOLF for r in record.roles)
    for p in points:
        readings = meter(view_at(record.events, rules, record.names, p.position))
        assert math.isclose(sum(r.werewolf_side for r in readings), wolves)
        assert all(r.role_probability >= 1 / len(rules.roles) - 1e-9 for r in readings)
