"""Agents: every player type, each seeing only its own seat's view.

`make_agent(kind, seed)` builds one player by type name; `AGENT_KINDS` lists the names.
"""

from __future__ import annotations

from collections.abc import Callable

from lycan.agents.base import Agent, SyncAgent
from lycan.agents.heuristic import HeuristicAgent
from lycan.agents.random_agent import RandomAgent

AGENT_KINDS: dict[str, Callable[[int], Agent]] = {
    "random": lambda seed: RandomAgent(seed),
    "heuristic": lambda seed: HeuristicAgent(seed),
}


def make_agent(kind: str, seed: int) -> Agent:
    """A new agent of type `kind` whose own randomness is seeded by `seed`.

    Raises:
        ValueError: unknown agent type (the message lists the known ones).
    """
    factory = AGENT_KINDS.get(kind.strip().lower())
    if factory is None:
        raise ValueError(f"unknown agent type {kind!r}; choose one of {', '.join(AGENT_KINDS)}")
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


__all__ = ["AGENT_KINDS", "Agent", "HeuristicAgent", "RandomAgent", "SyncAgent", "make_agent", "parse_lineup"]
