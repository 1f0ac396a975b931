"""Game records: configuration + seed + actions, which replay a game exactly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import Action, action_from_dict, parse_action
from .engine import apply, new_game
from .errors import AlhambraError, IllegalAction, NotationError, RecordError
from .events import Event
from .hooks import modules_of
from .state import GameConfig, GameState

FORMAT = "alhambra-record/1"


@dataclass
class GameRecord:
    """A whole game: replaying ``actions`` from ``new_game(config, seed)`` rebuilds it."""

    config: GameConfig
    seed: int
    actions: list[Action] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form; actions in text notation."""
        return {"format": FORMAT, "config": self.config.to_dict(), "seed": self.seed, "actions": [str(a) for a in self.actions]}

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record; :class:`RecordError` names what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a game record (expected format {FORMAT!r})")
        try:
            config = GameConfig.from_dict(data["config"])
            modules_of(config)  # loading a module registers its action notation before parsing
        except KeyError:
            raise RecordError("the record has no configuration") from None
        except AlhambraError as e:
            raise RecordError(f"bad configuration: {e}") from None
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("the record's seed must be an integer")
        raw = data.get("actions")
        if not isinstance(raw, list):
            raise RecordError("the record's actions must be a list")
        actions: list[Action] = []
        for i, a in enumerate(raw):
            try:
                actions.append(parse_action(a) if isinstance(a, str) else action_from_dict(a))
            except NotationError as e:
                raise RecordError(f"step {i + 1}: {e}", i) from None
        return cls(config, seed, actions)


def replay(record: GameRecord) -> tuple[GameState, list[Event]]:
    """Re-apply every action of a record; :class:`RecordError` names the failing step (1-based)."""
    try:
        state, events = new_game(record.config, record.seed)
    except AlhambraError as e:
        raise RecordError(f"cannot set up the game: {e}") from None
    for i, action in enumerate(record.actions):
        try:
            state, evs = apply(state, action)
        except IllegalAction as e:
            raise RecordError(f"step {i + 1} ({action}): {e.reason}", i) from None
        events.extend(evs)
    return state, events
