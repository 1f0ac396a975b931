"""The extra redesign of a master-builder card offers every redesign the loaded modules allow:
besides the core's three forms (``builder build/remove/exchange CARD ...``), ``builder use CARD``
gives up the card for another module's own redesign, which follows at once (a magical building
from the reserve board built turned any way, a tile built through a city gate, both in one move)."""

from __future__ import annotations

import pytest

from alhambra import apply, city as geo, legal_actions, parse_action
from alhambra.actions import BuyBuilding, PlaceBuilding
from alhambra.components import EAST
from alhambra.errors import IllegalAction
from alhambra.events import AlhambraRedesigned, TurnEnded
from alhambra.modules.city_gates import CityGatesState, GateBuild, GateTurn
from alhambra.modules.magical_buildings import MagicalBuildingTurned, MagicBuild, MagicExchange
from alhambra.modules.master_builders import MasterBuildersChoice, MasterBuildersUsed
from alhambra.modules.master_builders.module import MasterBuildersRedesign, MasterBuildersUse
from alhambra.state import GameState
from alhambra.testing import check_conservation, set_market, take_tile

from .situations import MB, arrange, build, clear_hands, fresh, slice_of


def turn_done(modules: tuple[str, ...], reserve: tuple[str, ...] = ()) -> tuple[GameState, int]:
    """The current seat holds a master-builder card (my3), has ``reserve`` on its reserve board,
    buys P4es with b9 (overpaid) and puts it on the reserve board:
    its turn's actions and placements are done and the master-builder question waits."""
    state = fresh(modules=(MB, *modules))
    seat = state.current
    clear_hands(state)
    arrange(state, seat, ["b9", "my3"])
    for code in reserve:
        state.players[seat].reserve.append(take_tile(state, code))
    set_market(state, 1, "P4es")
    state, _ = apply(state, BuyBuilding(1, ("b9",)), seat)
    state, _ = apply(state, PlaceBuilding("P4es", "reserve"), seat)
    return state, seat


def test_a_magical_building_from_the_reserve_built_turned_in_the_extra_redesign() -> None:
    state, seat = turn_done(("magical_buildings",), reserve=("Xp9",))
    assert state.pending == [MasterBuildersChoice(seat)]
    acts = legal_actions(state)
    assert MasterBuildersUse("my3") in acts  # the magical building's redesigns are only reachable this way
    assert not [a for a in acts if "Xp9" in str(a)]  # never a core redesign of a magical building
    state, events = apply(state, parse_action("builder use my3"), seat)
    assert events[0] == MasterBuildersUsed(seat, ("my3",))
    assert state.pending == [MasterBuildersRedesign(seat)]
    offered = legal_actions(state)
    builds = {(a.target, a.walls) for a in offered if isinstance(a, MagicBuild) and a.tile == "Xp9"}
    assert ((1, 0), "n") in builds and ((1, 0), "e") in builds  # east of the fountain, turned two ways at least
    assert all(isinstance(a, MagicBuild | MagicExchange) for a in offered)  # only the module's redesigns now
    state, events = apply(state, MagicBuild("Xp9", (1, 0), "e"), seat)
    assert isinstance(events[0], MagicalBuildingTurned) and events[1] == AlhambraRedesigned(seat, "build", "Xp9", 1, 0)
    assert any(isinstance(e, TurnEnded) for e in events)  # the flow went on: the turn is over
    p = state.players[seat]
    t = state.components.tile_ids["Xp9"]
    assert p.city[geo.pos(1, 0)] == t and state.walls[t] == EAST and t not in p.reserve
    assert state.card_code(slice_of(state).removed[-1]) == "my3" and not p.hand
    check_conservation(state)


def test_builder_use_needs_a_module_redesign_and_only_in_the_question() -> None:
    state, seat = turn_done(("magical_buildings",))
    assert MasterBuildersUse("my3") not in legal_actions(state)  # only P4es on the reserve board: core forms
    with pytest.raises(IllegalAction, match="no module offers"):
        apply(state, MasterBuildersUse("my3"), seat)
    assert str(MasterBuildersUse("my3")) == "builder use my3" and parse_action("builder use MY3") == MasterBuildersUse("my3")


def test_a_tile_through_a_city_gate_and_a_magical_building_turned_through_one_in_the_extra_redesign() -> None:
    modules = ("city_gates", "magical_buildings")
    state, seat = turn_done(modules, reserve=("Xs10",))
    east = next(state.tile_code(t) for t in state.bag if state.components.tiles[t].module is None and state.walls[t] == EAST)
    build(state, seat, east, 1, 0)
    west = next(state.tile_code(t) for t in state.bag if state.components.tiles[t].module is None and state.walls[t] == 8)
    state.players[seat].reserve.append(take_tile(state, west))
    sl = state.mods["city_gates"]
    held = list(sl.held)
    gate = next(i for i, c in enumerate(state.components.cards) if c.module == "city_gates")
    state.deck.remove(gate)
    held[seat] = (state.card_code(gate),)
    state.mods["city_gates"] = CityGatesState(sl.open, tuple(held), sl.used, sl.gates)
    state, _ = apply(state, MasterBuildersUse("my3"), seat)
    offered = legal_actions(state)
    assert GateBuild(west, (2, 0), "w") in offered and GateTurn("Xs10", (2, 0), "w", "w") in offered
    state, events = apply(state, GateTurn("Xs10", (2, 0), "w", "w"), seat)
    assert state.players[seat].city[geo.pos(2, 0)] == state.components.tile_ids["Xs10"]
    assert state.mods["city_gates"].gates == ((seat, 2, 0, "w"),)
    assert any(isinstance(e, TurnEnded) for e in events)
    check_conservation(state)


def test_the_research_encoding_takes_builder_use_and_the_modules_redesigns() -> None:
    """A whole random game with master builders, magical buildings and city gates, preferring
    their actions: every legal action (``builder use``, ``gate turn``, ``magic build`` under the
    extra redesign...) encodes to tokens of its own and back; ``builder use`` came up."""
    pytest.importorskip("numpy")
    from alhambra import GameConfig
    from alhambra.testing import check_encoded_game

    config = GameConfig(players=2, modules=(MB, "city_gates", "magical_buildings"))
    listed = check_encoded_game(config, 5, prefer=lambda a: a.module is not None and a.keyword != "builder skip")
    assert any(isinstance(a, MasterBuildersUse) for a in listed)


def test_a_camp_from_the_reserve_in_the_extra_redesign() -> None:
    """Camps' redesigns are module redesigns too: a camp on the reserve board, a building with an
    outer wall to put its bastion against; ``builder use`` then ``camp build``."""
    from alhambra.modules.camps.module import BuildCamp, CampPlaced

    state, seat = turn_done(("camps",), reserve=("L3n",))
    walled = next(state.tile_code(t) for t in state.bag if state.components.tiles[t].module is None and state.walls[t] == 4)
    build(state, seat, walled, 0, 1)  # south of the fountain, a wall to the south
    assert MasterBuildersUse("my3") in legal_actions(state)
    state, _ = apply(state, MasterBuildersUse("my3"), seat)
    offered = legal_actions(state)
    assert offered and all(isinstance(a, BuildCamp) for a in offered)
    state, events = apply(state, offered[0], seat)
    assert any(isinstance(e, CampPlaced) and e.redesign for e in events) and any(isinstance(e, TurnEnded) for e in events)
    check_conservation(state)
