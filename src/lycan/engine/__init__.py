"""The engine: the game state machine, its event log, per-seat views and discussion protocols.

Imports nothing from agents, models, web or voice.
"""

from lycan.engine.actions import OVER, PASS, SKIP, Action, Answer, Failure, Request
from lycan.engine.events import Event, event_from_dict, event_to_dict, public, visible
from lycan.engine.game import Decision, Game, default_names
from lycan.engine.record import GameRecord, new_game_id
from lycan.engine.runner import Player, ReplayMismatch, SyncPlayer, replay, run_async, run_sync
from lycan.engine.view import View

__all__ = [
    "OVER",
    "PASS",
    "SKIP",
    "Action",
    "Answer",
    "Decision",
    "Event",
    "Failure",
    "Game",
    "GameRecord",
    "Player",
    "ReplayMismatch",
    "Request",
    "SyncPlayer",
    "View",
    "default_names",
    "event_from_dict",
    "event_to_dict",
    "new_game_id",
    "public",
    "replay",
    "run_async",
    "run_sync",
    "visible",
]
