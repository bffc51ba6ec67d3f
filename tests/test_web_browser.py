"""End-to-end: a person plays a whole aiwolf5 game in chromium against heuristic AI seats."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from lycan.agents import HeuristicAgent
from lycan.engine.actions import Action, Request
from lycan.engine.manner import Manner
from lycan.engine.seeds import derive
from lycan.engine.view import View
from lycan.render import describe_event
from lycan.store import GameStore
from lycan.voice import Voice, styled
from lycan.web import create_app
from web_helpers import CHROMIUM, CHROMIUM_ARGS, ToneVoice, live_server

playwright_api = pytest.importorskip("playwright.sync_api")
# In CI the browser is part of the set-up, so a missing chromium must fail there, not skip.
pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and not os.environ.get("CI"), reason="needs Debian's chromium (scripts/setup)"
)

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

STATE_JS = """() => {
  const p = document.getElementById('action-panel');
  return {over: document.body.dataset.finished === '1', id: p.dataset.requestId, kind: p.dataset.kind};
}"""
SPECTATOR_JS = """() => ({
  log: [...document.querySelectorAll('#log li')].map(li => li.innerText),
  kinds: [...document.querySelectorAll('.seat .kind')].map(e => e.innerText),
  badge: document.querySelector('.role-badge') ? document.querySelector('.role-badge').innerText : '',
  cards: document.querySelectorAll('#role-cards .role-card').length,
  finished: document.body.dataset.finished === '1',
  meter: [...document.querySelectorAll('.seat .meter')].map(e => Number(e.dataset.p)),
})"""


def test_person_plays_a_complete_game_in_the_browser(tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    db = tmp_path / "games.db"
    app = create_app(db, allow_seed=True, night_wait=0, ai_delay=0.05, night_min=1)
    with live_server(app) as base, playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            lobby = browser.new_page(viewport={"width": 900, "height": 900})
            lobby.goto(base + "/")
            lobby.wait_for_selector("#preset option[value='aiwolf5']", state="attached")
            lobby.select_option("#preset", "aiwolf5")
            lobby.fill("#humans", "1")
            lobby.fill(".person-name", "Alice")
            lobby.select_option("#ai", "heuristic")
            lobby.click("details summary")
            lobby.fill("#timeout", "8")
            lobby.fill("#ai-delay", "0.05")
            lobby.fill("#seed", "11")
            lobby.click("button[type=submit]")
            lobby.wait_for_selector("#links:not([hidden])")
            lobby.screenshot(path=str(ARTIFACTS / "lobby.png"))
            links = lobby.eval_on_selector_all("#link-list a", "els => els.map(a => a.getAttribute('href'))")
            assert len(links) == 2
            assert all(link.startswith(base) for link in links)
            created = {"seats": [{"link": links[0][len(base) :]}], "spectator": links[1][len(base) :]}
            page = browser.new_page(viewport={"width": 1360, "height": 860})
            page.goto(base + created["seats"][0]["link"])
            watcher = browser.new_page(viewport={"width": 1360, "height": 860})
            watcher.goto(base + created["spectator"])
            page.wait_for_selector(".seat.you")
            # the spectator's page has drawn its table before it is read (a busy machine once read
            # it before its badge was written)
            watcher.wait_for_function("() => (document.querySelector('.role-badge') || {}).innerText === 'Spectator'")
            # and its meter, which comes in its own message right after the table's state
            watcher.wait_for_function("() => document.querySelectorAll('.seat .meter').length === 5")

            handled: set[str] = set()
            spoke = False
            shot = False
            night_shot = False
            snapshots: list[dict[str, object]] = []
            deadline = time.time() + 50
            while time.time() < deadline:
                state = page.evaluate(STATE_JS)
                if state["over"]:
                    break
                snap = watcher.evaluate(SPECTATOR_JS)
                if not snap["finished"]:
                    snapshots.append(snap)
                request_id, kind = state["id"], state["kind"]
                if request_id and request_id not in handled:
                    handled.add(request_id)
                    if kind in ("talk", "whisper"):
                        if not spoke:
                            page.fill("#talk-input", "Good evening everyone. I am a plain villager.")
                            if not shot:
                                page.screenshot(path=str(ARTIFACTS / "table-talk.png"))
                                shot = True
                            page.click("#say-btn")
                            spoke = True
                        else:
                            page.click("#over-btn")
                    elif kind == "bid":
                        page.click("#choices button[data-amount='1']")
                    else:
                        if not night_shot and page.evaluate("document.body.classList.contains('night')"):
                            page.screenshot(path=str(ARTIFACTS / "table-night.png"))
                            night_shot = True
                        page.locator("#choices button[data-target]").first.click()
                time.sleep(0.05)
            else:
                pytest.fail("the game did not end within 50 s")

            page.wait_for_selector("#game-over:not([hidden])")
            winner = page.inner_text("#winner")
            assert winner in ("The village wins", "The werewolves win", "A draw")
            assert page.locator("#role-cards .role-card").count() == 5
            assert "You were the" in page.inner_text("#your-result")
            assert page.locator("#replay li").count() > 10
            page.screenshot(path=str(ARTIFACTS / "game-over.png"))
            page.click("#close-over")
            page.screenshot(path=str(ARTIFACTS / "table-end.png"))
            watcher.wait_for_selector("#game-over:not([hidden])")
            watcher.screenshot(path=str(ARTIFACTS / "spectator-end.png"))
            # after the end the meter stands beside the true roles
            assert watcher.locator("#role-cards .role-meter").count() == 5
            assert "werewolf side" in watcher.inner_text("#role-cards .role-meter >> nth=0")
            assert spoke, "the person never got to speak"
        finally:
            browser.close()

    record = next(GameStore(db).iter_records(run="web"))
    # The person's own utterance is in the record, said through the page.
    talks = [e for e in record.events if e.kind == "talk" and getattr(e, "actor", None) == 0]
    assert any("plain villager" in getattr(e, "text", "") for e in talks)
    # The spectator page never showed a private line or a role before the end.
    private = set()
    for event in record.events:
        if event.audience:
            for seat in event.audience:
                line = describe_event(event, record.names, viewer=seat)
                if line:
                    private.add(line)
            neutral = describe_event(event, record.names)
            if neutral:
                private.add(neutral)
    roles = {r.value for r in record.roles}
    assert snapshots, "the spectator page was never read during the game"
    for snap in snapshots:
        assert not set(snap["log"]) & private  # type: ignore[arg-type]
        assert not set(snap["kinds"]) & roles  # type: ignore[arg-type]
        assert snap["badge"] == "Spectator"
        assert snap["cards"] == 0
        # the spectator's suspicion meter: a bar on every seat, a chance of being on the werewolf side
        assert len(snap["meter"]) == 5  # type: ignore[arg-type]
        assert all(0 <= p <= 1 for p in snap["meter"])  # type: ignore[attr-defined]


SOUND_JS = """() => ({
  played: [...window.LycanAudio.played],
  speaking: document.querySelectorAll('.seat.speaking').length,
  level: window.LycanAudio.level(),
  finished: document.body.dataset.finished === '1',
})"""


def test_voices_play_in_order_and_move_the_speakers_mouth(tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    app = create_app(None, tts=ToneVoice(), allow_seed=True, night_wait=0, ai_delay=0.2, night_min=1)
    with live_server(app) as base, playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            created = httpx.post(base + "/api/tables", json={"preset": "aiwolf5", "humans": 0, "seed": 4}).json()
            page = browser.new_page(viewport={"width": 1360, "height": 860})
            page.goto(base + created["spectator"])
            page.wait_for_selector("#sound:not([hidden])")
            page.click("#sound")
            assert page.inner_text("#sound") == "Sound on"
            seen_speaking = 0
            state: dict[str, Any] = {}
            deadline = time.time() + 25
            while time.time() < deadline:
                state = page.evaluate(SOUND_JS)
                if state["speaking"] and state["played"]:
                    # with sound on, only the seat whose clip is playing moves its mouth
                    assert state["speaking"] == 1, state
                    seen_speaking += 1
                    if seen_speaking == 3:
                        page.screenshot(path=str(ARTIFACTS / "table-voices.png"))
                if len(state["played"]) >= 6 and seen_speaking >= 3:
                    break
                time.sleep(0.05)
        finally:
            browser.close()
    assert len(state["played"]) >= 6, state
    assert seen_speaking >= 3
    clauses: dict[str, list[int]] = {}
    for entry in state["played"]:
        seat, utterance, clause = entry.split(":")
        clauses.setdefault(f"{seat}:{utterance}", []).append(int(clause))
    for order in clauses.values():
        assert order == list(range(order[0], order[0] + len(order)))


MANNERS = [
    Manner(pace="fast", emotion="cheerful", expression="smile", gesture="nod"),
    Manner(pace="slow", emotion="angry", expression="frown", gesture="shake"),
    Manner(pitch="low", emotion="suspicious", expression="narrowed", gesture="point"),
    Manner(pitch="high", emotion="worried", expression="wide", gesture="shrug"),
    Manner(pace="slow", emotion="sad", expression="sad", gesture="lean"),
]
EYES = {"smile": "5", "frown": "5", "narrowed": "2.2", "wide": "8", "sad": "5.5"}


class StyledTone(ToneVoice):
    """A tone voice whose seat voices are `lycan.voice` voices, so that each utterance's manner styles them."""

    def voice_for_seat(self, seat: int) -> Voice:  # type: ignore[override]
        return Voice(f"voice-{seat}")


class Expressive(HeuristicAgent):
    """Says what the heuristic agent says, in its seat's manner."""

    def decide(self, view: View, request: Request) -> Action:
        action = super().decide(view, request)
        if action.kind != "speak":
            return action
        return Action.speak(action.text, MANNERS[view.seat % len(MANNERS)])


AVATARS_JS = """() => [...document.querySelectorAll('.seat')].map(box => {
  const pic = box.querySelector('.avatar');
  const face = pic.querySelector('svg.face');
  return {
    seat: Number(box.dataset.seat),
    expression: pic.dataset.expression || '',
    gesture: pic.dataset.gesture || '',
    animation: face ? getComputedStyle(face).animationName : '',
    eye: face ? face.querySelector('.eye').getAttribute('ry') : '',
    lips: face ? face.querySelector('.lips').getAttribute('d') : '',
    said: [...document.querySelectorAll('#log li.talk .who')]
      .some(w => w.innerText === box.querySelector('.plate').innerText),
  };
})"""


def test_each_ai_seat_shows_the_expression_and_gesture_of_its_talk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lycan.web.lobby

    def expressive(seats: list[object], seed: int, **common: object) -> list[object]:
        return [None if spec is None else Expressive(derive(seed, "agent", s)) for s, spec in enumerate(seats)]

    monkeypatch.setattr(lycan.web.lobby, "lineup", expressive)
    ARTIFACTS.mkdir(exist_ok=True)
    tts = StyledTone()
    app = create_app(None, tts=tts, allow_seed=True, night_wait=0, ai_delay=0.2, night_min=1)
    errors: list[str] = []
    shown: dict[int, dict[str, Any]] = {}
    with live_server(app) as base, playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            created = httpx.post(base + "/api/tables", json={"preset": "aiwolf5", "humans": 0, "seed": 4}).json()
            page = browser.new_page(viewport={"width": 1360, "height": 860})
            page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
            page.on("pageerror", lambda err: errors.append(str(err)))
            page.goto(base + created["spectator"])
            page.wait_for_selector(".seat svg.face")
            deadline = time.time() + 30
            while time.time() < deadline:
                for avatar in page.evaluate(AVATARS_JS):
                    if avatar["expression"]:
                        shown.setdefault(avatar["seat"], avatar)
                        if len(shown) == 3:
                            page.screenshot(path=str(ARTIFACTS / "table-manners.png"))
                if len(shown) >= 4:
                    break
                time.sleep(0.05)
            final = page.evaluate(AVATARS_JS)
        finally:
            browser.close()
    assert len(shown) >= 4, shown
    for seat, avatar in shown.items():
        manner = MANNERS[seat % len(MANNERS)]
        assert (avatar["expression"], avatar["gesture"]) == (manner.expression, manner.gesture), avatar
        assert avatar["animation"] == manner.gesture  # table.css moves the head
        assert avatar["eye"] == EYES[manner.expression]
        assert (avatar["lips"] == "") if manner.expression == "wide" else avatar["lips"].startswith("M")
        # ... and the seat's voice speaks in it
        assert styled(Voice(f"voice-{seat}"), manner) in {voice for _, voice in tts.spoken}
    # a seat's face keeps its manner; seats that have not spoken keep a plain face
    for avatar in final:
        if avatar["seat"] in shown:
            assert avatar["expression"] == shown[avatar["seat"]]["expression"]
        elif not avatar["said"]:
            assert avatar["expression"] == "" and avatar["eye"] == "6"
    assert not errors, errors
    assert all(voice.option("instructions") for _, voice in tts.spoken)


VIEWER_JS = """() => ({
  step: Number(document.body.dataset.step),
  end: document.body.dataset.end === '1',
  pcts: [...document.querySelectorAll('#meter .meter-row .m-pct')].map(e => e.innerText),
  truth: [...document.querySelectorAll('#meter .meter-row .m-truth')].map(e => e.hidden ? '' : e.innerText),
  shown: [...document.querySelectorAll('#log li[data-step]')].filter(li => !li.hidden).length,
  title: document.getElementById('log-title').textContent,
})"""


def test_the_viewer_steps_through_a_stored_game_with_the_meter(tmp_path: Path) -> None:
    from lycan.agents import HeuristicAgent
    from lycan.engine import run_sync
    from lycan.engine.seeds import derive
    from lycan.rules import Role, get_preset

    ARTIFACTS.mkdir(exist_ok=True)
    rules = get_preset("aiwolf5")
    record = run_sync(rules, [HeuristicAgent(derive(3, "agent", s)) for s in range(5)], 3)
    db = tmp_path / "games.db"
    with GameStore(db) as store:
        store.save(record)
    seer = record.roles.index(Role.SEER)
    with live_server(create_app(db)) as base, playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1360, "height": 860})
            page.goto(base + "/games")
            page.click(f"tr[data-game='{record.game_id}'] a")
            page.wait_for_selector("#meter .meter-row[data-p]")
            start = page.evaluate(VIEWER_JS)
            assert (start["step"], start["shown"], start["end"]) == (0, 1, False)
            assert start["pcts"] == ["40%"] * 5  # 2 of 5 seats are on the werewolf side, nobody knows which
            assert start["truth"] == [""] * 5  # the truth only at the end
            for _ in range(3):
                page.click("#next")
            page.keyboard.press("ArrowRight")
            assert page.evaluate(VIEWER_JS)["shown"] == 5
            page.click("#next-phase")
            assert page.locator("#log li.checkpoint:not([hidden])").count() == 1
            page.click("#last")
            end = page.evaluate(VIEWER_JS)
            assert end["end"] and end["truth"] == [f"truly {r.value}" for r in record.roles]
            assert all(p.endswith("%") for p in end["pcts"])
            assert page.inner_text("#winner") in ("The village wins", "The werewolves win", "A draw")
            page.screenshot(path=str(ARTIFACTS / "viewer-public.png"))
            # the same moment as the seer saw it: the seer's own divinations move its meter
            page.select_option("#as", str(seer))
            page.wait_for_function(f"document.getElementById('log-title').textContent.includes({record.names[seer]!r})")
            page.wait_for_function("document.body.dataset.loading === ''")
            mine = page.evaluate(VIEWER_JS)
            assert mine["end"] and mine["pcts"][seer] == "0%"
            assert mine["pcts"] != end["pcts"]
            assert page.locator("#log li.private").count() > 0
            page.screenshot(path=str(ARTIFACTS / "viewer-seer.png"))
        finally:
            browser.close()
