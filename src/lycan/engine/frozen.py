"""Immutable records for the engine's hot paths.

`sealed_kw` (events) is immutable at run time too, at about two thirds of a frozen dataclass's
cost: its `__init__` sets each slot through the slot's own descriptor, and assigning or deleting
an attribute afterwards raises. `frozen` and `frozen_kw` (requests, actions, views) are frozen
for the type checker only.

The type checker treats these classes as frozen dataclasses, so no code may assign to a field.
At run time the fields are plain slots: a frozen dataclass sets each field through
`object.__setattr__`, which made creating an event, request or action 2-3 times slower, and a
simulation creates millions of them.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, kw_only_default=True)
def frozen_kw(cls: type[_T]) -> type[_T]:
    """A slotted, hashable, keyword-only record class (statically frozen)."""
    return dataclass(slots=True, kw_only=True, unsafe_hash=True)(cls)


@dataclass_transform(frozen_default=True)
def frozen(cls: type[_T]) -> type[_T]:
    """A slotted, hashable record class with positional fields (statically frozen)."""
    return dataclass(slots=True, unsafe_hash=True)(cls)


def _refuse(self: object, name: str, value: object = None) -> None:
    raise AttributeError(f"{type(self).__name__} is immutable: cannot change {name!r}")


@dataclass_transform(frozen_default=True, kw_only_default=True)
def sealed_kw(cls: type[_T]) -> type[_T]:
    """A slotted, hashable, keyword-only record class, immutable at run time (see the module docstring)."""
    cls = dataclass(slots=True, kw_only=True, unsafe_hash=True)(cls)
    spec = fields(cls)  # type: ignore[arg-type]
    params = ", ".join(f.name if f.default is MISSING else f"{f.name}=_default_{f.name}" for f in spec)
    body = "".join(f"    _set_{f.name}(self, {f.name})\n" for f in spec) or "    pass\n"
    scope: dict[str, Any] = {f"_set_{f.name}": getattr(cls, f.name).__set__ for f in spec}
    scope.update({f"_default_{f.name}": f.default for f in spec if f.default is not MISSING})
    exec(f"def __init__(self, *, {params}):\n{body}", scope)  # fixed source, built from the field names
    setters = {f.name: getattr(cls, f.name).__set__ for f in spec}

    def _getstate(self: object) -> dict[str, Any]:
        return {name: getattr(self, name) for name in setters}

    def _setstate(self: object, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setters[name](self, value)

    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    sealed: Any = cls
    sealed.__init__ = init
    sealed.__setattr__ = _refuse
    sealed.__delattr__ = _refuse
    sealed.__getstate__ = _getstate
    sealed.__setstate__ = _setstate
    return cls
