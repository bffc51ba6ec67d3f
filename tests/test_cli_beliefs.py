"""`lycan replay --beliefs`: the suspicion meter after each day's talk, vote and night, then beside the truth."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lycan.agents import HeuristicAgent
from lycan.cli import app
from lycan.engine import GameRecord, run_sync
from lycan.engine.events import Divined
from lycan.engine.seeds import derive
from lycan.engine.stepping import checkpoints
from lycan.rules import Role, Team, get_preset, team_of
from lycan.store import GameStore

runner = CliRunner()
ROW = re.compile(r"^  (?P<name>.+?)\s+(?P<pct>\d+)% #*\s+likeliest (?P<role>\w+) (?P<role_pct>\d+)%(?P<truth>.*)$")


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GameRecord]:
    rules = get_preset("aiwolf5")
    record = run_sync(rules, [HeuristicAgent(derive(3, "agent", s)) for s in range(rules.n_players)], 3)
    assert any(isinstance(e, Divined) for e in record.events)
    db = tmp_path_factory.mktemp("beliefs") / "games.db"
    with GameStore(db) as store:
        store.save(record)
    return db, record


def replay(db: Path, *args: str) -> str:
    result = runner.invoke(app, ["replay", *args, "--db", str(db)])
    assert result.exit_code == 0, result.output
    return result.output


def blocks(out: str) -> dict[str, list[re.Match[str]]]:
    """The meter blocks of the output by heading, each a list of seat rows."""
    found: dict[str, list[re.Match[str]]] = {}
    heading = None
    for line in out.splitlines():
        if line.startswith("-- P(werewolf side)"):
            heading = line
            found[heading] = []
        elif heading is not None and (row := ROW.match(line)):
            found[heading].append(row)
        else:
            heading = None
    return found


def test_replay_with_beliefs_shows_the_meter_after_every_part_and_the_truth(stored: tuple[Path, GameRecord]) -> None:
    db, record = stored
    out = replay(db, record.game_id[:10], "--beliefs")
    found = blocks(out)
    labels = [p.label for p in checkpoints(record.events)]
    assert len(found) == len(labels) + 1
    for heading, label in zip(found, labels, strict=False):
        assert heading == f"-- P(werewolf side), {label} (public record) --"
    assert "day 1, after the talk" in labels and "day 1, after the vote" in labels and "after night 1" in labels
    wolves = sum(team_of(r) is Team.WEREWOLF for r in record.roles)
    for rows in found.values():
        assert [r["name"].strip() for r in rows] == list(record.names)
        chances = [int(r["pct"]) for r in rows]
        assert all(0 <= c <= 100 for c in chances) and all(0 < int(r["role_pct"]) <= 100 for r in rows)
        assert math.isclose(sum(chances), 100 * wolves, abs_tol=len(rows))  # rounded to whole percent each
    last = list(found.values())[-1]
    assert [r["truth"] for r in last] == [
        f"  | truly {role.value} ({team_of(role).value} side)" for role in record.roles
    ]
    assert "[private:" in out  # the whole log is still printed, its secrets marked


def test_replay_as_the_seer_shows_what_the_seer_believed(stored: tuple[Path, GameRecord]) -> None:
    db, record = stored
    seer = record.roles.index(Role.SEER)
    public = blocks(replay(db, record.game_id, "--beliefs"))
    mine_out = replay(db, record.game_id, "--beliefs", "--as", str(seer + 1))
    mine = blocks(mine_out)
    assert "[private:" not in mine_out and "divined" in mine_out
    assert all(f"({record.names[seer]}'s view)" in heading for heading in mine)
    values = [[(r["pct"], r["role"]) for r in rows] for rows in mine.values()]
    assert values != [[(r["pct"], r["role"]) for r in rows] for rows in public.values()]
    for rows in mine.values():
        me = rows[seer]
        assert me["name"].strip() == f"{record.names[seer]} (you)"
        assert (me["pct"], me["role"], me["role_pct"]) == ("0", "seer", "100")
    # the first divination moves the seer's meter on its target, and not the public one
    target = next(e for e in record.events if isinstance(e, Divined)).target
    seen = next(rows for heading, rows in mine.items() if "after night 0" in heading)[target]
    told = next(rows for heading, rows in public.items() if "after night 0" in heading)[target]
    assert (seen["pct"], seen["role"]) != (told["pct"], told["role"])


def test_replay_without_beliefs_is_unchanged(stored: tuple[Path, GameRecord]) -> None:
    db, record = stored
    out = replay(db, record.game_id)
    assert "P(werewolf side)" not in out and "likeliest" not in out
