"""Side channels of the web table: seeds, message counts and numbering, night lengths, seat tokens in logs."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from uvicorn.logging import AccessFormatter, DefaultFormatter
from websockets.sync.client import connect as ws_connect

from lycan.beliefs.meter import meter
from lycan.engine.actions import OVER, PASS, Action, Request
from lycan.engine.events import Talk
from lycan.engine.game import Game
from lycan.engine.manner import Manner
from lycan.engine.seeds import derive, stream
from lycan.engine.stepping import view_at
from lycan.engine.view import View
from lycan.rules import RuleSet, get_preset, rules_from_dict
from lycan.rules.roles import Role
from lycan.web import create_app
from lycan.web.lobby import AI_NAMES, TableFactory, TableRequest
from lycan.web.seats import AISeat, HumanSeat
from lycan.web.table import Connection, WebTable
from web_helpers import legal_answer

Message = dict[str, Any]

# ----------------------------------------------------------------------------- seeds


@pytest.mark.parametrize("seed", [7, 12345, 2**31 - 1])
def test_ai_names_and_agents_use_streams_of_their_own_not_the_deal(seed: int) -> None:
    factory = TableFactory(None, None, False, None, allow_seed=True, night_wait=0, ai_delay=0)
    table = factory.build(TableRequest(preset="aiwolf13", humans=1, names=["Pat"], seed=seed))
    expected = list(AI_NAMES)
    stream(seed, "names").shuffle(expected)
    assert table.names[1:] == tuple(expected[:12])
    # The deal used to be drawn from random.Random(seed) too, so these names gave the seed away.
    leaky = list(AI_NAMES)
    random.Random(seed).shuffle(leaky)
    assert table.names[1:] != tuple(leaky[:12])
    for seat in range(1, 13):
        player = table.players[seat]
        assert isinstance(player, AISeat)
        assert getattr(player.agent, "seed", None) == derive(seed, "agent", seat)


def test_a_table_without_a_seed_gets_a_fresh_128_bit_one_that_nobody_sees_before_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = (1 << 127) | 0x5EED_5EED_5EED_5EED_5EED
    monkeypatch.setattr("lycan.web.lobby.fresh_seed", lambda: secret)
    app = create_app(None, allow_seed=True, night_wait=0, ai_delay=0, night_min=0)
    shown = (str(secret), hex(secret), format(secret, "x"))

    def hidden(payload: Any) -> None:
        text = json.dumps(payload)
        assert not any(s in text for s in shown), "the seed was shown"

    with TestClient(app) as client:
        created = client.post("/api/tables", json={"preset": "aiwolf5", "humans": 1, "timeout": 3, "ai_delay": 0})
        assert created.status_code == 201
        table = created.json()
        hidden(table)
        assert app.state.tables.by_id[table["table"]].seed == secret
        hidden(client.get("/api/tables").json())
        hidden(client.get(f"/api/tables/{table['table']}").json())
        with (
            client.websocket_connect(f"/ws/tables/{table['table']}/watch") as watcher,
            client.websocket_connect(f"/ws/tables/{table['table']}/seats/{table['seats'][0]['token']}") as seat,
        ):
            answered: set[int] = set()
            while True:
                message = seat.receive_json()
                if message["type"] == "game_over":
                    break
                hidden(message)
                if message["type"] == "request" and message["id"] not in answered:
                    answered.add(message["id"])
                    seat.send_json(legal_answer(message))
            while (message := watcher.receive_json())["type"] != "game_over":
                hidden(message)


# ----------------------------------------------------------------------------- messages and numbering

RULES = rules_from_dict(
    {
        "roles": {"werewolf": 1, "seer": 1, "witch": 1, "guardian": 1, "villager": 2},
        "options": {"talk_timeout": 5, "action_timeout": 5, "first_night_attack": True},
    }
)
NAMES = ("Pat", "Ash", "Bea", "Cal", "Dee", "Eli")


def deal(rules: RuleSet) -> tuple[int, tuple[Role, ...]]:
    """A seed whose deal makes seat 0 (the person) a villager."""
    for seed in range(1000):
        roles = Game(rules, seed, NAMES).roles
        if roles[0] is Role.VILLAGER:
            return seed, roles
    raise AssertionError("no deal makes seat 0 a villager")


Script = Callable[[View, Request], Action]


class Scripted:
    """An AI seat that answers by a script; `pause` seconds before each hidden (night) decision."""

    def __init__(self, script: Script, pause: float = 0.0) -> None:
        self.script = script
        self.pause = pause

    async def act(self, view: View, request: Request) -> Action:
        if self.pause and request.kind in ("attack", "divine", "guard", "cure", "poison"):
            await asyncio.sleep(self.pause)
        return self.script(view, request)


def script(roles: tuple[Role, ...], variant: str) -> Script:
    """Answers under which the public story is the same whatever `variant` changes at night.

    The wolf attacks the second villager, whom the guardian protects: the night is peaceful
    either way. Next day everyone else votes the wolf out and the village wins.
    """
    wolf = roles.index(Role.WEREWOLF)
    prey = next(s for s, r in enumerate(roles) if r is Role.VILLAGER and s != 0)

    def answer(view: View, request: Request) -> Action:
        kind = request.kind
        if kind in ("talk", "whisper"):
            return OVER
        if kind == "vote":
            return Action.choose(wolf if wolf in request.targets else request.targets[0])
        if kind in ("attack", "guard"):
            return Action.choose(prey)
        if kind == "divine":
            targets = sorted(request.targets)
            return Action.choose(targets[-1] if variant == "divine-last" else targets[0])
        if kind == "cure":
            return Action.choose(prey) if variant == "cure" else PASS
        return PASS

    return answer


def make_table(variant: str, rules: RuleSet = RULES, pause: float = 0.0, **kw: Any) -> WebTable:
    seed, roles = deal(rules)
    kinds = ["human"] + ["scripted"] * 5
    table = WebTable("t", rules, NAMES, kinds, seed, **kw)
    answer = script(roles, variant)
    players: list[Any] = [HumanSeat(table, 0)]
    players += [AISeat(table, s, Scripted(answer, pause), "scripted", 0.0) for s in range(1, 6)]
    table.players = players
    return table


async def play(table: WebTable) -> tuple[list[tuple[float, Message]], list[tuple[float, Message]]]:
    """Run `table` with a spectator and the person's tab open; returns what each received, timed.

    The person answers every request at once: says one thing a day, then Over; votes as scripted.
    """
    wolf = table.session.game.roles.index(Role.WEREWOLF)
    watcher = table.connect(None)
    person = table.connect(0)
    got: dict[int, list[tuple[float, Message]]] = {0: [], 1: []}

    async def read(conn: Connection, out: list[tuple[float, Message]], answer: bool) -> None:
        spoken: set[int] = set()
        while True:
            message = await conn.queue.get()
            if message is None:
                return
            out.append((time.monotonic(), message))
            if message["type"] == "game_over":
                return
            if answer and message["type"] == "request":
                reply = legal_answer(message, None if message["day"] in spoken else "Good morning.")
                spoken.add(message["day"])
                if message["kind"] == "vote":
                    reply = {**reply, "action": "choose", "target": wolf}
                table.handle(conn, json.dumps(reply))

    readers = [
        asyncio.create_task(read(watcher, got[0], False)),
        asyncio.create_task(read(person, got[1], True)),
    ]
    await asyncio.wait_for(table.run(), 30)
    await asyncio.wait_for(asyncio.gather(*readers), 5)
    return got[0], got[1]


def frames(received: list[tuple[float, Message]]) -> list[Message]:
    """What a tab received up to the reveal, without the wall-clock deadlines of requests."""
    out = []
    for _, message in received:
        if message["type"] == "game_over":
            break
        out.append({k: v for k, v in message.items() if k != "deadline_ms"})
    return out


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("divine-first", "divine-last"),  # only the seer's target differs
        ("cure", "no-potion"),  # the witch saves the guarded villager, or uses nothing
    ],
)
async def test_games_that_differ_only_in_hidden_events_send_the_same_messages(one: str, other: str) -> None:
    a, b = make_table(one), make_table(other)
    watch_a, person_a = await play(a)
    watch_b, person_b = await play(b)
    assert a.record is not None and b.record is not None
    # The hidden events really differ; the public ones do not.
    assert [e.kind for e in a.record.events if e.audience is None] == [
        e.kind for e in b.record.events if e.audience is None
    ]
    assert [(d.seat, d.kind, d.answer) for d in a.record.decisions] != [
        (d.seat, d.kind, d.answer) for d in b.record.decisions
    ]
    assert a.record.winner == b.record.winner == "village"
    assert frames(watch_a) == frames(watch_b)
    assert frames(person_a) == frames(person_b)
    for got in (frames(watch_a), frames(person_a)):
        events = [m for m in got if m["type"] == "event"]
        assert [m["id"] for m in events] == list(range(len(events)))
        requests = [m["id"] for m in got if m["type"] == "request"]
        assert requests == list(range(len(requests)))
    # The suspicion meter: one frame after every public event but the last (the reveal), to spectators only.
    meters = [m for m in frames(watch_a) if m["type"] == "meter"]
    public_events = [m for m in frames(watch_a) if m["type"] == "event"]
    assert [m["after"] for m in meters] == [0, *range(1, len(public_events))]  # the first on connecting
    assert not [m for m in frames(person_a) if m["type"] == "meter"]
    for m in meters:
        assert len(m["seats"]) == len(NAMES) and all(0 <= s["werewolf"] <= 1 for s in m["seats"])
    over_a, over_b = watch_a[-1][1], watch_b[-1][1]
    assert over_a["type"] == over_b["type"] == "game_over"
    assert over_a["meter"] == over_b["meter"] == meters[-1]["seats"]


async def test_the_meter_would_show_a_difference_that_only_the_seer_saw() -> None:
    """The secrecy test above can fail: the seer's own meter differs between the two variants."""
    a, b = make_table("divine-first"), make_table("divine-last")
    seer = a.session.game.roles.index(Role.SEER)
    readings = []
    for table in (a, b):
        await play(table)
        record = table.record
        assert record is not None
        readings.append(meter(view_at(record.events, record.rules, record.names, len(record.events) - 1, seer)))
    assert readings[0] != readings[1]


async def test_a_night_lasts_night_min_however_many_hidden_decisions_it_took() -> None:
    # Without the cure used, the witch is asked a second time (poison): one more hidden decision.
    rules = RULES.model_copy(update={"options": RULES.options.model_copy(update={"witch_both_same_night": False})})
    pause = 0.3

    async def night_length(variant: str, night_min: float) -> tuple[float, float]:
        table = make_table(variant, rules, pause, night_min=night_min)
        watcher, person = await play(table)
        lengths = []
        for got in (watcher, person):
            starts = [t for t, m in got if m["type"] == "event" and m["kind"] == "phase_started"]
            phases = [m["data"]["phase"] for _, m in got if m["type"] == "event" and m["kind"] == "phase_started"]
            night = phases.index("night")
            lengths.append(starts[night + 1] - starts[night])
        return lengths[0], lengths[1]

    # Unpadded, the night's length gives the witch's second decision away ...
    short, long = await night_length("cure", 0.0), await night_length("no-potion", 0.0)
    for s, g in zip(short, long, strict=True):
        assert g - s > pause * 0.7, (short, long)
    # ... padded, both nights last night_min.
    night_min = 3 * pause + 0.6
    short, long = await night_length("cure", night_min), await night_length("no-potion", night_min)
    for length in (*short, *long):
        assert night_min - 0.01 <= length < night_min + 0.2, (short, long)
    for s, g in zip(short, long, strict=True):
        assert abs(g - s) < 0.15, (short, long)


# ----------------------------------------------------------------------------- manners

OPEN = Manner(pace="fast", emotion="suspicious", expression="narrowed", gesture="point")
PACK = Manner(pace="slow", pitch="low", emotion="cheerful", expression="smile", gesture="nod")
"""The manner of public talk, and one that only whispers use (none of its values is in `OPEN`)."""


def before_the_end(conn: Connection) -> list[Message]:
    out = []
    while not conn.queue.empty():
        message = conn.queue.get_nowait()
        if message is None or message["type"] == "game_over":
            break
        out.append(message)
    return out


async def test_a_whispers_manner_reaches_the_pack_alone_and_public_talks_reaches_everyone() -> None:
    rules = get_preset("guardian7")
    n = rules.n_players
    table = WebTable("t", rules, AI_NAMES[:n], ["scripted"] * n, 5)
    said: set[tuple[int, int, str]] = set()

    def answer(view: View, request: Request) -> Action:
        if request.kind in ("talk", "whisper"):
            if (view.seat, request.day, request.kind) in said:
                return OVER
            said.add((view.seat, request.day, request.kind))
            if request.kind == "whisper":
                return Action.speak("Quietly now: the seer first.", PACK)
            return Action.speak("Somebody here is lying.", OPEN)
        return Action.choose(min(request.targets)) if request.targets else PASS

    table.players = [AISeat(table, s, Scripted(answer), "scripted", 0.0) for s in range(n)]
    watcher = table.connect(None)
    seats = [table.connect(s) for s in range(n)]
    await asyncio.wait_for(table.run(), 30)
    record = table.record
    assert record is not None
    wolves = {s for s, r in enumerate(record.roles) if r is Role.WEREWOLF}
    talks = [e for e in record.events if isinstance(e, Talk) and not (e.over or e.skip)]
    assert {(e.channel, e.manner) for e in talks} == {("talk", OPEN), ("whisper", PACK)}  # both are in the record
    pack_only = {"slow", "low", "cheerful", "smile", "nod"}
    for seat, conn in [(None, watcher), *enumerate(seats)]:
        got = before_the_end(conn)
        manners = [m for m in got if m["type"] == "manner"]
        talk_events = [m["data"] for m in got if m["type"] == "event" and m["kind"] == "talk" and "manner" in m["data"]]
        channels = {m["channel"]: m["manner"] for m in manners}
        assert channels.get("talk") == OPEN.to_dict(), seat
        assert {(d["channel"], Manner.read(d["manner"])) for d in talk_events} >= {("talk", OPEN)}
        # each utterance's manner comes before its words, to the same tabs
        for m in manners:
            words = [i for i, w in enumerate(got) if w["type"] == "speech" and w["utterance_id"] == m["utterance_id"]]
            assert words and got.index(m) < words[0]
        if seat in wolves:
            assert channels.get("whisper") == PACK.to_dict()
            assert ("whisper", PACK) in {(d["channel"], Manner.read(d["manner"])) for d in talk_events}
        else:
            assert "whisper" not in channels, seat
            shown = {v for m in manners for v in m["manner"].values()}
            shown |= {v for d in talk_events for v in d["manner"].values()}
            assert not shown & pack_only, seat
            assert not any(d["channel"] == "whisper" for d in talk_events)


# ----------------------------------------------------------------------------- tokens in the server's log


class Lines(logging.Handler):
    """Keeps every formatted line of the loggers it is attached to."""

    def __init__(self, formatter: logging.Formatter) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(formatter)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@contextmanager
def server_with_its_log(app: Any) -> Iterator[tuple[str, list[str]]]:
    """Serve `app` as `lycan serve` does (uvicorn's own logging at level info); yields (host:port, log lines)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="info", ws="websockets-sansio", ws_max_size=1 << 20, lifespan="on")
    access = Lines(AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False))
    errors = Lines(DefaultFormatter("%(levelprefix)s %(message)s", use_colors=False))
    logging.getLogger("uvicorn.access").addHandler(access)
    logging.getLogger("uvicorn.error").addHandler(errors)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.time() + 10
        while not server.started:
            assert time.time() < deadline and thread.is_alive(), "the test server did not start"
            time.sleep(0.02)
        lines = access.lines
        yield f"127.0.0.1:{port}", lines
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        logging.getLogger("uvicorn.access").removeHandler(access)
        logging.getLogger("uvicorn.error").removeHandler(errors)
        lines.extend(errors.lines)


def test_seat_tokens_never_reach_the_server_log() -> None:
    app = create_app(None, allow_seed=True, night_wait=0, ai_delay=0)
    with server_with_its_log(app) as (host, lines):
        table = httpx.post(f"http://{host}/api/tables", json={"preset": "aiwolf5", "humans": 1, "timeout": 30}).json()
        token = table["seats"][0]["token"]
        assert httpx.get(f"http://{host}{table['seats'][0]['link']}").status_code == 200
        assert httpx.get(f"http://{host}/tables/{table['table']}/seats/not-{token}").status_code == 404
        with ws_connect(f"ws://{host}/ws/tables/{table['table']}/seats/{token}") as ws:
            assert json.loads(ws.recv(5))["type"] == "hello"
        url = f"http://{host}/api/tables/{table['table']}/seats/{token}/transcribe"
        assert httpx.post(url, content=b"x", headers={"content-type": "audio/wav"}).status_code == 503
        time.sleep(0.2)
    logged = "\n".join(lines)
    assert "WebSocket /ws/tables/" in logged and "/transcribe" in logged, logged  # the log did capture them
    assert token not in logged
    assert f"/ws/tables/{table['table']}/seats/<token>" in logged
    assert f"GET /tables/{table['table']}/seats/<token>" in logged


def test_redact_replaces_the_token_of_every_seat_path() -> None:
    from lycan.web.app import redact

    assert redact("/tables/abc/seats/s3cr3t-_x") == "/tables/abc/seats/<token>"
    line = '"WebSocket /ws/tables/abc/seats/s3cr3t?x=1" 403'
    assert redact(line) == '"WebSocket /ws/tables/abc/seats/<token>?x=1" 403'
    assert redact("POST /api/tables/abc/seats/s3cr3t/transcribe") == "POST /api/tables/abc/seats/<token>/transcribe"
    assert redact("/tables/abc/watch") == "/tables/abc/watch"


def test_a_game_with_a_fresh_seed_is_saved_with_that_seed(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> None:
    from lycan.store import GameStore

    db = tmp_path / "games.db"
    app = create_app(db, allow_seed=True, night_wait=0, ai_delay=0, night_min=0)
    with TestClient(app) as client:
        table = client.post("/api/tables", json={"preset": "aiwolf5", "humans": 0, "timeout": 3, "ai_delay": 0}).json()
        with client.websocket_connect(f"/ws/tables/{table['table']}/watch") as watcher:
            while (message := watcher.receive_json())["type"] != "game_over":
                pass
        seed = app.state.tables.by_id[table["table"]].seed
    assert seed >= 2**64  # fresh seeds have 128 bits
    assert not [r for r in caplog.records if "could not save" in r.getMessage()], caplog.text
    with GameStore(db) as store:
        assert store.get(message["game_id"]).seed == seed
