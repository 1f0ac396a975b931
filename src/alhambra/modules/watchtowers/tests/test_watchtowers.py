"""The watchtowers' rules (rulebook p. 29): the scoring examples, buying with a building and the
surcharge by rounds, placing in a half with a short edge on a building of its colour, the places
beyond the long edge kept free, paths through a watchtower, redesigns."""

from __future__ import annotations

import pytest

from alhambra import apply, city as geo, legal_actions, parse_action, state_from_json, state_to_json
from alhambra.actions import Action
from alhambra.components import CURRENCY_LETTERS, EAST, NORTH
from alhambra.engine import wall_points
from alhambra.errors import IllegalAction, IllegalPlacement, NotationError
from alhambra.modules.watchtowers import MODULE, PlaceTower, ReturnTower, TowerPlaced, TowersState, tower_wall, towers
from alhambra.modules.watchtowers.module import RULES, SHORT
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import build_tiles, check_conservation, fresh_game, set_hand, take_tile

ID = "watchtowers"


def act(state: GameState, notation: str) -> GameState:
    seat = state.to_act
    assert seat is not None
    after, _ = apply(state, parse_action(notation), seat)
    check_conservation(after)
    return after


def legal(state: GameState) -> list[str]:
    return [str(a) for a in legal_actions(state)]


# ---------------------------------------------------------------------------------- scoring examples
def _row(n: int, x0: int, y: int, start: int, cells: dict[int, int], walls: list[int]) -> None:
    for i in range(n):
        cells[geo.pos(x0 + i, y)] = start + i
        walls[start + i] = NORTH


def _example(second_row: int, second_tower: bool) -> tuple[dict[int, int], list[int], list[tuple[int, int, str, str]]]:
    """Three tiles walled north, a watchtower (south-west half) continuing the wall diagonally,
    ``second_row`` more tiles walled north one row lower, then maybe a second watchtower and a tile."""
    cells: dict[int, int] = {}
    walls = [0] * 20
    _row(3, 0, 0, 0, cells, walls)
    placed = [(3, 0, "Wp1", "sw")]
    cells[geo.pos(3, 0)] = 10
    walls[10] = 15 ^ SHORT["sw"]
    _row(second_row, 4, 1, 3, cells, walls)
    if second_tower:
        x = 4 + second_row
        placed.append((x, 1, "Wp2", "sw"))
        cells[geo.pos(x, 1)] = 11
        walls[11] = 15 ^ SHORT["sw"]
        _row(1, x + 1, 2, 8, cells, walls)
    return cells, walls, placed


def test_rulebook_scoring_examples() -> None:
    """a) 4 points (no watchtower in the longest wall); b) 11 (wall 7 + watchtowers 4); c) 12 (8 + 4)."""
    # a) four tiles walled north; a watchtower below the first, its diagonal alone (1 < 4)
    cells: dict[int, int] = {}
    walls = [0] * 20
    _row(4, 0, 0, 0, cells, walls)
    cells[geo.pos(0, 1)] = 10
    walls[10] = 15 ^ SHORT["ne"]
    assert tower_wall(cells, walls, [(0, 1, "Wp1", "ne")]) == (4, 0)
    # b) 3 + diagonal + 2 + diagonal = 7 with 2 watchtowers: 7 + 4 = 11
    cells, walls, placed = _example(2, True)
    del cells[geo.pos(7, 2)]
    assert tower_wall(cells, walls, placed) == (7, 2)
    # c) one more tile after the second watchtower: 8 + 4 = 12
    cells, walls, placed = _example(2, True)
    assert tower_wall(cells, walls, placed) == (8, 2)
    # the core alone sees the two walls around each empty half instead of the diagonals
    assert geo.longest_wall(cells, walls) != 8


def test_of_two_longest_walls_the_one_with_a_watchtower_scores() -> None:
    cells, walls, placed = _example(0, False)  # 3 + diagonal = 4, one watchtower
    _row(4, 0, 5, 12, cells, walls)  # a separate wall of 4, no watchtower
    assert tower_wall(cells, walls, placed) == (4, 1)


# ---------------------------------------------------------------------------------- buying
def market_game(players: int = 3) -> tuple[GameState, str]:
    state = fresh_game(players, 1, (ID,), market=("P8", "G10w"))
    cur = CURRENCY_LETTERS[state.market_currency[0]]
    return state, cur


def test_a_watchtower_is_bought_with_a_base_building_for_the_surcharge() -> None:
    state, cur = market_game()
    seat = state.current
    set_hand(state, seat, [f"{cur}9", f"{cur}5"])
    moves = legal(state)
    assert f"buy tw1 {cur}9+{cur}5" in moves  # 8 + 6 before the first scoring
    assert not any(m.startswith("buy tw1") and m.count("+") == 0 for m in moves)
    offer = next(o for o in MODULE.offers(state, seat, False) if o.item == "tw1")
    assert offer.price == 14 and not MODULE.offers(state, seat, True)
    state.rounds_scored = 1
    assert next(o for o in MODULE.offers(state, seat, False) if o.item == "tw1").price == 12
    state.rounds_scored = 2
    assert next(o for o in MODULE.offers(state, seat, False) if o.item == "tw1").price == 10


def bought(players: int = 3) -> GameState:
    state, cur = market_game(players)
    seat = state.current
    set_hand(state, seat, [f"{cur}9", f"{cur}5"])
    state = act(state, f"buy tw1 {cur}9+{cur}5")  # exact: another action
    assert state.to_act == seat
    state = act(state, next(a for a in legal(state) if a.startswith("take ")))
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles) and sorted(top.tiles) == ["P8", "Wp1"]
    return state


def test_a_watchtower_is_placed_with_its_building_never_reserved() -> None:
    state = bought()
    moves = legal(state)
    assert "place Wp1 reserve" not in moves and not any(m.startswith("place Wp1 ") for m in moves)
    assert not any(m.startswith("watchtower return") for m in moves)  # the building may give it a place
    state = act(state, "place P8 1,0")
    moves = legal(state)
    # a short edge against the pavilion: west of 2,0, north of 1,1, south of 1,-1
    assert "watchtower place Wp1 2,0 sw" in moves and "watchtower place Wp1 1,1 ne" in moves
    assert "watchtower place Wp1 1,-1 se" in moves
    assert "watchtower place Wp1 2,0 se" not in moves  # its short edges would not touch the pavilion
    with pytest.raises(IllegalPlacement, match="colour"):
        act(state, "watchtower place Wp1 -1,0 se")
    seat = state.current
    after = act(state, "watchtower place Wp1 2,0 sw")
    t = after.components.tile_ids["Wp1"]
    assert after.walls[t] == NORTH | EAST and after.players[seat].city[geo.pos(2, 0)] == t
    assert towers(after).placed[seat] == ((2, 0, "Wp1", "sw"),)
    assert str(TowerPlaced(seat, "Wp1", 2, 0, "sw").describe()).startswith(f"player {seat + 1} places the pavilion watchtower")
    again = state_from_json(state_to_json(after))
    assert again.walls == after.walls and towers(again) == towers(after)


def test_the_places_beyond_the_long_edge_stay_free_and_paths_run_through() -> None:
    state = bought()
    seat = state.current
    state = act(state, "place P8 1,0")
    state = act(state, "watchtower place Wp1 2,0 sw")
    assert MODULE.placement_problem(state, seat, state.components.tile_ids["G10"], geo.pos(2, -1)) is not None
    assert MODULE.placement_problem(state, seat, state.components.tile_ids["G10"], geo.pos(3, 0)) is not None
    # a building south of the watchtower is reached on foot through it (in at the south, out at the west)
    build_tiles(state, seat, {(2, 1): "A9"})
    assert geo.validate_layout(state.players[seat].city, state.walls, geo.ORIGIN) == []
    # the watchtower never moves; the pavilion keeps it next to its colour
    assert MODULE.removal_problem(state, seat, state.components.tile_ids["Wp1"], geo.pos(2, 0)) is not None
    assert MODULE.removal_problem(state, seat, state.components.tile_ids["P8"], geo.pos(1, 0)) is not None
    # its wall: the diagonal instead of the two walls around the empty half, +2
    assert wall_points(state, seat, 1) == 1 + 2


def test_a_watchtower_with_no_place_goes_back_to_the_supply() -> None:
    state = bought()
    seat = state.current
    state = act(state, "place P8 reserve")
    assert legal(state) == ["watchtower return Wp1"]
    with pytest.raises(IllegalPlacement):
        act(state, "watchtower place Wp1 1,0 sw")
    after = act(state, "watchtower return Wp1")
    assert "Wp1" in towers(after).supply[0] and towers(after).placed[seat] == ()


def test_two_players_the_building_may_go_to_the_neutral_player() -> None:
    state = bought(players=2)
    moves = legal(state)
    assert "place P8 neutral" in moves and "place Wp1 neutral" not in moves


# ---------------------------------------------------------------------------------- notation, JSON
@pytest.mark.parametrize("action", [PlaceTower("Wg1", (2, -1), "sw"), ReturnTower("Wt3")])
def test_notation_round_trips(action: Action) -> None:
    assert parse_action(str(action)) == action
    assert type(action).from_dict(action.to_dict()) == action


def test_bad_notation_and_state() -> None:
    with pytest.raises(NotationError, match="half"):
        parse_action("watchtower place Wg1 2,-1 up")
    with pytest.raises(NotationError, match="not a watchtower"):
        parse_action("watchtower return P8")
    with pytest.raises(NotationError):
        TowersState.from_dict({"supply": {}, "placed": []})
    with pytest.raises(IllegalAction):
        MODULE.check(fresh_game(3, 1, (ID,)), ReturnTower("Wg1"))


def test_components() -> None:
    state = fresh_game(3, 1, (ID,))
    tw = [t for t in state.components.tiles if t.module == ID]
    assert len(tw) == 18 and all(t.kind == "watchtower" and not t.in_bag for t in tw)
    assert sorted(len(s) for s in towers(state).supply) == [3] * 6


def test_open_edges_may_not_touch_walls() -> None:
    """Picture: "Open edges may not touch walls.\""""
    state = bought()
    seat = state.current
    state = act(state, "place P8 1,0")
    build_tiles(state, seat, {(1, -1): "P5nw"})  # walls north and west, open to P8 below
    assert geo.validate_layout(state.players[seat].city, state.walls, geo.ORIGIN) == []
    moves = legal(state)
    # at 0,-1 a short edge to the east would touch P5nw's west wall
    assert "watchtower place Wp1 0,-1 se" not in moves and "watchtower place Wp1 0,-1 ne" not in moves
    with pytest.raises(IllegalPlacement, match="wall"):
        act(state, "watchtower place Wp1 0,-1 se")


def test_a_decision_after_the_purchase_does_not_lose_the_watchtower() -> None:
    """With exchange certificates an overpayment asks first whether to store it; the watchtower
    still joins the tiles waiting below that decision."""
    state = fresh_game(3, 1, (ID, "exchange_certificates"), market=("P8", "G10w"))
    seat = state.current
    cur = CURRENCY_LETTERS[state.market_currency[0]]
    set_hand(state, seat, [f"{cur}9", f"{cur}7"])  # 16 for 14: 2 too much
    state = act(state, f"buy tw1 {cur}9+{cur}7")
    assert type(state.pending[-1]).__name__ == "StoreChoice"
    assert any(isinstance(p, PlaceTiles) and sorted(p.tiles) == ["P8", "Wp1"] for p in state.pending)


def _turn_again(state: GameState, seat: int) -> GameState:
    """The other seats take money until ``seat``'s turn comes back."""
    while not (state.current == seat and isinstance(state.pending[-1], ChooseAction)):
        state = act(state, next(a for a in legal(state) if a.startswith("take ") or a in ("pass", "end")))
    return state


def test_a_building_next_to_a_watchtower_is_exchanged_for_one_of_its_colour() -> None:
    """ "A building tile touching a watchtower may be rebuilt only if the watchtower still touches
    at least one building tile of its color after rebuilding is complete": the pavilion that alone
    supports a pavilion watchtower may be exchanged for another pavilion, not for a garden, and
    not taken away."""
    state = bought()
    seat = state.current
    state = act(state, "place P8 1,0")
    state = act(state, "watchtower place Wp1 2,0 sw")  # its west short edge on P8
    state = _turn_again(state, seat)
    reserve = state.players[seat].reserve
    reserve += [take_tile(state, "P6n"), take_tile(state, "G10n")]  # both fit P8's place (open west and east)
    moves = legal(state)
    assert "redesign exchange P6n P8" in moves
    assert "redesign exchange G10n P8" not in moves and "redesign remove P8" not in moves
    with pytest.raises(IllegalPlacement, match="colour"):
        act(state, "redesign exchange G10n P8")
    p8 = state.components.tile_ids["P8"]
    assert MODULE.removal_problem(state, seat, p8, geo.pos(1, 0)) == RULES["keeps_colour"]
    after = act(state, "redesign exchange P6n P8")
    city = after.players[seat].city
    assert city[geo.pos(1, 0)] == after.components.tile_ids["P6n"] and after.players[seat].reserve == [
        after.components.tile_ids["G10n"],
        p8,
    ]
    assert MODULE.removal_problem(after, seat, city[geo.pos(1, 0)], geo.pos(1, 0), p8) is None
