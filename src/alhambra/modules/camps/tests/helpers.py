"""Situations for the camps tests, built by moving real tiles (never inventing them)."""

from __future__ import annotations

from collections.abc import Mapping

from alhambra import apply, city as geo, legal_actions, parse_action
from alhambra.events import Event
from alhambra.modules.camps.module import MODULE_ID, CampAt, CampsState, camps_state
from alhambra.state import GameState
from alhambra.testing import build_tiles, check_conservation, fresh_game, take_tile

ID = MODULE_ID

EXAMPLE_CITY: Mapping[tuple[int, int], str] = {
    (0, 1): "P3sw",
    (1, 1): "P6n",
    (2, 1): "P8",
    (3, 1): "P7e",
    (1, 2): "S8s",
}
"""The rulebook's example (p. 15): a row of four buildings south of the fountain with a city wall
at each end, and a building below its second tile with a city wall to the south."""
EXAMPLE_CAMPS: Mapping[tuple[int, int], str] = {(-1, 1): "L4e", (4, 1): "L6w", (1, 3): "L3n"}
"""The example's camps: one at each end of the row (4 points each) and one below (2 points)."""


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), market: tuple[str, ...] = ()) -> GameState:
    """A new game with the camps (and ``modules``), every hand empty."""
    return fresh_game(players, seed, (ID, *modules), market=market)


def put_camps(state: GameState, seat: int, camps: Mapping[tuple[int, int], str]) -> None:
    """Put these camps outside ``seat``'s Alhambra, in place and without checking the rules
    (each taken from wherever it is, so every tile stays in exactly one place)."""
    for code in camps.values():
        take_tile(state, code)
    sl = camps_state(state)
    placed = list(sl.placed)
    placed[seat] = tuple(sorted([*placed[seat], *(CampAt(x, y, c) for (x, y), c in camps.items())]))
    state.mods[ID] = CampsState(tuple(placed))


def example(players: int = 3, seed: int = 1, seat: int = 0) -> GameState:
    """A game whose ``seat`` has the rulebook's example Alhambra with its three camps."""
    state = fresh(players, seed)
    build_tiles(state, seat, EXAMPLE_CITY)
    put_camps(state, seat, EXAMPLE_CAMPS)
    assert geo.validate_layout(state.players[seat].city, state.walls, geo.ORIGIN) == []
    check_conservation(state)
    return state


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
