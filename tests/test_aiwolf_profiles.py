"""Profiles over the AIWolf protocol: each agent hears its own, drawn apart from the deal, and becomes a persona."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any, cast

import pytest

websockets = pytest.importorskip("websockets")
from websockets.asyncio.server import ServerConnection  # noqa: E402
from websockets.asyncio.server import serve as ws_serve  # noqa: E402

from lycan.agents import RandomAgent  # noqa: E402
from lycan.agents.persona import Persona, draw_persona  # noqa: E402
from lycan.aiwolf import server as server_module  # noqa: E402
from lycan.aiwolf.client import AiwolfClient, persona_of  # noqa: E402
from lycan.aiwolf.packets import HistoryCursor, Timeouts, build_packet, profile_text, read_profile  # noqa: E402
from lycan.aiwolf.server import AiwolfServer, RemoteSeat, ServerGame, seat_persona  # noqa: E402
from lycan.engine.seeds import stream  # noqa: E402
from lycan.rules.presets import get_preset  # noqa: E402

FAST = {"action_timeout": 2.0, "response_timeout": 2.0, "acceptable_timeout": 0.2}


class PersonaAgent(RandomAgent):
    """A random player that keeps every persona it is given."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.personas: list[Persona] = []

    def set_persona(self, persona: Persona) -> None:
        self.personas.append(persona)


class StubbornAgent(RandomAgent):
    """A random player whose `set_persona` fails."""

    def set_persona(self, persona: Persona) -> None:
        raise RuntimeError("no persona for me")


def oracle_persona(seed: int, seat: int) -> Persona:
    """The persona the server must draw: from the seat's own stream, nothing else."""
    return draw_persona(stream(seed, "persona", seat))


async def play(
    server: AiwolfServer, agents: list[RandomAgent]
) -> tuple[list[AiwolfClient], list[list[dict[str, Any]]]]:
    seen: list[list[dict[str, Any]]] = [[] for _ in agents]
    clients = [
        AiwolfClient(server.url, agent, "prof", i + 1, on_packet=seen[i].append, seed=i)
        for i, agent in enumerate(agents)
    ]
    await asyncio.wait_for(asyncio.gather(*(c.run(1) for c in clients)), 30)
    return clients, seen


# ---------------------------------------------------------------- end to end
async def test_each_agent_hears_only_its_own_profile_and_its_agent_takes_the_persona() -> None:
    agents = [PersonaAgent(i) for i in range(5)]
    async with AiwolfServer("aiwolf5", seed=41, **FAST) as server:
        clients, seen = await play(server, agents)
        (record,) = await server.wait_for_games(1, timeout=10)
    sent = {n: profile_text(oracle_persona(record.seed, s).profile(n)) for s, n in enumerate(record.names)}
    assert len(set(sent.values())) == 5  # distinct, so that one seat's profile in another's packet would show
    for client, agent, packets in zip(clients, agents, seen, strict=True):
        (game,) = client.games
        me = game.names[game.seat]
        init = next(p for p in packets if p["request"] == "INITIALIZE")
        assert init["info"]["profile"] == sent[me]
        assert all("profile" not in (p.get("info") or {}) for p in packets if p is not init)
        others = [text for name, text in sent.items() if name != me]
        assert not any(text in json.dumps(p, ensure_ascii=False) for p in packets for text in others)
        # the agent got the persona the profile describes
        drawn = oracle_persona(record.seed, game.seat)
        assert agent.personas == [game.persona]
        assert game.persona is not None
        assert (game.persona.temperament, game.persona.age, game.persona.gender) == (
            drawn.temperament,
            drawn.age,
            drawn.gender,
        )
    assert record.meta["personas"] == {n: oracle_persona(record.seed, s).to_dict() for s, n in enumerate(record.names)}


async def test_without_profiles_no_packet_carries_one_and_no_agent_gets_a_persona() -> None:
    agents = [PersonaAgent(i) for i in range(5)]
    async with AiwolfServer("aiwolf5", seed=42, profiles=False, **FAST) as server:
        clients, seen = await play(server, agents)
        (record,) = await server.wait_for_games(1, timeout=10)
    assert all("profile" not in (p.get("info") or {}) for packets in seen for p in packets)
    assert all(agent.personas == [] for agent in agents)
    assert all(c.games[0].persona is None for c in clients)
    assert "personas" not in record.meta


# ---------------------------------------------------------------- independent of the deal
def table(seed: int, preset: str = "aiwolf5", **options: Any) -> ServerGame:
    rules = get_preset(preset)
    seats = [RemoteSeat(cast(Any, None), f"t{s}") for s in range(rules.n_players)]
    game = ServerGame(rules, seats, seed, Timeouts(), **options)
    game.session.start()  # the roles dealt and told, as when INITIALIZE goes out
    return game


def initialize(game: ServerGame, seat: int) -> dict[str, Any]:
    return build_packet(
        "INITIALIZE",
        game.session.view(seat),
        game.game_id,
        HistoryCursor(),
        setting=game.setting,
        profile=game.profiles[seat],
    )


@pytest.mark.parametrize("seed", [0, 7, 2**127 + 12345])
def test_profiles_are_the_seats_own_draws_whatever_the_deal(seed: int) -> None:
    drawn = table(seed)
    roles = drawn.session.game.roles
    wolf = roles.index(next(r for r in roles if r.value == "werewolf"))
    for shift in (1, 2):  # the same seed, the roles moved round the table
        moved = roles[-shift:] + roles[:-shift]
        fixed = table(seed, deal=moved)
        assert fixed.session.game.roles == moved and moved.index(roles[wolf]) != wolf
        assert fixed.profiles == drawn.profiles
        assert fixed.personas == drawn.personas
    names = drawn.session.game.names
    assert drawn.personas == tuple(oracle_persona(seed, s) for s in range(5))
    assert drawn.profiles == tuple(profile_text(oracle_persona(seed, s).profile(n)) for s, n in enumerate(names))
    assert all(seat_persona(seed, s) == oracle_persona(seed, s) for s in range(5))


def test_the_profile_is_the_only_difference_and_wolves_do_not_see_each_others() -> None:
    with_profiles, without = table(13, "aiwolf13"), table(13, "aiwolf13", profiles=False)
    without.game_id = with_profiles.game_id
    wolves = [s for s, r in enumerate(with_profiles.session.game.roles) if r.value == "werewolf"]
    assert len(wolves) >= 2
    for seat in range(13):
        packet, bare = initialize(with_profiles, seat), initialize(without, seat)
        assert packet["info"].pop("profile") == with_profiles.profiles[seat]
        assert packet == bare
        assert "profile" not in json.dumps(bare)
    wolf_packet = json.dumps(initialize(with_profiles, wolves[0]), ensure_ascii=False)
    assert set(json.loads(wolf_packet)["info"]["role_map"]) >= {with_profiles.names[w] for w in wolves}
    assert with_profiles.profiles[wolves[1]] not in wolf_packet


def test_only_initialize_carries_a_profile() -> None:
    game = table(5)
    view = game.session.view(0)
    for kind in ("DAILY_INITIALIZE", "DAILY_FINISH", "FINISH"):
        assert "profile" not in build_packet(kind, view, game.game_id, HistoryCursor(), profile="age: 30")["info"]


# ---------------------------------------------------------------- reading what servers send
def test_profiles_in_the_contest_servers_forms_are_read() -> None:
    japanese = "性別: 女性\n年齢: 24\n性格: ミサキは落ち着いた性格で、物事に冷静に対処するタイプです。"
    assert read_profile(japanese) == {
        "gender": "女性",
        "age": "24",
        "personality": "ミサキは落ち着いた性格で、物事に冷静に対処するタイプです。",
    }
    english = "personality: Takumi is brave\nand a little blunt at times.\nage: 10\ngender: male"
    assert read_profile(english) == {
        "personality": "Takumi is brave and a little blunt at times.",
        "age": "10",
        "gender": "male",
    }
    assert read_profile("A cheerful, talkative baker.") == {"personality": "A cheerful, talkative baker."}
    assert read_profile({"Age": "41歳", "gender": "f"}) == {"age": "41", "gender": "f"}
    packet = {"request": "INITIALIZE", "info": {"agent": "Misaki", "profile": japanese}}
    persona = persona_of(packet, 3)
    assert persona is not None and (persona.age, persona.gender) == (24, "female")
    talkative = persona_of({"info": {"agent": "x", "profile": "personality: blunt and chatty\nage: 50"}}, 3)
    assert talkative is not None and (talkative.temperament, talkative.verbosity, talkative.age) == (
        "blunt",
        "chatty",
        50,
    )


@pytest.mark.parametrize("raw", [42, ["age: 3"], "", " \n ", {"hobby": "chess"}, "age: old", {"age": None}])
def test_a_profile_that_cannot_be_read_gives_no_persona(raw: object, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="lycan.aiwolf.client"):
        assert persona_of({"info": {"agent": "Agent[01]", "profile": raw}}, 0) is None
    assert "cannot read the profile" in caplog.text
    with pytest.raises(ValueError):
        read_profile(raw)


def contest_packets(profile: object) -> list[dict[str, Any]]:
    """What a contest server with profiles sends one agent: names after profiles, the profile in INITIALIZE."""
    names = ["Minato", "Sakura", "Kenji", "Yumi", "Ryuji"]
    setting = {
        "agent_count": 5,
        "role_num_map": {"WEREWOLF": 1, "POSSESSED": 1, "SEER": 1, "VILLAGER": 2},
        "vote_visibility": False,
        "talk": {"max_count": {"per_agent": 4, "per_day": 20}, "max_length": {}, "max_skip": 0},
        "whisper": {"max_count": {"per_agent": 0, "per_day": 0}, "max_length": {}, "max_skip": 0},
        "vote": {"max_count": 1, "allow_self_vote": True},
        "attack_vote": {"max_count": 1, "allow_self_vote": True, "allow_no_target": False},
        "timeout": {"action": 2000, "response": 2000},
    }
    info = {
        "game_id": "01CONTEST",
        "day": 0,
        "agent": "Sakura",
        "status_map": dict.fromkeys(names, "ALIVE"),
        "role_map": {"Sakura": "VILLAGER"},
    }
    day = {**info, "day": 1}
    return [
        {"request": "INITIALIZE", "info": {**info, "profile": profile}, "setting": setting},
        {"request": "DAILY_INITIALIZE", "info": day, "setting": setting},
        {"request": "TALK", "info": {**day, "remain_count": 4}, "talk_history": []},
        {"request": "VOTE", "info": day},
        {"request": "FINISH", "info": {**day, "role_map": dict.fromkeys(names, "VILLAGER")}},
    ]


async def contest_exchange(agent: RandomAgent, profile: object) -> tuple[AiwolfClient, list[str]]:
    """Our client against a stand-in contest server sending `profile`; returns the client and its answers."""
    answers: list[str] = []

    async def handler(ws: ServerConnection) -> None:
        await ws.send(json.dumps({"request": "NAME"}))
        answers.append(str(await ws.recv()))
        for packet in contest_packets(profile):
            await ws.send(json.dumps(packet, ensure_ascii=False))
            if packet["request"] in ("TALK", "VOTE"):
                answers.append(str(await asyncio.wait_for(ws.recv(), 5)))
        await ws.close()

    async with ws_serve(handler, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        client = AiwolfClient(f"ws://127.0.0.1:{port}/ws", agent, "contest", 1, seed=9)
        await asyncio.wait_for(client.run(1), 10)
    return client, answers


async def test_our_client_takes_a_contest_servers_japanese_profile() -> None:
    agent = PersonaAgent(0)
    client, answers = await contest_exchange(
        agent, "年齢: 10\n性別: 女性\n性格: サクラは明るく、少しお茶目な性格の女の子です。"
    )
    (game,) = client.games
    assert game.finished and answers[0] == "contest1" and len(answers) == 3
    assert agent.personas == [game.persona]
    assert game.persona is not None and (game.persona.age, game.persona.gender) == (10, "female")


@pytest.mark.parametrize("profile", [12345, ["age: 3"], "", "age: unknown", {"hobby": "chess"}])
async def test_a_malformed_profile_costs_the_client_nothing_but_the_persona(
    profile: object, caplog: pytest.LogCaptureFixture
) -> None:
    agent = PersonaAgent(0)
    with caplog.at_level(logging.WARNING, logger="lycan.aiwolf.client"):
        client, answers = await contest_exchange(agent, profile)
    (game,) = client.games
    assert game.finished and len(answers) == 3 and answers[2] in game.names
    assert agent.personas == [] and game.persona is None
    assert "cannot read the profile" in caplog.text


async def test_an_agent_whose_set_persona_fails_still_plays(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="lycan.aiwolf.client"):
        client, answers = await contest_exchange(StubbornAgent(1), "age: 30\npersonality: calm")
    assert client.games[0].finished and len(answers) == 3
    assert client.games[0].persona is not None
    assert "did not take its persona" in caplog.text


async def test_an_agent_without_set_persona_plays_on() -> None:
    client, answers = await contest_exchange(RandomAgent(2), "age: 30\npersonality: calm")
    assert client.games[0].finished and len(answers) == 3 and client.games[0].persona is not None


# ---------------------------------------------------------------- the command line
@pytest.mark.parametrize(("flag", "expected"), [([], True), (["--profiles"], True), (["--no-profiles"], False)])
def test_aiwolf_serve_passes_the_profiles_option(
    flag: list[str], expected: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from lycan.cli import app

    calls: list[dict[str, Any]] = []

    async def fake_serve(*args: Any, **options: Any) -> list[Any]:
        calls.append(options)
        return []

    monkeypatch.setattr(server_module, "serve", fake_serve)
    result = CliRunner().invoke(app, ["aiwolf-serve", "--games", "1", "--db", str(tmp_path / "g.db"), *flag])
    assert result.exit_code == 0, result.output
    assert [c["profiles"] for c in calls] == [expected]
