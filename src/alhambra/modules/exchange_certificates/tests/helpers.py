"""Situations for the exchange certificates tests (every card and tile stays in exactly one
place; currency tokens move between the centre and the boards, never invented)."""

from __future__ import annotations

from alhambra.modules.exchange_certificates import NO_CREDIT, certificates_slice
from alhambra.state import GameState
from alhambra.testing import fresh_game

ID = "exchange_certificates"
MARKET = ("T12", "S5sw", "A6sw", "A4nes")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow."""


def fresh(players: int = 3, seed: int = 3, modules: tuple[str, ...] = (ID,), turn_limit: int | None = None) -> GameState:
    """A new game with the market of :data:`MARKET` and every hand empty."""
    return fresh_game(players, seed, modules, MARKET, turn_limit)


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
