"""Situations for the Power of Sultan tests (every card and tile stays in exactly one place)."""

from __future__ import annotations

import random

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action
from alhambra.actions import PlaceBuilding, TakeMoney
from alhambra.events import Event
from alhambra.modules.power_of_the_sultan import MODULE_ID, SultanState, components, sultan_slice
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import set_hand, set_market

ID = MODULE_ID
MARKET = ("P4es", "S5sw", "A6sw", "C7sw")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow."""
NEUTRAL = ("P2new", "P3sw", "S3esw", "S4ne", "C5nsw", "C6es")
"""The neutral player's tiles in a 2-player game of :func:`fresh`."""


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), turn_limit: int | None = None) -> GameState:
    """A new game with this module (and ``modules``): the market of :data:`MARKET`, every hand
    empty, and every sultan card still in the deck moved to its bottom (no card comes up by chance)."""
    state, _ = new_game(GameConfig(players=players, modules=(ID, *modules), turn_limit=turn_limit), seed)
    if state.neutral is not None:
        state.bag[0:0] = state.neutral
        state.neutral = []
        for code in NEUTRAL:
            t = state.components.tile_ids[code]
            if t in state.market:
                state.market[state.market.index(t)] = state.bag.pop()
            else:
                state.bag.remove(t)
            state.neutral.append(t)
    for sq, code in enumerate(MARKET, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    bury_sultan_cards(state)
    return state


def bury_sultan_cards(state: GameState) -> None:
    """Move the sultan cards of the draw pile to its bottom."""
    cards = state.components.cards
    sultan = [c for c in state.deck if cards[c].module == ID]
    state.deck[:] = sultan + [c for c in state.deck if cards[c].module != ID]


def card_id(state: GameState, code: str) -> int:
    return next(i for i, c in enumerate(state.components.cards) if c.code == code)


def put_on_deck_top(state: GameState, code: str) -> None:
    """The sultan card ``code`` (in the draw pile) is drawn next."""
    c = card_id(state, code)
    state.deck.remove(c)
    state.deck.append(c)


def give_card(state: GameState, seat: int, code: str, kind: str) -> None:
    """Move sultan card ``code`` from the draw pile in front of ``seat``, marked ``kind``."""
    state.deck.remove(card_id(state, code))
    sl = sultan_slice(state)
    owned = list(sl.owned)
    owned[seat] = (*owned[seat], (code, kind))
    state.mods[ID] = SultanState(sl.beside, tuple(owned), sl.used, sl.held)


def lay_beside(state: GameState, code: str, kind: str) -> None:
    """Move sultan card ``code`` from the draw pile beside the market, marked ``kind``."""
    state.deck.remove(card_id(state, code))
    sl = sultan_slice(state)
    state.mods[ID] = SultanState((*sl.beside, (code, kind)), sl.owned, sl.used, sl.held)


def bag_top(state: GameState, *codes: str) -> None:
    """These tiles (in the bag) are drawn next, the first code first."""
    ids = [state.components.tile_ids[c] for c in codes]
    for t in ids:
        state.bag.remove(t)
    state.bag.extend(reversed(ids))


def seats(state: GameState) -> list[int]:
    """The current seat, then the seats after it."""
    n = state.config.players
    return [(state.current + i) % n for i in range(n)]


def end_turn_by_taking(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single display card, which ends the turn."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, take, top.seat)


def buy_square_1_and_place(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat overpays the pavilion 4 on square 1 (so the turn ends) and puts it on the
    reserve board: the market refill then draws one tile for square 1."""
    s = state.current
    set_hand(state, s, ["b5"])
    state, events = apply(state, parse_action("buy 1 b5"), s)
    assert state.pending[-1] == PlaceTiles(s, ("P4es",), state.neutral is not None, "bought")
    state, more = apply(state, PlaceBuilding("P4es", "reserve"), s)
    return state, events + more


def draws_for(state: GameState, index: int) -> int:
    """A value of ``state.draws`` for which the next extra tile revealed is ``components().extra_tiles[index]``."""
    n = len(components().extra_tiles)
    for d in range(1000):
        if random.Random(f"{state.seed}/{ID}/{d + 1}").randrange(n) == index:
            return d
    raise AssertionError("no such draw")


def extra_index(top: str, bottom: str) -> int:
    return components().extra_tiles.index((top, bottom))
