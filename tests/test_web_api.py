"""The web table's HTTP and WebSocket API: seat isolation, hidden information, bad input, reconnects."""

from __future__ import annotations

import json
import struct
import wave
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from lycan.engine.actions import OVER
from lycan.engine.events import Fault, public, visible
from lycan.engine.record import GameRecord
from lycan.render import describe_event
from lycan.rules import get_preset
from lycan.store import GameStore
from lycan.web import create_app
from lycan.web.messages import MAX_FRAME_BYTES
from lycan.web.table import PUBLIC_ACTIVITIES
from web_helpers import legal_answer

Message = dict[str, Any]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, allow_seed=True, night_wait=0, ai_delay=0, night_min=0)) as c:
        yield c


def new_table(client: TestClient, **spec: Any) -> Message:
    body = {"preset": "aiwolf5", "humans": 1, "timeout": 3, "ai_delay": 0, **spec}
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    return res.json()


def seat_ws(client: TestClient, table: Message, index: int = 0) -> Any:
    return client.websocket_connect(f"/ws/tables/{table['table']}/seats/{table['seats'][index]['token']}")


def watch_ws(client: TestClient, table: Message) -> Any:
    return client.websocket_connect(f"/ws/tables/{table['table']}/watch")


_PENDING: dict[int, Message | None] = {}


def receive(ws: WebSocketTestSession) -> Message:
    """The next message; remembers the seat's open request (read by `play`)."""
    message: Message = ws.receive_json()
    if message["type"] == "request":
        _PENDING[id(ws)] = message
    elif message["type"] == "request_closed" and (_PENDING.get(id(ws)) or {}).get("id") == message["id"]:
        _PENDING[id(ws)] = None
    return message


def until(ws: WebSocketTestSession, done: Callable[[Message], bool], limit: int = 5000) -> list[Message]:
    """Read messages until `done(message)`; returns them all (the last one included)."""
    out: list[Message] = []
    for _ in range(limit):
        message = receive(ws)
        out.append(message)
        if done(message):
            return out
    raise AssertionError("the expected message never came")


def play(ws: WebSocketTestSession, say: str | None = "I am a villager.") -> list[Message]:
    """Answer every request legally (speaking once per day, then Over) until the game ends."""
    out: list[Message] = []
    spoken_days: set[int] = set()
    answered: set[int] = set()
    while True:
        pending = _PENDING.get(id(ws))
        if pending is not None and pending["id"] not in answered:
            answered.add(pending["id"])
            text = say if pending["day"] not in spoken_days else None
            if pending["kind"] in ("talk", "whisper"):
                spoken_days.add(pending["day"])
            ws.send_json(legal_answer(pending, text))
        message = receive(ws)
        out.append(message)
        if message["type"] == "game_over":
            return out


def play_together(*sockets: WebSocketTestSession) -> list[list[Message]]:
    """`play` on several seats at once (each in its own thread), so nobody waits out a timeout."""
    with ThreadPoolExecutor(len(sockets)) as pool:
        return list(pool.map(play, sockets))


def stored(db: Path, game_id: str) -> GameRecord:
    with GameStore(db) as store:
        return store.get(game_id)


PRIVATE_KINDS = {"role_assigned", "wolf_pack", "attack_vote", "attack_chosen", "divined", "medium_result", "guarded"}
PRIVATE_KINDS |= {"witch_woken", "potion_used", "night_resolved", "fault", "probe_answered"}


def check_spectator(messages: list[Message], record: GameRecord) -> None:
    """No message before the end carries a hidden role or a private event; the public record is complete."""
    end = next(i for i, m in enumerate(messages) if m["type"] == "game_over")
    before = messages[:end]
    reveal = record.rules.options.reveal_role_on_death
    everyone = public(record.events)
    seen: list[int] = []
    for m in before:
        assert m["type"] != "error", m
        if m["type"] == "hello":
            assert "role" not in m and "team" not in m and m["you"] is None
        if m["type"] == "event":
            assert m["data"]["audience"] is None, m
            assert m["kind"] not in PRIVATE_KINDS, m
            if m["kind"] != "game_over" and not reveal:
                assert m["data"].get("role") is None, m
            assert m["id"] == m["data"]["id"] == len(seen)  # numbered among the public events only
            assert m["text"] == describe_event(everyone[m["id"]], record.names)
            seen.append(m["id"])
        if m["type"] == "activity" and m["state"] == "thinking":
            assert m["kind"] in PUBLIC_ACTIVITIES, m
        if m["type"] in ("speech", "speech_end", "audio"):
            assert m.get("channel", "talk") == "talk", m
        assert m["type"] != "request"
    assert seen == list(range(len(everyone)))
    final = messages[end]
    assert [r["role"] for r in final["roles"]] == [r.value for r in record.roles]
    assert any(line.startswith("[private") for line in final["replay"])


@pytest.mark.parametrize(("preset", "seed"), [("aiwolf5", 1), ("aiwolf5", 2), ("guardian7", 3), ("witch6", 4)])
def test_spectator_sees_only_public_information_until_the_end(
    client: TestClient, db: Path, preset: str, seed: int
) -> None:
    table = new_table(client, preset=preset, humans=1, seed=seed, names=["Pat"], timeout=2)
    with watch_ws(client, table) as watcher, seat_ws(client, table) as person:
        play(person)
        messages = until(watcher, lambda m: m["type"] == "game_over")
    game_id = messages[-1]["game_id"]
    check_spectator(messages, stored(db, game_id))


def test_all_ai_table_runs_and_a_late_spectator_gets_the_public_record(client: TestClient, db: Path) -> None:
    table = new_table(client, preset="guardian7", humans=0, seed=5)
    assert table["seats"] == [] and "seed" not in table  # the seed would give the deal away
    with watch_ws(client, table) as watcher:
        messages = until(watcher, lambda m: m["type"] == "game_over")
    check_spectator(messages, stored(db, messages[-1]["game_id"]))


def test_a_seat_is_sent_exactly_its_own_view(client: TestClient, db: Path) -> None:
    table = new_table(client, preset="guardian7", humans=2, seed=8, names=["Ann", "Bob"], timeout=2)
    with seat_ws(client, table, 0) as ann, seat_ws(client, table, 1) as bob:
        got_ann, got_bob = play_together(ann, bob)
    record = stored(db, got_ann[-1]["game_id"])
    for seat, got in ((0, got_ann), (1, got_bob)):
        hello = got[0]
        assert hello["type"] == "hello" and hello["you"] == seat
        assert hello["role"] == record.roles[seat].value
        events = [m for m in got if m["type"] == "event"]
        own = visible(record.events, seat)
        assert [m["id"] for m in events] == list(range(len(own)))  # numbered within the seat's own view
        for m, event in zip(events, own, strict=True):
            assert m["kind"] == event.kind
            assert m["text"] == describe_event(event, record.names, viewer=seat)
        wolves = {s for s, r in enumerate(record.roles) if r.value == "werewolf"}
        for m in got:
            if m["type"] in ("speech", "activity") and m.get("channel") == "whisper":
                assert seat in wolves
            if m["type"] == "request":
                assert got[0]["you"] == seat


def test_a_token_acts_only_for_its_own_seat_and_table(client: TestClient, db: Path) -> None:
    one = new_table(client, humans=2, names=["Ann", "Bob"], timeout=2, seed=21)
    other = new_table(client, humans=1, timeout=2, seed=22)
    # Another table's token opens nothing.
    with client.websocket_connect(f"/ws/tables/{other['table']}/seats/{one['seats'][0]['token']}") as ws:
        refused = ws.receive_json()
    assert refused["type"] == "error" and refused["fatal"] and "does not belong" in refused["message"]
    assert client.get(f"/tables/{other['table']}/seats/{one['seats'][0]['token']}").status_code == 404
    assert client.get(f"/tables/{one['table']}/seats/{one['seats'][0]['token']}").status_code == 200
    with client.websocket_connect(f"/ws/tables/nosuchtable/seats/{one['seats'][0]['token']}") as ws:
        assert ws.receive_json()["type"] == "error"
    # Seat 1 tries to answer seat 0's request: refused, and the answer stays seat 0's to give.
    with seat_ws(client, one, 0) as ann, seat_ws(client, one, 1) as bob:
        ask = until(ann, lambda m: m["type"] == "request")[-1]
        bob.send_json(legal_answer(ask, "Bob speaking for Ann"))
        err = until(bob, lambda m: m["type"] == "error")[-1]
        assert "not your turn" in err["message"] or "closed" in err["message"]
        ann.send_json(legal_answer(ask, "Ann speaks for herself"))
        until(ann, lambda m: m["type"] == "request_closed" and m["id"] == ask["id"])
        got, _ = play_together(ann, bob)
    record = stored(db, got[-1]["game_id"])
    decision = [d for d in record.decisions if d.seat == 0][ask["id"]]  # requests are numbered per seat
    assert decision.kind == ask["kind"]
    assert "Bob" not in getattr(decision.answer, "text", "")
    assert all("Bob speaking" not in getattr(e, "text", "") for e in record.events)


def test_malformed_frames_are_refused_and_the_game_carries_on(client: TestClient, db: Path) -> None:
    table = new_table(client, timeout=3, seed=31)
    bad: list[tuple[Callable[[WebSocketTestSession], None], str]] = [
        (lambda ws: ws.send_text("not json {"), "not valid JSON"),
        (lambda ws: ws.send_text("[1, 2]"), "JSON object"),
        (lambda ws: ws.send_json({"type": "take_over"}), "unknown message type"),
        (lambda ws: ws.send_json({"no": "type"}), "unknown message type"),
        (lambda ws: ws.send_text(json.dumps({"type": "act", "text": "x" * MAX_FRAME_BYTES})), "limit is"),
        (lambda ws: ws.send_bytes(b"\x00\x01\x02"), "text frames"),
        (lambda ws: ws.send_json({"type": "act", "action": "over"}), "request_id"),
        (lambda ws: ws.send_json({"type": "act", "request_id": "7", "action": "over"}), "whole number"),
        (lambda ws: ws.send_json({"type": "act", "request_id": 7, "action": "dance"}), "'action' must be"),
        (lambda ws: ws.send_json({"type": "act", "request_id": 7, "action": "choose"}), "needs a 'target'"),
        (lambda ws: ws.send_json({"type": "act", "request_id": 7, "action": "speak", "text": 5}), "must be a string"),
    ]
    with seat_ws(client, table) as ws:
        for send, expected in bad:
            send(ws)
            err = until(ws, lambda m: m["type"] == "error")[-1]
            assert expected in err["message"], (expected, err)
        ws.send_json({"type": "ping"})
        until(ws, lambda m: m["type"] == "pong")
        got = play(ws)
    assert got[-1]["winner"] in ("village", "werewolf", "draw")
    assert stored(db, got[-1]["game_id"]).winner == got[-1]["winner"]


def test_out_of_turn_illegal_and_over_long_answers_are_refused(client: TestClient, db: Path) -> None:
    # guardian5 caps an utterance at 125 characters (the aiwolf presets, like the contest, set no cap).
    table = new_table(client, preset="guardian5", timeout=4, seed=41)
    with seat_ws(client, table) as ws:
        ask = until(ws, lambda m: m["type"] == "request")[-1]
        while ask["kind"] != "talk":
            ws.send_json(legal_answer(ask))
            last = ask["id"]
            ask = until(ws, lambda m, last=last: m["type"] == "request" and m["id"] != last)[-1]
        limit = ask["max_length"]
        ws.send_json({"type": "act", "request_id": ask["id"], "action": "speak", "text": "a" * (limit + 1)})
        err = until(ws, lambda m: m["type"] == "error")[-1]["message"]
        assert f"the limit is {limit}" in err and f"{limit + 1} characters" in err
        ws.send_json({"type": "act", "request_id": ask["id"] + 99, "action": "over"})
        assert "closed" in until(ws, lambda m: m["type"] == "error")[-1]["message"]
        ws.send_json({"type": "act", "request_id": ask["id"], "action": "choose", "target": 1})
        assert "speech or Over" in until(ws, lambda m: m["type"] == "error")[-1]["message"]
        words = "b " * limit  # spaces are not counted
        ws.send_json({"type": "act", "request_id": ask["id"], "action": "speak", "text": words})
        until(ws, lambda m: m["type"] == "request_closed")
        ws.send_json({"type": "act", "request_id": ask["id"], "action": "over"})
        late = until(ws, lambda m: m["type"] == "error")[-1]["message"]
        assert "not your turn" in late or "that question is closed" in late
        vote = _PENDING.get(id(ws)) or until(ws, lambda m: m["type"] == "request")[-1]
        while not vote["targets"]:
            ws.send_json(legal_answer(vote))
            last = vote["id"]
            vote = until(ws, lambda m, last=last: m["type"] == "request" and m["id"] != last)[-1]
        outsider = next(s for s in range(5) if s not in {t["seat"] for t in vote["targets"]})
        ws.send_json({"type": "act", "request_id": vote["id"], "action": "choose", "target": outsider})
        assert "not a legal" in until(ws, lambda m: m["type"] == "error")[-1]["message"]
        got = play(ws)
    seat = client.app.state.tables.by_id[table["table"]].players[0]  # type: ignore[attr-defined]
    assert "not your turn" in seat.answer(ask["id"], OVER)
    record = stored(db, got[-1]["game_id"])
    said = [e for e in record.events if e.kind == "talk" and getattr(e, "actor", -1) == 0]
    assert any(getattr(e, "text", "").startswith("b b b") for e in said)
    assert not any(isinstance(e, Fault) and e.seat == 0 for e in record.events)


def test_reconnect_replays_the_seat_history_and_the_open_request(client: TestClient) -> None:
    table = new_table(client, timeout=6, seed=51)
    with seat_ws(client, table) as ws:
        first = until(ws, lambda m: m["type"] == "request")
    with seat_ws(client, table) as ws:
        again = until(ws, lambda m: m["type"] == "request")
        events_before = [m["id"] for m in first if m["type"] == "event"]
        events_after = [m["id"] for m in again if m["type"] == "event"]
        assert events_after == events_before
        assert again[0]["type"] == "hello" and again[0]["role"] == first[0]["role"]
        assert again[-1]["id"] == first[-1]["id"]
        got = play(ws)
    assert got[-1]["type"] == "game_over"
    # After the end a returning person gets the whole story and the reveal.
    with seat_ws(client, table) as ws:
        done = until(ws, lambda m: m["type"] == "game_over")
    assert done[-1]["roles"] == got[-1]["roles"]


def test_an_absent_person_times_out_to_the_fallback(client: TestClient, db: Path) -> None:
    table = new_table(client, humans=1, timeout=0.2, seed=61)
    with watch_ws(client, table) as watcher:
        messages = until(watcher, lambda m: m["type"] == "game_over")
    record = stored(db, messages[-1]["game_id"])
    faults = [e for e in record.events if isinstance(e, Fault) and e.seat == 0]
    assert faults
    assert any("away" in reason for f in faults for reason in f.reasons)
    listed = client.get("/api/games").json()
    assert [g["game_id"] for g in listed] == [record.game_id]
    assert client.get(f"/api/tables/{table['table']}").json()["finished"] is True


def test_bad_table_requests_get_clear_errors(client: TestClient) -> None:
    cases = [
        ({"preset": "nosuch"}, 400, "unknown preset"),
        ({"preset": "/etc/passwd"}, 400, "unknown preset"),
        ({"humans": 6}, 400, "do not fit"),
        ({"ai": "llm"}, 400, "--model"),
        ({"humans": 2, "names": ["Sam", "sam"]}, 400, "look alike"),
        ({"humans": 1, "names": ["x" * 30]}, 400, "longer than"),
        ({"wizard": True}, 422, ""),
        ({"timeout": -1}, 422, ""),
        ({"names": ["x" * 5000]}, 422, ""),
    ]
    for body, status, text in cases:
        res = client.post("/api/tables", json=body)
        assert res.status_code == status, (body, res.text)
        assert text in str(res.json()["detail"])
    options = client.get("/api/options").json()
    assert options["agents"] == ["heuristic", "heuristic-beliefs", "deepwolf", "random"] and not options["llm"]
    assert {p["name"] for p in options["presets"]} >= {"aiwolf5", "guardian7", "witch6"}
    assert client.get("/api/tables/nosuch").status_code == 404


def wav(seconds: float = 0.05) -> bytes:
    buf = BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(struct.pack("<h", 0) * int(8000 * seconds))
    return buf.getvalue()


class Heard:
    def __init__(self, text: str) -> None:
        self.text = text


class EchoRecognizer:
    """A recognizer that reports the recording's size (the real ones live in lycan.voice)."""

    async def transcribe(self, audio: bytes, mime: str = "audio/wav") -> Heard:
        return Heard(f" I heard {len(audio)} bytes of {mime} ")


def test_transcribe_needs_a_recognizer_the_right_token_and_real_audio(db: Path) -> None:
    with TestClient(create_app(db, allow_seed=True, night_wait=0, ai_delay=0)) as client:
        table = new_table(client, timeout=30)
        url = f"/api/tables/{table['table']}/seats/{table['seats'][0]['token']}/transcribe"
        res = client.post(url, content=wav(), headers={"content-type": "audio/wav"})
        assert res.status_code == 503 and "speech recognizer" in res.json()["detail"]
    with TestClient(create_app(db, asr=EchoRecognizer(), allow_seed=True, night_wait=0, ai_delay=0)) as client:
        table = new_table(client, timeout=30)
        other = new_table(client, timeout=30)
        url = f"/api/tables/{table['table']}/seats/{table['seats'][0]['token']}/transcribe"
        audio = wav()
        res = client.post(url, content=audio, headers={"content-type": "audio/wav"})
        assert res.status_code == 200 and res.json() == {"text": f"I heard {len(audio)} bytes of audio/wav"}
        res = client.post(url, content=b"<html>not audio</html>", headers={"content-type": "audio/webm"})
        assert res.status_code == 415 and "does not contain audio" in res.json()["detail"]
        res = client.post(url, content=audio, headers={"content-type": "text/plain"})
        assert res.status_code == 415 and "expected an audio recording" in res.json()["detail"]
        res = client.post(url, content=b"", headers={"content-type": "audio/wav"})
        assert res.status_code == 415 and "empty" in res.json()["detail"]
        wrong = f"/api/tables/{other['table']}/seats/{table['seats'][0]['token']}/transcribe"
        assert client.post(wrong, content=audio, headers={"content-type": "audio/wav"}).status_code == 403
        with seat_ws(client, table) as ws:
            assert ws.receive_json()["asr"] is True


def test_lycan_serve_is_a_command() -> None:
    from typer.testing import CliRunner

    from lycan.cli import app

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--model"):
        assert option in result.output
    assert get_preset("aiwolf5").n_players == 5
