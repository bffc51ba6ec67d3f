"""The single-agent Gymnasium environment: one seat against Lycan agents.

The policy plays one seat; every other seat holds a Lycan agent (heuristic by default), answered
through the session's `LocalSeat`s. `step(action)` answers the seat's current request, then the
game runs (the agents answer at once) until the seat is asked again or the game ends. The reward
is 0 until the end, then +1 if the seat's side won, -1 if it lost, 0 for a draw; `terminated` is
set at the end (`truncated` instead when `max_cycles` cut the game short).

A seat killed before it is ever asked anything (a villager attacked on the first night) never
acts: `reset` then returns the finished game's observation (an all-zero mask), and the first
`step` ignores its action and reports the end.

Observations, actions and `talk` are those of the PettingZoo environments (`lycan.env.observe`,
`lycan.env.layout`); `action_masks()` returns the current mask for maskable policies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from lycan.engine.record import GameRecord
from lycan.env.base import METADATA
from lycan.env.layout import TalkMode
from lycan.env.observe import DEFAULT_MAX_TEXT
from lycan.env.table import ActionArg, EnvTable, SeatSpec, as_rules
from lycan.rules.ruleset import RuleSet

OpponentsArg = SeatSpec | Sequence[SeatSpec] | Mapping[int, SeatSpec]
"""The other seats' agents: one spec for all of them (a kind or a factory), one per other seat in
seat order, or `{seat: spec}` for every other seat."""


def _opponents(spec: OpponentsArg, seat: int, n: int) -> dict[int, SeatSpec]:
    others = [s for s in range(n) if s != seat]
    if isinstance(spec, str) or (callable(spec) and not hasattr(spec, "act")):
        return dict.fromkeys(others, spec)
    if isinstance(spec, Mapping):
        if sorted(spec) != others:
            raise ValueError(f"opponents= must name every other seat {others}, got {sorted(spec)}")
        return dict(spec)
    if hasattr(spec, "act"):
        raise ValueError("one agent object cannot play several seats; give a kind (e.g. 'heuristic') or a factory")
    if len(spec) != len(others):
        raise ValueError(f"opponents= needs one entry per other seat ({len(others)}), got {len(spec)}")
    return dict(zip(others, spec, strict=True))


class LycanGymEnv(gymnasium.Env[dict[str, Any], Any]):
    """Werewolf for one seat as a Gymnasium environment (see the module docstring, and `lycan.env.single_agent_env`).

    Args:
        preset: a rule set, or a preset name / roles spec / rules file.
        seat: the seat the policy plays (0-based: seat 0 is `Player 1`).
        opponents: the other seats' Lycan agents (`OpponentsArg`); `"heuristic"` by default.
        talk: `"templates"` or `"text"`.
        render_mode: `"human"`, `"ansi"` or None.
        max_cycles: cut the game short after this many batches of requests (see `EnvTable`).
        max_text_length: `max_length` of the text observation.
    """

    metadata: dict[str, Any] = METADATA

    def __init__(
        self,
        preset: str | RuleSet = "guardian7",
        *,
        seat: int = 0,
        opponents: OpponentsArg = "heuristic",
        talk: TalkMode = "templates",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        max_text_length: int = DEFAULT_MAX_TEXT,
    ) -> None:
        rules = as_rules(preset)
        n = rules.n_players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be from 0 to {n - 1}, not {seat}")
        if render_mode is not None and render_mode not in METADATA["render_modes"]:
            raise ValueError(f"render_mode must be one of {METADATA['render_modes']} or None, not {render_mode!r}")
        self.seat = seat
        self.table = EnvTable(
            rules,
            agents=_opponents(opponents, seat, n),
            talk=talk,
            max_cycles=max_cycles,
            max_text_length=max_text_length,
        )
        self.layout = self.table.layout
        self.render_mode = render_mode
        self.observation_space = self.table.observer.space()
        self.action_space = spaces.Discrete(self.layout.size)
        self._reported = False
        self._shown = 0

    @property
    def record(self) -> GameRecord | None:
        """The finished game's `GameRecord` (None while a game is being played)."""
        return self.table.record()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game: `seed` is the game's seed; without one it is drawn from `np_random`.

        `options` are accepted and ignored.
        """
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63 - 1))
        self.table.reset(game_seed)
        self._reported = False
        self._shown = 0
        if self.render_mode == "human":
            self.render()
        return self.table.observe(self.seat), self._info()

    def step(self, action: ActionArg) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Answer the seat's request with `action` and play on until it is asked again or the game ends.

        `action`: an index of the action space, or with `talk="text"` a `str` to say in a talk or
        whisper turn. An action the mask forbids is refused by the engine as any agent's illegal answer.
        """
        table = self.table
        if not table.started:
            raise RuntimeError("reset() the environment before step()")
        if not table.finished:
            table.answer(action)
        reward = 0.0
        done = table.finished
        if done and not self._reported:
            reward = table.outcome(self.seat)
            self._reported = True
        cut = done and table.truncated
        if self.render_mode == "human":
            self.render()
        return table.observe(self.seat), reward, done and not cut, cut, self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions now (1 for each legal index), as maskable policies ask for them."""
        return self.table.layout.mask(
            self.table.pending(self.seat), self.table.observer.said(self.table.session.view(self.seat))
        )

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "request": self.table.pending(self.seat)}

    def render(self) -> str | None:
        """As `LycanAECEnv.render`: the public record so far."""
        out, self._shown = self.table.render(self.render_mode, self._shown)
        return out
