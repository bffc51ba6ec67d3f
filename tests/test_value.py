"""The value network: features, encoders, batched scoring, training against the baseline, save/load."""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from lycan.engine.actions import OVER, Action, Request
from lycan.engine.events import Divined, RoleAssigned, Talk
from lycan.rules import Role, get_preset
from lycan.train.selfplay import play_samples
from lycan.train.value import (
    FrequencyBaseline,
    TrainConfig,
    TrainedValue,
    cross_type_shrinkage,
    fit_shrinkage,
    load_value,
    metrics,
    shrink,
    train_value,
)
from lycan.value import (
    CachedEncoder,
    HashingEncoder,
    Sample,
    ValueModel,
    candidate_features,
    collate,
    view_features,
)
from lycan.value.features import EVENT_FIELDS, MAX_SEATS, NO_SEAT, mentioned_seats
from lycan.value.network import NetConfig, ValueNet

RULES = get_preset("aiwolf5")


@pytest.fixture(scope="module")
def games() -> list[list[Sample]]:
    return play_samples(RULES, 40, seed=7)


def _day_vote(games: list[list[Sample]]) -> Sample:
    return next(s for g in games for s in g if s.request.kind == "vote" and s.view.day >= 1)


def test_view_features_shape_and_determinism(games: list[list[Sample]]) -> None:
    s = _day_vote(games)
    f = view_features(s.view, s.request, max_events=128)
    assert f.events.shape == (len(s.view.events), len(EVENT_FIELDS))
    assert f.event_seats.shape == (len(s.view.events), MAX_SEATS)
    assert len(f.texts) == len(s.view.events)
    assert f.glob.shape == (7,) and f.glob_seats.shape == (MAX_SEATS,)
    assert f.equals(view_features(s.view, s.request, max_events=128))
    short = view_features(s.view, s.request, max_events=5)
    assert short.events.shape[0] == 5
    assert np.array_equal(short.events, f.events[-5:])


def test_features_take_only_the_view() -> None:
    assert list(inspect.signature(view_features).parameters) == ["view", "request", "max_events"]
    assert list(inspect.signature(candidate_features).parameters) == ["view", "action"]


def test_features_show_no_role_but_ones_own(games: list[list[Sample]]) -> None:
    for game in games[:10]:
        for s in game:
            if s.view.role is not Role.VILLAGER:
                continue
            f = view_features(s.view, s.request)
            own = list(Role).index(Role.VILLAGER) + 1
            assert set(f.events[:, EVENT_FIELDS.index("role")].tolist()) <= {0, own}


def test_seats_are_relative_to_the_viewer(games: list[list[Sample]]) -> None:
    s = next(s for g in games for s in g if s.view.seat == 2)
    f = view_features(s.view, s.request)
    for row, event in zip(f.events, s.view.events, strict=True):
        if isinstance(event, RoleAssigned):
            assert row[EVENT_FIELDS.index("actor")] == 0
        if isinstance(event, Talk):
            assert row[EVENT_FIELDS.index("actor")] == (event.actor - 2) % 5
        if isinstance(event, Divined):
            assert row[EVENT_FIELDS.index("role")] > len(Role)
    assert candidate_features(s.view, Action.choose(1)).cat[1] == 4
    assert candidate_features(s.view, OVER).cat[1] == NO_SEAT
    names = s.view.names
    hot = mentioned_seats(f"I suspect {names[0]} and {names[3]}.", names, 2)
    assert np.flatnonzero(hot).tolist() == [1, 3]


def test_hashing_encoder_is_deterministic_and_normalised() -> None:
    enc = HashingEncoder(32)
    a = enc.encode(["I am the seer.", "I am the seer.", ""])
    assert a.shape == (3, 32) and a.dtype == np.float32
    assert np.array_equal(a[0], a[1]) and not a[2].any()
    assert abs(float(np.linalg.norm(a[0])) - 1.0) < 1e-5


def test_cached_encoder_memory_and_file(tmp_path: Path) -> None:
    cache = tmp_path / "vectors.sqlite"
    enc = CachedEncoder(HashingEncoder(16), capacity=2, path=cache)
    first = enc.encode(["a b", "c d", "a b"])
    assert enc.misses == 2
    enc.encode(["a b"])
    assert enc.misses == 2 and enc.hits == 1
    enc.close()
    again = CachedEncoder(HashingEncoder(16), path=cache)
    assert np.array_equal(again.encode(["c d", "a b"]), first[[1, 0]])
    assert again.misses == 0
    again.close()


def test_one_pass_scores_many_candidates_like_one_at_a_time(games: list[list[Sample]]) -> None:
    s = _day_vote(games)
    enc = CachedEncoder(HashingEncoder(32))
    model = TrainedValue(ValueNet(NetConfig(text_dim=32, d_model=32)), TrainConfig(encoder=enc.name), enc)
    cands = [Action.choose(t) for t in s.request.targets] + [Action.speak(f"I suspect {s.view.names[1]}."), OVER]
    together = model.score(s.view, s.request, cands)
    alone = [model.score(s.view, s.request, [c])[0] for c in cands]
    assert np.allclose(together, alone, atol=1e-5)
    assert all(0.0 < p < 1.0 for p in together)
    assert isinstance(model, ValueModel)
    assert model.score(s.view, s.request, []) == []


def test_collate_pads_views_and_candidates(games: list[list[Sample]]) -> None:
    samples = games[0][:3]
    enc = CachedEncoder(HashingEncoder(8))
    views = [view_features(s.view, s.request) for s in samples]
    cands = [[candidate_features(s.view, s.action)] * (i + 1) for i, s in enumerate(samples)]
    batch, mask = collate(views, cands, enc)
    longest = max(len(v.texts) for v in views)
    assert batch["events"].shape == (3, longest, len(EVENT_FIELDS))
    assert batch["event_text"].shape == (3, longest, 8)
    assert batch["cand"].shape == (3, 3, 2)
    assert mask.sum(axis=1).tolist() == [1, 2, 3]


def test_baseline_and_metrics() -> None:
    m = metrics([0.5, 0.5], [True, False])
    assert m.n == 2 and abs(m.log_loss - np.log(2)) < 1e-9 and abs(m.brier - 0.25) < 1e-12
    samples = play_samples(RULES, 10, seed=3)
    flat = [s for g in samples for s in g]
    base = FrequencyBaseline().fit(flat)
    p = base.prob(flat[0].view)
    assert 0.0 < p < 1.0
    assert base.score(flat[0].view, flat[0].request, [OVER, OVER]) == [p, p]


def test_the_role_only_baseline_is_the_role_win_rate() -> None:
    flat = [s for g in play_samples(RULES, 10, seed=3) for s in g]
    base = FrequencyBaseline(strength=0.0, depth=1).fit(flat)
    for role in {s.view.role for s in flat}:
        mine = [s for s in flat if s.view.role is role]
        rate = sum(s.won for s in mine) / len(mine)
        assert abs(base.prob(mine[0].view) - rate) < 1e-9
    with pytest.raises(ValueError, match="depth"):
        FrequencyBaseline(depth=4)


def test_shrinking_keeps_the_ends_and_the_ranking() -> None:
    p, a = np.array([0.9, 0.2, 0.6]), np.array([0.5, 0.5, 0.3])
    assert np.allclose(shrink(p, a, 1.0), p) and np.allclose(shrink(p, a, 0.0), a)
    half = shrink(p, a, 0.5)
    assert np.all((half - a) * (p - a) >= 0) and np.all(np.abs(half - a) <= np.abs(p - a))
    same_view = shrink(np.array([0.8, 0.6, 0.7]), np.full(3, 0.4), 0.3)  # candidates of one view keep their order
    assert list(np.argsort(same_view)) == [1, 2, 0]


def test_the_fitted_shrinkage_is_the_one_the_outcomes_call_for() -> None:
    """A network twice as sure as the truth (on the logit scale) is shrunk by half, a right one kept, noise dropped."""
    # truth 0.75 / 0.25 around an anchor of 0.5; the network says 0.9 / 0.1 (logit 2 ln 3 for ln 3)
    p = np.array([0.9] * 100 + [0.1] * 100)
    y = np.array([1] * 75 + [0] * 25 + [1] * 25 + [0] * 75)
    assert fit_shrinkage(p, np.full(200, 0.5), y) == pytest.approx(0.5, abs=0.01)
    assert fit_shrinkage(np.array([0.75] * 100 + [0.25] * 100), np.full(200, 0.5), y) == pytest.approx(1.0)
    noise = np.array([0.9, 0.1] * 100)  # says nothing about outcomes that split evenly each way
    assert fit_shrinkage(noise, np.full(200, 0.5), np.array([1, 0, 0, 1] * 50)) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="as many"):
        fit_shrinkage([0.5], [0.5, 0.5], [1])


def test_cross_type_shrinkage_trains_without_each_type_in_turn() -> None:
    by_type = {
        "a": [s for g in play_samples(RULES, 6, seed=11) for s in g],
        "b": [s for g in play_samples(RULES, 6, seed=12) for s in g],
    }
    alpha, per_type = cross_type_shrinkage(by_type, TrainConfig(encoder="hash:16", epochs=1, d_model=32, device="cpu"))
    assert 0.0 <= alpha <= 1.0 and set(per_type) == {"a", "b"}
    assert all(0.0 <= v <= 1.0 for v in per_type.values())
    with pytest.raises(ValueError, match="at least two agent types"):
        cross_type_shrinkage({"a": by_type["a"]}, TrainConfig(encoder="hash:16", epochs=1, device="cpu"))


def test_train_save_load_round_trip(tmp_path: Path, games: list[list[Sample]]) -> None:
    flat = [s for g in games[:10] for s in g]
    model = train_value(flat, TrainConfig(encoder="hash:16", epochs=1, d_model=32, device="cpu"))
    assert len(model.report.train_loss) == 1 and model.report.samples_per_s > 0
    model.save(tmp_path / "value")
    loaded = load_value(tmp_path / "value")
    s = _day_vote(games)
    cands = [Action.choose(t) for t in s.request.targets]
    assert np.allclose(model.score(s.view, s.request, cands), loaded.score(s.view, s.request, cands), atol=1e-6)
    with pytest.raises(FileNotFoundError, match="holds no value network"):
        load_value(tmp_path / "nothing")


def test_request_kind_is_a_feature() -> None:
    s = play_samples(RULES, 1, seed=0)[0][0]
    vote = Request(0, s.view.seat, "vote", s.view.day, targets=(0, 1))
    talk = Request(0, s.view.seat, "talk", s.view.day)
    assert not view_features(s.view, vote).equals(view_features(s.view, talk))


def test_trained_network_beats_the_role_day_baseline_on_held_out_games() -> None:
    games = play_samples(RULES, 260, seed=1)
    train = [s for g in games[:200] for s in g]
    held_out = [s for g in games[200:] for s in g]
    config = TrainConfig(
        encoder="hash:32", epochs=3, d_model=32, layers=1, dropout=0.2, weight_decay=0.05, device="cpu", seed=0
    )
    model = train_value(train, config, held_out=held_out)
    net, base = model.report.held_out, model.report.baseline
    assert net is not None and base is not None
    assert net.n == base.n == len(held_out)
    assert net.log_loss < base.log_loss, (net, base)
    assert net.brier < base.brier, (net, base)


SHIPPED_VOCABULARY = {
    "events": [
        "game_started",
        "role_assigned",
        "wolf_pack",
        "phase_started",
        "talk",
        "bid",
        "vote",
        "executed",
        "no_execution",
        "attack_vote",
        "attack_chosen",
        "divined",
        "medium_result",
        "guarded",
        "witch_woken",
        "potion_used",
        "night_resolved",
        "died",
        "peaceful_night",
        "hunter_shot",
        "fault",
        "game_over",
    ],
    "requests": ["talk", "whisper", "vote", "attack", "divine", "guard", "cure", "poison", "shoot", "bid", "probe"],
    "actions": ["speak", "over", "skip", "choose", "pass", "bid", "probe"],
    "roles": ["werewolf", "possessed", "seer", "medium", "guardian", "witch", "hunter", "idiot", "villager"],
}
"""What the shipped network (`lycan/value/default/`) was trained with: its embedding tables have these sizes."""


def test_the_features_vocabulary_is_the_engines_and_the_shipped_networks() -> None:
    """The vocabularies come from the engine; if the engine grows one, this says the network must be retrained."""
    import lycan.value.features as features
    from lycan.engine.events import EVENT_TYPES

    derived = {
        "events": [cls.kind for cls in features.EVENT_TYPES],
        "requests": list(features.REQUEST_KINDS),
        "actions": list(features.ACTION_KINDS),
        "roles": [role.value for role in features.ROLES],
    }
    assert derived == SHIPPED_VOCABULARY, "retrain the shipped network (scripts/train_deepwolf), then update this"
    # every event a seat can see has a token type of its own
    assert {cls.kind for cls in EVENT_TYPES.values()} - set(derived["events"]) == {"probe_answered"}
