"""Magical buildings: the components, the rulebook's example (the magic pavilion left of a
garden: two ways), turning on every way into the Alhambra (placement, build from the reserve,
exchange), scoring as a normal building, random whole games, the research encoding and a bot."""

from __future__ import annotations

import json

import pytest

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import PlaceBuilding
from alhambra.components import EAST, NORTH, SOUTH, WEST
from alhambra.engine import building_counts, wall_points
from alhambra.errors import IllegalAction, IllegalPlacement, NotationError
from alhambra.events import AlhambraRedesigned
from alhambra.modules.magical_buildings import MODULE, MagicalBuildingTurned, MagicBuild, MagicExchange, MagicPlace, magical_tiles, turns
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import build_tiles, check_conservation, play_random_game, take_tile

ID = "magical_buildings"


def fresh(players: int = 3, seed: int = 1) -> GameState:
    state, _ = new_game(GameConfig(players=players, modules=(ID,)), seed)
    return state


def base_tile(state: GameState, kind: str, walls_without: int, walls_with: int = 0, skip: tuple[str, ...] = ()) -> str:
    """A base tile of ``kind`` in the bag with none of the walls ``walls_without`` and all of ``walls_with``."""
    comp = state.components
    return next(
        comp.tile_code[t]
        for t in state.bag
        if comp.tiles[t].module is None
        and comp.tiles[t].kind == kind
        and not comp.tile_walls[t] & walls_without
        and comp.tile_walls[t] & walls_with == walls_with
        and comp.tile_code[t] not in skip
    )


def waiting(state: GameState, *codes: str) -> None:
    """``codes`` wait to be placed by the seat to act (taken out of the bag/market)."""
    seat = state.current
    for c in codes:
        take_tile(state, c)
    state.pending[-1] = PlaceTiles(seat, codes, state.neutral is not None, "bought")


def test_six_tiles_one_price_above_the_dearest_of_their_kind_with_1_1_2_2_3_3_walls() -> None:
    tiles = magical_tiles()
    assert [(t.code, t.kind, t.price, t.walls.bit_count()) for t in tiles] == [
        ("Xp9", "pavilion", 9, 1),
        ("Xs10", "seraglio", 10, 1),
        ("Xa11", "arcades", 11, 2),
        ("Xc12", "chambers", 12, 2),
        ("Xg13", "garden", 13, 3),
        ("Xt14", "tower", 14, 3),
    ]
    assert all(t.in_bag and t.module == ID for t in tiles)
    state = fresh()
    dearest: dict[str, int] = {}
    for t in state.components.tiles:
        if (t.module is None and t.kind in dearest) or (t.module is None and t.price > 0):
            dearest[t.kind] = max(dearest.get(t.kind, 0), t.price)
    assert all(t.price == dearest[t.kind] + 1 for t in tiles)
    ids = {state.components.tile_code[t] for t in state.bag + state.market}
    assert {t.code for t in tiles} <= ids  # shuffled into the tiles
    assert turns(NORTH) == (1, 2, 4, 8) and turns(NORTH | EAST) == (3, 6, 9, 12) and len(turns(NORTH | SOUTH)) == 2


def test_the_rulebook_example_the_magic_pavilion_left_of_the_garden_has_two_options() -> None:
    state = fresh()
    seat = state.current
    garden = base_tile(state, "garden", WEST | SOUTH)  # open towards the fountain below and the pavilion
    neighbour = base_tile(state, "tower", NORTH | EAST)  # west of the fountain, open towards it and north
    build_tiles(state, seat, {(0, -1): garden, (-1, 0): neighbour})
    waiting(state, "Xp9")
    options = [a for a in legal_actions(state, ID) if isinstance(a, MagicPlace) and a.target == (-1, -1)]
    assert sorted(a.walls for a in options) == ["n", "w"]  # its wall may face north or west, never the open sides
    assert not [a for a in legal_actions(state) if isinstance(a, PlaceBuilding) and a.target == (-1, -1)]
    after, events = apply(state, MagicPlace("Xp9", (-1, -1), "w"))
    t = state.components.tile_ids["Xp9"]
    assert after.walls[t] == WEST and after.players[seat].city[geo.pos(-1, -1)] == t
    assert MagicalBuildingTurned(seat, "Xp9", "w") in events
    assert not geo.validate_layout(after.players[seat].city, after.walls, geo.ORIGIN)
    with pytest.raises(IllegalPlacement, match="adjoining sides"):
        apply(state, MagicPlace("Xp9", (-1, -1), "e"))  # its wall against the open garden
    with pytest.raises(IllegalAction, match="cannot be turned"):
        apply(state, MagicPlace("Xp9", (-1, -1), "ne"))  # a pavilion has one wall


def test_the_reserve_and_the_neutral_player_take_it_as_it_is() -> None:
    state = fresh(players=2)
    waiting(state, "Xa11")
    acts = legal_actions(state)
    assert PlaceBuilding("Xa11", "reserve") in acts and PlaceBuilding("Xa11", "neutral") in acts
    assert not [a for a in acts if isinstance(a, PlaceBuilding) and isinstance(a.target, tuple)]
    turned = {a.walls for a in acts if isinstance(a, MagicPlace)}
    assert turned and turned <= {"ne", "es", "sw", "nw"}  # its two walls at a corner, turned
    with pytest.raises(IllegalPlacement, match="turned as it is built"):
        apply(state, PlaceBuilding("Xa11", (1, 0)))


def test_built_from_the_reserve_or_exchanged_it_is_turned_again_and_keeps_its_walls() -> None:
    state = fresh()
    seat = state.current
    t = take_tile(state, "Xg13")
    state.players[seat].reserve.append(t)
    state.pending[-1] = ChooseAction(seat)
    builds = [a for a in legal_actions(state, ID) if isinstance(a, MagicBuild)]
    assert builds and {a.walls for a in builds} <= {"nes", "esw", "nsw", "new"}
    # a three-wall tile next to the wall-less fountain: its one open side faces the fountain
    assert {(a.target, a.walls) for a in builds} == {((0, -1), "new"), ((1, 0), "nes"), ((0, 1), "esw"), ((-1, 0), "nsw")}
    after, events = apply(state, parse_action("magic build Xg13 0,1 ESW"))
    assert after.walls[t] == EAST | SOUTH | WEST and wall_points(after, seat, 1) == 3
    assert any(e.how == "build" for e in events if isinstance(e, AlhambraRedesigned))
    # JSON and the view carry the walls it shows
    data = state_to_json(after)
    assert data["walls"] == {"Xg13": "esw"}
    assert state_to_json(state_from_json(json.loads(json.dumps(data)))) == data
    v = view(after, None)
    assert v["walls"] == {"Xg13": "esw"}
    assert {"tile": "Xg13", "kind": "garden", "price": 13, "walls": "esw"} in v["module_views"][ID]["tiles"]
    # it scores as a normal garden
    assert building_counts(after, seat)["garden"] == building_counts(state, seat)["garden"] + 1
    # exchanged for a tile of the Alhambra, it may be turned to fit that place
    other = (seat + 1) % 3
    s2 = after.copy()
    x = take_tile(s2, "Xs10")
    s2.players[seat].reserve.append(x)
    s2.pending[-1] = ChooseAction(seat)
    ex = [a for a in legal_actions(s2, ID) if isinstance(a, MagicExchange)]
    assert ex and all(a.city_tile == "Xg13" for a in ex)  # the only tile besides the fountain
    s3, _ = apply(s2, MagicExchange("Xs10", "Xg13", "e"))
    assert s3.walls[x] == EAST and t in s3.players[seat].reserve and other != seat
    check_conservation(s3)


def test_bad_notation_and_wrong_moments_are_refused() -> None:
    with pytest.raises(NotationError, match="bad walls"):
        parse_action("magic place Xp9 1,0 x")
    assert parse_action("magic exchange xa11 g8sw ES") == MagicExchange("Xa11", "G8sw", "es")
    state = fresh()
    with pytest.raises(IllegalAction):
        apply(state, MagicPlace("Xp9", (1, 0), "n"))
    with pytest.raises(IllegalAction, match="not on your reserve"):
        apply(state, MagicBuild("Xp9", (1, 0), "n"))


@pytest.mark.parametrize(("players", "modules", "seed"), [(2, (), 3), (3, ("vizier", "squares", "master_builders"), 4)])
def test_random_games_with_magical_buildings(players: int, modules: tuple[str, ...], seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=seed, try_every_action=False)
    assert game.state.outcome == "finished"
    assert any(str(a).startswith("magic ") for a in game.record.actions)
    for s in range(players):
        assert not geo.validate_layout(game.state.players[s].city, game.state.walls, geo.ORIGIN)


def test_the_research_encoding_takes_every_magic_action() -> None:
    pytest.importorskip("numpy")
    from alhambra.testing import check_encoded_game

    listed = check_encoded_game(GameConfig(players=2, modules=(ID,)), 5, prefer=lambda a: a.module == ID)
    assert any(isinstance(a, MagicPlace) for a in listed)


def test_greedy_builds_magical_buildings() -> None:
    from alhambra.tournament import play_game

    result = play_game(GameConfig(players=2, modules=(ID,), turn_limit=60), ["greedy", "greedy"], seed=2, game=0)
    assert result.fallbacks == 0
    assert any(a.startswith("magic ") for a in result.record["actions"])
    assert MODULE.bot_values(fresh()) is None  # a magical building is valued as the building it is


def test_alhambra_score_accepts_a_turned_magical_building_when_the_layout_names_the_module() -> None:
    from alhambra.layout import score_layout

    tiles = [{"x": 0, "y": 0, "kind": "fountain"}, {"x": 1, "y": 0, "kind": "garden", "price": 13, "walls": "NES"}]
    assert not score_layout({"tiles": tiles}).valid  # no garden 13 in the base game
    report = score_layout({"tiles": tiles, "modules": [ID]})
    assert report.valid and report.buildings["garden"] == 1 and report.longest_wall == 3
    turned = [tiles[0], {"x": 0, "y": 1, "kind": "garden", "price": 13, "walls": "ESW"}]
    assert score_layout({"tiles": turned, "modules": [ID]}).valid
    wrong = [tiles[0], {"x": 1, "y": 0, "kind": "garden", "price": 13, "walls": "NS"}]  # not a turn of its 3 walls
    assert [v.rule for v in score_layout({"tiles": wrong, "modules": [ID]}).violations] == ["unknown_tile"]


def test_every_turn_of_every_wall_pattern_reads_back_as_notation() -> None:
    """A magical building can carry city-wall segments (they stay part of it), so one with three
    printed walls can show all four: every turn of every pattern, from one wall to four, is a
    word of the notation of these moves and of the city gates' ``gate turn`` (a random game with
    every module once turned up ``gate turn Xa11 2,1 e nesw``, which did not read back)."""
    from alhambra.components import walls_to_letters
    from alhambra.hooks import modules_of
    from alhambra.modules.city_gates.module import GateTurn

    modules_of(GameConfig(players=2, modules=("city_gates", "magical_buildings")))
    for mask in range(1, 16):
        for shown in turns(mask):
            letters = walls_to_letters(shown)
            for text in (f"magic place Xa11 2,1 {letters}", f"magic build Xa11 2,1 {letters}", f"gate turn Xa11 2,1 e {letters}"):
                action = parse_action(text)
                assert isinstance(action, MagicPlace | MagicBuild | GateTurn) and action.walls == letters and str(action) == text
    assert turns(15) == (15,)
