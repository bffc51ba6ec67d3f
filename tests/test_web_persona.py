"""Personas at the web table: every viewer sees each AI seat's persona, and hears it in the seat's voice."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from lycan.agents import HeuristicAgent
from lycan.agents.persona import Persona, draw_persona
from lycan.engine.manner import Manner
from lycan.engine.seeds import derive, stream
from lycan.voice import Voice, styled, voice_for_persona
from lycan.web import create_app
from lycan.web.audio import AudioChannel
from lycan.web.lobby import TableFactory, TableRequest
from web_helpers import CHROMIUM, CHROMIUM_ARGS, ToneVoice, live_server

SEED = 21


class GenderedTone(ToneVoice):
    """A tone voice with `lycan.voice` voices that can be chosen by gender, as espeak-ng's can."""

    def voice_for_seat(self, seat: int) -> Voice:  # type: ignore[override]
        return Voice(f"seat-{seat}", pitch=50)

    def voice_for_gender(self, seat: int, gender: str) -> Voice:
        return Voice(f"{gender}-{seat}", pitch=50)


class InCharacter(HeuristicAgent):
    """A heuristic agent that plays a persona of its own, as LLM agents do."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.persona = Persona("wry", "chatty", ("summaries",), 44, "female")


def drawn(seat: int, seed: int = SEED) -> str:
    """The persona label of an AI seat whose agent has none: drawn from the seat's own stream."""
    return draw_persona(stream(seed, "persona", seat)).label()


def test_every_viewer_is_told_each_ai_seat_persona_and_no_person_has_one() -> None:
    app = create_app(None, allow_seed=True, night_wait=0, ai_delay=0, night_min=0)
    with TestClient(app) as client:
        created = client.post(
            "/api/tables", json={"preset": "aiwolf5", "humans": 2, "names": ["Ann", "Bo"], "seed": SEED, "timeout": 5}
        ).json()
        expected = [None, None, *(drawn(s) for s in range(2, 5))]
        assert [p["persona"] for p in created["players"]] == expected
        assert all(isinstance(label, str) and label for label in expected[2:])
        assert client.get(f"/api/tables/{created['table']}").json()["personas"] == expected
        hellos = []
        paths = [f"/ws/tables/{created['table']}/seats/{s['token']}" for s in created["seats"]]
        for path in [*paths, f"/ws/tables/{created['table']}/watch"]:
            with client.websocket_connect(path) as ws:
                hello = json.loads(ws.receive_text())
                assert hello["type"] == "hello"
                hellos.append(hello)
        # the same for both people and for the spectator: personas are public
        assert [h["personas"] for h in hellos] == [expected] * 3
        assert [h["you"] for h in hellos] == [0, 1, None]


def test_personas_come_from_a_stream_of_their_own_never_from_the_deal() -> None:
    factory = TableFactory(None, None, False, None, allow_seed=True, night_wait=0, ai_delay=0)
    labels = {}
    for seed in (3, 4, 5):
        table = factory.build(TableRequest(preset="aiwolf5", humans=1, seed=seed))
        labels[seed] = table.persona_labels()
        assert labels[seed] == [None, *(drawn(s, seed) for s in range(1, 5))]
        # the same seed gives the same personas, whoever sits where
        again = factory.build(TableRequest(preset="aiwolf5", humans=0, seed=seed))
        assert again.persona_labels()[1:] == labels[seed][1:]


def test_an_agent_that_plays_a_persona_of_its_own_is_shown_in_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import lycan.web.lobby

    def in_character(seats: list[object], seed: int, **common: object) -> list[object]:
        return [None if spec is None else InCharacter(derive(seed, "agent", s)) for s, spec in enumerate(seats)]

    monkeypatch.setattr(lycan.web.lobby, "lineup", in_character)
    factory = TableFactory(None, None, False, None, allow_seed=True, night_wait=0, ai_delay=0)
    table = factory.build(TableRequest(preset="aiwolf5", humans=1, seed=SEED))
    assert table.persona_labels() == [None, *["wry, chatty, sums up"] * 4]


def test_each_ai_seat_speaks_in_its_persona_voice_and_a_person_in_the_seat_own() -> None:
    tts = GenderedTone()
    factory = TableFactory(None, tts, False, None, allow_seed=True, night_wait=0, ai_delay=0)
    table = factory.build(TableRequest(preset="aiwolf5", humans=1, seed=SEED))
    assert table.audio.seat_voice(0) == tts.voice_for_seat(0)
    for seat in range(1, 5):
        persona = table.persona(seat)
        assert persona is not None
        voice = table.audio.seat_voice(seat)
        assert voice == voice_for_persona(tts, seat, persona)
        assert voice.manner == Manner(emotion=persona.emotion())
        assert voice.name == f"{persona.gender}-{seat}"


async def test_an_utterance_without_a_manner_is_spoken_in_the_persona_mood_one_with_a_manner_in_its_own() -> None:
    tts = GenderedTone()
    nervous = Persona("nervous", "plain", ("hedges",), 66, "male")
    channel = AudioChannel(tts, lambda m, a: None, lambda seat: nervous if seat == 1 else None)
    angry = Manner(pace="fast", emotion="angry")
    channel.feed(1, 0, "I am not sure. Maybe", None)
    channel.finish(1, 0, None)
    channel.style(1, 2, angry)
    channel.feed(1, 2, "It was you!", None)
    channel.finish(1, 2, None)
    channel.feed(3, 4, "Morning.", None)
    channel.finish(3, 4, None)
    await channel.close()
    own = voice_for_persona(tts, 1, nervous)
    assert own.name == "male-1" and own.speed < 1.0  # an older man's voice
    worried, furious = styled(own, None), styled(own, angry)
    assert worried.option("instructions") == "Speak in a worried, anxious tone."
    assert furious.option("instructions") == "Speak in an angry, forceful tone, quickly."
    assert tts.spoken == [
        ("I am not sure.", worried),
        ("Maybe", worried),
        ("It was you!", furious),
        ("Morning.", tts.voice_for_seat(3)),  # a seat without a persona speaks in its own voice
    ]


playwright_api = pytest.importorskip("playwright.sync_api")

SEATS_JS = """() => [...document.querySelectorAll('.seat')].map(box => ({
  seat: Number(box.dataset.seat),
  persona: box.querySelector('.persona') ? box.querySelector('.persona').innerText : null,
  title: box.querySelector('.persona') ? box.querySelector('.persona').title : null,
}))"""


@pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and not os.environ.get("CI"), reason="needs Debian's chromium (scripts/setup)"
)
def test_the_table_page_shows_each_ai_seat_persona_to_players_and_spectators(tmp_path: Path) -> None:
    app = create_app(None, allow_seed=True, night_wait=0, ai_delay=0.2, night_min=1)
    with live_server(app) as base, playwright_api.sync_playwright() as pw:
        created: dict[str, Any] = httpx.post(
            base + "/api/tables", json={"preset": "aiwolf5", "humans": 1, "names": ["Ann"], "seed": SEED, "timeout": 30}
        ).json()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        errors: list[str] = []
        try:
            shown = []
            for path in (created["seats"][0]["link"], created["spectator"]):
                page = browser.new_page(viewport={"width": 1360, "height": 860})
                page.on("pageerror", lambda err: errors.append(str(err)))
                page.goto(base + path)
                page.wait_for_selector(".seat .persona")
                shown.append(sorted(page.evaluate(SEATS_JS), key=lambda s: s["seat"]))
        finally:
            browser.close()
    expected = [None, *(drawn(s) for s in range(1, 5))]
    for seats in shown:
        assert [s["persona"] for s in seats] == expected
        assert all(s["title"] == f"Plays a character: {s['persona']}" for s in seats if s["persona"])
    assert not errors, errors
