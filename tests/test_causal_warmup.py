"""The Reasoner's supervised format warm-up (`lycan.causal.warmup`): the answers it teaches.

The warm-up itself runs on the tiny model in `tests/test_causal_grpo.py` (the smoke run warms the
adapter up for two steps before its GRPO step).
"""

from __future__ import annotations

import json
import random

import pytest

from lycan.agents.camwolf import read_reasoning
from lycan.causal.turns import sample_turns, self_play_records
from lycan.causal.warmup import Pair, warmup_pairs


@pytest.fixture(scope="module")
def pairs() -> list[Pair]:
    records = self_play_records("aiwolf5", 6, 5_000_000)
    # (only reasons about the identified seat are cited: about one turn in three has one among the
    # eight lines a prompt shows, 34 of these 100)
    turns = sample_turns(records, 100, random.Random(0))
    return warmup_pairs(turns, 40, log_lines=8, seed=0)


def test_every_taught_answer_keeps_to_the_template_and_cites_what_the_prompt_shows(pairs: list[Pair]) -> None:
    assert len(pairs) >= 20
    for pair in pairs:
        reasoning = read_reasoning(pair.answer, pair.turn.view)
        assert len(reasoning.identifications) == 1
        ident = reasoning.identifications[0]
        assert ident.premises and set(ident.premises) <= pair.shown
        assert ident.player != pair.turn.seat and ident.deduction
        data = json.loads(pair.answer)
        assert set(data) == {"identifications", "style", "vision"}
        assert reasoning.manner.emotion in ("suspicious", "calm")


def test_the_taught_answers_are_the_belief_engines_conclusions(pairs: list[Pair]) -> None:
    from lycan.beliefs import posterior

    for pair in pairs[:10]:
        ident = read_reasoning(pair.answer, pair.turn.view).identifications[0]
        post = posterior(pair.turn.view)
        top, _ = post.top_role(ident.player)
        assert ident.role is top or (ident.role.value == "werewolf" and post.side_probability(ident.player) >= 0.5)


def test_two_identifications_when_asked(pairs: list[Pair]) -> None:
    records = self_play_records("aiwolf5", 6, 5_000_000)
    turns = sample_turns(records, 60, random.Random(0))
    two = warmup_pairs(turns, 40, log_lines=8, identifications=2, seed=0)
    counts = [len(read_reasoning(p.answer, p.turn.view).identifications) for p in two]
    assert max(counts) == 2 and min(counts) >= 1
