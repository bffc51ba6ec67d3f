"""Scripted players force specific scenarios; the tests assert the exact outcome."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable

import pytest

from lycan.agents import RandomAgent, SyncAgent
from lycan.conformance import check_record
from lycan.engine import OVER, PASS, SKIP, Action, Game, GameRecord, Request, View, run_async, run_sync, visible
from lycan.engine.actions import BidInfo, VoteInfo
from lycan.engine.events import (
    AttackChosen,
    AttackVote,
    BidPlaced,
    Died,
    Divined,
    Event,
    Executed,
    Fault,
    Guarded,
    HunterShot,
    MediumResult,
    NightResolved,
    NoExecution,
    PeacefulNight,
    PhaseStarted,
    PotionUsed,
    Talk,
    VoteCast,
    WitchWoken,
)
from lycan.engine.roles.idiot import spare_reason
from lycan.rules import (
    Role,
    RuleSet,
    Species,
    TalkLimits,
    Team,
    get_preset,
    parse_role,
    parse_roles_spec,
    resolve_rules,
    species_of,
    team_of,
)

Policy = Callable[[View, Request], Action | None]


def default_answer(req: Request) -> Action:
    """Over for talk, bid 0, pass when allowed, else the first legal target."""
    if req.is_talk:
        return OVER
    if req.kind == "bid":
        return Action("bid", amount=0)
    if req.can_pass:
        return PASS
    return Action.choose(req.targets[0])


class Scripted(SyncAgent):
    label = "scripted"

    def __init__(self, policy: Policy, seen: list[Request]) -> None:
        self.policy = policy
        self.seen = seen

    def decide(self, view: View, request: Request) -> Action:
        assert view.seat == request.seat
        self.seen.append(request)
        answer = self.policy(view, request)
        return default_answer(request) if answer is None else answer


def play(rules: RuleSet, seed: int, policy: Policy) -> tuple[GameRecord, list[Request]]:
    seen: list[Request] = []
    rec = run_sync(rules, [Scripted(policy, seen) for _ in range(rules.n_players)], seed)
    problems = check_record(rec)
    assert problems == [], problems
    return rec, seen


def dealt(rules: RuleSet, seed: int) -> tuple[Role, ...]:
    return Game(rules, seed).roles


def seats(roles: tuple[Role, ...], role: Role) -> list[int]:
    return [s for s, r in enumerate(roles) if r is role]


def of(rec: GameRecord, cls: type[Event]) -> list[Event]:
    return [e for e in rec.events if isinstance(e, cls)]


def with_options(rules: RuleSet, **options: object) -> RuleSet:
    return rules.model_copy(update={"options": rules.options.model_copy(update=options)})


def nobody_talks(view: View, req: Request) -> Action | None:
    return None


# ----------------------------------------------------------------------------- presets' flow
def test_aiwolf5_day0_divination_and_no_night0_attack() -> None:
    rules = get_preset("aiwolf5")
    rec, seen = play(rules, 3, nobody_talks)
    seer = seats(rec.roles, Role.SEER)[0]
    night0 = [e for e in rec.events if e.day == 0 and e.phase == "night"]
    divined = [e for e in night0 if isinstance(e, Divined)]
    assert len(divined) == 1 and divined[0].actor == seer
    assert not [e for e in night0 if isinstance(e, AttackVote | AttackChosen)]
    assert not [r for r in seen if r.day == 0 and r.kind == "attack"]
    # day 0 has the greeting talk and no vote; night 0 kills nobody
    assert [e for e in rec.events if isinstance(e, Talk) and e.day == 0]
    assert not [e for e in rec.events if isinstance(e, VoteCast) and e.day == 0]
    assert next(e for e in rec.events if isinstance(e, NightResolved)).deaths == ()
    assert [e for e in rec.events if isinstance(e, PeacefulNight) and e.day == 1]


def test_witch6_night_order() -> None:
    rules = get_preset("witch6")
    roles = dealt(rules, 0)
    witch = seats(roles, Role.WITCH)[0]

    def cure(view: View, req: Request) -> Action | None:
        return Action.choose(req.targets[0]) if req.kind == "cure" else None

    rec, _ = play(rules, 0, cure)
    night0 = [e for e in rec.events if e.day == 0 and e.phase == "night"]
    kinds = [e.kind for e in night0 if not isinstance(e, Talk)]
    assert kinds == [
        "phase_started",
        "attack_vote",
        "attack_vote",
        "attack_chosen",
        "divined",
        "witch_woken",
        "potion_used",
        "night_resolved",
    ]
    woken = next(e for e in night0 if isinstance(e, WitchWoken))
    chosen = next(e for e in night0 if isinstance(e, AttackChosen))
    assert woken.actor == witch and woken.attacked == chosen.target and (woken.cures, woken.poisons) == (1, 1)


def test_guardian_saves_the_attacked_seat() -> None:
    rules = get_preset("guardian7")
    roles = dealt(rules, 1)
    guardian = seats(roles, Role.GUARDIAN)[0]
    victim = seats(roles, Role.VILLAGER)[0]

    def policy(view: View, req: Request) -> Action | None:
        if req.kind in ("attack", "guard") and req.day == 0:
            return Action.choose(victim)
        if req.kind == "vote":
            return Action.choose(next(t for t in req.targets if t not in (guardian, victim)))
        return None

    rec, seen = play(rules, 1, policy)
    resolved = of(rec, NightResolved)[0]
    assert isinstance(resolved, NightResolved)
    assert (resolved.attacked, resolved.guarded, resolved.deaths) == (victim, (victim,), ())
    assert [e for e in rec.events if isinstance(e, PeacefulNight) and e.day == 1]
    guarded = [e for e in rec.events if isinstance(e, Guarded)]
    assert guarded[0].actor == guardian and guarded[0].target == victim
    # no repeat: on night 1 the guardian may not protect the same seat again (nor itself)
    night1 = next(r for r in seen if r.kind == "guard" and r.day == 1)
    assert victim not in night1.targets and guardian not in night1.targets


def test_guardian_repeat_and_self_options() -> None:
    rules = with_options(get_preset("guardian7"), guardian_repeat=True, guardian_self=True)
    roles = dealt(rules, 1)
    guardian = seats(roles, Role.GUARDIAN)[0]

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "guard":
            return Action.choose(guardian)
        if req.kind == "vote":
            return Action.choose(next(t for t in reversed(req.targets) if t != guardian))
        return None

    rec, seen = play(rules, 1, policy)
    guards = [r for r in seen if r.kind == "guard"]
    assert len(guards) >= 2 and all(guardian in r.targets for r in guards)
    assert all(e.target == guardian for e in of(rec, Guarded) if isinstance(e, Guarded))


# ----------------------------------------------------------------------------- witch
WITCH_RULES = get_preset("witch6")


def _witch_game(policy: Policy, seed: int = 0, **options: object) -> tuple[GameRecord, list[Request], list[int]]:
    rules = with_options(WITCH_RULES, **options)
    rec, seen = play(rules, seed, policy)
    return rec, seen, [e.target for e in of(rec, PotionUsed) if isinstance(e, PotionUsed)]


def test_witch_cure_then_no_second_cure() -> None:
    roles = dealt(WITCH_RULES, 0)
    witch = seats(roles, Role.WITCH)[0]

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "cure":
            return Action.choose(req.targets[0])
        if req.kind == "attack":
            return Action.choose(next(t for t in req.targets if t != witch))
        return None

    rec, seen, _ = _witch_game(policy)
    cures = [r for r in seen if r.kind == "cure"]
    assert len(cures) == 1 and cures[0].day == 0
    used = [e for e in of(rec, PotionUsed) if isinstance(e, PotionUsed)]
    assert [(e.potion, e.day) for e in used if e.potion == "cure"] == [("cure", 0)]
    assert of(rec, NightResolved)[0].deaths == ()  # type: ignore[attr-defined]
    later = [e for e in of(rec, WitchWoken) if isinstance(e, WitchWoken) and e.day > 0]
    assert later and all(e.cures == 0 for e in later)


def test_witch_poison_kills_and_is_used_once() -> None:
    roles = dealt(WITCH_RULES, 0)
    wolf = seats(roles, Role.WEREWOLF)[0]

    def policy(view: View, req: Request) -> Action | None:
        return Action.choose(wolf) if req.kind == "poison" and wolf in req.targets else None

    rec, seen, _ = _witch_game(policy)
    poisons = [r for r in seen if r.kind == "poison"]
    assert len(poisons) == 1
    resolved = of(rec, NightResolved)[0]
    assert isinstance(resolved, NightResolved) and wolf in resolved.poisoned and wolf in resolved.deaths
    died = [e for e in of(rec, Died) if isinstance(e, Died) and e.target == wolf]
    assert died and died[0].cause == "night"  # the hidden cause is not told


@pytest.mark.parametrize("both", [True, False])
def test_witch_both_potions_same_night_option(both: bool) -> None:
    def policy(view: View, req: Request) -> Action | None:
        return Action.choose(req.targets[0]) if req.kind in ("cure", "poison") else None

    _rec, seen, _ = _witch_game(policy, witch_both_same_night=both)
    night0 = [r.kind for r in seen if r.day == 0 and r.kind in ("cure", "poison")]
    assert night0 == (["cure", "poison"] if both else ["cure"])


@pytest.mark.parametrize("self_save", [True, False])
def test_witch_self_save_option(self_save: bool) -> None:
    roles = dealt(WITCH_RULES, 0)
    witch = seats(roles, Role.WITCH)[0]

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "attack":
            return Action.choose(witch)
        if req.kind == "cure":
            return Action.choose(witch)
        return None

    rec, seen, _ = _witch_game(policy, witch_self_save=self_save)
    cures = [r for r in seen if r.kind == "cure"]
    resolved = of(rec, NightResolved)[0]
    assert isinstance(resolved, NightResolved)
    if self_save:
        assert cures[0].targets == (witch,) and resolved.saved == (witch,) and resolved.deaths == ()
    else:
        assert cures == [] and resolved.deaths == (witch,)


# ----------------------------------------------------------------------------- hunter
HUNTER_RULES = parse_roles_spec("werewolf=1,hunter=1,witch=1,villager=3")


def _hunter_policy(roles: tuple[Role, ...], *, poison: bool) -> Policy:
    hunter = seats(roles, Role.HUNTER)[0]
    witch = seats(roles, Role.WITCH)[0]
    victim = next(s for s in seats(roles, Role.VILLAGER))

    def policy(view: View, req: Request) -> Action | None:
        if req.day == 0 and req.kind == "attack":
            return Action.choose(victim if poison else hunter)
        if req.day == 0 and req.kind == "poison" and poison:
            return Action.choose(hunter)
        if req.kind == "shoot":
            return Action.choose(next(t for t in req.targets if t != witch))
        return None

    return policy


@pytest.mark.parametrize("seed", [0, 1])
def test_hunter_shoots_when_attacked(seed: int) -> None:
    roles = dealt(HUNTER_RULES, seed)
    hunter = seats(roles, Role.HUNTER)[0]
    rec, seen = play(HUNTER_RULES, seed, _hunter_policy(roles, poison=False))
    shots = [e for e in of(rec, HunterShot) if isinstance(e, HunterShot)]
    assert shots and shots[0].actor == hunter and shots[0].day == 1
    assert [e for e in of(rec, Died) if isinstance(e, Died) and e.target == shots[0].target and e.cause == "shot"]
    shoot = next(r for r in seen if r.kind == "shoot")
    assert hunter not in shoot.targets and shoot.can_pass


@pytest.mark.parametrize("allowed", [False, True])
def test_poisoned_hunter_shoots_only_if_allowed(allowed: bool) -> None:
    rules = with_options(HUNTER_RULES, hunter_shoots_when_poisoned=allowed)
    roles = dealt(rules, 0)
    rec, seen = play(rules, 0, _hunter_policy(roles, poison=True))
    hunter = seats(roles, Role.HUNTER)[0]
    assert hunter in of(rec, NightResolved)[0].poisoned  # type: ignore[attr-defined]
    shots_day1 = [r for r in seen if r.kind == "shoot" and r.day == 1]
    assert bool(shots_day1) is allowed


def test_executed_hunter_shoots() -> None:
    roles = dealt(HUNTER_RULES, 0)
    hunter = seats(roles, Role.HUNTER)[0]
    wolf = seats(roles, Role.WEREWOLF)[0]

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "vote":
            return Action.choose(hunter if hunter in req.targets else req.targets[0])
        if req.kind == "shoot":
            return Action.choose(wolf)
        return None

    rec, _ = play(HUNTER_RULES, 0, policy)
    executed = of(rec, Executed)[0]
    assert isinstance(executed, Executed) and executed.target == hunter
    shot = of(rec, HunterShot)[0]
    assert isinstance(shot, HunterShot) and (shot.actor, shot.target) == (hunter, wolf)
    assert rec.winner == "village"


# ----------------------------------------------------------------------------- votes
TIE_RULES = parse_roles_spec("werewolf=1,seer=1,villager=5")


def _tie_policy(a: int, b: int) -> Policy:
    """Day 1: a and b vote for each other, the others split evenly between them."""

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "vote" and req.day == 1:
            if req.seat in (a, b):
                return Action.choose(b if req.seat == a else a)
            others = [s for s in view.living() if s not in (a, b)]
            return Action.choose(a if others.index(req.seat) < len(others) // 2 else b)
        if req.kind == "attack":
            return Action.choose(next(t for t in req.targets if t not in (a, b)))
        return None

    return policy


def _day1(rec: GameRecord, cls: type[Event]) -> list[Event]:
    return [e for e in rec.events if isinstance(e, cls) and e.day == 1]


def _tie_pair(rules: RuleSet, seed: int) -> tuple[int, int]:
    roles = dealt(rules, seed)
    humans = [s for s, r in enumerate(roles) if r is not Role.WEREWOLF]
    return humans[0], humans[1]


def test_tie_revote_then_random() -> None:
    rules = TIE_RULES
    a, b = _tie_pair(rules, 0)
    rec, seen = play(rules, 0, _tie_policy(a, b))
    rounds = Counter(e.round for e in _day1(rec, VoteCast) if isinstance(e, VoteCast))
    assert set(rounds) == {0, 1}
    revote = [r for r in seen if r.kind == "vote" and r.day == 1 and isinstance(r.info, VoteInfo) and r.info.round == 1]
    assert revote and all(set(r.targets) <= {a, b} for r in revote)
    executed = _day1(rec, Executed)
    assert len(executed) == 1 and executed[0].target in (a, b)  # type: ignore[attr-defined]


def test_tie_random() -> None:
    rules = with_options(TIE_RULES, tie_break="random")
    a, b = _tie_pair(rules, 0)
    rec, _ = play(rules, 0, _tie_policy(a, b))
    assert {e.round for e in _day1(rec, VoteCast) if isinstance(e, VoteCast)} == {0}
    executed = _day1(rec, Executed)
    assert len(executed) == 1 and executed[0].target in (a, b)  # type: ignore[attr-defined]
    targets = {e.target for s in range(20) for e in _tie_runs(rules, s)}
    assert len(targets) >= 2  # the draw really is random across seeds


def _tie_runs(rules: RuleSet, seed: int) -> list[Executed]:
    a, b = _tie_pair(rules, seed)
    rec, _ = play(rules, seed, _tie_policy(a, b))
    return [e for e in _day1(rec, Executed) if isinstance(e, Executed)]


def test_tie_no_execution() -> None:
    rules = with_options(TIE_RULES, tie_break="no_execution")
    a, b = _tie_pair(rules, 0)
    rec, _ = play(rules, 0, _tie_policy(a, b))
    assert not _day1(rec, Executed)
    none = _day1(rec, NoExecution)
    assert len(none) == 1 and "tie" in none[0].reason  # type: ignore[attr-defined]


@pytest.mark.parametrize("reveal", [True, False])
def test_reveal_role_on_death(reveal: bool) -> None:
    rules = with_options(get_preset("guardian7"), reveal_role_on_death=reveal)
    rec, _ = play(rules, 5, nobody_talks)
    deaths = [e for e in of(rec, Died) if isinstance(e, Died)]
    executions = [e for e in of(rec, Executed) if isinstance(e, Executed)]
    assert deaths and executions
    for e in deaths:
        assert e.role is (rec.roles[e.target] if reveal else None)
    for x in executions:
        assert x.role is (rec.roles[x.target] if reveal else None)


@pytest.mark.parametrize("greeting", [True, False])
def test_greeting(greeting: bool) -> None:
    rules = with_options(get_preset("guardian7"), greeting=greeting)
    rec, _seen = play(rules, 2, nobody_talks)
    day0 = [e for e in of(rec, Talk) if e.day == 0 and e.phase == "day"]
    assert bool(day0) is greeting
    if greeting:
        assert {e.actor for e in day0 if isinstance(e, Talk)} == set(range(rules.n_players))


def test_self_vote_option() -> None:
    for allow in (False, True):
        rules = with_options(get_preset("guardian5"), allow_self_vote=allow)
        _, seen = play(rules, 0, nobody_talks)
        votes = [r for r in seen if r.kind == "vote"]
        assert all((r.seat in r.targets) is allow for r in votes)


# ----------------------------------------------------------------------------- whisper
def test_whisper_needs_two_wolves_and_only_wolves_see_it() -> None:
    rules = get_preset("guardian7")
    roles = dealt(rules, 4)
    wolves = seats(roles, Role.WEREWOLF)
    first = wolves[0]

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "whisper":
            return Action.speak(f"wolf {req.seat} on day {req.day}")
        if req.kind == "vote" and req.day == 1:
            return Action.choose(first if first in req.targets else req.targets[0])
        return None

    rec, seen = play(rules, 4, policy)
    whispers = [e for e in of(rec, Talk) if isinstance(e, Talk) and e.channel == "whisper"]
    assert whispers and all(e.audience == frozenset(wolves) for e in whispers)
    assert {e.day for e in whispers} == {0}  # night 1: one wolf left after the day-1 execution
    assert {r.seat for r in seen if r.kind == "whisper"} == set(wolves)
    for seat in range(rules.n_players):
        seen_whispers = [e for e in visible(rec.events, seat) if isinstance(e, Talk) and e.channel == "whisper"]
        assert bool(seen_whispers) is (seat in wolves)


# ----------------------------------------------------------------------------- discussion protocols
def _talk_rules(discussion: str, **talk: int) -> RuleSet:
    rules = parse_roles_spec("werewolf=1,seer=1,villager=3")
    opts = rules.options.model_copy(update={"discussion": discussion, "talk": TalkLimits(**talk)})  # type: ignore[arg-type]
    return rules.model_copy(update={"options": opts})


def _chatty(view: View, req: Request) -> Action | None:
    if req.is_talk:
        return Action.speak(f"seat {req.seat} turn {req.talk.turn} day {req.day} id {req.id}")
    return None


def _talks(rec: GameRecord, day: int) -> list[Talk]:
    return [e for e in rec.events if isinstance(e, Talk) and e.day == day and e.channel == "talk"]


def test_round_robin() -> None:
    rules = _talk_rules("round_robin", rounds=2)
    rec, _ = play(rules, 0, _chatty)
    talks = _talks(rec, 1)
    alive = next(e for e in of(rec, PhaseStarted) if e.day == 1 and e.phase == "day").alive  # type: ignore[attr-defined]
    start = 1 % len(alive)
    order = list(alive[start:] + alive[:start])
    assert [t.actor for t in talks] == order * 2
    assert [t.turn for t in talks] == list(range(2 * len(alive)))


def test_round_robin_over_ends_a_seats_talk() -> None:
    rules = _talk_rules("round_robin", rounds=3)

    def policy(view: View, req: Request) -> Action | None:
        if req.is_talk:
            return OVER if req.seat % 2 else Action.speak(f"{req.id}")
        return None

    rec, seen = play(rules, 0, policy)
    for day in range(1, rec.n_days + 1):
        asked = Counter(r.seat for r in seen if r.kind == "talk" and r.day == day)
        for seat, n in asked.items():
            assert n == (1 if seat % 2 else 3)


def test_random_order() -> None:
    rules = _talk_rules("random_order", rounds=3)
    orders = set()
    for seed in range(4):
        rec, _ = play(rules, seed, _chatty)
        talks = _talks(rec, 1)
        n = len({t.actor for t in talks})
        rounds = [tuple(t.actor for t in talks[i : i + n]) for i in range(0, len(talks), n)]
        assert len(rounds) == 3 and all(len(set(r)) == n for r in rounds)
        orders.update(rounds)
    assert len(orders) > 2


def test_deepwolf_k_rule() -> None:
    rules = _talk_rules("deepwolf", max_turns=15)
    rec, _ = play(rules, 0, _chatty)
    for day, k in ((1, 3), (2, 1)):
        talks = [t for t in _talks(rec, day) if not t.over]
        if not talks:
            continue
        speakers = {t.actor for t in talks}
        last: dict[int, int] = {}
        for i, t in enumerate(talks):
            if t.actor in last:
                between = {x.actor for x in talks[last[t.actor] + 1 : i]}
                assert i - last[t.actor] - 1 >= min(k, len(speakers) - 1), (day, t)
                assert t.actor not in between
            last[t.actor] = i
        assert len(talks) <= 15


def test_deepwolf_over_when_everyone_else_has() -> None:
    rules = _talk_rules("deepwolf")
    patterns = set()
    for seed in range(6):
        talker = seats(dealt(rules, seed), Role.SEER)[0]

        def policy(view: View, req: Request, talker: int = talker) -> Action | None:
            if req.is_talk:
                return Action.speak(f"I trust nobody ({req.id}).") if req.seat == talker else OVER
            if req.kind == "attack":
                return Action.choose(next(t for t in req.targets if t != talker))
            return None

        rec, seen = play(rules, seed, policy)
        day1 = _talks(rec, 1)
        said = [t for t in day1 if t.actor == talker]
        # the talker's closing Over comes after everyone else's and is recorded without asking
        assert said[-1].over and said[-1] is day1[-1]
        assert len([r for r in seen if r.seat == talker and r.day == 1 and r.is_talk]) == len(said) - 1
        patterns.add(tuple(t.over for t in said))
    assert patterns == {(False, True), (True,)}


def test_deepwolf_repeat_is_refused() -> None:
    rules = _talk_rules("deepwolf")

    def policy(view: View, req: Request) -> Action | None:
        return Action.speak("Same words again.") if req.is_talk else None

    rec, seen = play(rules, 3, policy)
    refused = [r for r in seen if r.attempt == 1 and r.is_talk]
    assert refused and all("never repeat" in (r.error or "") for r in refused)
    texts = Counter((t.actor, t.text) for t in of(rec, Talk) if isinstance(t, Talk) and not t.over)
    assert all(n == 1 for n in texts.values())


def test_bidding_highest_bid_speaks_and_zero_ends() -> None:
    rules = _talk_rules("bidding", max_turns=6)
    roles = dealt(rules, 0)
    loud = seats(roles, Role.SEER)[0]

    def policy(view: View, req: Request) -> Action | None:
        if isinstance(req.info, BidInfo):
            turn = req.info.turn
            if turn >= 2:
                return Action("bid", amount=0)
            return Action("bid", amount=3 if req.seat == loud else 1)
        if req.is_talk:
            return Action.speak(f"bid talk {req.id}")
        return None

    rec, _ = play(rules, 0, policy)
    talks = _talks(rec, 1)
    assert [t.actor for t in talks] == [loud, loud]
    bids = [e for e in rec.events if isinstance(e, BidPlaced) and e.day == 1]
    assert len(bids) == 3 * len({b.actor for b in bids})  # two turns with a speaker, then all zero


def test_bidding_tie_prefers_a_seat_named_last() -> None:
    rules = _talk_rules("bidding", max_turns=2)
    names = Game(rules, 0).names
    alive_day1: list[int] = []

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "bid":
            return Action("bid", amount=2)
        if req.is_talk:
            if not alive_day1:
                alive_day1.extend(view.living())
            others = [s for s in view.living() if s != req.seat]
            return Action.speak(f"I suspect {names[max(others)]}")
        return None

    rec, _ = play(rules, 0, policy)
    talks = _talks(rec, 1)
    assert len(talks) == 2
    assert talks[1].actor == max(s for s in alive_day1 if s != talks[0].actor)


def test_aiwolf_per_agent_and_per_day_caps() -> None:
    rules = _talk_rules("aiwolf", per_agent=2, per_day=7)
    rec, _seen = play(rules, 0, _chatty)
    for day in range(0, rec.n_days + 1):
        talks = [t for t in _talks(rec, day) if not t.over and not t.skip]
        assert len(talks) <= 7
        assert all(n <= 2 for n in Counter(t.actor for t in talks).values())
    day1 = [t for t in _talks(rec, 1)]
    assert len([t for t in day1 if not t.over]) == 7


def test_aiwolf_over_skip_and_length() -> None:
    rules = _talk_rules("aiwolf", per_agent=3, per_day=20, max_skip=1, max_length=10)
    roles = dealt(rules, 0)
    skipper = seats(roles, Role.SEER)[0]
    wolf = seats(roles, Role.WEREWOLF)[0]

    def policy(view: View, req: Request) -> Action | None:
        if not req.is_talk:
            return None
        assert req.can_skip and req.max_length == 10
        if req.seat == skipper:
            return SKIP
        if req.seat == wolf:
            return OVER
        return Action.speak("one two three four five six")

    rec, seen = play(rules, 0, policy)
    day1 = _talks(rec, 1)
    sk = [t for t in day1 if t.actor == skipper]
    assert [(t.skip, t.over) for t in sk] == [(True, False), (False, True)]  # Skip, then Skip means Over
    assert len([r for r in seen if r.seat == wolf and r.day == 1 and r.is_talk]) == 1
    spoken = [t for t in day1 if not t.over and not t.skip]
    assert spoken and all(len(t.text.replace(" ", "")) <= 10 for t in spoken)
    assert spoken[0].text == "one two thre"  # ten characters, spaces not counted
    # the day's talk ends after a round in which nobody spoke or skipped
    assert all(Counter(t.actor for t in spoken).values())


# ----------------------------------------------------------------------------- illegal answers and faults
def test_illegal_answer_retried_once_with_the_error() -> None:
    rules = get_preset("guardian5")

    chosen: list[int] = []

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "vote" and req.attempt == 0 and (not chosen or chosen[0] == req.seat) and req.day == 1:
            chosen.append(req.seat)
            return Action.choose(99)
        return None

    rec, seen = play(rules, 0, policy)
    retry = next(r for r in seen if r.seat == chosen[0] and r.kind == "vote" and r.attempt == 1)
    assert retry.error is not None and "99" in retry.error and "not a legal vote target" in retry.error
    assert not of(rec, Fault)


def test_twice_illegal_uses_fallback_and_faults_only_that_seat() -> None:
    rules = get_preset("guardian5")

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "vote" and req.seat == 2 and req.day == 1:
            return Action.speak("I refuse")
        return None

    rec, _seen = play(rules, 0, policy)
    faults = [e for e in of(rec, Fault) if isinstance(e, Fault)]
    assert len(faults) == 1
    fault = faults[0]
    assert fault.seat == 2 and fault.request == "vote" and fault.audience == frozenset({2})
    assert len(fault.reasons) == 2 and fault.fallback.startswith("choose ")
    votes = [e for e in of(rec, VoteCast) if isinstance(e, VoteCast) and e.actor == 2 and e.day == 1]
    assert votes  # the fallback vote still counts
    for seat in range(1, rules.n_players):
        if seat != 2:
            assert not [e for e in visible(rec.events, seat) if isinstance(e, Fault)]


def test_sync_agent_exception_becomes_fault() -> None:
    rules = get_preset("guardian5")

    def policy(view: View, req: Request) -> Action | None:
        if req.seat == 1 and req.kind == "vote":
            raise RuntimeError("boom")
        return None

    rec, _ = play(rules, 0, policy)
    faults = [e for e in of(rec, Fault) if isinstance(e, Fault)]
    assert faults and all(f.seat == 1 for f in faults)
    assert "RuntimeError: boom" in faults[0].reasons[0]


# ----------------------------------------------------------------------------- async runner
class AsyncScripted:
    label = "async"

    def __init__(self, delay: float = 0.0, fail: bool = False, slow_kind: str = "vote") -> None:
        self.delay = delay
        self.fail = fail
        self.slow_kind = slow_kind
        self.slept = False

    async def act(self, view: View, request: Request) -> Action:
        if request.kind == self.slow_kind:
            if self.fail:
                raise ValueError("no idea")
            if self.delay and not self.slept:
                self.slept = True
                await asyncio.sleep(self.delay)
        return default_answer(request)


async def test_async_exception_and_timeout_become_faults() -> None:
    rules = with_options(get_preset("guardian5"), action_timeout=0.05, first_night_attack=False)
    players = [AsyncScripted() for _ in range(rules.n_players)]
    players[1] = AsyncScripted(fail=True)  # raises on every vote
    players[3] = AsyncScripted(delay=1.0)  # misses the first vote's deadline, then answers at once
    rec = await run_async(rules, players, 0)
    assert check_record(rec) == []
    faults = [e for e in of(rec, Fault) if isinstance(e, Fault)]
    assert faults and {f.seat for f in faults} == {1}
    assert all(f.request == "vote" and "ValueError: no idea" in f.reasons[0] for f in faults)
    late = [d for d in rec.decisions if d.seat == 3 and not isinstance(d.answer, Action)]
    assert len(late) == 1 and "no answer within 0.05 s" in str(late[0].answer)
    assert rec.events[-1].kind == "game_over"


async def test_batches_run_concurrently() -> None:
    rules = with_options(get_preset("guardian5"), first_night_attack=False)
    players = [AsyncScripted() for _ in range(rules.n_players)]
    for s in (0, 1, 2):
        players[s] = AsyncScripted(delay=0.2)
    started = time.perf_counter()
    rec = await run_async(rules, players, 0)
    elapsed = time.perf_counter() - started
    assert check_record(rec) == []
    # all three sleep on the day-1 vote, one batch: ~0.2 s together, not 0.6 s one after another
    assert 0.2 <= elapsed < 0.45, elapsed


def test_abort_ends_the_game_as_a_draw_with_the_reason() -> None:
    from lycan.engine.events import GameOver
    from lycan.engine.game import Game
    from lycan.rules import get_preset

    game = Game(get_preset("guardian7"), seed=3)
    gen = game.play()
    batch = next(gen)
    game.abort("the table was closed")
    with pytest.raises(StopIteration):
        gen.send({r.id: r.legal_actions()[0] for r in batch})
    last = game.events[-1]
    assert isinstance(last, GameOver)
    assert last.winner == "draw" and last.reason == "the table was closed"
    assert game.winner == "draw"


# ----------------------------------------------------------------------------- village idiot
IDIOT_RULES = resolve_rules("werewolf=1,idiot=1,medium=1,villager=3")


def _idiot_policy(roles: tuple[Role, ...], *, votes_on: tuple[int, ...], attack_idiot: bool = False) -> Policy:
    """Everyone votes for the idiot on the days in `votes_on`; the wolf spares the idiot and the medium."""
    idiot = seats(roles, Role.IDIOT)[0]
    medium = seats(roles, Role.MEDIUM)[0]

    def policy(view: View, req: Request) -> Action | None:
        if req.kind == "attack":
            if attack_idiot:
                return Action.choose(idiot)
            return Action.choose(next(t for t in req.targets if t not in (idiot, medium)))
        if req.kind == "vote" and req.day in votes_on:
            return Action.choose(idiot if idiot in req.targets else req.targets[0])
        return None

    return policy


def test_idiot_survives_the_first_execution_revealed_and_voteless() -> None:
    roles = dealt(IDIOT_RULES, 0)
    idiot = seats(roles, Role.IDIOT)[0]
    rec, seen = play(IDIOT_RULES, 0, _idiot_policy(roles, votes_on=(1,)))
    assert not _day1(rec, Executed)
    ended = _day1(rec, NoExecution)
    assert len(ended) == 1
    spared = ended[0]
    assert isinstance(spared, NoExecution) and spared.audience is None  # public
    assert spared.reason == spare_reason(rec.names[idiot]) and "village idiot" in spared.reason
    assert Counter(e.target for e in _day1(rec, VoteCast) if isinstance(e, VoteCast)).most_common(1)[0][0] == idiot
    assert not [e for e in of(rec, Died) if isinstance(e, Died) and e.target == idiot and e.day == 1]
    # every seat sees who the idiot is
    assert all(spared in visible(rec.events, s) for s in range(IDIOT_RULES.n_players))
    # from then on the idiot talks but is never asked to vote, and votes for nobody
    later = [r for r in seen if r.seat == idiot and r.day >= 2]
    assert later and not [r for r in later if r.kind == "vote"] and [r for r in later if r.kind == "talk"]
    assert not [e for e in of(rec, VoteCast) if isinstance(e, VoteCast) and e.actor == idiot and e.day >= 2]
    assert [r for r in seen if r.seat == idiot and r.kind == "vote" and r.day == 1]  # the day-1 vote was theirs
    # nobody was executed, so the medium learns nothing that night
    assert not [e for e in of(rec, MediumResult) if e.day == 1]


def test_idiot_dies_on_the_second_execution() -> None:
    roles = dealt(IDIOT_RULES, 0)
    idiot = seats(roles, Role.IDIOT)[0]
    rec, _ = play(IDIOT_RULES, 0, _idiot_policy(roles, votes_on=(1, 2)))
    executed = [e for e in of(rec, Executed) if isinstance(e, Executed)]
    assert [(e.target, e.day) for e in executed][:1] == [(idiot, 2)]
    assert [e for e in of(rec, Died) if isinstance(e, Died) and e.target == idiot and e.cause == "executed"]
    assert [e.day for e in of(rec, NoExecution) if e.reason == spare_reason(rec.names[idiot])] == [1]  # type: ignore[attr-defined]
    reading = [e for e in of(rec, MediumResult) if isinstance(e, MediumResult) and e.day == 2]
    assert reading and reading[0].target == idiot and reading[0].result is Species.HUMAN


def test_idiot_attacked_at_night_dies() -> None:
    roles = dealt(IDIOT_RULES, 1)
    idiot = seats(roles, Role.IDIOT)[0]
    rec, _ = play(IDIOT_RULES, 1, _idiot_policy(roles, votes_on=(), attack_idiot=True))
    died = [e for e in of(rec, Died) if isinstance(e, Died) and e.target == idiot]
    assert died and (died[0].cause, died[0].day) == ("night", 1)
    assert not [e for e in of(rec, NoExecution) if "idiot" in e.reason]  # type: ignore[attr-defined]


def test_idiot_in_a_custom_deal() -> None:
    rules = resolve_rules("werewolf=1,idiot=1,seer=1,villager=2")
    assert rules.roles == {Role.WEREWOLF: 1, Role.IDIOT: 1, Role.SEER: 1, Role.VILLAGER: 2}
    assert parse_role("village_idiot") is Role.IDIOT
    assert team_of(Role.IDIOT) is Team.VILLAGE and species_of(Role.IDIOT) is Species.HUMAN
    for seed in range(20):
        rec, _ = play(rules, seed, _chatty)
        assert rec.roles.count(Role.IDIOT) == 1


def test_events_are_immutable_at_run_time_and_survive_pickling() -> None:
    import copy
    import dataclasses
    import pickle

    rec = run_sync(get_preset("guardian7"), [RandomAgent(s) for s in range(7)], 3)
    for event in rec.events:
        with pytest.raises(AttributeError, match="immutable"):
            event.day = 99  # type: ignore[misc]
        with pytest.raises(AttributeError, match="immutable"):
            del event.day  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(rec)) == rec
    assert copy.deepcopy(rec.events) == rec.events
    first = rec.events[0]
    assert dataclasses.replace(first, day=5).day == 5 and first.day == 0


def test_the_engines_event_maker_makes_the_same_sealed_events() -> None:
    import dataclasses
    import pickle

    from lycan.engine.events import EVENT_TYPES, Event, Talk, event_maker

    assert [f.name for f in dataclasses.fields(Event)] == ["id", "day", "phase", "vis", "audience"]
    make = event_maker(Talk)
    made = make(4, 1, "day", "public", None, actor=2, text="hi", turn=3)
    assert type(made) is Talk and made == Talk(id=4, day=1, phase="day", actor=2, text="hi", turn=3)
    assert (made.channel, made.over, made.skip) == ("talk", False, False)  # the defaults
    with pytest.raises(AttributeError, match="immutable"):
        made.text = "changed"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(made)) == made and hash(made) == hash(dataclasses.replace(made))
    with pytest.raises(TypeError, match="actor"):
        make(4, 1, "day", "public", None, text="hi")
    with pytest.raises(TypeError, match="bogus"):
        make(4, 1, "day", "public", None, actor=2, text="hi", bogus=1)
    rec = run_sync(get_preset("guardian7"), [RandomAgent(s) for s in range(7)], 3)
    assert {type(e) for e in rec.events} <= set(EVENT_TYPES.values())


def test_events_round_trip_through_one_typed_serializer() -> None:
    from lycan.engine.events import event_from_dict, event_to_dict

    rec = run_sync(get_preset("witch6"), [RandomAgent(s) for s in range(6)], 2, probe_days=(1,))
    for event in rec.events:
        data = event_to_dict(event)
        assert data["kind"] == event.kind and event_from_dict(data) == event
    talk = {"kind": "talk", "id": 1, "day": 0, "phase": "day", "actor": 1, "text": "x"}
    assert event_from_dict(talk).text == "x"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="bogus"):
        event_from_dict({**talk, "bogus": 1})
    with pytest.raises(ValueError, match="actor"):
        event_from_dict({**talk, "actor": "somebody"})
    with pytest.raises(ValueError, match="unknown event kind"):
        event_from_dict({**talk, "kind": "telepathy"})


def test_a_manner_travels_from_the_action_into_the_talk_event_and_round_trips() -> None:
    from lycan.engine.actions import Action, answer_from_dict
    from lycan.engine.events import Talk, event_from_dict, event_to_dict
    from lycan.engine.manner import Manner

    manner = Manner(pace="fast", emotion="suspicious", expression="narrowed", gesture="point")
    action = Action.speak("I suspect Player 2.", manner)
    assert answer_from_dict(action.to_dict()) == action
    talk = Talk(id=3, day=1, phase="day", audience=None, actor=0, text=action.text, manner=manner)
    assert event_from_dict(event_to_dict(talk)) == talk
    assert "manner" not in event_to_dict(Talk(id=3, day=1, phase="day", audience=None, actor=0, text="hi"))
    assert Manner.read({"pace": "WARP", "emotion": "Angry"}) == Manner(emotion="angry")
    with pytest.raises(ValueError, match="pace"):
        Manner(pace="warp")  # type: ignore[arg-type]
