"""Situations for the exchange certificates tests (every card and tile stays in exactly one
place; currency tokens move between the centre and the boards, never invented)."""

from __future__ import annotations

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra.actions import Action, PlaceBuilding, TakeMoney
from alhambra.events import Event
from alhambra.modules.exchange_certificates import NO_CREDIT, certificates_slice
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import set_hand, set_market

ID = "exchange_certificates"
MARKET = ("T12", "S5sw", "A6sw", "A4nes")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow."""


def fresh(players: int = 3, seed: int = 3, modules: tuple[str, ...] = (ID,), turn_limit: int | None = None) -> GameState:
    """A new game with the market of :data:`MARKET` and every hand empty."""
    state, _ = new_game(GameConfig(players=players, modules=modules, turn_limit=turn_limit), seed)
    ids = state.components.tile_ids
    for code in MARKET:  # (2 players) a market tile dealt to the neutral player changes places with one from the bag
        if state.neutral is not None and ids[code] in state.neutral:
            other = next(t for t in state.bag if state.components.tile_code[t] not in MARKET)
            state.bag[state.bag.index(other)] = ids[code]
            state.neutral[state.neutral.index(ids[code])] = other
    for sq, code in enumerate(MARKET, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    return state


def store(state: GameState, seat: int, currency: int, amount: int) -> None:
    """Put a credit on ``seat``'s board with a token from the centre."""
    sl = certificates_slice(state)
    assert sl.credit[seat] == NO_CREDIT and sl.centre[currency] > 0
    centre = list(sl.centre)
    centre[currency] -= 1
    state.mods[ID] = sl.with_seat(seat, (currency, amount), tuple(centre))


def credit(state: GameState, seat: int) -> tuple[int, int]:
    return certificates_slice(state).credit[seat]


def centre(state: GameState) -> tuple[int, ...]:
    return certificates_slice(state).centre


def finish_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single card of the display (if it still must act) and
    puts every waiting tile on the reserve board; other decisions of the seat are declined."""
    seat = state.current
    events: list[Event] = []
    while state.to_act == seat and state.outcome is None:
        top = state.pending[-1]
        action: Action
        if isinstance(top, ChooseAction):
            action = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
        elif isinstance(top, PlaceTiles):
            action = PlaceBuilding(top.tiles[0], "reserve")
        else:
            action = legal_actions(state)[-1]
        state, evs = apply(state, action, seat)
        events += evs
    return state, events
