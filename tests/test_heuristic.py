from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from lycan.agents import AGENT_KINDS, HeuristicAgent, RandomAgent, make_agent
from lycan.agents.speech import (
    SpeechParser,
    Statement,
    claim,
    divined,
    liar,
    medium_reading,
    protected,
    suspect,
    text_length,
    vote,
)
from lycan.agents.speech import attack as attack_line
from lycan.engine import run_sync
from lycan.engine.actions import Action, Request
from lycan.engine.events import (
    AttackVote,
    BidPlaced,
    Died,
    Divined,
    Event,
    Fault,
    Guarded,
    PotionUsed,
    Talk,
    VoteCast,
)
from lycan.engine.game import Game
from lycan.engine.record import GameRecord
from lycan.engine.view import View
from lycan.rules import Role, RuleSet, Species, get_preset, preset_names, team_of
from lycan.rules.presets import rules_from_dict


@dataclass
class Strict:
    """Wraps a heuristic agent; records its answers and any exception or retry it was given."""

    agent: HeuristicAgent
    label: str = "heuristic"
    problems: list[str] = field(default_factory=list)
    spoken: list[tuple[Request, Action]] = field(default_factory=list)

    def decide(self, view: View, request: Request) -> Action:
        if request.attempt:
            self.problems.append(f"retry after {request.error}")
        try:
            action = self.agent.decide(view, request)
        except Exception as err:
            self.problems.append(f"{type(err).__name__}: {err}")
            raise
        if action.kind == "speak":
            self.spoken.append((request, action))
        return action

    async def act(self, view: View, request: Request) -> Action:
        return self.decide(view, request)


def seat_plan(rules: RuleSet, seed: int, mode: str) -> list[bool]:
    """Which seats are heuristic: `all`, `none`, `village`, `wolves` or `mixed` (every other seat)."""
    roles = Game(rules, seed).roles
    if mode == "all":
        return [True] * len(roles)
    if mode == "none":
        return [False] * len(roles)
    if mode == "mixed":
        return [s % 2 == seed % 2 for s in range(len(roles))]
    village = [team_of(r).value == "village" for r in roles]
    return village if mode == "village" else [not v for v in village]


def play(
    rules: RuleSet, seed: int, mode: str = "all", names: Sequence[str] | None = None
) -> tuple[GameRecord, list[Strict | None]]:
    plan = seat_plan(rules, seed, mode)
    wrapped: list[Strict | None] = [Strict(HeuristicAgent(seed * 97 + s)) if h else None for s, h in enumerate(plan)]
    players = [w if w is not None else RandomAgent(seed * 97 + s) for s, w in enumerate(wrapped)]
    return run_sync(rules, players, seed, names=names), wrapped


def village_rate(rules: RuleSet, mode: str, seeds: range) -> float:
    wins = Counter(play(rules, seed, mode)[0].winner for seed in seeds)
    return wins["village"] / len(seeds)


def check_clean(rec: GameRecord, wrapped: list[Strict | None]) -> None:
    heuristic = {s for s, w in enumerate(wrapped) if w is not None}
    faults = [e for e in rec.events if isinstance(e, Fault) and e.seat in heuristic]
    assert not faults, faults
    for w in wrapped:
        if w is None:
            continue
        assert not w.problems, w.problems
        for req, act in w.spoken:
            assert act.text.strip()
            if req.max_length > 0:
                assert text_length(act.text) <= req.max_length, act.text
            if req.kind == "talk" and "," not in "".join(rec.names):
                assert "," not in act.text, act.text  # AIWolf NLP servers reject commas


def wolf(rec: GameRecord, seat: int) -> bool:
    return rec.roles[seat] is Role.WEREWOLF


# ------------------------------------------------------------------ speech
NAMES = tuple(f"Player {i}" for i in range(1, 14))


def test_templates_parse_back() -> None:
    p = SpeechParser(NAMES)
    text = " ".join(
        [
            claim("seer"),
            divined("Player 10", Species.WEREWOLF, 0, 1),
            divined("Player 1", Species.HUMAN, 0, 2),
            medium_reading("Player 3", Species.HUMAN),
            protected("Player 4"),
            suspect("Player 5", "they voted for me"),
            vote("Player 12"),
            liar("Player 2"),
            attack_line("Player 13"),
        ]
    )
    assert p.parse(text) == (
        Statement("claim", role="seer"),
        Statement("divined", 9, species=Species.WEREWOLF),
        Statement("divined", 0, species=Species.HUMAN),
        Statement("identified", 2, species=Species.HUMAN),
        Statement("guarded", 3),
        Statement("accuses", 4),
        Statement("will_vote", 11),
        Statement("liar", 1, role="seer"),
        Statement("attack", 12),
    )
    assert p.parse("I'm the bodyguard, and I vote for player 7!") == (
        Statement("claim", role="guardian"),
        Statement("will_vote", 6),
    )
    assert p.parse("The weather is nice. I am not the seer. Player 99 is here.") == ()


def test_registered_and_labelled() -> None:
    assert "heuristic" in AGENT_KINDS
    agent = make_agent("heuristic", 3)
    assert isinstance(agent, HeuristicAgent)
    assert agent.label == "heuristic"


# ------------------------------------------------------------------ robustness
@pytest.mark.parametrize("preset", preset_names())
def test_no_faults_on_every_preset(preset: str) -> None:
    rules = get_preset(preset)
    games = 6 if rules.n_players > 10 else 14
    for seed in range(games):
        for mode in ("all", "mixed"):
            check_clean(*play(rules, seed, mode))


@pytest.mark.parametrize("protocol", ["deepwolf", "bidding", "random_order", "aiwolf"])
def test_other_discussion_protocols(protocol: str) -> None:
    overs = 0
    for base in ("guardian7", "aiwolf5", "witch6"):
        rules = rules_from_dict({"preset": base, "options": {"discussion": protocol}})
        for seed in range(8):
            rec, wrapped = play(rules, seed)
            check_clean(rec, wrapped)  # includes: no retry, so no sentence was ever repeated under deepwolf
            assert rec.winner in ("village", "werewolf")
            bids = [e.amount for e in rec.events if isinstance(e, BidPlaced)]
            assert all(0 <= b <= 3 for b in bids)
            if protocol == "bidding":
                assert 0 in bids  # a seat with nothing new bids nothing, so talk ends
            overs += sum(1 for e in rec.events if isinstance(e, Talk) and e.over)
            spoken = Counter(
                e.day for e in rec.events if isinstance(e, Talk) and e.channel == "talk" and not (e.over or e.skip)
            )
            # talk ends because heuristic seats run out of things to say, before any cap
            cap = rules.options.talk.per_day if protocol == "aiwolf" else 3 * rules.n_players
            assert max(spoken.values()) < cap
    assert overs > 0 or protocol == "bidding"


def test_unusual_names_and_roles() -> None:
    names = ["Ann", "Ann-Marie", "Dr. X (host)", "bob", "Bob Jr", "Zoë", "Q", "Ann Marie"]
    rules = rules_from_dict(
        {
            "roles": {"werewolf": 2, "seer": 1, "medium": 1, "hunter": 1, "witch": 1, "villager": 2},
            "options": {"reveal_role_on_death": True, "guardian_self": True},
        }
    )
    for seed in range(10):
        check_clean(*play(rules, seed, names=names))
        check_clean(*play(rules, seed, "mixed", names=names))


class Broken:
    """Answers every first attempt illegally, so the engine has to retry."""

    label = "broken"

    def __init__(self, inner: HeuristicAgent) -> None:
        self.inner = inner

    def decide(self, view: View, request: Request) -> Action:
        if request.attempt == 0:
            return Action.speak("") if request.is_talk else Action.choose(-1)
        assert request.error
        return self.inner.decide(view, request)

    async def act(self, view: View, request: Request) -> Action:
        return self.decide(view, request)


def test_retries_are_answered_legally() -> None:
    for preset in ("aiwolf5", "witch6", "guardian7"):
        rules = get_preset(preset)
        # the aiwolf presets drop an illegal target instead of asking again: use the retrying rule
        rules = rules.model_copy(update={"options": rules.options.model_copy(update={"invalid_target": "retry"})})
        for seed in range(4):
            players = [Broken(HeuristicAgent(seed + s)) for s in range(rules.n_players)]
            rec = run_sync(rules, players, seed)
            assert not [e for e in rec.events if isinstance(e, Fault)]
            assert rec.winner in ("village", "werewolf")


def test_same_seed_same_game() -> None:
    rules = get_preset("aiwolf13")
    a, _ = play(rules, 5)
    b, _ = play(rules, 5)
    assert a.events == b.events
    assert a.decisions == b.decisions
    c, _ = play(rules, 6)
    assert c.events != a.events


# ------------------------------------------------------------------ behaviour
def talks(rec: GameRecord, seat: int, channel: str = "talk") -> list[Talk]:
    return [e for e in rec.events if isinstance(e, Talk) and e.actor == seat and e.channel == channel and not e.over]


def test_seer_comes_out_and_reports_every_result() -> None:
    rules = get_preset("guardian7")
    checked = 0
    for seed in range(30):
        rec, _ = play(rules, seed)
        seer = rec.roles.index(Role.SEER)
        said = " ".join(t.text for t in talks(rec, seer))
        last_talk_day = max((t.day for t in talks(rec, seer)), default=-1)
        if last_talk_day < 1:
            continue
        assert "I am the seer." in said
        for d in (e for e in rec.events if isinstance(e, Divined) and e.day < last_talk_day):
            assert f"I divined {rec.names[d.target]}: {d.result.value}." in said
            checked += 1
    assert checked >= 20


def test_fake_claims_happen() -> None:
    fakes: Counter[Role] = Counter()
    for preset, games in (("guardian7", 40), ("aiwolf5", 30)):
        rules = get_preset(preset)
        for seed in range(games):
            rec, _ = play(rules, seed)
            for seat, role in enumerate(rec.roles):
                if role in (Role.WEREWOLF, Role.POSSESSED) and any("I am the seer" in t.text for t in talks(rec, seat)):
                    fakes[role] += 1
    assert fakes[Role.WEREWOLF] >= 5
    assert fakes[Role.POSSESSED] >= 5


def test_fake_seer_never_exposes_its_pack() -> None:
    rules = get_preset("aiwolf13")
    for seed in range(8):
        rec, _ = play(rules, seed)
        pack = [s for s, r in enumerate(rec.roles) if r is Role.WEREWOLF]
        for w in pack:
            said = " ".join(t.text for t in talks(rec, w))
            for p in pack:
                assert f"I divined {rec.names[p]}: werewolf" not in said


def test_a_fake_seer_possessed_calls_only_a_rival_claimant_a_werewolf() -> None:
    """The possessed does not know the pack: a werewolf result on anyone but a rival seer may name its own wolf."""
    rules = get_preset("aiwolf5")
    faked = 0
    for seed in range(80):
        rec, _ = play(rules, seed)
        parser = SpeechParser(rec.names)
        possessed = rec.roles.index(Role.POSSESSED)
        claimed: set[int] = set()
        for e in rec.events:
            if not isinstance(e, Talk) or e.channel != "talk" or e.over or e.skip:
                continue
            for st in parser.parse(e.text, e.actor):
                if ((st.kind == "claim" and st.role == "seer") or st.kind == "divined") and e.actor != possessed:
                    claimed.add(e.actor)
                if e.actor == possessed and st.kind == "divined" and st.species is Species.WEREWOLF:
                    faked += 1
                    assert st.target in claimed, (seed, e.text, rec.roles[st.target])
    assert faked >= 3  # the possessed does call rival claimants werewolves


def test_a_fake_seer_votes_for_the_werewolf_it_announced() -> None:
    """A seer votes for the werewolf it found: a fake seer that announces one and votes elsewhere gives itself away."""
    announced = 0
    elsewhere: list[tuple[str, int, int, str]] = []
    for preset, games in (("guardian7", 40), ("aiwolf5", 40)):
        rules = get_preset(preset)
        for seed in range(games):
            rec, _ = play(rules, seed)
            parser = SpeechParser(rec.names)
            called: dict[int, set[int]] = {}  # every werewolf a seat has announced so far
            today: set[tuple[int, int]] = set()  # (day, seat): a werewolf announced that day
            evil = {s for s, r in enumerate(rec.roles) if r in (Role.WEREWOLF, Role.POSSESSED)}
            for e in rec.events:
                if isinstance(e, Talk) and e.channel == "talk" and e.actor in evil:
                    for st in parser.parse(e.text, e.actor):
                        if st.kind == "divined" and st.species is Species.WEREWOLF and st.target is not None:
                            called.setdefault(e.actor, set()).add(st.target)
                            today.add((e.day, e.actor))
                if isinstance(e, VoteCast) and e.round == 0 and (e.day, e.actor) in today:
                    announced += 1
                    # the one exception: a werewolf joining a majority that is executing its packmate
                    if e.target not in called[e.actor] and not (wolf(rec, e.actor) and wolf(rec, e.target)):
                        elsewhere.append((preset, seed, e.actor, rec.names[e.target]))
    assert announced >= 30
    assert not elsewhere


def pack_violations(rec: GameRecord, heuristic: set[int]) -> list[Event]:
    """Wolf votes or attack votes on a packmate when someone else was legal (and the packmate not doomed)."""
    bad: list[Event] = []
    rounds: dict[tuple[int, int], list[VoteCast]] = {}
    for e in rec.events:
        if isinstance(e, VoteCast):
            rounds.setdefault((e.day, e.round), []).append(e)
        if isinstance(e, AttackVote) and e.actor in heuristic and wolf(rec, e.target):
            bad.append(e)
    for (_, rnd), votes in rounds.items():
        # the first round may target anyone; a revote only the tied, which then all got votes
        others_legal = rnd == 0 or any(not wolf(rec, v.target) for v in votes)
        for v in votes:
            if v.actor in heuristic and wolf(rec, v.actor) and wolf(rec, v.target) and others_legal:
                village_votes = sum(1 for x in votes if x.target == v.target and not wolf(rec, x.actor))
                if village_votes * 2 <= len(votes):  # not doomed by the village's own votes
                    bad.append(v)
    return bad


def test_wolves_spare_their_pack() -> None:
    for preset in ("guardian7", "aiwolf13", "witch6"):
        rules = get_preset(preset)
        for seed in range(12):
            for mode in ("all", "mixed", "wolves"):
                rec, wrapped = play(rules, seed, mode)
                heuristic = {s for s, w in enumerate(wrapped) if w is not None}
                assert not pack_violations(rec, heuristic)


def test_wolves_agree_on_their_victim() -> None:
    rules = get_preset("aiwolf13")
    split = nights = 0
    for seed in range(8):
        rec, _ = play(rules, seed)
        by_night: dict[int, set[int]] = {}
        for e in rec.events:
            if isinstance(e, AttackVote):
                by_night.setdefault(e.day, set()).add(e.target)
        nights += len(by_night)
        split += sum(1 for t in by_night.values() if len(t) > 1)
        whispers = [e for e in rec.events if isinstance(e, Talk) and e.channel == "whisper" and not e.over]
        assert all("Let's attack" in w.text or "pretend" in w.text for w in whispers)
    assert nights > 10 and split == 0


def test_guardian_protects_the_claimed_seer() -> None:
    rules = get_preset("guardian7")
    chances = hits = 0
    for seed in range(240):
        rec, _ = play(rules, seed)
        seer = rec.roles.index(Role.SEER)
        claimed_on = min((t.day for t in talks(rec, seer) if "I am the seer" in t.text), default=None)
        if claimed_on is None:
            continue
        claimants = {t.actor for t in rec.events if isinstance(t, Talk) and "I am the seer" in t.text}
        last: int | None = None
        for i, e in enumerate(rec.events):
            if isinstance(e, Guarded):
                alive_seer = not any(isinstance(x, Died) and x.target == seer for x in rec.events[:i])
                if e.day >= claimed_on and len(claimants) == 1 and last != seer and alive_seer:
                    chances += 1
                    hits += e.target == seer
                last = e.target
    assert chances >= 10
    assert hits / chances > 0.8


def test_witch_uses_potions_sensibly() -> None:
    rules = get_preset("witch6")
    poisons: list[bool] = []
    cures = 0
    for seed in range(40):
        rec, _ = play(rules, seed)
        for e in rec.events:
            if isinstance(e, PotionUsed):
                if e.potion == "poison":
                    poisons.append(wolf(rec, e.target))
                else:
                    cures += 1
    assert cures >= 10
    assert len(poisons) >= 3
    assert sum(poisons) / len(poisons) > 0.6


def test_village_plays_better_than_random() -> None:
    rules = get_preset("guardian7")
    seeds = range(150)
    heuristic = village_rate(rules, "all", seeds)
    random_ = village_rate(rules, "none", seeds)
    village_only = village_rate(rules, "village", seeds)
    assert heuristic > random_ + 0.12
    assert village_only > 0.55
    assert village_only > random_ + 0.35
