"""Role posteriors from hard knowledge: exact, never against what a seat knows, from its view alone."""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter

import numpy as np
import pytest

from lycan.agents import RandomAgent
from lycan.beliefs import Knowledge, all_deals, posterior
from lycan.conformance import HiddenVariant
from lycan.engine import Game, GameRecord, View, run_sync
from lycan.engine.events import visible
from lycan.engine.seeds import derive
from lycan.rules import Role, get_preset, team_of
from lycan.rules.roles import Species, species_of


def _views(record: GameRecord, game: Game) -> list[View]:
    """Every seat's view at the end of `record`'s game (the game over event left out)."""
    names, rules = record.names, record.rules
    out = []
    for seat in range(rules.n_players):
        events = visible(record.events[:-1], seat)
        alive = tuple(not any(e.kind == "died" and e.target == s for e in events) for s in range(rules.n_players))  # type: ignore[attr-defined]
        out.append(View(seat, game.roles[seat], names, rules, record.n_days, "day", alive, events))
    return out


def _play(preset: str, seed: int) -> tuple[GameRecord, list[View]]:
    rules = get_preset(preset)
    record = run_sync(rules, [RandomAgent(derive(seed, "agent", s)) for s in range(rules.n_players)], seed)
    return record, _views(record, Game(rules, seed))


@pytest.mark.parametrize("preset", ["aiwolf5", "guardian7", "witch6", "guardian5"])
def test_the_deals_are_every_distinct_arrangement_of_the_deck(preset: str) -> None:
    deck = get_preset(preset).deck()
    deals = all_deals(tuple(deck))
    brute = {p for p in itertools.permutations(deck)}
    assert (
        len(deals)
        == len(brute)
        == math.factorial(len(deck)) // math.prod(math.factorial(c) for c in Counter(deck).values())
    )
    roles = list(Role)
    assert {tuple(roles[i] for i in row) for row in deals} == brute


@pytest.mark.parametrize("preset", ["aiwolf5", "guardian7", "witch6", "aiwolf13"])
def test_posteriors_never_contradict_what_a_seat_knows(preset: str) -> None:
    for seed in range(4):
        record, views = _play(preset, seed)
        for view in views:
            post = posterior(view)
            know = Knowledge.of(view)
            assert post.role_probabilities(view.seat) == pytest.approx({view.role: 1.0})
            truth_prob = math.prod(post.probabilities[s, list(Role).index(r)] for s, r in enumerate(record.roles))
            assert truth_prob > 0, "the true deal must stay possible"
            for seat, result in know.species.items():
                p_wolf = post.role_probabilities(seat).get(Role.WEREWOLF, 0.0)
                assert p_wolf == pytest.approx(1.0 if result is Species.WEREWOLF else 0.0)
                assert result is species_of(record.roles[seat])
            if view.role is Role.WEREWOLF:
                for s in range(len(record.roles)):
                    assert post.role_probabilities(s).get(Role.WEREWOLF, 0.0) == pytest.approx(
                        1.0 if s in view.wolves() else 0.0
                    )
            for s in range(len(record.roles)):
                assert math.isclose(sum(post.role_probabilities(s).values()), 1.0)
                side = post.side_probability(s)
                assert 0.0 <= side <= 1.0
                if s == view.seat:
                    assert side == pytest.approx(1.0 if team_of(view.role).value == "werewolf" else 0.0)


def test_exact_against_brute_force_enumeration() -> None:
    _, views = _play("guardian7", 5)
    for view in views:
        know = Knowledge.of(view)
        fits = []
        for deal in set(itertools.permutations(get_preset("guardian7").deck())):
            ok = all(deal[s] is r for s, r in know.known.items())
            ok &= know.wolves is None or all((deal[s] is Role.WEREWOLF) == (s in know.wolves) for s in range(7))
            ok &= all((deal[s] is Role.WEREWOLF) == (sp is Species.WEREWOLF) for s, sp in know.species.items())
            ok &= all(deal[s] is not Role.WEREWOLF for s in know.not_wolf)
            if ok:
                fits.append(deal)
        post = posterior(view, model=None)
        assert post.deals == len(fits)
        for seat in range(7):
            expected = Counter(d[seat] for d in fits)
            got = post.role_probabilities(seat)
            assert {r: round(c / len(fits), 9) for r, c in expected.items()} == {r: round(p, 9) for r, p in got.items()}


@pytest.mark.parametrize("preset", ["aiwolf5", "aiwolf13", "guardian7", "witch6"])
def test_beliefs_depend_only_on_the_view(preset: str) -> None:
    """Two games that differ only in events hidden from a seat give it the same posterior."""
    rules = get_preset(preset)
    for seed in range(3):
        runs = []
        for variant in (0, 1):
            record = run_sync(rules, [HiddenVariant(s, variant) for s in range(rules.n_players)], seed)
            runs.append((record, _views(record, Game(rules, seed))))
        (_, views_a), (_, views_b) = runs
        for seat, role in enumerate(Game(rules, seed).roles):
            if role in (Role.SEER, Role.WEREWOLF):
                continue
            a, b = posterior(views_a[seat]), posterior(views_b[seat])
            assert a.deals == b.deals and np.array_equal(a.probabilities, b.probabilities)


#: CPU seconds of `_reference_seconds`'s loop on the machine where the 50 ms bound was set. The same
#: loop takes 16.9 ms on a machine that runs pure Python 3.38 times slower (the bare decision loop of
#: `benchmarks/bench_textarena.py --floor`: 142 against 481 thousand decisions/s), so 5.0 ms there.
REFERENCE_S = 0.005


def _reference_seconds() -> float:
    """The best of five runs of a fixed pure-Python loop, in this process's CPU seconds."""
    best = math.inf
    for _ in range(5):
        started = time.process_time()
        total = 0
        for i in range(200_000):
            total += i * i % 7
        best = min(best, time.process_time() - started)
    return best


def test_an_aiwolf13_hard_knowledge_posterior_takes_under_50_ms() -> None:
    """50 ms of CPU per posterior on the reference machine; on a slower one, as much more as it is slower."""
    _, views = _play("aiwolf13", 2)
    posterior(views[0], model=None)  # builds the deal table once per process
    started = time.process_time()  # this process's CPU time: other jobs on the machine do not count
    for view in views:
        posterior(view, model=None)
    per_update = (time.process_time() - started) / len(views)
    slower = max(1.0, _reference_seconds() / REFERENCE_S)
    bound = 0.05 * slower
    assert per_update < bound, f"{per_update * 1000:.1f} ms of CPU per posterior (bound {bound * 1000:.0f} ms here)"


@pytest.mark.parametrize("preset", ["guardian7", "aiwolf5"])
def test_a_spectator_posterior_reads_the_public_record_alone(preset: str) -> None:
    from lycan.engine.view import PublicView

    record, _ = _play(preset, 11)
    rules = record.rules
    public = [e for e in record.events[:-1] if e.audience is None]
    dead = {e.target for e in public if e.kind in ("died", "executed")}  # type: ignore[attr-defined]
    view = PublicView(
        record.names, rules, record.n_days, "day", tuple(s not in dead for s in range(rules.n_players)), public
    )
    post = posterior(view)
    assert post.seat is None
    # no seat's role is known for certain unless it was revealed on death
    revealed = {e.target: e.role for e in public if e.kind in ("died", "executed") and e.role is not None}  # type: ignore[attr-defined]
    for seat in range(rules.n_players):
        probs = post.role_probabilities(seat)
        if seat in revealed:
            assert probs == pytest.approx({revealed[seat]: 1.0})
        else:
            assert max(probs.values()) < 1.0


def test_claims_in_aiwolf_protocol_language() -> None:
    from lycan.beliefs.claims import SpeechParser, Statement

    p = SpeechParser(("Agent[01]", "Agent[02]", "Agent[03]", "Agent[04]", "Agent[05]"))
    assert p.parse("COMINGOUT Agent[01] SEER", 0) == (Statement("claim", role="seer"),)
    assert p.parse("COMINGOUT Agent[02] WEREWOLF", 0) == (Statement("accuses", 1, role="werewolf"),)
    assert p.parse("DIVINED Agent[03] WEREWOLF", 0) == (Statement("divined", 2, species=Species.WEREWOLF),)
    assert p.parse("IDENTIFIED Agent[04] HUMAN", 1) == (Statement("identified", 3, species=Species.HUMAN),)
    assert p.parse("ESTIMATE Agent[05] VILLAGER", 1) == (Statement("defends", 4, role="villager"),)
    assert p.parse("VOTE Agent[02]", 3) == (Statement("will_vote", 1),)
    assert p.parse("REQUEST ANY (VOTE Agent[02])", 3) == ()
    assert p.parse("GUARDED Agent[01]", 2) == (Statement("guarded", 0),)
    assert p.parse("Over", 2) == ()
