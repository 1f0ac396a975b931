"""The art of the moors' rules: the counters and their faces, taking a counter and marking the
buildings at the end of the turn, the development of culture, the scoring, the notes (base
buildings only, one counter per price, 12 and 13 one price, the neutral player gets none)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from alhambra import legal_actions, parse_action, view
from alhambra.actions import Action
from alhambra.components import BASE_TILE_CODES, parse_tile_code
from alhambra.engine import _score_round
from alhambra.errors import IllegalAction, NotationError, WrongPhase
from alhambra.events import Event, RoundScored
from alhambra.modules.art_of_the_moors import (
    MODULE,
    PRICES,
    CultureCounterTaken,
    CultureDeveloped,
    CultureMarkerMoved,
    DevelopCulture,
    MoorsState,
    buildings,
    counters_of,
    faces,
    group_of,
    moors,
    points_now,
)
from alhambra.serialize import state_from_json, state_to_json
from alhambra.state import ChooseAction, PlaceTiles
from alhambra.testing import set_hand, set_market, take_first

from .helpers import ID, act, fresh, give, legal


def taken(events: list[Event]) -> list[CultureCounterTaken]:
    return [e for e in events if isinstance(e, CultureCounterTaken)]


# ---------------------------------------------------------------------------------- components
def test_twenty_counters_for_seven_prices() -> None:
    types = faces()
    assert [t.price for t in types] == ["6", "7", "8", "9", "10", "11", "12"]
    assert sum(t.count for t in types) == 20
    assert types[-1].label == "12/13"
    assert MODULE.component_assumptions


def test_every_counter_tops_at_21_points_or_less_and_its_needs_fit_the_buildings_of_its_price() -> None:
    per_price = Counter(group_of(parse_tile_code(c).price) for c in BASE_TILE_CODES)
    assert [per_price[i] for i in range(7)] == [6, 7, 9, 8, 6, 5, 3]  # 44 buildings of 6 or more (the overview card)
    for i, t in enumerate(faces()):
        assert t.points[0] == 0 and max(t.points) <= 21
        assert max(t.needs) <= per_price[i], t.price
    assert faces()[3].points == (0, 3, 6, 10, 15, 21)  # price 9: the scoring app's table


def test_the_marker_goes_on_the_highest_corner_of_equal_needs() -> None:
    """'If there are more than one with the same number of squares, the marker is placed on the
    one with the highest number above them'; 'only marked up to the highest value indicated'."""
    six, eight = faces()[0], faces()[2]
    assert [six.marker_for(n) for n in (1, 2, 3, 4, 5, 6)] == [0, 2, 3, 4, 5, 5]
    assert [eight.marker_for(n) for n in (2, 3, 4, 5, 6, 9)] == [1, 2, 3, 4, 5, 5]


def test_setup_every_counter_in_the_supply() -> None:
    state = fresh()
    sl = moors(state)
    assert sl.supply == (3, 3, 3, 3, 3, 3, 2)
    assert all(c is None for row in sl.seats for c in row)
    assert "culture develop" not in legal(state)


# ---------------------------------------------------------------------------------- taking and marking
def test_two_buildings_of_a_price_earn_its_counter_at_the_end_of_the_turn() -> None:
    """One price-8 building on the reserve board, a second bought: the counter comes once the
    bought tile is placed (the end of the turn), its marker on corner 1 (needs 2, 2 points)."""
    state = fresh(market=("G8ne",))
    seat = state.current
    assert not give(state, seat, "A8n")  # one alone earns nothing
    set_hand(state, seat, ["b3", "b5"])
    state, events = act(state, "buy 1 b3+b5")
    assert not taken(events)
    top = state.pending[-1]
    assert isinstance(top, ChooseAction) and top.bought == ("G8ne",)  # exact: another action; not placed yet
    assert counters_of(state, seat) == {}
    state, events = take_first(state)  # the second action: money; the bought tile waits to be placed
    assert not taken(events) and isinstance(state.pending[-1], PlaceTiles)
    state, events = act(state, "place G8ne reserve")
    got = taken(events)
    assert [(e.seat, e.price, e.buildings, e.marker, e.points) for e in got] == [(seat, "8", 2, 1, 2)]
    assert counters_of(state, seat) == {"8": (0, 1)}
    assert moors(state).supply[2] == 2
    assert "player" in got[0].describe() and "costing 8" in got[0].describe()


def test_markers_follow_more_buildings_and_several_prices_at_once() -> None:
    state = fresh()
    seat = state.current
    give(state, seat, "A8n")
    events = give(state, seat, "G8ne")
    assert counters_of(state, seat) == {"8": (0, 1)} and len(taken(events)) == 1
    events = give(state, seat, "C8nw", (0, -1))
    moved = [e for e in events if isinstance(e, CultureMarkerMoved)]
    assert [(e.price, e.buildings, e.marker, e.points) for e in moved] == [("8", 3, 2, 5)]
    assert counters_of(state, seat) == {"8": (0, 2)}
    # two prices become due by one placement each; one counter of each price only
    give(state, seat, "T9es")
    give(state, seat, "C9w")
    give(state, seat, "S9")
    assert counters_of(state, seat) == {"8": (0, 2), "9": (0, 2)}
    assert sum(1 for c in moors(state).seats[seat] if c is not None) == 2


def test_prices_12_and_13_are_one_price() -> None:
    state = fresh()
    seat = state.current
    give(state, seat, "T12")
    events = give(state, seat, "T13e")
    assert [(e.price, e.buildings, e.marker) for e in taken(events)] == [("12", 2, 2)]


def test_cheaper_buildings_and_module_tiles_count_for_nothing() -> None:
    state = fresh(modules=("medina",))
    seat = state.current
    for code in ("P5nw", "S5sw", "A5nw"):
        give(state, seat, code)
    assert counters_of(state, seat) == {}
    give(state, seat, "G8ne")
    events = give(state, seat, "M8s")  # a medina costing 8: not a building of the base game
    assert not taken(events) and buildings(state, seat)[PRICES.index("8")] == 1


def test_the_supply_runs_out_and_the_seat_whose_turn_it_is_comes_first() -> None:
    state = fresh(players=4)
    first = state.current
    order = [(first + k) % 4 for k in range(4)]
    pairs = [("A8n", "G8ne"), ("C8nw", "S8s"), ("P8", "A8e"), ("G8sw", "T8nes")]
    for seat, (a, _) in zip(reversed(order), pairs, strict=True):  # one each, nobody due yet
        give(state, seat, a)
    from alhambra.testing import take_tile

    for seat, (_, b) in zip(reversed(order), pairs, strict=True):  # then all at once
        state.players[seat].reserve.append(take_tile(state, b))
    events: list[Event] = []
    MODULE.after_action(state, events)
    assert [e.seat for e in taken(events)] == order[:3]  # three counters of 8, in turn order from the current seat
    assert counters_of(state, order[3]) == {} and moors(state).supply[2] == 0


# ---------------------------------------------------------------------------------- development
def test_development_turns_every_counter_up_to_its_marker() -> None:
    state = fresh()
    seat = state.current
    give(state, seat, "A8n")
    give(state, seat, "G8ne")  # 8: marker 1
    give(state, seat, "T9es")
    give(state, seat, "C9w")
    give(state, seat, "S9")  # 9: marker 2 (3 buildings)
    assert counters_of(state, seat) == {"8": (0, 1), "9": (0, 2)}
    assert "culture develop" in legal(state)
    state, events = act(state, "culture develop")
    dev = [e for e in events if isinstance(e, CultureDeveloped)]
    assert [(e.seat, e.prices, e.points) for e in dev] == [(seat, ("8", "9"), 2 + 3)]
    assert counters_of(state, seat) == {"8": (1, 1), "9": (1, 2)}
    assert state.pending[-1].seat != seat or not isinstance(state.pending[-1], ChooseAction)  # the turn's actions are over
    assert points_now(state, seat) == 5
    # next time only the 9 turns; the 8 points its marker to the gem and stays
    state.pending[-1] = ChooseAction(seat)
    state, events = act(state, "culture develop")
    assert counters_of(state, seat) == {"8": (1, 1), "9": (2, 2)}
    assert next(e for e in events if isinstance(e, CultureDeveloped)).prices == ("9",)
    state.pending[-1] = ChooseAction(seat)
    assert "culture develop" not in legal(state)
    with pytest.raises(IllegalAction, match="already points its marker to the gem"):
        act(state, "culture develop")


def test_development_is_a_whole_action_that_may_follow_an_exact_payment() -> None:
    state = fresh(market=("S4ne",))
    seat = state.current
    give(state, seat, "A8n")
    give(state, seat, "G8ne")
    set_hand(state, seat, ["b4"])
    state, _ = act(state, "buy 1 b4")
    assert "culture develop" in legal(state)
    state, _ = act(state, "culture develop")
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles) and top.tiles == ("S4ne",)


def test_no_counter_no_development_and_only_on_your_turn() -> None:
    state = fresh()
    with pytest.raises(IllegalAction, match="no culture counter"):
        act(state, "culture develop")
    seat = state.current
    give(state, seat, "A8n")
    give(state, seat, "G8ne")
    with pytest.raises(IllegalAction):
        act(state, "culture develop", seat=(seat + 1) % 3)
    state, _ = act(state, "culture develop")
    if not isinstance(state.pending[-1], ChooseAction):
        with pytest.raises(WrongPhase):
            MODULE.check(state, DevelopCulture())


# ---------------------------------------------------------------------------------- scoring
def test_every_round_pays_the_corners_at_the_gem() -> None:
    state = fresh()
    seat = state.current
    give(state, seat, "A8n")
    give(state, seat, "G8ne")
    give(state, seat, "C8nw", (0, -1))  # 8: marker 2 (5 points)
    events: list[Event] = []
    _score_round(state, 1, events)
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.extra[ID][seat] == 0  # the gem still on corner 0
    sl = moors(state)
    rows = list(sl.seats)
    row = list(rows[seat])
    row[2] = (2, 2)
    rows[seat] = tuple(row)
    state.mods[ID] = MoorsState(sl.supply, tuple(rows))
    events = []
    _score_round(state, 2, events)
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.extra[ID] == tuple(5 if s == seat else 0 for s in range(3))


def test_the_neutral_player_gets_no_counters() -> None:
    state = fresh(players=2)
    assert state.neutral is not None
    from alhambra.testing import take_tile

    state.neutral.append(take_tile(state, "A8n"))
    state.neutral.append(take_tile(state, "G8ne"))
    events: list[Event] = []
    MODULE.after_action(state, events)
    assert not events and sum(moors(state).supply) == 20
    assert len(MODULE.round_points(state, 1) or []) == 2  # no entry for the neutral player


# ---------------------------------------------------------------------------------- notation, views, JSON
def test_notation_and_events_round_trip() -> None:
    a = DevelopCulture()
    assert str(a) == "culture develop" and parse_action("culture develop") == a and Action.from_dict(a.to_dict()) == a
    with pytest.raises(NotationError):
        parse_action("culture develop 8")
    for e in (CultureCounterTaken(0, "12", 2, 2, 8), CultureMarkerMoved(1, "8", 3, 2, 5), CultureDeveloped(2, ("8", "12"), 9)):
        assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
        assert e.describe() and not any(w.startswith("Q") for w in e.describe().split())
    assert "12/13" in CultureDeveloped(2, ("8", "12"), 9).describe()


def test_view_is_public_and_rebuilds_the_slice() -> None:
    state = fresh()
    seat = state.current
    give(state, seat, "A8n")
    give(state, seat, "G8ne")
    v = view(state, 0)["module_views"][ID]
    assert v == view(state, 1)["module_views"][ID] == view(state, None)["module_views"][ID]
    assert v["seats"][seat]["counters"] == [{"price": "8", "gem": 0, "marker": 1, "points": 0, "marked": 2}]
    assert v["seats"][seat]["buildings"]["8"] == 2 and v["supply"]["8"] == 2
    assert MODULE.slice_from_view(v, state.config) == moors(state)


def test_json_round_trip_and_bad_slices() -> None:
    state = fresh()
    seat = state.current
    give(state, seat, "A8n")
    give(state, seat, "G8ne")
    back = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert moors(back) == moors(state) and legal_actions(back) == legal_actions(state)
    good = moors(state).to_dict()
    bads: list[dict[str, Any]] = [
        {**good, "supply": {**good["supply"], "8": 3}},  # 4 counters of 8
        {**good, "seats": [{"8": [2, 1]}, {}, {}]},  # the gem past the marker
        {**good, "seats": [{"5": [0, 1]}, {}, {}]},
        {"supply": {}},
    ]
    for bad in bads:
        with pytest.raises(NotationError):
            MoorsState.from_dict(bad)


def test_market_tiles_are_unchanged() -> None:
    state = fresh(market=("G8ne",))
    set_market(state, 2, "A8n")
    assert not any(a.startswith("culture") for a in legal(state))
