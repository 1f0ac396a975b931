"""Situations for the thieves tests, built on real game states (cards and thieves are moved, never invented)."""

from __future__ import annotations

from collections.abc import Sequence

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra.actions import TakeMoney
from alhambra.components import CURRENCY_LETTERS
from alhambra.events import Event
from alhambra.modules.thieves import ALL_THIEVES, ThievesState
from alhambra.state import BetweenTurns, ChooseAction, GameState
from alhambra.testing import set_hand


def fresh(players: int = 4, seed: int = 3, modules: tuple[str, ...] = ("thieves",), turn_limit: int | None = None) -> GameState:
    """A new game with every hand of money empty."""
    state, _ = new_game(GameConfig(players=players, modules=modules, turn_limit=turn_limit), seed)
    for s in range(players):
        set_hand(state, s, [])
    return state


def thieves(state: GameState) -> ThievesState:
    value = state.mods["thieves"]
    assert isinstance(value, ThievesState)
    return value


def letters(currencies: Sequence[int]) -> str:
    return "".join(CURRENCY_LETTERS[c] for c in currencies)


def set_thieves(state: GameState, hands: dict[int, str]) -> None:
    """Give these seats exactly these thieves (currency letters, ``"bbg"``); every other seat's
    thieves and the rest go aside (the played ones stay played)."""
    value = thieves(state)
    pool = list(ALL_THIEVES)
    for _, c in value.played:
        pool.remove(c)
    new: list[tuple[int, ...]] = []
    for s in range(state.config.players):
        mine = [CURRENCY_LETTERS.index(ch) for ch in hands.get(s, "")]
        for c in mine:
            pool.remove(c)  # ValueError: not that many thieves of this currency are left
        new.append(tuple(sorted(mine)))
    state.mods["thieves"] = ThievesState(tuple(new), tuple(sorted(pool)), value.played)


def set_display(state: GameState, codes: Sequence[str]) -> None:
    """Lay these cards (codes) on the 4 display slots; the old display cards go under the draw
    pile, the wanted ones come from the draw pile or the discard pile."""
    cards = state.components.cards
    old = [c for c in state.display if c >= 0]
    state.display = [-1] * len(state.display)
    state.deck[0:0] = old
    for i, code in enumerate(codes):
        for pile in (state.deck, state.discard):
            found = next((c for c in pile if cards[c].code == code), None)
            if found is not None:
                pile.remove(found)
                state.display[i] = found
                break
        else:
            raise KeyError(f"no free card {code}")


def display_codes(state: GameState) -> list[str]:
    return [state.card_code(c) if c >= 0 else "-" for c in state.display]


def put_on_deck_top(state: GameState, codes: Sequence[str]) -> None:
    """Make these cards the next drawn from the money pile, first code drawn first."""
    cards = state.components.cards
    ids = []
    for code in codes:
        c = next(c for c in state.deck if cards[c].code == code)
        state.deck.remove(c)
        ids.append(c)
    state.deck.extend(reversed(ids))


def end_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single card of the display, which ends the turn."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, take, top.seat)


def window(state: GameState) -> BetweenTurns:
    top = state.pending[-1]
    assert isinstance(top, BetweenTurns), top
    return top


def asked(state: GameState) -> list[int]:
    """The seats the open window asks, in order (the one asked now first)."""
    top = window(state)
    return [top.seat, *top.later]


def order_after(state: GameState) -> list[int]:
    """Seats in priority order after the turn of ``state.current``: next to play first."""
    n = state.config.players
    return [(state.current + 1 + i) % n for i in range(n)]
