import dataclasses
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from _protect import write_protected
from lycan.agents import RandomAgent
from lycan.engine import GameRecord, replay, run_sync
from lycan.engine.events import Died
from lycan.engine.record import ModelCall
from lycan.rules import Role, get_preset, preset_names, team_of
from lycan.store import (
    SCHEMA_VERSION,
    GameStore,
    GameSummary,
    JsonlError,
    StoreError,
    check_writable,
    default_db_path,
    export_jsonl,
    import_jsonl,
)


def play(preset: str, seed: int, game_id: str | None = None) -> GameRecord:
    rules = get_preset(preset)
    players = [RandomAgent(seed * 101 + s) for s in range(rules.n_players)]
    return run_sync(rules, players, seed, game_id=game_id)


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    return [play(name, seed) for name in preset_names() for seed in range(3)]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    with GameStore(tmp_path / "games.db") as s:
        yield s


def raw_count(path: Path, table: str, game_id: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,)).fetchone()[0])
    finally:
        conn.close()


# ---------------------------------------------------------------- saving and reading


def test_every_preset_round_trips_exactly(store: GameStore, records: list[GameRecord]) -> None:
    for rec in records:
        assert store.save(rec, run="smoke") is True
    for rec in records:
        back = store.get(rec.game_id)
        assert back.to_dict() == rec.to_dict()
        assert back.events == rec.events
        assert back.decisions == rec.decisions
        assert back == rec
        assert tuple(replay(back).events) == rec.events
    assert store.count() == len(records)
    assert store.count("smoke") == len(records)
    assert store.game_ids("smoke") == {r.game_id for r in records}


def test_seats_table_holds_roles_teams_and_survivors(store: GameStore, records: list[GameRecord]) -> None:
    rec = next(r for r in records if r.rules.name == "aiwolf13")
    store.save(rec)
    conn = sqlite3.connect(store.path)
    rows = conn.execute(
        "SELECT seat, name, agent, role, team, survived FROM seats WHERE game_id = ? ORDER BY seat", (rec.game_id,)
    ).fetchall()
    game = conn.execute(
        "SELECT rules_name, seed, n_players, winner, n_days, faults FROM games WHERE game_id = ?", (rec.game_id,)
    ).fetchone()
    n_events = conn.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (rec.game_id,)).fetchone()[0]
    conn.close()
    dead = {e.target for e in rec.events if isinstance(e, Died)}
    assert dead, "a finished aiwolf13 game has deaths"
    assert rows == [
        (s, rec.names[s], rec.agents[s], rec.roles[s].value, team_of(rec.roles[s]).value, int(s not in dead))
        for s in range(13)
    ]
    assert game == ("aiwolf13", str(rec.seed), 13, rec.winner, rec.n_days, rec.faults)  # seeds are kept as text
    assert n_events == len(rec.events)


def test_saving_again_never_duplicates(store: GameStore, records: list[GameRecord]) -> None:
    rec = records[0]
    assert store.save(rec, run="a") is True
    assert store.save(rec, run="a") is False
    assert store.save(rec, run="b") is False
    assert store.count() == 1
    assert store.count("a") == 1 and store.count("b") == 0
    for table, n in (("events", len(rec.events)), ("decisions", len(rec.decisions)), ("seats", rec.rules.n_players)):
        assert raw_count(store.path, table, rec.game_id) == n
    assert store.get(rec.game_id) == rec


def test_prefix_lookup_and_clear_errors(store: GameStore) -> None:
    store.save(play("guardian5", 1, game_id="abc123"))
    store.save(play("guardian5", 2, game_id="abd456"))
    ulid_rec = play("guardian5", 3)
    store.save(ulid_rec)
    assert store.get("abc").game_id == "abc123"
    assert store.get("abd4").game_id == "abd456"
    assert store.get(ulid_rec.game_id[:12].lower()).game_id == ulid_rec.game_id
    assert store.has("abc123") and not store.has("abc")
    with pytest.raises(StoreError, match=r"'ab' matches several stored games \(abc123, abd456\)"):
        store.get("ab")
    with pytest.raises(LookupError, match="no stored game has an id starting with 'zzz'"):
        store.get("zzz")
    with pytest.raises(StoreError, match="empty game id"):
        store.get("  ")


def test_list_games_summaries_filter_order_and_limit(store: GameStore, records: list[GameRecord]) -> None:
    first, second, third = records[0], records[4], records[8]
    store.save(first, run="r1")
    store.save(second, run="r2")
    store.save(third, run="r1")
    summaries = store.list_games()
    assert [s.game_id for s in summaries] == [
        r.game_id for r in sorted((first, second, third), key=lambda r: (r.finished_at, r.game_id), reverse=True)
    ]
    by_id = {s.game_id: s for s in summaries}
    assert by_id[second.game_id] == GameSummary(
        game_id=second.game_id,
        run="r2",
        rules=second.rules.name,
        seed=second.seed,
        winner=second.winner,
        n_days=second.n_days,
        faults=second.faults,
        finished_at=second.finished_at,
        agents=second.agents,
    )
    assert {s.game_id for s in store.list_games(run="r1")} == {first.game_id, third.game_id}
    assert len(store.list_games(limit=2)) == 2
    assert store.list_games(run="nope") == []
    assert [r.game_id for r in store.iter_records(run="r1")] == [
        r.game_id for r in sorted((first, third), key=lambda r: (r.started_at, r.game_id))
    ]


def test_import_records_is_one_transaction(store: GameStore, records: list[GameRecord]) -> None:
    good = records[:3]
    bad = dataclasses.replace(records[3], agents=("x",))
    with pytest.raises(StoreError, match="has 1 agents for"):
        store.import_records([*good, bad])
    assert store.count() == 0
    assert store.import_records([*good, good[0]]) == 3
    assert store.import_records(records[:5]) == 2
    assert store.count() == 5


def test_meta_must_be_json(store: GameStore, records: list[GameRecord]) -> None:
    rec = records[0]
    odd = dataclasses.replace(rec, meta={"when": object()})
    with pytest.raises(StoreError, match=r"meta of game .* is not plain JSON"):
        store.save(odd)
    assert store.count() == 0
    with_meta = dataclasses.replace(rec, meta={"k": [1, 2.5, "é"]})
    store.save(with_meta)
    assert store.get(rec.game_id).meta == {"k": [1, 2.5, "é"]}


# ---------------------------------------------------------------- the file


def test_file_is_created_with_parents_in_wal_mode_and_reopens(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "deep" / "er" / "lycan.db"
    with GameStore(path) as s:
        s.save(records[0])
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
    with GameStore(path) as s:
        assert s.get(records[0].game_id) == records[0]


def test_two_stores_on_one_file(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "shared.db"
    with GameStore(path) as a, GameStore(path) as b:
        a.save(records[0])
        b.save(records[1])
        assert a.game_ids() == b.game_ids() == {records[0].game_id, records[1].game_id}


def test_closed_store_says_so(tmp_path: Path) -> None:
    s = GameStore(tmp_path / "x.db")
    s.close()
    s.close()
    with pytest.raises(StoreError, match="is closed"):
        s.count()


def one_sentence(err: pytest.ExceptionInfo[StoreError], path: Path) -> str:
    text = str(err.value)
    assert "\n" not in text and str(path) in text
    return text


def test_not_a_lycan_database(tmp_path: Path) -> None:
    text_file = tmp_path / "notes.db"
    text_file.write_text("these are not games\n" * 200)
    with pytest.raises(StoreError) as err:
        GameStore(text_file)
    assert "not a Lycan game database (it is not an SQLite file at all)" in one_sentence(err, text_file)
    assert text_file.read_text().startswith("these are not games")

    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE invoices (n INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as err:
        GameStore(other)
    assert "SQLite file of something else" in one_sentence(err, other)

    with pytest.raises(StoreError) as err:
        GameStore(tmp_path)
    assert "is a folder" in one_sentence(err, tmp_path)


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    GameStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE lycan_info SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer Lycan") as err:
        GameStore(path)
    one_sentence(err, path)


def test_default_db_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LYCAN_DB", str(tmp_path / "env.db"))
    assert default_db_path() == tmp_path / "env.db"
    monkeypatch.delenv("LYCAN_DB")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "lycan" / "lycan.db"


# ---------------------------------------------------------------- killed mid-save

CHILD = textwrap.dedent(
    """
    import sys, time
    from lycan.agents import RandomAgent
    from lycan.engine import run_sync
    from lycan.rules import get_preset
    from lycan.store import GameStore

    store = GameStore(sys.argv[1])
    rules = get_preset("aiwolf13")
    state = {"game": 0, "inserts": 0, "id": ""}

    def trace(sql):
        # Third game: once 40 of its events are written, announce it and wait to be killed.
        if state["game"] == 2 and sql.startswith("INSERT INTO events"):
            state["inserts"] += 1
            if state["inserts"] == 40:
                print("MID", state["id"], flush=True)
                time.sleep(30)

    store._conn.set_trace_callback(trace)
    for i in range(6):
        rec = run_sync(rules, [RandomAgent(i * 13 + s) for s in range(13)], i)
        state["game"], state["id"] = i, rec.game_id
        store.save(rec, run="killed")
        print("SAVED", rec.game_id, len(rec.events), flush=True)
    """
)


def test_sigkill_mid_save_leaves_no_partial_game(tmp_path: Path) -> None:
    path = tmp_path / "killed.db"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True, env=env)
    saved: dict[str, int] = {}
    half = ""
    try:
        assert child.stdout is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            word, gid, *rest = line.split()
            if word == "SAVED":
                saved[gid] = int(rest[0])
            elif word == "MID":
                half = gid
                break
        assert half, "the child never reached the middle of its third save"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(10)
        if child.stdout is not None:
            child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    assert len(saved) == 2

    with GameStore(path) as s:
        assert s.game_ids() == set(saved)
        assert not s.has(half)
        for gid, n_events in saved.items():
            rec = s.get(gid)
            assert len(rec.events) == n_events and rec.events[-1].kind == "game_over"
        for table in ("games", "seats", "events", "decisions"):
            assert raw_count(path, table, half) == 0
        assert s._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # A resumed run writes the missing game in full.
        again = run_sync(get_preset("aiwolf13"), [RandomAgent(2 * 13 + i) for i in range(13)], 2, game_id=half)
        assert s.save(again, run="killed")
        assert s.get(half) == again
        assert s.count("killed") == 3


# ---------------------------------------------------------------- JSON Lines


def test_jsonl_round_trip(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "out" / "games.jsonl"
    assert export_jsonl(records, path) == len(records)
    assert [p.name for p in path.parent.iterdir()] == ["games.jsonl"]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(records)
    assert json.loads(lines[0]) == records[0].to_dict()
    back = import_jsonl(path)
    assert back == records
    for a, b in zip(back, records, strict=True):
        assert a.to_dict() == b.to_dict()
        assert a.events == b.events
    with GameStore(tmp_path / "db.db") as s:
        assert s.import_records(back) == len(records)
        export_jsonl(s.iter_records(), tmp_path / "again.jsonl")
    assert sorted(import_jsonl(tmp_path / "again.jsonl"), key=lambda r: r.game_id) == sorted(
        records, key=lambda r: r.game_id
    )


def test_export_replaces_atomically(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "games.jsonl"
    export_jsonl(records[:2], path)

    def broken() -> Iterator[GameRecord]:
        yield records[2]
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        export_jsonl(broken(), path)
    assert import_jsonl(path) == records[:2]
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]


def write_lines(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


@pytest.mark.parametrize(
    ("spoil", "problem"),
    [
        (lambda d: '{"game_id": "x", "rules": ', r"line 3: not valid JSON \(Expecting value at column 27\)"),
        (lambda d: json.dumps({k: v for k, v in d.items() if k != "seed"}), "line 3: .*missing the field 'seed'"),
        (
            lambda d: json.dumps({**d, "events": [*d["events"][:5], {**d["events"][5], "kind": "meteor"}]}),
            "line 3: event 5: unknown event kind 'meteor'",
        ),
        (lambda d: json.dumps([d]), "line 3: expected a JSON object"),
        (lambda d: json.dumps({**d, "names": d["names"][:-1]}), "line 3: game .* has 4 names for 5 seats"),
    ],
)
def test_malformed_jsonl_names_file_and_line_and_writes_nothing(
    tmp_path: Path, records: list[GameRecord], spoil: object, problem: str
) -> None:
    five = [r for r in records if r.rules.n_players == 5]
    path = tmp_path / "bad.jsonl"
    lines = [json.dumps(r.to_dict()) for r in five[:3]]
    lines.insert(1, "")  # blank lines are fine and still counted
    lines[2] = spoil(five[1].to_dict())  # type: ignore[operator]
    write_lines(path, lines)
    with GameStore(tmp_path / "db.db") as s:
        with pytest.raises(JsonlError, match=f"^{re.escape(str(path))}, {problem}") as err:
            s.import_records(import_jsonl(path))
        assert isinstance(err.value, ValueError) and "\n" not in str(err.value)
        assert s.count() == 0


def test_unreadable_jsonl(tmp_path: Path) -> None:
    with pytest.raises(JsonlError, match="cannot read"):
        import_jsonl(tmp_path / "missing.jsonl")
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(JsonlError, match="not UTF-8"):
        import_jsonl(tmp_path / "bin.jsonl")
    (tmp_path / "empty.jsonl").write_text("")
    assert import_jsonl(tmp_path / "empty.jsonl") == []


# ---------------------------------------------------------------- seeds, old files, write protection


BIG_SEEDS = [2**128 - 1, 2**64 + 5, -(2**128 - 1), 2**63]


def test_seeds_of_128_bits_are_kept_exactly(tmp_path: Path, records: list[GameRecord]) -> None:
    big = [
        dataclasses.replace(rec, game_id=f"big{i}", seed=seed)
        for i, (rec, seed) in enumerate(zip(records, BIG_SEEDS, strict=False))
    ]
    with GameStore(tmp_path / "big.db") as s:
        assert s.import_records(big) == len(big)
        for rec in big:
            assert s.get(rec.game_id) == rec
        assert {g.game_id: g.seed for g in s.list_games()} == {r.game_id: r.seed for r in big}
        with pytest.raises(StoreError, match="does not fit in 128 bits"):
            s.save(dataclasses.replace(records[0], game_id="huge", seed=2**128))
    path = tmp_path / "big.jsonl"
    export_jsonl(big, path)
    assert import_jsonl(path) == big


def downgrade_to_version_1(path: Path) -> None:
    """Rewrite a store file in the first schema: seeds in an INTEGER column, schema_version 1."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("BEGIN")
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    conn.execute(sql.replace("CREATE TABLE games", "CREATE TABLE games_v1").replace("seed TEXT", "seed INTEGER"))
    conn.execute("INSERT INTO games_v1 SELECT * FROM games")
    conn.execute("DROP TABLE games")
    conn.execute("ALTER TABLE games_v1 RENAME TO games")
    conn.execute("CREATE INDEX games_by_run ON games (run, started_at)")
    conn.execute("CREATE INDEX games_by_time ON games (finished_at)")
    conn.execute("DROP TABLE model_calls")
    conn.execute("UPDATE lycan_info SET value = '1' WHERE key = 'schema_version'")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("COMMIT")
    assert {t for (t,) in conn.execute("SELECT DISTINCT typeof(seed) FROM games")} == {"integer"}
    conn.close()


def counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        return {
            t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("games", "seats", "events", "decisions")
        }
    finally:
        conn.close()


def test_a_version_1_file_is_migrated_without_losing_games(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "old.db"
    with GameStore(path) as s:
        s.import_records(records, run="old")
    downgrade_to_version_1(path)
    before = counts(path)

    with GameStore(path) as s:
        assert sorted(s.iter_records(), key=lambda r: r.game_id) == sorted(records, key=lambda r: r.game_id)
        assert s.count("old") == len(records)
        assert s._db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert s._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        big = dataclasses.replace(records[0], game_id="big", seed=2**128 - 1)
        assert s.save(big)
        assert s.get("big").seed == 2**128 - 1
    assert counts(path)["events"] == before["events"] + len(big.events)
    conn = sqlite3.connect(path)
    version = conn.execute("SELECT value FROM lycan_info WHERE key = 'schema_version'").fetchone()[0]
    assert (version, conn.execute("PRAGMA user_version").fetchone()[0]) == (str(SCHEMA_VERSION), SCHEMA_VERSION)
    assert {t for (t,) in conn.execute("SELECT DISTINCT typeof(seed) FROM games")} == {"text"}
    conn.close()
    # Deleting a game still removes its seats, events and answers with it.
    with GameStore(path) as s, s._write() as conn:
        conn.execute("DELETE FROM games WHERE game_id = 'big'")
    assert counts(path) == before


def test_model_calls_are_kept_and_a_version_2_file_gains_their_table(tmp_path: Path, records: list[GameRecord]) -> None:
    call = ModelCall(seat=1, request=4, kind="vote", model="m", prompt_tokens=9, reasoning="Thought: hmm")
    with_calls = dataclasses.replace(records[0], game_id="calls", model_calls=(call, call))
    path = tmp_path / "v2.db"
    with GameStore(path) as s:
        s.save(records[1])
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TABLE model_calls")
    conn.execute("UPDATE lycan_info SET value = '2' WHERE key = 'schema_version'")
    conn.close()
    with GameStore(path) as s:
        assert s.get(records[1].game_id) == records[1]
        assert s.save(with_calls)
        assert s.get("calls").model_calls == (call, call)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT value FROM lycan_info WHERE key = 'schema_version'").fetchone()[0] == "3"
    conn.close()


def test_a_write_protected_file_is_one_sentence(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "locked.db"
    with GameStore(path) as s:
        s.save(records[0])
    downgrade_to_version_1(path)  # an old file that cannot be upgraded is still readable
    with write_protected(path):
        with GameStore(path) as s:
            assert s.get(records[0].game_id) == records[0]
            with pytest.raises(StoreError, match="is write-protected") as err:
                s.ensure_writable()
            one_sentence(err, path)
            with pytest.raises(StoreError, match="is write-protected"):
                s.save(records[1])
        with pytest.raises(StoreError, match="is write-protected"):
            check_writable(path)
    assert counts(path)["games"] == 1


def test_check_writable_creates_nothing(tmp_path: Path) -> None:
    target = tmp_path / "new" / "deeper" / "games.db"
    assert check_writable(target) == target
    assert not (tmp_path / "new").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="is a file") as err:
        check_writable(tmp_path / "file" / "games.db")
    assert "\n" not in str(err.value)
    with pytest.raises(StoreError, match="is a folder"):
        check_writable(tmp_path)
    with pytest.raises(StoreError, match="cannot make the folder"):
        GameStore(tmp_path / "file" / "games.db")


def test_deeply_nested_jsonl_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "nested.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(JsonlError, match=r"line 1: its brackets nest too deeply"):
        import_jsonl(path)
    path.write_text(json.dumps({"game_id": "x", "meta": 1}).replace("1}", "[" * 50_000 + "]" * 50_000 + "}") + "\n")
    with pytest.raises(JsonlError, match=r"line 1: its brackets nest too deeply"):
        import_jsonl(path)


@pytest.mark.parametrize(
    ("spoil", "problem"),
    [
        (lambda r: dataclasses.replace(r, roles=(Role.WEREWOLF,) * 5), "deals werewolf 5, but its rules aiwolf5 deal"),
        (lambda r: dataclasses.replace(r, events=r.events[:5]), "cannot have happened .*does not end with game_over"),
        (
            lambda r: dataclasses.replace(r, winner="werewolf" if r.winner == "village" else "village"),
            "cannot have happened .*game_over says",
        ),
    ],
)
def test_impossible_games_are_not_imported(
    tmp_path: Path, records: list[GameRecord], spoil: object, problem: str
) -> None:
    five = [r for r in records if r.rules.name == "aiwolf5"]
    path = tmp_path / "bad.jsonl"
    write_lines(path, [json.dumps(five[0].to_dict()), json.dumps(spoil(five[1]).to_dict())])  # type: ignore[operator]
    with pytest.raises(JsonlError, match=f"line 2: game {five[1].game_id} {problem}") as err:
        import_jsonl(path)
    assert "\n" not in str(err.value)
    assert len(import_jsonl(path, check=False)) == 2


def test_probe_days_and_usage_are_typed_fields_kept_by_the_store(tmp_path: Path, records: list[GameRecord]) -> None:
    record = dataclasses.replace(
        records[0], game_id="typed", probe_days=(2,), usage={1: {"calls": 3, "prompt_tokens": 40, "model": "m"}}
    )
    with GameStore(tmp_path / "t.db") as s:
        assert s.save(record)
        back = s.get("typed")
    assert back.probe_days == (2,) and back.usage == {1: {"calls": 3, "prompt_tokens": 40, "model": "m"}}
    assert "usage" not in back.meta and "probe_days" not in back.meta
    # a record written before they were fields kept them in meta
    old = record.to_dict()
    old["meta"] = {**old["meta"], "probe_days": old.pop("probe_days"), "usage": old.pop("usage")}
    legacy = GameRecord.from_dict(old)
    assert legacy == back
