"""Situations for the art of the moors tests, built by moving real tiles (never inventing them)."""

from __future__ import annotations

from alhambra import apply, city as geo, legal_actions, parse_action
from alhambra.events import Event
from alhambra.modules.art_of_the_moors.module import MODULE, MODULE_ID
from alhambra.state import GameState
from alhambra.testing import check_conservation, fresh_game, take_tile

ID = MODULE_ID


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), market: tuple[str, ...] = ()) -> GameState:
    """A new game with the art of the moors (and ``modules``), every hand empty."""
    return fresh_game(players, seed, (ID, *modules), market)


def give(state: GameState, seat: int, code: str, at: tuple[int, int] | str = "reserve") -> list[Event]:
    """Move tile ``code`` (bag, market, neutral player) into ``seat``'s Alhambra at ``at`` or onto
    its reserve board, then let the module see it (as after any action); returns its events."""
    t = take_tile(state, code)
    if at == "reserve":
        state.players[seat].reserve.append(t)
    else:
        assert isinstance(at, tuple)
        state.players[seat].city[geo.pos(*at)] = t
    events: list[Event] = []
    MODULE.after_action(state, events)
    return events


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
