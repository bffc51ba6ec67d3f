"""The conformance kit over every kind of seat the session drives.

As PettingZoo runs its api_test over every environment, every seat type plays complete games whose
records must pass `lycan.conformance.check_record`: local agents answering at once and under an
event loop, a replay from the record alone, remote agents over the AIWolf protocol, and people in
a browser at the web table. Where the answers are the same (local sync, local async, replay), the
games must be the same event for event.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from lycan.agents import RandomAgent
from lycan.aiwolf.client import run_client
from lycan.aiwolf.server import AiwolfServer
from lycan.conformance import check_record
from lycan.engine.events import event_to_dict
from lycan.engine.seeds import derive
from lycan.engine.session import ReplaySeat, Session
from lycan.rules import get_preset
from lycan.store import GameStore
from lycan.web import create_app
from web_helpers import legal_answer

PRESETS = ["aiwolf5", "aiwolf13", "guardian7", "witch6"]


def randoms(n: int, seed: int) -> list[RandomAgent]:
    return [RandomAgent(derive(seed, "agent", s)) for s in range(n)]


@pytest.mark.parametrize("preset", PRESETS)
def test_local_sync_local_async_and_replay_seats_play_the_same_conforming_game(preset: str) -> None:
    rules = get_preset(preset)
    for seed in range(3):
        sync = Session(rules, randoms(rules.n_players, seed), seed, game_id="g").run_sync()
        async_ = asyncio.run(Session(rules, randoms(rules.n_players, seed), seed, game_id="g").run())
        by_id = {d.request: d for d in sync.decisions}
        replayed = Session(rules, [ReplaySeat(by_id)] * rules.n_players, seed, game_id="g").run_sync()
        for record in (sync, async_, replayed):
            assert check_record(record) == [], (preset, seed)
        logs = [[event_to_dict(e) for e in r.events] for r in (sync, async_, replayed)]
        assert logs[0] == logs[1] == logs[2]


@pytest.mark.parametrize("preset", ["aiwolf5", "aiwolf13"])
async def test_remote_aiwolf_seats_play_conforming_games(preset: str) -> None:
    n = get_preset(preset).n_players
    fast = {"action_timeout": 2.0, "response_timeout": 2.0, "acceptable_timeout": 0.2}
    async with AiwolfServer(preset, seed=11, **fast) as server:
        await asyncio.gather(*(run_client(server.url, RandomAgent(i), "kit", i + 1, games=2) for i in range(n)))
        records = await server.wait_for_games(2, timeout=60)
    assert len(records) == 2
    for record in records:
        assert check_record(record, replay_game=False) == []
        assert record.meta["protocol"] == "aiwolf"


def test_browser_seats_play_conforming_games(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    app = create_app(db, allow_seed=True, night_wait=0, ai_delay=0, night_min=0)
    with TestClient(app) as client:
        body = {"preset": "guardian7", "humans": 2, "ai": "random", "timeout": 5, "ai_delay": 0, "seed": 3}
        table = client.post("/api/tables", json=body).json()
        links = [f"/ws/tables/{table['table']}/seats/{s['token']}" for s in table["seats"]]
        with client.websocket_connect(links[0]) as one, client.websocket_connect(links[1]) as two:
            finished = asyncio.run(_play_both(one, two))
    assert finished
    with GameStore(db) as store:
        records = list(store.iter_records())
    assert len(records) == 1
    assert check_record(records[0], replay_game=False) == []
    assert records[0].agents[:2] == ("human", "human")


async def _play_both(*sockets: object) -> bool:
    """Answer every request on both seats legally until the game is over (in threads: the client blocks)."""

    def play(ws: object) -> bool:
        while True:
            message = ws.receive_json()  # type: ignore[attr-defined]
            if message["type"] == "request":
                ws.send_json(legal_answer(message, None))  # type: ignore[attr-defined]
            elif message["type"] == "game_over":
                return True

    results = await asyncio.gather(*(asyncio.to_thread(play, ws) for ws in sockets))
    return all(results)
