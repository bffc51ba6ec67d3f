"""Ratings against a frozen pool: the edge over the pool by hand, the numbers per side and role, and the command."""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lycan.cli import app
from lycan.engine.record import GameRecord
from lycan.eval.leaderboard import leaderboard_html, pool_nash, pool_rating
from lycan.eval.ratings import ELO_PER_LOGIT, Match, relative_strength
from lycan.rules import get_preset
from lycan.rules.roles import Role
from lycan.store import GameStore
from web_helpers import CHROMIUM, CHROMIUM_ARGS


def test_the_edge_over_the_pool_matches_a_hand_count() -> None:
    # against each of two entries, on each side, the entrant wins 3 games of 4: odds 3 to 1, no side advantage
    games = []
    for entry in ("a", "b"):
        games += [Match(("E",), (entry,), w) for w in ("village", "village", "village", "werewolf")]
        games += [Match((entry,), ("E",), w) for w in ("werewolf", "werewolf", "werewolf", "village")]
    edge = relative_strength(games, "E", ["a", "b"], n_boot=100)
    assert math.isclose(edge.value, math.log(3), rel_tol=0.03)  # the ridge pulls it in a little
    assert edge.lo < edge.value < edge.hi and edge.games == 16
    assert math.isclose(ELO_PER_LOGIT * math.log(10), 400)
    even = [Match(("E",), ("a",), "village"), Match(("a",), ("E",), "village")] * 4
    assert abs(relative_strength(even, "E", ["a"], n_boot=50).value) < 1e-6
    assert math.isnan(relative_strength(even, "X", ["a"], n_boot=0).value)


def record(i: int, entrant_team: str, winner: str, usage_calls: int = 0) -> GameRecord:
    rules = get_preset("aiwolf5")
    roles = (Role.VILLAGER, Role.WEREWOLF, Role.SEER, Role.POSSESSED, Role.VILLAGER)
    village = {0, 2, 4}
    agents = tuple(("E" if (s in village) == (entrant_team == "village") else "a") for s in range(5))
    usage = {s: {"calls": usage_calls, "prompt_tokens": 10, "completion_tokens": 5, "latency_s": 0.5}
             for s in range(5) if agents[s] == "E"}  # fmt: skip
    return GameRecord(
        game_id=f"g{i}", rules=rules, seed=i, names=tuple("ABCDE"), agents=agents, roles=roles, winner=winner,  # type: ignore[arg-type]
        events=(), decisions=(), meta={"pool": "p@1", "entrant": "E"}, usage=usage,
    )  # fmt: skip


def test_the_rating_counts_sides_roles_and_cost_by_hand() -> None:
    records = [record(0, "village", "village", 2), record(1, "village", "werewolf", 2),
               record(2, "werewolf", "werewolf", 2), record(3, "werewolf", "werewolf", 2)]  # fmt: skip
    other = replace(record(9, "village", "village"), meta={"pool": "p@2", "entrant": "E"})
    rating = pool_rating([*records, other], "E", "p@1", ["a"], n_boot=50)
    assert rating.games == 4  # another version's game is left out
    assert (rating.village.wins, rating.village.n) == (1, 2)
    assert (rating.werewolf.wins, rating.werewolf.n) == (2, 2)
    # roles: villager seats 0 and 4 and the seer in the two village games; wolf and possessed in the others
    assert (rating.by_role[Role.VILLAGER].wins, rating.by_role[Role.VILLAGER].n) == (2, 4)
    assert (rating.by_role[Role.SEER].wins, rating.by_role[Role.SEER].n) == (1, 2)
    assert (rating.by_role[Role.WEREWOLF].wins, rating.by_role[Role.WEREWOLF].n) == (2, 2)
    # per game: 3 village seats or 2 werewolf seats of 2 calls, 15 tokens and 0.5 s each -> (6+6+4+4)/4 calls
    assert math.isclose(rating.calls, 5.0) and math.isclose(rating.tokens, 37.5) and math.isclose(rating.seconds, 1.25)
    # Nash averaging: E wins 1 of 2 as the village (the side wins 1 of 4) and 2 of 2 as the pack (3 of 4):
    # 0.25 above its side either way, so E is the whole Nash mixture and the entry a is 0.25 below it
    nash = pool_nash([*records, other], "p@1", n_boot=50)
    assert set(nash) == {"E", "a"}
    assert math.isclose(nash["E"].value, 0.0, abs_tol=1e-6) and math.isclose(nash["E"].weight, 1.0, abs_tol=1e-6)
    assert math.isclose(nash["a"].value, -0.25, abs_tol=1e-6)
    page = leaderboard_html([rating], "p@1", ["a"], nash)
    assert "<td>E</td>" in page and "p@1" in page and "<td>+0.0 [" in page


POOL = """name: small
entries:
  - {name: r, agent: random}
  - {name: q, agent: random, options: {talk_probability: 0.0}}
"""


@pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"), reason="needs Debian's chromium")
def test_entrants_are_rated_one_after_another_and_the_page_is_drawn(tmp_path: Path) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    pool = tmp_path / "small.yaml"
    pool.write_text(POOL)
    db, out = tmp_path / "lb.db", tmp_path / "page"
    base = ["leaderboard", "--pool", str(pool), "--preset", "guardian5", "--db", str(db), "--out", str(out)]
    runner = CliRunner()
    first = runner.invoke(app, [*base[:1], "heuristic", *base[1:], "--width", "5000", "--step", "1"])
    assert first.exit_code == 0, first.output
    assert "4 games: heuristic" in first.output  # one round was enough for so wide an interval
    with GameStore(db) as store:
        after_first = store.count()
    budget = runner.invoke(
        app, [*base[:1], "heuristic-beliefs", *base[1:], "--width", "1", "--step", "1", "--budget", "8"]
    )
    assert budget.exit_code == 0, budget.output
    assert "8 games: heuristic-beliefs" in budget.output and "12 games" not in budget.output  # stopped by the budget
    with GameStore(db) as store:
        assert store.count() == after_first + 8  # the second entrant played only its own games
    again = runner.invoke(app, [*base[:1], "heuristic", *base[1:], "--width", "5000", "--step", "1"])
    assert again.exit_code == 0
    with GameStore(db) as store:
        assert store.count() == after_first + 8  # nothing played again
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto((out / "leaderboard.html").as_uri())
            cells = page.eval_on_selector_all(
                "#leaderboard tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
            )
            title = page.inner_text("h1")
        finally:
            browser.close()
    assert "small@" in title
    assert sorted(row[0] for row in cells) == ["heuristic", "heuristic-beliefs"]
    assert {row[4] for row in cells} == {"4", "8"}
    for row in cells:  # half the games on each side
        assert row[5].split("N=")[1] == row[6].split("N=")[1] == str(int(row[4]) // 2), row
        assert row[3].count("[") == 1 and row[3][0] in "+-", row  # Nash averaging with its interval
