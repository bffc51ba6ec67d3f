"""ONNX export of a trained value network, and a `ValueModel` that runs it on onnxruntime.

`export_onnx(trained, "value.onnx")` writes the network (dynamic batch, event and candidate
axes) and a sidecar `value.onnx.json` naming the sentence encoder and the event window, so that
`OnnxValue("value.onnx")` needs nothing else (and no torch) to score candidates.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lycan.engine.actions import Action, Request
from lycan.engine.view import View
from lycan.value.base import prepare
from lycan.value.encoders import TextEncoder, make_encoder
from lycan.value.features import BATCH_INPUTS, Batch

OPSET = 18


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def export_onnx(trained: Any, path: str | Path) -> Path:
    """Write `trained` (a `TrainedValue`) to `path` as ONNX, with its sidecar `<path>.json`.

    Returns:
        The path of the ONNX file.
    """
    import torch

    from lycan.value.features import candidate_features, collate, view_features
    from lycan.value.train import TrainedValue

    if not isinstance(trained, TrainedValue):
        raise TypeError(f"export_onnx needs a TrainedValue, not {type(trained).__name__}")
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    net = trained.net.eval().to("cpu")
    # A dummy batch with 2 views, 3 events and 2 candidates, so every axis is traced as dynamic.
    dummy, _ = collate(
        [_dummy_view(view_features)] * 2, [[_dummy_candidate(candidate_features)] * 2] * 2, trained.encoder
    )
    del collate  # only needed for the dummy batch
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
    _sidecar(out).write_text(json.dumps(meta, indent=2), encoding="utf-8")
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


class OnnxValue:
    """A value network exported by `export_onnx`, run with onnxruntime: a `ValueModel`.

    Args:
        path: the ONNX file (its sidecar `<path>.json` must be next to it).
        encoder: a sentence encoder to use instead of the one the sidecar names.
        threads: onnxruntime intra-op threads (0: its default; one suits this small network).

    Raises:
        FileNotFoundError: the file or its sidecar is missing.
    """

    def __init__(self, path: str | Path, *, encoder: TextEncoder | None = None, threads: int = 1) -> None:
        try:
            import onnxruntime as ort
        except ImportError as err:  # pragma: no cover - depends on the install
            raise RuntimeError("OnnxValue needs onnxruntime; install it with: pip install 'lycan[train]'") from err
        file = Path(path)
        side = _sidecar(file)
        if not file.is_file() or not side.is_file():
            raise FileNotFoundError(f"{file} or its sidecar {side.name} is missing; write both with export_onnx")
        meta = json.loads(side.read_text(encoding="utf-8"))
        self.encoder = encoder or make_encoder(meta["encoder"])
        if self.encoder.dim != int(meta["text_dim"]):
            raise ValueError(
                f"encoder {self.encoder.name} gives {self.encoder.dim}-d vectors, the model reads {meta['text_dim']}-d"
            )
        self.max_events = int(meta["max_events"])
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        self._session: Any = ort.InferenceSession(str(file), options, providers=["CPUExecutionProvider"])
        self._inputs = [i.name for i in self._session.get_inputs()]

    def logits(self, batch: Batch) -> np.ndarray:
        """Raw logits (B, K) for a batch of network inputs."""
        out = self._session.run(["logits"], {name: batch[name] for name in self._inputs})
        result: np.ndarray = np.asarray(out[0], dtype=np.float32)
        return result

    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        """P(win) for each candidate."""
        if not candidates:
            return []
        logits = self.logits(prepare(view, request, candidates, self.encoder, self.max_events))[0]
        return [float(p) for p in 1.0 / (1.0 + np.exp(-logits))]
