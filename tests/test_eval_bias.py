"""The seat and name bias test: hand-built runs with known answers, and a real run without bias."""

from __future__ import annotations

import math
import random

from lycan.agents import SeatSpec, lineup
from lycan.engine import GameRecord, run_sync
from lycan.eval.bias import team_rates, win_bias
from lycan.rules import get_preset
from lycan.rules.roles import Role

ROLES = (Role.VILLAGER, Role.WEREWOLF, Role.SEER, Role.POSSESSED, Role.VILLAGER)


def record(game: int, roles: tuple[Role, ...], winner: str, names: tuple[str, ...]) -> GameRecord:
    return GameRecord(
        game_id=f"g{game}", rules=get_preset("aiwolf5"), seed=game, names=names, agents=("a",) * 5,
        roles=roles, winner=winner, events=(), decisions=(),  # type: ignore[arg-type]
    )  # fmt: skip


def test_team_rates_and_the_chi_square_by_hand() -> None:
    # four games, roles fixed by seat: the village wins 2, the werewolves 2 -> p = 0.5 for every seat
    names = ("A", "B", "C", "D", "E")
    records = [record(g, ROLES, w, names) for g, w in enumerate(["village", "village", "werewolf", "werewolf"])]
    assert team_rates(records) == {("aiwolf5", "village"): 0.5, ("aiwolf5", "werewolf"): 0.5}
    test = win_bias(records, "seat")
    assert test is not None
    # every seat won exactly 2 of 4 at p = 0.5: O = E for all, chi2 = 0, p = 1
    assert test.chi2 == 0.0 and test.df == 5 and math.isclose(test.p, 1.0)


def test_a_seat_that_always_wins_is_found() -> None:
    rng = random.Random(1)
    records = []
    for g in range(60):
        roles = list(ROLES)
        rng.shuffle(roles)
        # seat 3 is always on the winning side (its team wins), the others are dealt at random
        winner = "village" if roles[2] in (Role.VILLAGER, Role.SEER) else "werewolf"
        names = tuple(f"N{(g + s) % 7}" for s in range(5))
        records.append(record(g, tuple(roles), winner, names))
    seat = win_bias(records, "seat")
    assert seat is not None and seat.p < 1e-6 and seat.top == "seat 3"
    # seat 3's expected wins: p of its team each game; observed: all 60
    expected = sum(team_rates(records)[("aiwolf5", "village" if r.roles[2] in (Role.VILLAGER, Role.SEER) else
                                        "werewolf")] for r in records)  # fmt: skip
    assert math.isclose(seat.excess, (60 - expected) / 60)
    name = win_bias(records, "name")
    assert name is not None and name.groups == 7


def test_a_real_run_of_one_agent_type_shows_no_name_bias() -> None:
    rules = get_preset("aiwolf5")
    names = ["Ash", "Birch", "Cedar", "Elm", "Fir", "Hazel", "Oak"]
    records = []
    for seed in range(120):
        drawn = random.Random(seed * 7 + 1).sample(names, 5)  # a stream of its own, not the deal's
        rec = run_sync(rules, lineup([SeatSpec("random")] * 5, seed), seed, names=drawn)
        records.append(rec)
    test = win_bias(records, "name")
    assert test is not None and test.groups == 7
    assert test.p > 0.001, test  # names cannot matter to random players
