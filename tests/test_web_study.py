"""A whole study through the pages: a scripted person plays each game, answers the questionnaire, and
`lycan report study` draws seed 002's Table 4 and Figure 6 from what was stored."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from lycan.cli import app as cli
from lycan.store import GameStore
from lycan.web import create_app
from lycan.web.perception import perception_files
from web_helpers import CHROMIUM, CHROMIUM_ARGS, live_server, play_page_game

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and perception_files() is not None) and not os.environ.get("CI"),
    reason="needs Debian's chromium and the perceiver's npm package (scripts/setup)",
)

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def say(page: Any) -> None:
    page.fill("#talk-input", "I think we should listen before we vote.")
    page.click("#say-btn")


def test_a_study_is_played_through_the_pages_answered_and_reported(tmp_path: Path) -> None:
    db = tmp_path / "study.db"
    server = create_app(db, allow_seed=True, night_wait=0, ai_delay=0.05, night_min=1)
    body = {"name": "Ann", "preset": "guardian5", "pool": ["heuristic", "random"],
            "paradigms": ["text-text", "video-text"], "games_per_paradigm": 1, "timeout": 20, "ai_delay": 0.05,
            "night_min": 1, "seed": 3}  # fmt: skip
    with live_server(server) as base, playwright_api.sync_playwright() as pw:
        refused = httpx.post(base + "/api/studies", json={**body, "pool": ["oracle"]}, timeout=10)
        assert refused.status_code == 400 and "unknown AI type 'oracle'" in refused.json()["detail"]
        res = httpx.post(base + "/api/studies", json=body, timeout=10)
        assert res.status_code == 201, res.text
        link = res.json()["link"]
        assert httpx.get(base + link.replace(link.rsplit("/", 1)[1], "not-the-token"), timeout=10).status_code == 404
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(base + link)
            for game in range(2):
                page.wait_for_selector("#next-game:not([hidden])")
                page.click("#next-game")
                page.wait_for_url("**/tables/**")
                # raises if the game does not end; whether the person spoke is left open, as the deal is not
                # seeded and the person may be attacked on the first night before any talk
                play_page_game(page, say, seconds=90)
                page.wait_for_selector("#back-to-study:not([hidden])")
                page.click("#back-to-study")
                page.wait_for_url("**/studies/**")
                page.wait_for_function(f"document.querySelectorAll('.study-game.finished').length === {game + 1}")
            page.wait_for_selector("#questionnaire:not([hidden])")
            # the person prefers the camera on every question
            for field in page.query_selector_all("#rankings fieldset"):
                selects = field.query_selector_all("select")
                selects[0].select_option("video-text")
                selects[1].select_option("text-text")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "study-questionnaire.png"))
            page.click("#questionnaire button[type=submit]")
            page.wait_for_selector("#thanks:not([hidden])")
            again = httpx.post(base + link.replace("/studies/", "/api/studies/") + "/answers",
                               json={"rankings": {}}, timeout=10)  # fmt: skip
            assert again.status_code == 400 and "answered already" in again.json()["detail"]
        finally:
            browser.close()
    with GameStore(db) as store:
        records = list(store.iter_records(run="study"))
        (answers,) = store.questionnaires()
    assert len(records) == 2
    assert sorted(r.meta["paradigm"] for r in records) == ["text-text", "video-text"]
    assert {r.meta["study"] for r in records} == {answers.study}
    for r in records:
        assert r.agents[0] == "human" and set(r.agents[1:]) <= {"heuristic", "random"}
    assert answers.rankings == {d: ("video-text", "text-text") for d in ("naturalness", "engagement", "satisfaction")}
    assert set(answers.games) == {r.game_id for r in records}
    result = CliRunner().invoke(cli, ["report", "study", "--db", str(db), "--out", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    assert "Table 4" in result.output and "Figure 6" in result.output
    report = (tmp_path / "report" / "report.md").read_text()
    figure = report[report.index("Figure 6") :]
    # one participant ranked video-text first everywhere: 1 point each, text-text 0
    assert "| video-text | 1.00 [1.00, 1.00] N=1 | 1.00 [1.00, 1.00] N=1 | 1.00 [1.00, 1.00] N=1 |" in figure
    assert "| text-text | 0.00 [0.00, 0.00] N=1" in figure
    assert (tmp_path / "report" / "paradigm_scores.png").exists()
