"""A public server against strangers: table floods, abandoned tables, endless waits, foreign pages, bad input."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect as ws_connect

from lycan.web import create_app
from lycan.web.messages import MAX_FRAME_BYTES
from web_helpers import live_server

Message = dict[str, Any]
BODY = {"preset": "aiwolf5", "humans": 1, "timeout": 30, "ai_delay": 0}


def until(ws: Any, kind: str, limit: int = 5000) -> Message:
    for _ in range(limit):
        message: Message = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message came")


# ----------------------------------------------------------------------------- creating tables


def test_an_address_may_create_only_so_many_tables_in_a_while() -> None:
    with TestClient(create_app(None, allow_seed=True, night_wait=0, ai_delay=0, create_limit=(3, 600))) as client:
        for _ in range(3):
            # Requests refused for other reasons do not count.
            assert client.post("/api/tables", json={**BODY, "preset": "nosuch"}).status_code == 400
            assert client.post("/api/tables", json=BODY).status_code == 201
        res = client.post("/api/tables", json=BODY)
        assert res.status_code == 429
        detail = res.json()["detail"]
        assert "3 tables in the last 600 seconds" in detail and "try again in" in detail
        assert 590 <= int(res.headers["retry-after"]) <= 600
        assert len(client.get("/api/tables").json()) == 3


def test_the_creation_limit_is_per_address_and_forgets_old_tables() -> None:
    from lycan.web.app import CreationLimit

    limit = CreationLimit(2, 60)
    limit.note("a", 0)
    limit.note("a", 10)
    assert limit.wait("a", 20) == pytest.approx(40)
    assert limit.wait("b", 20) == 0
    assert limit.wait("a", 60) == 0  # the first of the two is a minute old
    limit.note("a", 60)
    assert limit.wait("a", 61) == pytest.approx(9)
    assert limit.wait("a", 200) == 0 and "a" not in limit.by_client


def test_tables_nobody_joins_are_closed_and_make_room(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("lycan.web.app.MAX_TABLES", 3)
    # the empty table must outlive the next three creations: 0.5 s was too short on a loaded machine
    app = create_app(None, allow_seed=True, night_wait=0, ai_delay=0, night_min=0, join_timeout=3, create_limit=None)
    with TestClient(app) as client:
        empty = client.post("/api/tables", json=BODY).json()
        taken = client.post("/api/tables", json=BODY).json()
        robots = client.post("/api/tables", json={**BODY, "humans": 0, "ai_delay": 0.5, "timeout": 5}).json()
        full = client.post("/api/tables", json=BODY)
        assert full.status_code == 400 and "already runs 3 tables" in full.json()["detail"]
        # A person sits at `taken` and stays (a table whose people all left is closed too: see
        # test_web_hardening.py).
        with client.websocket_connect(f"/ws/tables/{taken['table']}/seats/{taken['seats'][0]['token']}") as ws:
            assert ws.receive_json()["type"] == "hello"
            with client.websocket_connect(f"/ws/tables/{empty['table']}/watch") as watcher:
                closed = until(watcher, "error")
                assert closed["fatal"] and "nobody took a seat" in closed["message"]
            assert client.get(f"/api/tables/{empty['table']}").status_code == 404
            assert client.get(f"/tables/{empty['table']}/seats/{empty['seats'][0]['token']}").status_code == 404
            # The table a person sits at and the all-AI table stay; the freed place takes a new table.
            assert client.get(f"/api/tables/{taken['table']}").status_code == 200
            assert client.get(f"/api/tables/{robots['table']}").status_code == 200
            assert client.post("/api/tables", json=BODY).status_code == 201


def test_no_person_may_hold_a_decision_longer_than_the_cap() -> None:
    app = create_app(None, allow_seed=True, night_wait=0, ai_delay=0, night_min=0, max_wait=0.3)
    with TestClient(app) as client:
        res = client.post("/api/tables", json={**BODY, "timeout": 10})
        assert res.status_code == 400 and "at most 0.3 seconds" in res.json()["detail"]
        assert client.get("/api/options").json()["max_wait"] == 0.3
        # The rules' own 60 s are cut to the cap, for the person and for the record.
        table = client.post("/api/tables", json={"preset": "aiwolf5", "humans": 1, "ai_delay": 0}).json()
        with client.websocket_connect(f"/ws/tables/{table['table']}/watch") as watcher:
            assert watcher.receive_json()["timeouts"] == {"talk": 0.3, "action": 0.3}
        # Nobody comes: every decision of the absent person falls back within the cap, and the game ends.
        deadline = time.monotonic() + 20
        while not client.get(f"/api/tables/{table['table']}").json()["finished"]:
            assert time.monotonic() < deadline, "the game kept waiting for the absent person"
            time.sleep(0.1)


# ----------------------------------------------------------------------------- WebSockets


def test_websockets_open_only_for_this_servers_pages_and_allowed_origins() -> None:
    app = create_app(None, allow_seed=True, night_wait=0, ai_delay=0, allowed_origins=["https://play.example.org"])
    with TestClient(app) as client:
        table = client.post("/api/tables", json=BODY).json()
        seat = f"/ws/tables/{table['table']}/seats/{table['seats'][0]['token']}"
        watch = f"/ws/tables/{table['table']}/watch"
        for path in (seat, watch):
            for origin in ("http://evil.example", "null", "http://testserver.evil.example", "https://testserver:8443"):
                with client.websocket_connect(path, headers={"origin": origin}) as ws:
                    refused = ws.receive_json()
                    assert refused["type"] == "error" and refused["fatal"], origin
                    assert "may not open tables on this server" in refused["message"]
                    with pytest.raises(WebSocketDisconnect) as closed:
                        ws.receive_json()
                    assert closed.value.code == 4403
            for origin in ("http://testserver", "http://TESTSERVER:80", "https://play.example.org/", None):
                headers = {"origin": origin} if origin else {}
                with client.websocket_connect(path, headers=headers) as ws:
                    assert ws.receive_json()["type"] == "hello", origin


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Ann\u200b", "U+200B ZERO WIDTH SPACE"),
        ("\u202enaJ", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("Bo\x00b", "U+0000"),
        ("Eve\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("\x1b[31mRed", "U+001B"),
        ("Tab\tName", "U+0009"),
        ("Soft\u00adHyphen", "U+00AD SOFT HYPHEN"),
    ],
)
def test_names_with_control_or_invisible_characters_are_refused_clearly(name: str, shown: str) -> None:
    with TestClient(create_app(None, allow_seed=True, night_wait=0, ai_delay=0)) as client:
        res = client.post("/api/tables", json={**BODY, "names": [name]})
        assert res.status_code == 400, res.text
        detail = res.json()["detail"]
        assert "contains" in detail and shown in detail and "use visible letters" in detail
        fine = client.post("/api/tables", json={**BODY, "names": ["Zoë Ó'Brien-李"]})
        assert fine.status_code == 201 and fine.json()["seats"][0]["name"] == "Zoë Ó'Brien-李"


def test_a_flood_of_refused_frames_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="lycan.web")
    with TestClient(create_app(None, allow_seed=True, night_wait=0, ai_delay=0)) as client:
        table = client.post("/api/tables", json=BODY).json()
        with client.websocket_connect(f"/ws/tables/{table['table']}/seats/{table['seats'][0]['token']}") as ws:
            for _ in range(300):
                ws.send_text("not json {")
            for _ in range(300):
                assert "not valid JSON" in until(ws, "error")["message"]
            during = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
            assert len(during) == 1 and "not valid JSON" in during[0], during
        deadline = time.monotonic() + 5
        while len([r for r in caplog.records if "refused" in r.getMessage()]) < 2:
            assert time.monotonic() < deadline, "the flood's count was never logged"
            time.sleep(0.02)
        lines = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert len(lines) == 2 and "refused 299 more messages from Guest 1" in lines[1], lines


@pytest.mark.parametrize(
    "frame",
    [
        "[" * 5000 + "]" * 5000,
        '{"type": "act", "request_id": 0, "action": "over", "text": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"type": "ping", "a": ' + '{"a": ' * 9 + "1" + "}" * 9 + "}",
    ],
)
def test_deeply_nested_json_gets_an_error_and_the_connection_lives_on(frame: str) -> None:
    assert len(frame) < MAX_FRAME_BYTES
    with live_server(create_app(None, allow_seed=True, night_wait=0, ai_delay=0)) as base:
        table = httpx.post(base + "/api/tables", json=BODY).json()
        host = base.removeprefix("http://")
        with ws_connect(f"ws://{host}/ws/tables/{table['table']}/seats/{table['seats'][0]['token']}") as ws:

            def next_of(kind: str) -> Message:
                while True:
                    message: Message = json.loads(ws.recv(5))  # a silent drop fails here, not hangs
                    if message["type"] == kind:
                        return message

            ws.send(frame)
            error = next_of("error")
            assert "levels deep" in error["message"] and "send a flat object" in error["message"]
            ws.send(json.dumps({"type": "ping"}))
            next_of("pong")


def test_nesting_counts_brackets_outside_strings_only() -> None:
    from lycan.web.messages import nesting

    assert nesting('{"type": "ping"}') == 1
    assert nesting('{"text": "[[[[{{{{ \\" [[[["}') == 1
    assert nesting('{"a": [[{"b": []}]]}') == 5
    assert nesting("[" * 100, limit=8) == 9  # stops counting just past the limit
    assert nesting("plain") == 0
