"""Situations for the invaders tests, built by moving real tiles and cards (never inventing them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra import city as geo
from alhambra.actions import TakeMoney
from alhambra.events import Event, RoundScored
from alhambra.modules.invaders.module import MODULE_ID, invaders
from alhambra.state import ChooseAction, GameState
from alhambra.testing import fresh_game, set_hand, set_market

ID = MODULE_ID
MARKET = ("P4es", "S5sw", "A6sw", "C7sw")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow."""


def fresh(
    players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), market: Sequence[str] = MARKET, face_up: bool = False
) -> GameState:
    """A new game with the invaders (and ``modules``; ``face_up``: the variation), the market
    ``market`` and every hand empty."""
    if not face_up:
        return fresh_game(players, seed, (ID, *modules), market=market)
    state, _ = new_game(GameConfig(players=players, modules=(ID, *modules), options=((ID, "face_up", True),)), seed)
    for sq, code in enumerate(market, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    return state


def take_tile(state: GameState, code: str) -> int:
    """Take ``code`` out of the bag, a market square (refilled from the bag) or the neutral
    player's tiles (replaced from the bag); return its id."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
    elif t in state.market:
        state.market[state.market.index(t)] = state.bag.pop()
    elif state.neutral is not None and t in state.neutral:
        state.neutral[state.neutral.index(t)] = state.bag.pop()
    else:
        raise KeyError(f"{code} is not in the bag, on the market or with the neutral player")
    return t


def build(state: GameState, seat: int, layout: Mapping[tuple[int, int], str]) -> None:
    """Put these tiles (codes) into ``seat``'s Alhambra at (x, y), y growing southwards (in
    place, no building rule checked)."""
    city = state.players[seat].city
    for (x, y), code in layout.items():
        assert geo.pos(x, y) not in city
        city[geo.pos(x, y)] = take_tile(state, code)


def set_scouts(state: GameState, scouts: Sequence[str]) -> None:
    """The face-up scouts are ``scouts`` (the others go to the pile)."""
    sl = invaders(state)
    every = list(sl.scouts) + list(sl.pile)
    assert set(scouts) <= set(every)
    state.mods[ID] = replace(sl, scouts=tuple(scouts), pile=tuple(k for k in every if k not in scouts))


def set_top(state: GameState, direction: str | None, known: Sequence[int] = ()) -> None:
    """The top invasion card is ``direction`` (None: not drawn yet), looked at by ``known``."""
    sl = invaders(state)
    assert direction is None or direction in sl.left()
    n = state.config.players
    state.mods[ID] = replace(sl, top=direction, known=tuple(s in known for s in range(n)))


def scoring_card_next(state: GameState) -> None:
    """The next card drawn from the draw pile is the lower scoring card still in it."""
    cards = state.components.cards
    c = min((c for c in state.deck if cards[c].kind == "scoring"), key=lambda c: cards[c].value)
    state.deck.remove(c)
    state.deck.append(c)


def take_first(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single card of the display (its turn ends)."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, take, top.seat)


def score_next_round(state: GameState) -> tuple[GameState, list[Event]]:
    """Draw a scoring card at the end of the current seat's turn: the next round is scored."""
    scoring_card_next(state)
    state, events = take_first(state)
    assert len([e for e in events if isinstance(e, RoundScored)]) == 1
    return state, events
