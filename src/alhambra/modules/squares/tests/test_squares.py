"""The squares' rules: the components and their piles, taking a square (a free action that ends
the actions, at most three per player), placing it like a building, and what it counts in scoring
(the rulebook's picture: 1 garden, 1 tower and 5 arcades)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from alhambra import city as geo, legal_actions, parse_action, view
from alhambra.actions import Action
from alhambra.components import KINDS
from alhambra.engine import building_counts
from alhambra.errors import IllegalAction, NotationError, WrongPhase
from alhambra.events import Event, RoundScored
from alhambra.modules.squares import COLOUR, MODULE, SquaresLaidOut, SquaresState, SquareTaken, TakeSquare, bonuses, owned, squares
from alhambra.modules.squares.module import data
from alhambra.serialize import state_from_json, state_to_json
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import build_tiles as build, score_next_round, set_hand, set_market

from .helpers import ID, act, fresh, legal, open_square, put_square

PICTURE = {(1, 0): "Qa3", (1, 2): "Qa1", (-1, -1): "Qt4"}
"""The rulebook's picture: the upper brown square (wall north) joins two arcades, the lower one
(wall south) one arcade; the purple square's wall (south) separates it from the tower."""
PICTURE_TILES = {(2, 0): "A9", (1, 1): "A10", (-1, 0): "T11n", (0, -1): "G11"}


# ---------------------------------------------------------------------------------- components
def test_twenty_four_squares_in_six_colour_piles() -> None:
    d = data()
    assert {k: len(p) for k, p in d.piles} == {"pavilion": 3, "seraglio": 3, "arcades": 4, "chambers": 4, "garden": 5, "tower": 5}
    tiles = MODULE.extra_tiles(fresh().config)
    assert len(tiles) == 24 and len({t.code for t in tiles}) == 24
    assert all(t.kind == "square" and t.price == 0 and not t.in_bag and t.module == ID for t in tiles)
    assert Counter(COLOUR.values()) == {"pavilion": 3, "seraglio": 3, "arcades": 4, "chambers": 4, "garden": 5, "tower": 5}
    # the assumed walls: one wall each, six squares per side
    assert all(t.walls.bit_count() == 1 for t in tiles)
    assert Counter(t.walls for t in tiles) == {1: 6, 2: 6, 4: 6, 8: 6}
    assert MODULE.component_assumptions


def test_setup_lays_out_six_piles_each_with_its_top_square_open() -> None:
    state = fresh()
    sl = squares(state)
    assert [COLOUR[t] for t in sl.top if t] == list(KINDS)
    assert [len(r) + 1 for r in sl.rest] == [3, 3, 4, 4, 5, 5]
    assert sorted(state.components.tile_code[t] for t in MODULE.held_tiles(state)) == sorted(COLOUR)
    assert not any(state.components.tile_code[t] in COLOUR for t in state.bag)


def test_the_open_squares_are_announced_and_vary_with_the_seed() -> None:
    from alhambra import GameConfig, new_game

    tops = set()
    for seed in range(6):
        state, events = new_game(GameConfig(players=3, modules=(ID,)), seed)
        laid = [e for e in events if isinstance(e, SquaresLaidOut)]
        assert len(laid) == 1 and laid[0].tops == squares(state).top
        tops.add(laid[0].tops)
    assert len(tops) > 1


# ---------------------------------------------------------------------------------- taking
def test_taking_a_square_is_free_ends_the_actions_and_turns_up_the_next() -> None:
    state = fresh()
    seat = state.current
    open_square(state, "Qg2")
    before = list(state.players[seat].hand)
    assert "square take garden" in legal(state)
    state, events = act(state, "square take garden")
    taken = [e for e in events if isinstance(e, SquareTaken)]
    assert len(taken) == 1 and taken[0].seat == seat and taken[0].tile == "Qg2"
    nxt = squares(state).top[KINDS.index("garden")]
    assert nxt is not None and nxt != "Qg2" and taken[0].shown == nxt
    assert len(squares(state).rest[KINDS.index("garden")]) == 3
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles) and top.seat == seat and top.tiles == ("Qg2",)
    assert state.players[seat].hand == before  # nothing paid
    assert not any(a.startswith(("take ", "buy ", "square take")) for a in legal(state))
    # it is built like a building: next to the fountain on an open side (the wall is east)
    assert "place Qg2 1,0" not in legal(state)  # its west wall would face the fountain's open side
    state, _ = act(state, "place Qg2 -1,0")
    assert state.players[seat].city[geo.pos(-1, 0)] == state.components.tile_ids["Qg2"]
    assert owned(state, seat) == 1


def test_a_square_may_follow_an_exact_payment_and_waits_with_the_bought_tile() -> None:
    state = fresh(market=("G11",))
    seat = state.current
    set_hand(state, seat, ["b5", "b6"])
    state, _ = act(state, "buy 1 b5+b6")
    top = state.pending[-1]
    assert isinstance(top, ChooseAction) and top.actions == 1
    state, _ = act(state, "square take tower")
    top2 = state.pending[-1]
    assert isinstance(top2, PlaceTiles) and top2.tiles[0] == "G11" and COLOUR[top2.tiles[1]] == "tower"


def test_an_empty_pile_offers_no_square() -> None:
    state = fresh()
    for code in sorted(c for c, k in COLOUR.items() if k == "pavilion"):
        from .helpers import take_square

        take_square(state, code)
        state.bag.append(state.components.tile_ids[code])  # out of the way (conservation holds)
    assert squares(state).top[0] is None
    assert "square take pavilion" not in legal(state)
    assert "square take seraglio" in legal(state)
    with pytest.raises(IllegalAction, match="pavilion squares are all taken"):
        MODULE.check(state, TakeSquare("pavilion"))


def test_three_squares_at_most_reserve_included() -> None:
    """The rulebook: 'The player has already used 3 squares and is not allowed to take any more.'"""
    state = fresh()
    seat = state.current
    put_square(state, seat, "Qp1", (0, -1))
    put_square(state, seat, "Qs1", (1, 0))
    assert owned(state, seat) == 2
    assert any(a.startswith("square take") for a in legal(state))
    put_square(state, seat, "Qc1", "reserve")
    assert owned(state, seat) == 3
    assert not any(a.startswith("square take") for a in legal(state))
    with pytest.raises(IllegalAction, match="at most 3 squares, the reserve board included"):
        act(state, "square take garden")


def test_a_square_waiting_to_be_placed_counts_towards_the_three() -> None:
    state = fresh(market=("G11",))
    seat = state.current
    put_square(state, seat, "Qp1", (0, -1))
    put_square(state, seat, "Qs1", (1, 0))
    set_hand(state, seat, ["b5", "b6"])
    state, _ = act(state, "buy 1 b5+b6")
    assert "square take garden" in legal(state)
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    # a third square waiting on the bought tiles: no fourth
    state.pending[-1] = ChooseAction(top.seat, top.actions, (*top.bought, "Qc1"))
    from .helpers import take_square

    take_square(state, "Qc1")
    assert owned(state, seat) == 3
    assert not any(a.startswith("square take") for a in legal(state))


def test_only_on_your_own_turn() -> None:
    state = fresh()
    other = (state.current + 1) % 3
    with pytest.raises(IllegalAction):
        act(state, "square take garden", seat=other)
    state, _ = act(state, "square take garden")
    with pytest.raises(WrongPhase, match="action of your own turn"):
        MODULE.check(state, TakeSquare("tower"))


def test_a_square_is_never_given_to_the_neutral_player() -> None:
    state = fresh(players=2, market=("G11",))
    seat = state.current
    set_hand(state, seat, ["b5", "b6"])
    state, _ = act(state, "buy 1 b5+b6")
    state, _ = act(state, "square take tower")
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles)
    sq = top.tiles[1]
    acts = legal(state)
    assert "place G11 neutral" in acts
    assert f"place {sq} neutral" not in acts and f"place {sq} reserve" in acts
    with pytest.raises(IllegalAction, match="never given to the neutral player"):
        act(state, f"place {sq} neutral")
    state, _ = act(state, "place G11 neutral")
    state, _ = act(state, f"place {sq} reserve")
    assert state.components.tile_ids[sq] in state.players[seat].reserve


# ---------------------------------------------------------------------------------- scoring
def picture(players: int = 3) -> tuple[GameState, int]:
    state = fresh(players)
    seat = state.current
    build(state, seat, PICTURE_TILES)
    for at, code in PICTURE.items():
        put_square(state, seat, code, at)
    return state, seat


def test_the_rulebook_picture_one_garden_one_tower_five_arcades() -> None:
    state, seat = picture()
    assert not geo.validate_layout(state.players[seat].city, state.components.tile_walls, geo.ORIGIN)
    counts = building_counts(state, seat)
    assert counts == {"pavilion": 0, "seraglio": 0, "arcades": 5, "chambers": 0, "garden": 1, "tower": 1}
    assert bonuses(state, seat) == {"arcades": 3}


def test_the_squares_count_in_a_scoring_round() -> None:
    state, seat = picture()
    state, events = score_next_round(state)
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.counts["arcades"][seat] == 5 and scored.counts["tower"][seat] == 1


def test_a_wall_on_either_side_blocks_and_a_square_counts_at_most_three() -> None:
    state = fresh()
    seat = state.current
    # Qt2 (wall north) at 0,1 with towers east, south and west (all open towards it), and one north
    build(state, seat, {(1, 1): "T11", (0, 2): "T12", (-1, 1): "T11n", (1, 0): "G10", (-1, 0): "G11"})
    put_square(state, seat, "Qt2", (0, 1))
    q = geo.pos(0, 1)
    from alhambra.modules.squares import square_bonus

    assert square_bonus(state, seat, q) == 3
    assert building_counts(state, seat)["tower"] == 6
    # a wall on the neighbour's side (T13e's east wall) blocks, as does the square's own (Qt1: west)
    state2 = fresh()
    build(state2, seat, {(-1, -1): "T13e", (-1, 1): "T12"})
    put_square(state2, seat, "Qt2", (0, -1))
    put_square(state2, seat, "Qt1", (0, 1))
    assert bonuses(state2, seat) == {}
    assert building_counts(state2, seat)["tower"] == 2


def test_a_square_on_the_reserve_board_counts_nothing() -> None:
    state = fresh()
    seat = state.current
    build(state, seat, {(1, 0): "A9"})
    put_square(state, seat, "Qa3", "reserve")
    assert building_counts(state, seat)["arcades"] == 1
    assert bonuses(state, seat) == {}


def test_squares_and_their_walls_in_the_longest_wall() -> None:
    state = fresh()
    seat = state.current
    put_square(state, seat, "Qp1", (0, -1))  # wall north
    assert geo.longest_wall(state.players[seat].city, state.components.tile_walls) == 1
    put_square(state, seat, "Qs2", (1, -1))  # wall north: the wall goes on
    assert geo.longest_wall(state.players[seat].city, state.components.tile_walls) == 2


def test_squares_can_be_redesigned_like_buildings() -> None:
    state = fresh()
    seat = state.current
    put_square(state, seat, "Qg2", (-1, 0))  # wall west
    put_square(state, seat, "Qt1", "reserve")  # wall west
    acts = legal(state)
    assert {"redesign remove Qg2", "redesign exchange Qt1 Qg2", "redesign build Qt1 0,-1"} <= set(acts)
    assert "redesign build Qt1 1,0" not in acts  # its west wall would face the fountain's open side
    state, _ = act(state, "redesign exchange Qt1 Qg2")
    assert owned(state, seat) == 2
    assert state.players[seat].reserve == [state.components.tile_ids["Qg2"]]


# ---------------------------------------------------------------------------------- notation, views, JSON
@pytest.mark.parametrize("kind", KINDS)
def test_notation_round_trips(kind: str) -> None:
    a = TakeSquare(kind)
    assert str(a) == f"square take {kind}"
    assert parse_action(str(a)) == a and Action.from_dict(a.to_dict()) == a
    assert parse_action(f"square take {kind.upper()}") == a  # kind words in any case, as every module reads them
    with pytest.raises(NotationError, match="unknown building kind 'fountain'"):
        parse_action("square take fountain")
    with pytest.raises(NotationError):
        parse_action("square take")


def test_events_describe_in_words_and_round_trip() -> None:
    state = fresh()
    state, events = act(state, "square take garden")
    e = next(e for e in events if isinstance(e, SquareTaken))
    assert "garden square" in e.describe() and "Q" not in e.describe()
    assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_view_is_public_and_rebuilds_the_slice() -> None:
    state = fresh()
    state, _ = act(state, "square take garden")
    v = view(state, 0)["module_views"][ID]
    assert v == view(state, 1)["module_views"][ID] == view(state, None)["module_views"][ID]
    assert MODULE.slice_from_view(v, state.config) == squares(state)
    assert v["owned"][state.pending[-1].seat] == 1


def test_json_round_trip_with_a_square_waiting() -> None:
    state = fresh()
    state, _ = act(state, "square take garden")
    back = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert squares(back) == squares(state)
    assert legal_actions(back) == legal_actions(state)
    with pytest.raises(NotationError):
        SquaresState.from_dict({"piles": {"pavilion": {"top": "Qg1", "rest": []}}})


def test_market_tiles_and_core_actions_are_unchanged() -> None:
    state = fresh(market=("G11",))
    set_market(state, 2, "T12")
    acts = legal(state)
    assert sum(1 for a in acts if a.startswith("square take")) == 6
    assert any(a.startswith("take ") for a in acts)
