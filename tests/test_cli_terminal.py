"""What `lycan` prints of names, talk, records and input is shown as written, never run by the terminal.

A stored game whose talk and names hold ESC sequences (window title, colours, clear screen), BEL,
bidi overrides and rich markup must come out of `lycan replay` and `lycan games` with those
characters as visible codes (`\\x1b`, `<U+202E>`), and error sentences must quote input the same way.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path

import pytest
from rich.markup import escape
from rich.table import Table
from typer.testing import CliRunner, Result

from lycan.agents import RandomAgent
from lycan.agents.human import HumanAgent
from lycan.cli import app, final_view
from lycan.engine import GameRecord, run_sync
from lycan.engine.events import GameStarted, Talk
from lycan.rules import get_preset
from lycan.rules.text import BIDI_CONTROLS
from lycan.store import GameStore
from lycan.terminal import TerminalConsole, visible

runner = CliRunner()

TITLE = "\x1b]0;pwned\x07"  # sets the terminal window's title
RED = "\x1b[31m"  # turns the rest of the output red
FLIP = "\u202e"  # right-to-left override: "gnp.exe" shows as "exe.png"
HOSTILE_TALK = f"hello {TITLE}there {RED}red {FLIP}gnp.exe [bold]loud[/] :smile: back\x08\rover"
HOSTILE_NAME = f"Ri{RED}n{FLIP}"
HOSTILE_AGENT = "rand\x1b[2Jom"  # clears the screen
RAW = ("\x1b", "\x07", "\x08", "\r", *BIDI_CONTROLS)


def assert_safe(text: str) -> None:
    """Nothing in `text` can drive a terminal: no ESC, BEL, backspace, carriage return or bidi control."""
    found = sorted({f"U+{ord(ch):04X}" for ch in text if ch in RAW})
    assert not found, f"raw control characters reached the terminal: {found}\n{text!r}"


def outputs(result: Result) -> str:
    """Everything a command wrote, stdout and stderr (checked apart: each could reach a terminal)."""
    assert_safe(result.stdout)
    assert_safe(result.stderr)
    return result.stdout + result.stderr


def hostile_record() -> GameRecord:
    """A finished aiwolf5 game whose first talk, seat 1's name and agent labels hold terminal controls."""
    rules = get_preset("aiwolf5")
    record = run_sync(rules, [RandomAgent(s) for s in range(5)], 7)
    names = (HOSTILE_NAME, *record.names[1:])
    events = []
    spoken = False
    for event in record.events:
        if isinstance(event, GameStarted):
            event = dataclasses.replace(event, names=names)
        elif isinstance(event, Talk) and not spoken and not (event.over or event.skip) and event.channel == "talk":
            event = dataclasses.replace(event, text=HOSTILE_TALK)
            spoken = True
        events.append(event)
    assert spoken
    return dataclasses.replace(record, names=names, agents=(HOSTILE_AGENT, *record.agents[1:]), events=tuple(events))


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, GameRecord]:
    db = tmp_path / "hostile.db"
    record = hostile_record()
    with GameStore(db) as store:
        store.save(record)
        assert store.get(record.game_id).names[0] == HOSTILE_NAME  # the store keeps the text as it was
    return db, record


def speaker_seat(record: GameRecord) -> int:
    return next(e.actor for e in record.events if isinstance(e, Talk) and e.text == HOSTILE_TALK)


@pytest.mark.parametrize("extra", [[], ["--as", "1"], ["--as", "speaker"], ["--beliefs"]])
def test_replay_shows_hostile_talk_and_names_as_codes(stored: tuple[Path, GameRecord], extra: list[str]) -> None:
    db, record = stored
    extra = [str(speaker_seat(record) + 1) if arg == "speaker" else arg for arg in extra]
    result = runner.invoke(app, ["replay", record.game_id, "--db", str(db), *extra])
    assert result.exit_code == 0, result.output
    out = outputs(result)
    assert "Ri\\x1b[31mn<U+202E>" in out  # the name, wherever it appears
    if extra[:1] != ["--as"] or extra[1] == str(speaker_seat(record) + 1):
        assert "\\x1b]0;pwned\\x07there \\x1b[31mred <U+202E>gnp.exe" in out
        assert "[bold]loud[/] :smile: back\\x08\\x0dover" in out  # markup and emoji codes stay plain text


def test_games_lists_hostile_agent_labels_as_codes(stored: tuple[Path, GameRecord]) -> None:
    db, record = stored
    result = runner.invoke(app, ["games", "--db", str(db)])
    assert result.exit_code == 0, result.output
    out = outputs(result)
    assert record.game_id[:10] in out  # the table is cut to 80 columns here
    assert "rand\\x1b[2Jom" in out


def test_aiwolf_log_import_and_replay_show_codes(tmp_path: Path) -> None:
    source = Path(__file__).parent / "aiwolf_logs" / "inlg2025_5p_aborted.log"
    text = source.read_bytes().decode()  # bytes: the log's own line breaks inside talk stay as they are
    text = text.replace("Hi! George here.", f"Hi! {TITLE}George {FLIP}here.").replace("Yumi", "Yu\x1b[2Jmi")
    log = tmp_path / f"game{RED}.log"
    log.write_bytes(text.encode())
    db = tmp_path / "imported.db"
    result = runner.invoke(app, ["aiwolf-log", "import", str(log), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "game\\x1b[31m.log" in outputs(result)
    with GameStore(db) as store:
        (record,) = store.iter_records()
    result = runner.invoke(app, ["replay", record.game_id, "--db", str(db)])
    assert result.exit_code == 0, result.output
    out = outputs(result)
    assert "Hi! \\x1b]0;pwned\\x07George <U+202E>here." in out
    assert "Yu\\x1b[2Jmi" in out


@pytest.mark.parametrize(
    "args",
    [
        ["replay", f"[/x]{RED}{FLIP}"],  # quoted by the store's "no stored game" sentence
        ["aiwolf-log", f"[/bold]{TITLE}", "x"],  # quoted by "unknown action"
    ],
)
def test_errors_quote_input_as_written_in_one_sentence(tmp_path: Path, args: list[str]) -> None:
    db = tmp_path / "empty.db"
    GameStore(db).close()
    result = runner.invoke(app, [*args, "--db", str(db)])
    out = outputs(result)
    assert result.exit_code == 2, out
    assert "Traceback" not in out
    assert isinstance(result.exception, SystemExit), result.exception  # typer.Exit(2), not a MarkupError
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), out
    assert "[/" in lines[0]  # rich markup in the input is printed, not read (nor a MarkupError)
    assert "\\x1b" in lines[0]


def test_visible_escapes_everything_but_line_breaks() -> None:
    assert visible("plain text, ünïcödé, 日本語 and emoji 👩‍💻") == "plain text, ünïcödé, 日本語 and emoji 👩<U+200D>💻"
    assert visible(f"a{TITLE}b\nc{RED}d{FLIP}\r\n") == "a\\x1b]0;pwned\\x07b\nc\\x1b[31md<U+202E>\\x0d\n"
    assert visible("\u2028\x85\ud800") == "<U+2028>\\x85<U+D800>"
    once = visible(HOSTILE_TALK + "\n" + HOSTILE_NAME)
    assert visible(once) == once  # escaping twice changes nothing
    assert_safe(once)


def render(console: TerminalConsole, *objects: object, **options: object) -> str:
    with console.capture() as capture:
        console.print(*objects, **options)  # type: ignore[arg-type]
    return capture.get()


def test_terminal_console_escapes_strings_cells_and_titles_and_reads_no_markup() -> None:
    console = TerminalConsole(width=200, color_system=None)
    out = render(console, HOSTILE_TALK)
    assert_safe(out)
    assert "[bold]loud[/] :smile:" in out and "\\x1b]0;pwned\\x07" in out
    table = Table(title=f"run {RED}")
    table.add_column(f"agent{FLIP}")
    table.add_row(HOSTILE_AGENT)
    table.add_row("[red]wolf[/]")
    out = render(console, table)
    assert_safe(out)
    assert "run \\x1b[31m" in out and "agent<U+202E>" in out and "rand\\x1b[2Jom" in out and "[red]wolf[/]" in out
    out = render(console, f"[bold]{escape('[/x]' + HOSTILE_NAME)}[/] said", markup=True)
    assert_safe(out)
    assert out == "[/x]Ri\\x1b[31mn<U+202E> said\n"  # explicit markup is read; escaped input is not


def test_a_styled_terminal_still_gets_only_the_console_own_codes() -> None:
    console = TerminalConsole(width=200, force_terminal=True, color_system="standard")
    out = render(console, f"[bold]{escape(HOSTILE_NAME)}[/]", markup=True)
    assert out.count("\x1b") == 2  # bold on and off, from rich; the name's ESC is a code
    assert "Ri\\x1b[31mn<U+202E>" in out and FLIP not in out


def test_a_terminal_player_sees_talk_as_codes(capsys: pytest.CaptureFixture[str]) -> None:
    record = hostile_record()
    seat = speaker_seat(record)
    human = HumanAgent(read_line=lambda prompt: "")
    human.show_new(final_view(record, seat))  # everything the seat saw
    out = capsys.readouterr().out
    assert_safe(out)
    assert "\\x1b]0;pwned\\x07there" in out


def test_aiwolf_client_logs_a_hostile_packet_as_codes(caplog: pytest.LogCaptureFixture) -> None:
    from lycan.aiwolf.client import AiwolfClient

    client = AiwolfClient("ws://127.0.0.1:9/ws", RandomAgent(0))
    with caplog.at_level(logging.WARNING, logger="lycan.aiwolf.client"):
        assert asyncio.run(client.handle(f"not json {TITLE}{RED}{FLIP}")) is None
    (message,) = [r.getMessage() for r in caplog.records if r.name == "lycan.aiwolf.client"]
    assert_safe(message)
    assert "not json \\x1b]0;pwned\\x07\\x1b[31m<U+202E>" in message
