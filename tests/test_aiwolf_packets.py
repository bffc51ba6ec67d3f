"""Packets built from a seat's view, and views rebuilt from packets by our client."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from lycan.agents import HeuristicAgent, RandomAgent
from lycan.aiwolf.client import AiwolfClient
from lycan.aiwolf.packets import HistoryCursor, build_packet
from lycan.engine import run_sync
from lycan.engine.events import Divined, Event, Executed, MediumResult, Talk, VoteCast
from lycan.engine.view import View
from lycan.rules import get_preset
from lycan.rules.roles import Role


def view_of(events: list[Event], seat: int, role: Role, names: tuple[str, ...], day: int) -> View:
    rules = get_preset("aiwolf13" if len(names) == 13 else "aiwolf5")
    return View(seat, role, names, rules, day, "day", (True,) * len(names), events)


def test_history_is_sent_by_position_not_by_event_id() -> None:
    """Event ids are unique and stable but need not be consecutive or ordered: the cursor must not care."""
    rules = get_preset("aiwolf13")
    record = run_sync(rules, [RandomAgent(s) for s in range(13)], 4)
    wolf = record.roles.index(Role.WEREWOLF)
    mine = [e for e in record.events if e.visible_to(wolf)]
    ids = random.Random(1).sample(range(10**6), len(mine))  # unique, in no order at all
    shuffled = [dataclasses.replace(e, id=i) for e, i in zip(mine, ids, strict=True)]
    cursor = HistoryCursor()
    sent: dict[str, list[tuple[int, str]]] = {"talk": [], "whisper": []}
    for k in range(1, len(shuffled) + 1):
        view = view_of(shuffled[:k], wolf, Role.WEREWOLF, record.names, shuffled[k - 1].day)
        for channel in ("talk", "whisper"):
            sent[channel] += [(entry["day"], entry["text"]) for entry in cursor.take(view, channel)]  # type: ignore[arg-type]
    for channel in ("talk", "whisper"):
        said = [(e.day, e.text) for e in mine if isinstance(e, Talk) and e.channel == channel]
        assert said and sent[channel] == said


def test_turns_count_rounds_within_each_whisper_session() -> None:
    """Two whisper sessions on one day (13 players, day 0): idx goes on, turns start again."""
    names = tuple(f"Agent[{i:02d}]" for i in range(1, 14))

    def whisper(n: int, actor: int, turn: int, text: str, phase: Any = "day") -> Talk:
        return Talk(id=100 - n, day=0, phase=phase, audience=frozenset({0, 5}), actor=actor, text=text,
                    channel="whisper", turn=turn, over=text == "Over")  # fmt: skip

    events: list[Event] = [
        whisper(0, 5, 0, "Morning."),
        whisper(1, 0, 1, "Hi."),
        whisper(2, 5, 2, "Over"),
        whisper(3, 0, 3, "Over"),
        whisper(4, 0, 0, "Tonight: Agent[03].", "night"),
        whisper(5, 5, 1, "Agreed.", "night"),
        whisper(6, 0, 2, "Over", "night"),
        whisper(7, 5, 3, "Over", "night"),
    ]
    view = view_of(events, 0, Role.WEREWOLF, names, 0)
    packet = build_packet("WHISPER", view, "g", HistoryCursor())
    got = [(w["idx"], w["turn"], w["agent"]) for w in packet["whisper_history"]]
    assert got == [
        (0, 0, "Agent[06]"),
        (1, 0, "Agent[01]"),
        (2, 1, "Agent[06]"),
        (3, 1, "Agent[01]"),
        (4, 0, "Agent[01]"),
        (5, 0, "Agent[06]"),
        (6, 1, "Agent[01]"),
        (7, 1, "Agent[06]"),
    ]


NAMES = ["Minato", "Takumi", "Kenji", "Ryuji", "Daisuke"]
SETTING = {
    "agent_count": 5,
    "role_num_map": {"WEREWOLF": 1, "POSSESSED": 1, "SEER": 1, "BODYGUARD": 0, "VILLAGER": 2, "MEDIUM": 0},
    "talk": {"max_count": {"per_agent": 4, "per_day": 20}, "max_length": {"base_length": 125}, "max_skip": 0},
    "vote": {"max_count": 1, "allow_self_vote": True},
    "timeout": {"action": 60000, "response": 120000},
}


async def seer_on_day_1(agent: Any) -> tuple[AiwolfClient, str | None]:
    """A seer that divined Minato on night 0 (as the reference server reports it on day 1), asked to talk."""
    client = AiwolfClient("ws://unused/ws", agent, "lycan", 3)
    status = dict.fromkeys(NAMES, "ALIVE")
    day0 = {"game_id": "01JG", "day": 0, "agent": "Kenji", "status_map": status, "role_map": {"Kenji": "SEER"}}
    await client.handle(json.dumps({"request": "INITIALIZE", "info": day0, "setting": SETTING}))
    await client.handle(json.dumps({"request": "DAILY_INITIALIZE", "info": day0, "setting": SETTING}))
    await client.handle(json.dumps({"request": "DAILY_FINISH", "info": day0, "talk_history": []}))
    day1: dict[str, Any] = {
        **day0,
        "day": 1,
        "divine_result": {"day": 0, "agent": "Kenji", "target": "Minato", "result": "WEREWOLF"},
    }
    await client.handle(json.dumps({"request": "DAILY_INITIALIZE", "info": day1, "setting": SETTING}))
    said = await client.handle(json.dumps({"request": "TALK", "info": {**day1, "remain_count": 4}, "talk_history": []}))
    return client, said


async def test_a_night_0_divination_is_dated_night_0() -> None:
    client, said = await seer_on_day_1(HeuristicAgent(3))
    game = client.game
    assert game is not None
    divined = [e for e in game.events if isinstance(e, Divined)]
    assert [(e.day, e.phase, e.target) for e in divined] == [(0, "night", 0)]
    assert said is not None and "Last night I divined Minato" in said and "On night" not in said


async def test_results_and_votes_of_the_previous_day_keep_their_day() -> None:
    client = AiwolfClient("ws://unused/ws", RandomAgent(1), "lycan", 5)
    status = dict.fromkeys(NAMES, "ALIVE")
    info = {"game_id": "g", "day": 0, "agent": "Daisuke", "status_map": status, "role_map": {"Daisuke": "MEDIUM"}}
    await client.handle(json.dumps({"request": "INITIALIZE", "info": info, "setting": SETTING}))
    day2 = {
        **info,
        "day": 2,
        "status_map": {**status, "Takumi": "DEAD", "Ryuji": "DEAD"},
        "executed_agent": "Takumi",
        "attacked_agent": "Ryuji",
        "medium_result": {"day": 1, "agent": "Daisuke", "target": "Takumi", "result": "HUMAN"},
        "vote_list": [
            {"day": 1, "agent": "Minato", "target": "Takumi"},
            {"day": 1, "agent": "Kenji", "target": "Takumi"},
        ],
    }
    await client.handle(json.dumps({"request": "DAILY_INITIALIZE", "info": day2, "setting": SETTING}))
    game = client.game
    assert game is not None
    days = {(type(e).__name__, e.day) for e in game.events if isinstance(e, MediumResult | VoteCast | Executed)}
    assert days == {("MediumResult", 1), ("VoteCast", 1), ("Executed", 1)}
    assert {(e.kind, e.day, e.target) for e in game.events if e.kind == "died"} == {  # type: ignore[attr-defined]
        ("died", 1, 1),  # executed on day 1
        ("died", 2, 3),  # found dead on the morning of day 2, as the engine logs it
    }
