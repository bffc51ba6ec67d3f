"""The PettingZoo AEC environment: one agent per environment seat, stepping one request at a time.

Turn order follows the engine. Each batch of simultaneous requests (the night's actions, a vote) is
serialized: `agent_selection` walks the batch's environment seats in batch order, each answer is
kept until the batch is complete, and then the whole batch goes to the session. An action the mask
forbids is judged by the engine like any agent's illegal answer: the same agent is asked again
with the reason in its observation, and a second refusal gives the engine's fallback and a fault
on the record (rules with `invalid_target="ignore"`, the aiwolf presets, drop an illegal vote or
night choice at once, with a fault).

Dead seats stay in `agents` (never selected: the engine asks them nothing) until the game ends,
so every agent receives the end reward: +1 to the winning side, -1 to the losers, 0 for a draw.
Then every agent is terminated (truncated when `max_cycles` cut the game short) and, as
PettingZoo expects, steps once with `None` to leave `agents`.

`agent_selection`, `infos` and the turn order are environment state, not observations: at night
the order shows who holds a night role. A policy that plays fair reads only `observe(agent)` (and
its own `infos[agent]`, which holds the request that agent is asked).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from lycan.env.base import METADATA, TableEnv
from lycan.env.layout import TalkMode
from lycan.env.observe import DEFAULT_MAX_TEXT
from lycan.env.table import ActionArg, SeatsArg, agent_name, seat_of
from lycan.rules.ruleset import RuleSet


class LycanAECEnv(TableEnv, AECEnv):  # type: ignore[misc]
    """Werewolf as a PettingZoo AEC environment (see the module docstring, and `lycan.env.aec_env`)."""

    # Not `aec_to_parallel` material (agents do not act in cycles): `lycan.env.parallel_env` is the parallel form.
    metadata: ClassVar[dict[str, Any]] = {**METADATA, "is_parallelizable": False}

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
        super().__init__()
        self._open_table(
            preset,
            agents=agents,
            talk=talk,
            render_mode=render_mode,
            max_cycles=max_cycles,
            max_text_length=max_text_length,
        )
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self._seats = {a: seat_of(a) for a in self.possible_agents}

    # ----------------------------------------------------------------- the game
    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self.table.rules

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: `seed` is the game's seed; without one, it is drawn from the environment's generator.

        The generator is seeded by every seeded reset, so `reset(seed=s)` followed by unseeded
        resets always gives the same games. `options` are accepted and ignored.
        """
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._rng.integers(2**63 - 1))
        self.table.reset(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._shown = 0
        self._progress()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        """What `agent`'s seat knows now, and the mask of its legal actions (see `lycan.env.observe`)."""
        return self.table.observe(self._seats[agent])

    def step(self, action: ActionArg) -> None:
        """Answer the selected agent's request with `action` (None for an agent that is done).

        `action` is an index of the action space, or with `talk="text"` a `str` to say in a talk
        or whisper turn; a Lycan `Action` is accepted too. An action the mask forbids is sent to the
        engine as it is, which refuses it (see the module docstring).
        """
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if not self.table.started:
            raise RuntimeError("reset() the environment before step()")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.table.answer(action)
        self._progress()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _progress(self) -> None:
        table = self.table
        seats = self._seats
        for agent in self.agents:
            self.infos[agent] = {"seat": seats[agent], "request": table.pending(seats[agent])}
        if table.finished:
            cut = table.truncated
            for agent in self.agents:
                self.rewards[agent] = table.outcome(seats[agent])
                self.terminations[agent] = not cut
                self.truncations[agent] = cut
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = agent_name(table.queue[0].seat)

    # ----------------------------------------------------------------- display
    def render(self) -> str | None:
        """The public record so far, as a spectator sees it (no private or hidden events).

        `ansi`: returns all of it as text; `human`: prints the lines not printed yet; no render mode: None.
        """
        out, self._shown = self.table.render(self.render_mode, self._shown)
        return out

    def close(self) -> None:
        """Nothing to release."""
