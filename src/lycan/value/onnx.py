"""A `ValueModel` that runs an exported value network on onnxruntime, for play.

`lycan.train.onnx_export.export_onnx(trained, "value.onnx")` writes the network and a sidecar
`value.onnx.json` naming the sentence encoder and the event window, so that
`OnnxValue("value.onnx")` needs nothing else (and no torch) to score candidates.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lycan.engine.actions import Action, Request
from lycan.engine.view import View
from lycan.value.base import prepare
from lycan.value.encoders import TextEncoder, make_encoder
from lycan.value.features import Batch


def sidecar(path: Path) -> Path:
    """The file beside the ONNX file `path` that names its encoder and event window."""
    return path.with_name(path.name + ".json")


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
        side = sidecar(file)
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
