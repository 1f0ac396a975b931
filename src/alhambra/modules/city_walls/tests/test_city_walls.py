"""City walls: the cards in piles 2-5, laid open when drawn; building segments on a tile of the
Alhambra (closing a gap in the outer wall), of the reserve board, bought this turn, or on the
fountain; never over a wall nor against a neighbour; with magical buildings the segments turn
with the tile; random whole games, the research encoding and a bot."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import PlaceBuilding
from alhambra.components import EAST, NORTH, SOUTH, WEST
from alhambra.engine import draw_card, wall_points
from alhambra.errors import IllegalAction, NotationError
from alhambra.events import Event
from alhambra.modules.city_walls import (
    MODULE,
    BuildCityWall,
    BuildFountainWall,
    CityWallBuilt,
    CityWallCardShown,
    CityWallsState,
    card_walls,
)
from alhambra.state import ChooseAction, GameState
from alhambra.testing import build_tiles, check_conservation, play_random_game, take_tile

ID = "city_walls"


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = ()) -> GameState:
    state, _ = new_game(GameConfig(players=players, modules=(ID, *modules)), seed)
    return state


def lay_open(state: GameState, *cards: str) -> None:
    """These city-wall cards lie open beside the board (taken out of the draw pile)."""
    ids = {c.code: i for i, c in enumerate(state.components.cards)}
    for code in cards:
        cid = ids[code]
        if cid in state.deck:
            state.deck.remove(cid)
        elif cid in state.display:
            state.display[state.display.index(cid)] = -1
    sl = state.mods[ID]
    state.mods[ID] = CityWallsState((*sl.open, *cards), sl.used, sl.built)


def base_tile(state: GameState, walls: int, skip: tuple[str, ...] = ()) -> str:
    comp = state.components
    return next(
        comp.tile_code[t]
        for t in state.bag
        if comp.tiles[t].module is None and comp.tile_walls[t] == walls and comp.tile_code[t] not in skip
    )


def test_eight_cards_two_in_each_of_the_piles_2_to_5() -> None:
    state = fresh()
    cards = [c for c in state.components.cards if c.module == ID]
    assert len(cards) == 8 and sum(card_walls(c.code).bit_count() for c in cards) == 12
    assert sorted(card_walls(c.code).bit_count() for c in cards) == [1, 1, 1, 1, 2, 2, 2, 2]
    piles: list[list[int]] = [[], [], [], [], []]
    MODULE.deck_piles(state, piles, random.Random(3))
    assert [len(p) for p in piles] == [0, 2, 2, 2, 2]
    on_display = [c for c in state.display if c >= 0 and state.components.cards[c].module == ID]
    assert not on_display and sorted(
        MODULE.held_cards(state) + [c for c in state.deck if state.components.cards[c].module == ID]
    ) == sorted(i for i, c in enumerate(state.components.cards) if c.module == ID)


def test_a_drawn_card_is_laid_open_and_another_card_is_drawn() -> None:
    state = fresh()
    ids = {c.code: i for i, c in enumerate(state.components.cards)}
    state.deck.remove(ids["cwne"])
    state.deck.append(ids["cwne"])  # next to be drawn
    events: list[Event] = []
    got = draw_card(state, events)
    assert got is not None and state.components.cards[got].kind == "money"
    assert state.mods[ID].open == ("cwne",) and CityWallCardShown("cwne", "ne") in events
    assert view(state, None)["module_views"][ID]["open"] == [{"card": "cwne", "walls": "ne"}]


def test_a_segment_closes_a_gap_in_the_outer_wall_and_the_longest_wall_grows() -> None:
    state = fresh()
    seat = state.current
    a = base_tile(state, NORTH | WEST)
    c = base_tile(state, NORTH | EAST)
    build_tiles(state, seat, {(-1, 0): a, (1, 0): c})
    # the north wall runs over a and c but breaks above the wall-less fountain between them
    assert wall_points(state, seat, 1) == 2
    lay_open(state, "cwn", "cwe")
    acts = legal_actions(state, ID)
    assert BuildFountainWall("cwn") in acts and BuildFountainWall("cwe") not in acts  # c stands east of it
    after, events = apply(state, BuildFountainWall("cwn"))  # "including on the starting tile"
    f = state.components.fountains[seat]
    assert after.walls[f] == NORTH and state.walls[f] == 0
    assert wall_points(after, seat, 1) == 5  # west of a, north of a, the fountain and c, east of c
    built = next(e for e in events if isinstance(e, CityWallBuilt))
    assert (built.card, built.tile, built.added, built.where) == ("cwn", "F", "n", "alhambra")
    assert after.mods[ID].open == ("cwe",) and after.mods[ID].used == ("cwn",)
    assert not isinstance(after.pending[-1], ChooseAction) or after.pending[-1].seat != seat  # the action phase ended
    assert not geo.validate_layout(after.players[seat].city, after.walls, geo.ORIGIN)
    check_conservation(after)
    data = state_to_json(after)
    assert data["walls"] == {f"F{seat + 1}": "n"}
    assert state_to_json(state_from_json(json.loads(json.dumps(data)))) == data
    assert view(after, None)["walls"] == {f"F{seat + 1}": "n"}
    assert view(after, None)["module_views"][ID]["segments_left"] == 11


def test_never_over_a_wall_and_never_against_a_neighbour() -> None:
    state = fresh()
    seat = state.current
    a = base_tile(state, NORTH)
    build_tiles(state, seat, {(1, 0): a})
    lay_open(state, "cwn", "cww", "cwe")
    acts = set(legal_actions(state, ID))
    assert BuildCityWall("cwn", a) not in acts  # a printed wall there already
    assert BuildCityWall("cww", a) not in acts  # against the fountain's open side
    assert BuildCityWall("cwe", a) in acts
    with pytest.raises(IllegalAction, match="never built over"):
        apply(state, BuildCityWall("cwn", a))
    with pytest.raises(IllegalAction, match="building rule"):
        apply(state, BuildCityWall("cww", a))
    with pytest.raises(IllegalAction, match="not lying open"):
        apply(state, BuildCityWall("cws", a))
    with pytest.raises(NotationError):
        parse_action("wall build cwn")


def test_the_fountain_a_reserve_tile_and_a_tile_bought_this_turn_take_segments() -> None:
    state = fresh()
    seat = state.current
    lay_open(state, "cwsw", "cwe", "cws")
    after, _ = apply(state, parse_action("wall build cwsw fountain"))  # the starting tile, two segments
    assert after.walls[state.components.fountains[seat]] == SOUTH | WEST
    assert after.changed_walls() == {f"F{seat + 1}": "sw"}
    # a tile on the reserve board keeps its segment when it is built later
    s2 = fresh()
    seat = s2.current
    r = base_tile(s2, 0)
    rt = take_tile(s2, r)
    s2.players[seat].reserve.append(rt)
    lay_open(s2, "cwe")
    s3, events = apply(s2, BuildCityWall("cwe", r))
    assert s3.walls[rt] == EAST and any(isinstance(e, CityWallBuilt) and e.where == "reserve" for e in events)
    # a tile bought this turn (waiting after an exact payment)
    s4 = fresh()
    seat = s4.current
    w = base_tile(s4, 0)
    take_tile(s4, w)
    s4.pending[-1] = ChooseAction(seat, 1, (w,))
    lay_open(s4, "cws")
    s5, events = apply(s4, BuildCityWall("cws", w))
    assert any(isinstance(e, CityWallBuilt) and e.where == "bought" for e in events)
    assert s5.pending[-1].tiles == (w,)  # type: ignore[attr-defined]  # now it waits to be placed, with its wall
    places = {a.target for a in legal_actions(s5) if isinstance(a, PlaceBuilding) and a.tile == w}
    assert (0, -1) not in places and (0, 1) in places  # its south wall may not face the fountain


def test_segments_on_a_magical_building_turn_with_it() -> None:
    state = fresh(modules=("magical_buildings",))
    seat = state.current
    t = take_tile(state, "Xp9")  # one wall, north as printed
    state.players[seat].reserve.append(t)
    lay_open(state, "cwe")
    state, _ = apply(state, BuildCityWall("cwe", "Xp9"))  # now north + east: two walls at a corner
    assert state.walls[t] == NORTH | EAST
    from alhambra.modules.magical_buildings.module import build_spots

    turned = {m for _, m in build_spots(state, seat, t)}
    assert turned and turned <= {NORTH | EAST, EAST | SOUTH, SOUTH | WEST, NORTH | WEST}  # the segment turns with it


@pytest.mark.parametrize(("players", "modules", "seed"), [(2, (), 3), (3, ("magical_buildings", "invaders", "bonus_cards"), 5)])
def test_random_games_with_city_walls(players: int, modules: tuple[str, ...], seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=seed, try_every_action=False)
    assert game.state.outcome == "finished"
    assert any(str(a).startswith("wall build") for a in game.record.actions)
    for s in range(players):
        assert not geo.validate_layout(game.state.players[s].city, game.state.walls, geo.ORIGIN)


def test_the_research_encoding_takes_every_wall_action() -> None:
    pytest.importorskip("numpy")
    from alhambra.testing import check_encoded_game

    listed = check_encoded_game(GameConfig(players=2, modules=(ID,)), 7, prefer=lambda a: a.module == ID)
    assert any(isinstance(a, BuildCityWall) for a in listed) and any(isinstance(a, BuildFountainWall) for a in listed)
    assert parse_action("wall build cwn F") == BuildFountainWall("cwn") and str(BuildFountainWall("cwn")) == "wall build cwn fountain"


def test_greedy_builds_city_walls() -> None:
    from alhambra.tournament import play_game

    result = play_game(GameConfig(players=2, modules=(ID,), turn_limit=50), ["greedy", "greedy"], seed=4, game=0)
    assert result.fallbacks == 0
    assert any(a.startswith("wall build") for a in result.record["actions"])


def test_walls_letters() -> None:
    assert card_walls("cwne") == NORTH | EAST and card_walls("cww") == WEST


def test_alhambra_score_reads_wall_segments_added_to_tiles(tmp_path: Path) -> None:
    """``alhambra score``: a layout naming the module gives a tile's wooden segments as ``added``
    (its printed ``walls`` still name the tile): the fountain and a base tile with segments, a
    magical building turned beside them; the segments count in the longest wall and in the
    building rules; no segment over a wall, none without the module, no more than 12."""
    from tests.cli_helpers import invoke

    from alhambra.layout import LayoutError, score_layout

    tiles = [
        {"x": 0, "y": 0, "kind": "fountain", "added": "S"},
        {"x": 1, "y": 0, "kind": "pavilion", "price": 8, "added": "N"},
        {"x": -1, "y": 0, "kind": "garden", "price": 13, "walls": "NSW"},
    ]
    doc = {"modules": [ID, "magical_buildings"], "tiles": tiles}
    report = score_layout(doc)
    assert report.valid and report.longest_wall == 4 and report.buildings["pavilion"] == report.buildings["garden"] == 1
    assert report.tiles[1].walls == NORTH and report.tiles[1].added == NORTH and "+ segment N" in report.tiles[1].describe()
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = invoke("score", "--json", str(path))
    assert out.exit_code == 0 and json.loads(out.stdout)["longest_wall"] == 4
    # a segment that breaks a building rule: against the fountain's open east side
    bad = [tiles[0], {"x": 1, "y": 0, "kind": "pavilion", "price": 8, "added": "W"}]
    assert "walls_match" in [v.rule for v in score_layout({"modules": [ID], "tiles": bad}).violations]
    with pytest.raises(LayoutError, match="city walls module"):
        score_layout({"modules": ["magical_buildings"], "tiles": tiles})
    with pytest.raises(LayoutError, match="never built over a wall"):
        score_layout({"modules": [ID], "tiles": [tiles[0], {"x": 1, "y": 0, "kind": "garden", "price": 8, "walls": "NW", "added": "WS"}]})
    many = [{"x": 2 * i, "y": 0, "kind": "fountain", "added": "NESW"} for i in range(4)]  # 16 segments
    with pytest.raises(LayoutError, match="only 12"):
        score_layout({"modules": [ID], "tiles": many})
