"""Misbehaving agents: the server survives, records the fault, and other games are unaffected."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect as ws_connect  # noqa: E402

from lycan.agents import RandomAgent  # noqa: E402
from lycan.aiwolf.client import AiwolfClient, ProtocolError, run_client  # noqa: E402
from lycan.aiwolf.server import AiwolfServer  # noqa: E402
from lycan.engine.actions import Failure  # noqa: E402
from lycan.engine.events import Fault, GameOver  # noqa: E402
from lycan.engine.record import GameRecord  # noqa: E402

# Generous enough that a loaded CI machine (two test workers on two cores) never misses one by accident:
# a run with 0.3 s in all once faulted every seat of a game.
FAST = {"action_timeout": 0.6, "response_timeout": 2.0, "acceptable_timeout": 0.4}
ACTIONS = ("TALK", "WHISPER", "VOTE", "DIVINE", "GUARD", "ATTACK")


class Dropped(Exception):
    """Raised by a client that walks away in the middle of a game."""


class Misbehaving(AiwolfClient):
    """Our client with one fault switched on."""

    def __init__(self, url: str, mode: str, team: str, index: int) -> None:
        super().__init__(url, RandomAgent(index), team, index)
        self.mode = mode
        self.late = 0

    async def handle(self, raw: str) -> str | None:
        kind = json.loads(raw).get("request")
        if self.mode == "silent" and self.game is not None:
            await super().handle(raw)
            return None  # never answers anything, not even the NAME check
        if self.mode == "late" and kind in ACTIONS and self.late < 2:
            self.late += 1
            await asyncio.sleep(1.4)  # past the action timeout; answers the NAME check in time
        if self.mode == "disconnect" and kind == "DAILY_INITIALIZE" and json.loads(raw)["info"]["day"] == 1:
            raise Dropped
        reply = await super().handle(raw)
        if self.mode == "unknown" and kind in ("VOTE", "DIVINE", "GUARD", "ATTACK"):
            return "Agent[99]"
        if self.mode == "garbage" and kind in ACTIONS:
            return "\x00}{ ]]garbage" if kind in ("VOTE", "DIVINE", "ATTACK", "GUARD") else reply
        return reply


async def garbage_sender(url: str) -> None:
    """Answers in time, but also sends unsolicited text and binary frames after every packet."""
    async with ws_connect(url, ping_interval=None) as ws:
        async for message in ws:
            packet = json.loads(message)
            if packet["request"] == "NAME":
                await ws.send("junk5")
                continue
            if packet["request"] in ("TALK", "WHISPER"):
                await ws.send("Over")
            elif packet["request"] in ACTIONS:
                names = [n for n, s in packet["info"]["status_map"].items() if s == "ALIVE"]
                await ws.send(names[0] if names[0] != packet["info"]["agent"] else names[1])
            await ws.send(b"\xff\xfe binary junk")
            await ws.send("{not json")


def bad_seat(record: GameRecord, name: str) -> int:
    return record.agents.index(name)


async def play_pair(mode: str) -> tuple[GameRecord, GameRecord]:
    """Game A: four good agents and one misbehaving (team bad); game B: five good ones, at once."""
    async with AiwolfServer("aiwolf5", seed=40, **FAST) as server:
        team = "junk" if mode == "junk" else "bad"
        bad = garbage_sender(server.url) if mode == "junk" else Misbehaving(server.url, mode, team, 5).run(1)
        tasks = [
            *(run_client(server.url, RandomAgent(i), team, i + 1, games=1) for i in range(4)),
            bad,
            *(run_client(server.url, RandomAgent(50 + i), "good", i + 1, games=1) for i in range(5)),
        ]
        results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
        records = await server.wait_for_games(2, timeout=5)
    for r in results:
        assert not isinstance(r, BaseException) or isinstance(r, Dropped), r
    by_team = {rec.agents[0].rstrip("0123456789"): rec for rec in records}
    good = by_team["good"]
    assert good.faults == 0 and good.winner in ("village", "werewolf") and "aborted" not in good.meta
    return by_team[team], good


@pytest.mark.parametrize("mode", ["silent", "disconnect"])
async def test_errored_agent_ends_the_game(mode: str) -> None:
    record, _ = await play_pair(mode)
    seat = bad_seat(record, "bad5")
    assert record.winner == "draw"
    assert record.meta["aborted"].startswith("aborted: 1 agent(s) errored")
    assert list(record.meta["errored"]) == [record.names[seat]]
    over = record.events[-1]
    assert isinstance(over, GameOver) and over.reason == record.meta["aborted"]
    faults = [e for e in record.events if isinstance(e, Fault) and e.seat == seat]
    assert faults and "errored" in faults[0].reasons[0]


async def test_late_answers_fail_only_that_request() -> None:
    record, _ = await play_pair("late")
    seat = bad_seat(record, "bad5")
    assert "aborted" not in record.meta and not record.meta["errored"]
    assert record.winner in ("village", "werewolf")
    missed = [d for d in record.decisions if d.seat == seat and isinstance(d.answer, Failure)]
    assert len(missed) == 2 and all("no answer within" in d.answer.reason for d in missed)  # type: ignore[union-attr]
    faults = [e for e in record.events if isinstance(e, Fault)]
    assert [f.seat for f in faults] == [seat]


@pytest.mark.parametrize("mode", ["unknown", "garbage"])
async def test_unusable_targets_fall_back(mode: str) -> None:
    record, _ = await play_pair(mode)
    seat = bad_seat(record, "bad5")
    assert "aborted" not in record.meta and record.winner in ("village", "werewolf")
    faults = [e for e in record.events if isinstance(e, Fault)]
    assert faults and {f.seat for f in faults} == {seat}
    assert all("names no agent" in f.reasons[0] for f in faults)


async def test_unsolicited_and_binary_frames_are_ignored() -> None:
    record, _ = await play_pair("junk")
    assert record.winner in ("village", "werewolf")
    assert "aborted" not in record.meta and not record.meta["errored"]
    # junk that arrives before an answer is taken as that answer: only its sender may be faulted
    assert {e.seat for e in record.events if isinstance(e, Fault)} <= {bad_seat(record, "junk5")}


async def test_one_errored_agent_of_thirteen_plays_on() -> None:
    async with AiwolfServer("aiwolf13", seed=7, **FAST) as server:
        tasks = [run_client(server.url, RandomAgent(i), "big", i + 1, games=1) for i in range(12)]
        tasks.append(Misbehaving(server.url, "silent", "big", 13).run(1))
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        record = (await server.wait_for_games(1, timeout=5))[0]
    seat = bad_seat(record, "big13")
    assert record.winner in ("village", "werewolf") and "aborted" not in record.meta
    assert list(record.meta["errored"]) == [record.names[seat]]
    assert sum(1 for e in record.events if isinstance(e, Fault) and e.seat == seat) >= 2


async def test_bad_connections_do_not_hurt_the_server() -> None:
    async with AiwolfServer("aiwolf5", seed=1, name_timeout=0.3, **{**FAST, "response_timeout": 1.0}) as server:
        with pytest.raises(ProtocolError):
            await run_client(server.url.replace("/ws", "/elsewhere"), RandomAgent(0))
        async with ws_connect(server.url, ping_interval=None) as ws:  # never answers NAME
            assert json.loads(await ws.recv()) == {"request": "NAME"}
            with pytest.raises(websockets.exceptions.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 2)
        async with ws_connect(server.url, ping_interval=None) as ws:  # an empty name is refused
            await ws.recv()
            await ws.send("")
            with pytest.raises(websockets.exceptions.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 2)
        results: list[Any] = await asyncio.gather(
            *(run_client(server.url, RandomAgent(i), "ok", i + 1, games=1) for i in range(5))
        )
        record = (await server.wait_for_games(1, timeout=10))[0]
    assert record.faults == 0 and all(r[0].winner == record.winner for r in results)
    with pytest.raises(ProtocolError):
        await run_client("ws://127.0.0.1:9/ws", RandomAgent(0))
