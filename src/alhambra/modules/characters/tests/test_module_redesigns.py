"""The Master Builder's extra redesign is "an additional redesigning action" (rulebook p.14): any
redesign the loaded modules allow. Besides the core's three forms (``character build/remove/
exchange``), ``character redesign`` uses the Master Builder for another module's own redesign,
which follows at once (a magical building from the reserve board built turned any way, a tile
built through a city gate), as a master-builder card's ``builder use`` does."""

from __future__ import annotations

import pytest

from alhambra import apply, city as geo, legal_actions, parse_action
from alhambra.components import EAST
from alhambra.errors import IllegalAction, WrongPhase
from alhambra.events import AlhambraRedesigned, TurnEnded
from alhambra.modules.characters.actions import MasonUse
from alhambra.modules.characters.components import MASTER_BUILDER
from alhambra.modules.characters.events import CharacterUsed
from alhambra.modules.characters.state import MasonRedesign, MasterBuilderChoice
from alhambra.modules.city_gates import CityGatesState, GateBuild, GateTurn
from alhambra.modules.magical_buildings import MagicalBuildingTurned, MagicBuild, MagicExchange
from alhambra.state import GameState
from alhambra.testing import build_tiles, check_conservation, take_first, take_tile

from .helpers import chars, fresh, give

WEST = 8


def turn_done(modules: tuple[str, ...], reserve: tuple[str, ...]) -> tuple[GameState, int]:
    """The current seat owns the Master Builder and has ``reserve`` on its reserve board; it takes
    a money card, which ends its turn: the Master Builder's question waits."""
    state = fresh(3, modules=modules)
    seat = state.current
    give(state, seat, MASTER_BUILDER)
    for code in reserve:
        state.players[seat].reserve.append(take_tile(state, code))
    state, _ = take_first(state)
    return state, seat


def test_a_magical_building_from_the_reserve_built_turned_by_the_master_builder() -> None:
    state, seat = turn_done(("magical_buildings",), ("Xp9",))
    assert state.pending[-1] == MasterBuilderChoice(seat)  # only a module's redesign is possible: still asked
    assert legal_actions(state) == [MasonUse(), parse_action("character skip")]
    state, events = apply(state, parse_action("character redesign"), seat)
    assert events == [CharacterUsed(seat, MASTER_BUILDER, "an extra redesign by another module's own redesign")]
    assert state.pending[-1] == MasonRedesign(seat) and MASTER_BUILDER in chars(state).used
    offered = legal_actions(state)
    builds = {(a.target, a.walls) for a in offered if isinstance(a, MagicBuild) and a.tile == "Xp9"}
    assert ((1, 0), "n") in builds and ((1, 0), "e") in builds
    assert offered and all(isinstance(a, MagicBuild | MagicExchange) for a in offered)  # no skip: it was used for one
    with pytest.raises(WrongPhase):
        apply(state, MasonUse(), seat)
    state, events = apply(state, MagicBuild("Xp9", (1, 0), "e"), seat)
    assert isinstance(events[0], MagicalBuildingTurned) and events[1] == AlhambraRedesigned(seat, "build", "Xp9", 1, 0)
    assert any(isinstance(e, TurnEnded) for e in events) and state.current != seat  # the flow went on
    assert not any(isinstance(p, MasterBuilderChoice | MasonRedesign) for p in state.pending)
    p = state.players[seat]
    t = state.components.tile_ids["Xp9"]
    assert p.city[geo.pos(1, 0)] == t and state.walls[t] == EAST and t not in p.reserve
    check_conservation(state)


def test_character_redesign_needs_a_module_redesign() -> None:
    state, seat = turn_done(("magical_buildings",), ("P4es",))
    assert state.pending[-1] == MasterBuilderChoice(seat)
    acts = legal_actions(state)
    assert MasonUse() not in acts and parse_action("character build P4es 1,0") in acts  # core forms only
    with pytest.raises(IllegalAction, match="no module offers"):
        apply(state, MasonUse(), seat)
    assert str(MasonUse()) == "character redesign" and parse_action("character redesign") == MasonUse()


def test_no_question_without_any_redesign() -> None:
    state, seat = turn_done(("magical_buildings",), ())
    assert not any(isinstance(p, MasterBuilderChoice) for p in state.pending)
    assert state.current != seat


def test_a_magical_building_turned_through_a_city_gate_by_the_master_builder() -> None:
    state = fresh(3, modules=("city_gates", "magical_buildings"))
    seat = state.current
    give(state, seat, MASTER_BUILDER)
    state.players[seat].reserve.append(take_tile(state, "Xs10"))
    east = next(state.tile_code(t) for t in state.bag if state.components.tiles[t].module is None and state.walls[t] == EAST)
    build_tiles(state, seat, {(1, 0): east})
    west = next(state.tile_code(t) for t in state.bag if state.components.tiles[t].module is None and state.walls[t] == WEST)
    state.players[seat].reserve.append(take_tile(state, west))
    sl = state.mods["city_gates"]
    held = list(sl.held)
    gate = next(i for i, c in enumerate(state.components.cards) if c.module == "city_gates" and i in state.deck)
    state.deck.remove(gate)
    held[seat] = (state.card_code(gate),)
    state.mods["city_gates"] = CityGatesState(sl.open, tuple(held), sl.used, sl.gates)
    state, _ = take_first(state)
    assert state.pending[-1] == MasterBuilderChoice(seat) and MasonUse() in legal_actions(state)
    state, _ = apply(state, MasonUse(), seat)
    offered = legal_actions(state)
    assert GateBuild(west, (2, 0), "w") in offered and GateTurn("Xs10", (2, 0), "w", "w") in offered
    state, events = apply(state, GateTurn("Xs10", (2, 0), "w", "w"), seat)
    assert state.players[seat].city[geo.pos(2, 0)] == state.components.tile_ids["Xs10"]
    assert state.mods["city_gates"].gates == ((seat, 2, 0, "w"),)
    assert any(isinstance(e, TurnEnded) for e in events)
    check_conservation(state)


def test_the_research_encoding_takes_character_redesign_and_the_redesign_after_it() -> None:
    """``character redesign`` is one keyword token; every action offered at the question and
    under the owed redesign encodes to tokens of its own and decodes back."""
    pytest.importorskip("numpy")
    from alhambra.research.encoding import codec_for

    state, seat = turn_done(("magical_buildings",), ("Xp9", "P4es"))
    codec = codec_for(state.config)
    assert codec.encode(MasonUse()) == (codec.token("keyword", "character redesign"),)
    seen: set[tuple[int, ...]] = set()
    for step in range(2):
        acts = legal_actions(state)
        assert (MasonUse() in acts) == (step == 0) and len(acts) > 2
        for a in acts:
            tokens = codec.encode(a)
            assert tokens not in seen and codec.decode(tokens) == a
            seen.add(tokens)
        state, _ = apply(state, MasonUse() if step == 0 else next(a for a in acts if isinstance(a, MagicBuild)), seat)
