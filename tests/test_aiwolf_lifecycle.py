"""The server's life around games: reconnecting agents, the last game, idle connections, seeds."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
import time
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")
common_client = pytest.importorskip("aiwolf_nlp_common.client")
from aiwolf_nlp_common.packet import Request as PReq  # noqa: E402
from aiwolf_nlp_common.packet import Status  # noqa: E402
from websockets.asyncio.client import connect as ws_connect  # noqa: E402

from lycan.agents import RandomAgent  # noqa: E402
from lycan.aiwolf import server as server_module  # noqa: E402
from lycan.aiwolf.client import AiwolfClient, ProtocolError, run_client  # noqa: E402
from lycan.aiwolf.server import AiwolfServer, serve  # noqa: E402
from lycan.rules.ruleset import ConfigError  # noqa: E402

FAST = {"action_timeout": 2.0, "response_timeout": 2.0, "acceptable_timeout": 0.2}


# ---------------------------------------------------------------- reconnecting agents
async def test_our_client_plays_until_the_server_stops() -> None:
    async with AiwolfServer("aiwolf5", seed=30, max_games=3, **FAST) as server:
        clients = [AiwolfClient(server.url, RandomAgent(i), "loop", i + 1) for i in range(5)]
        results = await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 60)
        records = await server.wait_done(timeout=10)
    assert len(records) == 3 and len({r.game_id for r in records}) == 3
    for client, games in zip(clients, results, strict=True):
        assert len(games) == 3 and all(g.finished for g in games)
        assert "started its last game" in client.stopped or "cannot reach" in client.stopped


async def test_our_client_stops_after_the_games_asked_for() -> None:
    async with AiwolfServer("aiwolf5", seed=31, **FAST) as server:
        results = await asyncio.wait_for(
            asyncio.gather(*(run_client(server.url, RandomAgent(i), "two", i + 1, games=2) for i in range(5))), 60
        )
        records = await server.wait_for_games(2, timeout=10)
        await asyncio.sleep(0.2)
        assert server.unplaced == 0  # nobody came back for a third game
    assert [len(g) for g in results] == [2] * 5 and len(records) == 2
    with pytest.raises(ValueError, match="at least 1"):
        await run_client("ws://127.0.0.1:9/ws", RandomAgent(0), games=0)


async def test_aiwolf_connect_plays_the_games_asked_for() -> None:
    from typer.testing import CliRunner

    from lycan.cli import app

    async with AiwolfServer("aiwolf5", seed=32, **FAST) as server:
        others = [run_client(server.url, RandomAgent(i), "cli", i + 2, games=2) for i in range(4)]
        args = ["aiwolf-connect", server.url, "--agent", "random", "--team", "cli", "--index", "1", "--games", "2"]
        result, *_ = await asyncio.wait_for(
            asyncio.gather(asyncio.to_thread(CliRunner().invoke, app, args), *others), 60
        )
    assert result.exit_code == 0, result.output
    assert "played 2 game(s) as cli1" in result.output and "stopped" not in result.output


def kit_agent(url: str, name: str, seed: int, stop: threading.Event, problems: list[str]) -> None:
    """A contest agent as the official starter kit runs it: connect again after every game."""
    rng = random.Random(seed)
    while not stop.is_set():
        client = common_client.Client(url, None)
        try:
            client.connect()
        except Exception:  # the kit waits and tries again: the server is gone or full
            time.sleep(0.05)
            continue
        try:
            info = None
            while True:
                packet = client.receive()
                info = packet.info or info
                if packet.request == PReq.NAME:
                    client.send(name)
                elif packet.request in (PReq.TALK, PReq.WHISPER):
                    client.send("Over")
                elif packet.request in (PReq.VOTE, PReq.DIVINE, PReq.GUARD, PReq.ATTACK):
                    assert info is not None
                    alive = [a for a, s in info.status_map.items() if s == Status.ALIVE and a != info.agent]
                    client.send(rng.choice(alive))
                elif packet.request == PReq.FINISH:
                    break
        except Exception as err:
            problems.append(f"{name}: {type(err).__name__}: {err}")
        finally:
            client.close()


async def test_serve_closes_cleanly_after_its_last_game(caplog: pytest.LogCaptureFixture) -> None:
    """`aiwolf-serve --games N` with agents that reconnect: no error for anyone, and a prompt exit."""
    caplog.set_level(logging.WARNING, logger="lycan.aiwolf.server")
    ready = asyncio.Event()
    urls: list[str] = []

    def on_ready(server: AiwolfServer) -> None:
        urls.append(server.url)
        ready.set()

    serving = asyncio.create_task(
        serve("aiwolf5", port=0, games=2, seed=33, on_ready=on_ready, action_timeout=2.0, response_timeout=2.0)
    )
    await ready.wait()
    stop = threading.Event()
    problems: list[str] = []
    agents = [
        threading.Thread(target=kit_agent, args=(urls[0], f"kit{i}", i, stop, problems), daemon=True)
        for i in range(1, 6)
    ]
    for agent in agents:
        agent.start()
    try:
        records = await asyncio.wait_for(serving, 30)
        ended = time.monotonic()
        await asyncio.sleep(0.3)  # the agents try to come back for a third game
    finally:
        stop.set()
        await asyncio.to_thread(lambda: [a.join(5) for a in agents])
    assert len(records) == 2 and all(r.faults == 0 and not r.meta["errored"] for r in records)
    assert not problems  # no agent saw a closed connection where it expected a packet
    assert not [r for r in caplog.records if "errored" in r.getMessage()]
    assert time.monotonic() - ended < 2


# ---------------------------------------------------------------- idle connections
async def until(condition: Any, timeout: float = 5.0) -> None:
    """Wait until `condition()` holds (the server handles closes in its own tasks)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


class Gated(RandomAgent):
    """A random agent that answers nothing until the gate opens."""

    def __init__(self, seed: int, gate: asyncio.Event) -> None:
        super().__init__(seed)
        self.gate = gate

    async def act(self, view: Any, request: Any) -> Any:
        await self.gate.wait()
        return await super().act(view, request)


async def named(url: str, name: str) -> Any:
    """A raw connection that answers NAME and then just waits in the lobby."""
    ws = await ws_connect(url, ping_interval=None)
    assert json.loads(await ws.recv()) == {"request": "NAME"}
    await ws.send(name)
    return ws


async def test_connections_not_in_a_game_are_capped() -> None:
    async with AiwolfServer("aiwolf5", seed=34, max_waiting=5, **FAST) as server:
        lobby = [await named(server.url, f"{team}1") for team in "abcde"]  # five teams: no self-match game
        await asyncio.sleep(0.1)
        assert server.unplaced == 5
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            await ws_connect(server.url, ping_interval=None)
        assert refused.value.response.status_code == 503
        assert b"too many agents are waiting" in refused.value.response.body
        with pytest.raises(ProtocolError, match=r"refused the connection \(HTTP 503\): too many agents are waiting"):
            await run_client(server.url, RandomAgent(0), "late", 1)
        await lobby[0].close()
        await until(lambda: server.unplaced == 4)
        again = await named(server.url, "f1")  # room again
        for ws in [*lobby[1:], again]:
            await ws.close()
        await until(lambda: server.unplaced == 0)
        # seats placed in a game no longer count: while a table plays, the lobby fills up again
        gate = asyncio.Event()
        table = [asyncio.create_task(run_client(server.url, Gated(i, gate), "z", i + 1, games=1)) for i in range(5)]
        await until(lambda: server.unplaced == 0 and bool(server.records or server._tasks))
        lobby = [await named(server.url, f"{team}1") for team in "abcde"]
        assert server.unplaced == 5
        gate.set()
        assert all(len(g) == 1 for g in await asyncio.wait_for(asyncio.gather(*table), 30))
        for ws in lobby:
            await ws.close()
    with pytest.raises(ConfigError, match="max_waiting"):
        AiwolfServer("aiwolf5", max_waiting=4)


async def test_a_connection_that_never_answers_name_is_closed() -> None:
    async with AiwolfServer("aiwolf5", seed=35, name_timeout=0.3, **FAST) as server:
        started = time.monotonic()
        async with ws_connect(server.url, ping_interval=None) as ws:
            assert json.loads(await ws.recv()) == {"request": "NAME"}
            with pytest.raises(websockets.exceptions.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            assert ws.close_code == 1008 and ws.close_reason == "no answer to NAME within 0.3 s"
        assert time.monotonic() - started < 2
        await until(lambda: server.unplaced == 0)


# ---------------------------------------------------------------- seeds
async def test_live_games_take_fresh_secret_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = [2**127 + 987_654_321_123, 2**126 + 55_555_555_555]
    handed: list[int] = []

    def fake_fresh_seed() -> int:
        handed.append(drawn[len(handed)])
        return handed[-1]

    monkeypatch.setattr(server_module, "fresh_seed", fake_fresh_seed)
    packets: list[str] = []
    async with AiwolfServer("aiwolf5", **FAST) as server:
        for game in range(2):
            clients = [
                AiwolfClient(
                    server.url, RandomAgent(i), f"s{game}", i + 1, on_packet=lambda p: packets.append(json.dumps(p))
                )
                for i in range(5)
            ]
            await asyncio.wait_for(asyncio.gather(*(c.run(1) for c in clients)), 30)
        records = await server.wait_for_games(2, timeout=10)
    assert sorted(r.seed for r in records) == sorted(drawn) and handed == drawn
    sent = "\n".join(packets)
    for seed in drawn:
        for form in (str(seed), f"{seed:x}", f"{seed:X}", str(seed % 2**64), str(seed % 2**32)):
            assert form not in sent
    for record in records:
        assert str(record.seed) not in record.game_id and f"{record.seed:x}" not in record.game_id.lower()
