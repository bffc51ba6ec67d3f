"""AIWolf CSV game logs: export, import, round trip, and logs in the reference server's own shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from lycan.agents import RandomAgent
from lycan.engine import run_sync
from lycan.engine.events import Divined, Executed, GameOver, Guarded, Talk, event_to_dict
from lycan.engine.record import GameRecord
from lycan.protocol.aiwolf_log import COMMA, LogFormatError, export_log, import_log, read_log, write_log
from lycan.rules import get_preset
from lycan.rules.roles import Role


def play(preset: str, seed: int) -> GameRecord:
    rules = get_preset(preset)
    return run_sync(rules, [RandomAgent(seed * 31 + s) for s in range(rules.n_players)], seed)


def comparable(record: GameRecord) -> list[dict[str, object]]:
    out = []
    for e in record.events:
        d = event_to_dict(e)
        d.pop("id")
        d.pop("reason", None)
        out.append(d)
    return out


@pytest.mark.parametrize("preset", ["aiwolf5", "aiwolf13"])
def test_round_trip_keeps_the_log_and_the_events(preset: str) -> None:
    for seed in range(8):
        record = play(preset, seed)
        text = export_log(record)
        back = import_log(text)
        assert export_log(back) == text
        assert back.roles == record.roles and back.winner == record.winner and back.names == record.names
        assert back.agents == record.agents and back.seed == 0 and back.decisions == ()
        assert comparable(back) == comparable(record)
        assert back.rules.name == preset


def test_rows_have_the_aiwolf_shape() -> None:
    record = play("aiwolf13", 3)
    rows = [line.split(",") for line in export_log(record).splitlines()]
    kinds = {r[1] for r in rows}
    assert {"status", "talk", "vote", "execute", "divine", "attackVote", "attack", "result"} <= kinds
    assert rows[0][:5] == ["0", "status", "1", rows[0][3], "ALIVE"] and len(rows[0]) == 7
    assert sum(1 for r in rows if r[0] == "0" and r[1] == "status") == 13
    widths = {"status": 7, "talk": 6, "whisper": 6, "vote": 4, "attackVote": 4, "execute": 4, "divine": 5}
    widths |= {"guard": 5, "attack": 4, "result": 5}
    for r in rows:
        assert len(r) == widths[r[1]], r
    result = rows[-1]
    assert result[1] == "result" and result[4] == {"village": "VILLAGER", "werewolf": "WEREWOLF"}[record.winner]
    executed = [e.target + 1 for e in record.events if isinstance(e, Executed)]
    assert [int(r[2]) for r in rows if r[1] == "execute"] == executed
    divined = [(e.actor + 1, e.target + 1, e.result.value.upper()) for e in record.events if isinstance(e, Divined)]
    assert [(int(r[2]), int(r[3]), r[4]) for r in rows if r[1] == "divine"] == divined
    guards = [e for e in record.events if isinstance(e, Guarded)]
    assert len([r for r in rows if r[1] == "guard"]) == len(guards)


def test_commas_and_line_breaks_are_replaced() -> None:
    record = play("aiwolf5", 1)
    events = list(record.events)
    i = next(k for k, e in enumerate(events) if isinstance(e, Talk) and not e.over)
    talk = events[i]
    assert isinstance(talk, Talk)
    events[i] = Talk(
        id=talk.id, day=talk.day, phase=talk.phase, actor=talk.actor, text="Hi, all.\nI am, honestly, a villager."
    )
    changed = GameRecord(**{**{f: getattr(record, f) for f in record.__dataclass_fields__}, "events": tuple(events)})
    text = export_log(changed)
    line = next(line for line in text.splitlines() if "honestly" in line)
    assert line.count(",") == 5 and f"Hi{COMMA} all. I am{COMMA} honestly{COMMA} a villager." in line
    assert export_log(import_log(text)) == text


REFERENCE_LOG = """\
0,status,1,WEREWOLF,ALIVE,kanolab1,Minato
0,status,2,POSSESSED,ALIVE,kanolab2,Takumi
0,status,3,SEER,ALIVE,kanolab3,Kenji
0,status,4,VILLAGER,ALIVE,kanolab4,Ryuji
0,status,5,VILLAGER,ALIVE,kanolab5,Daisuke
0,talk,0,0,1,Hello everyone.,1735689600
0,talk,1,0,3,@Minato  good morning,1735689601
0,talk,2,1,1,Over,1735689602
0,talk,3,1,3,Over,1735689603
0,divine,3,1,WEREWOLF
1,status,1,WEREWOLF,ALIVE,kanolab1,Minato
1,status,2,POSSESSED,ALIVE,kanolab2,Takumi
1,status,3,SEER,ALIVE,kanolab3,Kenji
1,status,4,VILLAGER,DEAD,kanolab4,Ryuji
1,status,5,VILLAGER,ALIVE,kanolab5,Daisuke
1,talk,0,0,3,Minato is a werewolf.,1735689700
1,talk,1,0,1,Skip,1735689701
1,vote,1,3
1,vote,2,3
1,vote,3,1
1,vote,5,1
1,vote,1,3
1,vote,2,3
1,vote,3,1
1,vote,5,1
1,execute,3,SEER
1,attackVote,1,5
1,attack,5,true
2,status,1,WEREWOLF,ALIVE,kanolab1,Minato
2,status,2,POSSESSED,ALIVE,kanolab2,Takumi
2,status,3,SEER,DEAD,kanolab3,Kenji
2,status,4,VILLAGER,DEAD,kanolab4,Ryuji
2,status,5,VILLAGER,DEAD,kanolab5,Daisuke
2,result,0,1,WEREWOLF
"""


def test_import_a_reference_server_log(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    path.write_text(REFERENCE_LOG, encoding="utf-8")
    record = read_log(path)
    assert record.names == ("Minato", "Takumi", "Kenji", "Ryuji", "Daisuke")
    assert record.agents == tuple(f"kanolab{i}" for i in range(1, 6))
    assert record.roles[0] is Role.WEREWOLF and record.roles[2] is Role.SEER
    assert record.winner == "werewolf" and record.rules.name == "aiwolf5"
    talks = [e for e in record.events if isinstance(e, Talk)]
    assert [t.text for t in talks][:2] == ["Hello everyone.", "@Minato  good morning"]  # unix times dropped
    assert talks[-1].skip and talks[2].over
    votes = [e for e in record.events if e.kind == "vote"]
    assert [v.round for v in votes] == [0, 0, 0, 0, 1, 1, 1, 1]  # type: ignore[attr-defined]
    deaths = [(e.day, e.target, e.cause) for e in record.events if e.kind == "died"]  # type: ignore[attr-defined]
    assert deaths == [(1, 3, "night"), (1, 2, "executed"), (2, 4, "night")]
    assert isinstance(record.events[-1], GameOver)
    again = write_log(record, tmp_path / "again.log").read_text(encoding="utf-8")
    assert export_log(import_log(again)) == again


def test_malformed_logs_say_which_line() -> None:
    with pytest.raises(LogFormatError, match="status lines"):
        import_log("")
    with pytest.raises(LogFormatError, match="line 6"):
        import_log(REFERENCE_LOG.replace("0,talk,0,0,1,", "0,talk,0,0,x,"))
    with pytest.raises(LogFormatError, match="no result"):
        import_log("\n".join(REFERENCE_LOG.splitlines()[:-1]))
    with pytest.raises(LogFormatError, match="unknown role"):
        import_log(REFERENCE_LOG.replace("SEER,ALIVE,kanolab3", "WIZARD,ALIVE,kanolab3", 1))
