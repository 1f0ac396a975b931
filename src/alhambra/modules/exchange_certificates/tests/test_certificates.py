"""The rules of the exchange certificates, one by one, with the rulebook's example."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest

from alhambra import apply, hooks, legal_actions, parse_action, state_from_json, state_to_json, view
from alhambra.actions import BuyBuilding
from alhambra.engine import money_of
from alhambra.errors import IllegalAction, InvalidPayment, NotationError, WrongPhase
from alhambra.events import BuildingBought, Event
from alhambra.hooks import Module, Offer
from alhambra.modules.exchange_certificates import (
    MODULE,
    NO_CREDIT,
    CertificateDecline,
    CertificatesState,
    CertificateStore,
    CreditDeclined,
    CreditStored,
    StoreChoice,
    certificates_slice,
    check_tokens,
    components,
)
from alhambra.modules.power_of_the_sultan.module import sultan_slice
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import build_tiles, check_conservation, finish_turn, set_hand

from .helpers import centre, credit, fresh, store


def acts(state: GameState) -> list[str]:
    return [str(a) for a in legal_actions(state)]


# ---------------------------------------------------------------------------------- components and setup
@pytest.mark.parametrize(("players", "tokens"), [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_currency_tokens_in_the_centre_by_number_of_players(players: int, tokens: int) -> None:
    state = fresh(players=players)
    assert certificates_slice(state) == CertificatesState((tokens,) * 4, (NO_CREDIT,) * players)
    assert view(state, None)["module_views"]["exchange_certificates"]["in_play"] == tokens
    check_tokens(state)


def test_components() -> None:
    comp = components()
    assert comp.boards == 6 and comp.tokens == (3, 3, 3, 3) and comp.max_credit == 6 and comp.credit_token == "cr"
    assert MODULE.component_assumptions == ()
    assert sorted(components().in_play) == [2, 3, 4, 5, 6]


# ---------------------------------------------------------------------------------- the rulebook's example
def test_rulebook_example_store_5_then_spend_it_on_a_tower_and_store_the_1_overpaid() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["y9"])
    # 9 florins for a 4 arcade: 5 overpaid, stored with a blue token
    state, events = apply(state, parse_action("buy 4 y9"), seat)
    assert state.pending[-1] == StoreChoice(seat, 5, 0)
    assert isinstance(state.pending[-2], PlaceTiles)  # decided right after the purchase, before placing
    assert acts(state) == [
        "certificate store b",
        "certificate store g",
        "certificate store o",
        "certificate store y",
        "certificate decline",
    ]
    state, events = apply(state, parse_action("certificate store b"), seat)
    assert events[0] == CreditStored(seat, "blue", 5)
    assert "credit of 5 denar" in events[0].describe()
    assert credit(state, seat) == (0, 5) and centre(state) == (1, 2, 2, 2)
    assert money_of(state, seat, 0) == 5  # the credit counts as blue money
    assert [(s["token"], s["currency"], s["value"]) for s in view(state, None)["seats"][seat]["money_sources"]] == [("cr", "blue", 5)]
    # the next turn: a 12 tower with a blue 8 and the credit, overpaying by 1
    for _ in range(3):
        state, _ = finish_turn(state)
    assert state.current == seat and isinstance(state.pending[-1], ChooseAction)
    set_hand(state, seat, ["b8"])
    assert "buy 1 cr+b8" in acts(state)
    assert "buy 1 b8" not in acts(state)
    state, events = apply(state, parse_action("buy 1 cr+b8"), seat)
    bought = events[0]
    assert isinstance(bought, BuildingBought) and bought.payment == ("cr", "b8") and not bought.exact
    assert credit(state, seat) == NO_CREDIT and centre(state) == (2, 2, 2, 2)  # the token is back
    # ... and the 1 overpaid may be stored at once, with any token
    assert state.pending[-1] == StoreChoice(seat, 1, 0)
    state, events = apply(state, parse_action("certificate store o"), seat)
    assert credit(state, seat) == (2, 1) and centre(state) == (2, 2, 1, 2)
    check_tokens(state)
    check_conservation(state)


# ---------------------------------------------------------------------------------- when it may be stored
@pytest.mark.parametrize(("hand", "amount"), [(["y4"], 0), (["y5"], 1), (["y9", "y1"], 6), (["y9", "y2"], 7)])
def test_only_an_overpayment_of_1_to_6_can_be_stored(hand: list[str], amount: int) -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, hand)
    after, _ = apply(state, parse_action("buy 4 " + "+".join(hand)), seat)
    top = after.pending[-1]
    if 1 <= amount <= 6:
        assert top == StoreChoice(seat, amount, 0)
    else:
        assert not isinstance(top, StoreChoice)


def test_one_credit_at_a_time_and_it_is_not_replaced() -> None:
    state = fresh()
    seat = state.current
    store(state, seat, 1, 4)
    set_hand(state, seat, ["y9"])
    after, _ = apply(state, parse_action("buy 4 y9"), seat)  # 5 overpaid, the credit stays
    assert not isinstance(after.pending[-1], StoreChoice)
    assert credit(after, seat) == (1, 4)


def test_no_token_left_in_the_centre_no_storing() -> None:
    state = fresh(players=2)
    seat = state.current
    other = 1 - seat
    assert centre(state) == (1, 1, 1, 1)
    store(state, other, 0, 1)
    sl = certificates_slice(state)
    state.mods["exchange_certificates"] = CertificatesState((0, 0, 0, 1), sl.credit)  # (the others in the box)
    set_hand(state, seat, ["y9"])
    after, _ = apply(state, parse_action("buy 4 y9"), seat)
    assert acts(after) == ["certificate store y", "certificate decline"]  # only the colour left
    with pytest.raises(IllegalAction, match="no blue currency token is left"):
        apply(after, parse_action("certificate store b"), seat)
    state.mods["exchange_certificates"] = CertificatesState((0, 0, 0, 0), sl.credit)
    after, _ = apply(state, parse_action("buy 4 y9"), seat)
    assert not isinstance(after.pending[-1], StoreChoice)


def test_declining_stores_nothing() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["y9"])
    after, _ = apply(state, parse_action("buy 4 y9"), seat)
    after, events = apply(after, CertificateDecline(), seat)
    assert events[0] == CreditDeclined(seat, 5) and credit(after, seat) == NO_CREDIT
    assert isinstance(after.pending[-1], PlaceTiles)


def test_answers_are_refused_outside_the_decision() -> None:
    state = fresh()
    with pytest.raises(WrongPhase, match="only right after buying a building"):
        apply(state, CertificateStore("b"))
    with pytest.raises(WrongPhase):
        apply(state, CertificateDecline())


# ---------------------------------------------------------------------------------- spending the credit
def test_the_credit_pays_only_whole_and_only_in_its_colour() -> None:
    state = fresh()
    seat = state.current
    store(state, seat, 1, 5)  # 5 green
    set_hand(state, seat, ["b9", "b3"])
    buys = acts(state)
    assert "buy 2 cr" in buys  # exactly 5 for the green 5 seraglio: another action
    assert not any(b.startswith("buy 1") and "cr" in b for b in buys)
    with pytest.raises(InvalidPayment, match="takes blue"):
        apply(state, BuyBuilding(1, ("cr", "b9")), seat)
    after, events = apply(state, parse_action("buy 2 cr"), seat)
    assert isinstance(events[0], BuildingBought) and events[0].exact
    assert after.pending[-1] == ChooseAction(seat, 1, ("S5sw",))
    assert credit(after, seat) == NO_CREDIT and centre(after) == (2, 2, 2, 2)


# ---------------------------------------------------------------------------------- only for buildings
class ProbeOffers(Module):
    """Sells a building without a tile (like completing a building site) and a thing that is no building, both for 4 yellow."""

    id = "zz_cert_probe"

    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        return [
            Offer("qsite", self.id, 4, (frozenset({3}),), building=True, label="a probe building"),
            Offer("qthing", self.id, 4, (frozenset({3}),), label="a probe thing"),
        ]


@pytest.fixture
def probe() -> Iterator[None]:
    hooks._CACHE["zz_cert_probe"] = ProbeOffers()
    yield
    del hooks._CACHE["zz_cert_probe"]
    for key in [k for k in hooks._BY_CONFIG if "zz_cert_probe" in k]:
        del hooks._BY_CONFIG[key]
    for key2 in [k for k in hooks._USERS if "zz_cert_probe" in k[0]]:
        del hooks._USERS[key2]


@pytest.mark.usefixtures("probe")
def test_only_building_purchases_can_be_stored() -> None:
    state = fresh(modules=("exchange_certificates", "zz_cert_probe"))
    seat = state.current
    set_hand(state, seat, ["y7"])
    after, _ = apply(state, parse_action("buy qsite y7"), seat)
    assert after.pending[-1] == StoreChoice(seat, 3, 0)
    after, _ = apply(state, parse_action("buy qthing y7"), seat)
    assert not isinstance(after.pending[-1], StoreChoice)


# ---------------------------------------------------------------------------------- notation, views, persistence
def test_notation_round_trips_and_errors() -> None:
    hooks.load_module("vizier")  # registers the vizier's notation
    for text in ("certificate store b", "certificate store y", "certificate decline", "buy 1 cr+b8", "vizier buy 2 cr"):
        a = parse_action(text)
        assert str(a) == text and parse_action(str(a)) == a
    assert parse_action("certificate store G") == CertificateStore("g")
    with pytest.raises(NotationError, match="usage: certificate store"):
        parse_action("certificate store")
    with pytest.raises(NotationError, match="bad currency 'red'"):
        parse_action("certificate store red")
    with pytest.raises(NotationError):
        parse_action("certificate decline now")
    for e in (CreditStored(1, "green", 3), CreditDeclined(0, 2)):
        assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_state_and_view_are_public_and_round_trip() -> None:
    state = fresh()
    seat = state.current
    store(state, seat, 3, 6)
    set_hand(state, seat, ["y9"])
    data = state_to_json(state)
    back = state_from_json(json.loads(json.dumps(data)))
    assert certificates_slice(back) == certificates_slice(state) and state_to_json(back) == data
    views = [view(state, v)["module_views"]["exchange_certificates"] for v in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    assert views[0]["centre"] == {"blue": 2, "green": 2, "orange": 2, "yellow": 1}
    assert views[0]["boards"][seat] == {"currency": "yellow", "amount": 6} and views[0]["max_credit"] == 6
    assert MODULE.slice_from_view(views[0], state.config) == certificates_slice(state)
    for bad in ({"centre": [1, 2], "credit": []}, {"centre": [1, 1, 1, 1], "credit": [[0, 7]]}, {"centre": [1, 1, 1, 1]}):
        with pytest.raises(NotationError):
            CertificatesState.from_dict(bad)


def test_a_pending_decision_survives_a_json_round_trip() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["y9"])
    state, _ = apply(state, parse_action("buy 4 y9"), seat)
    back = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert back.pending == state.pending and acts(back) == acts(state)
    assert view(state, None)["pending"] == {"type": "StoreChoice", "seat": seat, "amount": 5, "change": 0}


@pytest.mark.usefixtures("probe")
def test_the_credit_pays_only_when_buying_a_building_tile() -> None:
    """Rulebook, Exchange Certificates: "The player can use this credit when buying a building
    tile." The credit pays for a building (a market square, an offer that buys a building) and
    never for anything else a module sells (issue 24, item 2)."""
    state = fresh(modules=("exchange_certificates", "zz_cert_probe"))
    seat = state.current
    store(state, seat, 3, 5)  # 5 yellow
    set_hand(state, seat, ["y1"])
    buys = acts(state)
    assert "buy qsite cr" in buys and "buy 4 cr" in buys  # a building: the credit pays
    assert not any(b.startswith("buy qthing") and "cr" in b for b in buys)  # no building: it does not
    with pytest.raises(InvalidPayment, match="cr pays only for building tiles, not for a probe thing"):
        apply(state, parse_action("buy qthing cr"), seat)
    with pytest.raises(InvalidPayment, match="cr pays only for building tiles"):
        apply(state, parse_action("buy qthing cr+y1"), seat)
    after, _ = apply(state, parse_action("buy qsite cr"), seat)
    assert credit(after, seat) == NO_CREDIT


@pytest.mark.parametrize("module", ["treasure_chamber", "caravanserai", "power_of_the_sultan"])
def test_the_credit_pays_for_no_chest_caravanserai_card_or_sultan_card(module: str) -> None:
    """ "The player can use this credit when buying a building tile": with a credit worth any
    price, no offer of the treasure chamber, the caravanserai or the power of the sultan lists
    a payment with it, and the credit is refused for a chest."""
    state = fresh(modules=("exchange_certificates", module), seed=5)
    seat = state.current
    if module == "caravanserai":  # 4 kinds built: a caravanserai card may be bought
        build_tiles(state, seat, {(1, 0): "P2new", (2, 0): "S3esw", (3, 0): "A5nw", (4, 0): "C6es"})
    if module == "power_of_the_sultan":  # a sultan card beside the market
        state.mods[module] = replace(sultan_slice(state), beside=(("sub1", "pavilion"),))
    store(state, seat, 0, 6)  # 6 blue
    set_hand(state, seat, ["b3", "g3", "o3", "y3", "b9", "g9", "o9", "y9"])
    buys = acts(state)
    items = [b for b in buys if b.startswith("buy ") and not b.split()[1].isdigit()]
    assert not any("cr" in b.split()[2].split("+") for b in items)
    assert any("cr" in b.split()[2].split("+") for b in buys if b.split()[1].isdigit()) or not state.market
    assert items  # the module offers something the rest of the money pays for
    item = items[0].split()[1]
    with pytest.raises(InvalidPayment, match="pays only for building tiles"):
        apply(state, parse_action(f"buy {item} cr+b3+b9"), seat)
