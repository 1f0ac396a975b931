"""The treasure chamber with the other money modules of the Big Box (issue 14): diamonds pay on
their own, change coins pay like money but no coin is given for chests, no overpayment is stored
on an exchange certificate, and whole games with all of them together keep every chest."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from alhambra import GameConfig, apply, legal_actions
from alhambra.actions import BuyItem
from alhambra.errors import InvalidPayment
from alhambra.modules.change import ChangeGiven, change_slice, currency_of_token
from alhambra.modules.exchange_certificates import StoreChoice
from alhambra.modules.treasure_chamber import chamber
from alhambra.state import GameState
from alhambra.testing import check_conservation, play_random_game

from .helpers import ID, check_chests, fresh, with_hand
from .test_games import _replay_checking_chests, prefer

G, T, P, A, C, S = "garden", "tower", "pavilion", "arcades", "chambers", "seraglio"
ROOMS3 = ([G, T, T, P], [A, C, S, G], [P, P, S, S])
MONEY = ("diamonds", "change", "exchange_certificates", "caravanserai")


def room_pays(state: GameState, item: str = "room1") -> set[frozenset[str]]:
    return {frozenset(a.payment) for a in legal_actions(state) if isinstance(a, BuyItem) and a.item == item}


def test_diamonds_pay_for_a_room_on_their_own_never_mixed() -> None:
    state = fresh(3, modules=("diamonds",), rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["d5", "d4", "b7", "g1"])
    pays = room_pays(state)
    assert frozenset({"d5", "d4"}) in pays and frozenset({"b7", "g1"}) in pays
    assert not any({"d5", "d4"} & p and {"b7", "g1"} & p for p in pays)
    with pytest.raises(InvalidPayment):
        apply(state, BuyItem("room1", ("b7", "d4")), s)
    after, _ = apply(state, BuyItem("room1", ("d4", "d5")), s)
    assert [after.components.cards[c].code for c in after.players[s].hand] == ["b7", "g1"]
    check_chests(after)
    check_conservation(after)


def test_change_coins_pay_for_chests_and_no_coin_is_given_for_them() -> None:
    state = fresh(3, modules=("change",), rooms=ROOMS3)
    s = state.current
    sl = change_slice(state)
    mine = list(sl.coins[s])
    bag = list(sl.bag)
    c = currency_of_token("cy")
    mine[c] += 1
    bag[c] -= 1
    state.mods["change"] = sl.with_seat(s, tuple(mine), tuple(bag))
    state = with_hand(state, s, ["b5", "g2", "o4"])
    pays = room_pays(state)
    assert frozenset({"b5", "g2", "cy"}) in pays  # the coin is money worth 1 of its currency
    after, events = apply(state, BuyItem("room1", ("b5", "o4")), s)  # overpaid by 1 and more: no change
    assert not any(isinstance(e, ChangeGiven) for e in events)
    assert change_slice(after).coins == change_slice(state).coins
    with_coin = next(a for a in legal_actions(state) if isinstance(a, BuyItem) and Counter(a.payment) == Counter(("b5", "g2", "cy")))
    after, events = apply(state, with_coin, s)
    assert change_slice(after).coins[s][c] == 0 and not any(isinstance(e, ChangeGiven) for e in events)
    check_chests(after)


def test_no_overpayment_is_stored_on_an_exchange_certificate_for_chests() -> None:
    state = fresh(3, modules=("exchange_certificates",), rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["b9", "g9"])
    after, _ = apply(state, BuyItem("room1", ("b9",)), s)  # overpaid by 1
    assert not any(isinstance(p, StoreChoice) for p in after.pending)
    assert after.current != s
    check_chests(after)


@pytest.mark.parametrize(("players", "seed"), [(2, 41), (4, 42)])
def test_random_games_with_every_money_module(players: int, seed: int) -> None:
    config = GameConfig(players=players, modules=(ID, *MONEY, "vizier"))
    game = play_random_game(config, seed=seed, prefer=prefer, try_every_action=False)
    _replay_checking_chests(game)
    assert game.state.outcome == "finished"
    bought = [a for a in game.record.actions if isinstance(a, BuyItem) and a.item.startswith("room")]
    assert bought
    assert sum(len(h) for h in chamber(game.state).homes) + len(chamber(game.state).neutral) > 0


def test_chests_survive_json_with_every_money_module() -> None:
    import json

    from alhambra import state_from_json, state_to_json

    state = fresh(2, modules=MONEY, rooms=ROOMS3)
    state.mods[ID] = replace(chamber(state), closed=True)
    data = json.loads(json.dumps(state_to_json(state)))
    assert chamber(state_from_json(data)) == chamber(state)
