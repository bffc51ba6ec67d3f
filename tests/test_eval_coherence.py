"""Coherence metrics on hand-built records with fixed utterances, and on heuristic self-play."""

from pathlib import Path
from typing import Any

import pytest

from lycan.agents import speech
from lycan.agents.heuristic import HeuristicAgent
from lycan.engine import Action, Decision, GameRecord, run_sync
from lycan.engine.actions import Answer, Failure
from lycan.engine.events import Died, Divined, Event, Fault, GameOver, PhaseStarted, Talk, VoteCast
from lycan.engine.record import ModelCall
from lycan.eval import coherence as coh
from lycan.eval.coherence import coherence, echoes_prompt, game_coherence, is_llm
from lycan.eval.report import build_report, tables
from lycan.eval.report import coherence_cells as coh_cells
from lycan.rules import Role, Species, get_preset
from lycan.stats import Rate

W, S, V, P, G = Role.WEREWOLF, Role.SEER, Role.VILLAGER, Role.POSSESSED, Role.GUARDIAN
ROLES = (W, S, V, P, G)
NAMES = tuple(f"P{i}" for i in range(5))
ECHO = "Say one or two short sentences to everyone."  # task_talk.txt: "Say one or two short sentences"


class Log:
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.day = 0
        self.phase: Any = "night"

    def add(self, cls: type[Event], **kw: Any) -> None:
        aud = kw.pop("audience", None)
        self.events.append(cls(id=len(self.events), day=self.day, phase=self.phase, audience=aud, **kw))

    def start(self, phase: str, day: int) -> None:
        self.day, self.phase = day, phase
        self.add(PhaseStarted, alive=tuple(range(5)))

    def say(self, seat: int, text: str = "", **kw: Any) -> None:
        self.add(Talk, actor=seat, text=text, **kw)

    def divine(self, seer: int, target: int, result: Species) -> None:
        self.add(Divined, actor=seer, target=target, result=result, audience=frozenset({seer}))


def record(
    log: Log,
    agents: tuple[str, ...] = ("llm",) * 4 + ("heuristic",),
    decisions: tuple[tuple[int, Answer], ...] = (),
    calls: tuple[ModelCall, ...] = (),
    usage: dict[int, dict[str, Any]] | None = None,
) -> GameRecord:
    log.phase = "end"
    log.add(GameOver, winner="village", roles=ROLES, reason="test")
    return GameRecord(
        game_id="g",
        rules=get_preset("guardian5"),
        seed=0,
        names=NAMES,
        agents=agents,
        roles=ROLES,
        winner="village",
        events=tuple(log.events),
        decisions=tuple(Decision(i, seat, "talk", answer) for i, (seat, answer) in enumerate(decisions)),
        model_calls=calls,
        usage=usage or {},
    )


def game_announced() -> GameRecord:
    """The seer finds P0 and says so; an echo, a self-narration, a wolf reveal, a false claim."""
    log = Log()
    log.start("night", 0)
    log.divine(1, 0, Species.WEREWOLF)
    log.start("day", 1)
    log.say(0, "I am a werewolf and nobody can stop me.")  # wolf reveal
    log.say(1, "Last night I divined P0: werewolf.")  # the seer announces
    log.say(2, "P2 wins the game.")  # self-narration
    log.say(2, ECHO)  # prompt echo
    log.say(2, "I am the seer.")  # a villager claims a role it does not hold
    log.say(3, "I trust P0.")
    log.say(4, "P4 is sure. " + ECHO)  # a heuristic seat: not counted for llm
    log.say(2, over=True)
    log.say(3, skip=True)
    log.say(0, "We wolves attack P2 tonight.", channel="whisper")  # whispers are not public talk
    log.add(Fault, seat=2, request="vote", reasons=("x", "y"), fallback="random", audience=frozenset({2}))
    return record(
        log,
        decisions=(
            (0, Action.speak("a")),
            (3, Failure("no answer within 60 s")),
            (3, Action.speak("b")),
            (2, Failure("agent error: boom")),
            (4, Failure("no answer within 60 s")),  # the heuristic seat's
        ),
        calls=(
            ModelCall(seat=2, request=1, kind="talk", error="phrasing rejected: prompt echo"),
            ModelCall(seat=2, request=2, kind="talk", error="phrasing rejected: prompt echo"),
            ModelCall(seat=3, request=3, kind="talk", error="phrasing rejected: self-narration"),
            ModelCall(seat=1, request=4, kind="talk", error="model error: down"),
            ModelCall(seat=0, request=5, kind="talk"),
        ),
        usage={s: {"phrasings": 3} for s in range(4)},
    )


def game_silent() -> GameRecord:
    """The seer finds P0, speaks while P0 lives, never announces it, and lies about P2."""
    log = Log()
    log.start("night", 0)
    log.divine(1, 0, Species.WEREWOLF)
    log.start("day", 1)
    log.say(1, "I suspect P3.")
    log.say(1, "I divined P2: human.")  # no such result: contradicts what the seer knows
    log.say(0, "I am the seer.")  # a werewolf's fake claim is not a contradiction
    return record(log)


def game_too_late() -> GameRecord:
    """The seer finds P0 but only speaks after P0 died: no chance to announce it while it mattered."""
    log = Log()
    log.start("night", 0)
    log.divine(1, 0, Species.WEREWOLF)
    log.start("day", 1)
    log.add(Died, target=0, cause="executed")
    log.say(1, "Last night I divined P0: werewolf.")
    return record(log)


def test_each_count_of_one_game() -> None:
    c = game_coherence(game_announced())
    assert set(c) == {"llm", "heuristic"}
    llm = c["llm"]
    assert (llm.games, llm.seat_games, llm.utterances) == (1, 4, 6)
    assert llm.echo_rate == Rate(1, 6)
    assert llm.narration_rate == Rate(1, 6)
    assert llm.wolf_reveal_rate == Rate(1, 2)  # P0 and the possessed P3 spoke once each
    assert llm.contradiction_rate == Rate(1, 4)  # the seer once and the villager three times
    assert llm.seer_announce_rate == Rate(1, 1)
    assert (llm.faults, llm.decisions, llm.timeouts) == (1, 4, 1)
    assert llm.rejection_rate == Rate(3, 12)
    assert llm.reasons == {"prompt echo": 2, "self-narration": 1}
    heuristic = c["heuristic"]
    assert (heuristic.utterances, heuristic.echoes, heuristic.narrations, heuristic.timeouts) == (1, 1, 1, 1)
    assert heuristic.seer_chances == 0 and heuristic.rejected == 0


def test_seer_announcement_counts_per_seer_with_a_chance() -> None:
    silent = game_coherence(game_silent())["llm"]
    assert silent.seer_announce_rate == Rate(0, 1)
    assert silent.contradiction_rate == Rate(1, 2)
    assert silent.wolf_reveal_rate == Rate(0, 1)
    late = game_coherence(game_too_late())["llm"]
    assert late.seer_announce_rate == Rate(0, 0)
    assert late.contradiction_rate == Rate(0, 1)  # the result is true, only late
    total = coherence([game_announced(), game_silent(), game_too_late()], agents=["llm"])
    assert set(total) == {"llm"}
    assert total["llm"].games == 3 and total["llm"].seer_announce_rate == Rate(1, 2)
    assert total["llm"].utterances == 6 + 3 + 1


def test_heuristic_templates_are_never_echoes(monkeypatch: pytest.MonkeyPatch) -> None:
    assert echoes_prompt(ECHO) and not echoes_prompt("I suspect P3 because they voted for me.")
    prompts = coh.prompt_text() + "\nFor example: " + speech.NOTHING_YET
    monkeypatch.setattr(coh, "prompt_text", lambda: prompts)
    assert not echoes_prompt(speech.NOTHING_YET) and echoes_prompt(ECHO)


def test_heuristic_self_play_speaks_coherently() -> None:
    rules = get_preset("guardian7")
    records = [run_sync(rules, [HeuristicAgent(s) for s in range(7)], seed) for seed in range(12)]
    c = coherence(records)["heuristic"]
    assert c.games == 12 and c.utterances > 100
    assert c.echoes == 0 and c.wolf_reveals == 0
    assert c.narration_rate.value <= 0.01
    assert (c.faults, c.timeouts, c.phrasings, c.rejected) == (0, 0, 0, 0)
    assert c.seer_chances > 0 and c.seer_announced == c.seer_chances
    assert not any(title.startswith("Coherence") for title, _, _ in tables(records, n_boot=5))


def test_report_shows_coherence_for_llm_seats(tmp_path: Path) -> None:
    assert is_llm("llm") and is_llm("recon:local") and not is_llm("heuristic") and not is_llm("llmish")
    recs = [game_announced(), game_silent()]
    (coherence_table,) = [t for t in tables(recs, n_boot=5) if t[0].startswith("Coherence")]
    _, header, rows = coherence_table
    assert [row[0] for row in rows] == ["llm"]  # the heuristic seat is not an LLM seat
    cells = dict(zip(header, rows[0], strict=True))
    assert cells["games"] == "2" and cells["seer announces a werewolf"].startswith("50.0%")
    assert cells["prompt echo"].endswith("N=9") and cells["rejection reasons"] == "prompt echo 2, self-narration 1"
    md = (build_report(recs, tmp_path, n_boot=5).parent / "report.md").read_text()
    assert "## Coherence" in md and "werewolf self-reveal" in md


def test_votes_as_said_counts_first_round_votes_after_a_stated_intention() -> None:
    log = Log()
    log.start("day", 1)
    log.say(0, "I will vote for P1.")
    log.say(1, "I will vote for P3. Actually I will vote for P2.")  # the last intention counts
    log.say(2, "I will vote for P2.")  # itself: no promise to keep
    log.say(3, "I will vote for P4.")  # P4 dies before the vote: no promise to keep
    log.add(Died, target=4, cause="shot")
    log.add(VoteCast, actor=0, target=1)  # kept
    log.add(VoteCast, actor=1, target=3)  # broken
    log.add(VoteCast, actor=2, target=0)
    log.add(VoteCast, actor=3, target=0)
    log.add(VoteCast, actor=1, target=2, round=1)  # a revote: not counted
    log.start("day", 2)
    log.add(VoteCast, actor=0, target=3)  # a new day: yesterday's words promise nothing
    c = game_coherence(record(log))["llm"]
    assert (c.promises_kept, c.promises) == (1, 2)
    assert (c.promise_rate.wins, c.promise_rate.n) == (1, 2)
    header, rows = coh_cells({"llm": c})
    assert rows[0][header.index("votes as said")].startswith("50.0%")
