"""ONNX export agrees with PyTorch; the real MiniLM encoder; scoring latency for 100 candidates."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from lycan.engine.actions import OVER, Action
from lycan.rules import get_preset
from lycan.train.onnx_export import export_onnx
from lycan.train.selfplay import play_samples
from lycan.train.value import TrainConfig, TrainedValue, train_value
from lycan.value import Sample, ValueModel, make_encoder
from lycan.value.base import prepare
from lycan.value.network import NetConfig, ValueNet
from lycan.value.onnx import OnnxValue

RULES = get_preset("aiwolf5")


@pytest.fixture(scope="module")
def games() -> list[list[Sample]]:
    return play_samples(RULES, 12, seed=5)


def _candidates(sample: Sample, n: int) -> list[Action]:
    names = sample.view.names
    out: list[Action] = [Action.choose(t) for t in sample.request.targets] + [OVER]
    i = 0
    while len(out) < n:
        out.append(Action.speak(f"Candidate {i}: I suspect {names[i % len(names)]} is a werewolf."))
        i += 1
    return out[:n]


def test_onnx_matches_torch(tmp_path: Path, games: list[list[Sample]]) -> None:
    flat = [s for g in games for s in g]
    model = train_value(flat, TrainConfig(encoder="hash:32", epochs=1, d_model=32, device="cpu"))
    path = export_onnx(model, tmp_path / "value.onnx")
    onnx_model = OnnxValue(path)
    assert isinstance(onnx_model, ValueModel)
    for s in (flat[0], flat[len(flat) // 2], flat[-1]):
        cands = _candidates(s, 7)
        assert np.allclose(model.score(s.view, s.request, cands), onnx_model.score(s.view, s.request, cands), atol=1e-4)
    # a batch of several views with different event and candidate counts
    batch = prepare(flat[3].view, flat[3].request, _candidates(flat[3], 40), model.encoder, 128)
    assert np.allclose(model.logits(batch), onnx_model.logits(batch), atol=1e-4)


def test_onnx_needs_its_sidecar(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="export_onnx"):
        OnnxValue(tmp_path / "missing.onnx")


def test_minilm_scores_100_candidates_fast(games: list[list[Sample]]) -> None:
    encoder = make_encoder("minilm")
    assert encoder.dim == 384
    vecs = encoder.encode(["I am the seer.", "I am the seer.", "Player 3 is a werewolf."])
    assert vecs.shape == (3, 384) and np.allclose(vecs[0], vecs[1])
    assert float(vecs[0] @ vecs[2]) < 0.99
    model = TrainedValue(ValueNet(NetConfig(text_dim=384)), TrainConfig(encoder="minilm"), encoder)
    sample = next(s for g in games for s in g if s.view.day >= 1 and s.request.kind == "talk")
    cands = _candidates(sample, 100)
    model.score(sample.view, sample.request, cands[:2])  # warm up torch
    encoder.clear_memory()
    start = time.perf_counter()
    cold = model.score(sample.view, sample.request, cands)
    cold_s = time.perf_counter() - start
    start = time.perf_counter()
    warm = model.score(sample.view, sample.request, cands)
    warm_s = time.perf_counter() - start
    assert np.allclose(cold, warm, atol=1e-5)
    assert warm_s <= 0.3, f"100 candidates took {warm_s:.3f} s with a warm cache"
    assert cold_s <= 3.0, f"100 candidates took {cold_s:.3f} s with a cold cache"
