"""Hidden information has no side channels: seeds, event ids, request ids and random streams.

The central property: two games that differ only in events hidden from a seat give that seat
identical views (every field, ids included) and identical request ids, and give spectators
identical public records.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from lycan.agents import RandomAgent
from lycan.conformance import HiddenVariant, check_hidden_events, check_rules
from lycan.engine import Game, run_sync
from lycan.engine.actions import Action, Request
from lycan.engine.events import EventIds, RoleAssigned, event_to_dict, expected_ids
from lycan.engine.record import GameRecord
from lycan.engine.seeds import SEED_BITS, derive, fresh_seed, stream
from lycan.engine.view import View
from lycan.rules import get_preset, preset_names


def _play(preset: str, seed: int, variant: int) -> tuple[GameRecord, list[HiddenVariant]]:
    rules = get_preset(preset)
    players = [HiddenVariant(s, variant) for s in range(rules.n_players)]
    return run_sync(rules, players, seed), players


@pytest.mark.parametrize("preset", ["aiwolf5", "aiwolf13", "guardian7", "witch6", "guardian5"])
@pytest.mark.parametrize("seed", range(6))
def test_games_differing_only_in_hidden_events_look_the_same(preset: str, seed: int) -> None:
    a, _ = _play(preset, seed, 0)
    b, _ = _play(preset, seed, 1)
    # The variants really differ in hidden events (so the check can fail) ...
    hidden_a = [event_to_dict(e) for e in a.events if e.audience is not None]
    hidden_b = [event_to_dict(e) for e in b.events if e.audience is not None]
    assert hidden_a != hidden_b
    # ... and yet spectators, and every seat that is neither the seer nor a werewolf, see the same.
    assert check_hidden_events(get_preset(preset), seed) == []


def test_the_kit_catches_ids_that_count_hidden_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """Numbering events by their position in the full log (the old engine) fails the property."""

    def next_position(self: EventIds, audience: frozenset[int] | None) -> int:
        self._public += 1  # one counter for every event, whatever its audience
        return self._public - 1

    monkeypatch.setattr(EventIds, "next", next_position)
    monkeypatch.setattr(EventIds, "next_public", lambda self: next_position(self, None))
    problems = [p for seed in range(4) for p in check_hidden_events(get_preset("aiwolf13"), seed)]
    assert any("public record differs" in p for p in problems)
    assert any("can tell apart" in p for p in problems)


def _public_with_and_without_whispers(seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rules = get_preset("aiwolf13")
    quiet = rules.model_copy(update={"options": rules.options.model_copy(update={"whisper": False})})
    out = []
    for r in (rules, quiet):
        record = run_sync(r, [HiddenVariant(s, 1) for s in range(r.n_players)], seed)
        out.append([event_to_dict(e) for e in record.events[:-1] if e.audience is None])
    return out[0], out[1]


def test_hidden_draws_do_not_move_public_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whisper order comes from the team's own stream: whispering or not leaves the public record alone."""
    for seed in range(4):
        with_whispers, without = _public_with_and_without_whispers(seed)
        assert with_whispers == without
    # One stream for both (the old engine) moves the public talk order: this test can fail.
    monkeypatch.setattr(Game, "rng_for", lambda self, channel: self.rng)
    assert any(a != b for a, b in (_public_with_and_without_whispers(seed) for seed in range(4)))


def test_the_variants_change_the_number_of_hidden_events() -> None:
    """In aiwolf13 the whispers change how many hidden events a night holds: the old ids showed it."""
    a, _ = _play("aiwolf13", 3, 0)
    b, _ = _play("aiwolf13", 3, 1)
    assert sum(e.audience is not None for e in a.events) != sum(e.audience is not None for e in b.events)


@pytest.mark.parametrize("preset", preset_names())
def test_every_seat_can_recompute_its_ids_from_its_own_view(preset: str) -> None:
    rules = get_preset(preset)
    for seed in range(20):
        record = run_sync(rules, [RandomAgent(derive(seed, "agent", s)) for s in range(rules.n_players)], seed)
        ids = [e.id for e in record.events]
        assert len(set(ids)) == len(ids)
        assert ids == expected_ids(record.events, rules.n_players)
        for seat in range(rules.n_players):
            view = [e for e in record.events[:-1] if e.visible_to(seat)]
            assert [e.id for e in view] == expected_ids(view, rules.n_players)


def test_event_ids_number_each_audience_apart() -> None:
    ids = EventIds(5)
    public = [ids.next(None) for _ in range(3)]
    seat2 = ids.next(frozenset({2}))
    team = ids.next(frozenset({0, 4}))
    nobody = ids.next(frozenset())
    assert public == [0, 8, 16]
    assert (seat2, team, nobody) == (5, 2, 1)
    assert ids.next(None) == 24  # hidden events in between did not move the public numbering
    with pytest.raises(ValueError, match="second team"):
        ids.next(frozenset({1, 3}))


# ----------------------------------------------------------------------------- seeds
def test_streams_are_independent_and_reproducible() -> None:
    assert stream(7, "deal").random() == stream(7, "deal").random()
    assert stream(7, "deal").random() != stream(7, "names").random()
    assert stream(7, "deal").random() != stream(8, "deal").random()
    assert derive(7, "agent", 1) != derive(7, "agent", 2)
    assert 0 <= derive(2**127 + 5, "agent", 0) < 2**63
    with pytest.raises(ValueError, match="purpose"):
        derive(7)


def test_fresh_seeds_are_128_bits() -> None:
    seeds = {fresh_seed() for _ in range(64)}
    assert len(seeds) == 64
    assert max(seeds).bit_length() > SEED_BITS - 8  # 64 draws all below 2^120: about 2^-384


def test_the_deal_does_not_come_from_random_random_of_the_seed() -> None:
    """The old engine shuffled with random.Random(seed), the stream anything else seeded by the seed shares."""
    rules = get_preset("aiwolf13")
    same = 0
    for seed in range(50):
        deck = rules.deck()
        random.Random(seed).shuffle(deck)
        same += tuple(deck) == Game(rules, seed).roles
    assert same == 0


def test_a_huge_seed_plays_and_replays() -> None:
    rules = get_preset("guardian7")
    seed = fresh_seed()
    record = run_sync(rules, [RandomAgent(derive(seed, "agent", s)) for s in range(7)], seed)
    from lycan.engine.runner import replay

    again = replay(record)
    assert [event_to_dict(e) for e in again.events] == [event_to_dict(e) for e in record.events]
    assert isinstance(record.events[1], RoleAssigned)


# ----------------------------------------------------------------------------- AIWolf illegal targets
class Blunderer(RandomAgent):
    """A random agent that sometimes names a seat that is not a legal target."""

    def decide(self, view: View, request: Request) -> Action:
        if request.targets and self.rng.random() < 0.3:
            return Action.choose(self.rng.randrange(view.n_players))
        return super().decide(view, request)


@pytest.mark.parametrize("preset", ["aiwolf5", "aiwolf13", "guardian7"])
def test_the_kit_accepts_dropped_and_retried_illegal_targets(preset: str) -> None:
    def blunderers(seat: int, seed: int) -> Blunderer:
        return Blunderer(seed)

    report = check_rules(get_preset(preset), games=60, seed=5, agents=blunderers)
    assert report.ok, report.summary()
    assert report.faults > 0
