"""The random agent: a uniformly random legal action, and short canned talk."""

from __future__ import annotations

import random

from lycan.agents.base import SyncAgent
from lycan.engine.actions import OVER, PASS, TALK_KINDS, Action, ProbeInfo, Request
from lycan.engine.view import View
from lycan.rules.roles import Role


class RandomAgent(SyncAgent):
    """Picks uniformly among legal actions; talks a little, then says Over."""

    label = "random"

    def __init__(self, seed: int | None = None, talk_probability: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.talk_probability = talk_probability

    def decide(self, view: View, request: Request) -> Action:
        """A random legal answer."""
        kind = request.kind
        if kind in TALK_KINDS:
            if self.rng.random() < self.talk_probability:
                other = self.rng.choice(view.living_others() or [view.seat])
                return Action.speak(f"I am watching {view.names[other]}.")
            return OVER
        if kind == "probe":
            return self.probe(request)
        if kind == "bid":
            return Action("bid", amount=self.rng.randint(0, 3))
        targets = request.targets
        n = len(targets) + 1 if request.can_pass else len(targets)
        pick = self.rng.randrange(n) if n else 0
        if pick < len(targets):
            return Action("choose", target=targets[pick])
        return PASS

    def probe(self, request: Request) -> Action:
        """Guess a uniformly random role (of those in the game) for every asked seat."""
        roles = list(request.info.roles if isinstance(request.info, ProbeInfo) else ()) or [r.value for r in Role]
        p = 1.0 / len(roles)
        return Action.probe((seat, self.rng.choice(roles), p) for seat in request.targets)
