"""ONNX export of a trained value network (dynamic batch, event and candidate axes) for play.

The file it writes is read by `lycan.value.onnx.OnnxValue`, with no torch.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from lycan.engine.actions import Action, Request
from lycan.engine.view import View
from lycan.train.value import TrainedValue
from lycan.value.features import BATCH_INPUTS, candidate_features, collate, view_features
from lycan.value.onnx import sidecar

OPSET = 18


def export_onnx(trained: TrainedValue, path: str | Path) -> Path:
    """Write `trained` (a `TrainedValue`) to `path` as ONNX, with its sidecar `<path>.json`.

    Returns:
        The path of the ONNX file.
    """
    import torch

    if not isinstance(trained, TrainedValue):
        raise TypeError(f"export_onnx needs a TrainedValue, not {type(trained).__name__}")
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    net = trained.net.eval().to("cpu")
    # A dummy batch with 2 views, 3 events and 2 candidates, so every axis is traced as dynamic.
    dummy, _ = collate(
        [_dummy_view(view_features)] * 2, [[_dummy_candidate(candidate_features)] * 2] * 2, trained.encoder
    )
    args = tuple(torch.from_numpy(dummy[name]) for name in BATCH_INPUTS)
    batch = torch.export.Dim("batch", min=1)
    events = torch.export.Dim("events", min=1)
    cands = torch.export.Dim("candidates", min=1)
    shapes: dict[str, dict[int, Any]] = {
        "events": {0: batch, 1: events},
        "event_text": {0: batch, 1: events},
        "event_seats": {0: batch, 1: events},
        "event_pad": {0: batch, 1: events},
        "glob": {0: batch},
        "glob_seats": {0: batch},
        "cand": {0: batch, 1: cands},
        "cand_text": {0: batch, 1: cands},
        "cand_seats": {0: batch, 1: cands},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            net,
            args,
            str(out),
            input_names=list(BATCH_INPUTS),
            output_names=["logits"],
            dynamic_shapes=shapes,
            opset_version=OPSET,
            dynamo=True,
            external_data=False,
            verbose=False,
        )
    meta = {"encoder": trained.encoder.name, "max_events": trained.config.max_events, "text_dim": trained.encoder.dim}
    sidecar(out).write_text(json.dumps(meta, indent=2), encoding="utf-8")
    if trained.device.type != "cpu":
        trained.net.to(trained.device)
    return out


def _dummy_view(view_features: Any) -> Any:
    from lycan.engine.events import PhaseStarted, Talk
    from lycan.rules.presets import get_preset
    from lycan.rules.roles import Role

    rules = get_preset("aiwolf5")
    names = tuple(f"Player {i + 1}" for i in range(rules.n_players))
    events = (
        PhaseStarted(id=0, day=1, phase="day", alive=tuple(range(rules.n_players))),
        Talk(id=1, day=1, phase="day", actor=1, text="I suspect Player 3."),
        Talk(id=2, day=1, phase="day", actor=2, text="Over", over=True),
    )
    view = View(0, Role.VILLAGER, names, rules, 1, "day", (True,) * rules.n_players, events)
    return view_features(view, Request(0, 0, "vote", 1, targets=(1, 2, 3, 4)))


def _dummy_candidate(candidate_features: Any) -> Any:
    from lycan.rules.presets import get_preset
    from lycan.rules.roles import Role

    rules = get_preset("aiwolf5")
    names = tuple(f"Player {i + 1}" for i in range(rules.n_players))
    view = View(0, Role.VILLAGER, names, rules, 1, "day", (True,) * rules.n_players, ())
    return candidate_features(view, Action.speak("I will vote for Player 2."))
