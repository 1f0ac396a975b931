"""Medina with the modules whose rules touch it: a medina is no building kind (no sultan claim,
no treasure chest, no citizen, no bazaar neighbour, no bonus card; it may become a building site), the vizier
may buy one, an overpaid medina gives change."""

from __future__ import annotations

import pytest

from alhambra import apply, legal_actions, parse_action
from alhambra.actions import PlaceBuilding
from alhambra.errors import IllegalAction
from alhambra.events import BuildingPlaced
from alhambra.modules.bazaars import seat_points
from alhambra.modules.bonus_cards.module import CARD_TILES
from alhambra.modules.building_sites import SiteChoice
from alhambra.modules.building_sites.tests.helpers import give_site
from alhambra.modules.change import ChangeGiven
from alhambra.modules.medina import built
from alhambra.modules.power_of_the_sultan import SultanTileOffered, sultan_slice
from alhambra.modules.power_of_the_sultan.tests import helpers as sultan
from alhambra.modules.street_traders import StreetTraderArrival, TraderExchange, TraderMove, TraderSkip, traders
from alhambra.modules.street_traders.tests import support as street
from alhambra.modules.treasure_chamber import ChestsPlaced, chamber, free_buildings
from alhambra.modules.treasure_chamber.tests import helpers as chest
from alhambra.modules.vizier import VizierBuy, VizierUsed
from alhambra.state import BetweenTurns, ChooseAction, PlaceTiles
from alhambra.testing import build_tiles as build, check_conservation, set_hand, take_first

from .helpers import ID, MEDINAS, fresh


def test_a_drawn_medina_is_never_claimed_with_a_sultan_card() -> None:
    state = sultan.fresh(players=3, modules=(ID,))
    _s, s1, s2 = sultan.seats(state)
    sultan.give_card(state, s1, "sug1", "arcades")
    sultan.give_card(state, s2, "suo1", "garden")
    sultan.bag_top(state, "M7w")
    state, events = sultan.buy_square_1_and_place(state)
    assert not any(isinstance(e, SultanTileOffered) for e in events)
    assert state.tile_code(state.market[0]) == "M7w"  # straight onto the market
    assert sultan_slice(state).held is None and state.pending == [ChooseAction(s1)]
    check_conservation(state)


def test_no_treasure_chest_goes_into_a_medina() -> None:
    state = chest.fresh(3, modules=(ID,), rooms=(["garden", "tower", "tower", "pavilion"], [], []))
    s = state.current
    chest.build(state, s, "M10", (1, 0))
    chest.build(state, s, "P8", (-1, 0))
    assert free_buildings(state, s)["pavilion"] == ["P8"]
    assert not any(code in MEDINAS for codes in free_buildings(state, s).values() for code in codes)
    state = chest.with_hand(state, s, ["b9"])
    room = next(a for a in legal_actions(state) if str(a) == "buy room1 b9")
    state, events = apply(state, room, s)
    placed = [e for e in events if isinstance(e, ChestsPlaced)]
    assert placed[0] == ChestsPlaced(s, ("P8",), ("pavilion",))
    assert chamber(state).homes[s] == ("P8",)
    chest.check_chests(state)


def test_no_treasure_chest_goes_into_the_neutral_players_medina() -> None:
    state = chest.fresh(2, modules=(ID,), rooms=(["garden", "tower", "tower", "pavilion"], [], []))
    chest.give_neutral(state, ["M9n", "M2sw", "G11"])
    assert free_buildings(state, -1)["garden"] == ["G11"]
    assert sum(len(v) for v in free_buildings(state, -1).values()) == 1


def test_a_medina_on_the_traders_place_takes_no_citizen_but_one_may_be_exchanged() -> None:
    state = street.started(3, 1, modules=(street.ID, ID))
    seat = state.current
    state, events = street.buy_and_place(state, "M3es", (1, 0))  # walls east and south: joins the fountain
    assert BuildingPlaced(seat, "M3es", (1, 0)) in events
    assert state.pending[-1] == StreetTraderArrival(seat, "M3es")
    acts = legal_actions(state)
    assert acts[-1] == TraderSkip() and not any(isinstance(a, TraderMove) for a in acts)
    assert TraderExchange("pavilion", "garden") in acts
    with pytest.raises(IllegalAction, match="only finished buildings of the six kinds take citizens"):
        apply(state, TraderMove("pavilion"), seat)
    state, _ = apply(state, TraderSkip(), seat)
    assert traders(state).seats[seat].homes == ()
    street.check_citizens(state)
    assert built(state, seat) == [3]


def test_a_medina_is_no_neighbour_a_bazaar_scores() -> None:
    state = fresh(players=3, seed=3, modules=("bazaars",))
    s = state.current
    build(state, s, {(0, 1): "Zg1", (-1, 1): "S4ne", (1, 1): "A8n"})  # seraglio, arcades, garden
    alone = seat_points(state, s)
    assert alone == 4  # 2 matching neighbours x 2 colours
    build(state, s, {(0, 2): "M10", (-1, 2): "M9n", (1, 2): "M8s"})
    assert seat_points(state, s) == alone


def test_a_medina_can_become_a_building_site_and_counts_once_completed() -> None:
    """Rulebook, Building Sites: "Camps [page 15] and bazaars [page 23] cannot be set up as a
    building site." (the only exclusions); Medina: "When a medina tile is drawn, it is placed on
    the building market like any other building tile." So a medina may be set up as a site; under
    its site tile it is not built yet ("the walls on the tile count during scoring, but not the
    unfinished building itself") and counts for the medina ranking once completed (issue 24)."""
    state = fresh(players=3, seed=4, modules=("building_sites",), market=("P4es", "M5nw", "A6sw", "M8s"))
    s = state.current
    set_hand(state, s, ["b9", "g9", "o9", "y9"])
    acts = {str(a) for a in legal_actions(state)}
    assert {a.split()[1] for a in acts if a.startswith("buy site")} == {"site1", "site2", "site3", "site4"}
    assert "buy site2 g9" in acts and "buy 2 g9" in acts  # as a site or in full
    after, _ = apply(state, parse_action("buy site2 g9"), s)
    assert isinstance(after.pending[-1], SiteChoice) and after.market[1] == -1
    # a medina site in the Alhambra is not built: no medina for the ranking until completed
    state = fresh(players=3, seed=4, modules=("building_sites",), market=("P4es", "S5sw", "A6sw", "C7sw"))
    s = state.current
    give_site(state, s, "M5nw", "g", x=-1, y=0)
    assert state.players[s].city and built(state, s) == []
    set_hand(state, s, ["g5"])
    state, _ = apply(state, parse_action("buy fin1 g5"), s)
    assert built(state, s) == [5]


def test_no_bonus_card_shows_a_medina() -> None:
    assert CARD_TILES and not set(CARD_TILES) & set(MEDINAS)


def test_the_vizier_buys_a_medina_between_turns() -> None:
    state = fresh(players=3, seed=3, modules=("vizier",), market=("P4es", "M6e", "A6sw", "C7sw"))
    s = state.current
    s1 = (s + 1) % 3
    set_hand(state, s1, ["g6"])
    state, _ = take_first(state)
    top = state.pending[-1]
    assert isinstance(top, BetweenTurns) and top.seat == s1  # the next player is asked first
    assert VizierBuy(2, ("g6",)) in legal_actions(state)
    state, events = apply(state, VizierBuy(2, ("g6",)), s1)
    assert events[0] == VizierUsed(s1, 2, "M6e", ("g6",))
    assert state.pending[-1] == PlaceTiles(s1, ("M6e",), False, "vizier")
    state, _ = apply(state, PlaceBuilding("M6e", (1, 0)), s1)
    assert built(state, s1) == [6]
    check_conservation(state)


def test_an_overpaid_medina_gives_change_like_any_building() -> None:
    state = fresh(players=3, seed=3, modules=("change",), market=("M2sw", "S5sw", "A6sw", "C7sw"))
    s = state.current
    set_hand(state, s, ["b6"])
    state, events = apply(state, parse_action("buy 1 b6"), s)
    given = [e for e in events if isinstance(e, ChangeGiven)]
    assert len(given) == 1 and given[0].seat == s and given[0].overpaid == 4 and given[0].due == 2
    assert len(given[0].coins) == 2
