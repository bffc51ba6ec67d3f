"""The conformance kit: every preset conforms, and the kit really detects broken engines and records."""

from __future__ import annotations

import dataclasses
import os

import pytest

from lycan.agents import RandomAgent
from lycan.conformance import ConformanceReport, check_presets, check_record, check_rules, role_checks
from lycan.engine import Action, Game, GameRecord, View, run_sync
from lycan.engine.events import Died, Divined, Event, GameOver, RoleAssigned
from lycan.engine.game import Winner
from lycan.engine.roles import PLUGINS, Night, RoleContext, Shadow
from lycan.engine.roles.idiot import Idiot
from lycan.engine.roles.seer import Seer
from lycan.rules import Species, get_preset, preset_names, resolve_rules

PRESETS = preset_names()


@pytest.mark.parametrize("name", PRESETS)
def test_presets_conform(name: str) -> None:
    report = check_rules(get_preset(name), games=200, seed=1000)
    assert report.ok, report.summary()
    assert report.games == 200
    assert sum(report.wins.values()) == 200
    assert report.wins["village"] > 0 and report.wins["werewolf"] > 0
    assert report.games_per_second > 0


@pytest.mark.slow
def test_two_thousand_games_per_preset() -> None:
    """Every invariant on 2,000 games per preset, in CI (the 10,000-game run below is a benchmark)."""
    reports = check_presets(PRESETS, games=2_000, seed=0, jobs=os.cpu_count() or 1)
    for report in reports.values():
        assert report.ok, report.summary()
        assert report.games == 2_000
        assert report.wins["village"] > 200 and report.wins["werewolf"] > 200


@pytest.mark.bench
def test_ten_thousand_games_per_preset() -> None:
    reports = check_presets(PRESETS, games=10_000, seed=0, jobs=os.cpu_count() or 1)
    for report in reports.values():
        print(report.summary())
        assert report.ok, report.summary()
        assert report.games == 10_000
        assert report.wins["village"] > 1000 and report.wins["werewolf"] > 1000


def test_agents_by_name_and_by_factory() -> None:
    rules = get_preset("guardian5")
    assert check_rules(rules, games=5, agents="random,random").ok
    calls: list[tuple[int, int]] = []

    def quiet(seat: int, seed: int) -> RandomAgent:
        calls.append((seat, seed))
        return RandomAgent(seed, talk_probability=0.0)

    report = check_rules(rules, games=4, seed=7, agents=quiet)
    assert report.ok and report.agents == "quiet"
    assert len(calls) == 4 * rules.n_players
    with pytest.raises(ValueError, match="unknown agent type 'oracle'"):
        check_rules(rules, games=1, agents="oracle")


def test_report_summary() -> None:
    report = ConformanceReport(rules="guardian7", agents="random", games=10, seconds=2.0)
    report.wins.update(village=4, werewolf=6)
    assert report.ok and report.games_per_second == 5.0
    assert "10 games" in report.summary() and "village 40%" in report.summary()
    report.violations += [(3, "seat 2 dies twice")] * 12
    text = report.summary(limit=2)
    assert not report.ok
    assert "12 violation(s)" in text and "seed 3: seat 2 dies twice" in text and "10 more" in text


# ----------------------------------------------------------------------------- the kit must catch bugs
def test_detects_a_leaky_view(monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky_view(self: Game, seat: int) -> View:
        honest = original(self, seat)
        return dataclasses.replace(honest, events=list(self.events))

    original = Game.view
    monkeypatch.setattr(Game, "view", leaky_view)
    report = check_rules(get_preset("guardian7"), games=3)
    assert not report.ok
    text = " ".join(v for _, v in report.violations)
    assert "the view shows role_assigned" in text
    assert "the view shows night_resolved" in text


def test_detects_a_view_of_another_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Game.view
    monkeypatch.setattr(Game, "view", lambda self, seat: original(self, (seat + 1) % len(self.names)))
    report = check_rules(get_preset("guardian5"), games=2)
    assert any("given the view of seat" in v for _, v in report.violations)


def test_detects_dead_seats_being_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    def undead_kill(self: Game, seat: int, cause: str) -> None:
        self.emit(Died, target=seat, cause=cause)  # announced, but the engine keeps the seat alive

    monkeypatch.setattr(Game, "kill", undead_kill)
    report = check_rules(get_preset("guardian7"), games=3)
    text = " ".join(v for _, v in report.violations)
    assert "the seat is dead" in text
    assert "dies twice" in text or "dead seat" in text


def test_detects_a_missing_win_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "_check_winner", lambda self: None)
    rules = get_preset("guardian5")
    rules = rules.model_copy(update={"options": rules.options.model_copy(update={"max_days": 4})})
    report = check_rules(rules, games=5)
    text = " ".join(v for _, v in report.violations)
    assert "has won" in text or "nobody" in text or "but alive" in text


def _record(seed: int = 3) -> GameRecord:
    rules = get_preset("witch6")
    return run_sync(rules, [RandomAgent(seed * 10 + s) for s in range(rules.n_players)], seed)


def _tamper(record: GameRecord, index: int, event: Event) -> GameRecord:
    events = list(record.events)
    events[index] = event
    return dataclasses.replace(record, events=tuple(events))


def test_a_clean_record_passes() -> None:
    assert check_record(_record()) == []


def test_detects_a_wrong_winner() -> None:
    rec = _record()
    other: Winner = "village" if rec.winner == "werewolf" else "werewolf"
    problems = check_record(dataclasses.replace(rec, winner=other), replay_game=False)
    assert any("game_over says" in p for p in problems)
    over = rec.events[-1]
    assert isinstance(over, GameOver)
    forged = dataclasses.replace(rec, winner=other)
    forged = _tamper(forged, len(rec.events) - 1, dataclasses.replace(over, winner=other))
    assert any(p.startswith(f"winner {other}") for p in check_record(forged))


def test_detects_a_public_role() -> None:
    rec = _record()
    i, assigned = next((i, e) for i, e in enumerate(rec.events) if isinstance(e, RoleAssigned))
    problems = check_record(_tamper(rec, i, dataclasses.replace(assigned, audience=None, vis="public")))
    assert any("role_assigned" in p and "is public" in p for p in problems)
    assert any(p.startswith("visible(log, ") for p in problems)
    assert any("replay differs" in p for p in problems)


def test_detects_broken_ids_and_missing_events() -> None:
    rec = _record()
    shorter = dataclasses.replace(rec, events=rec.events[:5] + rec.events[6:])
    problems = check_record(shorter, replay_game=False, round_trip=False)
    assert any("has id" in p for p in problems)


def test_detects_a_revealed_role_and_a_double_death() -> None:
    rec = _record()
    i, died = next((i, e) for i, e in enumerate(rec.events) if isinstance(e, Died))
    problems = check_record(_tamper(rec, i, dataclasses.replace(died, role=rec.roles[died.target])))
    assert any("reveals role" in p for p in problems)


def test_detects_tampered_answers() -> None:
    rec = _record()
    problems = check_record(dataclasses.replace(rec, decisions=rec.decisions[:-3]))
    assert any(p.startswith("replay failed") or p.startswith("replay differs") for p in problems)


def test_detects_a_lossy_json_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = _record()
    original = GameRecord.to_dict

    def lossy(self: GameRecord) -> dict[str, object]:
        data = original(self)
        data["names"] = [n.upper() for n in self.names]
        return data

    monkeypatch.setattr(GameRecord, "to_dict", lossy)
    assert any("JSON round trip changes the record's names" in p for p in check_record(rec))


# ----------------------------------------------------------------------------- role checks come from the plug-ins
IDIOT_DEAL = "werewolf=1,idiot=1,seer=1,villager=2"


def test_the_village_idiot_conforms() -> None:
    rules = resolve_rules(IDIOT_DEAL)
    report = check_rules(rules, games=300, seed=0)
    assert report.ok, report.summary()
    assert report.wins["village"] > 0 and report.wins["werewolf"] > 0
    heuristic = check_rules(
        resolve_rules("werewolf=2,idiot=1,guardian=1,seer=1,villager=3"), games=20, agents="heuristic"
    )
    assert heuristic.ok, heuristic.summary()


def test_every_role_brings_its_checks() -> None:
    checks = role_checks(Shadow(get_preset("guardian7")), [])
    assert {type(c) for c in checks} == {p.checks for p in PLUGINS.values() if p.checks is not None}
    assert {type(c).__module__.rsplit(".", 1)[-1] for c in checks} >= {"werewolf", "seer", "witch", "idiot"}


def test_detects_an_idiot_who_keeps_voting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Idiot, "may_vote", lambda self, table, seat: True)
    report = check_rules(resolve_rules(IDIOT_DEAL), games=30, hidden_every=0)
    text = " ".join(v for _, v in report.violations)
    assert "a revealed idiot is asked to vote" in text and "a revealed idiot, votes" in text


def test_detects_an_idiot_executed_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Idiot, "on_execution", lambda self, table, seat, votes: None)
    report = check_rules(resolve_rules(IDIOT_DEAL), games=30, hidden_every=0)
    assert any("executed by the first vote against them" in v for _, v in report.violations)


def test_detects_a_lying_seer(monkeypatch: pytest.MonkeyPatch) -> None:
    def lie(self: Seer, table: RoleContext, night: Night, answers: dict[int, Action]) -> None:
        for seer in self.seats:
            act = answers.get(seer)
            if act is not None and act.target is not None:
                table.emit(Divined, audience=(seer,), actor=seer, target=act.target, result=Species.WEREWOLF)

    monkeypatch.setattr(Seer, "resolve", lie)
    report = check_rules(get_preset("guardian7"), games=5, hidden_every=0)
    assert any("reports werewolf for a" in v for _, v in report.violations)
