"""The camera perceiver in a real browser: Chromium's fake camera plays generated clips of a face.

The clips are scikit-image's astronaut photograph moved to nod, shake, turn or hold still
(`_clips`). The page's perceiver (Human, served by the app from its npm package) must tell them
apart, a person's description must reach the game with their words, and nothing but the
description may leave the browser.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from _clips import KINDS, make_clip
from lycan.engine.events import Talk
from lycan.store import GameStore
from lycan.web import create_app
from lycan.web.perception import perception_files
from web_helpers import CHROMIUM, CHROMIUM_ARGS, live_server, play_page_game

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("skimage", reason="the test clips are drawn from scikit-image's astronaut photograph")
# In CI the browser and the perceiver's npm package are part of the set-up: missing, they fail there.
pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and perception_files() is not None) and not os.environ.get("CI"),
    reason="needs Debian's chromium and the perceiver's npm package (scripts/setup)",
)

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def camera_args(clip: Path) -> list[str]:
    return [
        *CHROMIUM_ARGS,
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={clip}",
    ]


def perceive(pw: Any, base: str, clip: Path, seconds: float) -> dict[str, Any]:
    """Turn the perceiver on in a page with `clip` as the camera; what it made of `seconds` of it."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=camera_args(clip))
    try:
        page = browser.new_page()
        page.goto(base + "/")
        page.add_script_tag(url="/static/perceive.js")
        on = page.evaluate(
            "async () => { const r = await LycanPerceiver.start(() => {}); LycanPerceiver.mark(); return r; }"
        )
        assert on, "the perceiver did not start"
        time.sleep(seconds)
        return page.evaluate(
            """() => { const t = performance.now(); const d = LycanPerceiver.describe();
               return {d, ms: performance.now() - t, fps: LycanPerceiver.fps(), per: LycanPerceiver.msPerFrame()}; }"""
        )
    finally:
        browser.close()


def gesture(description: dict[str, Any] | None) -> str:
    cues = (description or {}).get("cues", [])
    return next((c["value"] for c in cues if c["kind"] == "gesture"), "still")


def test_the_perceiver_tells_nods_shakes_turns_and_stillness_apart(tmp_path: Path) -> None:
    app = create_app(None)
    got: dict[str, dict[str, Any]] = {}
    with live_server(app) as base, playwright_api.sync_playwright() as pw:
        for kind in KINDS:
            clip = make_clip(kind, tmp_path, seed=11, seconds=5.0)
            got[kind] = perceive(pw, base, clip.path, 4.2)
    assert {kind: gesture(r["d"]) for kind, r in got.items()} == {kind: kind for kind in KINDS}
    for kind, r in got.items():
        # the astronaut smiles throughout
        assert {"kind": "expression", "value": "smile"} in [
            {k: c[k] for k in ("kind", "value")} for c in r["d"]["cues"]
        ]
        assert r["ms"] < 500, "the description took longer than half a second"
        # a 15-frame camera: every frame looked at (a loaded CI machine may lag; the benchmark holds the target)
        assert r["fps"] >= 6, (kind, r["fps"])
    onsets = [c["onset"] for c in got["nod"]["d"]["cues"] if c["kind"] == "gesture"]
    assert onsets and 0.0 <= onsets[0] <= 2.5


def play_through_the_page(
    pw: Any, base: str, link: str, args: list[str], *, camera: bool, grant: bool = True, lose: bool = False
) -> dict[str, Any]:
    """A person plays a whole game through the page: says one line on day 1 (after a few seconds
    in front of the camera if `camera`), Over otherwise, first choice for every vote; returns what
    the page sent and showed."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=args)
    sent: list[str] = []
    requests: list[tuple[str, str, int]] = []
    try:
        context = browser.new_context(viewport={"width": 1360, "height": 860}, permissions=["camera"] if grant else [])
        page = context.new_page()
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
        page.on("request", lambda r: requests.append((r.method, r.url, len(r.post_data_buffer or b""))))
        page.goto(base + link)
        page.wait_for_selector(".seat.you")
        status = ""
        if camera:
            page.wait_for_selector("#camera:not([hidden])")
            page.click("#camera")
            page.wait_for_function("() => ['on', 'error'].includes(document.body.dataset.camera)", timeout=60_000)
            status = page.evaluate("document.body.dataset.camera")
            if lose:  # the camera goes away mid-game (unplugged, taken by another program)
                page.evaluate(
                    "document.getElementById('camera-preview').srcObject.getVideoTracks()"
                    ".forEach(t => t.dispatchEvent(new Event('ended')))"
                )
                page.wait_for_function("document.body.dataset.camera === 'error'")
                status = "lost"

        def say(page: Any) -> None:
            if camera:
                time.sleep(3.5)  # the person speaks (and nods) in front of the camera
            page.fill("#talk-input", "I am only a villager, believe me.")
            page.click("#say-btn")
            if camera and grant and not lose:  # the words come back with what the camera saw
                page.wait_for_selector("#log .seen", timeout=10_000)
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "table-camera.png"))

        spoke = play_page_game(page, say)
        log = page.eval_on_selector_all("#log li", "els => els.map(e => e.innerText)")
        camera_text = page.evaluate("document.getElementById('camera-status').innerText")
        return {
            "sent": sent,
            "requests": requests,
            "status": status,
            "log": log,
            "spoke": spoke,
            "camera_text": camera_text,
        }
    finally:
        browser.close()


def create_table(base: str, paradigm: str, seed: int) -> str:
    body = {"preset": "aiwolf5", "humans": 1, "names": ["Ann"], "ai": "heuristic", "seed": seed, "timeout": 20,
            "ai_delay": 0.05, "night_min": 1, "paradigm": paradigm}  # fmt: skip
    res = httpx.post(base + "/api/tables", json=body, timeout=10)
    assert res.status_code == 201, res.text
    return str(res.json()["seats"][0]["link"])


def stored_talk(db: Path) -> list[Talk]:
    with GameStore(db) as store:
        (game_id,) = [g.game_id for g in store.list_games()]
        record = store.get(game_id)
    assert record.meta.get("paradigm")
    return [e for e in record.events if isinstance(e, Talk) and e.actor == 0 and not (e.over or e.skip)]


def test_a_persons_nod_goes_with_their_words_and_no_image_leaves_the_browser(tmp_path: Path) -> None:
    clip = make_clip("nod", tmp_path, seed=5, seconds=6.0)
    db = tmp_path / "games.db"
    app = create_app(db, allow_seed=True, night_wait=0, ai_delay=0.05, night_min=1)
    with live_server(app) as base, playwright_api.sync_playwright() as pw:
        link = create_table(base, "video-text", 11)
        out = play_through_the_page(pw, base, link, camera_args(clip.path), camera=True)
    assert out["status"] == "on" and out["spoke"]
    (said,) = stored_talk(db)
    assert said.seen is not None, "the person's words came without what the camera saw"
    assert "nod" in [c.value for c in said.seen.cues if c.kind == "gesture"]
    assert any("nods" in line and "believe me" in line for line in out["log"]), out["log"]
    # Only the description left the browser: small JSON frames of known types, no image data, and
    # nothing uploaded over HTTP.
    kinds = set()
    for frame in out["sent"]:
        assert len(frame) < 2048, frame[:200]
        data = json.loads(frame)
        kinds.add(data["type"])
        assert not re.search(r"data:image|base64|[A-Za-z0-9+/]{200,}", frame), frame[:200]
        if "seen" in data:
            assert set(data["seen"]) == {"cues"}
    assert kinds <= {"act", "ping"}
    assert all(size == 0 for method, _, size in out["requests"]), [r for r in out["requests"] if r[2]]
    assert all(method == "GET" for method, _, _ in out["requests"])


def test_a_denied_camera_is_said_and_the_person_plays_on_in_words(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    app = create_app(db, allow_seed=True, night_wait=0, ai_delay=0.05, night_min=1)
    clip = make_clip("still", tmp_path, seed=1, seconds=2.0)
    # a camera is there, but without the fake-UI flag the page must ask, and the browser says no
    args = [a for a in camera_args(clip.path) if a != "--use-fake-ui-for-media-stream"]
    with live_server(app) as base, playwright_api.sync_playwright() as pw:
        link = create_table(base, "video-text", 12)
        out = play_through_the_page(pw, base, link, args, camera=True, grant=False)
    assert out["status"] == "error" and out["spoke"]
    assert any("permission denied" in line or "No camera" in line for line in out["log"] + [out["camera_text"]])
    (said,) = stored_talk(db)
    assert said.text == "I am only a villager, believe me." and said.seen is None


def test_a_camera_lost_mid_game_is_said_and_the_words_go_on_alone(tmp_path: Path) -> None:
    clip = make_clip("nod", tmp_path, seed=2, seconds=3.0)
    db = tmp_path / "games.db"
    app = create_app(db, allow_seed=True, night_wait=0, ai_delay=0.05, night_min=1)
    with live_server(app) as base, playwright_api.sync_playwright() as pw:
        link = create_table(base, "video-text", 13)
        out = play_through_the_page(pw, base, link, camera_args(clip.path), camera=True, lose=True)
    assert out["status"] == "lost" and out["spoke"]
    assert "camera was lost" in out["camera_text"]
    (said,) = stored_talk(db)
    assert said.seen is None
