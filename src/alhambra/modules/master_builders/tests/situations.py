"""Building situations for the master builders tests (every card and tile stays in one place)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from alhambra import GameConfig, city as geo, new_game
from alhambra.modules.master_builders import MasterBuildersState
from alhambra.state import GameState
from alhambra.testing import set_hand

MB = "master_builders"


def fresh(players: int = 5, seed: int = 3, modules: tuple[str, ...] = (MB,)) -> GameState:
    """A new game (5 players by default: no card is set aside, so every card can be arranged)."""
    state, _ = new_game(GameConfig(players=players, modules=modules), seed)
    return state


def slice_of(state: GameState) -> MasterBuildersState:
    value = state.mods[MB]
    assert isinstance(value, MasterBuildersState)
    return value


def set_secret(state: GameState, seat: int, codes: Sequence[str]) -> None:
    """Mark cards of these faces in ``seat``'s hand as its secret (dealt face down) cards."""
    hand = state.players[seat].hand
    mine: list[int] = []
    for code in codes:
        mine.append(next(c for c in hand if state.card_code(c) == code and c not in mine))
    sl = slice_of(state)
    secret = list(sl.secret)
    secret[seat] = tuple(mine)
    state.mods[MB] = replace(sl, secret=tuple(secret))


def clear_hands(state: GameState) -> None:
    """Every hand empty (the cards go under the draw pile), no secret cards."""
    for s in range(state.config.players):
        set_hand(state, s, [])
    state.mods[MB] = replace(slice_of(state), secret=tuple(() for _ in state.players))


def arrange(state: GameState, seat: int, hand: Sequence[str], secret: Sequence[str] = ()) -> None:
    """Give ``seat`` exactly ``hand``; the cards of ``secret`` (faces) among them were dealt face down."""
    set_hand(state, seat, hand)
    set_secret(state, seat, secret)


def set_display(state: GameState, codes: Sequence[str]) -> None:
    """Lay these cards on the display (the old ones go under the draw pile)."""
    old = [c for c in state.display if c >= 0]
    state.deck[0:0] = old
    new: list[int] = []
    for code in codes:
        c = next(c for c in reversed(state.deck) if state.card_code(c) == code and c not in new)
        state.deck.remove(c)
        new.append(c)
    state.display = new + [-1] * (4 - len(new))


def take_tile(state: GameState, code: str) -> int:
    """Take a tile out of the bag or off the market (a market square is refilled from the bag)."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
    else:
        i = state.market.index(t)
        state.market[i] = state.bag.pop()
    return t


def build(state: GameState, seat: int, code: str, x: int, y: int) -> None:
    """Put a tile into ``seat``'s Alhambra (no rule check)."""
    state.players[seat].build(geo.pos(x, y), take_tile(state, code))


def to_reserve(state: GameState, seat: int, code: str) -> None:
    """Put a tile on ``seat``'s reserve board."""
    state.players[seat].reserve.append(take_tile(state, code))
