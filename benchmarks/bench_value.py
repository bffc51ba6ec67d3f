"""Benchmark the value network: decision latency per candidate count, training speed, held-out quality.

    python benchmarks/bench_value.py [--games 250] [--held-out 50] [--epochs 3] [--encoder minilm]

Latency: one aiwolf5 day view scored against 10/30/100/300 candidates (median of `--repeats`),
with the sentence cache warm (the usual case: an agent's candidate pool repeats) and cold (every
candidate utterance new), for the PyTorch and the ONNX backends. Training: samples per second
(featurizing, encoding and optimizing). Quality: log-loss and Brier on held-out games (split by
game) against the baseline that knows only role, day and living seats.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import torch

from lycan.engine.actions import OVER, Action
from lycan.rules import get_preset
from lycan.train.onnx_export import export_onnx
from lycan.train.selfplay import play_samples
from lycan.train.value import TrainConfig, train_value
from lycan.value import Sample, ValueModel
from lycan.value.encoders import CachedEncoder
from lycan.value.onnx import OnnxValue


def candidates(sample: Sample, n: int, tag: str) -> list[Action]:
    names = sample.view.names
    out: list[Action] = [Action.choose(t) for t in sample.request.targets] + [OVER]
    i = 0
    while len(out) < n:
        out.append(Action.speak(f"{tag} {i}: I think {names[i % len(names)]} is lying about day {i % 3}."))
        i += 1
    return out[:n]


def latency(model: ValueModel, encoder: CachedEncoder, sample: Sample, n: int, repeats: int) -> tuple[float, float]:
    warm: list[float] = []
    cold: list[float] = []
    for r in range(repeats):
        cands = candidates(sample, n, f"r{r}")
        encoder.clear_memory()
        start = time.perf_counter()
        model.score(sample.view, sample.request, cands)
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        model.score(sample.view, sample.request, cands)
        warm.append(time.perf_counter() - start)
    return statistics.median(warm), statistics.median(cold)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=250)
    parser.add_argument("--held-out", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--encoder", default="minilm")
    parser.add_argument("--d-model", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--device", default="auto")
    args = parser.parse_args()

    rules = get_preset("aiwolf5")
    start = time.perf_counter()
    games = play_samples(rules, args.games + args.held_out, seed=11)
    train = [s for g in games[: args.games] for s in g]
    test = [s for g in games[args.games :] for s in g]
    print(
        f"played {len(games)} games in {time.perf_counter() - start:.1f} s: "
        f"{len(train)} train, {len(test)} held-out samples"
    )
    config = TrainConfig(encoder=args.encoder, epochs=args.epochs, d_model=args.d_model, device=args.device)
    model = train_value(train, config, held_out=test)
    rep = model.report
    assert rep.held_out is not None and rep.baseline is not None
    print(f"torch threads {torch.get_num_threads()}, device {model.device}")
    print(
        f"training: {rep.samples_per_s:.0f} samples/s "
        f"({rep.n_train} samples x {args.epochs} epochs in {rep.seconds:.1f} s)"
    )
    print(f"held-out ({rep.held_out.n} samples, {args.held_out} games):")
    print(f"  value net  log-loss {rep.held_out.log_loss:.4f}  Brier {rep.held_out.brier:.4f}")
    print(
        f"  baseline   log-loss {rep.baseline.log_loss:.4f}  Brier {rep.baseline.brier:.4f}  (role, day, living seats)"
    )

    model.net.to("cpu")
    encoder = model.encoder
    assert isinstance(encoder, CachedEncoder)
    sample = next(s for g in games for s in g if s.view.day >= 1 and s.request.kind == "talk")
    with tempfile.TemporaryDirectory() as tmp:
        onnx_model = OnnxValue(export_onnx(model, Path(tmp) / "value.onnx"), encoder=encoder)
        model.score(sample.view, sample.request, candidates(sample, 10, "warmup"))
        onnx_model.score(sample.view, sample.request, candidates(sample, 10, "warmup"))
        print(f"decision latency, one aiwolf5 day view ({len(sample.view.events)} events), encoder {encoder.name}:")
        print("  backend  candidates  warm ms  per cand us  cold ms")
        for name, backend in (("torch", model), ("onnx", onnx_model)):
            for n in (10, 30, 100, 300):
                warm, cold = latency(backend, encoder, sample, n, args.repeats)
                print(f"  {name:7s}  {n:10d}  {warm * 1e3:7.1f}  {warm / n * 1e6:11.0f}  {cold * 1e3:7.1f}")


if __name__ == "__main__":
    main()
