"""The frozen reference pool: versions follow content, bad entries are one sentence, games say their pool."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from _tiny_store import TinyStore
from lycan.arena import run_tournament
from lycan.arena.config import AgentSpec
from lycan.arena.pool import POOLS, changed_entries, entry_digests, load_pool, pool_baseline, pool_tournament
from lycan.cli import app
from lycan.rules import ConfigError, get_preset
from lycan.value.shipped import default_dir

TWO = {"name": "two", "entries": [{"name": "r", "agent": "random"}, {"name": "h", "agent": "heuristic"}]}


def test_the_built_in_pool_is_six_of_lycans_own_agents_and_its_version_is_stable() -> None:
    pool = load_pool("lycan-scripted")
    assert len(pool.entries) == 6
    assert pool.label == f"lycan-scripted@{pool.version}" and len(pool.version) == 12
    assert load_pool("lycan-scripted") == pool  # frozen twice: the same version
    assert load_pool(POOLS["lycan-scripted"]).version == pool.version
    deepwolf = pool.entry("deepwolf")
    assert any(k.startswith("file default/value.onnx") or k == "file default/value.onnx" for k in deepwolf.files)
    assert any(k.startswith("code lycan.agents.deepwolf") for k in deepwolf.files)
    with pytest.raises(ConfigError, match="has no entry 'oracle'"):
        pool.entry("oracle")


def test_any_change_to_an_entry_makes_a_new_version(tmp_path: Path) -> None:
    base = load_pool(TWO)
    options = load_pool({**TWO, "entries": [{"name": "r", "agent": "random", "options": {"talk_probability": 0.1}},
                                            TWO["entries"][1]]})  # fmt: skip
    assert options.version != base.version
    assert options.entry("h").digest == base.entry("h").digest  # the other entry is the same
    renamed = load_pool({**TWO, "entries": [{"name": "r2", "agent": "random"}, TWO["entries"][1]]})
    assert renamed.version != base.version
    # a network folder: the same files elsewhere give the same version; one byte more, a new one
    net = tmp_path / "net"
    shutil.copytree(default_dir(), net)
    pool = {"name": "nets", "entries": [{"name": "d", "agent": "deepwolf", "options": {"network": str(net)}},
                                        {"name": "r", "agent": "random"}]}  # fmt: skip
    first = load_pool(pool)
    moved = tmp_path / "elsewhere" / "net"
    shutil.copytree(net, moved)
    assert load_pool({**pool, "entries": [{**pool["entries"][0], "options": {"network": str(moved)}},  # type: ignore[dict-item]
                                          pool["entries"][1]]}).version == first.version  # fmt: skip
    with (net / "candidates.json").open("a") as f:
        f.write(" ")
    assert load_pool(pool).version != first.version


RANDOM = {"name": "b", "agent": "random"}


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        ([{"name": "a", "agent": "oracle"}, RANDOM], "unknown agent type 'oracle'"),
        ([{"name": "b", "agent": "heuristic"}, RANDOM], "'b' appears twice"),
        ([RANDOM], "at least 2"),
        ([{"name": "a", "agent": "deepwolf", "options": {"network": "/nowhere/net"}}, RANDOM],
         "pool entry 'a' names '/nowhere/net', which is not there"),
        ([{"name": "a", "agent": "llm", "model": "llamacpp:/nowhere/m.gguf"}, RANDOM], "which is not there"),
    ],
)  # fmt: skip
def test_a_bad_pool_is_one_sentence(entries: list[dict[str, object]], words: str) -> None:
    with pytest.raises(ConfigError, match=words) as err:
        load_pool({"name": "p", "entries": entries})
    assert "\n" not in str(err.value)


def test_games_against_a_pool_say_which_version_they_were_played_against(tmp_path: Path) -> None:
    pool = load_pool(TWO)
    config = pool_tournament(pool, AgentSpec(agent="heuristic-beliefs"), ["guardian5"], games=2)
    store = TinyStore(tmp_path / "p.db")
    try:
        result = run_tournament(config, store=store, progress=False)
        records = list(store.iter_records(config.run))
    finally:
        store.close()
    assert result.played == len(records) == 2 * 2 * 2  # entries x sides x games
    # a later round with more games adds games and leaves those played where they were
    more = pool_tournament(pool, AgentSpec(agent="heuristic-beliefs"), ["guardian5"], games=3)
    store = TinyStore(tmp_path / "p.db")
    try:
        assert run_tournament(more, store=store, progress=False).played == 2 * 2 * 1
        grown = {r.game_id: r for r in store.iter_records(config.run)}
    finally:
        store.close()
    assert all(grown[r.game_id].agents == r.agents for r in records)
    assert {r.meta["pool"] for r in records} == {pool.label}
    assert {r.meta["entrant"] for r in records} == {"heuristic-beliefs"}
    records = list(grown.values())
    # paired deals: each entry meets the entrant on the same seeds, on both sides
    seeds = {e.name: sorted(r.seed for r in records if e.spec.name in r.agents) for e in pool.entries}
    assert seeds["r"] == seeds["h"]
    # the entries are labelled POOL/ENTRY, so an entrant of an entry's type keeps its own label
    assert {a for r in records for a in r.agents} == {"heuristic-beliefs", "two/r", "two/h"}
    same = pool_tournament(pool, AgentSpec(agent="heuristic"), ["guardian5"], games=1)
    sides = {(s.village.name, s.werewolf.name) for s in same.settings if s.village and s.werewolf}
    assert sides == {("heuristic", "two/r"), ("two/r", "heuristic"), ("heuristic", "two/h"), ("two/h", "heuristic")}


def test_one_seat_rounds_rotate_the_roles_and_the_self_play_shares_the_deals(tmp_path: Path) -> None:
    pool = load_pool(TWO)
    entrant = AgentSpec(agent="heuristic")
    config = pool_tournament(pool, entrant, ["guardian5"], games=1, seat_rounds=1)
    base = pool_baseline(pool, ["guardian5"], games=1, seat_rounds=1)
    store = TinyStore(tmp_path / "p.db")
    try:
        run_tournament(config, store=store, progress=False)
        run_tournament(base, store=store, progress=False)
        records = list(store.iter_records(config.run))
        selfplay = list(store.iter_records(base.run))
    finally:
        store.close()
    one_seat = [r for r in records if str(r.meta["setting"]).endswith("-one-seat")]
    assert len(one_seat) == 2 * 5  # entries x a turn of guardian5's five seats
    for entry in pool.entries:  # against each entry, the entrant held each role of the deck once
        mine = [r for r in one_seat if entry.spec.name in r.agents]
        held = sorted(r.roles[r.agents.index("heuristic")].value for r in mine)
        assert held == sorted(role.value for role in get_preset("guardian5").deck())
        assert all(r.agents.count("heuristic") == 1 for r in mine)
    # every game the entrant played has its opponent's self-play on the same deal
    deals = {(r.seed, r.agents[0]) for r in selfplay}
    assert all(len(set(r.agents)) == 1 for r in selfplay) and {r.meta["baseline"] for r in selfplay} == {"1"}
    for r in records:
        opponent = next(a for a in r.agents if a != "heuristic")
        assert (r.seed, opponent) in deals
        same = next(b for b in selfplay if b.seed == r.seed and b.agents[0] == opponent)
        assert same.roles == r.roles  # the same deal
    assert json.loads(records[0].meta["pool_entries"]) == {e.name: e.digest for e in pool.entries}


def test_what_changed_in_a_pool_is_named(tmp_path: Path) -> None:
    pool = load_pool(TWO)
    assert changed_entries(entry_digests(pool), pool) == []
    assert changed_entries(None, pool) == ["the entries"]
    r, h = {"name": "r", "agent": "random"}, {"name": "h", "agent": "heuristic"}  # TWO's entries
    other = load_pool({"name": "two", "entries": [r, {"name": "z", "agent": "random"}]})
    assert changed_entries(entry_digests(pool), other) == ["entry 'h' was removed", "entry 'z' was added"]
    moved = load_pool({"name": "two", "entries": [{**r, "options": {"talk_probability": 0.5}}, h]})
    assert changed_entries(entry_digests(pool), moved) == ["entry 'r' plays by other files or options"]


def test_the_pool_commands(tmp_path: Path) -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["pool", "show", "lycan-scripted"])
    assert shown.exit_code == 0 and load_pool("lycan-scripted").label in shown.output
    bad = runner.invoke(app, ["pool", "show", str(tmp_path / "missing.yaml")])
    assert bad.exit_code == 2 and "no pool file" in bad.output
    (tmp_path / "two.yaml").write_text(
        "name: two\nentries:\n  - {name: r, agent: random}\n  - {name: h, agent: heuristic}\n"
    )
    two = str(tmp_path / "two.yaml")
    args = ["pool", "play", "heuristic", "--pool", two, "--preset", "guardian5", "--games", "1"]
    played = runner.invoke(app, [*args, "--db", str(tmp_path / "p.db")])
    assert played.exit_code == 0, played.output
    assert f"against pool {load_pool(TWO).label}: 4 played" in played.output
