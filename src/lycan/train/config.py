"""Training configurations in one idiom: frozen pydantic models read from TOML, every key checked.

`TomlConfig.load(path)` reads a file; a key the config does not have, or a value of the wrong
type or out of range, is one sentence naming it (a `ValueError`), never a traceback.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, ValidationError


class TomlConfig(BaseModel):
    """A training configuration: a frozen model whose fields are the TOML file's keys."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    not_keys: ClassVar[frozenset[str]] = frozenset()
    """Fields a file may not set (filled in when it is read)."""

    @classmethod
    def load(cls, path: Path, **overrides: Any) -> Self:
        """Read the TOML file `path`; `overrides` replace keys after reading.

        Raises:
            ValueError: not TOML, a key this config does not have, or a bad value.
        """
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise ValueError(f"cannot read training config {path}: {err}") from err
        return cls.from_dict({**data, **overrides}, str(path), **cls.read_from(path))

    @classmethod
    def read_from(cls, path: Path) -> dict[str, Any]:
        """Fields set from where the file is (none by default)."""
        return {}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "the config", **filled: Any) -> Self:
        """Build from a mapping of keys (and the `filled` fields that are not keys).

        Raises:
            ValueError: a key this config does not have, or a bad value; the message names it.
        """
        known = set(cls.model_fields) - cls.not_keys
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown key(s) {', '.join(unknown)} in {where}; known: {', '.join(sorted(known))}")
        try:
            return cls.model_validate({**data, **filled})
        except ValidationError as err:
            first = err.errors()[0]
            key = ".".join(str(p) for p in first.get("loc", ()))
            raise ValueError(f"bad value in {where}: {key + ': ' if key else ''}{first.get('msg')}") from None


__all__ = ["TomlConfig"]
