"""What a connection may hold on the AIWolf server: lobby places, teams per address, memory, message size.

An outside test held `aiwolf-serve` with 256 connections that answered NAME with different team
names (no team ever had N members, and the lobby refused everyone else), each able to leave 64
frames of 1 MiB behind. These tests play that attack scaled down, with real connections on
127.0.0.1 (and 127.0.0.2 for a second address).
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import time
import tracemalloc
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import ClientConnection  # noqa: E402
from websockets.asyncio.client import connect as ws_connect  # noqa: E402

from lycan.agents import RandomAgent  # noqa: E402
from lycan.aiwolf.client import run_client  # noqa: E402
from lycan.aiwolf.server import AiwolfServer  # noqa: E402
from lycan.engine.events import Talk  # noqa: E402
from lycan.engine.record import GameRecord  # noqa: E402
from lycan.rules.ruleset import ConfigError  # noqa: E402

FAST = {"action_timeout": 2.0, "response_timeout": 2.0, "acceptable_timeout": 0.2}
ELSEWHERE = ("127.0.0.2", 0)  # a second client address (all of 127.0.0.0/8 is loopback on Linux)
TRY_LATER = 1013
POLICY = 1008
TOO_BIG = 1009


async def until(condition: Any, timeout: float = 5.0) -> None:
    """Wait until `condition()` holds (the server handles connections in its own tasks)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def named(url: str, name: str, **kwargs: Any) -> ClientConnection:
    """A raw connection that answers NAME with `name` and then only waits."""
    ws = await ws_connect(url, ping_interval=None, **kwargs)
    assert json.loads(await ws.recv()) == {"request": "NAME"}
    await ws.send(name)
    return ws


async def closed_with(ws: ClientConnection) -> tuple[int | None, str | None]:
    """The close code and reason the server gave the connection (waiting for it to close)."""
    await asyncio.wait_for(ws.wait_closed(), 5)
    return ws.close_code, ws.close_reason


async def still_waiting(ws: ClientConnection, seconds: float = 0.3) -> None:
    """The server keeps the connection open (and sends it nothing) for `seconds`."""
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(ws.recv(), seconds)


async def honest_game(server: AiwolfServer, team: str) -> GameRecord:
    """Five honest agents of one team connect (now, while the lobby is held) and play one game."""
    results = await asyncio.wait_for(
        asyncio.gather(*(run_client(server.url, RandomAgent(i), team, i + 1, games=1) for i in range(5))), 30
    )
    assert [len(games) for games in results] == [1] * 5
    record = (await server.wait_for_games(1, timeout=10))[0]
    assert sorted(record.agents) == [f"{team}{i}" for i in range(1, 6)]
    assert record.faults == 0 and not record.meta["errored"]
    return record


# ---------------------------------------------------------------- a lobby held by teams that never fill
async def test_a_lobby_held_by_distinct_teams_gives_its_oldest_places_to_new_agents() -> None:
    """The reported hold: every place taken by a team of one. Past `lobby_timeout`, the oldest give way."""
    async with AiwolfServer("aiwolf5", seed=60, max_waiting=8, lobby_timeout=0.5, **FAST) as server:
        hold = [await named(server.url, f"hold{chr(97 + i)}1") for i in range(8)]  # 8 teams of one agent
        await until(lambda: server.unplaced == 8)
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:  # within lobby_timeout: full
            await ws_connect(server.url, ping_interval=None)
        assert refused.value.response.status_code == 503
        assert b"too many agents are waiting" in refused.value.response.body
        await asyncio.sleep(0.5)
        await honest_game(server, "honest")
        reason = "the lobby is full and no game formed for you within 0.5 s; connect again later"
        for ws in hold[:5]:  # one place for each honest agent, the oldest first
            assert await closed_with(ws) == (TRY_LATER, reason)
        for ws in hold[5:]:
            await still_waiting(ws, 0.05)
        assert server.unplaced == 3
        for ws in hold[5:]:
            await ws.close()


async def test_one_address_filling_the_lobby_gives_way_at_once() -> None:
    """An address holding the most places gives its oldest to another address, before any timeout."""
    async with AiwolfServer("aiwolf5", seed=61, max_waiting=10, **FAST) as server:
        assert server.lobby_timeout >= 30  # the time rule plays no part here
        hold = [await named(server.url, f"far{chr(97 + i)}1", local_addr=ELSEWHERE) for i in range(10)]
        await until(lambda: server.unplaced == 10)
        await honest_game(server, "near")
        reason = "the lobby is full and your address holds the most places in it; connect again later"
        for ws in hold[:5]:
            assert await closed_with(ws) == (TRY_LATER, reason)
        for ws in hold[5:]:
            await still_waiting(ws, 0.05)
        for ws in hold[5:]:
            await ws.close()


# ---------------------------------------------------------------- teams per address
async def test_teams_waiting_from_one_address_are_bounded() -> None:
    async with AiwolfServer("aiwolf5", seed=62, max_teams_per_address=2, trusted_networks=(), **FAST) as server:
        alpha = await named(server.url, "alpha1")
        beta = await named(server.url, "beta1")
        await until(lambda: server.unplaced == 2)
        gamma = await named(server.url, "gamma1")
        assert await closed_with(gamma) == (
            POLICY,
            "agents of 2 teams already wait from your address, the most this server takes from one",
        )
        alpha2 = await named(server.url, "alpha2")  # a team already waiting: more of it are welcome
        away = await named(server.url, "gamma1", local_addr=ELSEWHERE)  # another address: its own bound
        for ws in (alpha, beta, alpha2, away):
            await still_waiting(ws)
        await beta.close()  # once a team leaves, another may take its turn
        await until(lambda: server.unplaced == 3)
        delta = await named(server.url, "delta1")
        await still_waiting(delta)
        assert server.unplaced == 4
        for ws in (alpha, alpha2, away, delta):
            await ws.close()
        # the distinct-teams hold from one address: the next team from elsewhere still plays
        hold = [await named(server.url, f"hold{chr(97 + i)}1", local_addr=ELSEWHERE) for i in range(6)]
        codes = [(await closed_with(ws))[0] for ws in hold[2:]]
        assert codes == [POLICY] * 4
        await honest_game(server, "honest")
        for ws in hold[:2]:
            await still_waiting(ws, 0.05)
            await ws.close()


async def test_loopback_clients_are_not_bound_by_team_by_default() -> None:
    """The operator's own agents (or a local proxy) may run any number of teams on one machine."""
    async with AiwolfServer("aiwolf5", seed=63, **FAST) as server:
        assert server.max_teams_per_address is not None
        lobby = [await named(server.url, f"team{chr(97 + i)}1") for i in range(server.max_teams_per_address + 2)]
        for ws in lobby:
            await still_waiting(ws, 0.05)
        assert server.unplaced == len(lobby)
        for ws in lobby:
            await ws.close()


# ---------------------------------------------------------------- memory and message size
FLOODER = r"""
import asyncio, json, sys
import websockets
from websockets.asyncio.client import connect

async def main(url, k, size, frames):
    conns = []
    for i in range(k):
        ws = await connect(url, ping_interval=None)
        await ws.recv()
        await ws.send(f"flood{chr(97 + i)}1")
        conns.append(ws)
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    print("ready", flush=True)
    frame = "\U0001f43a" * (size // 4) + "x" * (size % 4)  # size bytes; a str of 4 bytes a character
    while command := (await stdin.readline()).decode().strip():
        if command == "flood":
            async def flood(ws):
                for _ in range(frames):
                    await ws.send(frame)
                await (await ws.ping())  # the server has read every frame before this ping
            await asyncio.gather(*(flood(ws) for ws in conns))
            print("sent", flush=True)
        elif command == "oversize":
            ws = conns.pop(0)
            await ws.send(frame + "x")
            try:  # the server closes it: recv raises; a time-out leaves no close code, and the test fails
                await asyncio.wait_for(ws.recv(), 5)
            except (websockets.exceptions.ConnectionClosed, TimeoutError):
                pass
            print(json.dumps([ws.close_code, ws.close_reason]), flush=True)
    for ws in conns:
        await ws.close()

asyncio.run(main(sys.argv[1], *map(int, sys.argv[2:])))
"""


async def test_a_waiting_connection_holds_a_few_kib() -> None:
    """Connections in the lobby send many of the largest frames allowed: the server keeps none of them.

    The flooding agents run in another process, so that tracemalloc here sees the server alone.
    """
    connections, frames = 8, 1000
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        async with AiwolfServer("aiwolf5", seed=64, **FAST) as server:
            size = server.max_lobby_message_size
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                FLOODER,
                server.url,
                str(connections),
                str(size),
                str(frames),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            assert proc.stdin is not None and proc.stdout is not None

            async def say(command: str) -> str:
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(command.encode() + b"\n")
                await proc.stdin.drain()
                return (await asyncio.wait_for(proc.stdout.readline(), 20)).decode().strip()

            try:
                assert (await asyncio.wait_for(proc.stdout.readline(), 20)).strip() == b"ready"
                await until(lambda: server.unplaced == connections)
                await asyncio.sleep(0.1)
                gc.collect()
                before = tracemalloc.get_traced_memory()[0]
                assert await say("flood") == "sent"  # 8 x 1000 frames of 512 bytes: 4 MB in all
                await asyncio.sleep(0.1)
                gc.collect()
                held = (tracemalloc.get_traced_memory()[0] - before) / connections
                assert held < 12 * 1024, f"{held / 1024:.1f} KiB held per waiting connection"
                # one byte over the limit closes that connection, with a reason; the server goes on
                code, reason = json.loads(await say("oversize"))
                assert code == TOO_BIG and reason == f"frame with {size + 1} bytes exceeds limit of {size} bytes"
                await until(lambda: server.unplaced == connections - 1)
                late = await named(server.url, "late1")
                await still_waiting(late, 0.05)
                await late.close()
            finally:
                if proc.returncode is None:
                    proc.stdin.close()
                    await asyncio.wait_for(proc.wait(), 10)
    finally:
        if started:
            tracemalloc.stop()


async def test_an_agent_in_a_game_may_send_one_long_utterance_but_no_more() -> None:
    """In a game the limit is `max_message_size`: a message of that size is an utterance, one byte more
    closes that agent's connection (the game records it as errored); the server plays on."""

    async def loud(url: str, limit: int) -> tuple[int | None, str | None]:
        """An agent whose first utterance is `limit` bytes long and whose second is one byte longer."""
        talks = 0
        async with ws_connect(url, ping_interval=None) as ws:
            try:
                async for message in ws:
                    packet = json.loads(message)
                    request = packet["request"]
                    if request == "NAME":
                        await ws.send("loud1")
                    elif request in ("TALK", "WHISPER"):
                        talks += 1
                        await ws.send("w" * (limit + talks - 1))
                    elif request in ("VOTE", "DIVINE", "GUARD", "ATTACK"):
                        me = packet["info"]["agent"]
                        alive = [a for a, s in packet["info"]["status_map"].items() if s == "ALIVE" and a != me]
                        await ws.send(alive[0])
            except websockets.exceptions.ConnectionClosed:
                pass
            return ws.close_code, ws.close_reason

    async with AiwolfServer("aiwolf5", seed=65, **FAST) as server:
        limit = server.max_message_size
        assert limit > server.max_lobby_message_size
        others = [run_client(server.url, RandomAgent(i), "loud", i + 2, games=1) for i in range(4)]
        closed, *_ = await asyncio.wait_for(asyncio.gather(loud(server.url, limit), *others), 30)
        record = (await server.wait_for_games(1, timeout=10))[0]
        assert closed == (TOO_BIG, f"frame with {limit + 1} bytes exceeds limit of {limit} bytes")
        seat = record.agents.index("loud1")
        said = [e.text for e in record.events if isinstance(e, Talk) and e.actor == seat]
        assert said[0] == "w" * limit
        assert list(record.meta["errored"]) == [record.names[seat]]


def test_limits_that_cannot_work_are_refused() -> None:
    with pytest.raises(ConfigError, match="NAME answer"):
        AiwolfServer("aiwolf5", max_lobby_message_size=100)
    with pytest.raises(ConfigError, match="max_message_size"):
        AiwolfServer("aiwolf5", max_message_size=1000, max_lobby_message_size=2000)
    with pytest.raises(ConfigError, match="max_teams_per_address"):
        AiwolfServer("aiwolf5", max_teams_per_address=0)
    with pytest.raises(ConfigError, match="lobby_timeout"):
        AiwolfServer("aiwolf5", lobby_timeout=-1)
    with pytest.raises(ConfigError, match="trusted_networks"):
        AiwolfServer("aiwolf5", trusted_networks=("not a network",))


def test_talk_from_a_remote_agent_is_checked_like_talk_from_a_browser() -> None:
    from lycan.aiwolf.packets import parse_answer
    from lycan.engine.actions import Failure, Request

    request = Request(id=0, seat=0, kind="talk", day=1)
    names = ("Agent[01]", "Agent[02]")
    for bad, why in (
        ("hi \ud800", "lone surrogate"),
        ("\x1b[2J wiped", "control character"),
        ("\u202eeer", "direction"),
    ):
        answer = parse_answer(bad, request, names)
        assert isinstance(answer, Failure) and why in answer.reason, answer
    spoken = parse_answer("Cafe\u0301 @Agent[02]  now", request, names)
    assert not isinstance(spoken, Failure) and spoken.text == "Café @Agent[02] now"
