"""The value network and talk candidates that ship with Lycan, for play (no training imports).

`lycan/value/default/` is written by `lycan.train.pipeline` (`scripts/train_deepwolf`).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from lycan.data.candidates import Candidates
from lycan.value.base import CALIBRATION_FILE, Calibration, ValueModel
from lycan.value.onnx import OnnxValue

DEFAULT = "default"
"""The package folder holding the shipped network and candidates."""


def none_text(value: Any) -> Any:
    """None for an option given as the text "none" (or empty), else the value itself."""
    return None if isinstance(value, str) and value.strip().lower() in ("", "none") else value


Maybe = BeforeValidator(none_text)
"""Reads the text "none" (or empty) as None: options arrive as text from the command line."""
PerRoleInt = Annotated[int | dict[str, int] | None, Maybe]
"""One number for every role, or one per role (`{"seer": 0, "*": 16}`), or None."""
PerRoleFloat = Annotated[float | dict[str, float] | None, Maybe]
"""Like `PerRoleInt`, with fractions."""


class PlaySettings(BaseModel):
    """How the `deepwolf` agent plays a network, stored beside it in `play.json` (None: not set there).

    The keys are the agent's options of the same names (`lycan.agents.deepwolf.DeepWolfAgent`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    margin: Annotated[float | None, Maybe] = None
    talk_margin: PerRoleFloat = None
    rollouts: PerRoleInt = None
    search_talk: PerRoleInt = None
    search_fit: PerRoleFloat = None
    search_hold: PerRoleInt = None
    search_seconds: PerRoleFloat = None


PLAY_KEYS = frozenset(PlaySettings.model_fields)
"""The keys of a config's `[play]` table (the `deepwolf` agent's options stored with the network)."""


@functools.lru_cache(maxsize=16)
def play_settings(folder: Path | None) -> PlaySettings:
    """The settings stored with the network in `folder` (`play.json`), or none set (read once per folder).

    Raises:
        ValueError: `play.json` is not a JSON object of `PLAY_KEYS`, with the file and key named.
    """
    path = folder / "play.json" if folder is not None else None
    if path is None or not path.is_file():
        return PlaySettings()
    try:
        return PlaySettings.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValidationError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: not the deepwolf agent's play settings ({err})") from None


def default_dir() -> Path:
    """The folder of the network that ships with Lycan."""
    return Path(str(resources.files("lycan.value") / DEFAULT))


def default_value() -> ValueModel:
    """The value network that ships with Lycan (ONNX, run with onnxruntime).

    Raises:
        FileNotFoundError: the package was installed without it (retrain with scripts/train_deepwolf).
    """
    return OnnxValue(default_dir() / "value.onnx")


def default_calibration() -> Calibration | None:
    """The calibration stored with the shipped network for players it never saw, or None if it has none.

    Raises:
        ValueError: the stored file is not a calibration.
    """
    path = default_dir() / CALIBRATION_FILE
    return Calibration.load(path) if path.is_file() else None


def default_candidates() -> Candidates:
    """The talk candidates mined with the shipped network."""
    return Candidates.load(default_dir() / "candidates.json")
