"""Self-play games of a rule-based agent type, and the split of games into training and held out.

Both training pipelines (`lycan.value` and `lycan.causal`) learn from these games and measure on
the held-out share, chosen by a hash of each game's id so that a game is never split.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from lycan.engine.record import GameRecord


def self_play(preset: str, games: int, first_seed: int, agent: str = "heuristic") -> Iterator[GameRecord]:
    """`games` games of `agent` in every seat, seeds `first_seed` onwards (deterministic in the seeds).

    Raises:
        ValueError: an unknown preset or agent type, or one that needs a chat model.
    """
    from lycan.agents import make_agent
    from lycan.engine import run_sync
    from lycan.engine.runner import SyncPlayer
    from lycan.engine.seeds import derive
    from lycan.rules import get_preset

    rules = get_preset(preset)
    for seed in range(first_seed, first_seed + games):
        players = [make_agent(agent, derive(seed, "agent", s)) for s in range(rules.n_players)]
        if not all(isinstance(p, SyncPlayer) for p in players):
            raise ValueError(f"self-play needs a rule-based agent type, not {agent!r}")
        yield run_sync(rules, players, seed, game_id=f"selfplay-{preset}-{seed}")  # type: ignore[arg-type]


def held_out(game_id: str, share: float) -> bool:
    """Whether game `game_id` is among the held-out `share` of games (a hash of its id decides)."""
    return int(hashlib.sha256(game_id.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF < share


__all__ = ["held_out", "self_play"]
