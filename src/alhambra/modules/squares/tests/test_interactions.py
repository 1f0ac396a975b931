"""The squares with the modules whose rules name them: the vizier never takes a square; citizens
and treasure chests never go onto squares; bazaars score nothing for squares; a building site
not yet complete is no neighbour a square counts; squares give falcons no colour; a master
builder redesigns squares like buildings."""

from __future__ import annotations

from alhambra import city as geo
from alhambra.engine import building_counts
from alhambra.modules.bazaars.module import by_tile, score_bazaar
from alhambra.modules.bazaars.tests.helpers import take_tile as take_bazaar
from alhambra.modules.building_sites.tests.helpers import give_site
from alhambra.modules.squares import bonuses
from alhambra.modules.treasure_chamber.module import free_buildings
from alhambra.state import BetweenTurns
from alhambra.testing import build_tiles as build

from .helpers import fresh, legal, put_square


def test_the_vizier_never_takes_a_square() -> None:
    """Rulebook p. 8: 'Using the vizier does not allow a player to take a square'."""
    state = fresh(modules=("vizier",))
    seen_window = False
    from alhambra.testing import take_first

    for _ in range(6):
        state, _ = take_first(state) if not isinstance(state.pending[-1], BetweenTurns) else (state, [])
        if isinstance(state.pending[-1], BetweenTurns):
            seen_window = True
            assert not any(a.startswith("square") for a in legal(state))
            from alhambra import apply, parse_action

            state, _ = apply(state, parse_action("pass"), state.to_act)
    assert seen_window


def test_treasure_chests_never_go_onto_squares() -> None:
    """Rulebook p. 20: 'Chests may not be placed on squares'."""
    state = fresh(modules=("treasure_chamber",))
    seat = state.current
    build(state, seat, {(1, 0): "A9"})
    put_square(state, seat, "Qa3", (2, 0))
    free = free_buildings(state, seat)
    assert free["arcades"] == ["A9"]
    assert all(not c.startswith("Q") for codes in free.values() for c in codes)


def test_citizens_never_move_into_squares() -> None:
    """Rulebook p. 19: 'Citizens may not be placed on squares'."""
    from alhambra.modules.street_traders.module import _base_kind

    state = fresh(modules=("street_traders",))
    seat = state.current
    build(state, seat, {(1, 0): "A9"})
    put_square(state, seat, "Qa3", (2, 0))
    assert _base_kind(state, "A9") == "arcades"
    assert _base_kind(state, "Qa3") is None


def test_bazaars_score_nothing_for_squares() -> None:
    """Rulebook p. 23: 'Points are never awarded for neighbouring bazaars and squares'."""
    state = fresh(modules=("bazaars",))
    seat = state.current
    comp = state.components
    city = state.players[seat].city
    city[geo.pos(1, 0)] = take_bazaar(state, "Zg1")  # red, brown, green
    put_square(state, seat, "Qa3", (2, 0))  # a brown square east of it
    put_square(state, seat, "Qs1", (1, 1))  # a red square south of it
    b = by_tile(comp)[comp.tile_ids["Zg1"]]
    assert b is not None
    assert score_bazaar(comp, city, geo.pos(1, 0), b).matching == 0
    build(state, seat, {(1, -1): "A9"})
    assert score_bazaar(comp, city, geo.pos(1, 0), b).matching == 1


def test_a_building_site_is_no_neighbour_until_it_is_complete() -> None:
    """Building sites (p. 30): a site counts as no building until it is completed."""
    state = fresh(modules=("building_sites",))
    seat = state.current
    give_site(state, seat, "A9", "b", x=1, y=0)
    put_square(state, seat, "Qa3", (2, 0))  # wall north; joins the site on its west side
    assert bonuses(state, seat) == {}
    assert building_counts(state, seat)["arcades"] == 0


def test_squares_give_falcons_no_colour() -> None:
    from alhambra.modules.falconers import corner_kinds, corner_tiles

    state = fresh(modules=("falconers",))
    seat = state.current
    build(state, seat, {(1, 0): "G11", (1, 1): "A9"})
    put_square(state, seat, "Qt3", (0, 1))  # a tower square: no tower colour at the intersection
    tiles = corner_tiles(state.players[seat].city, 0, 0)
    assert tiles is not None
    assert corner_kinds(state, seat, tiles) == {"garden", "arcades"}


def test_a_master_builder_may_redesign_a_square() -> None:
    state = fresh(modules=("master_builders",))
    seat = state.current
    put_square(state, seat, "Qg2", (-1, 0))
    assert "redesign remove Qg2" in legal(state)
