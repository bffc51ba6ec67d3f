"""What the AEC and parallel environments share: the table, the agents, the spaces and the record."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from lycan.engine.record import GameRecord
from lycan.env.layout import TalkMode
from lycan.env.table import EnvTable, SeatsArg, agent_name
from lycan.rules.ruleset import RuleSet

METADATA: dict[str, Any] = {"name": "lycan_v0", "render_modes": ["human", "ansi"], "render_fps": 1}


class TableEnv:
    """A PettingZoo environment over one `EnvTable`: its agents, observation and action spaces, record."""

    table: EnvTable
    render_mode: str | None
    possible_agents: list[str]
    observation_spaces: dict[str, spaces.Dict]
    action_spaces: dict[str, spaces.Discrete]

    def _open_table(
        self,
        preset: str | RuleSet,
        *,
        agents: SeatsArg,
        talk: TalkMode,
        render_mode: str | None,
        max_cycles: int | None,
        max_text_length: int,
    ) -> None:
        if render_mode is not None and render_mode not in METADATA["render_modes"]:
            raise ValueError(f"render_mode must be one of {METADATA['render_modes']} or None, not {render_mode!r}")
        self.table = EnvTable(preset, agents=agents, talk=talk, max_cycles=max_cycles, max_text_length=max_text_length)
        self.render_mode = render_mode
        self.layout = self.table.layout
        self.possible_agents = [agent_name(s) for s in self.table.env_seats]
        self.observation_spaces = {a: self.table.observer.space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self.agents: list[str] = []
        self._rng = np.random.default_rng()
        self._shown = 0

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of `agent` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of `agent` (the same object every call)."""
        return self.action_spaces[agent]

    @property
    def record(self) -> GameRecord | None:
        """The finished game's `GameRecord` (None while a game is being played)."""
        return self.table.record()
