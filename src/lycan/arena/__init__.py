"""Games in bulk: tournament configs and plans, executors (local asyncio, Ray) and resumable runs.

Everything here plays games through the session layer (`lycan.engine.session`); `lycan.eval`
only analyses the records they leave.
"""

from lycan.arena.config import AgentSpec, GameJob, Setting, TournamentConfig, game_id_for, load_config, plan
from lycan.arena.executors import (
    Executor,
    LocalExecutor,
    ModelPool,
    RayExecutor,
    make_executor,
    play_job,
    play_job_async,
    players_for,
)
from lycan.arena.tournament import TournamentResult, record_tokens, run_tournament

__all__ = [
    "AgentSpec",
    "Executor",
    "GameJob",
    "LocalExecutor",
    "ModelPool",
    "RayExecutor",
    "Setting",
    "TournamentConfig",
    "TournamentResult",
    "game_id_for",
    "load_config",
    "make_executor",
    "plan",
    "play_job",
    "play_job_async",
    "players_for",
    "record_tokens",
    "run_tournament",
]
