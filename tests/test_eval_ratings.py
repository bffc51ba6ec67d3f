import math
import random

import numpy as np
import pytest

from lycan.agents import RandomAgent
from lycan.engine import run_sync
from lycan.eval.ratings import (
    Match,
    bradley_terry,
    matches,
    max_entropy_nash,
    meta_game,
    nash_averaging,
    openskill_ratings,
)
from lycan.rules import get_preset

TRUE = {"strong": 1.2, "mid": 0.0, "weak": -1.2}


def synthetic(n: int, seed: int = 7) -> list[Match]:
    """Whole-team games between random pairs; the village side has a -0.4 logit handicap."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        a, b = rng.sample(list(TRUE), 2)
        z = -0.4 + TRUE[a] - TRUE[b]
        won = rng.random() < 1 / (1 + math.exp(-z))
        out.append(Match((a,) * 5, (b,) * 2, "village" if won else "werewolf"))
    return out


def test_stronger_agents_rate_higher() -> None:
    games = synthetic(400)
    os_order = [r.agent for r in openskill_ratings(games)]
    assert os_order == ["strong", "mid", "weak"]
    bt = bradley_terry(games, n_boot=100)
    assert [s.agent for s in bt.strengths] == ["strong", "mid", "weak"]
    assert bt["strong"].lo > bt["weak"].hi
    assert bt["strong"].lo <= bt["strong"].value <= bt["strong"].hi
    assert abs(sum(s.value for s in bt.strengths)) < 1e-6
    assert -1.0 < bt.village_advantage < 0.2
    assert abs(bt["strong"].value - bt["weak"].value - 2.4) < 0.9
    assert bt.n_games == 400


def test_mixed_teams_draws_and_records() -> None:
    games = [
        Match(("a", "b", "a"), ("b",), "village"),
        Match(("b", "b"), ("a",), "werewolf"),
        Match(("b", "b"), ("a",), "draw"),
    ] * 10
    rs = {r.agent: r for r in openskill_ratings(games)}
    assert rs["a"].games == 30 and rs["a"].sigma < 25 / 3 and rs["a"].mu > rs["b"].mu
    bt = bradley_terry(games, n_boot=20)
    assert bt.n_games == 20 and bt["a"].value > 0.5 > -0.5 > bt["b"].value
    rules = get_preset("guardian5")
    recs = [run_sync(rules, [RandomAgent(s * 10 + i) for i in range(5)], s) for s in range(6)]
    ms = matches(recs)
    assert all(len(m.village) == 4 and len(m.werewolf) == 1 for m in ms)
    assert [m.winner for m in ms] == [r.winner for r in recs]
    assert bradley_terry([], n_boot=5).n_games == 0


# ------------------------------------------------------------------ Nash averaging
def beats(winner: str, loser: str, times: int = 4) -> list[Match]:
    """`winner` beats `loser` on both sides, `times` games each way."""
    return [Match((winner,) * 5, (loser,) * 2, "village")] * times + [
        Match((loser,) * 5, (winner,) * 2, "werewolf")
    ] * times


def even(a: str, b: str, times: int = 4) -> list[Match]:
    """Each of `a` and `b` wins as the village once per pair of games: no edge."""
    return [Match((a,) * 5, (b,) * 2, "village"), Match((a,) * 5, (b,) * 2, "werewolf")] * (times // 2) + [
        Match((b,) * 5, (a,) * 2, "village"),
        Match((b,) * 5, (a,) * 2, "werewolf"),
    ] * (times // 2)


def by_agent(games: list[Match]) -> dict[str, tuple[float, float]]:
    return {r.agent: (r.value, r.weight) for r in nash_averaging(games, n_boot=20)}


def test_the_meta_game_is_win_rate_above_the_side_and_antisymmetric() -> None:
    labels, pay = meta_game(beats("a", "b") + even("a", "c") + [Match(("a",) * 5, ("b",) * 2, "draw")])
    assert labels == ["a", "b", "c"]
    assert np.allclose(pay, -pay.T)
    assert pay[0, 1] == pytest.approx(0.5) and pay[0, 2] == pytest.approx(0.0) and pay[1, 2] == 0.0  # b, c never met
    # a side that always wins is no one's edge
    _, flat = meta_game([Match(("a",) * 5, ("b",) * 2, "village"), Match(("b",) * 5, ("a",) * 2, "village")] * 3)
    assert np.allclose(flat, 0.0)


def test_a_cycle_rates_everyone_level_and_a_dominant_agent_alone_in_the_mixture() -> None:
    cycle = beats("rock", "scissors") + beats("scissors", "paper") + beats("paper", "rock")
    rated = by_agent(cycle)
    assert all(v == pytest.approx(0.0, abs=1e-6) and w == pytest.approx(1 / 3, abs=1e-3) for v, w in rated.values())
    top = by_agent(beats("a", "b") + beats("a", "c") + even("b", "c"))
    assert top["a"] == pytest.approx((0.0, 1.0), abs=1e-6)
    assert top["b"][0] == pytest.approx(-0.5) and top["c"][0] == pytest.approx(-0.5)
    # Bradley-Terry would rate b above c if b met many weak copies; Nash averaging is unmoved by copies
    cloned = cycle + beats("rock", "scissors2") + beats("scissors2", "paper") + even("scissors", "scissors2")
    again = by_agent(cloned)
    assert all(again[a][0] == pytest.approx(0.0, abs=1e-6) for a in ("rock", "paper", "scissors", "scissors2"))
    assert again["scissors"][1] + again["scissors2"][1] == pytest.approx(1 / 3, abs=1e-3)
    assert again["rock"][1] == pytest.approx(1 / 3, abs=1e-3)


def test_max_entropy_nash_is_an_equilibrium_of_random_games() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        m = rng.normal(size=(5, 5))
        pay = (m - m.T) / 2
        p = max_entropy_nash(pay)
        assert p.min() >= -1e-9 and p.sum() == pytest.approx(1.0)
        assert (p @ pay).min() >= -1e-6  # no pure strategy gains against it


def test_nash_ratings_of_real_games_have_intervals_around_them() -> None:
    rated = nash_averaging(synthetic(300), n_boot=50)
    assert rated[0].agent == "strong"
    assert all(r.lo <= r.value + 1e-9 and r.value <= r.hi + 1e-9 and r.games > 0 for r in rated)
    assert rated[-1].value < 0 and nash_averaging([]) == []
