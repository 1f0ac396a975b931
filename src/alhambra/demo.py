"""Demo games between random players (``alhambra demo`` and ``scripts/run``).

The demo players choose at random among :func:`~alhambra.engine.legal_actions`, but first pick
a *kind* of action with fixed weights (buy, place in the Alhambra, take money, ...) and then an
action of that kind uniformly. A uniform choice over all actions spends half the game shuffling
tiles between the Alhambra and the reserve board; the weighted choice still plays every kind
of action, games read like games and end sooner. The benchmark (:mod:`alhambra.bench`) uses
the unweighted policies of :mod:`alhambra.policies` instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from .actions import (
    Action,
    BuildFromReserve,
    BuyBuilding,
    EndTurn,
    ExchangeTiles,
    MoveToReserve,
    PlaceBuilding,
    TakeMoney,
)
from .engine import apply, legal_actions, new_game
from .events import Event, TurnStarted
from .record import GameRecord
from .state import GameConfig, GameState

__all__ = ["ACTION_WEIGHTS", "DemoGame", "action_kind", "choose_action", "group_by_turn", "play_demo"]

ACTION_WEIGHTS: Final = {
    "buy": 6.0,
    "place": 8.0,
    "reserve": 1.0,
    "neutral": 1.5,
    "take": 3.0,
    "redesign": 0.5,
    "end": 1.0,
    "module": 2.0,
}
"""Weight of each kind of action for the demo players (see :func:`action_kind`)."""

MAX_ACTIONS: Final = 20_000
"""Safety stop: no demo game needs more actions than this."""


def action_kind(action: Action) -> str:
    """The demo players' category of an action: a key of :data:`ACTION_WEIGHTS`."""
    if action.module is not None:
        return "module"
    if isinstance(action, BuyBuilding):
        return "buy"
    if isinstance(action, PlaceBuilding):
        if action.target == "reserve":
            return "reserve"
        if action.target == "neutral":
            return "neutral"
        return "place"
    if isinstance(action, TakeMoney):
        return "take"
    if isinstance(action, BuildFromReserve | MoveToReserve | ExchangeTiles):
        return "redesign"
    if isinstance(action, EndTurn):
        return "end"
    return "module"


def choose_action(rng: random.Random, actions: Sequence[Action]) -> Action:
    """A demo player's choice: a kind of action by weight, then an action of that kind uniformly."""
    if not actions:
        raise ValueError("no legal action to choose from")
    by_kind: dict[str, list[Action]] = {}
    for a in actions:
        by_kind.setdefault(action_kind(a), []).append(a)
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, weights=[ACTION_WEIGHTS.get(k, 1.0) for k in kinds])[0]
    return rng.choice(by_kind[kind])


@dataclass
class DemoGame:
    """A finished demo game: its record, the final state and every event in order."""

    record: GameRecord
    state: GameState
    events: list[Event] = field(default_factory=list)


def play_demo(
    players: int = 4,
    seed: int = 0,
    modules: Sequence[str] = (),
    turns: int | None = None,
    options: tuple[tuple[str, str, bool | int | str], ...] = (),
    game: str = "alhambra",
) -> DemoGame:
    """Play one game between demo players; the same arguments always give the same game.

    ``seed`` fixes both the deal and the players' choices. ``turns`` (optional) ends the game
    as ``truncated`` after that many turns. ``game``: the game of the family. Raises :class:`~alhambra.errors.ConfigError` for a
    configuration that cannot be played.
    """
    config = GameConfig(players=players, modules=tuple(modules), turn_limit=turns, options=options, game=game)
    state, events = new_game(config, seed)
    record = GameRecord(config, seed)
    rng = random.Random(f"alhambra-demo/{seed}")
    while not state.is_over:
        if len(record.actions) >= MAX_ACTIONS:  # pragma: no cover - a module that never lets the game end
            raise RuntimeError(f"the demo game did not end within {MAX_ACTIONS} actions")
        action = choose_action(rng, legal_actions(state))
        state, evs = apply(state, action)
        record.actions.append(action)
        events.extend(evs)
    return DemoGame(record, state, events)


def group_by_turn(events: Sequence[Event]) -> list[tuple[TurnStarted | None, list[Event]]]:
    """Split events into turns: each group starts at a :class:`TurnStarted` (``None`` for setup).

    Everything after a turn up to the next turn's start (refills, scoring rounds, the end of
    the game) belongs to that turn.
    """
    groups: list[tuple[TurnStarted | None, list[Event]]] = [(None, [])]
    for e in events:
        if isinstance(e, TurnStarted):
            groups.append((e, []))
        else:
            groups[-1][1].append(e)
    if not groups[0][1]:
        groups.pop(0)
    return groups
