"""Discussion protocols and tie-breaks are chosen by name from registries and never see the game."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import get_args

import lycan.engine.game
from lycan.engine.actions import TalkInfo
from lycan.engine.discussion import PROTOCOLS, Bids, Floor, Turn
from lycan.engine.events import Talk
from lycan.engine.voting import TIE_BREAKS, Execute, Revote, Spare
from lycan.rules import TalkLimits
from lycan.rules.ruleset import DISCUSSIONS, TieBreak

ENGINE = Path(lycan.engine.game.__file__).parent


def _imports(module: str) -> set[str]:
    tree = ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))
    found = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    return found | {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}


def test_protocols_and_tie_breaks_do_not_import_the_game() -> None:
    for module in ("discussion", "voting"):
        assert not [m for m in _imports(module) if m.startswith("lycan.engine.game")], module


# ----------------------------------------------------------------------------- tie-breaks
def test_every_tie_break_option_has_a_rule() -> None:
    assert set(TIE_BREAKS) == set(get_args(TieBreak))


def test_tie_break_rules() -> None:
    rng = random.Random(0)
    assert TIE_BREAKS["revote_then_random"]((2, 5), 0, rng) == Revote((2, 5))
    assert TIE_BREAKS["revote_then_random"]((2, 5), 1, rng) in (Execute(2), Execute(5))
    assert TIE_BREAKS["random"]((2, 5), 0, rng) in (Execute(2), Execute(5))
    assert TIE_BREAKS["no_execution"]((2, 5), 0, rng) == Spare("tie between 2 players")


# ----------------------------------------------------------------------------- discussion protocols
def test_every_discussion_option_has_a_protocol() -> None:
    assert set(PROTOCOLS) == set(DISCUSSIONS)


def _said(seat: int, turn: int, *, over: bool) -> Talk:
    return Talk(id=turn, day=1, phase="day", actor=seat, text="Over" if over else "hi", turn=turn, over=over)


def test_a_protocol_is_pulled_and_told_what_was_said() -> None:
    floor = Floor("talk", (0, 2, 4), 1, TalkLimits(rounds=2), random.Random(0), ("a", "b", "c", "d", "e"))
    talk = PROTOCOLS["round_robin"](floor)
    turns = []
    for step in talk:
        assert (
            isinstance(step, Turn)
            and step.ask
            and step.info == TalkInfo(turn=len(turns), round=len(turns) // 3, rounds=2)
        )
        turns.append(step.seat)
        talk.heard(_said(step.seat, step.turn, over=step.seat == 2))
    assert turns == [2, 4, 0, 4, 0]  # day 1 starts at the second speaker; seat 2 said Over


def test_the_bidding_protocol_asks_for_bids_first() -> None:
    floor = Floor("talk", (0, 1), 1, TalkLimits(max_turns=1), random.Random(0), ("a", "b"))
    talk = PROTOCOLS["bidding"](floor)
    steps = iter(talk)
    assert next(steps) == Bids((0, 1), 0)
    talk.bid({0: 1, 1: 3})
    second = next(steps)
    assert isinstance(second, Turn) and second.seat == 1 and second.info == TalkInfo(turn=0, bid=3)
    talk.heard(_said(1, 0, over=False))
    assert next(steps, None) is None  # max_turns reached


def test_deepwolf_records_a_closing_over_without_asking() -> None:
    floor = Floor("talk", (0, 1), 2, TalkLimits(), random.Random(1), ("a", "b"))
    talk = PROTOCOLS["deepwolf"](floor)
    steps = iter(talk)
    first = next(steps)
    assert isinstance(first, Turn) and first.ask and first.info.no_repeat is True
    talk.heard(_said(first.seat, 0, over=True))
    last = next(steps)
    assert isinstance(last, Turn) and not last.ask and last.seat != first.seat
