"""The art of the moors with the modules its rules name: a building bought with the vizier out of
turn earns its counter at once; a building site counts only once completed; squares, medinas and
other module tiles never count ('Only the buildings from the base game count')."""

from __future__ import annotations

from alhambra.modules.art_of_the_moors import CultureCounterTaken, buildings, counters_of
from alhambra.modules.building_sites.tests.helpers import give_site
from alhambra.modules.squares.tests.helpers import put_square
from alhambra.state import BetweenTurns, PlaceTiles
from alhambra.testing import set_hand, set_market, take_first

from .helpers import act, fresh, give, legal


def test_a_vizier_purchase_earns_its_counter_at_once() -> None:
    """p. 27: 'For buildings acquired outside a player's regular turn [Vizier and Sultan] culture
    counters should be taken immediately'."""
    state = fresh(modules=("vizier",))
    state, _ = take_first(state)
    top = state.pending[-1]
    assert isinstance(top, BetweenTurns)
    seat = top.seat
    give(state, seat, "A8n")
    set_market(state, 1, "G8ne")
    set_hand(state, seat, ["b8"])
    assert "vizier buy 1 b8" in legal(state)
    state, _ = act(state, "vizier buy 1 b8")
    assert isinstance(state.pending[-1], PlaceTiles) and counters_of(state, seat) == {}
    state, events = act(state, "place G8ne reserve")
    got = [e for e in events if isinstance(e, CultureCounterTaken)]
    assert [(e.seat, e.price) for e in got] == [(seat, "8")]
    assert counters_of(state, seat) == {"8": (0, 1)}


def test_a_building_site_counts_only_once_completed() -> None:
    """p. 30: 'For Art of the Moors, only completed buildings are scored, not building sites'."""
    state = fresh(modules=("building_sites",))
    seat = state.current
    give_site(state, seat, "A8n", "b", x=1, y=0)
    give(state, seat, "G8ne")
    assert buildings(state, seat)[2] == 1 and counters_of(state, seat) == {}


def test_squares_count_for_no_price() -> None:
    state = fresh(modules=("squares",))
    seat = state.current
    put_square(state, seat, "Qg2", (-1, 0))
    put_square(state, seat, "Qt1", "reserve")
    give(state, seat, "G8ne")
    assert sum(buildings(state, seat)) == 1 and counters_of(state, seat) == {}
