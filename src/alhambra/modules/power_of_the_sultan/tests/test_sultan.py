"""Power of Sultan: components, setup, cards coming up, buying, re-marking, claims, views, persistence."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import Action, BuyItem, PlaceBuilding, action_from_dict
from alhambra.components import CURRENCIES, KINDS
from alhambra.errors import IllegalAction, InvalidPayment, NotationError, WrongPhase
from alhambra.events import (
    BuildingPlaced,
    DisplayRefilled,
    Event,
    ItemBought,
    MarketRefilled,
    NeutralTilesReceived,
    TurnEnded,
    TurnStarted,
)
from alhambra.hooks import load_module
from alhambra.modules.power_of_the_sultan import (
    MODULE,
    TILE_VALUE,
    SultanCardMarked,
    SultanCardRevealed,
    SultanClaim,
    SultanClaimOffer,
    SultanDecline,
    SultanExtraTileRevealed,
    SultanKeep,
    SultanMark,
    SultanMarkChoice,
    SultanMarkKept,
    SultanRemarkOffer,
    SultanReveal,
    SultanState,
    SultanTileClaimed,
    SultanTileDeclined,
    SultanTileOffered,
    components,
    sultan_slice,
)
from alhambra.state import STAGE_OVER, BetweenTurns, ChooseAction, GameState, PlaceTiles
from alhambra.testing import check_conservation, set_hand

from .helpers import (
    ID,
    bag_top,
    buy_square_1_and_place,
    card_id,
    draws_for,
    end_turn_by_taking,
    extra_index,
    fresh,
    give_card,
    lay_beside,
    put_on_deck_top,
    seats,
)


# ---------------------------------------------------------------------------------- components and setup
def test_components_facts_and_assumptions_are_declared() -> None:
    comp = components()
    assert comp.price == 7 and comp.marker_cubes == 8 and comp.piles == (3, 2, 3)
    assert len(comp.cards) == 8
    assert Counter(cur for _, cur in comp.cards) == Counter({0: 2, 1: 2, 2: 2, 3: 2})  # 2 per currency (assumed)
    assert len(comp.extra_tiles) == 6
    assert ("arcades", "chambers") in comp.extra_tiles  # the rulebook's example
    assert sorted(top for top, _ in comp.extra_tiles) == sorted(KINDS)  # each kind on top once
    assert sorted(bottom for _, bottom in comp.extra_tiles) == sorted(KINDS)  # ... and at the bottom once
    assert load_module(ID) is MODULE and MODULE.assumptions and MODULE.component_assumptions
    assert MODULE.title == "Power of Sultan"


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_three_two_three_sultan_cards_into_the_first_three_piles(players: int, seed: int) -> None:
    state, _ = new_game(GameConfig(players=players, modules=(ID,)), seed)
    cards = state.components.cards
    top_first = list(reversed(state.deck))
    sultan = [c for c in top_first if cards[c].module == ID]
    assert sorted(cards[c].code for c in sultan) == sorted(code for code, _ in components().cards)
    money = sum(1 for c in top_first if cards[c].is_money)
    size, extra = divmod(money, 5)
    piles_money = [size + (1 if i < extra else 0) for i in range(5)]
    lengths = [piles_money[0] + 3, piles_money[1] + 2 + 1, piles_money[2] + 3, piles_money[3] + 1, piles_money[4]]
    at = 0
    got = []
    for n in lengths:
        got.append(sum(1 for c in top_first[at : at + n] if cards[c].module == ID))
        at += n
    assert got == [3, 2, 3, 0, 0]
    assert sultan_slice(state) == SultanState((), ((),) * players)
    check_conservation(state)


# ---------------------------------------------------------------------------------- a sultan card comes up
def test_a_drawn_sultan_card_is_laid_beside_the_market_marked_with_the_top_of_an_extra_tile() -> None:
    state = fresh()
    put_on_deck_top(state, "sug1")
    state.draws = draws_for(state, extra_index("garden", "tower"))
    state, events = end_turn_by_taking(state)
    revealed = [e for e in events if isinstance(e, SultanCardRevealed)]
    assert revealed == [SultanCardRevealed("sug1", "green", "garden", ("garden", "tower"))]
    assert sultan_slice(state).beside == (("sug1", "garden"),)
    # more money cards are drawn until 4 are face up
    assert all(c >= 0 and state.components.cards[c].is_money for c in state.display)
    refill = next(e for e in events if isinstance(e, DisplayRefilled))
    assert events.index(revealed[0]) < events.index(refill)
    assert "sug1" not in refill.cards
    check_conservation(state)


def test_several_sultan_cards_can_lie_beside_the_market() -> None:
    state = fresh()
    put_on_deck_top(state, "sub1")
    put_on_deck_top(state, "suy2")
    state, events = end_turn_by_taking(state)
    assert [c for c, _ in sultan_slice(state).beside] == ["suy2", "sub1"]
    assert all(kind in KINDS for _, kind in sultan_slice(state).beside)
    assert sum(isinstance(e, SultanCardRevealed) for e in events) == 2
    assert view(state, None)["module_views"][ID]["beside"][0] == {
        "card": "suy2",
        "currency": "yellow",
        "kind": sultan_slice(state).beside[0][1],
    }


# ---------------------------------------------------------------------------------- buying
def test_buying_exactly_gives_another_action_after_the_remark_question() -> None:
    state = fresh()
    s = state.current
    lay_beside(state, "sug1", "arcades")
    set_hand(state, s, ["g7", "g2"])
    acts = legal_actions(state)
    assert BuyItem("sug1", ("g7",)) in acts and BuyItem("sug1", ("g7", "g2")) in acts
    assert BuyItem("sug1", ("g2",)) not in acts
    state, events = apply(state, parse_action("buy sug1 g7"), s)
    assert isinstance(events[0], ItemBought) and events[0].exact and events[0].item == "sug1"
    assert state.pending == [ChooseAction(s, 1), SultanRemarkOffer(s, "sug1")]
    assert legal_actions(state) == [SultanKeep(), SultanReveal()]
    assert sultan_slice(state).owned[s] == (("sug1", "arcades"),) and sultan_slice(state).beside == ()
    state, events = apply(state, SultanKeep(), s)
    assert events == [SultanMarkKept(s, "sug1", "arcades")]
    assert state.pending == [ChooseAction(s, 1)]  # the extra action
    assert "g7" in [state.card_code(c) for c in state.discard]
    check_conservation(state)


def test_buying_with_overpayment_ends_the_turn_after_the_remark_question() -> None:
    state = fresh()
    s, s1, _ = seats(state)
    lay_beside(state, "sug1", "arcades")
    set_hand(state, s, ["g7", "g2"])
    state, _ = apply(state, parse_action("buy sug1 g7+g2"), s)
    assert state.pending == [SultanRemarkOffer(s, "sug1")]
    state, events = apply(state, SultanKeep(), s)
    assert any(isinstance(e, TurnEnded) and e.seat == s for e in events)
    assert state.pending == [ChooseAction(s1)]


def test_buying_refusals_have_readable_reasons() -> None:
    state = fresh()
    s = state.current
    lay_beside(state, "sug1", "arcades")
    set_hand(state, s, ["b7", "g5", "g1"])
    with pytest.raises(InvalidPayment, match="green"):
        apply(state, parse_action("buy sug1 b7"), s)
    with pytest.raises(InvalidPayment, match="costs 7"):
        apply(state, parse_action("buy sug1 g5+g1"), s)
    with pytest.raises(IllegalAction, match="cannot be bought now"):
        apply(state, parse_action("buy sub1 b7"), s)  # not beside the market
    assert not any(isinstance(a, BuyItem) for a in legal_actions(state))


def test_sultan_cards_cannot_be_bought_with_the_vizier() -> None:
    from alhambra.modules.vizier import VizierBuyItem

    state = fresh(modules=("vizier",))
    _s, s1, _ = seats(state)
    lay_beside(state, "sug1", "arcades")
    set_hand(state, s1, ["g7"])
    state, _ = end_turn_by_taking(state)
    assert isinstance(state.pending[-1], BetweenTurns) and state.pending[-1].seat == s1
    assert not any(isinstance(a, VizierBuyItem) and a.item == "sug1" for a in legal_actions(state))
    with pytest.raises(IllegalAction, match="out of turn"):
        apply(state, VizierBuyItem("sug1", ("g7",)), s1)


def test_an_exchange_card_can_pay_for_a_sultan_card() -> None:
    state = fresh(modules=("currency_exchange",))
    s = state.current
    lay_beside(state, "sug1", "arcades")
    set_hand(state, s, ["xbg", "b4", "g3"])
    assert BuyItem("sug1", ("xbg", "g3", "b4")) in legal_actions(state) or BuyItem("sug1", ("xbg", "b4", "g3")) in legal_actions(state)
    state, events = apply(state, parse_action("buy sug1 xbg+b4+g3"), s)
    assert isinstance(events[0], ItemBought) and events[0].exact
    assert state.pending == [ChooseAction(s, 1), SultanRemarkOffer(s, "sug1")]
    check_conservation(state)


# ---------------------------------------------------------------------------------- re-marking
def test_worked_example_revealing_arcades_and_chambers_means_marking_one_of_them() -> None:
    state = fresh()
    s = state.current
    lay_beside(state, "sug1", "tower")
    set_hand(state, s, ["g7"])
    state, _ = apply(state, parse_action("buy sug1 g7"), s)
    state.draws = draws_for(state, extra_index("arcades", "chambers"))
    state, events = apply(state, SultanReveal(), s)
    assert events == [SultanExtraTileRevealed(s, "sug1", ("arcades", "chambers"))]
    assert events[0].reveals
    assert state.pending[-1] == SultanMarkChoice(s, "sug1", ("arcades", "chambers"))
    assert legal_actions(state) == [SultanMark("arcades"), SultanMark("chambers")]
    assert view(state, None)["module_views"][ID]["owned"][s] == [{"card": "sug1", "currency": "green", "kind": None}]  # cube off
    with pytest.raises(IllegalAction, match="arcades or chambers"):
        apply(state, SultanMark("tower"), s)  # the old kind is not on this extra tile
    state, events = apply(state, SultanMark("chambers"), s)
    assert events == [SultanCardMarked(s, "sug1", "chambers")]
    assert sultan_slice(state).owned[s] == (("sug1", "chambers"),)
    assert state.pending == [ChooseAction(s, 1)]
    check_conservation(state)


def test_remark_and_claim_actions_outside_their_moment_are_refused() -> None:
    state = fresh()
    s = state.current
    for action, reason in (
        (SultanKeep(), "right after buying"),
        (SultanReveal(), "right after buying"),
        (SultanMark("tower"), "no revealed extra tile"),
        (SultanClaim(), "no drawn tile"),
        (SultanDecline(), "no drawn tile"),
    ):
        with pytest.raises(WrongPhase, match=reason):
            apply(state, action, s)
    plain, _ = new_game(GameConfig(players=3), 1)
    with pytest.raises(IllegalAction, match="module"):
        apply(plain, SultanClaim())


# ---------------------------------------------------------------------------------- claiming tiles
def test_a_holder_takes_a_drawn_tile_of_the_marked_kind_for_free_and_places_it_at_once() -> None:
    state = fresh()
    _s, s1, _s2 = seats(state)
    give_card(state, s1, "sug1", "arcades")
    bag_top(state, "A9", "G10n")
    hand = list(state.players[s1].hand)
    state, events = buy_square_1_and_place(state)
    assert SultanTileOffered("A9", "arcades", (s1,)) in events
    assert state.pending == [SultanClaimOffer(s1, "A9", ())]
    assert state.market[0] == -1 and sultan_slice(state).held == "A9"
    check_conservation(state)
    assert legal_actions(state) == [SultanClaim(), SultanDecline()]
    state, events = apply(state, SultanClaim(), s1)
    assert events[0] == SultanTileClaimed(s1, "sug1", "A9")
    assert state.pending == [PlaceTiles(s1, ("A9",), False, "sultan")]
    assert sultan_slice(state).owned[s1] == () and sultan_slice(state).used == ("sug1",)
    assert sultan_slice(state).held is None
    assert PlaceBuilding("A9", "reserve") in legal_actions(state)
    assert PlaceBuilding("A9", "neutral") not in legal_actions(state)
    state, events = apply(state, PlaceBuilding("A9", (1, 0)), s1)
    assert events[0] == BuildingPlaced(s1, "A9", (1, 0))
    # the refill goes on: square 1 gets the next tile, then the next turn starts
    assert MarketRefilled((1,), ("G10n",)) in events
    assert state.tile_code(state.market[0]) == "G10n"
    assert any(isinstance(e, TurnStarted) and e.seat == s1 for e in events)
    assert state.players[s1].hand == hand  # free of charge
    check_conservation(state)


def test_the_refill_goes_on_after_a_claim_with_several_empty_squares() -> None:
    state = fresh()
    s, s1, _ = seats(state)
    give_card(state, s1, "sug1", "arcades")
    bag_top(state, "A9", "G10n", "T11")
    set_hand(state, s, ["b4", "g5", "g1"])
    state, _ = apply(state, parse_action("buy 1 b4"), s)  # exact: another action
    state, _ = apply(state, parse_action("buy 2 g5+g1"), s)
    state, _ = apply(state, PlaceBuilding("P4es", "reserve"), s)
    state, _ = apply(state, PlaceBuilding("S5sw", "reserve"), s)
    assert state.pending == [SultanClaimOffer(s1, "A9", ())]
    assert state.market[:2] == [-1, -1]
    state, _ = apply(state, SultanClaim(), s1)
    state, events = apply(state, PlaceBuilding("A9", "reserve"), s1)
    assert MarketRefilled((1, 2), ("G10n", "T11")) in events
    check_conservation(state)


def test_holders_are_asked_in_order_of_play_from_the_next_player_and_only_holders_of_the_kind() -> None:
    state = fresh(players=4)
    s, s1, s2, _s3 = seats(state)
    give_card(state, s, "sug1", "arcades")  # the player whose turn ends is asked last
    give_card(state, s2, "suo1", "arcades")
    give_card(state, s1, "suy1", "garden")  # another kind: not asked
    bag_top(state, "A9", "G10n")
    state, events = buy_square_1_and_place(state)
    assert SultanTileOffered("A9", "arcades", (s2, s)) in events
    assert state.pending == [SultanClaimOffer(s2, "A9", (s,))]
    state, events = apply(state, SultanDecline(), s2)
    assert events == [SultanTileDeclined(s2, "A9")]
    assert state.pending == [SultanClaimOffer(s, "A9", ())]
    with pytest.raises(IllegalAction):
        apply(state, SultanClaim(), s2)  # not asked any more
    state, events = apply(state, SultanClaim(), s)
    assert events[0] == SultanTileClaimed(s, "sug1", "A9")
    assert sultan_slice(state).owned[s2] == (("suo1", "arcades"),)  # kept for later


def test_a_tile_nobody_claims_goes_onto_the_market_and_the_refill_goes_on() -> None:
    state = fresh(players=4)
    s, _s1, s2, _s3 = seats(state)
    give_card(state, s, "sug1", "arcades")
    give_card(state, s2, "suo1", "arcades")
    bag_top(state, "A9", "G10n")
    state, _ = buy_square_1_and_place(state)
    state, _ = apply(state, SultanDecline(), s2)
    state, events = apply(state, SultanDecline(), s)
    assert events[0] == SultanTileDeclined(s, "A9")
    assert MarketRefilled((1,), ("A9",)) in events
    assert state.tile_code(state.market[0]) == "A9"
    assert sultan_slice(state).held is None
    assert sultan_slice(state).owned[s] == (("sug1", "arcades"),) and sultan_slice(state).owned[s2] == (("suo1", "arcades"),)
    assert isinstance(state.pending[-1], ChooseAction)
    check_conservation(state)


def test_a_holder_of_two_cards_of_the_kind_uses_the_one_bought_first() -> None:
    state = fresh()
    _s, s1, _ = seats(state)
    give_card(state, s1, "suy1", "arcades")
    give_card(state, s1, "sug1", "arcades")
    bag_top(state, "A9")
    state, events = buy_square_1_and_place(state)
    assert state.pending == [SultanClaimOffer(s1, "A9", ())]  # asked once
    state, events = apply(state, SultanClaim(), s1)
    assert events[0] == SultanTileClaimed(s1, "suy1", "A9")
    assert sultan_slice(state).owned[s1] == (("sug1", "arcades"),)


def test_no_question_when_nobody_holds_the_drawn_kind() -> None:
    state = fresh()
    _s, s1, _ = seats(state)
    give_card(state, s1, "sug1", "garden")
    bag_top(state, "A9")
    state, events = buy_square_1_and_place(state)
    assert not any(isinstance(e, SultanTileOffered) for e in events)
    assert state.tile_code(state.market[0]) == "A9"
    assert state.pending == [ChooseAction(s1)]


# ---------------------------------------------------------------------------------- 2 players
def test_two_players_a_claimed_tile_may_be_given_to_the_neutral_player() -> None:
    state = fresh(players=2)
    _s, s1 = seats(state)
    give_card(state, s1, "sug1", "arcades")
    bag_top(state, "A9")
    state, _ = buy_square_1_and_place(state)
    state, _ = apply(state, SultanClaim(), s1)
    assert state.pending == [PlaceTiles(s1, ("A9",), True, "sultan")]
    assert PlaceBuilding("A9", "neutral") in legal_actions(state)
    state, _ = apply(state, PlaceBuilding("A9", "neutral"), s1)
    assert "A9" in [state.tile_code(t) for t in state.neutral or []]
    check_conservation(state)


def test_two_players_the_neutral_players_tiles_after_a_scoring_cannot_be_claimed() -> None:
    state = fresh(players=2)
    _s, s1 = seats(state)
    give_card(state, s1, "sug1", "arcades")
    arcades = ["A4nes", "A5nw", "A6ne", "A7es", "A8n", "A8e"]
    bag_top(state, *arcades)
    s1_card = card_id(state, "S1")
    state.deck.remove(s1_card)
    state.deck.append(s1_card)  # scoring card 1 comes up with the next card
    state, events = end_turn_by_taking(state)  # the market stays full: only the display is refilled
    received = next(e for e in events if isinstance(e, NeutralTilesReceived))
    assert sorted(received.tiles) == sorted(arcades)
    assert not any(isinstance(e, SultanTileOffered) for e in events)
    assert not any(isinstance(p, SultanClaimOffer) for p in state.pending)
    assert sultan_slice(state).owned[s1] == (("sug1", "arcades"),)


# ---------------------------------------------------------------------------------- vizier
def test_claims_come_before_the_vizier_window() -> None:
    state = fresh(modules=("vizier",))
    _s, s1, s2 = seats(state)
    give_card(state, s2, "sug1", "arcades")
    bag_top(state, "A9")
    state, _ = buy_square_1_and_place(state)
    assert state.pending == [SultanClaimOffer(s2, "A9", ())]  # no window below: it is not open yet
    state, _ = apply(state, SultanClaim(), s2)
    state, _ = apply(state, PlaceBuilding("A9", "reserve"), s2)
    top = state.pending[-1]
    assert isinstance(top, BetweenTurns) and top.seat == s1  # now the vizier may be used


def test_a_tile_drawn_after_a_vizier_purchase_can_be_claimed() -> None:
    from alhambra.modules.vizier import VizierBuy, VizierRefill

    state = fresh(modules=("vizier",))
    s, s1, s2 = seats(state)
    give_card(state, s2, "sug1", "arcades")
    set_hand(state, s1, ["g5"])
    bag_top(state, "G10n", "A9", "T11")
    state, _ = end_turn_by_taking(state)  # the market stays full
    assert isinstance(state.pending[-1], BetweenTurns) and state.pending[-1].seat == s1
    state, _ = apply(state, VizierBuy(2, ("g5",)), s1)
    state, _ = apply(state, PlaceBuilding("S5sw", "reserve"), s1)
    # the vizier's refill drew G10n (a garden: nobody holds a garden card) for square 2
    assert state.tile_code(state.market[1]) == "G10n"
    # the window asks again (s1's vizier sleeps now): s2 buys G10n with the vizier, the refill draws A9
    assert state.pending[-1] == BetweenTurns(s2, (s,))
    set_hand(state, s2, ["g9", "g1"])
    state, _ = apply(state, VizierBuy(2, ("g9", "g1")), s2)
    state, events = apply(state, PlaceBuilding("G10n", "reserve"), s2)
    assert SultanTileOffered("A9", "arcades", (s2,)) in events
    assert isinstance(state.pending[-2], VizierRefill) and state.pending[-1] == SultanClaimOffer(s2, "A9", ())
    state, _ = apply(state, SultanClaim(), s2)
    state, events = apply(state, PlaceBuilding("A9", "reserve"), s2)
    assert MarketRefilled((2,), ("T11",)) in events
    assert isinstance(state.pending[-1], BetweenTurns)  # everybody may decide again
    check_conservation(state)


# ---------------------------------------------------------------------------------- end of the game
def test_a_tile_drawn_in_the_last_refill_can_be_claimed() -> None:
    state = fresh()
    _s, s1, _ = seats(state)
    give_card(state, s1, "sug1", "arcades")
    bag_top(state, "A9")
    # only A9 is left in the bag: the rest goes onto the reserve board of the last seat
    a9 = state.components.tile_ids["A9"]
    rest = [t for t in state.bag if t != a9]
    state.bag[:] = [a9]
    state.players[seats(state)[2]].reserve.extend(rest)
    state, _ = buy_square_1_and_place(state)
    assert state.pending == [SultanClaimOffer(s1, "A9", ())]
    state, _ = apply(state, SultanClaim(), s1)
    state, _ = apply(state, PlaceBuilding("A9", "reserve"), s1)
    assert state.market_exhausted
    assert state.stage == STAGE_OVER or state.is_over
    assert "A9" in [state.tile_code(t) for t in state.players[s1].reserve]
    check_conservation(state)


# ---------------------------------------------------------------------------------- notation and events
def test_notation_round_trips_and_grammar() -> None:
    for text, action in (
        ("sultan claim", SultanClaim()),
        ("sultan decline", SultanDecline()),
        ("sultan keep", SultanKeep()),
        ("sultan reveal", SultanReveal()),
        ("sultan mark chambers", SultanMark("chambers")),
    ):
        assert parse_action(text) == action
        assert str(action) == text
        assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action
        assert action_from_dict(action.to_dict()) == action
        assert action.module == ID
        assert type(action).keyword == " ".join(text.split()[:2])
    assert SultanMark.grammar == ("kind",) and SultanClaim.grammar == ()
    assert parse_action("Sultan Mark Chambers") == SultanMark("chambers")
    assert parse_action("buy sug1 g7") == BuyItem("sug1", ("g7",))
    for bad in ("sultan mark castle", "sultan mark", "sultan claim now", "sultan keep it", "sultan reveal 2"):
        with pytest.raises(NotationError):
            parse_action(bad)


def test_events_describe_themselves_and_round_trip() -> None:
    for ev, text in (
        (
            SultanCardRevealed("sug1", "green", "garden", ("garden", "tower")),
            "sultan card sug1 (green) is laid beside the market, marked garden (extra tile garden/tower)",
        ),
        (SultanMarkKept(0, "sug1", "garden"), "player 1 keeps garden on sultan card sug1"),
        (
            SultanExtraTileRevealed(1, "sug1", ("arcades", "chambers")),
            "player 2 takes the cube off sultan card sug1 and reveals an extra tile: arcades / chambers",
        ),
        (SultanCardMarked(1, "sug1", "chambers"), "player 2 marks chambers on sultan card sug1"),
        (
            SultanTileOffered("A9", "arcades", (1, 0)),
            "A9 is drawn for the market: player 2, player 1 may take it with a sultan card (arcades)",
        ),
        (SultanTileClaimed(1, "sug1", "A9"), "player 2 takes A9 with sultan card sug1 (the card leaves the game)"),
        (SultanTileDeclined(2, "A9"), "player 3 does not take A9"),
    ):
        assert ev.describe() == text
        assert Event.from_dict(json.loads(json.dumps(ev.to_dict()))) == ev
        assert ev.seen_by(0) is ev  # every event is public
    assert SultanCardRevealed.reveals and SultanExtraTileRevealed.reveals and SultanTileOffered.reveals
    assert not SultanTileClaimed.reveals and not SultanMarkKept.reveals


# ---------------------------------------------------------------------------------- persistence and views
def _with_open_claim() -> GameState:
    state = fresh()
    _s, s1, s2 = seats(state)
    give_card(state, s1, "sug1", "arcades")
    give_card(state, s2, "sub1", "tower")
    lay_beside(state, "suy1", "garden")
    bag_top(state, "A9")
    state, _ = buy_square_1_and_place(state)
    assert isinstance(state.pending[-1], SultanClaimOffer)
    return state


def test_state_with_an_open_claim_round_trips() -> None:
    state = _with_open_claim()
    data = json.loads(json.dumps(state_to_json(state)))
    back = state_from_json(data)
    assert state_to_json(back) == data
    assert legal_actions(back) == legal_actions(state)
    assert sultan_slice(back) == sultan_slice(state)
    check_conservation(back)


def test_bad_slices_are_refused() -> None:
    good = SultanState((("suy1", "garden"),), ((("sug1", ""),), ()), ("sub1",), "A9")
    assert SultanState.from_dict(json.loads(json.dumps(good.to_dict()))) == good
    bad: object
    for bad in (
        None,
        {"beside": [], "owned": []},
        {"beside": [["xbg", "garden"]], "owned": [], "used": [], "held": None},
        {"beside": [["sug1", "castle"]], "owned": [], "used": [], "held": None},
        {"beside": [], "owned": [5], "used": [], "held": None},
        {"beside": [], "owned": [], "used": ["b7"], "held": None},
        {"beside": [], "owned": [], "used": [], "held": 3},
    ):
        with pytest.raises(NotationError):
            SultanState.from_dict(bad)


def test_views_are_public_and_rebuild_the_slice() -> None:
    state = _with_open_claim()
    views = [view(state, v)["module_views"][ID] for v in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    mv = views[0]
    assert mv["held"] == "A9" and mv["price"] == 7 and len(mv["extra_tiles"]) == 6
    assert mv["beside"] == [{"card": "suy1", "currency": "yellow", "kind": "garden"}]
    assert MODULE.slice_from_view(json.loads(json.dumps(mv)), state.config) == sultan_slice(state)
    assert view(state, None)["pending"] == SultanClaimOffer(state.to_act or 0, "A9", ()).to_dict()


def test_no_view_tells_which_sultan_card_comes_next() -> None:
    a = fresh()
    b = a.copy()
    put_on_deck_top(a, "sug1")
    put_on_deck_top(b, "sub2")  # the two states differ only in the hidden order of the draw pile
    for viewer in (None, 0, 1, 2):
        assert view(a, viewer) == view(b, viewer)


def test_currencies_of_the_cards_are_the_colours() -> None:
    state = fresh()
    cards = state.components.cards
    got = {cards[c].code: CURRENCIES[cards[c].currency] for c in MODULE.card_ids(state)}
    assert got == {code: CURRENCIES[cur] for code, cur in components().cards}
    assert all(not cards[c].is_money and cards[c].value == 0 for c in MODULE.card_ids(state))


# ---------------------------------------------------------------------------------- bots
def test_bot_values_a_held_card_by_the_chance_of_its_kind() -> None:
    state = fresh()
    s, s1, s2 = seats(state)
    assert MODULE.bot_values(state) is None
    give_card(state, s1, "sug1", "tower")
    values = MODULE.bot_values(state)
    assert values is not None
    assert values[s] == 0 and values[s2] == 0 and 0 < values[s1] <= TILE_VALUE["tower"]
    # with no tower left in the bag, the card is worth nothing
    towers = [t for t in state.bag if state.components.tiles[t].kind == "tower"]
    for t in towers:
        state.bag.remove(t)
        state.players[s2].reserve.append(t)
    values = MODULE.bot_values(state)
    assert values is not None and values[s1] == 0


def test_bot_values_count_the_better_kind_while_the_new_mark_is_chosen() -> None:
    state = fresh()
    s = state.current
    lay_beside(state, "sug1", "pavilion")
    set_hand(state, s, ["g7"])
    state, _ = apply(state, parse_action("buy sug1 g7"), s)
    before = MODULE.bot_values(state)
    state.draws = draws_for(state, extra_index("garden", "tower"))
    state, _ = apply(state, SultanReveal(), s)
    during = MODULE.bot_values(state)
    state, _ = apply(state, SultanMark("tower"), s)
    after = MODULE.bot_values(state)
    assert before is not None and during is not None and after is not None
    assert during[s] == after[s] > before[s]
