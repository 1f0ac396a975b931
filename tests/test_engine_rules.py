"""Game rules through the public engine: new_game, legal_actions and apply.

Situations are made by editing a fresh state (cards and tiles are moved, never invented; see
tests/helpers.py). Market squares 1-4 take blue, green, orange and yellow money.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections import Counter

import pytest

from alhambra import city as geo
from alhambra.actions import (
    Action,
    BuildFromReserve,
    BuyBuilding,
    EndTurn,
    ExchangeTiles,
    MoveToReserve,
    PlaceBuilding,
    TakeMoney,
    action_from_dict,
)
from alhambra.components import CURRENCIES
from alhambra.engine import apply, legal_actions, new_game
from alhambra.errors import (
    AlhambraError,
    GameOver,
    IllegalAction,
    IllegalPlacement,
    InvalidPayment,
    NotationError,
    NotYourTurn,
    RecordError,
    WrongPhase,
)
from alhambra.events import (
    AlhambraRedesigned,
    BuildingBought,
    BuildingPlaced,
    DeckReshuffled,
    DisplayRefilled,
    GameEnded,
    GameStarted,
    MarketRefilled,
    MarketTileAwarded,
    MoneyTaken,
    NeutralTilesReceived,
    RoundScored,
    ScoringCardDrawn,
    TurnEnded,
    TurnStarted,
)
from alhambra.record import GameRecord, replay
from alhambra.serialize import state_from_json, state_to_json
from alhambra.state import ChooseAction, GameConfig, GameState, PlaceTiles
from alhambra.view import view
from tests.helpers import (
    card_codes,
    card_id,
    check_cities,
    check_conservation,
    city_codes,
    empty_bag_into_reserve,
    first_take,
    names,
    new_state,
    play,
    put_on_deck_top,
    set_bag_top,
    set_city,
    set_display,
    set_hand,
    set_market,
    set_neutral,
    set_reserve,
    tile_codes,
)

BLUE, GREEN, ORANGE, YELLOW = range(4)


def fresh(players: int = 3, seed: int = 11) -> tuple[GameState, int]:
    s = new_state(players, seed)
    return s, s.current


def of_type(actions: list[Action], cls: type) -> list[Action]:
    return [a for a in actions if isinstance(a, cls)]


def only(events: list, cls: type):  # type: ignore[no-untyped-def]
    got = [e for e in events if isinstance(e, cls)]
    assert len(got) == 1, (cls.__name__, events)
    return got[0]


def place_all_in_reserve(state: GameState) -> tuple[GameState, list]:
    """Resolve every waiting PlaceTiles by putting the tiles on the reserve boards."""
    events: list = []
    while state.pending and isinstance(state.pending[-1], PlaceTiles):
        top = state.pending[-1]
        state, evs = apply(state, PlaceBuilding(top.tiles[0], "reserve"))
        events += evs
    return state, events


# ------------------------------------------------------------------------------------ setup
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_starting_money_is_dealt_until_20(players: int) -> None:
    for seed in range(40):
        s, events = new_game(GameConfig(players=players), seed)
        comp = s.components
        started = events[0]
        assert isinstance(started, GameStarted)
        for seat, p in enumerate(s.players):
            values = [comp.card_value[c] for c in p.hand]
            assert all(comp.card_is_money[c] for c in p.hand)
            assert 20 <= sum(values) <= 28
            assert sum(values[:-1]) < 20, "dealing stops as soon as the total reaches 20"
            assert started.starting_money[seat] == tuple(card_codes(s, p.hand))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_starting_player_has_fewest_cards_then_least_money(players: int) -> None:
    count_ties = 0
    for seed in range(60):
        s, events = new_game(GameConfig(players=players), seed)
        comp = s.components
        key = [(len(p.hand), sum(comp.card_value[c] for c in p.hand), seat) for seat, p in enumerate(s.players)]
        expected = min(key)[2]
        assert s.current == expected
        assert s.to_act == expected
        assert events[0].starting_player == expected
        assert events[1] == TurnStarted(expected, 1)
        assert s.pending == [ChooseAction(expected)]
        fewest = min(k[0] for k in key)
        if sum(1 for k in key if k[0] == fewest) > 1:
            count_ties += 1
    assert count_ties > 0, "the tie-break on the amount of money was never exercised"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_display_market_bag_and_deck(players: int) -> None:
    for seed in range(25):
        s, events = new_game(GameConfig(players=players), seed)
        comp = s.components
        check_conservation(s)
        check_cities(s)
        assert len(s.display) == 4 and all(c >= 0 and comp.card_is_money[c] for c in s.display)
        assert len(s.market) == 4 and all(t >= players for t in s.market)
        assert all(len(p.city) == 1 and not p.reserve for p in s.players)
        assert s.scores == [0] * players
        assert s.discard == [] and s.removed == []
        neutral = 6 if players == 2 else 0
        assert len(s.bag) == 54 - 4 - neutral
        assert (s.neutral is None) == (players != 2)
        money = 72 if players == 2 else 108
        dealt = sum(len(p.hand) for p in s.players)
        assert len(s.deck) == money - dealt - 4 + 2
        assert sorted(comp.cards[c].code for c in s.deck if not comp.card_is_money[c]) == ["S1", "S2"]
        assert events[0].market == tuple(tile_codes(s, s.market))
        assert events[0].display == tuple(card_codes(s, s.display))


def pile_ranges(deck_len: int) -> dict[int, tuple[int, int]]:
    """Index ranges (in the deck list, bottom first) of the five piles, piles 2 and 4 (index 1
    and 3) holding one extra scoring card each."""
    size, extra = divmod(deck_len - 2, 5)
    sizes = [size + (1 if i < extra else 0) + (1 if i in (1, 3) else 0) for i in range(5)]
    out = {}
    start = 0
    for i in reversed(range(5)):  # pile 5 is at the bottom: the start of the list
        out[i] = (start, start + sizes[i])
        start += sizes[i]
    assert start == deck_len
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_scoring_cards_are_shuffled_into_piles_two_and_four(players: int) -> None:
    offsets = set()
    for seed in range(60):
        s, _ = new_game(GameConfig(players=players), seed)
        ranges = pile_ranges(len(s.deck))
        i1 = s.deck.index(card_id(s, "S1"))
        i2 = s.deck.index(card_id(s, "S2"))
        assert ranges[1][0] <= i1 < ranges[1][1], (seed, i1, ranges)
        assert ranges[3][0] <= i2 < ranges[3][1], (seed, i2, ranges)
        offsets.add(i1 - ranges[1][0])
    assert len(offsets) > 3, "the first scoring card is shuffled into its pile, not put in a fixed place"


def test_top_of_the_deck_is_the_end_of_the_list() -> None:
    s, _seat = fresh()
    expected = card_codes(s, [s.deck[-1], s.deck[-2]])
    take = TakeMoney((card_codes(s, [s.display[0]])[0],))
    s2, events = apply(s, take)
    assert only(events, DisplayRefilled) == DisplayRefilled((1,), (expected[0],))
    assert card_codes(s2, [s2.display[0]]) == [expected[0]]


def test_two_player_setup() -> None:
    s, events = new_game(GameConfig(players=2), 5)
    assert len(s.components.cards) == 74
    assert sum(s.components.card_is_money) == 72
    assert len(s.neutral or []) == 6
    assert events[0].neutral_tiles == tuple(tile_codes(s, s.neutral or []))
    assert set(s.neutral or []).isdisjoint(s.market)


def test_setup_is_deterministic_per_seed() -> None:
    a, ea = new_game(GameConfig(players=4), 123)
    b, eb = new_game(GameConfig(players=4), 123)
    c, _ = new_game(GameConfig(players=4), 124)
    assert state_to_json(a) == state_to_json(b)
    assert ea == eb
    assert state_to_json(a)["deck"] != state_to_json(c)["deck"]
    with pytest.raises(TypeError):
        new_game(GameConfig(players=4), "123")  # type: ignore[arg-type]


def test_state_copy_copies_every_field() -> None:
    s, seat = fresh()
    set_reserve(s, seat, ["G10"])
    c = s.copy()
    for f in dataclasses.fields(GameState):
        assert getattr(c, f.name) == getattr(s, f.name), f.name
    # the copy is independent
    c.deck.pop()
    c.players[seat].hand.pop()
    c.players[seat].city[geo.pos(1, 0)] = 99
    c.players[seat].reserve.clear()
    c.market[0] = -1
    c.pending.append(ChooseAction(0))
    assert c.deck != s.deck and c.players[seat].hand != s.players[seat].hand
    assert geo.pos(1, 0) not in s.players[seat].city
    assert s.players[seat].reserve and s.market[0] >= 0 and len(s.pending) == 1


# ------------------------------------------------------------------------------ take money
def test_take_one_card_or_several_totalling_at_most_five() -> None:
    s, _seat = fresh()
    set_display(s, ["b2", "g3", "y7", "o6"])
    takes = {str(a) for a in of_type(legal_actions(s), TakeMoney)}
    # the rulebook example: both cards on the left, or any one card
    assert takes == {"take b2", "take g3", "take y7", "take o6", "take b2+g3"}
    with pytest.raises(IllegalAction):
        apply(s, TakeMoney(("y7", "o6")))
    with pytest.raises(IllegalAction):
        apply(s, TakeMoney(("g3", "o6")))
    with pytest.raises(IllegalAction):
        apply(s, TakeMoney(("b9",)))
    with pytest.raises(IllegalAction):
        apply(s, TakeMoney(()))


def test_take_three_small_cards() -> None:
    s, _ = fresh()
    set_display(s, ["b1", "g1", "y2", "o9"])
    takes = {str(a) for a in of_type(legal_actions(s), TakeMoney)}
    assert takes == {
        "take b1",
        "take g1",
        "take y2",
        "take o9",
        "take b1+g1",
        "take b1+y2",
        "take g1+y2",
        "take b1+g1+y2",
    }
    s2, _ = apply(s, TakeMoney(("b1", "g1", "y2")))
    assert Counter(card_codes(s2, s2.players[s.current].hand)) - Counter(card_codes(s, s.players[s.current].hand)) == Counter(
        {"b1": 1, "g1": 1, "y2": 1}
    )


def test_taking_money_ends_the_turn_and_refills_the_display() -> None:
    s, seat = fresh()
    set_display(s, ["b2", "g3", "y7", "o6"])
    top2 = card_codes(s, [s.deck[-1], s.deck[-2]])
    before = len(s.players[seat].hand)
    s2, events = apply(s, TakeMoney(("b2", "g3")))
    assert names(events) == ["MoneyTaken", "TurnEnded", "DisplayRefilled", "TurnStarted"]
    assert events[0] == MoneyTaken(seat, ("b2", "g3"))
    assert events[2] == DisplayRefilled((1, 2), tuple(top2))
    nxt = (seat + 1) % 3
    assert events[3] == TurnStarted(nxt, 2)
    assert len(s2.players[seat].hand) == before + 2
    assert card_codes(s2, s2.display) == [*top2, "y7", "o6"]
    assert s2.to_act == nxt and s2.current == nxt


def test_take_identical_cards_together() -> None:
    s, _ = fresh()
    set_display(s, ["b2", "b2", "g1", "o9"])
    takes = {str(a) for a in of_type(legal_actions(s), TakeMoney)}
    assert {"take b2+b2", "take b2+b2+g1", "take b2+g1"} <= takes
    assert "take b2+b2+g1+o9" not in takes
    s2, _ = apply(s, TakeMoney(("b2", "b2", "g1")))
    assert s2.display.count(-1) == 0  # refilled at the end of the turn


# ---------------------------------------------------------------------------------- buying
def garden_situation(hand: list[str]) -> tuple[GameState, int]:
    s, seat = fresh()
    set_market(s, ["G10", "S4ne", "C5nsw", "T11"])
    set_hand(s, seat, hand)
    assert CURRENCIES[s.market_currency[0]] == "blue"
    return s, seat


def test_rulebook_garden_purchase_without_change() -> None:
    # garden costs 10 blue; two blue cards worth 11: may buy, no change, the turn ends
    s, seat = garden_situation(["b5", "b6", "g3"])
    buys = [str(a) for a in of_type(legal_actions(s), BuyBuilding) if a.square == 1]
    assert buys == ["buy 1 b6+b5"]
    s2, events = apply(s, BuyBuilding(1, ("b6", "b5")))
    assert events == [BuildingBought(seat, 1, "G10", ("b6", "b5"), False)]
    assert s2.pending == [PlaceTiles(seat, ("G10",), False, "bought")]
    assert card_codes(s2, s2.players[seat].hand) == ["g3"]
    assert sorted(card_codes(s2, s2.discard)) == ["b5", "b6"]
    acts = legal_actions(s2)
    assert acts and all(isinstance(a, PlaceBuilding) for a in acts)
    assert {a.target for a in acts} == {(1, 0), (-1, 0), (0, 1), (0, -1), "reserve"}
    # the market square stays empty until the tile is placed and the turn ends
    assert s2.market[0] == -1
    s3, events = apply(s2, PlaceBuilding("G10", (0, 1)))
    assert names(events)[:2] == ["BuildingPlaced", "TurnEnded"]
    assert "MarketRefilled" in names(events) and events[-1] == TurnStarted((seat + 1) % 3, 2)
    assert city_codes(s3, seat) == {(0, 0): "F", (0, 1): "G10"}
    assert s3.market[0] >= 0


def test_exact_payment_gives_another_action() -> None:
    s, seat = garden_situation(["b4", "b6", "g9"])
    s2, events = apply(s, BuyBuilding(1, ("b6", "b4")))
    assert events == [BuildingBought(seat, 1, "G10", ("b6", "b4"), True)]
    assert s2.pending == [ChooseAction(seat, 1, ("G10",))]
    acts = legal_actions(s2)
    assert EndTurn() not in acts, "after an exact payment the player takes another action; there is no 'end'"
    assert of_type(acts, TakeMoney)
    assert not of_type(acts, PlaceBuilding)
    assert all(a.square != 1 for a in of_type(acts, BuyBuilding)), "square 1 is empty until the turn ends"
    # the tile waits next to the Alhambra, it is neither built nor on the reserve board
    assert city_codes(s2, seat) == {(0, 0): "F"} and s2.players[seat].reserve == []
    with pytest.raises(WrongPhase):
        apply(s2, PlaceBuilding("G10", (1, 0)))
    with pytest.raises(IllegalAction, match="empty"):
        apply(s2, BuyBuilding(1, ("g9",)))
    with pytest.raises(IllegalAction, match="another action"):
        apply(s2, EndTurn())
    s3, events = apply(s2, of_type(acts, TakeMoney)[0])
    assert [type(e) for e in events] == [MoneyTaken]
    assert s3.pending == [PlaceTiles(seat, ("G10",), False, "bought")]


def five_action_situation() -> tuple[GameState, int]:
    s, seat = fresh()
    set_market(s, ["G10", "S4ne", "C5nsw", "T11"])
    set_hand(s, seat, ["b4", "b6", "g4", "o5", "y9", "y2"])
    return s, seat


def test_four_exact_purchases_and_a_fifth_action() -> None:
    s, seat = five_action_situation()
    s, events = play(s, "buy 1 b6+b4", "buy 2 g4", "buy 3 o5", "buy 4 y9+y2")
    assert [e.exact for e in events] == [True] * 4
    assert s.pending == [ChooseAction(seat, 4, ("G10", "S4ne", "C5nsw", "T11"))]
    assert s.market == [-1, -1, -1, -1]
    acts = legal_actions(s)
    assert not of_type(acts, BuyBuilding)
    assert EndTurn() not in acts and of_type(acts, TakeMoney)
    # the fifth action ends the turn; then the four tiles are placed in any order
    take = of_type(acts, TakeMoney)[0]
    s, events = apply(s, take)
    assert s.pending == [PlaceTiles(seat, ("G10", "S4ne", "C5nsw", "T11"), False, "bought")]
    assert "TurnEnded" not in names(events)
    s, _ = play(s, "place T11 1,0", "place C5nsw reserve", "place S4ne reserve")
    assert s.pending == [PlaceTiles(seat, ("G10",), False, "bought")]
    nxt_bag = tile_codes(s, s.bag[::-1][:4])
    s, events = play(s, "place G10 -1,0")
    assert names(events) == ["BuildingPlaced", "TurnEnded", "DisplayRefilled", "MarketRefilled", "TurnStarted"]
    assert only(events, MarketRefilled) == MarketRefilled((1, 2, 3, 4), tuple(nxt_bag))
    assert city_codes(s, seat) == {(0, 0): "F", (1, 0): "T11", (-1, 0): "G10"}
    assert sorted(tile_codes(s, s.players[seat].reserve)) == ["C5nsw", "S4ne"]
    check_conservation(s)


def test_end_turn_only_after_an_action() -> None:
    s, _seat = fresh()
    assert EndTurn() not in legal_actions(s)
    with pytest.raises(IllegalAction):
        apply(s, EndTurn())


def test_payment_must_be_in_the_square_currency() -> None:
    s, _seat = garden_situation(["b5", "b5", "g9", "g1"])
    # square 2 (green) holds S4ne: blue money is refused
    with pytest.raises(InvalidPayment):
        apply(s, BuyBuilding(2, ("b5",)))
    # mixing currencies is refused even when the right currency alone would do
    with pytest.raises(InvalidPayment):
        apply(s, BuyBuilding(1, ("b5", "b5", "g1")))
    # not enough
    with pytest.raises(InvalidPayment):
        apply(s, BuyBuilding(1, ("b5",)))
    # cards not in the hand
    with pytest.raises(InvalidPayment):
        apply(s, BuyBuilding(1, ("b9", "b1")))
    with pytest.raises(InvalidPayment):
        apply(s, BuyBuilding(1, ("b5", "b5", "b5")))
    with pytest.raises(InvalidPayment):
        apply(s, BuyBuilding(1, ()))
    for square in (0, 5):
        with pytest.raises(IllegalAction):
            apply(s, BuyBuilding(square, ("b5", "b5")))
    # the right currency works, exactly
    _s2, events = apply(s, BuyBuilding(1, ("b5", "b5")))
    assert events[0].exact


def test_overpaying_with_superfluous_cards_is_allowed() -> None:
    s, seat = garden_situation(["b9", "b9", "b1"])
    buys = {str(a) for a in of_type(legal_actions(s), BuyBuilding) if a.square == 1}
    assert buys == {"buy 1 b9+b9+b1", "buy 1 b9+b9", "buy 1 b9+b1"}
    s2, events = apply(s, BuyBuilding(1, ("b9", "b9")))
    assert not events[0].exact
    assert card_codes(s2, s2.players[seat].hand) == ["b1"]


def test_legal_buys_are_exactly_the_affordable_payments() -> None:
    s, _seat = garden_situation(["b3", "b3", "b4", "o2", "y9", "y2"])
    buys = {str(a) for a in of_type(legal_actions(s), BuyBuilding)}
    # G10 (blue): b3+b3+b4 = 10 only; C5nsw (orange, 5): o2 is too little; T11 (yellow): y9+y2
    assert buys == {"buy 1 b4+b3+b3", "buy 4 y9+y2"}


def test_placement_rules_are_enforced_with_the_rule_name() -> None:
    s, seat = fresh()
    set_market(s, ["T13e", "S4ne", "A9", "P7e"])
    set_city(s, seat, {(1, 0): "P6n", (2, 0): "T12", (2, 1): "G10", (2, 2): "C10", (1, 2): "S9"})
    check_cities(s)
    set_hand(s, seat, ["b9", "b4", "o9", "y7"])
    s, _ = play(s, "buy 1 b9+b4", "buy 3 o9", "buy 4 y7", first_take)
    assert isinstance(s.pending[-1], PlaceTiles)
    cases = [
        (PlaceBuilding("T13e", (-1, 0)), "walls_match"),  # east wall against the open fountain
        (PlaceBuilding("T13e", (3, 3)), "adjacent"),  # corner only
        (PlaceBuilding("T13e", (0, 0)), "occupied"),
        (PlaceBuilding("A9", (0, 1)), "no_holes"),  # the Arcades picture: (1, 1) would be enclosed
        (PlaceBuilding("P7e", (1, -1)), "walls_match"),  # P6n has a north wall, P7e an open south
    ]
    for action, rule in cases:
        with pytest.raises(IllegalPlacement) as info:
            apply(s, action)
        assert info.value.rule == rule, action
        assert action not in legal_actions(s)
    with pytest.raises(IllegalAction):
        apply(s, PlaceBuilding("T13e", "neutral"))  # no neutral player with 3 players
    with pytest.raises(IllegalAction):
        apply(s, PlaceBuilding("G12s", "reserve"))  # not waiting
    # any order: the last bought first
    s2, events = apply(s, PlaceBuilding("P7e", (0, -1)))
    assert events[0] == BuildingPlaced(seat, "P7e", (0, -1))
    s3, _ = apply(s2, PlaceBuilding("A9", (1, 1)))  # filling the would-be hole is fine
    s4, _ = apply(s3, PlaceBuilding("T13e", "reserve"))
    assert tile_codes(s4, s4.players[seat].reserve) == ["T13e"]
    check_cities(s4)


def test_on_foot_rule_for_a_placed_tower() -> None:
    s, seat = fresh()
    set_market(s, ["G10", "S4ne", "C5nsw", "T10w"])
    set_city(s, seat, {(1, 0): "P7e"})
    set_hand(s, seat, ["y9", "y1"])
    s, _ = play(s, "buy 4 y9+y1", first_take)
    with pytest.raises(IllegalPlacement) as info:
        apply(s, PlaceBuilding("T10w", (2, 0)))
    assert info.value.rule == "on_foot"


def test_market_is_refilled_in_ascending_order() -> None:
    # the rulebook example: tiles on squares 2 and 4 were bought; the first new tile goes on 2
    s, seat = fresh()
    set_market(s, ["G10", "S4ne", "C5nsw", "T11"])
    set_hand(s, seat, ["g4", "y9", "y2"])
    set_bag_top(s, ["P2new", "T7new"])
    s, events = play(s, "buy 4 y9+y2", "buy 2 g4", first_take, "place S4ne reserve", "place T11 reserve")
    assert only(events, MarketRefilled) == MarketRefilled((2, 4), ("P2new", "T7new"))
    assert tile_codes(s, s.market) == ["G10", "P2new", "C5nsw", "T7new"]


def test_empty_deck_is_replaced_by_the_shuffled_discards() -> None:
    s, _seat = fresh()
    scoring = [c for c in s.deck if not s.components.card_is_money[c]]
    s.discard = [c for c in s.deck if s.components.card_is_money[c]]
    s.deck = []
    s.removed = scoring  # keep every card accounted for; no scoring round is queued by this
    check_conservation(s)
    n = len(s.discard)
    take = of_type(legal_actions(s), TakeMoney)[0]
    s2, events = apply(s, take)
    assert only(events, DeckReshuffled) == DeckReshuffled(n)
    assert names(events).index("DeckReshuffled") < names(events).index("DisplayRefilled")
    assert s2.discard == [] and len(s2.deck) == n - len(take.cards)
    assert s2.reshuffles == 1
    assert all(c >= 0 for c in s2.display)
    check_conservation(s2)
    # reshuffles are fixed by the seed: doing it again gives the same deck
    s3, _ = apply(s, take)
    assert s3.deck == s2.deck


def test_drawn_scoring_card_scores_before_the_next_turn() -> None:
    s, seat = fresh()
    set_city(s, seat, {(1, 0): "C10"})
    put_on_deck_top(s, "S1")
    take = TakeMoney((card_codes(s, [s.display[0]])[0],))
    s2, events = apply(s, take)
    assert names(events) == ["MoneyTaken", "TurnEnded", "ScoringCardDrawn", "DisplayRefilled", "RoundScored", "TurnStarted"]
    assert events[2] == ScoringCardDrawn(1)
    assert events[-1] == TurnStarted((seat + 1) % 3, 2)
    rs = events[4]
    assert rs.round == 1 and rs.kinds["chambers"][seat] == 4 and rs.points[seat] == 4
    assert s2.scores[seat] == 4
    assert card_id(s2, "S1") in s2.removed
    # the display is made up to four money cards by the next card(s)
    assert all(c >= 0 and s2.components.card_is_money[c] for c in s2.display)
    assert s2.rounds_scored == 1 and s2.score_history == [tuple(s2.scores)]
    check_conservation(s2)


def three_player_cities(s: GameState) -> None:
    # seat 0: 2 towers, 1 garden, wall of 3; seat 1: 2 towers, 1 chambers, wall 1;
    # seat 2: 1 tower and 2 gardens, wall 1, and two towers on the reserve board (never counted)
    set_city(s, 0, {(1, 0): "T11n", (2, 0): "T9ne", (-1, 0): "G10"})
    set_city(s, 1, {(1, 0): "T12", (2, 0): "T13e", (-1, 0): "C10"})
    set_city(s, 2, {(1, 0): "T11", (-1, 0): "G11", (-2, 0): "G12s"})
    set_reserve(s, 2, ["T9es", "T10w"])
    check_cities(s)


def take_first(s: GameState) -> tuple[GameState, list]:
    return apply(s, TakeMoney((card_codes(s, [s.display[0]])[0],)))


def test_round_by_round_scoring() -> None:
    s = new_state(3, 11)
    three_player_cities(s)

    put_on_deck_top(s, "S1")
    s, events = take_first(s)
    r1 = only(events, RoundScored)
    assert r1.round == 1
    assert r1.counts["tower"] == (2, 2, 1) and r1.counts["garden"] == (1, 0, 2)
    assert r1.kinds["tower"] == (3, 3, 0)  # tied for first: (6 + nothing) // 2
    assert r1.kinds["garden"] == (0, 0, 5)  # only the majority holder scores in round 1
    assert r1.kinds["chambers"] == (0, 4, 0)
    assert r1.walls == (3, 1, 1)
    assert r1.points == (6, 8, 6)
    assert r1.scores == (6, 8, 6)

    put_on_deck_top(s, "S2")
    s, events = take_first(s)
    r2 = only(events, RoundScored)
    assert r2.round == 2
    assert r2.kinds["tower"] == (9, 9, 0)  # (13 + 6) // 2; the third place is not paid in round 2
    assert r2.kinds["garden"] == (5, 0, 12)
    assert r2.kinds["chambers"] == (0, 11, 0)
    assert r2.points == (17, 21, 13)
    assert r2.scores == (23, 29, 19)

    # end of the game: nothing left in the bag; everyone holds b1 g1 o1 y1, so no market tile
    # is handed out at the end
    set_market(s, ["P2new", "S3esw", "A4nes", "C5nsw"])
    empty_bag_into_reserve(s, 2)
    buyer = s.current
    for seat in range(3):
        set_hand(s, seat, ["b1", "g1", "o1", "y1"] + (["b3"] if seat == buyer else []))
    s, events = play(s, "buy 1 b3", "place P2new reserve")
    assert not any(isinstance(e, MarketTileAwarded) for e in events)
    r3 = only(events, RoundScored)
    assert r3.round == 3
    assert r3.kinds["tower"] == (17, 17, 6)
    assert r3.kinds["garden"] == (12, 0, 20)
    assert r3.kinds["chambers"] == (0, 19, 0)
    assert r3.walls == (3, 1, 1)
    assert r3.points == (32, 37, 27)
    assert s.scores == [55, 66, 46]
    assert events[-1] == GameEnded("finished", (55, 66, 46), (1,))
    assert s.score_history == [(6, 8, 6), (23, 29, 19), (55, 66, 46)]
    assert s.is_over and s.outcome == "finished" and legal_actions(s) == []
    check_conservation(s)


# -------------------------------------------------------------------------------- redesign
def redesign_situation() -> tuple[GameState, int]:
    s, seat = fresh()
    set_city(s, seat, {(1, 0): "G10", (2, 0): "T11"})
    set_reserve(s, seat, ["C10", "S7w", "P7e"])
    return s, seat


def test_redesign_build_from_reserve() -> None:
    s, seat = redesign_situation()
    builds = of_type(legal_actions(s), BuildFromReserve)
    assert BuildFromReserve("C10", (0, 1)) in builds
    assert BuildFromReserve("P7e", (-1, 0)) not in builds
    s2, events = apply(s, BuildFromReserve("C10", (1, 1)))
    assert events[0] == AlhambraRedesigned(seat, "build", "C10", 1, 1)
    assert events[1] == TurnEnded(seat), "a redesign ends the turn"
    assert events[-1] == TurnStarted((seat + 1) % 3, 2)
    assert city_codes(s2, seat)[(1, 1)] == "C10"
    assert sorted(tile_codes(s2, s2.players[seat].reserve)) == ["P7e", "S7w"]
    with pytest.raises(IllegalPlacement) as info:
        apply(s, BuildFromReserve("P7e", (-1, 0)))
    assert info.value.rule == "walls_match"
    with pytest.raises(IllegalPlacement) as info:
        apply(s, BuildFromReserve("C10", (4, 4)))
    assert info.value.rule == "adjacent"
    with pytest.raises(IllegalAction):
        apply(s, BuildFromReserve("G12s", (0, 1)))  # not on the reserve board


def test_redesign_move_to_reserve() -> None:
    s, seat = redesign_situation()
    removes = of_type(legal_actions(s), MoveToReserve)
    assert removes == [MoveToReserve("T11")]  # G10 holds T11 to the fountain
    with pytest.raises(IllegalPlacement) as info:
        apply(s, MoveToReserve("G10"))
    assert info.value.rule == "on_foot"
    s2, events = apply(s, MoveToReserve("T11"))
    assert events[0] == AlhambraRedesigned(seat, "remove", "T11", 2, 0)
    assert events[1] == TurnEnded(seat)
    assert city_codes(s2, seat) == {(0, 0): "F", (1, 0): "G10"}
    assert "T11" in tile_codes(s2, s2.players[seat].reserve)
    with pytest.raises(IllegalAction):
        apply(s, MoveToReserve("C11"))  # not in the Alhambra


def test_redesign_removal_that_would_leave_a_hole() -> None:
    s, seat = fresh()
    set_city(
        s,
        seat,
        {(1, 0): "A9", (2, 0): "A10", (0, 1): "C10", (1, 1): "C11", (2, 1): "G10", (0, -1): "G11", (1, -1): "T11", (2, -1): "T12"},
    )
    check_cities(s)
    # the tile on (1, 0) has tiles on all four sides
    with pytest.raises(IllegalPlacement) as info:
        apply(s, MoveToReserve("A9"))
    assert info.value.rule == "no_holes"
    assert MoveToReserve("A9") not in legal_actions(s)
    assert MoveToReserve("A10") in legal_actions(s)


def test_redesign_exchange_in_exactly_the_same_place() -> None:
    s, seat = redesign_situation()
    exchanges = of_type(legal_actions(s), ExchangeTiles)
    assert ExchangeTiles("C10", "G10") in exchanges and ExchangeTiles("C10", "T11") in exchanges
    assert ExchangeTiles("S7w", "G10") not in exchanges  # west wall against the open fountain
    assert ExchangeTiles("P7e", "T11") in exchanges  # east wall faces outwards at the end of the row
    s2, events = apply(s, ExchangeTiles("C10", "G10"))
    assert events[0] == AlhambraRedesigned(seat, "exchange", "C10", 1, 0, "G10")
    assert events[1] == TurnEnded(seat)
    assert city_codes(s2, seat) == {(0, 0): "F", (1, 0): "C10", (2, 0): "T11"}
    assert sorted(tile_codes(s2, s2.players[seat].reserve)) == ["G10", "P7e", "S7w"]
    with pytest.raises(IllegalPlacement) as info:
        apply(s, ExchangeTiles("S7w", "G10"))
    assert info.value.rule == "walls_match"
    with pytest.raises(IllegalPlacement) as info:
        apply(s, ExchangeTiles("P7e", "G10"))  # P7e's east wall would face T11's open west
    assert info.value.rule == "walls_match"
    with pytest.raises(IllegalAction):
        apply(s, ExchangeTiles("G12s", "G10"))  # not on the reserve board


def test_the_fountain_is_never_moved_or_exchanged() -> None:
    s, _seat = redesign_situation()
    acts = legal_actions(s)
    assert not [a for a in acts if isinstance(a, MoveToReserve) and a.tile == "F"]
    assert not [a for a in acts if isinstance(a, ExchangeTiles) and a.city_tile == "F"]
    for bad in (MoveToReserve("F"), ExchangeTiles("C10", "F")):
        with pytest.raises(IllegalAction):
            apply(s, bad)


def test_no_redesign_without_tiles() -> None:
    s, _seat = fresh()
    acts = legal_actions(s)
    assert not [a for a in acts if isinstance(a, BuildFromReserve | MoveToReserve | ExchangeTiles)]


# ------------------------------------------------------------------------------- game end
def test_game_ends_when_the_market_cannot_be_refilled() -> None:
    s, seat = fresh()
    a, b = (seat + 1) % 3, (seat + 2) % 3
    set_market(s, ["G10", "S4ne", "C5nsw", "T11"])
    empty_bag_into_reserve(s, b)
    set_bag_top(s, ["A9"])  # the one tile left in the bag
    last = "A9"
    set_hand(s, seat, ["b6", "b4", "g5", "o3", "y5"])
    set_hand(s, a, ["b9", "o3"])
    set_hand(s, b, ["b2", "b3", "b1", "y6"])
    s, events = play(s, "buy 1 b6+b4", "buy 2 g5", "place S4ne reserve")
    assert isinstance(s.pending[-1], PlaceTiles) and not s.is_over
    s, events = play(s, "place G10 reserve")
    # square 1 gets the last tile, square 2 stays empty: the game ends
    assert only(events, MarketRefilled) == MarketRefilled((1,), (last,))
    # square 1 (blue): a has 9 (one card) against b's 6 (three cards) -> a
    # square 3 (orange): the buyer and a both have 3 -> the tile stays on the market
    # square 4 (yellow): b has 6 against the buyer's 5 -> b
    awards = [e for e in events if isinstance(e, MarketTileAwarded)]
    assert awards == [MarketTileAwarded(a, 1, last), MarketTileAwarded(b, 4, "T11")]
    assert tile_codes(s, [s.market[2]]) == ["C5nsw"] and s.market[0] == s.market[1] == s.market[3] == -1
    assert not any(isinstance(e, RoundScored) for e in events), "the tiles are placed before the final scoring"
    # recipients place them, starting with the player after the one whose turn it was
    assert s.to_act == a
    assert s.pending[-1] == PlaceTiles(a, (last,), False, "final")
    acts = legal_actions(s)
    assert PlaceBuilding(last, "reserve") in acts and all(x.target != "neutral" for x in acts)
    with pytest.raises(NotYourTurn):
        apply(s, PlaceBuilding(last, "reserve"), seat=b)
    s, events = play(s, PlaceBuilding(last, (0, 1)), seat=a)
    assert s.to_act == b
    s, events = play(s, "place T11 1,0")
    assert names(events)[-2:] == ["RoundScored", "GameEnded"]
    r3 = only(events, RoundScored)
    assert r3.round == 3 and r3.kinds["arcades"][a] == 18 and r3.kinds["tower"][b] == 21
    assert city_codes(s, a) == {(0, 0): "F", (0, 1): last} and city_codes(s, b) == {(0, 0): "F", (1, 0): "T11"}
    assert s.outcome == "finished" and s.is_over and s.to_act is None
    assert legal_actions(s) == []
    with pytest.raises(GameOver):
        apply(s, TakeMoney(("b1",)))
    check_conservation(s)


def test_nobody_gets_a_tile_on_a_tie_or_without_money() -> None:
    s, seat = fresh()
    set_market(s, ["G10", "S4ne", "C5nsw", "T11"])
    empty_bag_into_reserve(s, 1)
    a, b = (seat + 1) % 3, (seat + 2) % 3
    set_hand(s, seat, ["b9", "b2", "g4"])
    set_hand(s, a, ["g4"])
    set_hand(s, b, ["g2", "g2"])
    s, events = play(s, "buy 1 b9+b2", "place G10 reserve")
    # green: 4 / 4 / 4 -> tie; orange and yellow: nobody has any
    assert not any(isinstance(e, MarketTileAwarded) for e in events)
    assert names(events)[-2:] == ["RoundScored", "GameEnded"]
    assert tile_codes(s, [t for t in s.market if t >= 0]) == ["S4ne", "C5nsw", "T11"]


@pytest.mark.parametrize(("scores", "winners"), [([10, 10, 3], (0, 1)), ([10, 12, 3], (1,)), ([4, 4, 4], (0, 1, 2))])
def test_highest_score_wins_and_ties_share(scores: list[int], winners: tuple[int, ...]) -> None:
    s, seat = fresh()
    set_market(s, ["G10", "S4ne", "C5nsw", "T11"])
    empty_bag_into_reserve(s, 1)
    for x in range(3):
        set_hand(s, x, ["b9", "b2"] if x == seat else [])
    s.scores = list(scores)  # empty Alhambras: the final round adds nothing
    s, events = play(s, "buy 1 b9+b2", "place G10 reserve")
    assert only(events, RoundScored).points == (0, 0, 0)
    assert events[-1] == GameEnded("finished", tuple(scores), winners)


def test_the_market_refilled_exactly_does_not_end_the_game() -> None:
    s, seat = fresh()
    set_market(s, ["G10", "S4ne", "C5nsw", "T11"])
    empty_bag_into_reserve(s, 2, keep=1)
    set_hand(s, seat, ["b9", "b2"])
    s, events = play(s, "buy 1 b9+b2", "place G10 reserve")
    assert s.bag == [] and all(t >= 0 for t in s.market)
    assert not s.is_over and isinstance(events[-1], TurnStarted)


# ---------------------------------------------------------------------------- 2 players
def test_neutral_player_scores_majorities_but_no_wall() -> None:
    s, seat = fresh(players=2, seed=3)
    set_neutral(s, ["T12", "T13e", "T7new", "A9", "A10", "P2new"])
    set_city(s, seat, {(1, 0): "T11"})
    put_on_deck_top(s, "S1")
    bag_before = tile_codes(s, s.bag)
    s, events = take_first(s)
    r1 = only(events, RoundScored)
    # neutral last in the per-kind tuples: 3 towers beat 1; 2 arcades, 1 pavilion: first each
    assert r1.kinds["tower"] == (0, 0, 6)
    assert r1.kinds["arcades"] == (0, 0, 3)
    assert r1.kinds["pavilion"] == (0, 0, 1)
    assert r1.neutral_points == 10 and r1.neutral_score == 10 and s.neutral_score == 10
    assert r1.walls == (0, 0) and len(r1.points) == 2
    # right after the first scoring the neutral player gets 6 more tiles from the bag
    got = only(events, NeutralTilesReceived)
    assert got.tiles == tuple(bag_before[::-1][:6])
    assert names(events).index("NeutralTilesReceived") == names(events).index("RoundScored") + 1
    assert len(s.neutral or []) == 12
    check_conservation(s)


def test_neutral_player_gets_a_third_of_the_bag_after_the_second_scoring() -> None:
    s, _seat = fresh(players=2, seed=3)
    c = card_id(s, "S1")
    s.deck.remove(c)
    s.removed.append(c)  # the first scoring is over
    s.rounds_scored = 1
    put_on_deck_top(s, "S2")
    empty_bag_into_reserve(s, 0, keep=31)
    s, events = take_first(s)
    assert only(events, RoundScored).round == 2
    assert len(only(events, NeutralTilesReceived).tiles) == 10  # 31 // 3
    assert len(s.bag) == 21 and len(s.neutral or []) == 16
    check_conservation(s)


def test_a_bought_tile_may_be_given_to_the_neutral_player() -> None:
    s, seat = fresh(players=2, seed=3)
    set_market(s, ["G10", "S4ne", "C5nsw", "T11"])
    set_hand(s, seat, ["b9", "b1", "g4"])
    s, _ = play(s, "buy 1 b9+b1", "buy 2 g4", first_take)
    assert s.pending[-1] == PlaceTiles(seat, ("G10", "S4ne"), True, "bought")
    assert PlaceBuilding("G10", "neutral") in legal_actions(s)
    n = len(s.neutral or [])
    s, events = play(s, "place G10 neutral", "place S4ne reserve")
    assert events[0] == BuildingPlaced(seat, "G10", "neutral")
    assert len(s.neutral or []) == n + 1 and "G10" in tile_codes(s, s.neutral or [])
    check_conservation(s)


def test_final_tiles_cannot_go_to_the_neutral_player() -> None:
    s, seat = fresh(players=2, seed=3)
    other = 1 - seat
    set_market(s, ["G10", "S4ne", "C5nsw", "T11"])
    empty_bag_into_reserve(s, other)
    set_hand(s, seat, ["b9", "b2"])
    set_hand(s, other, ["g2"])
    s, events = play(s, "buy 1 b9+b2", "place G10 reserve")
    assert only(events, MarketTileAwarded) == MarketTileAwarded(other, 2, "S4ne")
    assert s.pending[-1] == PlaceTiles(other, ("S4ne",), False, "final")
    assert PlaceBuilding("S4ne", "neutral") not in legal_actions(s)
    with pytest.raises(IllegalAction):
        apply(s, PlaceBuilding("S4ne", "neutral"))


# ---------------------------------------------------------------------------- turn limit
def test_turn_limit_truncates_the_game() -> None:
    s, events = new_game(GameConfig(players=3, turn_limit=2), 11)
    s, events = take_first(s)
    assert not s.is_over and s.turn == 2
    s, events = take_first(s)
    assert events[-1] == GameEnded("truncated", tuple(s.scores), (0, 1, 2))
    assert not any(isinstance(e, RoundScored) for e in events)
    assert s.outcome == "truncated" and s.is_over and s.to_act is None
    assert legal_actions(s) == []
    with pytest.raises(GameOver):
        apply(s, TakeMoney(("b1",)))


# -------------------------------------------------------------------------------- errors
def test_not_your_turn() -> None:
    s, seat = fresh()
    act = legal_actions(s)[0]
    for other in range(3):
        if other != seat:
            with pytest.raises(NotYourTurn):
                apply(s, act, seat=other)
    s2, _ = apply(s, act, seat=seat)
    assert s2.turn == 2
    assert issubclass(NotYourTurn, IllegalAction)


def test_wrong_phase() -> None:
    s, _seat = garden_situation(["b5", "b6"])
    with pytest.raises(WrongPhase):
        apply(s, PlaceBuilding("G10", (1, 0)))
    s, _ = apply(s, BuyBuilding(1, ("b6", "b5")))
    for act in (TakeMoney((card_codes(s, [s.display[0]])[0],)), BuyBuilding(2, ("g1",)), EndTurn(), MoveToReserve("G10")):
        with pytest.raises(WrongPhase):
            apply(s, act)


def test_not_an_action() -> None:
    s, _ = fresh()
    with pytest.raises(IllegalAction):
        apply(s, "take b1")  # type: ignore[arg-type]


def test_apply_never_mutates_its_input() -> None:
    s, seat = five_action_situation()
    set_reserve(s, seat, ["A9"])
    for act in [*legal_actions(s), BuyBuilding(1, ("b9",)), PlaceBuilding("G10", (1, 0)), EndTurn(), MoveToReserve("F")]:
        before = json.dumps(state_to_json(s), sort_keys=True)
        with contextlib.suppress(IllegalAction):
            apply(s, act)
        assert json.dumps(state_to_json(s), sort_keys=True) == before, act
    s2, _ = play(s, "buy 1 b6+b4", "buy 2 g4", first_take)
    before = json.dumps(state_to_json(s2), sort_keys=True)
    for act in legal_actions(s2):
        apply(s2, act)
    assert json.dumps(state_to_json(s2), sort_keys=True) == before


def test_the_only_way_out_when_nothing_is_possible_is_to_pass() -> None:
    # every money card is in the hands, nothing is affordable, nothing to redesign
    s, seat = fresh()
    nxt = (seat + 1) % 3
    rest = [c for c in s.deck if s.components.card_is_money[c]] + [c for c in s.display if c >= 0] + s.discard + s.players[seat].hand
    s.removed += [c for c in s.deck if not s.components.card_is_money[c]]
    s.deck, s.display, s.discard = [], [-1, -1, -1, -1], []
    s.players[nxt].hand += rest
    s.players[seat].hand = []
    check_conservation(s)
    acts = legal_actions(s)
    assert acts == [EndTurn()]
    s2, events = apply(s, EndTurn())
    assert events[0] == TurnEnded(seat) and s2.to_act == nxt


# ---------------------------------------------------------------------- views and records
def test_view_shows_own_hand_only() -> None:
    s, seat = fresh()
    for viewer in range(3):
        v = view(s, viewer)
        for entry in v["seats"]:
            if entry["seat"] == viewer:
                assert sorted(entry["hand"]) == sorted(card_codes(s, s.players[viewer].hand))
            else:
                assert entry["hand"] is None
            assert entry["hand_count"] == len(s.players[entry["seat"]].hand)
        assert (v["legal_actions"] != []) == (viewer == seat)
    spectator = view(s, None)
    assert all(e["hand"] is None for e in spectator["seats"]) and spectator["legal_actions"] == []
    assert view(s, seat)["legal_actions"] == [str(a) for a in legal_actions(s)]
    for bad in (3, -1, "0"):
        with pytest.raises(ValueError):
            view(s, bad)  # type: ignore[arg-type]


def test_record_round_trip_and_bad_steps() -> None:
    s, _seat = fresh()
    first = next(a for a in legal_actions(s) if isinstance(a, TakeMoney))
    rec = GameRecord(GameConfig(players=3), 11, [first])
    again = GameRecord.from_json(json.loads(json.dumps(rec.to_json())))
    assert again == rec
    final, _ = replay(again)
    assert state_to_json(final) == state_to_json(apply(s, first)[0])
    bad = GameRecord(GameConfig(players=3), 11, [first, EndTurn()])
    with pytest.raises(RecordError) as info:
        replay(bad)
    assert info.value.step == 1
    with pytest.raises(RecordError):
        GameRecord.from_json({"format": "alhambra-record/1", "config": {"players": 3}, "seed": 1, "actions": ["fly away"]})
    with pytest.raises(RecordError):
        GameRecord.from_json({"format": "nope"})


@pytest.mark.parametrize(
    "junk",
    [
        {"type": "BuyBuilding", "square": "1", "payment": ["b1"]},
        {"type": "BuyBuilding", "square": 1.0, "payment": ["b1"]},
        {"type": "BuyBuilding", "square": 1, "payment": [1]},
        {"type": "TakeMoney", "cards": [None]},
        {"type": "TakeMoney", "cards": "b1"},
        {"type": "PlaceBuilding", "tile": "G10", "target": [1.5, 2]},
        {"type": "MoveToReserve", "tile": 5},
        {"type": "Teleport"},
        {"type": "EndTurn", "extra": 1},
    ],
)
def test_malformed_action_dicts_are_notation_errors(junk: dict) -> None:
    with pytest.raises(NotationError):
        action_from_dict(junk)
    rec = {"format": "alhambra-record/1", "config": {"players": 3}, "seed": 1, "actions": [junk]}
    with pytest.raises(RecordError):
        GameRecord.from_json(rec)


def test_state_from_json_rejects_junk() -> None:
    s, _ = fresh()
    good = state_to_json(s)
    assert state_to_json(state_from_json(good)) == good
    for broken in (
        {**good, "format": "x"},
        {**good, "deck": [*good["deck"], 10_000]},
        {**good, "bag": ["Q99"]},
        {k: v for k, v in good.items() if k != "players"},
    ):
        with pytest.raises(AlhambraError):
            state_from_json(broken)
