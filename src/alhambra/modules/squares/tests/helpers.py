"""Situations for the squares tests, built by moving real tiles (never inventing them)."""

from __future__ import annotations

from alhambra import apply, city as geo, legal_actions, parse_action
from alhambra.components import KINDS
from alhambra.events import Event
from alhambra.modules.squares.module import COLOUR, MODULE_ID, SquaresState, squares
from alhambra.state import GameState
from alhambra.testing import check_conservation, fresh_game

ID = MODULE_ID


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), market: tuple[str, ...] = ()) -> GameState:
    """A new game with the squares (and ``modules``), every hand empty."""
    return fresh_game(players, seed, (ID, *modules), market)


def take_square(state: GameState, code: str) -> int:
    """Take square ``code`` off its pile (an open square is replaced by one from under it) and
    return its id, so it can be put somewhere else while every tile stays in one place."""
    sl = squares(state)
    i = KINDS.index(COLOUR[code])
    tops, rests = list(sl.top), list(sl.rest)
    if tops[i] == code:
        tops[i] = rests[i][0] if rests[i] else None
        rests[i] = rests[i][1:]
    elif code in rests[i]:
        rests[i] = tuple(c for c in rests[i] if c != code)
    else:
        raise KeyError(f"{code} is not on its pile")
    state.mods[ID] = SquaresState(tuple(tops), tuple(rests))
    return state.components.tile_ids[code]


def open_square(state: GameState, code: str) -> None:
    """Square ``code`` is the open one of its pile (it changes places with the open one)."""
    sl = squares(state)
    i = KINDS.index(COLOUR[code])
    top = sl.top[i]
    assert top is not None and (code == top or code in sl.rest[i])
    tops, rests = list(sl.top), list(sl.rest)
    tops[i] = code
    rests[i] = tuple(sorted(c for c in (top, *sl.rest[i]) if c != code))
    state.mods[ID] = SquaresState(tuple(tops), tuple(rests))


def put_square(state: GameState, seat: int, code: str, at: tuple[int, int] | str) -> None:
    """Put square ``code`` into ``seat``'s Alhambra at ``at`` (no building rules checked) or on its reserve board."""
    t = take_square(state, code)
    if at == "reserve":
        state.players[seat].reserve.append(t)
    else:
        assert isinstance(at, tuple)
        state.players[seat].city[geo.pos(*at)] = t


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
