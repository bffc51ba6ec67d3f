"""Agents: every player type, each seeing only its own seat's view.

`make_agent(kind, seed)` builds one player by type name; `AGENT_KINDS` lists the names.
The LLM types (`llm`, `react`, `recon`) also need `model=` (a `ChatModel`). `lineup(seats, seed)`
builds a whole table's players: the one place the command line, tournaments and the web table do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from lycan.agents.base import Agent, SyncAgent
from lycan.agents.heuristic import BeliefHeuristicAgent, HeuristicAgent
from lycan.agents.llm import AgentUsage, LLMAgent, llm_agent_factory
from lycan.agents.parsing import ParseError
from lycan.agents.random_agent import RandomAgent
from lycan.engine.seeds import derive
from lycan.models.base import ChatModel


def _camwolf(seed: int, **kw: Any) -> Agent:
    from lycan.agents.camwolf import camwolf_factory  # numpy and the belief engine: loaded only when played

    return camwolf_factory(seed, **kw)


def _deepwolf(seed: int, *, model: ChatModel | None = None, **kw: Any) -> Agent:
    from lycan.agents.deepwolf import DeepWolfAgent, DeepWolfChatAgent  # numpy and the network: loaded when played

    if model is not None:
        return DeepWolfChatAgent(model, seed, **kw)
    return DeepWolfAgent(seed, **kw)


AGENT_KINDS: dict[str, Callable[[int], Agent]] = {
    "random": lambda seed: RandomAgent(seed),
    "heuristic": lambda seed: HeuristicAgent(seed),
    "heuristic-beliefs": lambda seed: BeliefHeuristicAgent(seed),
    "deepwolf": lambda seed: _deepwolf(seed),
    "llm": llm_agent_factory("llm"),
    "react": llm_agent_factory("react"),
    "recon": llm_agent_factory("recon"),
    "camwolf": _camwolf,
}
LLM_KINDS = frozenset({"llm", "react", "recon", "camwolf"})
"""Agent types that need a chat model."""
MODEL_KINDS = LLM_KINDS | {"deepwolf"}
"""Agent types that take a chat model when one is given (`deepwolf` writes fresh utterances with it)."""


def make_agent(kind: str, seed: int, *, model: ChatModel | None = None, **kw: Any) -> Agent:
    """A new agent of type `kind` whose own randomness is seeded by `seed`.

    LLM types (`LLM_KINDS`) need `model` and pass `kw` on to `LLMAgent`; other types ignore
    `model`, so one call site can build a mixed lineup.

    Raises:
        ValueError: unknown agent type (the message lists the known ones), or an LLM type without a model.
    """
    key = kind.strip().lower()
    factory = AGENT_KINDS.get(key)
    if factory is None:
        raise ValueError(f"unknown agent type {kind!r}; choose one of {', '.join(AGENT_KINDS)}")
    if key == "camwolf":
        return _camwolf(seed, model=model, **kw)
    if key == "deepwolf":
        return _deepwolf(seed, model=model, **kw)
    if key in LLM_KINDS:
        return llm_agent_factory(key)(seed, model=model, **kw)
    if kw:
        raise ValueError(f"agent type {key!r} takes no options, got {', '.join(sorted(kw))}")
    return factory(seed)


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
    "LLM_KINDS",
    "MODEL_KINDS",
    "Agent",
    "AgentUsage",
    "BeliefHeuristicAgent",
    "HeuristicAgent",
    "LLMAgent",
    "ParseError",
    "RandomAgent",
    "SeatSpec",
    "SyncAgent",
    "lineup",
    "make_agent",
    "parse_lineup",
]
