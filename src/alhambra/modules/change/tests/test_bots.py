"""What coins are worth to the bots (``bot_values``) and the greedy bot's use of them."""

from __future__ import annotations

import random

from alhambra import apply, parse_action
from alhambra.bots.greedy import canonical_actions, dominated, greedy_action, seat_values
from alhambra.modules.change import MODULE, money_rate
from alhambra.testing import set_hand

from .helpers import coins, fresh, give_coins


def test_coins_are_worth_money_to_the_bots() -> None:
    state = fresh()
    seat = state.current
    assert MODULE.bot_values(state) is None
    base = seat_values(state)[seat]
    give_coins(state, seat, "cb", "co", "co")
    got = MODULE.bot_values(state)
    assert got is not None and got[seat] == 3 * money_rate(state) and sum(got) == got[seat]
    assert seat_values(state)[seat] > base
    assert 0.06 <= money_rate(state) <= 0.28


def test_payments_with_coins_are_not_dominated_unless_a_coin_is_too_many() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["b7", "b2"])
    give_coins(state, seat, "cb", "cb", "cb")
    assert not dominated(state, parse_action("buy 1 cb+cb+cb+b7"))  # exactly 10
    assert dominated(state, parse_action("buy 1 cb+cb+cb+b7+b2"))  # the 2 is one card too many
    assert not dominated(state, parse_action("buy 1 cb+b7+b2"))
    assert dominated(state, parse_action("buy 1 cb+cb+b7+b2"))  # a coin too many
    names = {str(a) for a in canonical_actions(state)}
    assert "buy 1 cb+cb+cb+b7" in names and "buy 1 cb+cb+b7+b2" not in names


def test_the_greedy_bot_pays_exactly_with_coins() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["b7"])
    give_coins(state, seat, "cb", "cb", "cb")
    choice = greedy_action(state, random.Random(3))
    assert str(choice) == "buy 1 cb+cb+cb+b7"
    after, _ = apply(state, choice, seat)
    assert coins(after, seat) == (0, 0, 0, 0)
