"""The Bazaars: components, drawing, buying (exact money, price from the market), placing and
the final scoring, with the rulebook's example."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import BuyItem, MoveToReserve, PlaceBuilding
from alhambra.components import CURRENCIES, KINDS
from alhambra.engine import build_components, building_counts
from alhambra.errors import IllegalAction, InvalidPayment, NotationError
from alhambra.events import BuildingPlaced, Event, GameEnded, ItemBought, MarketRefilled, MarketTileAwarded, RoundScored
from alhambra.hooks import load_module
from alhambra.modules.bazaars import BAZAAR_KIND, BY_CODE, MODULE, BazaarDrawn, BazaarsState, bazaar_types, seat_points
from alhambra.modules.bazaars.module import data, score_bazaar
from alhambra.state import STAGE_FINAL, ChooseAction, GameState, PlaceTiles
from alhambra.testing import check_conservation, set_hand

from .helpers import beside, build, draw_next, finish_turn, fresh, lay_out

# ---------------------------------------------------------------------------------- components


def test_the_colours_of_the_building_kinds() -> None:
    assert data().colours == {
        "blue": "pavilion",
        "red": "seraglio",
        "brown": "arcades",
        "white": "chambers",
        "green": "garden",
        "purple": "tower",
    }


def test_eight_bazaars_two_per_currency_each_kind_on_four() -> None:
    bazaars = bazaar_types()
    assert len(bazaars) == 8
    assert len({b.kinds for b in bazaars}) == 8  # no two alike
    assert all(len(set(b.kinds)) == 3 for b in bazaars)
    assert Counter(b.currency for b in bazaars) == dict.fromkeys(range(4), 2)
    assert Counter(k for b in bazaars for k in b.kinds) == dict.fromkeys(KINDS, 4)
    for cur in range(4):  # the two bazaars of a currency show all six colours
        pair = [b for b in bazaars if b.currency == cur]
        assert sorted(pair[0].kinds + pair[1].kinds) == sorted(KINDS)


def test_the_known_bazaar_and_the_assumed_ones() -> None:
    known = BY_CODE["Zg1"]
    assert CURRENCIES[known.currency] == "green"
    assert known.kinds == ("seraglio", "arcades", "garden")  # red, brown, green
    assert not known.assumed
    assert all(b.assumed for b in bazaar_types() if b.code != "Zg1")
    assert MODULE.component_assumptions and MODULE.assumptions


def test_bazaar_tiles_go_into_the_bag() -> None:
    comp = build_components(GameConfig(players=3, modules=("bazaars",)))
    tiles = [t for t in comp.tiles if t.module == "bazaars"]
    assert [t.code for t in tiles] == [b.code for b in bazaar_types()]
    assert all(t.kind == BAZAAR_KIND and t.price == 0 and t.walls == 0 and t.in_bag for t in tiles)
    state, _ = new_game(GameConfig(players=3, modules=("bazaars",)), 1)
    ids = {comp.tile_ids[t.code] for t in tiles}
    assert ids <= set(state.bag) | {comp.tile_ids[c] for c in beside(state)}
    assert len(state.bag) + 4 + len(beside(state)) == 54 + 8


def test_notation_of_bazaars() -> None:
    assert parse_action("buy Zg1 g3+g2") == BuyItem("Zg1", ("g3", "g2"))
    assert parse_action("place zg1 1,0") == PlaceBuilding("Zg1", (1, 0))
    assert parse_action("redesign remove ZY2") == MoveToReserve("Zy2")
    for text in ("buy Zg1 g3+g2", "place Zg1 1,0", "place Zb2 reserve", "redesign remove Zo1"):
        assert str(parse_action(text)) == text


# ---------------------------------------------------------------------------------- drawing


def test_a_bazaar_drawn_for_the_market_lies_beside_it_and_the_refill_goes_on() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["g5"])
    draw_next(state, "Zg1", "Zb1", "G10")
    state, _ = apply(state, parse_action("buy 2 g5"), seat)
    state, events = finish_turn(state)
    assert beside(state) == ("Zg1", "Zb1")
    assert state.tile_code(state.market[1]) == "G10"
    assert all(t >= 0 for t in state.market)
    drawn = [e for e in events if isinstance(e, BazaarDrawn)]
    assert [(e.tile, e.currency, e.kinds) for e in drawn] == [
        ("Zg1", "green", ("seraglio", "arcades", "garden")),
        ("Zb1", "blue", BY_CODE["Zb1"].kinds),
    ]
    refill = next(e for e in events if isinstance(e, MarketRefilled))
    assert refill.tiles == ("G10",)
    assert "laid out beside the market" in drawn[0].describe()
    check_conservation(state)


def test_a_bazaar_drawn_at_setup_lies_beside_the_market() -> None:
    for seed in range(40):
        state, events = new_game(GameConfig(players=3, modules=("bazaars",)), seed)
        if beside(state):
            break
    else:  # pragma: no cover
        pytest.fail("no deal of 40 has a bazaar in the first market")
    assert all(t >= 0 and state.components.tiles[t].kind in KINDS for t in state.market)
    assert [e.tile for e in events if isinstance(e, BazaarDrawn)] == list(beside(state))
    check_conservation(state)


def test_bazaars_for_the_neutral_player_stay_there_and_count_nothing() -> None:
    state = fresh(players=2)
    assert state.neutral is not None
    before = building_counts(state, -1)
    state.neutral.append(state.components.tile_ids["Zg1"])
    state.bag.remove(state.components.tile_ids["Zg1"])
    assert building_counts(state, -1) == before
    check_conservation(state)


# ---------------------------------------------------------------------------------- buying


def test_the_price_is_that_of_the_building_on_the_square_of_its_currency() -> None:
    state = fresh()
    seat = state.current
    lay_out(state, "Zg1", "Zg2", "Zy1")
    set_hand(state, seat, ["g5", "g3", "g2", "y7", "y9"])
    buys = {str(a) for a in legal_actions(state, "buy") if isinstance(a, BuyItem)}
    # green square: S5sw costs 5; yellow square: C7sw costs 7; exact payments only
    assert buys == {"buy Zg1 g5", "buy Zg1 g3+g2", "buy Zg2 g5", "buy Zg2 g3+g2", "buy Zy1 y7"}
    v = view(state, seat)["module_views"]["bazaars"]
    assert [(e["tile"], e["price"]) for e in v["beside_market"]] == [("Zg1", 5), ("Zg2", 5), ("Zy1", 7)]


def test_only_exact_money_buys_a_bazaar() -> None:
    state = fresh()
    seat = state.current
    lay_out(state, "Zg1")
    set_hand(state, seat, ["g5", "g2", "b5"])
    with pytest.raises(InvalidPayment, match=r"can only be bought with exact money \(5\)"):
        apply(state, parse_action("buy Zg1 g5+g2"), seat)
    with pytest.raises(InvalidPayment):
        apply(state, parse_action("buy Zg1 b5"), seat)
    with pytest.raises(IllegalAction, match="'Zb1' cannot be bought now"):
        apply(state, parse_action("buy Zb1 b5"), seat)


def test_buying_a_bazaar_gives_another_action_and_it_is_placed_like_a_building() -> None:
    state = fresh()
    seat = state.current
    lay_out(state, "Zg1")
    set_hand(state, seat, ["g5"])
    state, events = apply(state, parse_action("buy Zg1 g5"), seat)
    bought = next(e for e in events if isinstance(e, ItemBought))
    assert bought.exact and bought.item == "Zg1" and "bazaar Zg1" in bought.label
    top = state.pending[-1]
    assert isinstance(top, ChooseAction) and top.actions == 1 and top.bought == ("Zg1",)
    assert beside(state) == ()
    check_conservation(state)
    state, _ = apply(state, parse_action("take " + state.card_code(state.display[0])), seat)
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles) and top.tiles == ("Zg1",)
    places = {str(a) for a in legal_actions(state)}
    # a bazaar has no walls: every side of the fountain takes it (or the reserve board)
    assert places == {"place Zg1 0,-1", "place Zg1 1,0", "place Zg1 0,1", "place Zg1 -1,0", "place Zg1 reserve"}
    state, events = apply(state, parse_action("place Zg1 1,0"), seat)
    assert any(isinstance(e, BuildingPlaced) and e.tile == "Zg1" for e in events)
    assert building_counts(state, seat) == dict.fromkeys(KINDS, 0)  # no majority for a bazaar
    check_conservation(state)


def test_a_bazaar_cannot_be_bought_while_the_square_of_its_currency_is_empty() -> None:
    state = fresh()
    seat = state.current
    lay_out(state, "Zg1", "Zb1")
    set_hand(state, seat, ["g5", "g5", "b4"])
    state, _ = apply(state, parse_action("buy 2 g5"), seat)  # exact: another action
    v = view(state, seat)["module_views"]["bazaars"]
    assert [(e["tile"], e["price"]) for e in v["beside_market"]] == [("Zg1", None), ("Zb1", 4)]
    assert {str(a) for a in legal_actions(state, "buy") if isinstance(a, BuyItem)} == {"buy Zb1 b4"}
    with pytest.raises(IllegalAction, match="'Zg1' cannot be bought now"):
        apply(state, parse_action("buy Zg1 g5"), seat)


def test_several_bazaars_in_one_turn_and_the_neutral_player() -> None:
    state = fresh(players=2)
    seat = state.current
    lay_out(state, "Zg1", "Zo2")
    set_hand(state, seat, ["g5", "o6", "b9"])
    state, _ = apply(state, parse_action("buy Zg1 g5"), seat)
    state, _ = apply(state, parse_action("buy Zo2 o6"), seat)
    state, _ = apply(state, parse_action("buy 1 b9"), seat)  # overpaid: the action phase ends
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles) and sorted(top.tiles) == ["P4es", "Zg1", "Zo2"]
    assert "place Zo2 neutral" in {str(a) for a in legal_actions(state)}
    state, _ = apply(state, parse_action("place Zo2 neutral"), seat)
    assert state.neutral is not None and state.components.tile_ids["Zo2"] in state.neutral
    check_conservation(state)


def test_unsold_bazaars_are_not_handed_out_at_the_end() -> None:
    state = fresh()
    seat = state.current
    lay_out(state, "Zg1")
    # the bag empties: its tiles go to the reserve board of the seat after next (still accounted for)
    other = (seat + 2) % 3
    state.players[other].reserve.extend(state.bag)
    state.bag.clear()
    set_hand(state, seat, ["b9"])
    set_hand(state, (seat + 1) % 3, ["g9", "o9", "y9"])
    state, _ = apply(state, parse_action("buy 1 b9"), seat)
    state, events = apply(state, parse_action("place P4es reserve"), seat)
    assert state.stage == STAGE_FINAL or state.is_over
    awarded = [e.tile for e in events if isinstance(e, MarketTileAwarded)]
    assert sorted(awarded) == ["A6sw", "C7sw", "S5sw"]
    while not state.is_over:
        state, more = apply(state, legal_actions(state)[-1])
        events += more
    assert isinstance(events[-1], GameEnded)
    assert beside(state) == ("Zg1",)
    check_conservation(state)


# ---------------------------------------------------------------------------------- scoring


def example_state() -> tuple[GameState, int]:
    """The rulebook's example: a bazaar (red, brown, purple: seraglio, arcades, tower) with 6
    neighbouring buildings (2 places empty), 4 of its colours, all 3 colours present."""
    state = fresh()
    seat = state.current
    build(
        state,
        seat,
        {
            (0, 1): "A7es",  # arcades north of the bazaar, a wall on the side facing it: walls do not matter
            (0, 2): "Zy2",
            (-1, 1): "S4ne",
            (1, 1): "T9es",  # the purple building
            (-1, 2): "S6es",
            (1, 2): "G8nw",  # not of its colours
            (0, 3): "C9w",  # not of its colours
        },
    )
    return state, seat


def test_rulebook_example_four_buildings_times_three_colours() -> None:
    state, seat = example_state()
    assert BY_CODE["Zy2"].kinds == ("seraglio", "arcades", "tower")
    assert seat_points(state, seat) == 12
    assert MODULE.round_points(state, 3) == [12 if s == seat else 0 for s in range(3)]
    assert MODULE.round_points(state, 1) is None and MODULE.round_points(state, 2) is None
    built = view(state, None)["module_views"]["bazaars"]["built"][seat]
    assert built == [{"tile": "Zy2", "x": 0, "y": 2, "matching": 4, "kinds": ["seraglio", "arcades", "tower"], "points": 12}]


def test_rulebook_example_without_the_purple_building() -> None:
    state, seat = example_state()
    p = state.players[seat]
    p.reserve.append(p.unbuild(geo.pos(1, 1)))
    assert seat_points(state, seat) == 3 * 2


def test_fountain_bazaars_and_other_kinds_count_nothing() -> None:
    state = fresh()
    seat = state.current
    build(state, seat, {(1, 0): "Zg1", (1, 1): "Zb1", (2, 0): "C5nsw", (2, 1): "P2new"})
    comp = state.components
    city = state.players[seat].city
    # Zg1 (seraglio, arcades, garden): the fountain, the bazaar Zb1, chambers and a pavilion count nothing
    assert score_bazaar(comp, city, geo.pos(1, 0), BY_CODE["Zg1"]).points == 0
    # Zb1 (pavilion, arcades, garden): the pavilion next to it counts (1 x 1), the bazaar Zg1 does not
    assert score_bazaar(comp, city, geo.pos(1, 1), BY_CODE["Zb1"]).points == 1
    assert seat_points(state, seat) == 1


def test_a_building_counts_for_several_bazaars_and_the_maximum_is_24() -> None:
    state = fresh()
    seat = state.current
    ring = {(-1, 2): "S3esw", (0, 2): "A8n", (1, 2): "G10", (-1, 3): "S7w", (1, 3): "G11", (-1, 4): "A9", (0, 4): "G12s", (1, 4): "A10"}
    build(state, seat, {(0, 3): "Zg1", **ring, (2, 3): "Zo2"})
    comp = state.components
    assert score_bazaar(comp, state.players[seat].city, geo.pos(0, 3), BY_CODE["Zg1"]).points == 24
    # Zo2 (seraglio, chambers, garden) next to it shares the gardens G10 and G11 with Zg1 (A10 is not its colour)
    zo2 = score_bazaar(comp, state.players[seat].city, geo.pos(2, 3), BY_CODE["Zo2"])
    assert (zo2.matching, zo2.kinds) == (2, ("garden",))
    assert seat_points(state, seat) == 24 + 2


def test_bazaars_on_the_reserve_board_score_nothing() -> None:
    state = fresh()
    seat = state.current
    build(state, seat, {(0, 1): "S4ne", (1, 1): "A8n"})
    state.players[seat].reserve.append(state.components.tile_ids["Zg1"])
    state.bag.remove(state.components.tile_ids["Zg1"])
    assert seat_points(state, seat) == 0


def test_bazaar_points_are_listed_in_the_final_scoring() -> None:
    state, seat = example_state()
    from alhambra.engine import _score_round  # the final scoring, as the engine runs it

    events: list[Event] = []
    before = list(state.scores)
    _score_round(state, 3, events)
    scored = events[-1]
    assert isinstance(scored, RoundScored)
    assert scored.extra["bazaars"] == tuple(12 if s == seat else 0 for s in range(3))
    assert state.scores[seat] - before[seat] >= 12


# ---------------------------------------------------------------------------------- views and JSON


def test_view_is_public_and_rebuilds_the_slice() -> None:
    state = fresh()
    lay_out(state, "Zg1", "Zy2")
    views = [view(state, v)["module_views"]["bazaars"] for v in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    json.dumps(views[0])
    assert load_module("bazaars").slice_from_view(views[0], state.config) == BazaarsState(("Zg1", "Zy2"))
    assert set(views[0]["bazaars"]) == set(BY_CODE)
    # the order of the bag never shows
    other = state.copy()
    other.bag.reverse()
    assert view(other, 0)["module_views"]["bazaars"] == views[1]


def test_state_json_round_trip_and_junk() -> None:
    state = fresh()
    lay_out(state, "Zo1", "Zb2")
    data_ = state_to_json(state)
    back = state_from_json(json.loads(json.dumps(data_)))
    assert back.mods["bazaars"] == BazaarsState(("Zo1", "Zb2"))
    assert state_to_json(back) == data_
    junks: tuple[object, ...] = (None, [], {"beside": "Zg1"}, {"beside": ["Zq9"]}, {"beside": ["Zg1", "Zg1"]}, {"beside": [], "x": 1})
    for junk in junks:
        with pytest.raises(NotationError):
            BazaarsState.from_dict(junk)
