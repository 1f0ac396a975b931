"""Bazaars with the vizier (an out-of-turn purchase) and the currency exchange cards."""

from __future__ import annotations

import pytest

from alhambra import apply, legal_actions, parse_action
from alhambra.actions import BuyItem
from alhambra.errors import IllegalAction
from alhambra.modules.vizier import VizierBuyItem, VizierState
from alhambra.state import BetweenTurns, ChooseAction, PlaceTiles
from alhambra.testing import check_conservation, set_hand

from .helpers import beside, finish_turn, fresh, lay_out


def test_the_vizier_buys_a_bazaar_with_exact_money() -> None:
    state = fresh(modules=("bazaars", "vizier"))
    lay_out(state, "Zg1")
    nxt = (state.current + 1) % 3
    set_hand(state, nxt, ["g5", "g4", "g1"])
    state, _ = finish_turn(state)
    top = state.pending[-1]
    assert isinstance(top, BetweenTurns) and top.seat == nxt
    acts = {str(a) for a in legal_actions(state)}
    assert {"vizier buy Zg1 g5", "vizier buy Zg1 g4+g1", "vizier buy 2 g5", "vizier buy 2 g4+g1"} <= acts
    assert "vizier buy Zg1 g5+g4" not in acts
    state, _ = apply(state, VizierBuyItem("Zg1", ("g4", "g1")), nxt)
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles) and top.seat == nxt and top.tiles == ("Zg1",)
    assert beside(state) == ()
    state, _ = apply(state, parse_action("place Zg1 0,1"), nxt)
    vz = state.mods["vizier"]
    assert isinstance(vz, VizierState) and not vz.awake[nxt]
    check_conservation(state)


def test_the_vizier_pays_the_price_of_the_tile_that_refilled_the_square() -> None:
    state = fresh(modules=("bazaars", "vizier"))
    seat = state.current
    lay_out(state, "Zg1")
    nxt = (seat + 1) % 3
    set_hand(state, seat, ["g5"])
    set_hand(state, nxt, ["g5"])
    state, _ = apply(state, parse_action("buy 2 g5"), seat)
    state, _ = finish_turn(state)
    # the market is full again: the new green tile sets the price
    assert isinstance(state.pending[-1], BetweenTurns)
    price = state.components.tile_price[state.market[1]]
    offers = [a for a in legal_actions(state) if isinstance(a, VizierBuyItem) and a.item == "Zg1"]
    assert (price == 5) == bool(offers)
    assert all(sum(int(c[1:]) for c in a.payment) == price for a in offers)


def test_an_exchange_card_pays_a_bazaar_when_the_money_is_exact() -> None:
    state = fresh(modules=("bazaars", "currency_exchange"))
    seat = state.current
    lay_out(state, "Zg1")
    set_hand(state, seat, ["xbg", "b3", "g2", "b4"])
    buys = {str(a) for a in legal_actions(state, "buy") if isinstance(a, BuyItem)}
    assert "buy Zg1 xbg+b3+g2" in buys
    assert "buy Zg1 xbg+b4+g2" not in buys  # 6: not exact
    state, _ = apply(state, parse_action("buy Zg1 xbg+b3+g2"), seat)
    top = state.pending[-1]
    assert isinstance(top, ChooseAction) and top.actions == 1 and top.bought == ("Zg1",)
    assert state.components.card_ids_by_code()["xbg"][0] in state.discard
    check_conservation(state)


def test_an_exchange_card_with_overpayment_is_refused() -> None:
    state = fresh(modules=("bazaars", "currency_exchange"))
    seat = state.current
    lay_out(state, "Zg1")
    set_hand(state, seat, ["xbg", "b4", "g2"])
    with pytest.raises(IllegalAction, match="exact money"):
        apply(state, parse_action("buy Zg1 xbg+b4+g2"), seat)
