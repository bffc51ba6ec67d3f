"""A full guardian7 game of `camwolf` seats on the embedded model, through the command line.

The rules are guardian7's with one utterance per seat and day (the rules allow it: talk limits are
data) and generous timeouts, so the game fits a few minutes on two cores; it is played to its end.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lycan.agents.phrasing import narrates_self
from lycan.cli import app
from lycan.engine.events import Talk
from lycan.store import GameStore

RULES = """preset: guardian7
options:
  talk: {rounds: 1, per_agent: 1, per_day: 7, max_length: 125}
  whisper_limits: {rounds: 1, per_agent: 1, per_day: 7, max_length: 125}
  talk_timeout: 300
  action_timeout: 300
"""


def test_a_guardian7_game_of_camwolf_seats_on_the_embedded_model(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    db = tmp_path / "g.db"
    args = ["game", "--preset", str(rules), "--agents", "camwolf", "--model", "local", "--grounding", "beliefs"]
    result = CliRunner().invoke(app, [*args, "--seed", "2", "--db", str(db)])
    assert result.exit_code == 0, result.output
    with GameStore(db) as store:
        (record,) = list(store.iter_records())
    assert record.winner is not None and set(record.agents) == {"camwolf"}
    talk = [e for e in record.events if isinstance(e, Talk) and e.channel == "talk" and not (e.over or e.skip)]
    assert talk, "the seats spoke"
    assert all(e.manner is not None for e in talk if e.day >= 1), "each day's speech has its manner"
    assert not [e.text for e in talk if narrates_self(e.text, record.names[e.actor])]
    reasons = [c for c in record.model_calls if c.kind == "reason"]
    read = [c for c in reasons if not c.error]
    assert read, [c.error for c in reasons]
    for call in read:
        identifications = json.loads(call.reasoning)["identifications"]
        assert all(item["premises"] for item in identifications)
