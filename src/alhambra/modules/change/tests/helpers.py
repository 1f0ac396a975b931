"""Situations for the change tests (every card and tile stays in exactly one place; coins are
moved between the bag and the seats, never invented)."""

from __future__ import annotations

from alhambra.modules.change import ChangeState, change_slice, currency_of_token
from alhambra.state import GameState
from alhambra.testing import fresh_game

MARKET = ("G10", "S5sw", "A6sw", "C7sw")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow."""


def fresh(players: int = 3, seed: int = 3, modules: tuple[str, ...] = ("change",), turn_limit: int | None = None) -> GameState:
    """A new game with the market of :data:`MARKET` and every hand empty."""
    return fresh_game(players, seed, modules, MARKET, turn_limit)


def give_coins(state: GameState, seat: int, *tokens: str) -> None:
    """Move coins of these tokens from the bag to ``seat``."""
    for token in tokens:
        sl = change_slice(state)
        c = currency_of_token(token)
        bag = list(sl.bag)
        mine = list(sl.coins[seat])
        assert bag[c] > 0, f"no {token} coin left in the bag"
        bag[c] -= 1
        mine[c] += 1
        state.mods["change"] = sl.with_seat(seat, tuple(mine), tuple(bag))


def empty_bag(state: GameState, keep: tuple[int, ...] = (0, 0, 0, 0)) -> None:
    """Give every coin of the bag but ``keep`` (per currency) to the last seat."""
    sl = change_slice(state)
    last = state.config.players - 1
    moved = tuple(b - k for b, k in zip(sl.bag, keep, strict=True))
    mine = tuple(m + k for m, k in zip(sl.coins[last], moved, strict=True))
    state.mods["change"] = sl.with_seat(last, mine, keep)


def coins(state: GameState, seat: int) -> tuple[int, ...]:
    """The coins in front of ``seat`` per currency."""
    return change_slice(state).coins[seat]


def bag(state: GameState) -> tuple[int, ...]:
    return change_slice(state).bag


def set_slice(state: GameState, value: ChangeState) -> None:
    state.mods["change"] = value
