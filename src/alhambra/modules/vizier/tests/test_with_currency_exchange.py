"""The vizier together with the currency exchange cards."""

from __future__ import annotations

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra.actions import PlaceBuilding, TakeMoney
from alhambra.errors import InvalidPayment
from alhambra.modules.vizier import VizierBuy, VizierUsed
from alhambra.state import BetweenTurns, GameState
from alhambra.testing import check_conservation, play_random_game, set_hand, set_market


def after_first_turn(seed: int = 5) -> tuple[GameState, int]:
    """A 3-player game with both modules after the first turn; the next seat holds b7, b2, y9, xby."""
    state, _ = new_game(GameConfig(players=3, modules=("currency_exchange", "vizier")), seed)
    set_market(state, 1, "P7e")
    set_market(state, 4, "G11")
    set_market(state, 2, "S9")
    set_market(state, 3, "C11")
    nxt = (state.current + 1) % 3
    for s in range(3):
        set_hand(state, s, [])
    set_hand(state, nxt, ["b7", "b2", "y9", "xby"])
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    state, _ = apply(state, take)
    return state, nxt


def test_the_vizier_can_pay_exactly_with_an_exchange_card() -> None:
    state, nxt = after_first_turn()
    top = state.pending[-1]
    assert isinstance(top, BetweenTurns) and top.seat == nxt
    acts = legal_actions(state)
    assert VizierBuy(4, ("xby", "b2", "y9")) in acts  # garden 11 on the yellow square
    assert VizierBuy(1, ("b7",)) in acts  # pavilion 7 on the blue square
    assert VizierBuy(1, ("xby", "b7")) in acts  # allowed, but the card is wasted
    assert all(isinstance(a, VizierBuy) and "xby" in a.payment for a in acts if isinstance(a, VizierBuy) and a.square == 4)
    with pytest.raises(InvalidPayment, match="exact"):
        apply(state, VizierBuy(4, ("xby", "b7", "y9")))  # 16 for an 11
    with pytest.raises(InvalidPayment):
        apply(state, VizierBuy(4, ("b2", "y9")))  # blue money on the yellow square needs the card
    state, events = apply(state, VizierBuy(4, ("xby", "b2", "y9")))
    assert events[0] == VizierUsed(nxt, 4, "G11", ("xby", "b2", "y9"))
    assert sorted(state.card_code(c) for c in state.discard[-3:]) == ["b2", "xby", "y9"]
    state, _ = apply(state, PlaceBuilding("G11", "reserve"))
    check_conservation(state)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_both_modules_finish(players: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=("vizier", "currency_exchange")), seed=200 + players)
    assert game.state.outcome == "finished"
    assert game.actions["vizier buy"] > 0
    texts = [str(a) for a in game.record.actions]
    assert any(t.startswith("take x") for t in texts)  # exchange cards were taken
    assert any(t.startswith(("buy", "vizier buy")) and " x" in t for t in texts)  # ... and spent on purchases
