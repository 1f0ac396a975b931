"""Change and the exchange certificates with the other money modules of the Big Box: diamonds
("Change is also given if too many diamonds are paid") and the caravanserai (its cards are no
buildings: no change; its markers are money outside the hand beside the coins and the credit)."""

from __future__ import annotations

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action
from alhambra.engine import apply_unchecked
from alhambra.events import BuildingBought, Event, ItemBought
from alhambra.hooks import load_module
from alhambra.modules.change import ChangeGiven, check_coins
from alhambra.testing import play_random_game, set_hand

from .helpers import coins, fresh, give_coins

MONEY = ("caravanserai", "change", "diamonds", "exchange_certificates")


def test_too_many_diamonds_paid_give_change() -> None:
    state = fresh(modules=("change", "diamonds"))
    seat = state.current
    set_hand(state, seat, ["d9"])
    after, events = apply(state, parse_action("buy 2 d9"), seat)  # 9 diamonds for the 5 seraglio
    assert [(e.overpaid, len(e.coins)) for e in events if isinstance(e, ChangeGiven)] == [(4, 2)]
    assert sum(coins(after, seat)) == 2


def test_too_many_diamonds_paid_may_be_stored() -> None:
    from alhambra.modules.exchange_certificates import StoreChoice

    state = fresh(modules=("change", "diamonds", "exchange_certificates"))
    seat = state.current
    set_hand(state, seat, ["d9"])
    after, _ = apply(state, parse_action("buy 2 d9"), seat)
    assert after.pending[-1] == StoreChoice(seat, 4, 2)


def test_coins_never_mix_with_diamonds() -> None:
    state = fresh(modules=("change", "diamonds"))
    seat = state.current
    set_hand(state, seat, ["d4"])
    give_coins(state, seat, "cg")
    buys = {str(a) for a in legal_actions(state, "buy")}
    assert "buy 2 cg+d4" not in buys  # 4 diamonds + a green coin would be exactly 5: refused
    assert "buy 2 d4" not in buys  # too little alone


def check_purchases(events: list[Event]) -> tuple[int, int]:
    """Every change and every stored credit follows a building purchase (never a caravanserai
    card); returns how many coins were given and credits stored."""
    items = set(load_module("caravanserai").notation_items(GameConfig(players=3, modules=MONEY)))
    last: Event | None = None
    given = stored = 0
    for e in events:
        if isinstance(e, BuildingBought | ItemBought):
            last = e
        elif isinstance(e, ChangeGiven) or type(e).__name__ == "CreditStored":
            assert isinstance(last, BuildingBought) or (isinstance(last, ItemBought) and last.item not in items), (e, last)
            given += len(e.coins) if isinstance(e, ChangeGiven) else 0
            stored += 0 if isinstance(e, ChangeGiven) else 1
    return given, stored


@pytest.mark.parametrize("players", [3, 5])
def test_random_games_with_every_money_module(players: int) -> None:
    config = GameConfig(players=players, modules=(*MONEY, "currency_exchange", "vizier"))
    game = play_random_game(config, seed=1100 + players, try_every_action=False)
    assert game.state.outcome == "finished"
    given, stored = check_purchases(game.events)
    assert given > 0 and stored > 0
    state, _ = new_game(config, game.record.seed)
    for a in game.record.actions:
        apply_unchecked(state, a)
        check_coins(state)
    paid = [str(a) for a in game.record.actions if str(a).startswith(("buy", "vizier buy"))]
    assert any(" c" in p or "+c" in p for p in paid)  # coins or credit paid
