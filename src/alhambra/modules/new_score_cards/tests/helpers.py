"""Situations for the new score cards tests, built by moving real tiles and cards (never inventing them)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game
from alhambra.actions import TakeMoney
from alhambra.events import Event, RoundScored
from alhambra.modules.new_score_cards import ScoreCardsState
from alhambra.state import GameState
from alhambra.testing import check_conservation

ID = "new_score_cards"

ORDERS = {
    1: "P C T S A G",
    2: "P C G S T A",
    3: "P G T A S C",
    4: "S G T C A P",
    5: "S A C T G P",
    6: "S T A G C P",
    7: "A P S T G C",
    8: "A P G C T S",
    9: "A C G S P T",
    10: "C A P T G S",
    11: "C A P G S T",
    12: "C G S A P T",
    13: "G T A P C S",
    14: "G T A P S C",
    15: "G S C P T A",
    16: "T S P G C A",
    17: "T S C A P G",
    18: "T P S C A G",
}
"""The eighteen cards as ``shared/data/expansion-facts.md`` gives them, row 1 to row 6
(P pavilion, S seraglio, A arcades, C chambers, G garden, T tower)."""

LETTERS = {"P": "pavilion", "S": "seraglio", "A": "arcades", "C": "chambers", "G": "garden", "T": "tower"}


def game(players: int = 3, seed: int = 11, cards: Sequence[int] | None = (5, 12, 18), modules: Sequence[str] = (ID,)) -> GameState:
    """A new game; with ``cards`` the three slots hold these cards (round 1, 2, 3)."""
    state, _ = new_game(GameConfig(players=players, modules=tuple(modules)), seed)
    if cards is not None:
        state.mods[ID] = ScoreCardsState(tuple(cards))
    return state


def _take_tile(state: GameState, code: str) -> int:
    """Take a tile out of the bag, the market or the neutral player's tiles (a market square
    gets the next bag tile)."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
    elif t in state.market:
        state.market[state.market.index(t)] = state.bag.pop()
    elif state.neutral is not None and t in state.neutral:
        state.neutral.remove(t)
        state.neutral.append(state.bag.pop())
    else:
        raise KeyError(f"{code} is not in the bag, on the market or with the neutral player")
    return t


def build(state: GameState, seat: int, codes: Iterable[str]) -> None:
    """Build these tiles into ``seat``'s Alhambra in a row east of the fountain (no building rule)."""
    city = state.players[seat].city
    x = max((geo.xy(q)[0] for q in city), default=0)
    for code in codes:
        x += 1
        city[geo.pos(x, 0)] = _take_tile(state, code)
    check_conservation(state)


def set_neutral(state: GameState, codes: Iterable[str]) -> None:
    """Give the neutral player (2 players) exactly these tiles; its old tiles go back into the bag."""
    assert state.neutral is not None
    state.bag[0:0] = state.neutral
    state.neutral = []
    state.neutral = [_take_tile(state, c) for c in codes]
    check_conservation(state)


def three_cities(state: GameState) -> None:
    """Seat 0: 2 towers, 1 garden; seat 1: 2 towers, 1 chambers; seat 2: 1 tower, 2 gardens."""
    build(state, 0, ["T11n", "T9ne", "G10"])
    build(state, 1, ["T12", "T13e", "C10"])
    build(state, 2, ["T11", "G11", "G12s"])


def scoring_card_next(state: GameState, code: str) -> None:
    """Put scoring card ``code`` (``S1``, ``S2``) on top of the draw pile."""
    cards = state.components.cards
    c = next(c for c in state.deck if cards[c].code == code)
    state.deck.remove(c)
    state.deck.append(c)


def take_first(state: GameState) -> tuple[GameState, list[Event]]:
    """The seat to act takes one card of the display: its turn ends and the display is refilled."""
    action = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, action, state.to_act)


def scored(events: Sequence[Event]) -> RoundScored:
    """The one ``RoundScored`` among ``events``."""
    (got,) = [e for e in events if isinstance(e, RoundScored)]
    return got
