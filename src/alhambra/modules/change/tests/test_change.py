"""The rules of Change, one by one, with the rulebook's example."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from alhambra import apply, hooks, legal_actions, parse_action, state_from_json, state_to_json, view
from alhambra.actions import BuyBuilding
from alhambra.engine import money_of
from alhambra.errors import InvalidPayment
from alhambra.events import BuildingBought, Event, MarketTileAwarded
from alhambra.hooks import Module, Offer
from alhambra.modules.change import MODULE, ChangeGiven, ChangeState, change_slice, check_coins, components
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import check_conservation, finish_turn, set_hand

from .helpers import bag, coins, empty_bag, fresh, give_coins


def given(events: list[Event]) -> list[ChangeGiven]:
    return [e for e in events if isinstance(e, ChangeGiven)]


# ---------------------------------------------------------------------------------- components
def test_components_24_coins_6_per_currency_worth_1() -> None:
    comp = components()
    assert comp.coins == (6, 6, 6, 6) and comp.total == 24
    assert comp.coin_value == 1 and comp.overpaid_per_coin == 2
    assert comp.tokens == ("cb", "cg", "co", "cy")
    assert MODULE.component_assumptions == ()
    state = fresh()
    assert change_slice(state) == ChangeState((6, 6, 6, 6), ((0,) * 4,) * 3)


# ---------------------------------------------------------------------------------- when change is given
def test_rulebook_example_17_blue_for_a_garden_of_10_gives_3_coins() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["b9", "b8"])
    after, events = apply(state, parse_action("buy 1 b9+b8"), seat)
    (got,) = given(events)
    assert got.seat == seat and got.overpaid == 7 and got.due == 3 and len(got.coins) == 3
    assert sum(coins(after, seat)) == 3 and sum(bag(after)) == 21
    for token in got.coins:
        assert token in ("cb", "cg", "co", "cy")
    assert "takes 3 coins of change" in got.describe()
    assert got.reveals  # a blind draw: the server's undo never takes it back
    assert isinstance(after.pending[-1], PlaceTiles)  # the coins come at once, no decision
    check_coins(after)
    check_conservation(after)


@pytest.mark.parametrize(
    ("hand", "payment", "due"),
    [(["b9", "b1"], "b9+b1", 0), (["b9", "b2"], "b9+b2", 0), (["b9", "b3"], "b9+b3", 1), (["b9", "b5"], "b9+b5", 2)],
)
def test_one_coin_for_every_two_overpaid(hand: list[str], payment: str, due: int) -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, hand)
    after, events = apply(state, parse_action(f"buy 1 {payment}"), seat)
    overpaid = sum(int(c[1:]) for c in hand) - 10
    if due == 0:
        assert not given(events) and sum(coins(after, seat)) == 0
        if overpaid == 0:
            assert after.pending[-1] == ChooseAction(seat, 1, ("G10",))  # exact: another action
    else:
        assert [(e.overpaid, e.due, len(e.coins)) for e in given(events)] == [(overpaid, due, due)]
        assert sum(coins(after, seat)) == due


def test_deliberately_paying_far_too_much_is_allowed() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["b9", "b8", "b7", "b6"])
    buys = {str(a) for a in legal_actions(state, "buy")}
    assert "buy 1 b9+b8+b7+b6" in buys  # 30 for 10
    after, events = apply(state, parse_action("buy 1 b9+b8+b7+b6"), seat)
    assert [e.due for e in given(events)] == [10] and sum(coins(after, seat)) == 10


def test_an_empty_bag_gives_no_change_and_a_nearly_empty_one_what_it_holds() -> None:
    state = fresh()
    seat = state.current
    empty_bag(state)
    set_hand(state, seat, ["b9", "b8"])
    after, events = apply(state, parse_action("buy 1 b9+b8"), seat)
    (got,) = given(events)
    assert got.coins == () and got.due == 3 and "no change" in got.describe()
    assert sum(coins(after, seat)) == 0
    state = fresh()
    empty_bag(state, keep=(0, 1, 0, 1))
    set_hand(state, seat, ["b9", "b8"])
    after, events = apply(state, parse_action("buy 1 b9+b8"), seat)
    (got,) = given(events)
    assert sorted(got.coins) == ["cg", "cy"] and "only 2 of 3" in got.describe()
    assert bag(after) == (0, 0, 0, 0) and coins(after, seat) == (0, 1, 0, 1)


def test_the_coins_drawn_are_random_but_fixed_by_the_seed() -> None:
    draws = set()
    for seed in range(8):
        state = fresh(seed=seed)
        seat = state.current
        set_hand(state, seat, ["b9", "b8", "b7", "b6"])
        a, ea = apply(state, parse_action("buy 1 b9+b8+b7+b6"), seat)
        b, eb = apply(state, parse_action("buy 1 b9+b8+b7+b6"), seat)
        assert ea == eb and change_slice(a) == change_slice(b)
        draws.add(given(ea)[0].coins)
    assert len(draws) > 1


# ---------------------------------------------------------------------------------- coins as money
def test_coins_pay_like_money_of_their_currency_and_go_back_to_the_bag() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["b8", "g4"])
    give_coins(state, seat, "cb", "cb", "cg")
    buys = {str(a) for a in legal_actions(state, "buy")}
    assert "buy 1 cb+cb+b8" in buys  # exactly 10
    assert "buy 2 cg+g4" in buys  # exactly 5 on the green square
    assert not any("cg" in b and b.startswith("buy 1") for b in buys)
    with pytest.raises(InvalidPayment, match="takes blue"):
        apply(state, BuyBuilding(1, ("cg", "b8", "cb")), seat)
    with pytest.raises(InvalidPayment, match="do not hold"):
        apply(state, BuyBuilding(1, ("cb", "cb", "cb", "b8")), seat)
    with pytest.raises(InvalidPayment, match="only 9"):
        apply(state, BuyBuilding(1, ("cb", "b8")), seat)
    after, events = apply(state, parse_action("buy 1 cb+cb+b8"), seat)
    bought = events[0]
    assert isinstance(bought, BuildingBought) and bought.exact and bought.payment == ("cb", "cb", "b8")
    assert coins(after, seat) == (0, 1, 0, 0) and bag(after) == (6, 5, 6, 6)
    assert after.pending[-1] == ChooseAction(seat, 1, ("G10",))
    check_coins(after)


def test_an_overpayment_with_coins_gives_change_after_the_coins_are_back() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["b9", "b3"])
    give_coins(state, seat, "cb")
    empty_bag(state, keep=(0, 0, 0, 0))
    # 9 + 3 + the coin = 13 for 10: the coin is back in the bag before the change is drawn
    after, events = apply(state, parse_action("buy 1 cb+b9+b3"), seat)
    assert [e.coins for e in given(events)] == [("cb",)]
    assert coins(after, seat) == (1, 0, 0, 0)


def test_coins_count_in_the_end_of_game_hand_out() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["o3"])
    give_coins(state, seat, "co", "co", "cy")
    assert money_of(state, seat, 2) == 5 and money_of(state, seat, 3) == 1 and money_of(state, seat, 0) == 0
    assert MODULE.held_money(state, seat, 4) == 0  # a module currency (diamonds) has no coins


def test_coins_decide_who_gets_a_last_market_tile() -> None:
    state = fresh()
    seat = state.current
    a, b = (seat + 1) % 3, (seat + 2) % 3
    state.players[a].reserve.extend(state.bag)  # the bag is empty: the game ends after this turn
    state.bag.clear()
    set_hand(state, seat, ["b9", "b1"])
    set_hand(state, a, ["o3"])
    set_hand(state, b, ["o2"])
    give_coins(state, b, "co", "co")
    state, _ = apply(state, parse_action("buy 1 b9+b1"), seat)  # exact: square 1 stays empty
    state, events = finish_turn(state)
    awarded = [e for e in events if isinstance(e, MarketTileAwarded) and e.square == 3]
    assert awarded == [MarketTileAwarded(b, 3, "A6sw")]  # orange: 2 + two coins beat 3
    check_conservation(state)


def test_the_vizier_may_pay_exactly_with_coins_and_gets_no_change() -> None:
    state = fresh(modules=("change", "vizier"))
    seat = state.current
    other = (seat + 1) % 3
    set_hand(state, other, ["b8"])
    give_coins(state, other, "cb", "cb")
    state, _ = finish_turn(state)
    assert state.to_act == other and state.pending[-1].module is None
    acts = {str(a) for a in legal_actions(state)}
    assert "vizier buy 1 cb+cb+b8" in acts
    after, events = apply(state, parse_action("vizier buy 1 cb+cb+b8"), other)
    assert not given(events) and coins(after, other) == (0, 0, 0, 0) and bag(after)[0] == 6


def test_coins_pay_with_an_exchange_card() -> None:
    state = fresh(modules=("change", "currency_exchange"))
    seat = state.current
    set_hand(state, seat, ["xbg", "b8"])
    give_coins(state, seat, "cg", "cg")
    buys = {str(a) for a in legal_actions(state, "buy")}
    assert "buy 1 cg+cg+xbg+b8" in buys
    after, events = apply(state, parse_action("buy 1 cg+cg+xbg+b8"), seat)
    assert isinstance(events[0], BuildingBought) and events[0].exact
    assert coins(after, seat) == (0, 0, 0, 0)


# ---------------------------------------------------------------------------------- only for buildings
class ProbeOffers(Module):
    """Sells a building without a tile (like completing a building site) and a thing that is no building, both for 4 blue."""

    id = "zz_change_probe"

    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        return [
            Offer("qsite", self.id, 4, (frozenset({0}),), building=True, label="a probe building"),
            Offer("qthing", self.id, 4, (frozenset({0}),), label="a probe thing"),
        ]


@pytest.fixture
def probe() -> Iterator[None]:
    hooks._CACHE["zz_change_probe"] = ProbeOffers()
    yield
    del hooks._CACHE["zz_change_probe"]
    for key in [k for k in hooks._BY_CONFIG if "zz_change_probe" in k]:
        del hooks._BY_CONFIG[key]
    for key2 in [k for k in hooks._USERS if "zz_change_probe" in k[0]]:
        del hooks._USERS[key2]


@pytest.mark.usefixtures("probe")
def test_change_only_for_buildings() -> None:
    state = fresh(modules=("change", "zz_change_probe"))
    seat = state.current
    set_hand(state, seat, ["b9"])
    after, events = apply(state, parse_action("buy qsite b9"), seat)
    assert [e.due for e in given(events)] == [2]
    after, events = apply(state, parse_action("buy qthing b9"), seat)
    assert not given(events) and sum(coins(after, seat)) == 0


def test_no_change_for_a_sultan_card() -> None:
    from alhambra.modules.power_of_the_sultan import SultanState, sultan_slice

    state = fresh(modules=("change", "power_of_the_sultan"))
    seat = state.current
    code = (
        "sub1"
        if any(c.code == "sub1" for c in state.components.cards)
        else next(c.code for c in state.components.cards if c.kind == "sultan" and c.currency == 0)
    )
    card = next(i for i, c in enumerate(state.components.cards) if c.code == code)
    state.deck.remove(card)
    sl = sultan_slice(state)
    state.mods["power_of_the_sultan"] = SultanState(((code, "garden"),), sl.owned, sl.used, sl.held)
    set_hand(state, seat, ["b9", "b2"])
    after, events = apply(state, parse_action(f"buy {code} b9+b2"), seat)
    assert not given(events) and sum(coins(after, seat)) == 0
    check_conservation(after)


# ---------------------------------------------------------------------------------- notation, views, persistence
def test_payments_with_coins_round_trip_in_notation() -> None:
    hooks.load_module("vizier")  # registers the vizier's notation
    for text in ("buy 1 cb+cb+b8", "buy 2 cg+g4", "vizier buy 3 co+o5", "buy Zb1 cb+b3"):
        a = parse_action(text)
        assert str(a) == text and parse_action(str(a)) == a
    assert str(parse_action("buy 1 b8+cb+cb")) == "buy 1 cb+cb+b8"  # coins first, like special cards
    e = ChangeGiven(1, 7, 3, ("cb", "cy", "cy"))
    assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_state_and_view_are_public_and_round_trip() -> None:
    state = fresh()
    seat = state.current
    give_coins(state, seat, "cb", "co", "co")
    data = state_to_json(state)
    back = state_from_json(json.loads(json.dumps(data)))
    assert change_slice(back) == change_slice(state) and state_to_json(back) == data
    views = [view(state, v)["module_views"]["change"] for v in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    assert views[0]["bag"] == {"blue": 5, "green": 6, "orange": 4, "yellow": 6} and views[0]["bag_count"] == 21
    assert views[0]["coins"][seat] == {"blue": 1, "green": 0, "orange": 2, "yellow": 0}
    assert MODULE.slice_from_view(views[0], state.config) == change_slice(state)
    sources = view(state, None)["seats"][seat]["money_sources"]
    assert sorted((s["token"], s["currency"], s["value"], s["module"]) for s in sources) == [
        ("cb", "blue", 1, "change"),
        ("co", "orange", 1, "change"),
        ("co", "orange", 1, "change"),
    ]
    with pytest.raises(Exception, match="bad"):
        ChangeState.from_dict({"bag": [1, 2, 3], "coins": []})


def test_no_view_depends_on_what_the_bag_will_give() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["b9", "b8"])
    other = state.copy()
    other.seed += 1  # the next coins drawn would differ
    for v in (None, 0, 1, 2):
        assert json.dumps(view(state, v)) == json.dumps(view(other, v))
