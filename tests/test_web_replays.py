"""Stored games on the web: the list, a game as everyone or one seat saw it, with the meter; never a live one."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lycan.agents import HeuristicAgent
from lycan.conformance import HiddenVariant
from lycan.engine import GameRecord, run_sync
from lycan.engine.events import Divined, event_to_dict, public, visible
from lycan.engine.seeds import derive
from lycan.rules import Role, Team, get_preset, team_of
from lycan.store import GameStore
from lycan.web import create_app
from lycan.web.replays import game_for_viewer


def heuristic_game(preset: str, seed: int) -> GameRecord:
    rules = get_preset(preset)
    return run_sync(rules, [HeuristicAgent(derive(seed, "agent", s)) for s in range(rules.n_players)], seed)


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """An aiwolf5 game in which the seer divined someone (it does so every night)."""
    game = heuristic_game("aiwolf5", 3)
    assert any(isinstance(e, Divined) for e in game.events)
    return game


@pytest.fixture
def db(tmp_path: Path, record: GameRecord) -> Path:
    path = tmp_path / "games.db"
    with GameStore(path) as store:
        store.save(record, run="cli")
        store.save(heuristic_game("guardian5", 4), run="web")
    return path


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, allow_seed=True, night_wait=0, ai_delay=0, night_min=0)) as c:
        yield c


def wolf_side_count(record: GameRecord) -> int:
    return sum(team_of(r) is Team.WEREWOLF for r in record.roles)


def test_the_list_shows_finished_games_without_their_seeds(client: TestClient, record: GameRecord) -> None:
    games = client.get("/api/games").json()
    assert {g["rules"] for g in games} == {"aiwolf5", "guardian5"}
    mine = next(g for g in games if g["game_id"] == record.game_id)
    assert mine["winner"] == record.winner and mine["days"] == record.n_days
    assert all("seed" not in g for g in games)
    assert len(client.get("/api/games?limit=1").json()) == 1
    assert client.get("/api/games?limit=-5").json() == []


def test_a_game_as_everyone_saw_it(client: TestClient, record: GameRecord) -> None:
    got = client.get(f"/api/games/{record.game_id}").json()
    assert got["viewer"] is None and got["role"] is None
    assert got["events"] == [event_to_dict(e) for e in public(record.events)]
    assert [r["role"] for r in got["roles"]] == [r.value for r in record.roles]
    steps = got["steps"]
    assert steps[-1]["kind"] == "game_over" and not any(s["private"] for s in steps)
    assert [s["public"] for s in steps] == sorted(s["public"] for s in steps)
    labels = [label for s in steps for label in s["checkpoints"]]
    assert "day 1, after the vote" in labels and "after night 0" in labels
    for step in steps:
        readings = step["meter"]
        assert [r["seat"] for r in readings] == list(range(len(record.names)))
        assert all(0 <= r["werewolf"] <= 1 and 0 < r["role_p"] <= 1 for r in readings)
        # every deal has the same number of werewolf-side seats, so the chances add up to it
        assert math.isclose(sum(r["werewolf"] for r in readings), wolf_side_count(record), abs_tol=1e-3)


def test_a_game_as_one_seat_saw_it_holds_exactly_what_it_saw(client: TestClient, record: GameRecord) -> None:
    everyone = client.get(f"/api/games/{record.game_id}").json()
    for seat in range(len(record.names)):
        got = client.get(f"/api/games/{record.game_id}", params={"as": seat}).json()
        assert got["viewer"] == seat and got["role"] == record.roles[seat].value
        assert got["events"] == [event_to_dict(e) for e in visible(record.events, seat)]
        assert len(got["events"]) < len(record.events)  # others' secrets and record-only facts left out
        own = next(r for r in got["steps"][-1]["meter"] if r["seat"] == seat)
        assert own["werewolf"] == (1.0 if team_of(record.roles[seat]) is Team.WEREWOLF else 0.0)
    seer = record.roles.index(Role.SEER)
    seen = client.get(f"/api/games/{record.game_id}?as={seer}").json()
    assert any(s["private"] and s["kind"] == "divined" for s in seen["steps"])
    assert seen["steps"][-1]["meter"] != everyone["steps"][-1]["meter"]


def test_bad_requests_get_one_clear_answer(client: TestClient, record: GameRecord) -> None:
    gid = record.game_id
    assert client.get(f"/api/games/{gid}?as=5").status_code == 400
    assert client.get(f"/api/games/{gid}?as=-1").status_code == 400
    assert client.get(f"/api/games/{gid}?as=seer").status_code == 422
    assert client.get("/api/games/not%20an%20id").status_code == 400
    assert client.get("/api/games/" + "A" * 65).status_code == 400
    missing = client.get("/api/games/01NOSUCHGAME")
    assert missing.status_code == 404 and "/api/games" in missing.json()["detail"]
    assert client.get(f"/api/games/{gid[:12]}").status_code == 404  # whole ids only, no prefixes
    assert client.get("/games").status_code == client.get(f"/games/{gid}").status_code == 200


def test_a_server_can_show_only_its_own_games_or_none(db: Path, record: GameRecord) -> None:
    with TestClient(create_app(db, stored_games="web")) as c:
        assert [g["rules"] for g in c.get("/api/games").json()] == ["guardian5"]
        assert c.get(f"/api/games/{record.game_id}").status_code == 404
    with TestClient(create_app(db, stored_games="none")) as c:
        assert c.get("/api/games").json() == []
        assert c.get(f"/api/games/{record.game_id}").status_code == 404
    with TestClient(create_app(None)) as c:
        assert c.get("/api/games").json() == []


def test_the_record_of_a_game_still_being_played_is_never_served(db: Path, record: GameRecord) -> None:
    app = create_app(db, allow_seed=True, night_wait=0, ai_delay=0, night_min=0)
    with TestClient(app) as c:
        # A table with a seat for a person who never comes: its game waits, unfinished.
        table = c.post("/api/tables", json={"preset": "aiwolf5", "humans": 1, "timeout": 30}).json()
        live = app.state.tables.by_id[table["table"]]
        # Even if a record under its id were in the store (it is saved only at the end) ...
        with GameStore(db) as store:
            store.save(dataclasses.replace(record, game_id=live.game_id), run="web")
        # ... it is neither listed nor served while the table plays it.
        assert live.game_id not in {g["game_id"] for g in c.get("/api/games").json()}
        for query in ("", "?as=0"):
            refused = c.get(f"/api/games/{live.game_id}{query}")
            assert refused.status_code == 404 and "still being played" in refused.json()["detail"]
        live.close("test over")
        assert c.get(f"/api/games/{live.game_id}").status_code == 200  # once it ended, it may be replayed


def test_unfinished_records_are_refused(record: GameRecord) -> None:
    with pytest.raises(ValueError, match="not finished"):
        game_for_viewer(dataclasses.replace(record, events=record.events[:-1]))


@pytest.mark.parametrize(("preset", "seed"), [("aiwolf5", 0), ("aiwolf5", 1), ("guardian7", 2), ("witch6", 3)])
def test_the_public_replay_is_the_same_for_games_that_differ_only_in_hidden_events(preset: str, seed: int) -> None:
    rules = get_preset(preset)
    a, b = (run_sync(rules, [HiddenVariant(s, v) for s in range(rules.n_players)], seed) for v in (0, 1))
    assert [event_to_dict(e) for e in a.events if e.audience] != [event_to_dict(e) for e in b.events if e.audience]
    shown: list[dict[str, Any]] = [game_for_viewer(r) for r in (a, b)]
    assert shown[0]["events"] == shown[1]["events"]
    assert shown[0]["steps"] == shown[1]["steps"]
