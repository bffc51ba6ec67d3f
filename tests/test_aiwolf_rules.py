"""The aiwolf presets follow the official server's configs: talk length, self-votes, day-0 whispers,
illegal targets dropped (and still recorded as faults), and the @mention length rule."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lycan.agents import SyncAgent
from lycan.conformance import check_record
from lycan.engine import OVER, PASS, Action, GameRecord, Request, View, run_sync
from lycan.engine.events import AttackVote, Divined, Fault, NightResolved, Talk, VoteCast
from lycan.engine.game import Game, cut_talk
from lycan.rules import Role, RuleSet, TalkLimits, get_preset

Policy = Callable[[View, Request], Action | None]


class Scripted(SyncAgent):
    label = "scripted"

    def __init__(self, policy: Policy, seen: list[Request]) -> None:
        self.policy = policy
        self.seen = seen

    def decide(self, view: View, request: Request) -> Action:
        self.seen.append(request)
        answer = self.policy(view, request)
        if answer is not None:
            return answer
        if request.is_talk:
            return OVER
        return PASS if request.can_pass else Action.choose(request.targets[0])


def play(rules: RuleSet, seed: int, policy: Policy) -> tuple[GameRecord, list[Request]]:
    seen: list[Request] = []
    record = run_sync(rules, [Scripted(policy, seen) for _ in range(rules.n_players)], seed)
    assert check_record(record) == []
    return record, seen


def test_presets_match_the_official_configs() -> None:
    for name in ("aiwolf5", "aiwolf13"):
        opts = get_preset(name).options
        assert opts.allow_self_vote
        assert opts.talk.max_length == 0  # per_talk: -1
        assert opts.invalid_target == "ignore"
    five, thirteen = get_preset("aiwolf5").options, get_preset("aiwolf13").options
    assert not five.day0_whisper and thirteen.day0_whisper
    assert (thirteen.talk.per_day, thirteen.talk.base_length, thirteen.talk.mention_length) == (52, 50, 50)
    assert (thirteen.whisper_limits.per_agent, thirteen.whisper_limits.per_day) == (4, 12)
    assert get_preset("guardian7").options.invalid_target == "retry"


def test_long_talk_is_not_cut_in_aiwolf5() -> None:
    speech = "word " * 60  # 240 characters without spaces

    def talk(view: View, req: Request) -> Action | None:
        if req.kind == "talk" and req.day == 0 and not any(r.kind == "talk" and r.day == 0 for r in seen[:-1]):
            return Action.speak(speech)
        return None

    seen: list[Request] = []
    record = run_sync(get_preset("aiwolf5"), [Scripted(talk, seen) for _ in range(5)], 3)
    said = [e for e in record.events if isinstance(e, Talk) and not e.over]
    assert said and said[0].text == speech.strip()


def test_aiwolf13_wolves_whisper_in_the_morning_and_evening_of_day_0() -> None:
    record, _ = play(get_preset("aiwolf13"), 2, lambda v, r: Action.speak("hi") if r.kind == "whisper" else None)
    day0 = [e for e in record.events if e.day == 0]
    whispers = [i for i, e in enumerate(day0) if isinstance(e, Talk) and e.channel == "whisper"]
    talks = [i for i, e in enumerate(day0) if isinstance(e, Talk) and e.channel == "talk"]
    assert whispers and talks
    assert min(whispers) < min(talks), "no morning whisper before the greeting"
    assert max(whispers) > max(talks), "no evening whisper on night 0"
    assert not any(isinstance(e, AttackVote) for e in day0)  # still no attack on night 0
    # aiwolf5 has one werewolf: nobody whispers
    five, _ = play(get_preset("aiwolf5"), 2, lambda v, r: None)
    assert not any(isinstance(e, Talk) and e.channel == "whisper" for e in five.events)


def test_an_illegal_divination_is_dropped_and_recorded_not_asked_again() -> None:
    rules = get_preset("aiwolf5")
    seer = Game(rules, 4).roles.index(Role.SEER)

    def self_divine(view: View, req: Request) -> Action | None:
        return Action.choose(req.seat) if req.kind == "divine" else None

    record, seen = play(rules, 4, self_divine)
    divines = [r for r in seen if r.kind == "divine"]
    assert divines and all(r.attempt == 0 for r in divines)  # never asked again
    assert not any(isinstance(e, Divined) for e in record.events)
    faults = [e for e in record.events if isinstance(e, Fault) and e.request == "divine"]
    assert len(faults) == len(divines) and all(f.seat == seer for f in faults)
    assert all("dropped" in f.fallback for f in faults)
    # the stricter Lycan rule asks again, then substitutes a legal target
    strict = rules.model_copy(update={"options": rules.options.model_copy(update={"invalid_target": "retry"})})
    record, seen = play(strict, 4, self_divine)
    assert any(r.kind == "divine" and r.attempt == 1 for r in seen)
    assert any(isinstance(e, Divined) for e in record.events)


def test_an_attack_vote_on_a_werewolf_is_ignored_and_a_night_may_pass_without_attack() -> None:
    rules = get_preset("aiwolf13")
    roles = Game(rules, 6).roles
    wolves = [s for s, r in enumerate(roles) if r is Role.WEREWOLF]

    def attack_a_wolf(view: View, req: Request) -> Action | None:
        if req.kind == "attack":
            return Action.choose(wolves[0])
        if req.kind == "vote":
            return Action.choose(next(t for t in req.targets if t not in wolves))
        return None

    record, seen = play(rules, 6, attack_a_wolf)
    attacks = [r for r in seen if r.kind == "attack"]
    assert attacks and all(r.attempt == 0 for r in attacks)
    assert not any(isinstance(e, AttackVote) for e in record.events)
    nights = [e for e in record.events if isinstance(e, NightResolved) and e.day >= 1]
    assert nights and all(e.attacked is None for e in nights)
    assert sum(isinstance(e, Fault) and e.request == "attack" for e in record.events) == len(attacks)


def test_a_self_vote_counts_in_aiwolf_presets() -> None:
    record, _ = play(get_preset("aiwolf5"), 1, lambda v, r: Action.choose(r.seat) if r.kind == "vote" else None)
    votes = [e for e in record.events if isinstance(e, VoteCast)]
    assert votes and all(v.actor == v.target for v in votes)
    assert not any(isinstance(e, Fault) and e.request == "vote" for e in record.events)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("short", "short"),
        ("a" * 60, "a" * 50),
        ("hello @Agent[02] " + "b" * 60, "hello @Agent[02] " + "b" * (50 - len("@Agent[02]"))),
        ("c" * 60 + " @Agent[03] go", "c" * 50 + " @Agent[03] go"),
        ("@Agent[01] fine", "@Agent[01] fine"),
        ("@Nobody " + "d" * 60, "@Nobody " + "d" * 43),  # not a seat's name: the base length applies
    ],
)
def test_mention_lengths(text: str, expected: str) -> None:
    limits = TalkLimits(max_length=0, base_length=50, mention_length=50)
    names = [f"Agent[{i:02d}]" for i in range(1, 14)]
    assert cut_talk(text, limits, names) == expected
    assert cut_talk(text, TalkLimits(max_length=0), names) == text
