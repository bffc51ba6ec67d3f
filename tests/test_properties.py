"""Property tests: random rule sets and seeds, and the conformance checks hold in every game."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lycan.agents import RandomAgent
from lycan.conformance import check_game, check_rules
from lycan.rules import Role, RuleOptions, RuleSet, TalkLimits
from lycan.rules.ruleset import DISCUSSIONS

OTHER_ROLES = [Role.POSSESSED, Role.SEER, Role.MEDIUM, Role.GUARDIAN, Role.WITCH, Role.HUNTER]


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    wolves = draw(st.integers(1, 3))
    roles: dict[Role, int] = {Role.WEREWOLF: wolves}
    for role in OTHER_ROLES:
        roles[role] = draw(st.integers(0, 2))
    others = sum(roles.values()) - wolves
    # the deal must not start at parity: top up with villagers
    villagers = draw(st.integers(max(0, wolves + 1 - others), 6))
    roles[Role.VILLAGER] = villagers
    talk = TalkLimits(
        rounds=draw(st.integers(1, 3)),
        per_agent=draw(st.integers(1, 4)),
        per_day=draw(st.integers(1, 12)),
        max_skip=draw(st.integers(0, 2)),
        max_length=draw(st.integers(5, 60)),
        max_turns=draw(st.integers(0, 12)),
    )
    flags: dict[str, Any] = {
        name: draw(st.booleans())
        for name in (
            "allow_self_vote",
            "guardian_repeat",
            "guardian_self",
            "witch_self_save",
            "witch_both_same_night",
            "hunter_shoots_when_poisoned",
            "reveal_role_on_death",
            "greeting",
            "first_night_attack",
            "whisper",
        )
    }
    options = RuleOptions(
        tie_break=draw(st.sampled_from(["revote_then_random", "random", "no_execution"])),
        discussion=draw(st.sampled_from(DISCUSSIONS)),
        whisper_rounds=draw(st.integers(1, 2)),
        talk=talk,
        whisper_limits=TalkLimits(rounds=1, per_agent=draw(st.integers(1, 3)), per_day=draw(st.integers(1, 6))),
        max_days=draw(st.integers(1, 30)),
        **flags,
    )
    return RuleSet(name="random", roles=roles, options=options)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 2**31 - 1))
def test_random_rule_sets_conform(rules: RuleSet, seed: int) -> None:
    report = check_rules(rules, games=3, seed=seed)
    assert report.games == 3
    assert report.ok, report.summary()
    assert sum(report.wins.values()) == 3


@settings(max_examples=25, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**31 - 1))
def test_same_seed_same_game(rules: RuleSet, seed: int) -> None:
    records = []
    for _ in range(2):
        players = [RandomAgent(seed + s) for s in range(rules.n_players)]
        record, problems = check_game(rules, seed, players)
        assert problems == [], problems
        assert record is not None
        records.append(record)
    assert records[0].events == records[1].events
    assert records[0].decisions == records[1].decisions
