"""PettingZoo and Gymnasium environments over the session layer (the `env` extra).

- `aec_env(preset)`: a PettingZoo AEC environment, agents `player_1` .. `player_N`;
- `parallel_env(preset)`: the same game as a PettingZoo parallel environment (one step per batch);
- `single_agent_env(preset, seat=0, opponents="heuristic")`: a Gymnasium environment for one
  seat against Lycan agents, also registered as `lycan/Werewolf-v0` for `gymnasium.make`.

Every game is a `lycan.engine.session.Session`: the environments step it with `start`/`send`
and never touch the game's generator. An observation is computed from the seat's own view and
request only (`lycan.env.observe`); actions are indices of a fixed `Discrete` space with a mask
(`lycan.env.layout`); the finished game's `GameRecord` is the environment's `record`.
"""

from __future__ import annotations

import gymnasium

from lycan.env.aec import LycanAECEnv
from lycan.env.layout import PLAIN_TEMPLATES, TARGETED_TEMPLATES, ActionLayout, TalkMode
from lycan.env.observe import DEFAULT_MAX_TEXT, ObservationBuilder
from lycan.env.parallel import LycanParallelEnv
from lycan.env.single import LycanGymEnv, OpponentsArg
from lycan.env.table import EnvTable, SeatsArg, SeatSpec, agent_name, seat_of
from lycan.rules.ruleset import RuleSet

GYM_ID = "lycan/Werewolf-v0"
"""The Gymnasium id of the single-agent environment: `gymnasium.make(GYM_ID, preset="aiwolf5", seat=2)`."""


def aec_env(
    preset: str | RuleSet = "guardian7",
    *,
    agents: SeatsArg = None,
    talk: TalkMode = "templates",
    render_mode: str | None = None,
    max_cycles: int | None = None,
    max_text_length: int = DEFAULT_MAX_TEXT,
) -> LycanAECEnv:
    """A PettingZoo AEC environment of `preset`.

    Args:
        preset: a preset name (`guardian7`, `aiwolf5`, ...), roles spec, rules file or `RuleSet`.
        agents: seats played by Lycan agents instead of the environment: `{seat or "player_k":
            kind, agent or factory}` or one entry per seat (None: the environment's). Default: none,
            every seat is an agent of the environment.
        talk: `"templates"`: talk is chosen among fixed sentences in the action space;
            `"text"`: talk is a `str` passed to `step` (the action space keeps Over and Skip).
        render_mode: `"human"` (print the public log as it grows), `"ansi"` (return it) or None.
        max_cycles: end the game as a draw, truncated, after this many batches of requests.
        max_text_length: `max_length` of the text observation (longer views drop their oldest lines).
    """
    return LycanAECEnv(
        preset,
        agents=agents,
        talk=talk,
        render_mode=render_mode,
        max_cycles=max_cycles,
        max_text_length=max_text_length,
    )


def parallel_env(
    preset: str | RuleSet = "guardian7",
    *,
    agents: SeatsArg = None,
    talk: TalkMode = "templates",
    render_mode: str | None = None,
    max_cycles: int | None = None,
    max_text_length: int = DEFAULT_MAX_TEXT,
) -> LycanParallelEnv:
    """A PettingZoo parallel environment of `preset`; arguments as in `aec_env`."""
    return LycanParallelEnv(
        preset,
        agents=agents,
        talk=talk,
        render_mode=render_mode,
        max_cycles=max_cycles,
        max_text_length=max_text_length,
    )


def single_agent_env(
    preset: str | RuleSet = "guardian7",
    *,
    seat: int = 0,
    opponents: OpponentsArg = "heuristic",
    talk: TalkMode = "templates",
    render_mode: str | None = None,
    max_cycles: int | None = None,
    max_text_length: int = DEFAULT_MAX_TEXT,
) -> LycanGymEnv:
    """A Gymnasium environment: the policy plays `seat` (0-based) against `opponents`.

    Other arguments as in `aec_env`.
    """
    return LycanGymEnv(
        preset,
        seat=seat,
        opponents=opponents,
        talk=talk,
        render_mode=render_mode,
        max_cycles=max_cycles,
        max_text_length=max_text_length,
    )


if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="lycan.env.single:LycanGymEnv")

__all__ = [
    "DEFAULT_MAX_TEXT",
    "GYM_ID",
    "PLAIN_TEMPLATES",
    "TARGETED_TEMPLATES",
    "ActionLayout",
    "EnvTable",
    "LycanAECEnv",
    "LycanGymEnv",
    "LycanParallelEnv",
    "ObservationBuilder",
    "OpponentsArg",
    "SeatSpec",
    "SeatsArg",
    "TalkMode",
    "aec_env",
    "agent_name",
    "parallel_env",
    "seat_of",
    "single_agent_env",
]
