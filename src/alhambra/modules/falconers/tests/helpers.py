"""Situations for the falconers tests, built by moving real tiles and cards (never inventing them)."""

from __future__ import annotations

from alhambra import apply, legal_actions, parse_action
from alhambra.events import Event, RoundScored
from alhambra.modules.falconers.module import MODULE_ID
from alhambra.state import GameState
from alhambra.testing import check_conservation, fresh_game, score_next_round as score_round

ID = MODULE_ID
CORNER = {(1, 0): "G11", (0, 1): "T12", (1, 1): "A9"}
"""Three wall-free tiles around the fountain's south-east corner: with the fountain they make
the intersection ``0,0`` (garden, tower, arcades; the fountain gives no colour)."""


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = ()) -> GameState:
    """A new game with the falconers (and ``modules``), every hand empty."""
    return fresh_game(players, seed, (ID, *modules))


def act(state: GameState, notation: str, seat: int | None = None) -> tuple[GameState, list[Event]]:
    """Apply ``notation`` for ``seat`` (default: the seat to act), then check conservation."""
    who = state.to_act if seat is None else seat
    assert who is not None
    after, events = apply(state, parse_action(notation), who)
    check_conservation(after)
    return after, events


def legal(state: GameState) -> list[str]:
    """The legal actions as notation."""
    return [str(a) for a in legal_actions(state)]


def score_next_round(state: GameState) -> tuple[GameState, RoundScored]:
    """Draw a scoring card at the end of the current seat's turn: the next round is scored
    (:func:`alhambra.testing.score_next_round`); returns the new state and its ``RoundScored``."""
    state, events = score_round(state)
    return state, next(e for e in events if isinstance(e, RoundScored))
