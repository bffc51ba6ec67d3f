"""Immutable records for the engine's hot paths.

The type checker treats these classes as frozen dataclasses, so no code may assign to a field.
At run time the fields are plain slots: a frozen dataclass sets each field through
`object.__setattr__`, which made creating an event, request or action 2-3 times slower, and a
simulation creates millions of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, kw_only_default=True)
def frozen_kw(cls: type[_T]) -> type[_T]:
    """A slotted, hashable, keyword-only record class (statically frozen)."""
    return dataclass(slots=True, kw_only=True, unsafe_hash=True)(cls)


@dataclass_transform(frozen_default=True)
def frozen(cls: type[_T]) -> type[_T]:
    """A slotted, hashable record class with positional fields (statically frozen)."""
    return dataclass(slots=True, unsafe_hash=True)(cls)
