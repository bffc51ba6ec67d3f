"""AIWolf CSV game logs: export, import, round trip, and logs in the reference server's own shape.

`tests/aiwolf_logs/` holds two logs as the reference server writes them: a 5-player game in the
INLG 2025 shape (CRLF line endings, an utterance with a bare carriage return, an errored agent
with a blank status, aborted as a draw) and a 13-player game in the current shape (unix times on
utterances, two whisper sessions on day 0, an attack with no target, an errored agent). A third
is that 13-player game as older servers number it: `idx` starts again at 0 in each session.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lycan.agents import RandomAgent
from lycan.aiwolf.log import META_KEY, LogFormatError, export_log, import_log, read_log, write_log
from lycan.engine import run_sync
from lycan.engine.events import Died, Divined, Executed, GameOver, Guarded, NightResolved, Talk, event_to_dict
from lycan.engine.record import GameRecord
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


def test_commas_stay_and_line_breaks_are_replaced() -> None:
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
    assert line.endswith(",Hi, all. I am, honestly, a villager.")  # as the reference server writes them
    back = import_log(text)
    assert [t.text for t in back.events if isinstance(t, Talk) and "honestly" in t.text] == [
        "Hi, all. I am, honestly, a villager."
    ]
    assert export_log(back) == text


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


LOGS = Path(__file__).parent / "aiwolf_logs"
LOG5 = LOGS / "inlg2025_5p_aborted.log"
LOG13 = LOGS / "aiwolf13_whispers_errored.log"
LOG13_RESTARTS = LOGS / "aiwolf13_whisper_idx_restarts.log"


@pytest.mark.parametrize("path", [LOG5, LOG13, LOG13_RESTARTS], ids=["5p", "13p", "13p-restarts"])
def test_real_logs_round_trip_byte_for_byte(path: Path, tmp_path: Path) -> None:
    raw = path.read_bytes()
    record = import_log(raw.decode("utf-8"))
    assert export_log(record).encode("utf-8") == raw
    again = write_log(read_log(path), tmp_path / "again.log").read_bytes()
    assert again == raw
    stored = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))  # as a store keeps it
    assert export_log(stored).encode("utf-8") == raw


def test_real_log_through_the_command_line_and_the_store(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lycan.cli import app

    runner = CliRunner()
    db = str(tmp_path / "logs.db")
    for path in (LOG5, LOG13):
        result = runner.invoke(app, ["aiwolf-log", "import", str(path), "--db", db])
        assert result.exit_code == 0, result.output
        game_id = result.output.split(" as ")[-1].strip()
        out = tmp_path / f"{path.stem}.out"
        result = runner.invoke(app, ["aiwolf-log", "export", game_id, "--out", str(out), "--db", db])
        assert result.exit_code == 0, result.output
        assert out.read_bytes() == path.read_bytes()


def test_bare_carriage_return_stays_in_the_utterance() -> None:
    record = read_log(LOG5)
    texts = [e.text for e in record.events if isinstance(e, Talk)]
    assert "Good morning.\rI'm Shion. Let's work together, calmly and carefully." in texts
    assert "Please vote Benjamin today.\r" in texts
    assert record.meta[META_KEY]["newline"] == "\r\n" and record.meta[META_KEY]["final_newline"]
    assert "talk_times" not in record.meta[META_KEY]


def test_ascii_commas_in_utterances_are_kept() -> None:
    record = read_log(LOG13)
    texts = [e.text for e in record.events if isinstance(e, Talk)]
    assert "I'm the seer. I divined Shion last night, and Shion is a werewolf." in texts
    assert not any(t.endswith(tuple("0123456789")) for t in texts)  # the unix times are not text
    line = next(line for line in export_log(record).splitlines() if "and call Kenji a wolf" in line)
    assert line == "0,whisper,5,0,11,I'll claim seer tomorrow, and call Kenji a wolf.,1755590624"


def whisper_numbers(text: str, day: int) -> list[tuple[int, int, int]]:
    """(idx, turn, agent) of the day's whisper lines."""
    rows = [line.split(",") for line in text.splitlines()]
    return [(int(r[2]), int(r[3]), int(r[4])) for r in rows if r[0] == str(day) and r[1] == "whisper"]


def test_the_second_whisper_session_of_day_0_starts_its_turns_again() -> None:
    record = read_log(LOG13)
    expected = [(0, 0, 6), (1, 0, 1), (2, 0, 11), (3, 1, 6), (4, 1, 1)]  # morning: before the talk
    expected += [(5, 0, 11), (6, 0, 6), (7, 0, 1), (8, 1, 11), (9, 1, 6)]  # evening: idx goes on, turns restart
    assert whisper_numbers(LOG13.read_text(encoding="utf-8"), 0) == expected
    whispers = [e for e in record.events if isinstance(e, Talk) and e.channel == "whisper" and e.day == 0]
    assert [e.turn for e in whispers] == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]  # the engine's count within a session
    assert [e.phase for e in whispers] == ["day"] * 5 + ["night"] * 5
    # a record that did not come from a log (no meta) is numbered the same way, from its events
    native = GameRecord(**{**{f: getattr(record, f) for f in record.__dataclass_fields__}, "meta": {}})
    assert whisper_numbers(export_log(native), 0) == expected


def test_a_whisper_session_whose_idx_starts_again_at_0() -> None:
    raw = LOG13_RESTARTS.read_bytes()
    record = import_log(raw.decode("utf-8"))
    assert export_log(record).encode("utf-8") == raw
    expected = [(0, 0, 6), (1, 0, 1), (2, 0, 11), (3, 1, 6), (4, 1, 1)]
    expected += [(0, 0, 11), (1, 0, 6), (2, 0, 1), (3, 1, 11), (4, 1, 6)]  # evening: idx and turns restart
    assert whisper_numbers(raw.decode("utf-8"), 0) == expected
    assert whisper_numbers(export_log(record), 0) == expected
    assert record.meta[META_KEY]["idx_restarts"] == [[0, "whisper", 1]]
    assert "idx_restarts" not in read_log(LOG13).meta[META_KEY]
    # the numbering is a detail of the log: the events are those of the log that counts on
    assert comparable(record) == comparable(read_log(LOG13))
    native = GameRecord(**{**{f: getattr(record, f) for f in record.__dataclass_fields__}, "meta": {}})
    assert whisper_numbers(export_log(native), 0) == whisper_numbers(LOG13.read_text(encoding="utf-8"), 0)


DAY1_WHISPERS = """\
1,whisper,0,0,1,Shion's gone. Who do we bite?,1755590869
1,whisper,1,0,11,Kenji has to go, or we lose.,1755590876
1,whisper,2,1,1,Over,1755590883
1,whisper,3,1,11,Over,1755590890
1,guard,8,3,SEER
"""


@pytest.mark.parametrize(
    ("block", "turns"),
    [
        # a second night session after the guard, counted from 0 again
        (
            "1,whisper,0,0,1,Shion's gone. Who do we bite?,1755590869\n"
            "1,whisper,1,0,11,Over,1755590876\n"
            "1,whisper,2,1,1,Over,1755590883\n"
            "1,guard,8,3,SEER\n"
            "1,whisper,0,0,11,Kenji has to go, or we lose.,1755590890\n"
            "1,whisper,1,0,1,Over,1755590891\n"
            "1,whisper,2,1,11,Over,1755590892\n",
            [0, 1, 2, 0, 1, 2],
        ),
        # two sessions with nothing between them, the second counted from 0 again
        (
            "1,whisper,0,0,1,Shion's gone. Who do we bite?,1755590869\n"
            "1,whisper,1,0,11,Over,1755590876\n"
            "1,whisper,0,0,11,Kenji has to go, or we lose.,1755590890\n"
            "1,whisper,1,0,1,Over,1755590891\n"
            "1,guard,8,3,SEER\n",
            [0, 1, 0, 1],
        ),
        # two sessions with nothing between them and idx counting on: the turn going back tells them apart
        (
            "1,whisper,0,0,1,Shion's gone. Who do we bite?,1755590869\n"
            "1,whisper,1,0,11,Over,1755590876\n"
            "1,whisper,2,0,11,Kenji has to go, or we lose.,1755590890\n"
            "1,whisper,3,0,1,Over,1755590891\n"
            "1,guard,8,3,SEER\n",
            [0, 1, 0, 1],
        ),
    ],
    ids=["after-guard", "adjacent-restart", "adjacent-counting-on"],
)
def test_whisper_sessions_on_another_day_keep_their_numbers(block: str, turns: list[int]) -> None:
    raw = LOG13.read_text(encoding="utf-8")  # day 0 counts on, as the current server does
    assert DAY1_WHISPERS in raw
    text = raw.replace(DAY1_WHISPERS, block)
    record = import_log(text)
    assert export_log(record) == text
    whispers = [e for e in record.events if isinstance(e, Talk) and e.channel == "whisper" and e.day == 1]
    assert [e.turn for e in whispers] == turns  # the engine's count within each of the two sessions
    restarts = [[1, "whisper", 1]] if "1,whisper,0,0,11" in block else None
    assert record.meta[META_KEY].get("idx_restarts") == restarts
    stored = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert export_log(stored) == text


def test_an_attack_with_no_target() -> None:
    record = read_log(LOG13)
    nights = [e for e in record.events if isinstance(e, NightResolved) and e.day == 1]
    assert len(nights) == 1 and nights[0].attacked is None and nights[0].deaths == ()
    assert "1,attack,-1,true" in export_log(record).splitlines()
    assert record.meta[META_KEY]["no_target_attacks"] == [[1, True]]
    assert not [e for e in record.events if isinstance(e, Died) and e.day == 2 and e.cause == "night"]


def test_a_blank_status_is_not_a_death() -> None:
    record = read_log(LOG13)
    jonathan = record.names.index("Jonathan")
    assert not [e for e in record.events if isinstance(e, Died) and e.target == jonathan]
    assert record.winner == "village"
    assert export_log(record).splitlines()[-2] == "4,status,13,VILLAGER,ALIVE,kanolab13,Sakura"
    assert "4,status,9,VILLAGER,,kanolab9,Jonathan" in export_log(record).splitlines()
    aborted = read_log(LOG5)
    sakura = aborted.names.index("Sakura")
    assert not [e for e in aborted.events if isinstance(e, Died) and e.target == sakura]
    assert aborted.winner == "draw" and export_log(aborted).endswith("3,result,1,1,NONE\r\n")
    assert aborted.meta[META_KEY]["blank_status"] == [[3, sakura]]
