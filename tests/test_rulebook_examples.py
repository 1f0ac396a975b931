"""The worked examples and pictures of the rulebooks, played through the engine.

Sources: alhambra-big-box-rules-en.txt (base game pages) and alhambra-base-rules-en.txt.
"""

from __future__ import annotations

import pytest

from alhambra import city as geo
from alhambra.actions import ExchangeTiles, PlaceBuilding, TakeMoney
from alhambra.engine import apply, legal_actions
from alhambra.errors import IllegalPlacement
from alhambra.events import BuildingBought, MarketRefilled, RoundScored, TurnEnded
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.view import view
from tests.helpers import (
    card_codes,
    check_cities,
    city_codes,
    empty_bag_into_reserve,
    first_take,
    new_state,
    play,
    put_on_deck_top,
    set_bag_top,
    set_city,
    set_display,
    set_hand,
    set_market,
    set_reserve,
    tile_codes,
)


def take_first(s: GameState) -> tuple[GameState, list]:
    return apply(s, TakeMoney((card_codes(s, [s.display[0]])[0],)))


def scored(events: list) -> RoundScored:
    got = [e for e in events if isinstance(e, RoundScored)]
    assert len(got) == 1
    return got[0]


def test_take_money_example() -> None:
    # "you could take both the cards on the left or one of the other two"
    s = new_state(4, 2)
    set_display(s, ["y3", "o2", "b6", "g8"])
    takes = sorted(str(a) for a in legal_actions(s) if isinstance(a, TakeMoney))
    assert takes == ["take b6", "take g8", "take o2", "take o2+y3", "take y3"]


def test_garden_example() -> None:
    # the garden costs 10 denar (blue); two blue cards make 11: buy it, no change, turn over
    s = new_state(4, 2)
    seat = s.current
    set_market(s, ["G10w", "P3sw", "A4nes", "T7new"])
    set_hand(s, seat, ["b4", "b7", "o2"])
    s, events = play(s, "buy 1 b7+b4")
    assert events == [BuildingBought(seat, 1, "G10w", ("b7", "b4"), False)]
    assert card_codes(s, s.players[seat].hand) == ["o2"]
    assert s.pending == [PlaceTiles(seat, ("G10w",), False, "bought")]


def test_exact_payments_then_redesign_example() -> None:
    # buy exactly, buy exactly again, then redesign by exchanging a tile of the Alhambra for one
    # on the reserve board: this ends the turn; then place the two new tiles (or reserve them)
    s = new_state(3, 4)
    seat = s.current
    set_city(s, seat, {(1, 0): "G10"})
    set_reserve(s, seat, ["C10"])
    set_market(s, ["P8", "S9", "A4nes", "T7new"])
    set_hand(s, seat, ["b8", "g5", "g4"])
    s, _ = play(s, "buy 1 b8", "buy 2 g5+g4")
    assert s.pending == [ChooseAction(seat, 2, ("P8", "S9"))]
    s, events = play(s, ExchangeTiles("C10", "G10"))
    assert s.pending == [PlaceTiles(seat, ("P8", "S9"), False, "bought")]
    assert city_codes(s, seat) == {(0, 0): "F", (1, 0): "C10"}
    s, events = play(s, "place S9 2,0", "place P8 reserve")
    assert TurnEnded(seat) in events
    assert city_codes(s, seat) == {(0, 0): "F", (1, 0): "C10", (2, 0): "S9"}
    assert sorted(tile_codes(s, s.players[seat].reserve)) == ["G10", "P8"]


def test_at_most_five_actions_example() -> None:
    # "paying the exact amount four times and then either taking money or redesigning"
    s = new_state(3, 4)
    seat = s.current
    set_reserve(s, seat, ["C10"])
    set_market(s, ["P8", "S9", "A4nes", "T7new"])
    set_hand(s, seat, ["b8", "g9", "o4", "y7"])
    s, _ = play(s, "buy 1 b8", "buy 2 g9", "buy 3 o4", "buy 4 y7")
    assert s.pending == [ChooseAction(seat, 4, ("P8", "S9", "A4nes", "T7new"))]
    s, _ = play(s, "redesign build C10 0,1")
    assert isinstance(s.pending[-1], PlaceTiles) and len(s.pending[-1].tiles) == 4


def test_market_refill_example() -> None:
    # "the tiles on 2 and 4 have been removed ... the first tile goes on 2 and the second on 4"
    s = new_state(3, 4)
    seat = s.current
    set_market(s, ["P8", "S9", "A4nes", "T7new"])
    set_hand(s, seat, ["g9", "y7"])
    set_bag_top(s, ["G12s", "C11"])
    s, events = play(s, "buy 2 g9", "buy 4 y7", first_take, "place S9 reserve", "place T7new reserve")
    assert [e for e in events if isinstance(e, MarketRefilled)] == [MarketRefilled((2, 4), ("G12s", "C11"))]


def test_not_allowed_pictures() -> None:
    s = new_state(3, 4)
    seat = s.current
    set_city(
        s,
        seat,
        {(1, 0): "P7e", (0, 1): "G10", (1, 1): "C10", (-1, 0): "T12", (0, 2): "S8s", (-1, 2): "C11", (-2, 0): "G11"},
    )
    check_cities(s)
    set_market(s, ["P8", "A10", "T10w", "S9"])
    set_hand(s, seat, ["b8", "g9", "g1", "o9", "o1", "y9"])
    s, _ = play(s, "buy 1 b8", "buy 2 g9+g1", "buy 3 o9+o1", "buy 4 y9", first_take)
    rules = {
        # a side with a wall is joined to a side without a wall: P7e's east wall, P8's open west
        PlaceBuilding("P8", (2, 0)): "walls_match",
        # the tower cannot be reached without crossing a wall: its only joined side is walled
        PlaceBuilding("T10w", (2, 0)): "on_foot",
        # the Arcades would complete the ring round the empty (-1, 1)
        PlaceBuilding("A10", (-2, 1)): "no_holes",
        # joined at a corner only
        PlaceBuilding("S9", (2, 2)): "adjacent",
    }
    for action, rule in rules.items():
        with pytest.raises(IllegalPlacement) as info:
            apply(s, action)
        assert info.value.rule == rule, action
        assert action not in legal_actions(s)


def test_kim_and_nina_tie_on_four_towers() -> None:
    s = new_state(3, 6)
    set_city(s, 0, {(1, 0): "T11", (2, 0): "T12", (-1, 0): "T11n", (-2, 0): "T11s"})  # Kim
    set_city(s, 1, {(1, 0): "T13e", (-1, 0): "T10w", (0, -1): "T9ne", (0, 1): "T9es"})  # Nina
    set_city(s, 2, {(0, -1): "T9nw"})
    check_cities(s)
    c = next(c for c in s.deck if s.components.cards[c].code == "S1")
    s.deck.remove(c)
    s.removed.append(c)
    s.rounds_scored = 1
    put_on_deck_top(s, "S2")
    s, events = take_first(s)
    r = scored(events)
    assert r.round == 2
    assert r.counts["tower"] == (4, 4, 1)
    assert r.kinds["tower"] == (9, 9, 0)


def test_first_scoring_chambers_and_third_scoring_pavilions() -> None:
    s = new_state(3, 6)
    set_city(s, 0, {(1, 0): "C10", (2, 0): "C11", (-1, 0): "P8"})
    set_city(s, 1, {(1, 0): "C9s", (-1, 0): "P6n", (-2, 0): "P3sw"})
    set_city(s, 2, {(1, 0): "P7e", (0, 1): "P4es", (0, -1): "P5nw"})
    check_cities(s)
    put_on_deck_top(s, "S1")
    s, events = take_first(s)
    r1 = scored(events)
    assert r1.kinds["chambers"] == (4, 0, 0)  # the player with the most chambers gets 4
    assert r1.kinds["pavilion"] == (0, 0, 1)
    # the end: 1, 2 and 3 pavilions -> 1, 8 and 16 points in the third scoring
    set_market(s, ["A9", "A10", "S9", "G11"])
    empty_bag_into_reserve(s, 0)
    for seat in range(3):
        set_hand(s, seat, ["b9"] if seat == s.current else [])
    s, events = play(s, "buy 1 b9", first_take, "place A9 reserve")
    r3 = scored(events)
    assert r3.round == 3
    assert r3.kinds["pavilion"] == (1, 8, 16)
    assert r3.kinds["chambers"] == (19, 11, 0)


def test_wall_worth_eight_points() -> None:
    # outer wall of 8 round the north-west; a shorter separate wall (2) in the south-east that
    # is not counted; an internal back-to-back wall between (0, 1) and (1, 1) that never counts
    s = new_state(3, 6)
    seat = s.current
    set_city(
        s,
        seat,
        {(-1, -1): "C8nw", (0, -1): "A8n", (1, -1): "S4ne", (-1, 0): "P3sw", (1, 0): "G9e", (0, 1): "C6es", (1, 1): "S5sw"},
    )
    check_cities(s)
    walls = s.components.tile_walls
    assert geo.longest_wall(s.players[seat].city, walls) == 8
    assert next(e for e in view(s, None)["seats"] if e["seat"] == seat)["longest_wall"] == 8
    put_on_deck_top(s, "S1")
    s, events = take_first(s)
    r1 = scored(events)
    assert r1.walls[seat] == 8
    assert r1.points[seat] == 8 + sum(r1.kinds[k][seat] for k in r1.kinds)


def test_buildings_on_the_reserve_board_do_not_count() -> None:
    s = new_state(3, 6)
    seat = s.current
    other = (seat + 1) % 3
    set_city(s, other, {(1, 0): "G10"})
    set_reserve(s, seat, ["G11", "G12s", "G6esw"])
    put_on_deck_top(s, "S1")
    s, events = take_first(s)
    r1 = scored(events)
    assert r1.counts["garden"][seat] == 0
    assert r1.kinds["garden"][other] == 5 and r1.kinds["garden"][seat] == 0
