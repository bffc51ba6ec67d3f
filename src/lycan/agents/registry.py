"""One registry for every agent type: its name, how it is built, and its typed options.

Each type's options are a pydantic model made from the signature of the class that plays it (and,
for types that pass options on, of the class they pass them to), so the options cannot drift
from the constructors: a value of the wrong type, or a key the type does not take, is refused
with the key named, wherever options come from (the command line, a tournament file, the web
lobby, code). Only the options given reach the constructor; its own defaults apply to the rest.

The classes behind the heavier types (the value network, the belief engine) are imported when
such an agent is first built or its options are first read, not when this module is.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from lycan.agents.base import Agent
from lycan.models.base import ChatModel

_NOT_OPTIONS = {"self", "seed", "model", "style", "kw", "return"}


class AgentOptionsError(ValueError):
    """Options an agent type does not take, or values of the wrong type; the message names the key."""


def _options_of(*classes: type, name: str) -> type[BaseModel]:
    """A pydantic model of the keyword options of `classes`' constructors (the first class's win on a clash)."""
    fields: dict[str, Any] = {}
    for cls in reversed(classes):
        init = cls.__init__  # type: ignore[misc]
        hints = typing.get_type_hints(init, include_extras=True)
        for param in inspect.signature(init).parameters.values():
            if param.name in _NOT_OPTIONS or param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL):
                continue
            default = ... if param.default is param.empty else param.default
            fields[param.name] = (hints.get(param.name, Any), default)
    config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, frozen=True)
    return create_model(f"{name.title().replace('-', '')}Options", __config__=config, **fields)


@dataclass
class AgentType:
    """An agent type: how to build one, which classes define its options, and whether it needs a chat model.

    Attributes:
        name: the type's name (`heuristic`, `llm`, ...).
        build: `(seed, model, options) -> Agent`, options being only those given.
        classes: `() -> classes` whose constructors' keyword parameters are the type's options.
        needs_model: the type cannot play without a chat model.
        takes_model: the type uses a chat model when one is given.
    """

    name: str
    build: Callable[[int, ChatModel | None, dict[str, Any]], Agent]
    classes: Callable[[], tuple[type, ...]]
    needs_model: bool = False
    takes_model: bool = False
    _options: type[BaseModel] | None = field(default=None, repr=False)

    @property
    def options(self) -> type[BaseModel]:
        """The pydantic model of the type's options (made once, on first use)."""
        if self._options is None:
            self._options = _options_of(*self.classes(), name=self.name)
        return self._options

    def check(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """`options` checked against the type's and typed (`"0.5"` becomes 0.5 for a float), or an error naming the key.

        Raises:
            AgentOptionsError: an unknown key, or a value of the wrong type.
        """
        try:
            valid = self.options.model_validate(dict(options))
        except ValidationError as err:
            first = err.errors()[0]
            key = ".".join(str(p) for p in first.get("loc", ())) or "?"
            if first.get("type") == "extra_forbidden":
                known = ", ".join(sorted(self.options.model_fields)) or "none"
                raise AgentOptionsError(
                    f"agent type {self.name!r} has no option {key!r}; its options: {known}"
                ) from None
            raise AgentOptionsError(f"option {key!r} of agent type {self.name!r}: {first.get('msg')}") from None
        return {name: getattr(valid, name) for name in valid.model_fields_set}

    def make(self, seed: int, model: ChatModel | None = None, **options: Any) -> Agent:
        """A new agent of this type seeded by `seed`.

        Raises:
            AgentOptionsError: bad options (see `check`).
            ValueError: the type needs a chat model and none was given.
        """
        checked = self.check(options)
        if self.needs_model and model is None:
            raise ValueError(
                f"agent type {self.name!r} needs a chat model: pass model=... (e.g. from lycan.models.load_model)"
            )
        return self.build(seed, model if self.takes_model or self.needs_model else None, checked)


def _random() -> tuple[type, ...]:
    from lycan.agents.random_agent import RandomAgent

    return (RandomAgent,)


def _heuristic() -> tuple[type, ...]:
    from lycan.agents.heuristic import HeuristicAgent

    return (HeuristicAgent,)


def _belief_heuristic() -> tuple[type, ...]:
    from lycan.agents.heuristic_beliefs import BeliefHeuristicAgent

    return (BeliefHeuristicAgent,)


def _llm() -> tuple[type, ...]:
    from lycan.agents.llm import LLMAgent

    return (LLMAgent,)


def _camwolf() -> tuple[type, ...]:
    from lycan.agents.camwolf import CamWolfAgent
    from lycan.agents.llm import LLMAgent

    return (CamWolfAgent, LLMAgent)


def _deepwolf() -> tuple[type, ...]:
    from lycan.agents.deepwolf import DeepWolfAgent, DeepWolfChatAgent

    return (DeepWolfChatAgent, DeepWolfAgent)


def _build_plain(classes: Callable[[], tuple[type, ...]]) -> Callable[[int, ChatModel | None, dict[str, Any]], Agent]:
    def build(seed: int, model: ChatModel | None, options: dict[str, Any]) -> Agent:
        return classes()[0](seed, **options)  # type: ignore[no-any-return]

    return build


def _build_llm(style: str) -> Callable[[int, ChatModel | None, dict[str, Any]], Agent]:
    def build(seed: int, model: ChatModel | None, options: dict[str, Any]) -> Agent:
        from lycan.agents.llm import LLMAgent

        assert model is not None
        return LLMAgent(model, seed, style=style, **options)

    return build


def _build_camwolf(seed: int, model: ChatModel | None, options: dict[str, Any]) -> Agent:
    from lycan.agents.camwolf import CamWolfAgent

    assert model is not None
    return CamWolfAgent(model, seed, **options)


def _build_deepwolf(seed: int, model: ChatModel | None, options: dict[str, Any]) -> Agent:
    from lycan.agents.deepwolf import DeepWolfAgent, DeepWolfChatAgent

    if model is not None:
        return DeepWolfChatAgent(model, seed, **options)
    chat_only = {"fresh", "timeout"} & set(options)
    if chat_only:
        raise AgentOptionsError(f"option {sorted(chat_only)[0]!r} of agent type 'deepwolf' needs a chat model")
    return DeepWolfAgent(seed, **options)


AGENT_TYPES: dict[str, AgentType] = {
    "random": AgentType("random", _build_plain(_random), _random),
    "heuristic": AgentType("heuristic", _build_plain(_heuristic), _heuristic),
    "heuristic-beliefs": AgentType("heuristic-beliefs", _build_plain(_belief_heuristic), _belief_heuristic),
    "deepwolf": AgentType("deepwolf", _build_deepwolf, _deepwolf, takes_model=True),
    "llm": AgentType("llm", _build_llm("llm"), _llm, needs_model=True),
    "react": AgentType("react", _build_llm("react"), _llm, needs_model=True),
    "recon": AgentType("recon", _build_llm("recon"), _llm, needs_model=True),
    "camwolf": AgentType("camwolf", _build_camwolf, _camwolf, needs_model=True),
}
"""Every agent type by name."""


def register(name: str, cls: type, *, needs_model: bool = False) -> AgentType:
    """Add an agent class of your own as agent type `name`; returns its type.

    It is built as `cls(seed, **options)`, or with `needs_model` as `cls(model, seed, **options)`;
    its options are its constructor's keyword parameters.

    Raises:
        ValueError: `name` is already a type.
    """
    key = name.strip().lower()
    if key in AGENT_TYPES:
        raise ValueError(f"agent type {key!r} already exists")

    def build(seed: int, model: ChatModel | None, options: dict[str, Any]) -> Agent:
        made: Agent = cls(model, seed, **options) if needs_model else cls(seed, **options)
        return made

    AGENT_TYPES[key] = AgentType(key, build, lambda: (cls,), needs_model=needs_model)
    return AGENT_TYPES[key]


def agent_type(kind: str) -> AgentType:
    """The agent type named `kind` (case and spaces ignored).

    Raises:
        ValueError: an unknown name; the message lists the known ones.
    """
    found = AGENT_TYPES.get(kind.strip().lower())
    if found is None:
        raise ValueError(f"unknown agent type {kind!r}; choose one of {', '.join(AGENT_TYPES)}")
    return found


__all__ = ["AGENT_TYPES", "AgentOptionsError", "AgentType", "agent_type", "register"]
