"""`lycan judge`: a chat model scores stored games' seats on the AIWolf NLP contest's criteria.

Against the benchmark's OpenAI-compatible server (it answers the first value each schema allows,
so every score is 1, or a sentence of plain text when no schema is sent), a stub that fails or
hangs, and the embedded local model on one seat of one game.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lycan.agents import SeatSpec, lineup
from lycan.cli import app
from lycan.engine import GameRecord, run_sync
from lycan.engine.events import Talk, VoteCast
from lycan.eval.judge import (
    CRITERIA_KEYS,
    JudgeUnavailable,
    SeatJudgement,
    VerdictError,
    criteria_for,
    fit_transcript,
    judge_games,
    judge_prompt,
    judge_seat,
    parse_verdict,
    public_talk,
)
from lycan.eval.report import judge_tables
from lycan.models import ChatModel, ChatRequest, ChatResult, ModelError, load_model
from lycan.rules import get_preset
from lycan.store import GameStore
from lycan.store.jsonl import JudgementFile, judgements_path

TESTS = Path(__file__).resolve().parent
FAKE_SERVER = TESTS.parent / "benchmarks" / "fake_openai_server.py"
FIVE = CRITERIA_KEYS[:5]
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def heuristic_game(preset: str, seed: int) -> GameRecord:
    rules = get_preset(preset)
    return run_sync(rules, lineup([SeatSpec("heuristic")] * rules.n_players, seed), seed)


@pytest.fixture
def openai_server() -> Iterator[str]:
    """The benchmark's OpenAI-compatible server in its own process (answers after 1 ms)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, str(FAKE_SERVER), str(port), "0.001"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    yield f"http://127.0.0.1:{port}/v1"
    proc.kill()
    proc.wait()
    proc.stdout.close()


@pytest.fixture
def run_db(tmp_path: Path) -> Path:
    """Two heuristic aiwolf5 games stored under run r1."""
    db = tmp_path / "games.db"
    with GameStore(db) as store:
        for seed in (1, 2):
            store.save(heuristic_game("aiwolf5", seed), run="r1")
    return db


class Counting:
    """A chat model that passes every request on to `model` and keeps it."""

    def __init__(self, model: ChatModel) -> None:
        self.model = model
        self.name = model.name
        self.requests: list[ChatRequest] = []

    async def chat(self, request: ChatRequest) -> ChatResult:
        self.requests.append(request)
        return await self.model.chat(request)

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        self.requests.append(request)
        return self.model.stream(request)


class Broken:
    """A judge that fails every call (`hang`: never answers, so the timeout ends it)."""

    name = "broken"

    def __init__(self, hang: bool = False) -> None:
        self.hang = hang
        self.calls = 0

    async def chat(self, request: ChatRequest) -> ChatResult:
        raise AssertionError("the judge streams its answers")

    async def _stream(self) -> AsyncIterator[str]:
        self.calls += 1
        if self.hang:
            await asyncio.sleep(60)
        raise ModelError("the server is down")
        yield ""  # an async generator

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        return self._stream()


# ----------------------------------------------------------------------------- the prompt and the answer
def test_the_prompt_quotes_every_public_line_the_seats_own_votes_and_its_role() -> None:
    record = heuristic_game("aiwolf5", 4)
    for seat in range(5):
        prompt = judge_prompt(record, seat)
        public = [e for e in record.events if isinstance(e, Talk) and e.channel == "talk" and not (e.over or e.skip)]
        for event in public:
            mark = ">> " if event.actor == seat else ""
            assert f"{mark}Day {event.day} | {record.names[event.actor]}: {event.text}" in prompt.user
        whispers = [e.text for e in record.events if isinstance(e, Talk) and e.channel == "whisper" and not e.over]
        assert not [w for w in whispers if w not in {e.text for e in public} and w in prompt.user]
        votes = [e for e in record.events if isinstance(e, VoteCast) and e.actor == seat]
        voted = [line for line in prompt.actions if "voted to execute" in line]
        assert voted == [f"Day {v.day}: voted to execute {record.names[v.target]}" for v in votes]
        assert f"{record.names[seat]}, the {record.roles[seat].value} " in prompt.user
        assert prompt.spoke == sum(1 for e in public if e.actor == seat) > 0
        assert prompt.criteria == FIVE and "team_play" not in prompt.user
        assert [m["role"] for m in prompt.messages] == ["system", "user"]


def test_thirteen_player_games_are_also_judged_on_team_play_with_the_seats_side_named() -> None:
    assert FIVE == (
        "natural_expression",
        "contextual_dialogue",
        "logical_consistency",
        "action_consistency",
        "character_consistency",
    )
    record = heuristic_game("aiwolf13", 1)
    assert criteria_for(record) == (*FIVE, "team_play")
    wolf = record.roles.index(next(r for r in record.roles if r.value == "werewolf"))
    prompt = judge_prompt(record, wolf)
    assert "team_play (team play)" in prompt.user
    side = [record.names[s] for s, r in enumerate(record.roles) if s != wolf and r.value in ("werewolf", "possessed")]
    assert f"The others on the werewolf side: {', '.join(side)}." in prompt.user


def test_a_long_transcript_keeps_the_judged_seats_lines_and_says_how_many_it_left_out() -> None:
    record = heuristic_game("aiwolf13", 2)
    lines = public_talk(record)
    seat = 3
    fitted = fit_transcript(lines, seat, record.names, budget=1500)
    assert 1300 < sum(len(t) + 1 for t in fitted) <= 1500
    own = [line.render(record.names, seat) for line in lines if line.speaker == seat]
    assert [t for t in fitted if t.startswith(">> ")] == own
    left_out = sum(int(t.split()[1]) for t in fitted if t.startswith("(... "))
    assert left_out == len(lines) - (len(fitted) - sum(1 for t in fitted if t.startswith("(... ")))
    assert left_out > 0
    everything = [line.render(record.names, seat) for line in lines]
    assert fit_transcript(lines, seat, record.names, budget=10**6) == everything


def test_an_answer_is_read_only_when_every_criterion_has_a_score_from_1_to_5_and_a_reason() -> None:
    good = {k: {"reason": f"because {k}", "score": 1 + i % 5} for i, k in enumerate(FIVE)}
    verdict = parse_verdict("```json\n" + json.dumps(good) + "\n```", FIVE)
    assert verdict.scores == {k: 1 + i % 5 for i, k in enumerate(FIVE)}
    assert verdict.reasons["action_consistency"] == "because action_consistency"
    cases = {
        "I think they played well.": "holds no JSON object",
        "{not json}": "not valid JSON",
        json.dumps({**good, "logical_consistency": {"reason": "x", "score": 6}}): "is 6, outside 1-5",
        json.dumps({**good, "logical_consistency": {"reason": "x", "score": "high"}}): "not an integer",
        json.dumps({**good, "logical_consistency": {"reason": " ", "score": 3}}): "gives no reason",
        json.dumps({k: v for k, v in good.items() if k != "natural_expression"}): "no entry for natural_expression",
    }
    for text, needle in cases.items():
        with pytest.raises(VerdictError, match=needle):
            parse_verdict(text, FIVE)


def test_the_judge_table_gives_each_agents_mean_with_n_and_an_interval_and_names_a_weak_judge() -> None:
    def made(agent: str, seat: int, scores: list[int], judge: str = "openai:big") -> SeatJudgement:
        return SeatJudgement("g", seat, agent, judge, "judged", dict(zip(FIVE, scores, strict=True)))

    rows = [
        made("a", 0, [2, 2, 2, 2, 2]),
        made("a", 1, [4, 4, 4, 4, 4]),
        made("b", 2, [5, 5, 5, 5, 5]),
        SeatJudgement("g", 3, "b", "openai:big", "unjudged", error="garbage"),
        made("a", 0, [3, 3, 3, 3, 3], judge="local"),
    ]
    (big, header, cells), (local, _, local_cells) = sorted(judge_tables(rows), key=lambda t: "local" in t[0])
    assert "weak judge" not in big and "judge local, a weak judge" in local
    assert header[:3] == ["agent", "seats judged", "unjudged"] and header[-1] == "mean"
    assert cells[0][:3] == ["a", "2", "0"] and cells[0][3].startswith("3.00 [2.00, 4.00] N=2")
    assert cells[1][:4] == ["b", "1", "1", "5.00 [5.00, 5.00] N=1"]
    assert local_cells == [["a", "1", "0", *["3.00 [3.00, 3.00] N=1"] * 6]]


# ----------------------------------------------------------------------------- against the fake server
def test_scores_are_stored_and_shown_by_judge_and_report(run_db: Path, openai_server: str, tmp_path: Path) -> None:
    code, before = invoke("report", "r1", "--db", str(run_db), "--out", str(tmp_path / "before"))
    assert code == 0 and "Judge" not in before
    spec = f"openai:fake@{openai_server}"
    code, out = invoke("judge", "r1", "--model", spec, "--db", str(run_db))
    assert code == 0, out
    assert "10 seats judged, 0 unjudged, 0 already judged, over 2 games" in out
    with GameStore(run_db) as store:
        stored = store.judgements()
        ids = store.game_ids("r1")
    assert {(j.game_id, j.seat) for j in stored} == {(g, s) for g in ids for s in range(5)}
    for j in stored:
        assert (j.judge, j.agent, j.status, j.error) == (spec, "heuristic", "judged", "")
        assert j.scores == dict.fromkeys(FIVE, 1)  # the fake server answers each schema's first value
        assert j.reasons == dict.fromkeys(FIVE, "it fits what I saw")
    assert "N=10" in out  # the terminal table; its cells are checked in report.md below
    code, after = invoke("report", "r1", "--db", str(run_db), "--out", str(tmp_path / "after"))
    assert code == 0, after
    assert "Judge scores, 1-5" in after and "weak judge" not in after
    md = (tmp_path / "after" / "report.md").read_text()
    assert f"## Judge scores, 1-5 (judge {spec})" in md
    assert "| heuristic | 10 | 0 | 1.00 [1.00, 1.00] N=10 |" in md
    assert "Judge" not in (tmp_path / "before" / "report.md").read_text()


async def test_garbage_answers_are_retried_then_left_unjudged_with_the_reason(run_db: Path, openai_server: str) -> None:
    spec = f"openai:fake@{openai_server}"
    with GameStore(run_db) as store:
        record = next(store.iter_records("r1"))
        backend = load_model(spec, schema_mode="off")  # no schema sent: the server answers a sentence
        garbage = Counting(backend)
        try:
            summary = await judge_games([record], garbage, store, judge=spec, retries=2, concurrency=1)
        finally:
            await backend.aclose()
        assert (summary.judged, summary.unjudged, summary.skipped) == (0, 5, 0)
        assert len(garbage.requests) == 15  # three tries for each of five seats
        retry = garbage.requests[1].messages
        assert retry[-2]["role"] == "assistant"
        assert "could not be used: the answer holds no JSON" in retry[-1]["content"]
        stored = store.judgements(judge=spec)
        assert [j.status for j in stored] == ["unjudged"] * 5
        assert all(j.error.startswith("3 tries failed; the last: the answer holds no JSON object") for j in stored)
        assert all(j.scores == {} for j in stored)

        backend = load_model(spec)
        good = Counting(backend)
        try:
            again = await judge_games([record], good, store, judge=spec)
            once_more = await judge_games([record], good, store, judge=spec)
        finally:
            await backend.aclose()
        assert (again.judged, again.unjudged, again.skipped) == (5, 0, 0)
        assert (once_more.judged, once_more.skipped) == (0, 5) and len(good.requests) == 5
        assert [j.status for j in store.judgements(judge=spec)] == ["judged"] * 5
        # an unjudged try never replaces a judged seat
        failed = SeatJudgement(record.game_id, 0, "heuristic", spec, "unjudged", error="late")
        assert store.save_judgement(failed) is False
        assert store.judgements(game_ids=[record.game_id], judge=spec)[0].status == "judged"


def test_a_rerun_judges_only_what_is_missing(run_db: Path, openai_server: str) -> None:
    spec = f"openai:fake@{openai_server}"
    code, out = invoke("judge", "r1", "--model", spec, "--games", "1", "--db", str(run_db))
    assert code == 0 and "5 seats judged, 0 unjudged, 0 already judged, over 1 game;" in out, out
    with GameStore(run_db) as store:
        first = {(j.game_id, j.seat): j.created for j in store.judgements()}
    assert len({g for g, _ in first}) == 1
    code, out = invoke("judge", "r1", "--model", spec, "--db", str(run_db), "--per-seat")
    assert code == 0 and "5 seats judged, 0 unjudged, 5 already judged, over 2 games" in out, out
    with GameStore(run_db) as store:
        now = {(j.game_id, j.seat): j.created for j in store.judgements()}
    assert len(now) == 10 and all(now[key] == created for key, created in first.items())
    code, out = invoke("judge", "r1", "--model", spec, "--db", str(run_db))
    assert code == 0 and "0 seats judged, 0 unjudged, 10 already judged" in out


def test_a_jsonl_run_keeps_its_judgements_in_a_sidecar(run_db: Path, openai_server: str, tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    assert invoke("export", str(games), "--db", str(run_db), "--run", "r1")[0] == 0
    spec = f"openai:fake@{openai_server}"
    code, out = invoke("judge", str(games), "--model", spec, "--seats", "1,3")
    assert code == 0 and "4 seats judged" in out and str(judgements_path(games)) in out, out
    lines = judgements_path(games).read_text().splitlines()
    assert sorted(json.loads(line)["seat"] for line in lines) == [0, 0, 2, 2]
    code, out = invoke("judge", str(games), "--model", spec, "--seats", "1,3")
    assert code == 0 and "0 seats judged, 0 unjudged, 4 already judged" in out
    # a line cut off by a crash is dropped by the next write, and the file stays one judgement a line
    sidecar = JudgementFile(judgements_path(games))
    judged = sidecar.judgements()[0]
    with judgements_path(games).open("a") as out_file:
        out_file.write('{"game_id": "cut off')
    reread = JudgementFile(judgements_path(games))
    assert len(reread.judgements()) == 4
    assert reread.save_judgement(replace(judged, seat=4)) is True
    assert [json.loads(line)["seat"] for line in judgements_path(games).read_text().splitlines()][-1] == 4


# ----------------------------------------------------------------------------- failures
async def test_a_judge_that_fails_or_hangs_is_given_up_on_and_what_failed_is_kept_unjudged(run_db: Path) -> None:
    with GameStore(run_db) as store:
        records = list(store.iter_records("r1"))
        hanging = Broken(hang=True)
        with pytest.raises(JudgeUnavailable, match="failed on 2 seats in a row"):
            await judge_games(
                records, hanging, store, judge="broken", retries=1, timeout=0.05, give_up_after=2, concurrency=1
            )
        stored = store.judgements(judge="broken")
        assert len(stored) == 2 and hanging.calls == 4
        assert all(j.error == "2 tries failed; the last: the judge did not answer within 0.05 s" for j in stored)
        down = Broken()
        judgement = await judge_seat(down, records[0], 0, judge="broken", retries=0)
        assert judgement.error == "1 try failed; the last: the judge model failed: the server is down"
        silent = replace(records[0], events=tuple(e for e in records[0].events if getattr(e, "actor", None) != 0))
        judgement = await judge_seat(down, silent, 0, judge="broken")
        assert judgement.status == "unjudged" and "said nothing in public" in judgement.error and down.calls == 1


def test_bad_input_is_one_sentence_and_exit_status_2(run_db: Path, tmp_path: Path) -> None:
    code, out = invoke("judge", str(tmp_path / "nosuch.db"), "--model", "local")
    assert code == 2 and "there is no file" in out and "Traceback" not in out
    code, out = invoke("judge", "r1", "--model", "nosuchbackend:x", "--db", str(run_db))
    assert code == 2 and "Unknown model" in out and "Traceback" not in out
    code, out = invoke("judge", "nosuchrun", "--model", "local", "--db", str(run_db))
    assert code == 2 and "no games stored under run 'nosuchrun'" in out
    code, out = invoke("judge", "r1", "--model", "local", "--seats", "0", "--db", str(run_db))
    assert code == 2 and "--seats takes seat numbers from 1" in out
    code, out = invoke("judge", "r1", "--model", "local", "--seats", "9", "--db", str(run_db))
    assert code == 2 and "at most 5 seats" in out
    with GameStore(run_db) as store:
        assert store.judgements() == []


# ----------------------------------------------------------------------------- the embedded model
def test_the_embedded_local_model_judges_one_seat_end_to_end(run_db: Path, tmp_path: Path) -> None:
    code, out = invoke("judge", "r1", "--model", "local", "--games", "1", "--seats", "2", "--db", str(run_db))
    assert code == 0, out
    assert "1 seat judged, 0 unjudged" in out and "judge local, a weak judge" in out
    with GameStore(run_db) as store:
        (judgement,) = store.judgements()
    assert (judgement.seat, judgement.judge, judgement.status) == (1, "local", "judged")
    assert set(judgement.scores) == set(FIVE) and all(1 <= s <= 5 for s in judgement.scores.values())
    assert all(reason.strip() for reason in judgement.reasons.values())
    code, report = invoke("report", "r1", "--db", str(run_db), "--out", str(tmp_path / "rep"))
    assert code == 0 and "judge local, a weak judge" in report
