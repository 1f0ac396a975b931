"""Situations for the bazaar tests, built by moving real tiles and cards (never inventing them)."""

from __future__ import annotations

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game
from alhambra.actions import Action, PlaceBuilding, TakeMoney
from alhambra.events import Event
from alhambra.modules.bazaars import BazaarsState
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import set_hand, set_market

# square -> (tile, exact money for it); squares 1-4 take blue, green, orange, yellow
MARKET = {1: ("P4es", "b4"), 2: ("S5sw", "g5"), 3: ("A6sw", "o6"), 4: ("C7sw", "y7")}


def beside(state: GameState) -> tuple[str, ...]:
    """The bazaars beside the market."""
    value = state.mods["bazaars"]
    assert isinstance(value, BazaarsState)
    return value.beside


def fresh(players: int = 3, seed: int = 3, modules: tuple[str, ...] = ("bazaars",), turn_limit: int | None = None) -> GameState:
    """A new game with the market of ``MARKET``, no bazaar beside the market (they go back into
    the bottom of the bag) and every hand empty."""
    state, _ = new_game(GameConfig(players=players, modules=modules, turn_limit=turn_limit), seed)
    ids = state.components.tile_ids
    state.bag[:0] = [ids[c] for c in beside(state)]
    state.mods["bazaars"] = BazaarsState()
    for sq, (tile, _money) in MARKET.items():
        set_market(state, sq, tile)
    for s in range(players):
        set_hand(state, s, [])
    return state


def take_tile(state: GameState, code: str) -> int:
    """Take a tile out of the bag, the market or from beside the market; return its id."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
    elif t in state.market:
        state.market[state.market.index(t)] = -1
    elif code in beside(state):
        state.mods["bazaars"] = BazaarsState(tuple(c for c in beside(state) if c != code))
    elif state.neutral is not None and t in state.neutral:
        state.neutral.remove(t)
    else:
        raise KeyError(f"{code} is not in the bag, on the market or beside it")
    return t


def lay_out(state: GameState, *codes: str) -> None:
    """Move bazaars from the bag to beside the market."""
    for code in codes:
        take_tile(state, code)
        state.mods["bazaars"] = BazaarsState((*beside(state), code))


def build(state: GameState, seat: int, layout: dict[tuple[int, int], str]) -> None:
    """Put tiles into ``seat``'s Alhambra at ``(x, y)`` (no building rule is checked)."""
    p = state.players[seat]
    for (x, y), code in layout.items():
        p.build(geo.pos(x, y), take_tile(state, code))


def draw_next(state: GameState, *codes: str) -> None:
    """Put these tiles on top of the bag, the first one to be drawn first."""
    for code in reversed(codes):
        t = state.components.tile_ids[code]
        state.bag.remove(t)
        state.bag.append(t)


def finish_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single card of the display (ending the action phase) and
    puts every waiting tile on the reserve board."""
    seat = state.current
    events: list[Event] = []
    while state.to_act == seat and isinstance(state.pending[-1], ChooseAction | PlaceTiles):
        top = state.pending[-1]
        action: Action
        if isinstance(top, ChooseAction):
            action = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
        else:
            assert isinstance(top, PlaceTiles)
            action = PlaceBuilding(top.tiles[0], "reserve")
        state, evs = apply(state, action, seat)
        events += evs
    return state, events
