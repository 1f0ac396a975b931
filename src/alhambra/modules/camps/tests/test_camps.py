"""The camps' rules (rulebook p. 15): the worked example, the pictured allowed and forbidden
placements, the line scoring, and what camps do to the building rules of buildings and to
redesigns."""

from __future__ import annotations

import pytest

from alhambra import city as geo, parse_action, state_from_json, state_to_json
from alhambra.actions import Action
from alhambra.components import EAST
from alhambra.engine import occupied_places, set_walls
from alhambra.errors import IllegalAction, IllegalPlacement, NotationError, WrongPhase
from alhambra.events import RoundScored
from alhambra.modules.camps import (
    BASTIONS,
    MODULE,
    BuildCamp,
    CampPlaced,
    CampRemoved,
    CampsState,
    ExchangeCamp,
    PlaceCamp,
    RemoveCamp,
    camp_points,
    camp_spots,
    camps_of,
    camps_state,
)
from alhambra.modules.camps.module import CampAt, building_problem, camp_problem, removal_problem, tables
from alhambra.state import GameState, PlaceTiles
from alhambra.testing import build_tiles, check_conservation, score_next_round, set_hand, take_tile

from .helpers import EXAMPLE_CAMPS, ID, act, example, fresh, legal, put_camps


def ids(state, *codes: str) -> list[int]:  # type: ignore[no-untyped-def]
    return [state.components.tile_ids[c] for c in codes]


# ---------------------------------------------------------------------------------- components
def test_eight_camps_in_the_bag_with_one_or_two_bastions() -> None:
    state = fresh()
    camps = [t for t in state.components.tiles if t.module == ID]
    assert [t.code for t in camps] == ["L3n", "L4e", "L5s", "L6w", "L7sw", "L8ne", "L9es", "L10nw"]
    assert all(t.kind == "camp" and t.in_bag for t in camps)
    assert sorted(b.bit_count() for b in BASTIONS.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    # the two-bastion camps have them at a corner ("im Winkel"), never on opposite sides
    assert all(b not in (5, 10) for b in BASTIONS.values())
    where = set(state.bag) | set(state.market)
    assert all(state.components.tile_ids[t.code] in where for t in camps)
    assert camps_state(state).placed == ((), (), ())
    assert MODULE.component_assumptions


# ---------------------------------------------------------------------------------- scoring
def test_rulebook_example_scores_ten() -> None:
    """ "4 points are awarded for the camp on the left; the opposite one counts for the same
    amount again. The bottom camps awards two points. A total of 10 extra points.\""""
    state = example()
    view = MODULE.view(state, None)
    arrows = {c["camp"]: c["arrows"] for c in view["placed"][0]}
    assert arrows == {"L4e": {"e": 4}, "L6w": {"w": 4}, "L3n": {"n": 2}}
    assert camp_points(state, 0) == 10 and view["points_now"] == [10, 0, 0]
    state, events = score_next_round(state)
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.extra[ID] == (10, 0, 0)
    # camps are scored in every round: the next round gives the 10 points again
    state, events = score_next_round(state)
    assert next(e for e in events if isinstance(e, RoundScored)).extra[ID][0] == 10


def test_interior_walls_do_not_break_the_line_and_the_fountain_counts() -> None:
    state = fresh()
    # a wall between 0,1 and 1,1 (inside the line), both reached on foot
    build_tiles(state, 0, {(0, 1): "S3esw", (1, 1): "S7w", (1, 0): "A9"})
    assert geo.validate_layout(state.players[0].city, state.walls, geo.ORIGIN) == []
    put_camps(state, 0, {(-1, 1): "L4e"})
    assert camp_points(state, 0) == 2
    # a camp whose line runs through the starting tile (the fountain counts as a building)
    put_camps(state, 0, {(1, 2): "L3n"})  # bastion north against... nothing: the line is empty
    assert camp_points(state, 0) == 2 + 2  # 1,1 and 1,0 (the line stops at the empty 1,-1)


def test_a_building_in_the_line_of_two_bastions_counts_twice() -> None:
    state = example()
    lines = {c["camp"]: c["arrows"] for c in MODULE.view(state, None)["placed"][0]}
    # 1,1 is in the lines of all three camps: 3 of the 10 points
    assert sum(sum(a.values()) for a in lines.values()) == 10


def test_the_wall_behind_a_bastion_still_scores_in_the_longest_wall() -> None:
    with_camps = example()
    without = example()
    without.mods[ID] = CampsState(((), (), ()))
    for code in EXAMPLE_CAMPS.values():
        without.bag.append(without.components.tile_ids[code])
    _, ea = score_next_round(with_camps)
    _, eb = score_next_round(without)
    ra = next(e for e in ea if isinstance(e, RoundScored))
    rb = next(e for e in eb if isinstance(e, RoundScored))
    assert ra.walls == rb.walls and ra.walls[0] > 0
    assert ra.extra[ID][0] == 10


# ---------------------------------------------------------------------------------- placement
ROW = {(0, 1): "P3sw", (1, 1): "S8s", (2, 1): "T11s"}
"""Three buildings south of the fountain with city walls to the south (the first one also west)."""


def row_state(camps: dict[tuple[int, int], str] | None = None) -> GameState:
    """A game whose seat to act has :data:`ROW` and these camps."""
    state = fresh()
    seat = state.current
    build_tiles(state, seat, ROW)
    assert geo.validate_layout(state.players[seat].city, state.walls, geo.ORIGIN) == []
    if camps:
        put_camps(state, seat, camps)
    return state


def problem(state: GameState, code: str, x: int, y: int) -> str | None:
    seat = state.current
    tab = tables(state.components)
    cells = state.players[seat].city
    return camp_problem(cells, state.walls, camps_of(state, seat), tab, BASTIONS[code], geo.pos(x, y))


def test_allowed_green_side_against_green_side_and_bastion_against_city_wall() -> None:
    """Picture: "Allowed: green side against a green side and bastion against a city wall.\""""
    state = row_state({(0, 2): "L3n"})
    assert problem(state, "L8ne", 1, 2) is None  # its west side (green) against L3n's east side (green)
    # a bastion may face empty ground (L8ne's east bastion), and no camp needs a path on foot
    assert problem(state, "L8ne", 2, 2) is None


def test_not_allowed_bastion_against_bastion_or_green_side() -> None:
    """Picture: "Not allowed: Placing a bastion against another bastion or a green side.\""""
    state = row_state({(0, 2): "L8ne"})  # north against the wall, east bastion facing 1,2
    assert problem(state, "L10nw", 1, 2) == "bastion_camp"  # its west bastion against L8ne's east bastion
    state = row_state({(0, 2): "L3n"})
    assert problem(state, "L10nw", 1, 2) == "bastion_camp"  # its west bastion against L3n's green east side
    assert problem(state, "L3n", 0, 3) == "bastion_camp"  # its north bastion against L3n's green south side


def test_not_allowed_against_a_side_of_a_building_without_a_city_wall() -> None:
    """Picture: "Not allowed: A green side, or bastion, against a side of a building without a city wall.\""""
    state = row_state()
    assert problem(state, "L6w", 3, 1) == "no_wall"  # its bastion against T11s's open east side
    assert problem(state, "L3n", 3, 1) == "green_side"  # its green west side against T11s
    # only a bastion joins: a green side against a city wall is not allowed either
    assert problem(state, "L3n", -1, 1) == "green_side"
    assert problem(state, "L4e", -1, 1) is None


def test_a_camp_must_be_joined_by_a_bastion_to_a_city_wall() -> None:
    state = row_state({(0, 2): "L3n"})
    assert problem(state, "L6w", 0, 3) == "joined"  # green against L3n's green south side, no wall
    assert problem(state, "L4e", 5, 5) == "joined"
    assert problem(state, "L4e", 0, 1) == "occupied" and problem(state, "L4e", 0, 2) == "occupied"


def test_a_camp_may_not_close_a_hole() -> None:
    # pure geometry: buildings on 1,0 2,0 0,1 1,2 (2,0 with a south wall); a camp on 2,1 whose
    # north bastion stands against that wall would close the empty place 1,1 on all sides
    walls = [0, 0, 4, 0, 0]
    cells = {geo.pos(1, 0): 0, geo.pos(2, 0): 2, geo.pos(0, 1): 1, geo.pos(1, 2): 3}
    tab = tables(fresh().components)
    assert camp_problem(cells, walls, {}, tab, 1, geo.pos(2, 1)) == "no_holes"
    del cells[geo.pos(1, 2)]  # open to the south: no hole
    assert camp_problem(cells, walls, {}, tab, 1, geo.pos(2, 1)) is None


def test_buildings_next_to_camps() -> None:
    state = row_state({(0, 2): "L8ne"})  # its east bastion faces the empty 1,2
    tab = tables(state.components)
    cells = state.players[state.current].city
    camps = camps_of(state, state.current)

    def b(code: str, x: int, y: int) -> str | None:
        t = state.components.tile_ids[code]
        return building_problem(cells, camps, tab, t, state.walls[t], geo.pos(x, y))

    assert b("P8", 0, 2) == "occupied"  # on the camp
    assert b("S3esw", 1, 2) is None  # a city wall against the bastion
    assert b("P8", 1, 2) == "no_wall"  # no wall against the bastion
    assert b("P8", -1, 2) == "green_side"  # against the camp's green west side
    assert b("P8", 5, 5) is None  # far from every camp: the camps have nothing to say


def test_the_engine_refuses_a_camp_as_a_building_and_buildings_against_green_sides() -> None:
    state = row_state({(0, 2): "L8ne"})
    reason = MODULE.placement_problem(state, state.current, state.components.tile_ids["L3n"], geo.pos(-1, 0))
    assert reason is not None and "outside the city" in reason
    reason = MODULE.placement_problem(state, state.current, state.components.tile_ids["P8"], geo.pos(-1, 2))
    assert reason is not None and "bastion" in reason


def test_camp_spots() -> None:
    state = row_state()
    spots = camp_spots(state, state.current, state.components.tile_ids["L3n"])
    # below each of the three walled south sides
    assert spots == [(0, 2), (1, 2), (2, 2)]
    assert camp_spots(state, state.current, state.components.tile_ids["L4e"]) == [(-1, 1)]
    assert camp_spots(state, state.current, state.components.tile_ids["L7sw"]) == []


# ---------------------------------------------------------------------------------- redesign
def test_removing_a_building_keeps_every_camp_joined() -> None:
    state = row_state({(2, 2): "L3n"})
    tab = tables(state.components)
    seat = state.current
    cells = state.players[seat].city
    walls = state.walls
    assert removal_problem(cells, walls, camps_of(state, seat), tab, geo.pos(2, 1)) == "camp_alone"
    assert removal_problem(cells, walls, camps_of(state, seat), tab, geo.pos(0, 1)) is None
    reason = MODULE.removal_problem(state, seat, state.components.tile_ids["T11s"], geo.pos(2, 1))
    assert reason is not None and "bastion" in reason


def test_camp_redesigns() -> None:
    state = row_state({(0, 2): "L3n"})
    seat = state.current
    state.players[seat].reserve.append(take_tile(state, "L10nw"))
    check_conservation(state)
    camp_moves = sorted(a for a in legal(state) if a.startswith("camp "))
    # build: only 2,2 (1,2 would put its west bastion against L3n's green side; -1,1 a green side
    # against a wall); remove L3n; exchange L3n for L10nw (north bastion on the wall, west facing nothing)
    assert camp_moves == ["camp build L10nw 2,2", "camp exchange L10nw L3n", "camp remove L3n"]
    after, events = act(state, "camp build L10nw 2,2")
    assert CampPlaced(seat, "L10nw", 2, 2, redesign=True) in events
    assert camps_state(after).placed[seat] == (CampAt(0, 2, "L3n"), CampAt(2, 2, "L10nw"))
    assert after.to_act != seat  # a redesign is a whole action: the turn is over
    after, events = act(state, "camp exchange L10nw L3n")
    assert CampRemoved(seat, "L3n", 0, 2, replaced_by="L10nw") in events
    assert camps_state(after).placed[seat] == (CampAt(0, 2, "L10nw"),)
    assert after.players[seat].reserve == [after.components.tile_ids["L3n"]]
    after, events = act(state, "camp remove L3n")
    assert CampRemoved(seat, "L3n", 0, 2) in events and camps_state(after).placed[seat] == ()
    with pytest.raises(IllegalPlacement, match="sides without bastions"):
        act(state, "camp build L10nw 1,2")
    with pytest.raises(IllegalAction, match="not on your reserve board"):
        act(state, "camp build L4e -1,1")
    with pytest.raises(IllegalAction, match="not in your Alhambra"):
        act(state, "camp remove L4e")


def test_a_building_that_holds_a_camp_cannot_be_removed() -> None:
    state = row_state({(2, 2): "L3n"})
    assert "redesign remove T11s" not in legal(state)
    assert "redesign remove T11s" in legal(row_state({(0, 2): "L3n"}))
    with pytest.raises(IllegalPlacement, match="bastion against a city wall"):
        act(state, "redesign remove T11s")


# ---------------------------------------------------------------------------------- notation, JSON
@pytest.mark.parametrize(
    "action",
    [PlaceCamp("L8ne", (2, -1)), BuildCamp("L3n", (0, 2)), RemoveCamp("L3n"), ExchangeCamp("L3n", "L8ne")],
)
def test_notation_round_trips(action: Action) -> None:
    assert parse_action(str(action)) == action
    assert type(action).from_dict(action.to_dict()) == action


def test_bad_notation() -> None:
    with pytest.raises(NotationError, match="not a camp"):
        parse_action("camp place P8 1,1")
    with pytest.raises(NotationError, match="usage"):
        parse_action("camp remove")


def test_state_round_trips_through_json() -> None:
    state = example()
    again = state_from_json(state_to_json(state))
    assert camps_state(again) == camps_state(state)
    assert state_to_json(again) == state_to_json(state)
    view = MODULE.view(state, 1)
    assert MODULE.slice_from_view(view, state.config) == camps_state(state)
    with pytest.raises(NotationError):
        CampsState.from_dict({"placed": [[{"x": 0, "y": 0, "camp": "P8"}]]})
    # the JSON form saved games hold: per seat a list of {x, y, camp}, sorted by place
    assert camps_state(state).to_dict()["placed"][0] == [
        {"x": -1, "y": 1, "camp": "L4e"},
        {"x": 1, "y": 3, "camp": "L3n"},
        {"x": 4, "y": 1, "camp": "L6w"},
    ]
    with pytest.raises(NotationError, match="two camps on one place"):
        CampsState.from_dict({"placed": [[{"x": 0, "y": 2, "camp": "L3n"}, {"x": 0, "y": 2, "camp": "L4e"}]]})


# ---------------------------------------------------------------------------------- the placement step
def bought_camp(code: str = "L3n", players: int = 3) -> GameState:
    """The seat to act has :data:`ROW` and has just bought ``code`` (square 1) with exact money."""
    state = fresh(players, market=(code,))
    seat = state.current
    build_tiles(state, seat, ROW)
    price = state.components.tiles[state.components.tile_ids[code]].price
    cur = "bgoy"[0]
    set_hand(state, seat, [f"{cur}{price}"])
    state, _ = act(state, f"buy 1 {cur}{price}")
    while not isinstance(state.pending[-1], PlaceTiles):  # exact: another action; take a card to end
        state, _ = act(state, next(a for a in legal(state) if a.startswith("take ")))
    return state


def test_a_bought_camp_is_placed_outside_the_walls() -> None:
    state = bought_camp("L3n")
    seat = state.current
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles) and top.tiles == ("L3n",)
    moves = legal(state)
    # the camp places below the three walled south sides, and the reserve; no city place
    assert sorted(m for m in moves if "L3n" in m) == ["camp place L3n 0,2", "camp place L3n 1,2", "camp place L3n 2,2", "place L3n reserve"]
    with pytest.raises(IllegalPlacement, match="outside the city"):
        act(state, "place L3n 3,1")
    with pytest.raises(IllegalPlacement, match="green side"):
        act(state, "camp place L3n 3,1")
    after, events = act(state, "camp place L3n 0,2")
    assert CampPlaced(seat, "L3n", 0, 2) in events
    assert camps_state(after).placed[seat] == (CampAt(0, 2, "L3n"),)
    assert not any(isinstance(p, PlaceTiles) for p in after.pending)
    assert camp_points(after, seat) == 2  # 0,1 and the fountain above it
    again = state_from_json(state_to_json(state))
    assert legal(again) == moves


def test_a_camp_place_outside_the_placement_step_is_refused() -> None:
    state = row_state()
    with pytest.raises(WrongPhase):
        act(state, "camp place L3n 0,2")


def test_two_players_a_camp_may_go_to_the_neutral_player() -> None:
    state = bought_camp("L4e", players=2)
    assert "place L4e neutral" in legal(state) and "camp place L4e -1,1" in legal(state)
    after, _ = act(state, "place L4e neutral")
    assert after.neutral is not None and after.components.tile_ids["L4e"] in after.neutral
    assert camps_state(after).placed == ((), ())


def test_camp_rules_read_the_walls_as_they_stand_now() -> None:
    state = row_state()
    seat = state.current
    tile = state.components.tile_ids["L6w"]
    assert camp_spots(state, seat, tile) == []
    # a module adds a city wall on the east side of T11s: the west bastion may stand against it
    set_walls(state, state.components.tile_ids["T11s"], state.walls[state.components.tile_ids["T11s"]] | EAST)
    assert camp_spots(state, seat, tile) == [(3, 1)]


# ---------------------------------------------------------------------------------- holes and camps
RING = {
    (1, 0): "S8s",
    (2, 0): "G12s",
    (3, 0): "P6n",
    (3, 1): "G10w",
    (3, 2): "S7w",
    (0, 1): "P7e",
    (0, 2): "G9e",
    (0, 3): "P3sw",
    (1, 3): "G10n",
}
"""Buildings around a 2x2 block of camps (1,1 to 2,2), each showing a city wall to the block, all
reached on foot from the fountain; only 2,3 is missing from the ring."""
BLOCK = {(1, 1): "L10nw", (2, 1): "L8ne", (1, 2): "L7sw", (2, 2): "L9es"}
"""Four two-bastion camps, green sides against green sides, a bastion on every outer side."""


def test_a_ring_closed_around_camps_encloses_no_hole() -> None:
    """The base game's "no gaps" rule with camps (p. 15: the other building rules stay): the camps
    fill their places, so the last building of a ring around a block of camps closes no empty
    area; the core's hole test counts the camps (``occupied_places``), and no tile goes onto a camp."""
    state = fresh()
    seat = state.current
    build_tiles(state, seat, RING)
    put_camps(state, seat, BLOCK)
    state.players[seat].reserve.append(take_tile(state, "T11n"))
    check_conservation(state)
    assert occupied_places(state, seat) == frozenset(geo.pos(x, y) for x, y in BLOCK)
    # the city alone would see an empty 2x2 area enclosed once 2,3 is built
    assert geo.creates_hole(state.players[seat].city, geo.pos(2, 3))
    moves = legal(state)
    assert "redesign build T11n 2,3" in moves and "redesign build T11n 1,1" not in moves
    after, _ = act(state, "redesign build T11n 2,3")
    assert after.players[seat].city[geo.pos(2, 3)] == after.components.tile_ids["T11n"]
    with pytest.raises(IllegalPlacement, match="already holds"):
        act(state, "redesign build T11n 2,2")
    # a real hole is still refused: without the camp on 2,2 its place would be enclosed
    open_state = fresh()
    build_tiles(open_state, seat, RING)
    put_camps(open_state, seat, {k: v for k, v in BLOCK.items() if k != (2, 2)})
    open_state.players[seat].reserve.append(take_tile(open_state, "T11n"))
    assert "redesign build T11n 2,3" not in legal(open_state)
