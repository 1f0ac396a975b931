"""City gates: one card per player spread over the piles 3-5; one card open at a time; taking it
is an action; a tile that no path reaches is built through a gate on a double wall (the
rulebook's picture), several in one turn, also in a redesign; the tiles under a gate are never
redesigned; never over a wooden segment; random whole games, the research encoding and a bot."""

from __future__ import annotations

import json
import random

import pytest

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import ExchangeTiles, MoveToReserve, PlaceBuilding
from alhambra.components import EAST, NORTH, SOUTH, WEST
from alhambra.engine import redesign_options, refill_display, wall_points
from alhambra.errors import IllegalAction, IllegalPlacement
from alhambra.events import Event
from alhambra.modules.city_gates import MODULE, CityGateOpened, CityGatesState, GateBuild, GatePlace, GateTurn, TakeGate
from alhambra.modules.city_gates.module import BOT_CARD_VALUE, CityGateCardShown
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import build_tiles, check_conservation, play_random_game, take_tile

ID = "city_gates"


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = ()) -> GameState:
    state, _ = new_game(GameConfig(players=players, modules=(ID, *modules)), seed)
    return state


def give_cards(state: GameState, seat: int, n: int) -> None:
    """``seat`` holds ``n`` gate cards (taken out of the draw pile)."""
    ids = {c.code: i for i, c in enumerate(state.components.cards) if c.module == ID}
    sl = state.mods[ID]
    codes = [c for c in sorted(ids) if c not in sl.held[seat]][:n]
    for c in codes:
        state.deck.remove(ids[c])
    held = list(sl.held)
    held[seat] = (*held[seat], *codes)
    state.mods[ID] = CityGatesState(sl.open, tuple(held), sl.used, sl.gates)


def base_tile(state: GameState, walls: int, skip: tuple[str, ...] = ()) -> str:
    comp = state.components
    return next(
        comp.tile_code[t]
        for t in state.bag
        if comp.tiles[t].module is None and comp.tile_walls[t] == walls and comp.tile_code[t] not in skip
    )


def picture(state: GameState) -> tuple[int, str, str]:
    """The rulebook's case: east of the fountain a tile with an east wall, and waiting a tile with
    a west wall (and no other), which only a double wall would join to the Alhambra."""
    seat = state.current
    a = base_tile(state, EAST)
    b = base_tile(state, WEST)
    build_tiles(state, seat, {(1, 0): a})
    take_tile(state, b)
    state.pending[-1] = PlaceTiles(seat, (b,), state.neutral is not None, "bought")
    return seat, a, b


@pytest.mark.parametrize(("players", "split"), [(2, [0, 0, 1, 1, 0]), (4, [0, 0, 2, 1, 1]), (6, [0, 0, 2, 2, 2])])
def test_one_card_per_player_spread_over_the_piles_3_to_5(players: int, split: list[int]) -> None:
    state = fresh(players)
    assert sum(1 for c in state.components.cards if c.module == ID) == players
    piles: list[list[int]] = [[], [], [], [], []]
    MODULE.deck_piles(state, piles, random.Random(2))
    assert [len(p) for p in piles] == split


def test_one_card_lies_open_a_second_goes_onto_the_discard_pile_and_taking_it_is_an_action() -> None:
    state = fresh()
    ids = [i for i, c in enumerate(state.components.cards) if c.module == ID]
    for c in ids[:2]:
        state.deck.remove(c)
        state.deck.append(c)
    events: list[Event] = []
    state.deck.insert(0, state.display[0])  # an empty slot: the refill draws the two gate cards first
    state.display[0] = -1
    refill_display(state, events)
    assert state.display[0] >= 0 and state.components.cards[state.display[0]].module is None
    assert state.mods[ID].open == state.components.card_code[ids[1]] and ids[0] in state.discard
    assert [e.discarded for e in events if isinstance(e, CityGateCardShown)] == [False, True]
    seat = state.current
    assert TakeGate() in legal_actions(state)
    after, _ = apply(state, parse_action("gate take"))
    assert after.mods[ID].open is None and len(after.mods[ID].held[seat]) == 1
    assert not (isinstance(after.pending[-1], ChooseAction) and after.pending[-1].seat == seat)  # the actions ended
    assert TakeGate() not in legal_actions(after)
    check_conservation(after)


def test_the_rulebook_picture_a_tile_reached_only_through_a_gate() -> None:
    state = fresh()
    seat, a, b = picture(state)
    assert not [x for x in legal_actions(state) if isinstance(x, PlaceBuilding) and x.target == (2, 0)]  # on foot: no
    assert not legal_actions(state, ID)  # no card, no gate
    give_cards(state, seat, 1)
    assert GatePlace(b, (2, 0), "w") in legal_actions(state, ID)
    before = wall_points(state, seat, 1)
    after, events = apply(state, GatePlace(b, (2, 0), "w"))
    ta, tb = (state.components.tile_ids[c] for c in (a, b))
    assert after.walls[ta] == 0 and after.walls[tb] == 0  # the double wall is open
    assert after.players[seat].city[geo.pos(2, 0)] == tb
    assert not geo.validate_layout(after.players[seat].city, after.walls, geo.ORIGIN)
    # the gate changes no score: a double wall never scored (A's wall was outer before B came)
    assert wall_points(after, seat, 1) == geo.longest_wall(after.players[seat].city, state.components.tile_walls) == before - 1
    assert any(isinstance(e, CityGateOpened) and (e.x, e.y, e.side) == (2, 0, "w") for e in events)
    assert after.mods[ID].gates == ((seat, 2, 0, "w"),) and not after.mods[ID].held[seat] and len(after.mods[ID].used) == 1
    check_conservation(after)
    data = state_to_json(after)
    assert state_to_json(state_from_json(json.loads(json.dumps(data)))) == data
    assert view(after, None)["module_views"][ID]["gates"] == [{"seat": seat, "x": 2, "y": 0, "side": "w"}]
    # the two tiles under the gate are never redesigned
    after.pending.append(ChooseAction(seat))
    removes = {x.tile for x in redesign_options(after, seat, "remove")}  # type: ignore[attr-defined]
    assert a not in removes and b not in removes
    with pytest.raises(IllegalPlacement, match="under a city gate"):
        apply(after, MoveToReserve(b))
    spare = take_tile(after, base_tile(after, 0, (a, b)))
    after.players[seat].reserve.append(spare)
    assert not [x for x in redesign_options(after, seat, "exchange") if isinstance(x, ExchangeTiles) and x.city_tile in (a, b)]


def test_a_gate_only_where_it_is_needed() -> None:
    state = fresh()
    seat, _a, b = picture(state)
    give_cards(state, seat, 1)
    with pytest.raises(IllegalPlacement, match="without a gate"):
        apply(state, GatePlace(b, (0, 1), "n"))  # south of the fountain, joined by open sides anyway
    with pytest.raises(IllegalPlacement, match="joined"):
        apply(state, GatePlace(b, (2, 1), "n"))  # touches nothing
    with pytest.raises(IllegalPlacement, match="double wall"):
        apply(state, GatePlace(b, (2, 0), "n"))  # the gate must go on the double wall (west), not north


def test_no_gate_where_the_tile_would_close_a_hole() -> None:
    """A place that fails on foot and would also enclose an empty place: no gate (the hole test
    comes after the on-foot rule, and a gate opens only the on-foot rule)."""
    state = fresh()
    seat = state.current
    plain: list[str] = []
    for _ in range(4):
        plain.append(base_tile(state, 0, tuple(plain)))
    walled = base_tile(state, EAST)
    # around the empty place 1,1: 1,0 2,0 2,1 and 0,1 0,2 (its east wall towards 1,2)
    build_tiles(state, seat, {(1, 0): plain[0], (2, 0): plain[1], (2, 1): plain[2], (0, 1): plain[3], (0, 2): walled})
    b = base_tile(state, WEST)
    take_tile(state, b)
    state.pending[-1] = PlaceTiles(seat, (b,), state.neutral is not None, "bought")
    give_cards(state, seat, 1)
    city = state.players[seat].city
    q = geo.pos(1, 2)
    assert geo.placement_problem(city, state.walls, WEST, q) == "on_foot" and geo.creates_hole(city, q)
    assert GatePlace(b, (1, 2), "w") not in legal_actions(state, ID)
    with pytest.raises(IllegalPlacement):
        apply(state, GatePlace(b, (1, 2), "w"))


def test_two_gates_in_one_turn_and_one_in_a_redesign() -> None:
    state = fresh()
    seat = state.current
    a = base_tile(state, EAST)
    c = base_tile(state, WEST, (a,))
    build_tiles(state, seat, {(1, 0): a, (-1, 0): c})
    b1 = base_tile(state, WEST, (a, c))
    b2 = base_tile(state, EAST, (a, c, b1))
    for code in (b1, b2):
        take_tile(state, code)
    state.pending[-1] = PlaceTiles(seat, (b1, b2), False, "bought")
    give_cards(state, seat, 3)
    state, _ = apply(state, GatePlace(b1, (2, 0), "w"))
    state, _ = apply(state, GatePlace(b2, (-2, 0), "e"))
    assert len(state.mods[ID].gates) == 2 and len(state.mods[ID].held[seat]) == 1
    # a redesign from the reserve board through the last gate
    s2 = fresh()
    seat = s2.current
    a = base_tile(s2, SOUTH)
    build_tiles(s2, seat, {(0, 1): a})
    r = base_tile(s2, NORTH, (a,))
    s2.players[seat].reserve.append(take_tile(s2, r))
    give_cards(s2, seat, 1)
    assert GateBuild(r, (0, 2), "n") in legal_actions(s2, ID)
    s3, _ = apply(s2, GateBuild(r, (0, 2), "n"))
    assert s3.mods[ID].gates == ((seat, 0, 2, "n"),)
    with pytest.raises(IllegalAction, match="no city-gate card"):
        s4 = s2.copy()
        s4.mods[ID] = CityGatesState(None, ((),) * 3)
        apply(s4, GateBuild(r, (0, 2), "n"))


def test_never_over_a_wooden_segment_of_the_city_walls() -> None:
    state = fresh(modules=("city_walls",))
    seat = state.current
    a = base_tile(state, 0)
    build_tiles(state, seat, {(1, 0): a})
    from alhambra.engine import set_walls

    set_walls(state, state.components.tile_ids[a], EAST)  # a wooden segment, not printed
    b = base_tile(state, WEST, (a,))
    take_tile(state, b)
    state.pending[-1] = PlaceTiles(seat, (b,), False, "bought")
    give_cards(state, seat, 1)
    assert not legal_actions(state, ID)


@pytest.mark.parametrize(("players", "modules", "seed"), [(2, (), 3), (3, ("city_walls", "magical_buildings", "master_builders"), 4)])
def test_random_games_with_city_gates(players: int, modules: tuple[str, ...], seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=seed, try_every_action=False)
    assert game.state.outcome == "finished"
    assert any(str(a) == "gate take" for a in game.record.actions)
    for s in range(players):
        assert not geo.validate_layout(game.state.players[s].city, game.state.walls, geo.ORIGIN)


def test_the_research_encoding_takes_every_gate_action() -> None:
    pytest.importorskip("numpy")
    from alhambra.testing import check_encoded_game

    listed = check_encoded_game(GameConfig(players=2, modules=(ID,)), 4, prefer=lambda a: a.module == ID)
    assert any(isinstance(a, TakeGate) for a in listed)


def test_bots_value_a_held_card_and_greedy_plays_with_gates() -> None:
    from alhambra.tournament import play_game

    state = fresh()
    assert MODULE.bot_values(state) == [0.0, 0.0, 0.0]
    give_cards(state, 1, 2)
    assert MODULE.bot_values(state) == [0.0, 2 * BOT_CARD_VALUE, 0.0]
    result = play_game(GameConfig(players=2, modules=(ID,), turn_limit=40), ["greedy", "greedy"], seed=3, game=0)
    assert result.fallbacks == 0


def test_a_magical_building_is_turned_and_built_through_a_gate_in_one_move() -> None:
    """Rulebook: the gate is no action of its own but part of placing a tile, and a magical
    building is turned "in any direction" whenever it is added: the magic pavilion (one wall),
    waiting, east of a tile with an east wall, stands only turned with its wall to the west and
    joined through a gate on that double wall: ``gate turn`` does both in one move."""
    state = fresh(modules=("magical_buildings",))
    seat = state.current
    a = base_tile(state, EAST)
    build_tiles(state, seat, {(1, 0): a})
    take_tile(state, "Xp9")
    state.pending[-1] = PlaceTiles(seat, ("Xp9",), state.neutral is not None, "bought")
    give_cards(state, seat, 1)
    legal = legal_actions(state)
    assert not [x for x in legal if getattr(x, "target", None) == (2, 0) and not isinstance(x, GateTurn)]  # no way but the gate
    gate = [x for x in legal if isinstance(x, GateTurn)]
    assert GateTurn("Xp9", (2, 0), "w", "w") in gate and all(x.walls == x.side == "w" or x.target != (2, 0) for x in gate)
    assert str(GateTurn("Xp9", (2, 0), "w", "w")) == "gate turn Xp9 2,0 w w"
    assert parse_action("gate turn Xp9 2,0 w w") == GateTurn("Xp9", (2, 0), "w", "w")
    with pytest.raises(IllegalPlacement, match="turned"):
        apply(state, GatePlace("Xp9", (2, 0), "w"))  # a magical building is never built as it lies
    after, events = apply(state, GateTurn("Xp9", (2, 0), "w", "w"))
    p = state.components.tile_ids["Xp9"]
    assert after.players[seat].city[geo.pos(2, 0)] == p and after.walls[p] == 0  # turned west, then opened by the gate
    assert after.mods[ID].gates == ((seat, 2, 0, "w"),) and not after.mods[ID].held[seat]
    opened = next(e for e in events if isinstance(e, CityGateOpened))
    assert opened.walls == "w" and "turned to show walls w" in opened.describe()
    assert not geo.validate_layout(after.players[seat].city, after.walls, geo.ORIGIN)
    check_conservation(after)
    data = state_to_json(after)
    assert state_to_json(state_from_json(json.loads(json.dumps(data)))) == data


def test_a_magical_building_from_the_reserve_through_a_gate_turned_and_never_a_plain_gate() -> None:
    state = fresh(modules=("magical_buildings",))
    seat = state.current
    a = base_tile(state, SOUTH)
    build_tiles(state, seat, {(0, 1): a})
    state.players[seat].reserve.append(take_tile(state, "Xs10"))
    give_cards(state, seat, 1)
    mine = [x for x in legal_actions(state, ID)]
    assert GateTurn("Xs10", (0, 2), "n", "n") in mine and not [x for x in mine if isinstance(x, GateBuild)]
    after, _ = apply(state, GateTurn("Xs10", (0, 2), "n", "n"))
    assert after.players[seat].city[geo.pos(0, 2)] == state.components.tile_ids["Xs10"]
    assert not isinstance(after.pending[-1], ChooseAction) or after.pending[-1].seat != seat  # a redesign ends the actions
