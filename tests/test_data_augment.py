"""Seat-label permutation: every seat reference moves together, text included, and undoes exactly."""

from __future__ import annotations

import random
import re

import pytest

from _data_games import PRESETS, play
from lycan.data import (
    decision_points,
    inverse,
    permute_action,
    permute_event,
    permute_request,
    permute_text,
    permute_view,
    seat_permutations,
)
from lycan.data.augment import identity, unclassified_fields
from lycan.data.build import _Relabeller
from lycan.engine import Action
from lycan.engine.events import Talk, VoteCast
from lycan.engine.game import default_names


def test_every_event_field_is_classified_for_relabelling() -> None:
    assert unclassified_fields() == []


def test_five_players_give_the_24_relabellings_of_the_others_identity_first() -> None:
    for seat in range(5):
        perms = seat_permutations(5, seat)
        assert len(perms) == len(set(perms)) == 24
        assert perms[0] == identity(5)
        assert all(p[seat] == seat and sorted(p) == list(range(5)) for p in perms)
    assert len(seat_permutations(5, 0, 100)) == 24


def test_larger_tables_draw_k_distinct_relabellings_from_the_seed() -> None:
    perms = seat_permutations(13, 4, 10, random.Random(1))
    assert len(perms) == len(set(perms)) == 10
    assert perms[0] == identity(13)
    assert all(p[4] == 4 and sorted(p) == list(range(13)) for p in perms)
    assert perms == seat_permutations(13, 4, 10, random.Random(1))
    assert perms != seat_permutations(13, 4, 10, random.Random(2))
    with pytest.raises(ValueError):
        seat_permutations(13, 4, 10)


def test_names_in_text_are_replaced_in_one_pass_and_only_as_whole_names() -> None:
    names = default_names(13)
    swap = list(range(13))
    swap[0], swap[1], swap[12] = 1, 12, 0  # Player 1 -> Player 2 -> Player 13 -> Player 1
    text = "Player 1 and Player 13 accuse Player 2; Player 10 is quiet. @Player 1: Player 12."
    out = permute_text(text, names, tuple(swap))
    assert out == "Player 2 and Player 1 accuse Player 13; Player 10 is quiet. @Player 2: Player 12."
    assert permute_text(out, names, inverse(tuple(swap))) == text


def _mentions(text: str, names: tuple[str, ...]) -> list[int]:
    pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return [names.index(m) for m in re.findall(rf"(?<!\w)(?:{pattern})(?!\w)", text)]


def test_a_talk_and_its_vote_stay_consistent_after_relabelling() -> None:
    names = default_names(5)
    talk = Talk(id=0, day=1, phase="day", actor=0, text="I will vote for Player 3.")
    vote = VoteCast(id=5, day=1, phase="day", actor=0, target=2)
    perm = (0, 4, 1, 2, 3)
    moved_talk = permute_event(talk, perm, names)
    moved_vote = permute_event(vote, perm, names)
    assert isinstance(moved_talk, Talk) and isinstance(moved_vote, VoteCast)
    assert moved_talk.text == f"I will vote for {names[moved_vote.target]}."
    assert moved_vote.target == 1 and moved_talk.id == talk.id
    action = permute_action(Action.speak("Player 3 lies; Player 1 agrees"), perm, names)
    assert action.text == "Player 2 lies; Player 1 agrees"


@pytest.mark.parametrize("preset", PRESETS)
def test_relabelling_then_its_inverse_gives_back_every_event_view_request_and_action(preset: str) -> None:
    rng = random.Random(preset)
    for seed in range(6):
        record, _ = play(preset, seed)
        n = record.rules.n_players
        perm = list(range(n))
        rng.shuffle(perm)
        p, inv = tuple(perm), inverse(tuple(perm))
        for e in record.events:  # the full log: every event type the game made
            assert permute_event(permute_event(e, p, record.names), inv, record.names) == e
            moved = permute_event(e, p, record.names)
            if isinstance(e, Talk):
                assert isinstance(moved, Talk)
                assert _mentions(moved.text, record.names) == [p[s] for s in _mentions(e.text, record.names)]
        for point in decision_points(record):
            own = seat_permutations(n, point.seat, 3, rng)[-1]
            back = inverse(own)
            view = permute_view(point.view, own)
            assert view.seat == point.seat
            assert all(e.visible_to(view.seat) for e in view.events)  # the own seat keeps its label
            assert [a for s, a in enumerate(view.alive)] == [point.view.alive[back[s]] for s in range(n)]
            assert permute_view(view, back) == point.view
            assert permute_request(permute_request(point.request, own), back) == point.request
            assert permute_action(permute_action(point.action, own, record.names), back, record.names) == point.action
            moved = permute_request(point.request, own)
            assert set(moved.targets) == {own[t] for t in point.request.targets}


def test_relabelled_samples_keep_text_and_structure_in_agreement() -> None:
    record, _ = play("aiwolf5", 11)
    relabel = _Relabeller()
    for point in decision_points(record):
        for perm in seat_permutations(5, point.seat):
            moved = relabel.point(point, perm)
            assert moved.seat == point.seat and moved.won == point.won and moved.role is point.role
            if point.action.target is not None:
                assert moved.action.target == perm[point.action.target]
                assert moved.action.target in moved.request.targets
            said = _mentions(point.action.text, record.names)
            assert _mentions(moved.action.text, record.names) == [perm[s] for s in said]
            for before, after in zip(point.view.events, moved.view.events, strict=True):
                assert after == permute_event(before, perm, record.names)
