"""How the bots value the characters: an owned card at its worth for the rest of the game, the
lead of an auction at the card's worth less what the bid costs."""

from __future__ import annotations

from typing import Final

from ...state import GameState
from .components import BY_KEY, ENTERTAINER, data
from .state import Auction, CharacterPayment, chars

BOT_COIN: Final = 0.5
"""Bot estimate: points one coin of a bid is worth (what the bidder gives up)."""


def char_value(state: GameState, key: str) -> float:
    """What owning ``key`` is worth to the bots now, in points (less as the game goes on)."""
    if key == ENTERTAINER:
        return float(data().entertainer_points)
    left = max(0.0, (3 - state.rounds_scored) / 3)
    return BY_KEY[key].bot_value * left


def bot_values(state: GameState) -> list[float] | None:
    """Owned characters at their value for the rest of the game; the leader of an auction
    (or the winner about to pay) at the card's value less what the bid costs."""
    if state.outcome is not None:
        return None
    sl = chars(state)
    out = [0.0] * state.config.players
    for seat, mine in enumerate(sl.owned):
        for k in mine:
            out[seat] += char_value(state, k)
    for p in state.pending:
        if isinstance(p, Auction) and p.leader >= 0:
            out[p.leader] += char_value(state, p.character) - BOT_COIN * p.high
        elif isinstance(p, CharacterPayment):
            out[p.seat] += char_value(state, p.character) - BOT_COIN * p.bid
    return out
