"""The Agent protocol every player implements, and a base class for agents that answer at once."""

from __future__ import annotations

import abc

from lycan.engine.actions import Action, Request
from lycan.engine.runner import Player, SyncPlayer
from lycan.engine.view import View

Agent = Player
"""An agent answers each request from its seat's view alone: `async act(view, request)`."""


class SyncAgent(abc.ABC):
    """An agent that decides without waiting; the engine's fast path calls `decide` directly."""

    label: str = "agent"

    @abc.abstractmethod
    def decide(self, view: View, request: Request) -> Action:
        """Answer `request` from `view`."""

    async def act(self, view: View, request: Request) -> Action:
        """Async form of `decide`."""
        return self.decide(view, request)


__all__ = ["Agent", "SyncAgent", "SyncPlayer"]
