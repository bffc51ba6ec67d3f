"""Decision samples from self-play: every seat's (view, request, answer) and whether it won.

For tests, benchmarks and quick experiments; datasets of stored games come from `lycan.data`.
"""

from __future__ import annotations

from dataclasses import replace

from lycan.agents import make_agent
from lycan.engine.actions import Action, Request
from lycan.engine.runner import SyncPlayer, run_sync
from lycan.engine.view import View
from lycan.rules.roles import team_of
from lycan.rules.ruleset import RuleSet
from lycan.value.base import Sample


class _Recorder:
    """Wraps a synchronous agent and keeps a snapshot of each view it answers from."""

    def __init__(self, inner: SyncPlayer, out: list[tuple[View, Request, Action]]) -> None:
        self.inner = inner
        self.out = out

    def decide(self, view: View, request: Request) -> Action:
        action = self.inner.decide(view, request)
        self.out.append((replace(view, events=tuple(view.events)), request, action))
        return action

    async def act(self, view: View, request: Request) -> Action:
        return self.decide(view, request)


def play_samples(rules: RuleSet, games: int, *, seed: int = 0, agent: str = "heuristic") -> list[list[Sample]]:
    """Play `games` games of `agent` against itself and return each game's decision samples."""
    out: list[list[Sample]] = []
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        decisions: list[tuple[View, Request, Action]] = []
        agents = [make_agent(agent, game_seed * 31 + i) for i in range(rules.n_players)]
        players = [_Recorder(a, decisions) for a in agents if isinstance(a, SyncPlayer)]
        if len(players) != len(agents):
            raise ValueError(f"agent type {agent!r} does not answer synchronously; use a rule-based agent")
        record = run_sync(rules, players, game_seed)
        out.append(
            [Sample(v, r, a, team_of(v.role).value == record.winner) for v, r, a in decisions if r.kind != "probe"]
        )
    return out
