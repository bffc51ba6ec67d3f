"""A public server against strangers: table floods, abandoned tables, endless waits."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lycan.web import create_app

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
    with TestClient(create_app(None, ai_delay=0, create_limit=(3, 600))) as client:
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
    app = create_app(None, ai_delay=0, night_min=0, join_timeout=0.5, create_limit=None)
    with TestClient(app) as client:
        empty = client.post("/api/tables", json=BODY).json()
        taken = client.post("/api/tables", json=BODY).json()
        robots = client.post("/api/tables", json={**BODY, "humans": 0, "ai_delay": 0.5, "timeout": 5}).json()
        full = client.post("/api/tables", json=BODY)
        assert full.status_code == 400 and "already runs 3 tables" in full.json()["detail"]
        with client.websocket_connect(f"/ws/tables/{taken['table']}/seats/{taken['seats'][0]['token']}") as ws:
            assert ws.receive_json()["type"] == "hello"
        with client.websocket_connect(f"/ws/tables/{empty['table']}/watch") as watcher:
            closed = until(watcher, "error")
            assert closed["fatal"] and "nobody took a seat" in closed["message"]
        assert client.get(f"/api/tables/{empty['table']}").status_code == 404
        assert client.get(f"/tables/{empty['table']}/seats/{empty['seats'][0]['token']}").status_code == 404
        # The table a person joined and the all-AI table stay; the freed place takes a new table.
        assert client.get(f"/api/tables/{taken['table']}").status_code == 200
        assert client.get(f"/api/tables/{robots['table']}").status_code == 200
        assert client.post("/api/tables", json=BODY).status_code == 201


def test_no_person_may_hold_a_decision_longer_than_the_cap() -> None:
    app = create_app(None, ai_delay=0, night_min=0, max_wait=0.3)
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
