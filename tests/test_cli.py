"""The `lycan` command, run in-process and, for the terminal game, as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lycan.cli import app
from lycan.store import GameStore

runner = CliRunner()


def invoke(*args: str, db: Path) -> tuple[int, str]:
    result = runner.invoke(app, [*args, "--db", str(db)] if args[0] not in ("check",) else list(args))
    return result.exit_code, result.output


def test_game_plays_narrates_and_stores(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    code, out = invoke("game", "--preset", "guardian7", "--agents", "heuristic", "--seed", "3", db=db)
    assert code == 0, out
    assert "win" in out.lower()
    assert "saved as" in out
    with GameStore(db) as store:
        assert store.count() == 1


def test_game_names_ai_seats_when_asked(tmp_path: Path) -> None:
    from lycan.agents.persona import ai_names

    db = tmp_path / "g.db"
    code, out = invoke("game", "--preset", "aiwolf5", "--agents", "heuristic", "--seed", "3", "--names", "ai", db=db)
    assert code == 0, out
    names = ai_names(5, 3)
    assert all(f"{name}:" in out or f"{name} " in out for name in names)
    assert "Player 1" not in out
    with GameStore(db) as store:
        (record,) = list(store.iter_records())
    assert record.names == names
    code, out = invoke("game", "--preset", "aiwolf5", "--names", "famous", db=db)
    assert code != 0 and "--names must be seats or ai" in out


def test_simulate_prints_rates_with_intervals(tmp_path: Path) -> None:
    code, out = invoke("simulate", "--preset", "aiwolf5", "--agents", "random", "--games", "30", db=tmp_path / "s.db")
    assert code == 0, out
    assert "village side" in out and "werewolf side" in out
    assert "role seer" in out and "N=30" in out
    assert "games/s" in out


@pytest.mark.parametrize(
    ("preset", "needle"),
    [
        ("nosuchpreset", "unknown preset"),
        ("werewolf=2,villager=2", "parity"),
        ("villager=5", "at least one werewolf"),
        ("witch4", "6 to 50 players"),
        ("werewolf=1,dragon=2,villager=3", "unknown role"),
    ],
)
def test_bad_rules_give_one_sentence_and_write_nothing(tmp_path: Path, preset: str, needle: str) -> None:
    db = tmp_path / "bad.db"
    code, out = invoke("game", "--preset", preset, db=db)
    assert code == 2
    assert needle in out
    assert "Traceback" not in out
    assert not db.exists()


def test_malformed_rules_file(tmp_path: Path) -> None:
    bad = tmp_path / "rules.toml"
    bad.write_text("roles = [broken\n")
    db = tmp_path / "bad.db"
    code, out = invoke("simulate", "--preset", str(bad), "--games", "2", db=db)
    assert code == 2 and "not valid TOML" in out
    assert not db.exists()


def test_rules_file_is_used(tmp_path: Path) -> None:
    f = tmp_path / "rules.yaml"
    f.write_text("preset: guardian7\noptions:\n  discussion: bidding\n  reveal_role_on_death: true\n")
    code, out = invoke("simulate", "--preset", str(f), "--games", "5", "--agents", "random", db=tmp_path / "x.db")
    assert code == 0, out


def test_replay_as_a_seat_hides_other_roles(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    assert invoke("game", "--preset", "aiwolf5", "--agents", "random", "--seed", "5", db=db)[0] == 0
    with GameStore(db) as store:
        record = next(iter(store.iter_records()))
    code, full = invoke("replay", record.game_id[:12], db=db)
    assert code == 0
    seer = record.roles.index(next(r for r in record.roles if r.value == "seer"))
    villager = next(i for i, r in enumerate(record.roles) if r.value == "villager")
    code, mine = invoke("replay", record.game_id, "--as", str(villager + 1), db=db)
    assert code == 0
    before_end = mine.split("win")[0].lower()
    assert "divined" not in before_end
    assert "whisper" not in before_end
    assert len(mine) < len(full)
    assert seer >= 0
    code, out = invoke("replay", "0000nosuchgame", db=db)
    assert code == 2 and "Traceback" not in out


def test_export_import_round_trip_and_malformed_jsonl(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    assert invoke("simulate", "--preset", "guardian5", "--agents", "random", "--games", "4", "--save", db=db)[0] == 0
    out = tmp_path / "games.jsonl"
    assert invoke("export", str(out), db=db)[0] == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    db2 = tmp_path / "b.db"
    assert invoke("import", str(out), db=db2)[0] == 0
    with GameStore(db) as a, GameStore(db2) as b:
        assert {r.game_id: r.to_dict() for r in a.iter_records()} == {r.game_id: r.to_dict() for r in b.iter_records()}
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n" + json.dumps({"game_id": "x"}) + "\n")
    db3 = tmp_path / "c.db"
    code, msg = invoke("import", str(broken), db=db3)
    assert code == 2 and "line 2" in msg
    with GameStore(db3) as c:
        assert c.count() == 0


def test_check_runs_the_kit() -> None:
    result = runner.invoke(app, ["check", "--preset", "aiwolf5,witch6", "--games", "50"])
    assert result.exit_code == 0, result.output
    assert "aiwolf5" in result.output and "witch6" in result.output


def test_play_in_a_real_terminal_process(tmp_path: Path) -> None:
    """A person at seat 1 types an illegal target first, is told the legal ones, then plays on."""
    answers = "99\n" + "/over\n1\n" * 200
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "lycan",
            "play",
            "--preset",
            "aiwolf5",
            "--agents",
            "random",
            "--seed",
            "11",
            "--seat",
            "1",
            "--db",
            str(tmp_path / "p.db"),
        ],
        input=answers,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "You are seat 1" in proc.stdout
    assert "win" in proc.stdout.lower()


def test_aiwolf_serve_and_connect_as_real_processes(tmp_path: Path) -> None:
    """`lycan aiwolf-serve` hosts a game that five `lycan aiwolf-connect` clients play to the end."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    db = tmp_path / "aiwolf.db"
    lycan = [sys.executable, "-m", "lycan"]
    server = subprocess.Popen(
        [
            *lycan,
            "aiwolf-serve",
            "--port",
            str(port),
            "--games",
            "1",
            "--seed",
            "3",
            "--timeout",
            "10",
            "--db",
            str(db),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        import time

        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        url = f"ws://127.0.0.1:{port}/ws"
        clients = [
            subprocess.Popen(
                [
                    *lycan,
                    "aiwolf-connect",
                    url,
                    "--agent",
                    "random",
                    "--team",
                    "t",
                    "--index",
                    str(i),
                    "--seed",
                    str(i),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for i in range(1, 6)
        ]
        for c in clients:
            out, err = c.communicate(timeout=90)
            assert c.returncode == 0, err[-2000:]
            assert "played 1 game" in out
        out, err = server.communicate(timeout=30)
        assert server.returncode == 0, err[-2000:]
        assert "winner" in out
    finally:
        server.kill()
    with GameStore(db) as store:
        assert store.count() == 1
        record = next(iter(store.iter_records()))
    log = tmp_path / "game.log"
    assert invoke("aiwolf-log", "export", record.game_id, "--out", str(log), db=db)[0] == 0
    assert ",talk," in log.read_text()
    db2 = tmp_path / "imported.db"
    code, out = invoke("aiwolf-log", "import", str(log), db=db2)
    assert code == 0, out
    with GameStore(db2) as store:
        assert store.count() == 1


def test_tournament_resumes_and_reports(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    code, out = invoke("tournament", "smoke", "--processes", "2", db=db)
    assert code == 0, out
    assert "4 played" in out
    code, out = invoke("tournament", "smoke", db=db)
    assert code == 0 and "0 played, 4 already done" in out
    code, out = invoke("tournament", "smoke", "--executor", "ray", "--processes", "2", db=db)
    assert code == 2 and "--processes is an option of the local executor" in out, out
    code, out = invoke("report", "smoke", "--out", str(tmp_path / "rep"), db=db)
    assert code == 0, out
    assert (tmp_path / "rep" / "report.html").exists()
    assert list((tmp_path / "rep").glob("*.png"))
    code, out = invoke("report", "smoke", "--out", str(tmp_path / "rep"), "--prices", str(tmp_path / "no.toml"), db=db)
    assert code == 2 and "no price table" in out, out
    (tmp_path / "prices.yaml").write_text("m: {prompt: 1.0, completion: 2.0}\n")
    code, out = invoke(
        "report", "smoke", "--out", str(tmp_path / "rep"), "--prices", str(tmp_path / "prices.yaml"), db=db
    )
    assert code == 0, out
    code, out = invoke("compare", "smoke", "smoke", db=db)
    assert code == 0, out
    code, out = invoke("report", "nosuchrun", db=db)
    assert code == 2 and "no games stored" in out


def test_a_bad_model_spec_is_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    code, out = invoke("game", "--agents", "llm", "--model", "nosuchbackend:x", db=db)
    assert code == 2 and "Traceback" not in out
    assert "local" in out and "openai:" in out  # the message lists the forms a spec can take
    assert not db.exists()
    code, out = invoke("game", "--agents", "llm", "--model", "openai:m@http://127.0.0.1:9/v1", db=db)
    assert code == 2 and "Traceback" not in out, out


def test_replay_speaks_a_game_into_wav_files(tmp_path: Path) -> None:
    import wave

    db = tmp_path / "v.db"
    assert invoke("game", "--preset", "aiwolf5", "--agents", "heuristic", "--seed", "4", db=db)[0] == 0
    with GameStore(db) as store:
        record = next(iter(store.iter_records()))
    out = tmp_path / "audio"
    code, text = invoke("replay", record.game_id, "--audio", str(out), "--voice", "espeak", db=db)
    assert code == 0, text
    said = [e for e in record.events if e.kind == "talk" and e.channel == "talk" and not (e.over or e.skip)]
    clips = sorted(p for p in out.glob("[0-9]*.wav"))
    assert len(clips) == len(said)
    with wave.open(str(out / "game.wav")) as w:
        assert w.getnframes() / w.getframerate() > len(said) * 0.5


def test_play_with_voice_but_no_sound_device_is_one_sentence(tmp_path: Path) -> None:
    from lycan.voice import PlaybackUnavailable, find_player

    try:
        find_player()
    except PlaybackUnavailable:
        code, out = invoke("play", "--voice", "espeak", "--seat", "1", db=tmp_path / "x.db")
        assert code == 2 and "Traceback" not in out and "--voice" in out
    else:
        pytest.skip("this machine has a sound device, so --voice would really play")


async def test_terminal_voice_speaks_streamed_and_whole_talk_in_order() -> None:
    """Streamed pieces and whole utterances reach a real player program in speaking order."""
    from lycan.cli import TerminalVoice
    from lycan.engine.events import Talk
    from lycan.voice import AudioPlayer, load_tts

    played: list[tuple[int, str]] = []

    class Recording(AudioPlayer):
        async def play_queue(self, queue, on_clip=None):  # type: ignore[no-untyped-def]
            return await super().play_queue(queue, lambda item: played.append((item.speaker, item.text)))

    voice = TerminalVoice(load_tts("espeak"), Recording("cat", ("cat",)), quiet={0})
    for piece in ["I think Player 3 ", "is lying, ", "and I will vote ", "for them."]:
        voice.piece(2, piece)
    voice.event(Talk(id=1, day=1, phase="day", actor=2, text="I think Player 3 is lying, and I will vote for them."))
    voice.event(Talk(id=2, day=1, phase="day", actor=4, text="I trust Player 2. I will vote for Player 3."))
    voice.event(Talk(id=3, day=1, phase="day", actor=0, text="The person at the table is not voiced."))
    await voice.aclose()
    speakers = [s for s, _ in played]
    assert speakers and set(speakers) == {2, 4}
    assert speakers == sorted(speakers, key=[2, 4].index)  # seat 2's clauses all come before seat 4's
    assert "lying" in " ".join(t for s, t in played if s == 2)


async def test_terminal_voice_speaks_each_utterance_in_its_manner() -> None:
    """A streamed utterance in the manner announced before it, a whole one in its event's, others plainly."""
    from lycan.cli import TerminalVoice
    from lycan.engine.events import Talk
    from lycan.engine.manner import Manner
    from lycan.voice import AudioPlayer, EspeakTTS, Voice, styled

    class Listening(EspeakTTS):
        def __init__(self) -> None:
            super().__init__()
            self.voices: dict[str, Voice] = {}

        async def stream(self, text, voice=None):  # type: ignore[no-untyped-def]
            self.voices[text] = voice
            async for clip in super().stream(text, voice):
                yield clip

    tts = Listening()
    voice = TerminalVoice(tts, AudioPlayer("cat", ("cat",)), quiet={0})
    slow, angry = Manner(pace="slow", emotion="worried"), Manner(pitch="high", emotion="angry", gesture="point")
    voice.manner(2, slow)
    for piece in ["I am not sure ", "about Player 3."]:
        voice.piece(2, piece)
    voice.event(Talk(id=1, day=1, phase="day", actor=2, text="I am not sure about Player 3.", manner=slow))
    voice.event(Talk(id=2, day=1, phase="day", actor=4, text="Player 3 is the wolf!", manner=angry))
    voice.event(Talk(id=3, day=1, phase="day", actor=5, text="Let us stay calm."))
    await voice.aclose()
    streamed = [v for text, v in tts.voices.items() if text in "I am not sure about Player 3."]
    assert streamed and all(v == styled(tts.voice_for_seat(2), slow) for v in streamed)  # every clause
    assert tts.voices["Player 3 is the wolf!"] == styled(tts.voice_for_seat(4), angry)
    assert tts.voices["Let us stay calm."] == tts.voice_for_seat(5)
    assert voice.manners == {}


def test_lineup_gives_llm_seats_the_token_and_manner_callbacks(monkeypatch: pytest.MonkeyPatch) -> None:
    import lycan.models
    from lycan.agents import LLMAgent
    from lycan.cli import Lineup
    from lycan.rules import get_preset
    from scripted import ScriptedModel

    monkeypatch.setattr(lycan.models, "load_model", lambda spec: ScriptedModel())

    def on_token(seat: int, piece: str) -> None: ...

    def on_manner(seat: int, manner: object) -> None: ...

    players = Lineup(get_preset("aiwolf5"), "llm,random", "x", on_token=on_token, on_manner=on_manner).players(3)
    llm = [p for p in players if isinstance(p, LLMAgent)]
    assert len(llm) == 3 and all(p.on_token is on_token and p.on_manner is on_manner for p in llm)


def test_serve_passes_its_settings_to_the_web_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    import lycan.web

    seen: dict[str, object] = {}
    real = lycan.web.create_app

    def spy(*args: object, **kw: object) -> object:
        seen.update(kw)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(lycan.web, "create_app", spy)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    args = ["serve", "--db", str(tmp_path / "w.db"), "--voice", "none", "--asr", "none", "--night-min", "2"]
    args += ["--max-wait", "30", "--join-timeout", "60", "--create-limit", "0", "--origin", "https://example.org"]
    args += ["--night-wait", "4", "--allow-seed"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (seen["night_min"], seen["max_wait"], seen["join_timeout"]) == (2.0, 30.0, 60.0)
    assert seen["night_wait"] == 4.0 and seen["allow_seed"] is True
    assert "localhost" in seen["allowed_hosts"] and "attacker.example" not in seen["allowed_hosts"]  # type: ignore[operator]
    assert seen["create_limit"] is None and list(seen["allowed_origins"]) == ["https://example.org"]  # type: ignore[call-overload]
    assert seen["app"] is not None
