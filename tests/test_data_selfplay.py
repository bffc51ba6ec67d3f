"""Self-play with an exploring seat: departures only on targeted moves, legal, at about the rate, reproducible."""

from __future__ import annotations

import pytest

from lycan.agents.heuristic import HeuristicAgent
from lycan.engine.events import Fault, Talk
from lycan.engine.seeds import derive
from lycan.train.selfplay import Exploring, self_play


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


def test_talk_exploration_says_the_shipped_candidates_and_never_repeats() -> None:
    from lycan.engine.events import Talk
    from lycan.value import default_candidates

    records = list(self_play("aiwolf5", 30, 21, explore=0.5, explore_talk=True, talk_candidates=default_candidates()))
    assert not [e for r in records for e in r.events if isinstance(e, Fault)]
    for record in records:
        seed = int(record.game_id.rsplit("-", 1)[1])
        explorer = derive(seed, "explorer") % 5
        said = [e.text for e in record.events if isinstance(e, Talk) and e.actor == explorer and e.channel == "talk"]
        spoken = [t for t in said if t not in ("Over", "Skip")]
        assert len(spoken) == len(set(spoken))


def test_a_role_without_candidates_talks_as_its_base() -> None:
    from lycan.data.candidates import Candidates
    from lycan.engine import run_sync
    from lycan.rules import get_preset

    rules = get_preset("aiwolf5")
    only_seer = Candidates({"seer": ["I am the seer."]})
    for seed in range(4):
        plain = run_sync(rules, [HeuristicAgent(s) for s in range(5)], seed)
        explorer = Exploring(HeuristicAgent(0), 1.0, seed=seed, talk=only_seer)
        played = run_sync(rules, [explorer, *(HeuristicAgent(s) for s in range(1, 5))], seed)  # type: ignore[list-item]
        if played.roles[0].value == "seer":
            continue
        first_plain = [e.text for e in plain.events if isinstance(e, Talk) and e.actor == 0][:1]
        first_played = [e.text for e in played.events if isinstance(e, Talk) and e.actor == 0][:1]
        assert first_plain == first_played  # the heuristic's own first words, not a forced Over


def test_at_rate_one_every_public_talk_is_a_candidate_of_that_turn() -> None:
    from lycan.data.candidates import Candidates
    from lycan.engine import Action, Request, View, run_sync
    from lycan.engine.events import Talk
    from lycan.rules import get_preset
    from lycan.value import default_candidates

    class Offered(Candidates):
        """The shipped candidates, remembering what each turn offered."""

        offers: list[set[str]]

        def for_request(self, view: View, request: Request) -> list[Action]:
            out = super().for_request(view, request)
            self.offers.append({a.text if a.kind == "speak" else a.kind.capitalize() for a in out})
            return out

    rules = get_preset("aiwolf5")
    for seed in range(5):
        cands = Offered(default_candidates().by_role)
        cands.offers = []
        explorer = Exploring(HeuristicAgent(seed), 1.0, seed=seed, talk=cands)
        record = run_sync(rules, [explorer, *(HeuristicAgent(s) for s in range(1, 5))], seed)  # type: ignore[list-item]
        said = [e.text for e in record.events if isinstance(e, Talk) and e.actor == 0 and e.channel == "talk"]
        assert said and len(said) == len(cands.offers)
        assert all(text in options for text, options in zip(said, cands.offers, strict=True))
