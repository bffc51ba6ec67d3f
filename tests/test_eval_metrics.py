"""Metrics on hand-built event logs, checked against values computed by hand (see comments)."""

import dataclasses
import math
from typing import Any

import pytest

from lycan.engine import Action, Decision, GameRecord
from lycan.engine.events import (
    Died,
    Event,
    Executed,
    Fault,
    GameOver,
    PeacefulNight,
    PhaseStarted,
    ProbeAnswered,
    VoteCast,
)
from lycan.eval.estimates import bootstrap_mean, two_proportion_test
from lycan.eval.metrics import (
    Price,
    calibration,
    days_alive,
    fault_stats,
    game_days,
    identification_precision,
    key_role_survival,
    matchups,
    probe_accuracy,
    side_win_rates,
    survival,
    team_lineup,
    team_win_rates,
    usage_stats,
    vote_success,
    votes_received,
    win_dominance,
    win_rates_by_role,
)
from lycan.rules import Role, Team, get_preset
from lycan.stats import Rate, paired_difference

W, S, G, V = Role.WEREWOLF, Role.SEER, Role.GUARDIAN, Role.VILLAGER
RULES = get_preset("guardian5")


class Log:
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.day = 0
        self.phase: Any = "night"

    def add(self, cls: type[Event], **kw: Any) -> None:
        aud = kw.pop("audience", None)
        self.events.append(cls(id=len(self.events), day=self.day, phase=self.phase, audience=aud, **kw))

    def start(self, phase: str, day: int, alive: tuple[int, ...]) -> None:
        self.day, self.phase = day, phase
        self.add(PhaseStarted, alive=alive)

    def votes(self, pairs: list[tuple[int, int]], rnd: int = 0) -> None:
        for a, t in pairs:
            self.add(VoteCast, actor=a, target=t, round=rnd)


def record(
    gid: str,
    roles: list[Role],
    agents: list[str],
    winner: Any,
    log: Log,
    decisions: list[tuple[int, str]],
    usage: dict[str, dict[str, Any]] | None = None,
    **meta: Any,
) -> GameRecord:
    log.phase = "end"
    log.add(GameOver, winner=winner, roles=tuple(roles), reason="test")
    return GameRecord(
        game_id=gid,
        rules=RULES,
        seed=0,
        names=tuple(f"P{i}" for i in range(5)),
        agents=tuple(agents),
        roles=tuple(roles),
        winner=winner,
        events=tuple(log.events),
        decisions=tuple(Decision(i, s, k, Action.choose(0)) for i, (s, k) in enumerate(decisions)),  # type: ignore[arg-type]
        meta=meta,
        usage={int(seat): counters for seat, counters in (usage or {}).items()},
    )


def game1(agents: list[str] | None = None) -> GameRecord:
    """No-kill night, a tie on day 1, revote executes the werewolf: village wins on day 1."""
    log = Log()
    log.start("night", 0, (0, 1, 2, 3, 4))
    log.start("day", 1, (0, 1, 2, 3, 4))
    log.add(PeacefulNight)
    log.votes([(0, 1), (1, 0), (2, 0), (3, 1), (4, 3)], 0)
    log.votes([(0, 1), (1, 0), (2, 0), (3, 0), (4, 1)], 1)
    log.add(Executed, target=0, votes=3)
    log.add(Died, target=0, cause="executed")
    decisions = [(s, "vote") for s in range(5)] * 2
    return record("g1", [W, S, G, V, V], agents or ["A", "B", "A", "human", "B"], "village", log, decisions)


def game2(agents: list[str] | None = None) -> GameRecord:
    """Seer dies night 0; probe on day 1; guardian executed; werewolves win at dawn of day 2."""
    log = Log()
    log.start("night", 0, (0, 1, 2, 3, 4))
    log.start("day", 1, (0, 2, 3, 4))
    log.add(Died, target=1, cause="night")
    log.add(ProbeAnswered, audience=frozenset(), seat=4, guesses=((0, W, 0.8), (0, V, 0.2), (1, S, 0.5), (2, V, 0.6)))
    log.add(ProbeAnswered, audience=frozenset(), seat=3, guesses=(), error="passed")
    log.add(
        ProbeAnswered, audience=frozenset(), seat=0, guesses=((1, S, None), (2, G, None), (3, V, None), (4, S, None))
    )
    log.add(Fault, audience=frozenset({0}), seat=0, request="vote", reasons=("x", "y"), fallback="choose P2")
    log.votes([(0, 2), (2, 3), (3, 2), (4, 2)])
    log.add(Executed, target=2, votes=3)
    log.add(Died, target=2, cause="executed")
    log.start("night", 1, (0, 3, 4))
    log.start("day", 2, (0, 4))
    log.add(Died, target=3, cause="night")
    decisions = [
        (0, "vote"),
        (0, "vote"),
        (2, "vote"),
        (3, "vote"),
        (4, "vote"),
        (4, "probe"),
        (3, "probe"),
        (0, "probe"),
    ]
    usage = {
        "1": {"calls": 2, "prompt_tokens": 100, "completion_tokens": 20, "latency_s": 1.0, "model": "m1"},
        "4": {"calls": 3, "prompt_tokens": 300, "completion_tokens": 30, "latency_s": 2.0},
    }
    return record(
        "g2", [W, S, G, V, V], agents or ["B", "A", "human", "B", "A"], "werewolf", log, decisions, usage=usage
    )


def game3(agents: list[str] | None = None) -> GameRecord:
    """A villager dies night 0; the werewolf is executed on day 1 with no tie."""
    log = Log()
    log.start("night", 0, (0, 1, 2, 3, 4))
    log.start("day", 1, (1, 2, 3, 4))
    log.add(Died, target=0, cause="night")
    log.votes([(1, 2), (2, 1), (3, 1), (4, 1)])
    log.add(Executed, target=1, votes=3)
    log.add(Died, target=1, cause="executed")
    decisions = [(s, "vote") for s in range(1, 5)]
    return record("g3", [V, W, S, G, V], agents or ["A", "A", "B", "B", "human"], "village", log, decisions)


GAMES = [game1(), game2(), game3()]


def rate(r: Rate) -> tuple[int, int]:
    return r.wins, r.n


def test_win_rates_by_role_and_team() -> None:
    t = win_rates_by_role(GAMES)
    assert t.roles == (W, S, G, V)
    assert {r: rate(x) for r, x in t.rows["A"].items()} == {W: (0, 2), S: (0, 1), G: (1, 1), V: (1, 2)}
    assert {r: rate(x) for r, x in t.rows["B"].items()} == {W: (1, 1), S: (2, 2), G: (1, 1), V: (1, 2)}
    assert {r: rate(x) for r, x in t.rows["human"].items()} == {W: (0, 0), S: (0, 0), G: (0, 1), V: (2, 2)}
    assert {a: rate(x) for a, x in t.overall.items()} == {"A": (2, 6), "B": (5, 6), "human": (2, 3)}
    assert {r: rate(x) for r, x in t.average.items()} == {W: (1, 3), S: (2, 3), G: (2, 3), V: (4, 6)}
    teams = team_win_rates(GAMES)
    assert rate(teams["village"]) == (2, 3) and rate(teams["werewolf"]) == (1, 3) and rate(teams["draw"]) == (0, 3)


def test_side_win_rates_count_only_whole_teams() -> None:
    recs = [
        game1(["Y", "X", "X", "X", "X"]),  # X village, won
        game2(["Y", "X", "X", "X", "X"]),  # X village, lost
        game3(["X", "Y", "X", "X", "X"]),  # X village, won
        game2(["X", "Y", "Y", "Y", "Y"]),  # X werewolf, won
        game1(["Y", "X", "X", "X", "Z"]),  # mixed village team: not counted
    ]
    sr = side_win_rates(recs, "X", "Y")
    assert rate(sr.village) == (2, 3) and rate(sr.werewolf) == (1, 1) and rate(sr.overall) == (3, 4)
    assert rate(side_win_rates(recs, "X").village) == (2, 3)
    assert rate(side_win_rates(recs, "Y", "X").werewolf) == (1, 3)


def test_matchups_pair_each_agent_with_each_opponent_by_side() -> None:
    recs = [
        game1(["Y", "X", "X", "X", "X"]),  # X village vs Y, won
        game2(["X", "Y", "Y", "Y", "Y"]),  # Y village vs X, lost (X won as werewolf)
        game3(["Z", "Z", "Z", "Z", "Z"]),  # self-play: the village side won
        game1(["Y", "X", "X", "X", "Z"]),  # mixed village side: no matchup
    ]
    assert [team_lineup(r) for r in recs] == [("X", "Y"), ("Y", "X"), ("Z", "Z"), None]
    rows = {(m.agent, m.opponent): (rate(m.village), rate(m.werewolf), rate(m.overall)) for m in matchups(recs)}
    assert rows == {
        ("X", "Y"): ((1, 1), (1, 1), (2, 2)),
        ("Y", "X"): ((0, 1), (0, 1), (0, 2)),
        ("Z", "Z"): ((1, 1), (0, 1), (1, 2)),
    }
    assert list(rows) == [("X", "Y"), ("Y", "X"), ("Z", "Z")]  # in order of first meeting


def test_votes_received_first_round_and_from_humans() -> None:
    v = votes_received(GAMES)
    assert v["A"].received.value == pytest.approx(5 / 6) and v["A"].received.n == 6
    assert v["A"].from_humans.value == pytest.approx(1 / 6)
    assert v["B"].received.value == pytest.approx(4 / 6)
    assert v["B"].from_humans.value == pytest.approx(2 / 6)
    assert v["human"].received.value == pytest.approx(4 / 3)
    assert v["human"].from_humans.n == 0 and math.isnan(v["human"].from_humans.value)
    assert rate(v["B"].win) == (5, 6)
    lo, hi = v["A"].received.interval
    assert lo <= 5 / 6 <= hi and lo < hi
    assert votes_received(GAMES, revotes=True)["A"].received.value == pytest.approx(8 / 6)


def test_kaggle_identification_precision_and_vote_success() -> None:
    # IRP: every day vote of a village-team seat, 1 if at the werewolf
    irp = identification_precision(GAMES)
    assert {k: rate(x) for k, x in irp.items()} == {"A": (2, 3), "B": (4, 7), "human": (2, 4)}
    by_role = identification_precision(GAMES, by_role=True)
    assert rate(by_role["A/werewolf"]) == (0, 3)  # g1 seat 0 twice, g3 seat 1 once
    assert rate(by_role["B/seer"]) == (3, 3)
    # VSS: on days the werewolf was executed (g1 by the revote, g3), village votes of the deciding round
    vss = vote_success(GAMES)
    assert {k: rate(x) for k, x in vss.items()} == {"A": (1, 1), "B": (3, 4), "human": (2, 2)}
    # win-dependent forms: game 1's votes as if the village had lost score nothing
    lost = [dataclasses.replace(game1(), winner="werewolf"), game3()]
    assert {k: rate(x) for k, x in identification_precision(lost, win_dependent=True).items()} == {
        "A": (0, 2),
        "B": (2, 6),
        "human": (1, 3),
    }
    assert {k: rate(x) for k, x in vote_success(lost, win_dependent=True).items()} == {
        "A": (0, 1),
        "B": (2, 4),
        "human": (1, 2),
    }


def test_kaggle_survival_and_win_dominance() -> None:
    ksr = survival(GAMES)
    assert {k: rate(x) for k, x in ksr.items()} == {"A": (2, 6), "B": (5, 6), "human": (2, 3)}
    assert rate(survival(GAMES, by_role=True)["A/werewolf"]) == (0, 2)
    assert rate(survival(GAMES, by_role=True)["B/seer"]) == (2, 2)
    wd = survival(GAMES, win_dependent=True)  # alive and on the winning side
    assert {k: rate(x) for k, x in wd.items()} == {"A": (1, 6), "B": (5, 6), "human": (2, 3)}
    dom = win_dominance(GAMES)
    # margins: g1 4 of 4 village alive, g2 the lone werewolf alive, g3 3 of 4; speeds 1, 1/2, 1
    assert dom["A"].margin.value == pytest.approx(0.875) and dom["A"].margin.n == 2
    assert dom["B"].margin.value == pytest.approx(0.9) and dom["B"].margin.n == 5
    assert dom["human"].margin.value == pytest.approx(0.875)
    assert dom["B"].speed.value == pytest.approx(0.9) and dom["A"].speed.value == pytest.approx(1.0)
    never = win_dominance([game2(["B", "A", "A", "A", "A"])])["A"]
    assert never.margin.n == 0 and math.isnan(never.margin.value)
    assert [game_days(g) for g in GAMES] == [1, 2, 1]
    assert days_alive(GAMES[1]) == [2, 0, 1, 1, 2]  # seat 1 died the first night, 2 executed day 1, 3 died night 1
    # a hunter shot at dawn lived the day before; one shot after the day's vote lived that day
    log = Log()
    log.start("night", 0, (0, 1, 2, 3, 4))
    log.start("day", 1, (1, 2, 3, 4))
    log.add(Died, target=0, cause="night")
    log.add(Died, target=1, cause="shot")
    log.votes([(2, 3), (3, 2), (4, 3)])
    log.add(Executed, target=3, votes=2)
    log.add(Died, target=3, cause="executed")
    log.add(Died, target=4, cause="shot")
    shot = record("g4", [V, W, S, G, V], ["A"] * 5, "village", log, [])
    assert days_alive(shot) == [0, 0, 1, 1, 1]


def test_key_role_survival_per_day() -> None:
    ksr = key_role_survival(GAMES)
    assert set(ksr) == {S, G}
    assert {d: rate(x) for d, x in ksr[S].by_day.items()} == {1: (2, 3), 2: (0, 1)}
    assert {d: rate(x) for d, x in ksr[G].by_day.items()} == {1: (3, 3), 2: (0, 1)}
    assert rate(ksr[S].at_end) == (2, 3) and rate(ksr[G].at_end) == (2, 3)


def test_probe_accuracy_baseline_and_calibration() -> None:
    p = probe_accuracy(GAMES)
    assert rate(p["A"].accuracy) == (2, 4) and rate(p["A"].baseline) == (1, 4) and rate(p["A"].answered) == (1, 1)
    assert rate(p["B"].accuracy) == (3, 4) and rate(p["B"].baseline) == (2, 4) and rate(p["B"].answered) == (1, 2)
    village = probe_accuracy(GAMES, team=Team.VILLAGE)
    assert rate(village["B"].accuracy) == (0, 0) and rate(village["B"].answered) == (0, 1)
    cal = calibration(GAMES)
    assert set(cal) == {"A"}
    assert cal["A"].brier.value == pytest.approx(0.69 / 4)
    ll = -(2 * math.log(0.8) + math.log(0.5) + math.log(0.4)) / 4
    assert cal["A"].log_loss.value == pytest.approx(ll)
    assert [(b.lo, b.count, b.frequency) for b in cal["A"].bins] == [
        (pytest.approx(0.2), 1, 0.0),
        (pytest.approx(0.5), 1, 1.0),
        (pytest.approx(0.6), 1, 0.0),
        (pytest.approx(0.8), 1, 1.0),
    ]


def test_faults_and_usage() -> None:
    f = fault_stats(GAMES)
    assert (f["B"].faults, f["B"].decisions) == (1, 9)
    assert f["B"].per_100[0] == pytest.approx(100 / 9)
    assert f["B"].per_game.value == pytest.approx(1 / 6) and f["B"].per_game.n == 6
    assert (f["A"].faults, f["A"].decisions) == (0, 6)
    u = usage_stats(GAMES, {"m1": Price(1.0, 2.0), "A": Price(10.0, 10.0)})
    assert set(u) == {"A"}
    a = u["A"]
    assert a.calls.value == pytest.approx(2.5) and a.calls.n == 2
    assert a.tokens.value == pytest.approx(225)
    assert a.cost.value == pytest.approx((140e-6 + 3300e-6) / 2)
    assert a.latency_s.value == pytest.approx(1.5)
    assert a.decisions == 1 and a.tokens_per_decision == pytest.approx(450)
    assert a.days == 2 and a.cost_per_day == pytest.approx(3440e-6 / 2) and a.tokens_per_day == pytest.approx(225)


def test_estimates() -> None:
    m = bootstrap_mean([0, 1] * 50)
    assert m.value == pytest.approx(0.5) and 0.38 < m.lo < 0.45 and 0.55 < m.hi < 0.62
    assert bootstrap_mean([3.0]).interval == (3.0, 3.0)
    assert bootstrap_mean([]).n == 0
    t = two_proportion_test(60, 100, 40, 100)
    assert t.z == pytest.approx(2.828, abs=1e-3) and t.p_value == pytest.approx(0.00468, abs=1e-4) and t.significant
    assert two_proportion_test(0, 0, 1, 2).p_value == 1.0


def test_paired_difference_of_outcomes_on_the_same_deals() -> None:
    a = [1, 1, 0, 1, 0, 1, 1, 0]
    b = [0, 1, 0, 0, 0, 1, 0, 0]
    d = paired_difference(a, b)
    assert d.n == 8 and d.mean == pytest.approx(3 / 8)
    # differences 1,0,0,1,0,0,1,0: sample variance 0.267857..., half-width z * sqrt(var / n)
    half = 1.959964 * (0.2678571428571428 / 8) ** 0.5
    assert (d.low, d.high) == (pytest.approx(3 / 8 - half), pytest.approx(3 / 8 + half))
    assert paired_difference(b, a).mean == pytest.approx(-3 / 8)
    same = paired_difference([1, 0, 1], [0, -1, 0])  # every difference 1: no spread
    assert (same.mean, same.low, same.high) == (1.0, 1.0, 1.0)
    assert paired_difference([], []).n == 0
    assert str(d).startswith("+37.5% [")
    with pytest.raises(ValueError, match="same length"):
        paired_difference([1], [1, 0])


def test_a_price_table_is_read_and_bad_ones_are_one_sentence(tmp_path: Any) -> None:
    from lycan.eval.metrics import load_prices
    from lycan.rules import ConfigError

    good = tmp_path / "p.toml"
    good.write_text('["claude-3.5-sonnet"]\nprompt = 3\ncompletion = 15\n[m1]\nprompt = 0.5\n')
    assert load_prices(good) == {"claude-3.5-sonnet": Price(3.0, 15.0), "m1": Price(0.5, 0.0)}
    (tmp_path / "p.json").write_text('{"m": {"completion": 2}}')
    assert load_prices(tmp_path / "p.json") == {"m": Price(0.0, 2.0)}
    bad = {
        "dots.toml": ("[gpt-4.1]\nprompt = 1\n", "split at its dots"),
        "neg.yaml": ("m: {prompt: -1}\n", "greater than or equal to 0"),
        "key.yaml": ("m: {prompt: 1, cost: 2}\n", "cost"),
        "inf.toml": ("[m]\ncompletion = inf\n", "finite"),
        "broken.yaml": ("m: [1,\n", "is not valid YAML"),
    }
    for name, (text, words) in bad.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(ConfigError, match=words):
            load_prices(tmp_path / name)
    with pytest.raises(ConfigError, match="no price table"):
        load_prices(tmp_path / "missing.toml")
