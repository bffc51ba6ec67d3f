"""Complete games on our AIWolf server: the contest's own client library, our client, local seats."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest

pytest.importorskip("websockets")
common_client = pytest.importorskip("aiwolf_nlp_common.client")
from aiwolf_nlp_common.packet import Packet, Status  # noqa: E402
from aiwolf_nlp_common.packet import Request as PReq  # noqa: E402

from lycan.agents import RandomAgent  # noqa: E402
from lycan.aiwolf.client import AiwolfClient, ClientGame, run_client  # noqa: E402
from lycan.aiwolf.packets import role_name  # noqa: E402
from lycan.aiwolf.server import AiwolfServer  # noqa: E402
from lycan.engine.events import Fault, Talk  # noqa: E402
from lycan.engine.record import GameRecord  # noqa: E402
from lycan.rules.roles import Role  # noqa: E402

FAST = {"action_timeout": 2.0, "response_timeout": 2.0, "acceptable_timeout": 0.2}


def common_agent(url: str, name: str, seed: int, seen: list[Packet]) -> None:
    """A sample agent written against aiwolf-nlp-common, as contest teams write theirs."""
    rng = random.Random(seed)
    client = common_client.Client(url, None)
    client.connect()
    info = None
    try:
        while True:
            packet = client.receive()
            seen.append(packet)
            if packet.info is not None:
                info = packet.info
            if packet.request == PReq.NAME:
                client.send(name)
            elif packet.request in (PReq.TALK, PReq.WHISPER):
                client.send(rng.choice(["Hello, everyone.", "I trust @Agent[01] for now", "Skip", "Over"]))
            elif packet.request in (PReq.VOTE, PReq.DIVINE, PReq.GUARD, PReq.ATTACK):
                assert info is not None
                alive = [a for a, s in info.status_map.items() if s == Status.ALIVE and a != info.agent]
                wolves = [a for a, r in info.role_map.items() if r.value == "WEREWOLF"]
                if packet.request == PReq.ATTACK:
                    alive = [a for a in alive if a not in wolves]
                client.send(rng.choice(alive))
            elif packet.request == PReq.FINISH:
                return
    finally:
        client.close()


async def play_common(server: AiwolfServer, names: list[str]) -> tuple[GameRecord, list[list[Packet]]]:
    seen: list[list[Packet]] = [[] for _ in names]
    threads = [
        threading.Thread(target=common_agent, args=(server.url, n, i, seen[i]), daemon=True)
        for i, n in enumerate(names)
    ]
    for t in threads:
        t.start()
    records = await server.wait_for_games(1, timeout=30)
    await asyncio.to_thread(lambda: [t.join(10) for t in threads])
    assert not any(t.is_alive() for t in threads)
    return records[0], seen


def check_common_game(record: GameRecord, seen: list[list[Packet]]) -> None:
    assert record.winner in ("village", "werewolf")
    assert record.events[-1].kind == "game_over"
    assert record.faults == 0
    assert not record.meta["errored"]
    by_agent: dict[str, int] = {}
    for packets in seen:
        kinds = [p.request for p in packets]
        assert kinds[0] == PReq.NAME and kinds[1] == PReq.INITIALIZE and kinds[-1] == PReq.FINISH
        assert PReq.DAILY_INITIALIZE in kinds and PReq.DAILY_FINISH in kinds and PReq.VOTE in kinds
        first = packets[1]
        assert first.info is not None and first.setting is not None
        assert first.info.game_id == record.game_id
        seat = record.names.index(first.info.agent)
        by_agent[first.info.agent] = seat
        assert first.info.role_map == {first.info.agent: first.info.role_map[first.info.agent]}
        assert first.info.role_map[first.info.agent].value == role_name(record.roles[seat])
        final = packets[-1].info
        assert final is not None and len(final.role_map) == 5
        assert {a: r.value for a, r in final.role_map.items()} == {
            record.names[s]: role_name(r) for s, r in enumerate(record.roles)
        }
    assert sorted(by_agent.values()) == [0, 1, 2, 3, 4]
    # every public utterance reached every agent exactly once, in order
    spoken = [(e.day, e.text) for e in record.events if isinstance(e, Talk) and e.channel == "talk"]
    for packets in seen:
        heard = [(t.day, t.text) for p in packets for t in (p.talk_history or [])]
        assert heard == spoken


async def test_common_clients_self_match() -> None:
    async with AiwolfServer("aiwolf5", seed=11, **FAST) as server:
        record, seen = await play_common(server, [f"kanolab{i}" for i in range(1, 6)])
    check_common_game(record, seen)
    assert sorted(record.agents) == [f"kanolab{i}" for i in range(1, 6)]
    assert record.meta["protocol"] == "aiwolf"


async def test_common_clients_mixed_mode() -> None:
    teams = ["alpha1", "beta1", "gamma1", "delta1", "eps1"]
    async with AiwolfServer("aiwolf5", self_match=False, seed=12, **FAST) as server:
        record, seen = await play_common(server, teams)
    check_common_game(record, seen)
    assert sorted(record.agents) == sorted(teams)


async def test_mixed_mode_waits_for_different_teams() -> None:
    async with AiwolfServer("aiwolf5", self_match=False, seed=2, **FAST) as server:
        same = [asyncio.create_task(run_client(server.url, RandomAgent(i), "same", i + 1, games=1)) for i in range(4)]
        await asyncio.sleep(0.3)
        assert not server.records  # four connections of one team never make a mixed game
        others = [
            asyncio.create_task(run_client(server.url, RandomAgent(9 + i), f"t{'abcd'[i]}", 1, games=1))
            for i in range(4)
        ]
        record = (await server.wait_for_games(1, timeout=20))[0]
        assert len({a.rstrip("0123456789") for a in record.agents}) == 5
        for task in same + others:
            task.cancel()
        await asyncio.gather(*same, *others, return_exceptions=True)


async def test_our_client_against_our_server() -> None:
    async with AiwolfServer("aiwolf5", seed=5, **FAST) as server:
        results = await asyncio.gather(
            *(run_client(server.url, RandomAgent(i), "lycan", i + 1, games=1) for i in range(5))
        )
        record = (await server.wait_for_games(1, timeout=20))[0]
    assert record.faults == 0
    spoken = [e.text for e in record.events if isinstance(e, Talk) and e.channel == "talk"]
    for games in results:
        assert len(games) == 1
        game: ClientGame = games[0]
        assert game.finished and game.winner == record.winner
        assert game.role is record.roles[game.seat]
        assert game.names == record.names
        assert [e.text for e in game.events if isinstance(e, Talk) and e.channel == "talk"] == spoken
        assert game.alive == tuple(s not in _dead(record) for s in range(5))


def _dead(record: GameRecord) -> set[int]:
    return {e.target for e in record.events if e.kind == "died"}  # type: ignore[attr-defined]


async def test_remote_and_local_seats_share_a_table() -> None:
    async with AiwolfServer(
        "aiwolf5", seed=8, local_agents=lambda: [RandomAgent(101), RandomAgent(102)], **FAST
    ) as server:
        assert server.n_remote == 3
        results = await asyncio.gather(
            *(run_client(server.url, RandomAgent(i), "mix", i + 1, games=1) for i in range(3))
        )
        record = (await server.wait_for_games(1, timeout=20))[0]
    assert sorted(record.agents[:3]) == ["mix1", "mix2", "mix3"]
    assert record.agents[3:] == ("random", "random")
    assert record.winner in ("village", "werewolf") and record.faults == 0
    talkers = {e.actor for e in record.events if isinstance(e, Talk)}
    assert {3, 4} & talkers and {0, 1, 2} & talkers
    assert all(g[0].winner == record.winner for g in results)


async def test_finished_games_go_to_the_store(tmp_path: Any) -> None:
    try:  # the real store when it is there; otherwise a memory store with the same save() API
        from lycan.store import GameStore  # type: ignore[import-not-found,unused-ignore]

        real: Any = GameStore(tmp_path / "games.db")
    except ImportError:
        real = None
    saved: list[tuple[str, str | None]] = []

    class RecordingStore:
        def save(self, record: GameRecord, run: str | None = None) -> Any:
            out = real.save(record, run=run) if real is not None else record.game_id
            saved.append((record.game_id, run))
            return out

    async with AiwolfServer("aiwolf5", seed=3, store=RecordingStore(), run="proto", **FAST) as server:
        await asyncio.gather(*(run_client(server.url, RandomAgent(i), "st", i + 1, games=1) for i in range(5)))
        record = (await server.wait_for_games(1, timeout=20))[0]
    assert saved == [(record.game_id, "proto")]


async def test_hidden_information_stays_hidden() -> None:
    packets: dict[int, list[dict[str, Any]]] = {i: [] for i in range(13)}
    async with AiwolfServer("aiwolf13", seed=21, **FAST) as server:
        clients = [
            AiwolfClient(server.url, RandomAgent(i), "hid", i + 1, on_packet=packets[i].append) for i in range(13)
        ]
        await asyncio.gather(*(c.run(1) for c in clients))
        record = (await server.wait_for_games(1, timeout=30))[0]
    assert any(isinstance(e, Talk) and e.channel == "whisper" for e in record.events)
    wolves = {record.names[s] for s, r in enumerate(record.roles) if r is Role.WEREWOLF}
    for i, client in enumerate(clients):
        me = client.games[0]
        name = record.names[me.seat]
        role = record.roles[me.seat]
        for p in packets[i]:
            info = p.get("info")
            if p["request"] == "FINISH" or info is None:
                continue
            allowed = wolves if role is Role.WEREWOLF else {name}
            assert set(info["role_map"]) == allowed
            if role is not Role.WEREWOLF:
                assert "whisper_history" not in p
                assert "attack_vote_list" not in info
            if role is not Role.SEER:
                assert "divine_result" not in info
            if role is not Role.MEDIUM:
                assert "medium_result" not in info
    seer = next(s for s, r in enumerate(record.roles) if r is Role.SEER)
    seer_client = next(i for i, c in enumerate(clients) if c.games[0].seat == seer)
    seen = [p["info"].get("divine_result") for p in packets[seer_client] if p.get("info")]
    assert any(seen)
    assert not [e for e in record.events if isinstance(e, Fault)]


REFERENCE_SETTING = {
    "agent_count": 5,
    "max_day": -1,
    "role_num_map": {"WEREWOLF": 1, "POSSESSED": 1, "SEER": 1, "BODYGUARD": 0, "VILLAGER": 2, "MEDIUM": 0},
    "vote_visibility": True,
    "talk": {
        "max_count": {"per_agent": 4, "per_day": 20},
        "max_length": {"count_in_word": False, "count_spaces": False, "mention_length": 125, "base_length": 125},
        "max_skip": 0,
    },
    "whisper": {"max_count": {"per_agent": 0, "per_day": 0}, "max_length": {}, "max_skip": 0},
    "vote": {"max_count": 1, "allow_self_vote": True},
    "attack_vote": {"max_count": 1, "allow_self_vote": True, "allow_no_target": False},
    "timeout": {"action": 60000, "response": 120000},
}


async def test_client_reads_packets_shaped_like_the_reference_server() -> None:
    import json

    client = AiwolfClient("ws://unused/ws", RandomAgent(3), "lycan", 2)
    names = ["Minato", "Takumi", "Kenji", "Ryuji", "Daisuke"]
    status = dict.fromkeys(names, "ALIVE")
    info = {"game_id": "01JGXYZ", "day": 0, "agent": "Kenji", "status_map": status, "role_map": {"Kenji": "SEER"}}
    assert await client.handle(json.dumps({"request": "NAME"})) == "lycan2"
    await client.handle(json.dumps({"request": "INITIALIZE", "info": info, "setting": REFERENCE_SETTING}))
    game = client.game
    assert game is not None and game.role is Role.SEER and game.names == tuple(names) and game.seat == 2
    assert game.rules.options.talk.max_length == 125 and game.rules.options.allow_self_vote
    talk = {"idx": 0, "day": 0, "turn": 0, "agent": "Minato", "text": "Hello", "skip": False, "over": False}
    said = await client.handle(json.dumps({"request": "TALK", "info": info, "talk_history": [talk]}))
    assert said and said != "lycan2"
    day1 = {
        **info,
        "day": 1,
        "status_map": {**status, "Ryuji": "DEAD"},
        "attacked_agent": "Ryuji",
        "divine_result": {"day": 0, "agent": "Kenji", "target": "Minato", "result": "WEREWOLF"},
    }
    await client.handle(json.dumps({"request": "DAILY_INITIALIZE", "info": day1, "setting": REFERENCE_SETTING}))
    vote = await client.handle(json.dumps({"request": "VOTE", "info": day1}))
    assert vote in names and vote != "Ryuji"
    view = game.view()
    assert view.alive == (True, True, True, False, True) and view.day == 1
    assert [(e.target, e.result.value) for e in view.events if e.kind == "divined"] == [(0, "werewolf")]  # type: ignore[attr-defined]
    assert [e.text for e in view.events if isinstance(e, Talk)] == ["Hello"]
    final = {**day1, "role_map": {"Minato": "WEREWOLF", "Takumi": "POSSESSED", "Kenji": "SEER"}}
    await client.handle(json.dumps({"request": "FINISH", "info": final}))
    assert game.finished and game.roles["Minato"] is Role.WEREWOLF
