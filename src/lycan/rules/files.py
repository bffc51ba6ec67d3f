"""Reading the data files users write (rules, tournaments, pools, price tables): TOML, JSON or YAML."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

import yaml

from lycan.rules.ruleset import ConfigError

FORMATS = {".toml": "TOML", ".json": "JSON"}
"""Formats by file suffix; any other suffix is read as YAML."""


def read_data(path: str | os.PathLike[str], what: str) -> Any:
    """The data in the `what` file at `path` (TOML, JSON or YAML by its suffix; None for an empty YAML file).

    Raises:
        ConfigError: the file cannot be read, is not UTF-8, or is not valid in its format (one
            sentence naming the file and the parser's first line).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"cannot read {what} {p}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"cannot read {what} {p}: it is not UTF-8 text") from None
    kind = FORMATS.get(p.suffix.lower(), "YAML")
    try:
        if kind == "TOML":
            return tomllib.loads(text)
        if kind == "JSON":
            return json.loads(text)
        return yaml.safe_load(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, yaml.YAMLError) as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ConfigError(f"{p} is not valid {kind}: {first}") from None


__all__ = ["FORMATS", "read_data"]
