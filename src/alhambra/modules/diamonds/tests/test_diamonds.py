"""Diamonds: the components, the setup, the rulebook's example, every payment rule and refusal,
the end-of-game hand-out, views, notation, persistence, the bots' tracker and the research
encoding."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import BuyBuilding, BuyItem, TakeMoney
from alhambra.bots.tracker import Tracker
from alhambra.chance import ChanceNeeded, chance_outcomes
from alhambra.engine import money_of, purchase_options
from alhambra.errors import InvalidPayment
from alhambra.events import BuildingBought, GameEnded, MarketTileAwarded
from alhambra.hooks import load_module
from alhambra.modules.diamonds import CARD_CODES, CARD_VALUES, MODULE, card_ids, diamond_currency, payable_squares
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import check_conservation, set_hand, set_market
from alhambra.view import catalogue, view_events

ID = "diamonds"
# squares 1-4 take blue, green, orange, yellow
EXAMPLE_MARKET = ("P7e", "S9", "A8n", "T11")
"""The rulebook's example: a light-blue building (pavilion), the red one for 9 (seraglio), a brown
one (arcades) and the tower on the yellow square."""


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (ID,), market: tuple[str, ...] = EXAMPLE_MARKET) -> GameState:
    """A new game with the market ``market`` and every hand empty."""
    state, _ = new_game(GameConfig(players=players, modules=modules), seed)
    for sq, code in enumerate(market, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    return state


def buys(state: GameState) -> list[BuyBuilding]:
    return [a for a in legal_actions(state) if isinstance(a, BuyBuilding)]


def codes(state: GameState, ids: list[int]) -> list[str]:
    return sorted(state.card_code(c) for c in ids)


# ---------------------------------------------------------------------------------- components
def test_ten_cards_valued_three_to_nine_in_a_fifth_currency() -> None:
    state = fresh()
    comp = state.components
    assert comp.currencies == ("blue", "green", "orange", "yellow", "diamond")
    assert diamond_currency(state.config) == 4
    ids = card_ids(state)
    assert len(ids) == 10
    assert sorted(comp.cards[c].value for c in ids) == list(CARD_VALUES) == [3, 4, 5, 5, 6, 6, 7, 7, 8, 9]
    assert {comp.cards[c].code for c in ids} == set(CARD_CODES) == {f"d{v}" for v in range(3, 10)}
    assert all(comp.cards[c].is_money and comp.cards[c].currency == 4 and comp.cards[c].module == ID for c in ids)
    cat = catalogue(state.config)
    assert cat["extra_currencies"] == ["diamond"]
    assert cat["cards"]["d5"] == {"kind": "money", "currency": "diamond", "value": 5, "module": ID}
    # the values are a documented component assumption, marked in the data file
    assert MODULE.component_assumptions and "3, 4, 5, 5, 6, 6, 7, 7, 8, 9" in MODULE.component_assumptions[0]
    assert MODULE.view(state, 0)["cards"][2] == {"code": "d5", "value": 5, "copies": 2, "assumed": True}
    assert load_module(ID) is MODULE


def test_same_cards_in_every_player_count() -> None:
    for players in (2, 6):
        state = fresh(players)
        assert len(card_ids(state)) == 10
        check_conservation(state)


# ---------------------------------------------------------------------------------- setup
def test_diamonds_are_shuffled_into_the_money_before_the_starting_money() -> None:
    dealt = in_display = 0
    for seed in range(60):
        state, events = new_game(GameConfig(players=4, modules=(ID,)), seed)
        check_conservation(state)
        start = events[0]
        starting = [c for hand in start.starting_money for c in hand]  # type: ignore[attr-defined]
        dealt += sum(c in CARD_CODES for c in starting)
        in_display += sum(state.card_code(c) in CARD_CODES for c in state.display if c >= 0)
        # every hand got at least 20 (diamonds count) and stopped as soon as it did
        comp = state.components
        for hand in start.starting_money:  # type: ignore[attr-defined]
            values = [comp.money_value[c] for c in hand]
            assert sum(values) >= 20 and sum(values[:-1]) < 20
    # 4 players are dealt about 4 x 4 of the 118 cards: about 1.4 diamonds a game
    assert 40 <= dealt <= 130
    assert in_display > 5


def test_the_starting_player_counts_diamonds_like_money() -> None:
    for seed in range(40):
        state, events = new_game(GameConfig(players=3, modules=(ID,)), seed)
        comp = state.components
        hands = events[0].starting_money  # type: ignore[attr-defined]
        if not any(c in CARD_CODES for hand in hands for c in hand):
            continue
        key = [(len(h), sum(comp.money_value[c] for c in h), s) for s, h in enumerate(hands)]
        assert state.current == min(key)[2]
        return
    pytest.fail("no deal with a diamond in the starting money")


def test_diamonds_are_drawn_like_money_in_explicit_chance_mode() -> None:
    tiles = ("P7e", "S9", "A8n", "T11")
    with pytest.raises(ChanceNeeded) as got:
        new_game(GameConfig(players=3, modules=(ID,)), 2, explicit_chance=True, decided=(("d9", "d5"), tiles))
    outcomes = dict(chance_outcomes(got.value.state, "card"))
    assert sum(outcomes.values()) == pytest.approx(1.0)
    left = 3 * 36 + 10 - 2  # the money of 3 players and the diamonds, less the two dealt
    assert outcomes["d5"] == pytest.approx(1 / left)  # one of the two d5 is dealt
    assert outcomes["d7"] == pytest.approx(2 / left)
    assert outcomes["b9"] == pytest.approx(3 / left)
    assert "d9" not in outcomes  # the only d9 is dealt


# ---------------------------------------------------------------------------------- the rulebook's example
def test_rulebook_example_five_and_four_diamonds() -> None:
    """5 + 4 diamonds pay exactly for the red building (9), or with overpayment for the brown or
    the light-blue one; they may not be combined with yellow money for the tower."""
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["d5", "d4", "y3"])
    legal = buys(state)
    assert BuyBuilding(2, ("d4", "d5")) in legal  # the red building (seraglio 9), exactly
    assert BuyBuilding(1, ("d4", "d5")) in legal  # the light-blue one (pavilion 7), overpaying
    assert BuyBuilding(3, ("d4", "d5")) in legal  # the brown one (arcades 8), overpaying
    assert not [a for a in legal if a.square == 4]  # the tower costs 11: 9 diamonds + 3 yellow may not be mixed
    with pytest.raises(InvalidPayment, match=r"square 4 takes yellow \(y\) money, not d4\+d5"):
        apply(state, parse_action("buy 4 y3+d5+d4"))
    after, events = apply(state, parse_action("buy 2 d5+d4"))
    assert BuildingBought(seat, 2, "S9", ("d4", "d5"), True) in events
    top = after.pending[-1]
    assert isinstance(top, ChooseAction) and top.seat == seat and top.bought == ("S9",)  # exact: another action
    assert codes(after, after.players[seat].hand) == ["y3"]
    assert {"d4", "d5"} <= {after.card_code(c) for c in after.discard}  # spent diamonds go to the discard pile
    check_conservation(after)
    # overpaying ends the action phase as with any money
    after, _ = apply(state, parse_action("buy 1 d5+d4"))
    assert isinstance(after.pending[-1], PlaceTiles)


# ---------------------------------------------------------------------------------- payments
def test_diamonds_pay_for_a_square_of_every_currency_on_their_own() -> None:
    state = fresh(market=("P4es", "S5sw", "A6sw", "C7sw"))
    seat = state.current
    set_hand(state, seat, ["d7"])
    assert sorted(a.square for a in buys(state)) == [1, 2, 3, 4]
    assert all(a.payment == ("d7",) for a in buys(state))
    for sq in (1, 2, 3, 4):
        after, events = apply(state, BuyBuilding(sq, ("d7",)))
        assert next(e for e in events if isinstance(e, BuildingBought)).exact == (sq == 4)
        check_conservation(after)


def test_several_diamonds_together_and_every_combination_listed() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["d3", "d4", "d5", "b7"])
    on_red = sorted(a.payment for a in buys(state) if a.square == 2)
    assert on_red == [("d3", "d4", "d5"), ("d4", "d5")]  # 9: d4+d5 exactly, all three overpaying; d3+d5 is short
    on_blue = sorted(a.payment for a in buys(state) if a.square == 1)
    assert ("b7",) in on_blue and ("d3", "d4") in on_blue and ("d3", "d4", "d5") in on_blue
    assert not any(("b7" in p and any(c.startswith("d") for c in p)) for p in on_blue)  # never mixed


@pytest.mark.parametrize(
    ("payment", "reason"),
    [
        ("d4+b3", r"square 1 takes blue \(b\) money, not d4"),  # diamonds and the square's currency
        ("d9+g1", r"square 1 takes blue \(b\) money, not d9\+g1"),  # diamonds and another currency
        ("d3", r"costs 7; d3 is only 3"),  # too little
        ("d6", r"you do not hold all of d6"),  # a diamond not held
    ],
)
def test_refused_payments_say_why(payment: str, reason: str) -> None:
    state = fresh()
    set_hand(state, state.current, ["d3", "d4", "d9", "b3", "g1"])
    with pytest.raises(InvalidPayment, match=reason):
        apply(state, parse_action(f"buy 1 {payment}"))


def test_diamonds_never_pay_together_with_an_exchange_card() -> None:
    state = fresh(modules=(ID, "currency_exchange"))
    seat = state.current
    set_hand(state, seat, ["xby", "d5", "d4", "y3", "b2"])
    legal = buys(state)
    assert not [a for a in legal if "xby" in a.payment and any(c.startswith("d") for c in a.payment)]
    assert BuyBuilding(4, ("xby", "b2", "y3")) not in legal  # 5 < 11
    with pytest.raises(InvalidPayment, match="xby cannot be used to pay for square 2"):
        apply(state, parse_action("buy 2 xby+d5+d4"))
    with pytest.raises(InvalidPayment, match="xby cannot be used to pay for square 4"):
        apply(state, parse_action("buy 4 xby+y3+d5+d4"))
    assert BuyBuilding(2, ("d4", "d5")) in legal  # alone they still pay


def test_diamonds_never_mix_with_master_builder_cards() -> None:
    state = fresh(players=5, modules=(ID, "master_builders"))
    seat = state.current
    set_hand(state, seat, ["mb3", "d4", "d5"])
    assert BuyBuilding(2, ("d4", "d5")) in buys(state)
    assert not [a for a in buys(state) if "mb3" in a.payment and any(c.startswith("d") for c in a.payment)]
    with pytest.raises(InvalidPayment):
        apply(state, parse_action("buy 1 mb3+d4"))


def test_no_payment_option_without_diamonds_in_the_hand() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["b9"])
    assert MODULE.payment_options(state, seat, 0) == []
    set_hand(state, seat, ["d3"])
    assert [tuple(o.currencies) for o in MODULE.payment_options(state, seat, 1)] == [(4,)]
    assert MODULE.payment_options(state, seat, 4) == []  # a diamond way (the treasure chamber's) needs no option


# ---------------------------------------------------------------------------------- taking diamonds
def set_display(state: GameState, wanted: list[str]) -> None:
    """Lay these cards on the display (from the draw pile; the old ones go under it)."""
    old = [c for c in state.display if c >= 0]
    state.deck[0:0] = old
    new: list[int] = []
    for code in wanted:
        c = next(c for c in reversed(state.deck) if state.card_code(c) == code and c not in new)
        state.deck.remove(c)
        new.append(c)
    state.display = new


def test_diamonds_are_taken_from_the_display_like_money() -> None:
    state = fresh()
    seat = state.current
    set_display(state, ["d3", "b2", "d7", "g1"])
    check_conservation(state)
    takes = {frozenset(a.cards) for a in legal_actions(state) if isinstance(a, TakeMoney)}
    assert frozenset({"d3", "b2"}) in takes  # together worth 5: with other money, like money
    assert frozenset({"d3", "b2"}) | {"g1"} not in takes  # 6 is above the limit
    assert frozenset({"d7"}) in takes  # one card of any value
    assert not [t for t in takes if "d7" in t and len(t) > 1]
    after, _ = apply(state, parse_action("take d3+b2"))
    assert codes(after, after.players[seat].hand) == ["b2", "d3"]
    check_conservation(after)


# ---------------------------------------------------------------------------------- the end of the game
def test_diamonds_never_count_in_the_final_hand_out() -> None:
    state = fresh(market=("P4es", "S5sw", "A6sw", "C7sw"))
    seat = state.current
    other = (seat + 1) % 3
    third = (seat + 2) % 3
    set_hand(state, seat, ["g5", "o7", "d9", "d8", "b1"])
    set_hand(state, other, ["b2"])
    set_hand(state, third, ["d7", "d6", "d5"])
    for cur in range(4):
        assert money_of(state, seat, cur) == {0: 1, 1: 5, 2: 7}.get(cur, 0)
        assert money_of(state, third, cur) == 0
    # the bag is empty: the market cannot be refilled after this purchase
    state.players[third].reserve.extend(state.bag)
    state.bag.clear()
    state, _ = apply(state, parse_action("buy 2 g5"))  # exact: act again
    state, _ = apply(state, parse_action("buy 3 o7"))  # overpaid: place
    events = []
    for code in ("S5sw", "A6sw"):
        state, evs = apply(state, parse_action(f"place {code} reserve"))
        events += evs
    while not state.is_over:
        acts = legal_actions(state)
        state, evs = apply(state, acts[0])
        events += evs
    awarded = [e for e in events if isinstance(e, MarketTileAwarded)]
    assert codes(state, state.players[seat].hand) == ["b1", "d8", "d9"]
    # blue square: seat has b1 + 17 in diamonds, other has b2: the diamonds do not count
    assert MarketTileAwarded(other, 1, "P4es") in awarded
    # yellow square: nobody holds yellow money; the third seat's 18 in diamonds do not count
    assert not [e for e in awarded if e.square == 4]
    assert any(isinstance(e, GameEnded) for e in events)


# ---------------------------------------------------------------------------------- the vizier and other modules' purchases
def test_the_vizier_buys_with_exact_diamonds() -> None:
    state = fresh(players=4, modules=(ID, "vizier"))
    seat = state.current
    nxt = (seat + 1) % 4
    set_hand(state, nxt, ["d5", "d4", "d8"])
    assert BuyBuilding(2, ("d4", "d5")) in purchase_options(state, nxt, exact=True)
    assert BuyBuilding(3, ("d8",)) in purchase_options(state, nxt, exact=True)
    assert BuyBuilding(1, ("d8",)) not in purchase_options(state, nxt, exact=True)  # 8 for 7: not exact
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    state, _ = apply(state, take)
    assert state.to_act == nxt
    legal = [str(a) for a in legal_actions(state)]
    assert "vizier buy 2 d4+d5" in legal and "vizier buy 3 d8" in legal
    assert "vizier buy 1 d8" not in legal
    state, _ = apply(state, parse_action("vizier buy 2 d4+d5"))
    check_conservation(state)
    assert codes(state, state.players[nxt].hand) == ["d8"]


def test_diamonds_buy_a_sultan_card_in_any_currency() -> None:
    from alhambra.modules.power_of_the_sultan import SultanState, sultan_slice

    state = fresh(modules=(ID, "power_of_the_sultan"))
    seat = state.current
    card = next(c for c in state.deck if state.card_code(c) == "suy1")
    state.deck.remove(card)
    sl = sultan_slice(state)
    state.mods["power_of_the_sultan"] = SultanState((*sl.beside, ("suy1", "tower")), sl.owned, sl.used, sl.held)
    check_conservation(state)
    set_hand(state, seat, ["d4", "d3", "y2", "o7"])
    items = {a.payment for a in legal_actions(state) if isinstance(a, BuyItem) and a.item == "suy1"}
    assert ("d3", "d4") in items  # 7 exactly, in diamonds alone
    assert not any("y2" in p and any(c.startswith("d") for c in p) for p in items)
    assert ("o7",) not in items  # the card is yellow
    with pytest.raises(InvalidPayment):
        apply(state, parse_action("buy suy1 d4+y2+d3"))
    state, _ = apply(state, parse_action("buy suy1 d4+d3"))
    check_conservation(state)


def test_diamonds_buy_a_bazaar_exactly() -> None:
    from alhambra.modules.bazaars import BazaarsState

    state = fresh(modules=(ID, "bazaars"))
    ids = state.components.tile_ids
    sl = state.mods["bazaars"]
    assert isinstance(sl, BazaarsState)
    state.bag[:0] = [ids[c] for c in sl.beside]
    state.bag.remove(ids["Zg1"])
    state.mods["bazaars"] = BazaarsState(("Zg1",))
    check_conservation(state)
    seat = state.current
    set_hand(state, seat, ["d5", "d4", "d3"])  # the green square holds S9: the bazaar costs 9, exact only
    items = {a.payment for a in legal_actions(state) if isinstance(a, BuyItem) and a.item == "Zg1"}
    assert items == {("d4", "d5")}


# ---------------------------------------------------------------------------------- views, notation, persistence
def test_views_show_the_own_diamonds_and_public_facts_only() -> None:
    state = fresh()
    seat = state.current
    other = (seat + 1) % 3
    set_hand(state, seat, ["d5", "d4", "b2"])
    set_hand(state, other, ["d9", "g3"])
    mine = view(state, seat)["module_views"][ID]
    assert mine["mine"] == ["d4", "d5"]
    assert mine["payable"] == [1, 2, 3]  # 9 in diamonds: pavilion 7, seraglio 9, arcades 8; not the tower 11
    assert payable_squares(state, other) == [1, 2, 3]
    assert view(state, None)["module_views"][ID]["mine"] is None
    # a seat's view does not change when only another seat's hidden hand changes (same card count)
    before = json.dumps(view(state, seat))
    changed = state.copy()
    set_hand(changed, other, ["b9", "g3"])
    assert json.dumps(view(changed, seat)) == before
    assert json.dumps(view(changed, None)) == json.dumps(view(state, None))


def test_notation_round_trips_with_diamonds() -> None:
    for text in ("buy 2 d5+d4", "buy 1 d9", "take d3+b2", "vizier buy 2 d4+d5", "buy suy1 d4+d3"):
        if text.startswith("vizier"):
            load_module("vizier")
        a = parse_action(text)
        assert parse_action(str(a)) == a
    assert str(parse_action("buy 2 d5+d4")) == "buy 2 d4+d5"


def test_json_round_trip_with_diamonds_everywhere() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["d5", "d4"])
    state, _ = apply(state, parse_action("buy 2 d5+d4"))
    data = json.loads(json.dumps(state_to_json(state)))
    back = state_from_json(data)
    assert state_to_json(back) == data
    assert legal_actions(back) == legal_actions(state)


def test_the_bots_tracker_follows_diamonds_through_hands() -> None:
    """Dealt face up, taken from the display, paid in public: the tracker knows every diamond."""
    for seed in range(300):
        state, events = new_game(GameConfig(players=3, modules=(ID,)), seed)
        seat = state.current
        pay = [a for a in buys(state) if all(c in CARD_CODES for c in a.payment)]
        if pay:
            break
    else:
        pytest.fail("no deal lets the starting player pay in diamonds")
    tracker = Tracker()
    log = view_events(events, seat)
    tracker.update(log)
    assert tracker.hands[seat] == Counter(state.card_code(c) for c in state.players[seat].hand)
    state, evs = apply(state, pay[0])
    tracker.update(log + view_events(evs, seat))
    assert tracker.hands[seat] == Counter(state.card_code(c) for c in state.players[seat].hand)


# ---------------------------------------------------------------------------------- bots
def test_bot_values_credit_what_the_diamonds_alone_can_buy() -> None:
    state = fresh()
    seat = state.current
    other = (seat + 1) % 3
    set_hand(state, seat, ["d5", "d4"])
    set_hand(state, other, ["d3", "b9"])
    values = MODULE.bot_values(state)
    assert values is not None
    # seat: the seraglio exactly (0.6), pavilion and arcades overpaid (0.35 each at 30%)
    assert values[seat] == pytest.approx(0.6 + 0.3 * (0.35 + 0.35))
    assert values[other] == 0.0  # 3 in diamonds buys nothing here
    assert values[(seat + 2) % 3] == 0.0


def test_the_currency_index_follows_the_modules_before_it() -> None:
    from alhambra.errors import ConfigError

    assert diamond_currency(GameConfig(players=3, modules=("currency_exchange", ID, "vizier"))) == 4
    with pytest.raises(ConfigError, match="not part of this game"):
        diamond_currency(GameConfig(players=3, modules=("vizier",)))
