"""What the table offers a seat with a huge hand: the minimal payments, not every subset.

A hand of 22 money cards has 36,861 legal purchases (7.8 MB of JSON in every message to the
browser); the table offers only the payments from which no card could be left out, while the
engine still accepts any legal payment.
"""

from __future__ import annotations

import json

from alhambra.actions import BuyBuilding, action_data
from alhambra.engine import apply, legal_actions, new_game
from alhambra.state import GameConfig, GameState
from alhambra.testing import set_hand
from alhambra.view import ALL_PAYMENTS_UP_TO, table_actions, view


def _with_hand(n: int) -> GameState:
    state, _ = new_game(GameConfig(players=3), seed=5)
    seat = state.to_act
    assert seat is not None
    # two of every blue card, then green ones: the blue payments alone are 3**9 multisets
    codes = ([f"b{v}" for v in range(1, 10) for _ in (0, 1)] + [f"g{v}" for v in range(1, 10)])[:n]
    set_hand(state, seat, codes)
    return state


def test_a_small_hand_is_offered_every_payment() -> None:
    state = _with_hand(ALL_PAYMENTS_UP_TO)
    assert [str(a) for a in table_actions(state)] == [str(a) for a in legal_actions(state)]


def test_a_huge_hand_is_offered_the_minimal_payments_of_every_purchase() -> None:
    state = _with_hand(22)
    seat = state.to_act
    assert seat is not None
    every = legal_actions(state)
    offered = table_actions(state)
    assert len(every) > 10_000 and len(offered) < 200
    assert set(map(str, offered)) <= set(map(str, every))
    # every market square that can be bought is still offered, and every other action too
    buys = [a for a in every if isinstance(a, BuyBuilding)]
    assert {a.square for a in buys} == {a.square for a in offered if isinstance(a, BuyBuilding)}
    assert [str(a) for a in every if not isinstance(a, BuyBuilding)] == [str(a) for a in offered if not isinstance(a, BuyBuilding)]
    # what leaves for the browser stays small
    v = view(state, seat)
    assert v["legal_actions"] == [str(a) for a in offered]
    assert len(json.dumps(v)) + len(json.dumps([action_data(a) for a in offered])) < 100_000
    # an overpayment that is not offered is still a legal move
    extra = next(a for a in buys if str(a) not in set(map(str, offered)))
    after, _ = apply(state, extra)
    assert len(after.players[seat].hand) == 22 - len(extra.payment)
