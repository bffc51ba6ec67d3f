"""Agents: every player type, each seeing only its own seat's view.

`make_agent(kind, seed, **options)` builds one player by type name; `AGENT_KINDS` is the registry
(`lycan.agents.registry`: every type with its typed options).
The LLM types (`llm`, `react`, `recon`) also need `model=` (a `ChatModel`). `lineup(seats, seed)`
builds a whole table's players: the one place the command line, tournaments and the web table do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from lycan.agents.base import Agent, SyncAgent
from lycan.agents.heuristic import HeuristicAgent
from lycan.agents.heuristic_beliefs import BeliefHeuristicAgent
from lycan.agents.llm import AgentUsage, LLMAgent
from lycan.agents.parsing import ParseError
from lycan.agents.random_agent import RandomAgent
from lycan.agents.registry import AGENT_TYPES, AgentOptionsError, AgentType, agent_type, register
from lycan.engine.seeds import derive
from lycan.models.base import ChatModel

AGENT_KINDS = AGENT_TYPES
"""Every agent type by name (`lycan.agents.registry`)."""
LLM_KINDS = frozenset(name for name, t in AGENT_TYPES.items() if t.needs_model)
"""Agent types that need a chat model."""
MODEL_KINDS = frozenset(name for name, t in AGENT_TYPES.items() if t.needs_model or t.takes_model)
"""Agent types that take a chat model when one is given (`deepwolf` writes fresh utterances with it)."""


def make_agent(kind: str, seed: int, *, model: ChatModel | None = None, **kw: Any) -> Agent:
    """A new agent of type `kind` whose own randomness is seeded by `seed`, with the options `kw`.

    Types that need a chat model (`LLM_KINDS`) need `model`; other types ignore it, so one call
    site can build a mixed lineup. Options are checked against the type's (`AgentType.options`).

    Raises:
        ValueError: unknown agent type (the message lists the known ones), an LLM type without a
            model, or an option the type does not take or of the wrong type (`AgentOptionsError`,
            naming the key).
    """
    return agent_type(kind).make(seed, model, **kw)


def parse_lineup(spec: str, n_players: int) -> list[str]:
    """Expand an agent list such as `heuristic` or `llm,random` to one type per seat (cycling).

    Raises:
        ValueError: an empty list or an unknown type.
    """
    kinds = [k.strip().lower() for k in spec.split(",") if k.strip()]
    if not kinds:
        raise ValueError("give at least one agent type, e.g. --agents heuristic")
    for k in kinds:
        if k not in AGENT_KINDS:
            raise ValueError(f"unknown agent type {k!r}; choose one of {', '.join(AGENT_KINDS)}")
    return [kinds[i % len(kinds)] for i in range(n_players)]


@dataclass(frozen=True)
class SeatSpec:
    """Who plays one seat: an agent type, its model (LLM types) and its options."""

    kind: str
    model: ChatModel | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@overload
def lineup(seats: Sequence[str | SeatSpec], seed: int, **common: Any) -> list[Agent]: ...


@overload
def lineup(seats: Sequence[str | SeatSpec | None], seed: int, **common: Any) -> list[Agent | None]: ...


def lineup(seats: Sequence[str | SeatSpec | None], seed: int, **common: Any) -> list[Agent | None] | list[Agent]:
    """One fresh agent per seat for the game with this seed (None where a person or remote agent sits).

    Each agent is seeded with `derive(seed, "agent", seat)`: its own stream, from which neither the
    game's seed nor the deal can be worked out. `common` options (e.g. `model=`, `on_token=`) go to
    every LLM seat whose spec gives none of its own.

    Raises:
        ValueError: an unknown agent type, or an LLM type without a model.
    """
    out: list[Agent | None] = []
    for seat, spec in enumerate(seats):
        if spec is None:
            out.append(None)
            continue
        spec = SeatSpec(spec) if isinstance(spec, str) else spec
        options: dict[str, Any] = {}
        if spec.kind.strip().lower() in LLM_KINDS:
            options = {**common, **({"model": spec.model} if spec.model is not None else {}), **spec.options}
        else:
            options = dict(spec.options)
            if spec.model is not None:
                options["model"] = spec.model
        model = options.pop("model", None)
        out.append(make_agent(spec.kind, derive(seed, "agent", seat), model=model, **options))
    return out


__all__ = [
    "AGENT_KINDS",
    "AGENT_TYPES",
    "LLM_KINDS",
    "MODEL_KINDS",
    "Agent",
    "AgentOptionsError",
    "AgentType",
    "AgentUsage",
    "BeliefHeuristicAgent",
    "HeuristicAgent",
    "LLMAgent",
    "ParseError",
    "RandomAgent",
    "SeatSpec",
    "SyncAgent",
    "agent_type",
    "lineup",
    "make_agent",
    "parse_lineup",
    "register",
]
