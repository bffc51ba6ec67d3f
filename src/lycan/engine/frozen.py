"""Immutable records for the engine's hot paths.

`sealed_kw` (events) is immutable at run time too, at about two thirds of a frozen dataclass's
cost: its `__init__` sets each slot through the slot's own descriptor, and assigning or deleting
an attribute afterwards raises. `sealed_maker` builds such records about twice as fast again for
the engine's hot path. `frozen` and `frozen_kw` (requests, actions, views) are frozen for the
type checker only.

The type checker treats these classes as frozen dataclasses, so no code may assign to a field.
At run time the fields are plain slots: a frozen dataclass sets each field through
`object.__setattr__`, which made creating an event, request or action 2-3 times slower, and a
simulation creates millions of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, fields
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


def sealed_maker(cls: type[_T], positional: int) -> Callable[..., _T]:
    """A constructor of the `sealed_kw` class `cls` for hot paths, about twice as fast as `cls(...)`.

    Its first `positional` fields are passed by position, the others by keyword as to `cls(...)`
    (the same names, defaults and errors). It fills an open twin of `cls` (a subclass with the
    same slots that allows assignment, so each field is one plain store) and then seals it by
    setting its class to `cls` (allowed: the layouts are the same); the record is never seen
    before it is sealed, so it is as immutable as one made by `cls(...)`. A class that is not
    `sealed_kw` itself gets a maker that calls `cls(...)`.
    """
    spec = fields(cls)  # type: ignore[arg-type]
    if vars(cls).get("__setattr__") is not _refuse:  # not made by `sealed_kw`
        leading = [f.name for f in spec[:positional]]

        def make_plainly(*args: Any, **rest: Any) -> _T:
            return cls(**dict(zip(leading, args, strict=True)), **rest)

        return make_plainly
    twin = type(
        cls.__name__,
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": cls.__module__,
            "__qualname__": f"{cls.__qualname__}.<open twin>",
        },
    )

    def param(f: Field[Any]) -> str:
        return f.name if f.default is MISSING else f"{f.name}=_default_{f.name}"

    parts = [param(f) for f in spec[:positional]]
    if parts:
        parts.append("/")
    if len(spec) > positional:
        parts += ["*", *(param(f) for f in spec[positional:])]
    params = ", ".join(parts)
    body = "".join(f"    self.{f.name} = {f.name}\n" for f in spec)
    scope: dict[str, Any] = {"_twin": twin, "_cls": cls, "_new": object.__new__}
    scope.update({f"_default_{f.name}": f.default for f in spec if f.default is not MISSING})
    source = f"def make({params}):\n    self = _new(_twin)\n{body}    self.__class__ = _cls\n    return self\n"
    exec(source, scope)  # fixed source, built from the field names
    return scope["make"]  # type: ignore[no-any-return]
