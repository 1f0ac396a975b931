"""Situations for the caravanserai tests (every card and tile stays in exactly one place)."""

from __future__ import annotations

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game
from alhambra.actions import TakeMoney
from alhambra.events import Event
from alhambra.modules.caravanserai import MODULE_ID, CaravanseraiState, cara_slice
from alhambra.state import ChooseAction, GameState
from alhambra.testing import set_hand, set_market

ID = MODULE_ID
MARKET = ("P4es", "S5sw", "A6sw", "C7sw")
"""The market of :func:`fresh`."""
OPEN = {"pavilion": "P8", "seraglio": "S9", "arcades": "A9", "chambers": "C10", "garden": "G10", "tower": "T11"}
"""A tile without walls of each kind."""
SPOTS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), turn_limit: int | None = None) -> GameState:
    """A new game with this module (and ``modules``): the market of :data:`MARKET` and every hand empty."""
    state, _ = new_game(GameConfig(players=players, modules=(ID, *modules), turn_limit=turn_limit), seed)
    for sq, code in enumerate(MARKET, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    return state


def square_of(state: GameState, currency: int) -> int:
    """The market square (1-4) that takes ``currency``."""
    return state.market_currency.index(currency) + 1


def _take(state: GameState, kind: str) -> int:
    """The open tile of ``kind`` from the bag (or from the neutral player, who gets a bag tile instead)."""
    t = state.components.tile_ids[OPEN[kind]]
    if t not in state.bag and not (state.neutral and t in state.neutral):  # taken already: another tile of the kind
        t = next(b for b in state.bag if state.components.tiles[b].kind == kind)
    if t in state.bag:
        state.bag.remove(t)
    else:
        assert state.neutral is not None and t in state.neutral, f"{OPEN[kind]} is not free"
        state.neutral[state.neutral.index(t)] = state.bag.pop(0)
    return t


def build(state: GameState, seat: int, *kinds: str) -> None:
    """Build an open tile of each of ``kinds`` into ``seat``'s Alhambra."""
    city = state.players[seat].city
    free = [geo.pos(x, y) for x, y in SPOTS if geo.pos(x, y) not in city]
    for kind in kinds:
        city[free.pop(0)] = _take(state, kind)


def reserve(state: GameState, seat: int, *kinds: str) -> None:
    """Put an open tile of each of ``kinds`` on ``seat``'s reserve board."""
    for kind in kinds:
        state.players[seat].reserve.append(_take(state, kind))


def give(state: GameState, seat: int, number: int, spot: int = 0) -> None:
    """Card ``number`` lies in front of ``seat`` with its marker on ``spot``."""
    state.mods[ID] = cara_slice(state).with_card(number, owner=seat, spot=spot)


def set_slice(state: GameState, owners: dict[int, int], spots: dict[int, int] | None = None) -> None:
    """Cards (number: seat) in front of players, markers (number: spot); the rest in the stack on 0."""
    n = len(cara_slice(state).owners)
    spots = spots or {}
    state.mods[ID] = CaravanseraiState(tuple(owners.get(i, -1) for i in range(1, n + 1)), tuple(spots.get(i, 0) for i in range(1, n + 1)))


def end_turn_by_taking(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single display card, which ends the turn."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, take, top.seat)


def seats(state: GameState) -> list[int]:
    """The current seat, then the seats after it."""
    n = state.config.players
    return [(state.current + i) % n for i in range(n)]
