"""The PettingZoo parallel environment: one `step` answers one batch of simultaneous requests.

PettingZoo's `aec_to_parallel` expects every live agent to act in every cycle, which Werewolf does
not do (a talk turn asks one seat, a night asks only the night roles), so this environment drives
the same `EnvTable` as the AEC one. `step(actions)` takes a dict with an action for every agent; only
the actions of the agents asked something in the current batch are used (their observations'
masks are not all zero, and `infos[agent]["request"]` is set), the others are ignored. Agents stay
until the game ends; then all get their end reward and are terminated (or truncated) together.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import ParallelEnv

from lycan.env.base import METADATA, TableEnv
from lycan.env.layout import TalkMode
from lycan.env.observe import DEFAULT_MAX_TEXT
from lycan.env.table import ActionArg, SeatsArg, agent_name, seat_of
from lycan.rules.ruleset import RuleSet

Obs = dict[str, Any]


class LycanParallelEnv(TableEnv, ParallelEnv):  # type: ignore[misc]
    """Werewolf as a PettingZoo parallel environment (see the module docstring, and `lycan.env.parallel_env`)."""

    metadata = METADATA

    def __init__(
        self,
        preset: str | RuleSet = "guardian7",
        *,
        agents: SeatsArg = None,
        talk: TalkMode = "templates",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        max_text_length: int = DEFAULT_MAX_TEXT,
    ) -> None:
        self._open_table(
            preset,
            agents=agents,
            talk=talk,
            render_mode=render_mode,
            max_cycles=max_cycles,
            max_text_length=max_text_length,
        )

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, Any]]:
        """Deal a new game (`seed`: as in `LycanAECEnv.reset`); returns every agent's observation and info."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._rng.integers(2**63 - 1))
        self.table.reset(game_seed)
        self.agents = list(self.possible_agents)
        self._shown = 0
        if self.render_mode == "human":
            self.render()
        return self._observations(), self._infos()

    def step(
        self, actions: dict[str, ActionArg]
    ) -> tuple[dict[str, Obs], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Answer the current batch with the actions of the agents asked in it.

        If the game ended before any agent was asked anything (possible when Lycan agents hold
        the other seats), the first step only reports the end.

        Raises:
            KeyError: an agent asked something has no action in `actions`.
            RuntimeError: no game dealt yet.
        """
        table = self.table
        if not table.started:
            raise RuntimeError("reset() the environment before step()")
        for req in list(table.queue):
            agent = agent_name(req.seat)
            if agent not in actions:
                raise KeyError(f"{agent} is asked to {req.kind} and has no action in this step")
            table.answer(actions[agent])
        acted = list(self.agents)
        obs = self._observations()
        infos = self._infos()
        done = table.finished
        rewards = {a: table.outcome(seat_of(a)) if done else 0.0 for a in acted}
        cut = done and table.truncated
        terminations = dict.fromkeys(acted, done and not cut)
        truncations = dict.fromkeys(acted, cut)
        if done:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Obs]:
        return {a: self.table.observe(seat_of(a)) for a in self.agents}

    def _infos(self) -> dict[str, Any]:
        return {a: {"seat": seat_of(a), "request": self.table.pending(seat_of(a))} for a in self.agents}

    def render(self) -> str | None:
        """As `LycanAECEnv.render`: the public record so far."""
        out, self._shown = self.table.render(self.render_mode, self._shown)
        return out

    def close(self) -> None:
        """Nothing to release."""
