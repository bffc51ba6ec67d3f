"""The value network and talk candidates that ship with Lycan, for play (no training imports).

`lycan/value/default/` is written by `lycan.train.pipeline` (`scripts/train_deepwolf`).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from lycan.data.candidates import Candidates
from lycan.value.base import ValueModel
from lycan.value.onnx import OnnxValue

DEFAULT = "default"
"""The package folder holding the shipped network and candidates."""
PLAY_KEYS = frozenset(
    {"margin", "talk_margin", "rollouts", "search_talk", "search_fit", "search_hold", "search_seconds"}
)
"""The keys of a config's `[play]` table (the `deepwolf` agent's options stored with the network)."""


def default_dir() -> Path:
    """The folder of the network that ships with Lycan."""
    return Path(str(resources.files("lycan.value") / DEFAULT))


def default_value() -> ValueModel:
    """The value network that ships with Lycan (ONNX, run with onnxruntime).

    Raises:
        FileNotFoundError: the package was installed without it (retrain with scripts/train_deepwolf).
    """
    return OnnxValue(default_dir() / "value.onnx")


def default_candidates() -> Candidates:
    """The talk candidates mined with the shipped network."""
    return Candidates.load(default_dir() / "candidates.json")
