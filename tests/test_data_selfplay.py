"""Self-play with an exploring seat: departures only on targeted moves, legal, at about the rate, reproducible."""

from __future__ import annotations

import pytest

from lycan.agents.heuristic import HeuristicAgent
from lycan.data.selfplay import Exploring, self_play
from lycan.engine.events import Fault, Talk
from lycan.engine.seeds import derive


def test_one_seat_per_game_departs_on_votes_and_night_moves_only() -> None:
    plain = list(self_play("aiwolf5", 30, 11))
    explored = list(self_play("aiwolf5", 30, 11, explore=0.5))
    assert [r.game_id for r in plain] == [r.game_id for r in explored]
    again = list(self_play("aiwolf5", 30, 11, explore=0.5))
    assert [r.events for r in explored] == [r.events for r in again]  # deterministic in the seeds
    departed = 0
    for before, after in zip(plain, explored, strict=True):
        seed = int(before.game_id.rsplit("-", 1)[1])
        explorer = derive(seed, "explorer") % 5
        assert not [e for e in after.events if isinstance(e, Fault)]  # every departure is legal
        diffs = [(x, y) for x, y in zip(before.decisions, after.decisions, strict=False) if x.answer != y.answer]
        if not diffs:
            continue
        # the first difference between the two games is a targeted move of the explorer, never talk
        first = diffs[0][1]
        assert first.seat == explorer and first.kind in {"vote", "divine", "attack", "guard"}
        departed += 1
    assert departed >= 10
    talks = [e for r in explored for e in r.events if isinstance(e, Talk)]
    assert talks


def test_the_departure_rate_and_its_bounds() -> None:
    from lycan.engine import Game, run_sync
    from lycan.rules import get_preset

    rules = get_preset("aiwolf5")
    agent = Exploring(HeuristicAgent(0), 0.25, seed=3)
    targeted = 0
    for seed in range(40):
        players = [HeuristicAgent(s) for s in range(5)]
        players[0] = agent  # type: ignore[call-overload]
        record = run_sync(rules, players, seed)  # type: ignore[arg-type]
        targeted += sum(1 for d in record.decisions if d.seat == 0 and d.kind in {"vote", "divine", "attack"})
        assert Game(rules, seed).roles == record.roles
    assert 0.15 < agent.departures / targeted < 0.35
    for rate in (-0.1, 1.5):
        with pytest.raises(ValueError, match="probability"):
            Exploring(HeuristicAgent(0), rate, seed=0)
        with pytest.raises(ValueError, match="probability"):
            next(self_play("aiwolf5", 1, 0, explore=rate))
