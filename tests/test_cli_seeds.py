"""Seeds at the command line: agents and the person's seat get their own streams; a live seed stays secret."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import lycan.cli as cli
from lycan.agents import make_agent
from lycan.engine import Game
from lycan.engine.seeds import derive, stream
from lycan.eval.metrics import side_win_rates
from lycan.rules import Team, get_preset, team_of
from lycan.store import GameStore

runner = CliRunner()


def test_agents_are_seeded_from_their_own_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """`seed * 1_000 + seat` would let an agent recover the game seed, and so the deal."""
    seen: list[int] = []

    def spy(kind: str, seed: int, **kw: object) -> object:
        seen.append(seed)
        return make_agent(kind, seed, **kw)  # type: ignore[arg-type]

    import lycan.agents

    monkeypatch.setattr(lycan.agents, "make_agent", spy)
    cli.Lineup(get_preset("aiwolf5"), "random", "local").players(7)
    assert seen == [derive(7, "agent", seat) for seat in range(5)]


def test_play_keeps_a_fresh_seed_secret_until_the_end(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    proc = subprocess.run(
        [sys.executable, "-m", "lycan", "play", "--preset", "aiwolf5", "--agents", "random", "--db", str(db)],
        input="/over\n1\n" * 300,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    with GameStore(db) as store:
        (record,) = store.iter_records()
    seed = record.seed
    assert seed >= 2**64, "a live table's seed is a fresh 128-bit one, far beyond any search"
    before, shown, after = proc.stdout.partition(f"Seed {seed}.")
    assert shown, proc.stdout[-2000:]
    assert str(seed) not in before and "Seed" not in before
    assert "win" in before.lower() and "saved as" in after
    seat = int(re.search(r"You are seat (\d+)\.", before).group(1))  # type: ignore[union-attr]
    assert record.agents[seat - 1] == "human"
    assert seat - 1 == stream(seed, "human seat").randrange(5)


def test_simulate_with_team_lineups_prints_each_side(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli.console, "width", 200)  # the table's cells on one line, whatever the terminal
    db = tmp_path / "t.db"
    args = ["simulate", "-p", "aiwolf5", "--village", "heuristic", "--werewolf", "random", "-n", "12", "--swap"]
    result = runner.invoke(cli.app, [*args, "--save", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "24 games" in result.output and "agent vs opponent by side" in result.output
    rules = get_preset("aiwolf5")
    with GameStore(db) as store:
        records = list(store.iter_records())
    assert len(records) == 24
    for rec in records:  # the deal is the game seed's; each side is played by one agent
        assert rec.roles == Game(rules, rec.seed).roles
        village = {rec.agents[s] for s, role in enumerate(rec.roles) if team_of(role) is Team.VILLAGE}
        werewolf = {rec.agents[s] for s, role in enumerate(rec.roles) if team_of(role) is Team.WEREWOLF}
        assert len(village) == 1 and len(werewolf) == 1 and village != werewolf
    rows = {
        cells[1]: cells[2:6]
        for line in result.output.splitlines()
        if len(cells := [c.strip() for c in line.split("│")]) == 7 and cells[1] in ("heuristic", "random")
    }
    for agent, opponent in (("heuristic", "random"), ("random", "heuristic")):
        side = side_win_rates(records, agent, opponent)
        assert (side.village.n, side.werewolf.n) == (12, 12)
        assert rows[agent] == [opponent, *(str(r).strip() for r in (side.village, side.werewolf, side.overall))]
    for bad, needle in (
        (["--village", "heuristic"], "--village and --werewolf go together"),
        (["--village", "heuristic,random", "--werewolf", "random"], "one agent type"),
        (["--swap"], "--swap exchanges the sides"),
    ):
        result = runner.invoke(cli.app, ["simulate", "-p", "aiwolf5", "-n", "2", *bad])
        assert result.exit_code == 2 and needle in result.output, result.output
