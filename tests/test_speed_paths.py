"""The fast paths play the same games: ``apply_unchecked`` without events against ``apply``, and
the memoised purchase lists (all, exact and minimal payments) against a plain enumeration."""

from __future__ import annotations

import random

import pytest

from alhambra.actions import BuyBuilding
from alhambra.engine import (
    PAYMENTS,
    _enumerate_payments,
    apply,
    apply_unchecked,
    can_buy,
    legal_actions,
    new_game,
    purchase_options,
)
from alhambra.errors import IllegalAction
from alhambra.policies import kind_random, uniform_random
from alhambra.serialize import state_to_json
from alhambra.state import ChooseAction, GameConfig, GameState


@pytest.mark.parametrize(
    ("players", "modules", "seed"),
    [
        (4, (), 1),
        (2, (), 2),
        (6, (), 3),
        (3, ("vizier", "currency_exchange"), 4),
        (4, ("power_of_the_sultan", "bonus_cards"), 5),  # modules that read the events of an action
        (3, ("street_traders", "master_builders"), 6),
        (2, ("bazaars", "thieves"), 7),
    ],
)
def test_the_checked_path_and_the_fast_path_without_events_play_the_same_game(players: int, modules: tuple[str, ...], seed: int) -> None:
    config = GameConfig(players=players, modules=modules)
    checked, _ = new_game(config, seed)
    fast, _ = new_game(config, seed)
    rng = random.Random(seed)
    steps = 0
    while not checked.is_over:
        action = kind_random(checked, rng) if steps % 3 else uniform_random(checked, rng)
        checked, events = apply(checked, action)
        assert apply_unchecked(fast, action, events=False) == []
        assert state_to_json(fast) == state_to_json(checked)
        assert events, "apply always reports what happened"
        steps += 1
    assert fast.is_over and fast.scores == checked.scores


def _reference_buys(state: GameState, payments: str) -> list[BuyBuilding]:
    """Every purchase of the market squares by the plain enumeration, filtered afterwards."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    comp = state.components
    hand = state.players[top.seat].hand
    out = []
    for sq in range(4):
        t = state.market[sq]
        if t < 0:
            continue
        price = comp.tile_price[t]
        for pay in _enumerate_payments(comp, hand, frozenset((state.market_currency[sq],)), price, ()):
            values = [comp.money_value[c] for c in pay]
            total = sum(values)
            if payments == "exact" and total != price:
                continue
            if payments == "minimal" and total - min(values) >= price:
                continue
            out.append(BuyBuilding(sq + 1, pay))
    return out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_purchase_lists_are_the_plain_enumeration_in_its_order(players: int) -> None:
    checked = 0
    for seed in range(6):
        state, _ = new_game(GameConfig(players=players), 100 + seed)
        rng = random.Random(seed)
        while not state.is_over:
            top = state.pending[-1]
            if isinstance(top, ChooseAction):
                for payments in PAYMENTS:
                    assert legal_actions(state, "buy", payments=payments) == _reference_buys(state, payments), payments
                full = legal_actions(state)
                minimal = legal_actions(state, payments="minimal")
                assert minimal == [a for a in full if not isinstance(a, BuyBuilding) or a in set(_reference_buys(state, "minimal"))]
                for square in range(1, 5):
                    assert can_buy(state, square) == any(a.square == square for a in _reference_buys(state, "all"))
                assert purchase_options(state, top.seat, exact=True) == _reference_buys(state, "exact")
                checked += 1
            apply_unchecked(state, kind_random(state, rng), events=False)
    assert checked > 100


def test_payments_must_be_a_known_mode() -> None:
    state, _ = new_game(GameConfig(players=2), 1)
    with pytest.raises(ValueError):
        legal_actions(state, "buy", payments="cheap")
    assert not can_buy(state, 5)


def test_minimal_payments_of_a_module_game_leave_nothing_out() -> None:
    """With payment options (exchange cards) the minimal list is the full list without the
    payments from which a money card could be left out, in the same order."""
    config = GameConfig(players=3, modules=("currency_exchange",))
    for seed in range(4):
        state, _ = new_game(config, seed)
        rng = random.Random(seed)
        while not state.is_over:
            if isinstance(state.pending[-1], ChooseAction):
                comp = state.components
                full = [a for a in legal_actions(state, "buy") if isinstance(a, BuyBuilding)]
                minimal = [a for a in legal_actions(state, "buy", payments="minimal") if isinstance(a, BuyBuilding)]
                keep = []
                for a in full:
                    values = [comp.money_value[c] for c in a.payment if comp.money_value.get(c)]
                    price = comp.tile_price[state.market[a.square - 1]]
                    if sum(values) - min(values) < price:
                        keep.append(a)
                assert minimal == keep
                for a in minimal:  # and each of them is accepted
                    try:
                        apply(state, a)
                    except IllegalAction as e:  # pragma: no cover - the assertion below reports it
                        raise AssertionError(f"{a} refused: {e}") from None
            apply_unchecked(state, kind_random(state, rng), events=False)


@pytest.mark.parametrize("modules", [(), ("vizier",), ("currency_exchange",)])
def test_canonical_actions_from_minimal_payments_are_the_filtered_legal_actions(modules: tuple[str, ...]) -> None:
    from alhambra.bots.greedy import canonical_actions

    for seed in range(3):
        state, _ = new_game(GameConfig(players=3, modules=modules), 40 + seed)
        rng = random.Random(seed)
        while not state.is_over:
            assert canonical_actions(state) == canonical_actions(state, legal_actions(state))
            apply_unchecked(state, kind_random(state, rng), events=False)
