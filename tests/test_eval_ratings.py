import math
import random

from lycan.agents import RandomAgent
from lycan.engine import run_sync
from lycan.eval.ratings import Match, bradley_terry, matches, openskill_ratings
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
