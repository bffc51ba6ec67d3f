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
from lycan.eval.leaderboard import deal_edge, leaderboard_html, pool_nash, pool_rating
from lycan.eval.metrics import Price
from lycan.eval.ratings import ELO_PER_LOGIT, Match, relative_strength
from lycan.rules import get_preset
from lycan.rules.roles import Role, Team
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
    rating = pool_rating([*records, other], "E", "p@1", ["a"], n_boot=50, prices={"E": Price(2.0, 4.0)})
    assert rating.games == 4  # another version's game is left out
    assert (rating.village.wins, rating.village.n) == (1, 2)
    assert (rating.werewolf.wins, rating.werewolf.n) == (2, 2)
    # roles: villager seats 0 and 4 and the seer in the two village games; wolf and possessed in the others
    assert (rating.by_role[Role.VILLAGER].wins, rating.by_role[Role.VILLAGER].n) == (2, 4)
    assert (rating.by_role[Role.SEER].wins, rating.by_role[Role.SEER].n) == (1, 2)
    assert (rating.by_role[Role.WEREWOLF].wins, rating.by_role[Role.WEREWOLF].n) == (2, 2)
    # per game: 3 village seats or 2 werewolf seats of 2 calls, 15 tokens and 0.5 s each -> (6+6+4+4)/4 calls
    assert math.isclose(rating.calls, 5.0) and math.isclose(rating.tokens, 37.5) and math.isclose(rating.seconds, 1.25)
    # money: 10 seats of 10 prompt tokens at 2 and 5 completion tokens at 4 per million: 40e-6 each, over 4
    # games; every seat lived the game's one day
    assert math.isclose(rating.cost, 1e-4) and math.isclose(rating.cost_per_day, 4e-5) and rating.faults == 0
    assert rating.sides == {} and rating.roles == {}  # no self-play of the pool to measure against
    # Nash averaging: E wins 1 of 2 as the village (the side wins 1 of 4) and 2 of 2 as the pack (3 of 4):
    # 0.25 above its side either way, so E is the whole Nash mixture and the entry a is 0.25 below it
    nash = pool_nash([*records, other], "p@1", n_boot=50)
    assert set(nash) == {"E", "a"}
    assert math.isclose(nash["E"].value, 0.0, abs_tol=1e-6) and math.isclose(nash["E"].weight, 1.0, abs_tol=1e-6)
    assert math.isclose(nash["a"].value, -0.25, abs_tol=1e-6)
    page = leaderboard_html([rating], "p@1", ["a"], nash)
    assert "<td>E</td>" in page and "p@1" in page and "<td>+0.0 [" in page and "<td>0.0001</td>" in page


def selfplay(seed: int, winner: str) -> GameRecord:
    """Entry a playing itself on deal `seed`."""
    return replace(record(seed, "village", winner), agents=("a",) * 5, usage={}, meta={"pool": "p@1", "baseline": "1"})


def test_sides_and_roles_are_rated_against_the_pools_self_play_on_the_same_deals() -> None:
    elo = 400 / math.log(10)
    even = deal_edge([(True, True), (False, False)], n_boot=0)
    assert even.value == 0 and (even.entrant.wins, even.pool.wins) == (1, 1)
    # 3 of 4 against 0 of 4: logit(3.5/5) - logit(0.5/5), in Elo points
    e = deal_edge([(True, False)] * 3 + [(False, False)], n_boot=200)
    assert math.isclose(e.value, elo * (math.log(0.7 / 0.3) - math.log(0.1 / 0.9)))
    assert e.lo < e.value <= e.hi
    assert math.isnan(deal_edge([]).value)
    records = [record(0, "village", "village"), record(1, "village", "werewolf"),
               record(2, "werewolf", "werewolf"), record(3, "werewolf", "werewolf")]  # fmt: skip
    one_seat = replace(record(5, "village", "village"), agents=("a", "a", "E", "a", "a"), usage={})  # E the seer
    baseline = [selfplay(0, "village"), selfplay(1, "werewolf"), selfplay(2, "werewolf"), selfplay(3, "village"),
                selfplay(5, "werewolf"), replace(selfplay(4, "village"), meta={"pool": "p@2"})]  # fmt: skip
    rating = pool_rating([*records, one_seat], "E", "p@1", ["a"], n_boot=50, baseline=baseline)
    # as the village: won deal 0 (so did the pool), lost deal 1 (so did the pool): no edge
    village = rating.sides[Team.VILLAGE]
    assert village.value == 0 and (village.entrant.wins, village.pool.wins, village.entrant.n) == (1, 1, 2)
    # as the werewolves: won deals 2 and 3, where the pool's werewolves won deal 2 only
    wolves = rating.sides[Team.WEREWOLF]
    assert math.isclose(wolves.value, elo * (math.log(2.5 / 0.5) - 0.0))
    assert (wolves.entrant.wins, wolves.pool.wins) == (2, 1)
    # the one-seat game: E as the seer won deal 5, which the pool's village lost; it is no side game
    assert set(rating.roles) == {Role.SEER} and (
        rating.roles[Role.SEER].entrant.wins,
        rating.roles[Role.SEER].pool.wins,
    ) == (1, 0)
    assert rating.games == 5 and rating.village.n == 2 and rating.by_role[Role.SEER].n == 3


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
    prices = tmp_path / "prices.toml"
    prices.write_text("[heuristic]\nprompt = 1.0\ncompletion = 2.0\n")
    db, out = tmp_path / "lb.db", tmp_path / "page"
    base = ["leaderboard", "--pool", str(pool), "--preset", "guardian5", "--db", str(db), "--out", str(out)]
    runner = CliRunner()
    first = runner.invoke(
        app, [*base[:1], "heuristic", *base[1:], "--width", "5000", "--step", "1", "--prices", str(prices)]
    )
    assert first.exit_code == 0, first.output
    assert "4 games: heuristic" in first.output  # one round was enough for so wide an interval
    # then one turn of the deck (5 games) in one seat against each entry, and the pool's self-play
    # on every deal played: 2 entries x (1 + 5)
    assert "10 games with heuristic in one seat" in first.output
    assert "12 games of the pool's self-play" in first.output
    with GameStore(db) as store:
        after_first = store.count()
    assert after_first == 4 + 10 + 12
    budget = runner.invoke(
        app,
        [
            *base[:1],
            "heuristic-beliefs",
            *base[1:],
            "--width",
            "1",
            "--step",
            "1",
            "--budget",
            "8",
            "--seat-rounds",
            "0",
        ],
    )
    assert budget.exit_code == 0, budget.output
    assert "8 games: heuristic-beliefs" in budget.output and "12 games" not in budget.output  # stopped by the budget
    with GameStore(db) as store:  # its own games, and the self-play of the one deal more it played
        assert store.count() == after_first + 8 + 2
    again = runner.invoke(app, [*base[:1], "heuristic", *base[1:], "--width", "5000", "--step", "1"])
    assert again.exit_code == 0
    with GameStore(db) as store:
        assert store.count() == after_first + 10  # nothing played again
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto((out / "leaderboard.html").as_uri())
            cells = page.eval_on_selector_all(
                "#leaderboard tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
            )
            header = page.eval_on_selector_all("#leaderboard thead th", "cells => cells.map(c => c.innerText)")
            title = page.inner_text("h1")
        finally:
            browser.close()
    assert "small@" in title
    rows = {row[0]: dict(zip(header, row, strict=True)) for row in cells}
    assert sorted(rows) == ["heuristic", "heuristic-beliefs"]
    assert rows["heuristic"]["games"] == "14" and rows["heuristic-beliefs"]["games"] == "8"
    # half the team games on each side; heuristic also held guardian5's lone werewolf seat once per entry
    sides = {"heuristic": ("2", "4"), "heuristic-beliefs": ("4", "4")}
    for name, row in rows.items():
        village, wolves = sides[name]
        assert row["village wins"].split("N=")[1] == village and row["werewolf wins"].split("N=")[1] == wolves, row
        for side, n in (
            ("as village (Elo vs pool self-play)", village),
            ("as werewolves (Elo vs pool self-play)", wolves),
        ):
            assert row[side][0] in "+-" and row[side].endswith(f"N={n})"), row  # against the self-play
        nash = row["Nash averaging (points)"]
        assert nash.count("[") == 1 and nash[0] in "+-", row  # Nash averaging with its interval
    # per role where the entrant held single seats: each of guardian5's four roles in the one-seat games, and
    # the lone werewolf's seat of a team game
    roles = rows["heuristic"]["per role (Elo vs pool self-play)"]
    assert [part.split()[0] for part in roles.split("; ")] == ["guardian", "seer", "villager", "werewolf"], roles
    assert rows["heuristic-beliefs"]["per role (Elo vs pool self-play)"].startswith("werewolf ")
    assert rows["heuristic-beliefs"]["per role (Elo vs pool self-play)"].endswith("N=4)")
    assert rows["heuristic"]["cost / game"] == rows["heuristic-beliefs"]["cost / game"] == "0.0000"  # no tokens


def test_a_pool_changed_under_its_ratings_is_refused_until_asked_for(tmp_path: Path) -> None:
    pool = tmp_path / "small.yaml"
    pool.write_text(POOL)
    db, out = tmp_path / "lb.db", tmp_path / "page"
    base = ["leaderboard", "random", "--pool", str(pool), "--preset", "guardian5", "--db", str(db), "--out", str(out),
            "--width", "5000", "--step", "1", "--seat-rounds", "0"]  # fmt: skip
    runner = CliRunner()
    assert runner.invoke(app, base).exit_code == 0
    with GameStore(db) as store:
        stored = store.count()
    pool.write_text(POOL.replace("talk_probability: 0.0", "talk_probability: 0.5"))
    changed = runner.invoke(app, base)
    assert changed.exit_code == 2, changed.output
    assert "pool small changed since its stored ratings" in changed.output
    assert "entry 'q' plays by other files or options" in changed.output and "--new-version" in changed.output
    with GameStore(db) as store:
        assert store.count() == stored  # nothing played, nothing written
    bad_prices = tmp_path / "prices.yaml"
    bad_prices.write_text("gpt: {prompt: -1}\n")
    refused = runner.invoke(app, [*base, "--new-version", "--prices", str(bad_prices)])
    assert refused.exit_code == 2 and "prompt" in refused.output and "greater than or equal to 0" in refused.output
    fresh = runner.invoke(app, [*base, "--new-version"])
    assert fresh.exit_code == 0, fresh.output
    assert runner.invoke(app, base).exit_code == 0  # the new version has its ratings now
    pool.write_text(POOL)
    back = runner.invoke(app, [*base[:-2], "--seat-rounds", "1", "--budget", "4"])
    assert back.exit_code == 0, back.output  # back to a version with ratings stored
    # 4 rating games spent the budget: no room for a turn of 5 one-seat games against each entry
    assert (
        "the budget leaves room for 0 of 1 turns in one seat" in back.output and "in one seat, for" not in back.output
    )
