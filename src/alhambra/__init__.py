"""alhambra: a pure rules engine for the board game Alhambra (Dirk Henn, Queen Games).

Start with :func:`new_game`, ask :func:`legal_actions`, and move with :func:`apply`.
Everything a player may see comes from :func:`view`.
"""

from .actions import Action, parse_action
from .engine import apply, apply_unchecked, legal_actions, new_game
from .errors import AlhambraError, IllegalAction, NotationError, RecordError
from .events import Event
from .record import GameRecord, replay
from .serialize import state_from_json, state_to_json
from .state import GameConfig, GameState
from .view import view

__all__ = [
    "Action",
    "AlhambraError",
    "Event",
    "GameConfig",
    "GameRecord",
    "GameState",
    "IllegalAction",
    "NotationError",
    "RecordError",
    "apply",
    "apply_unchecked",
    "legal_actions",
    "new_game",
    "parse_action",
    "replay",
    "state_from_json",
    "state_to_json",
    "view",
]

__version__ = "0.1.0"
