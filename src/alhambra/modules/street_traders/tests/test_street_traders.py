"""Street traders: the secret setup choice, citizens moving in, exchanges, the trader tile put
back, citizens returning to the supply, set scoring (the rulebook's example), views, notation."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from alhambra import apply, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import Action, BuildFromReserve, BuyBuilding, ExchangeTiles, MoveToReserve, PlaceBuilding, TakeMoney
from alhambra.components import KINDS
from alhambra.errors import IllegalAction, IllegalPlacement, NotationError, WrongPhase
from alhambra.events import Event, GameEnded, RoundScored
from alhambra.hooks import load_module
from alhambra.modules.street_traders import (
    MODULE,
    SET_POINTS,
    StreetTraderArrival,
    StreetTraderChoice,
    StreetTraderCitizenMovedIn,
    StreetTraderCitizenReturned,
    StreetTraderCitizensChosen,
    StreetTraderCitizensExchanged,
    StreetTraderCitizensRevealed,
    StreetTraderCitizenTaken,
    StreetTraderPlaced,
    StreetTraderPlacement,
    StreetTraderRestock,
    StreetTraderRetired,
    StreetTraderSetAside,
    StreetTraderSkipped,
    StreetTradersState,
    TraderChoose,
    TraderExchange,
    TraderMove,
    TraderPlace,
    TraderSeat,
    TraderSkip,
    TraderTake,
    citizen_points,
    trader_spots,
    traders,
)
from alhambra.modules.street_traders.module import CITIZENS_PER_COLOUR, COLOUR_OF, COMPONENTS, ON_TRADER, TRADER_TILES
from alhambra.modules.vizier import VizierBuy
from alhambra.server.db import Database
from alhambra.server.service import SeatSpec, TableService, message
from alhambra.state import STAGE_BETWEEN, STAGE_SETUP, BetweenTurns, ChooseAction, GameState, PlaceTiles
from alhambra.testing import check_conservation, set_hand, set_market
from alhambra.view import view_events

from .support import ID, build, buy, buy_and_place, check_citizens, fresh, set_trader, started

SIDES = [(0, -1), (1, 0), (0, 1), (-1, 0)]


def order_from(state: GameState, first: int) -> list[int]:
    n = state.config.players
    return [(first + i) % n for i in range(n)]


def seat_of(state: GameState, seat: int) -> TraderSeat:
    return traders(state).seats[seat]


def types(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


# ---------------------------------------------------------------------------------- components and setup
def test_components_are_the_rulebooks() -> None:
    assert CITIZENS_PER_COLOUR * len(KINDS) == 42 and TRADER_TILES == 6 and ON_TRADER == 3
    assert SET_POINTS == (0, 1, 3, 6, 10, 15, 21)
    assert COLOUR_OF == {
        "pavilion": "blue",
        "seraglio": "red",
        "arcades": "brown",
        "chambers": "white",
        "garden": "green",
        "tower": "purple",
    }
    assert "none is an assumption" in COMPONENTS["notes"]
    assert MODULE.component_assumptions == () and MODULE.assumptions
    assert load_module(ID) is MODULE and MODULE.id == ID and MODULE.title and MODULE.description


@pytest.mark.parametrize("players", [2, 3, 6])
def test_setup_every_seat_holds_one_citizen_of_each_colour_the_rest_is_the_supply(players: int) -> None:
    state = fresh(players)
    sl = traders(state)
    assert sl.supply == (7 - players,) * 6 and not sl.revealed
    assert sl.seats == (TraderSeat(),) * players
    check_citizens(state)


def test_the_citizens_are_chosen_in_secret_before_the_market_is_filled() -> None:
    """Rulebook, Street Traders, Changes in setup: "Before the building tiles are placed in the
    building market, each player is given a trader tile and a citizen of each color. The player
    secretly chooses three of these citizens and places them on his trader tile." The choice is a
    setup decision (``Module.setup_decisions``): the market is empty, no money is dealt, no
    display laid out and no starting player known while the players choose, one after the other
    from the first seat (issue 24, item 1)."""
    state = fresh(3, 1)
    assert state.stage == STAGE_SETUP and state.turn == 0
    assert state.pending == [StreetTraderChoice(2), StreetTraderChoice(1), StreetTraderChoice(0)]
    assert state.market == [-1] * 4 and state.display == [-1] * 4 and all(not p.hand for p in state.players)
    acts = legal_actions(state)
    assert len(acts) == 20 and all(isinstance(a, TraderChoose) and len(set(a.citizens)) == 3 for a in acts)
    assert legal_actions(state, ID) == acts and legal_actions(state, "take") == []
    for seat in range(3):
        assert state.to_act == seat and state.market == [-1] * 4
        v = view(state, seat)
        assert [sq["tile"] for sq in v["market"]] == [None] * 4 and v["seats"][seat]["hand"] == []
        state, events = apply(state, acts[seat], seat)
    # the last choice reveals them all; then the market is filled, the money dealt, the first turn starts
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("StreetTraderCitizensRevealed") < kinds.index("GameStarted") < kinds.index("TurnStarted")
    assert state.stage == "turn" and -1 not in state.market and all(p.hand for p in state.players)
    assert state.pending[-1] == StreetTraderPlacement(state.current, tuple(order_from(state, state.current)[1:]))
    assert isinstance(state.pending[-2], ChooseAction) and state.pending[-2].seat == state.current
    check_conservation(state)


def test_a_game_with_setup_decisions_replays_and_round_trips_mid_setup() -> None:
    state = fresh(2, 8)
    record_actions = []
    data = state_to_json(state)
    assert state_to_json(state_from_json(data)) == data
    for seat in range(2):
        a = legal_actions(state)[5 + seat]
        record_actions.append(a)
        state, _ = apply(state, a, seat)
        check_conservation(state)
    again, _ = new_game(state.config, 8)
    for a in record_actions:
        again, _ = apply(again, a)
    assert state_to_json(again) == state_to_json(state)


def test_the_choice_stays_secret_until_everybody_has_chosen() -> None:
    state = fresh(3, 1)
    a = state.current
    b, c = (a + 1) % 3, (a + 2) % 3
    one, ev1 = apply(state, TraderChoose(("pavilion", "garden", "tower")), a)
    two, ev2 = apply(state, TraderChoose(("seraglio", "arcades", "chambers")), a)
    assert not any(isinstance(e, StreetTraderCitizensRevealed) for e in ev1)
    for viewer in (b, c, None):
        assert json.dumps(view(one, viewer), sort_keys=True) == json.dumps(view(two, viewer), sort_keys=True)
        assert view_events(ev1, viewer) == view_events(ev2, viewer)
    theirs = view(one, b)["module_views"][ID]["traders"][a]
    assert theirs["chosen"] is True and theirs["citizens"] is None
    assert view(one, b)["module_views"][ID]["traders"][b] == {
        "seat": b,
        "chosen": False,
        "citizens": [],
        "at": None,
        "homes": [],
        "points": 0,
    }
    assert view(one, a)["module_views"][ID]["traders"][a]["citizens"] == ["pavilion", "garden", "tower"]
    mine = view_events(ev1, a)
    assert mine[0]["citizens"] == ["pavilion", "garden", "tower"] and "pavilion, garden, tower" in mine[0]["text"]
    other = view_events(ev1, b)
    assert other[0]["citizens"] == [] and "in secret" in other[0]["text"]
    assert json.dumps(view(one, b)["pending_stack"]) == json.dumps(view(two, b)["pending_stack"])
    # the supply does not tell: it changes only at the reveal
    assert view(one, None)["module_views"][ID]["supply"] == dict.fromkeys(KINDS, 4)


def test_the_choices_are_revealed_together_then_every_trader_goes_to_a_fountain_side() -> None:
    state = fresh(3, 1)
    order = order_from(state, state.current)
    choices = {
        order[0]: ("pavilion", "seraglio", "arcades"),
        order[1]: ("pavilion", "garden", "tower"),
        order[2]: ("chambers", "garden", "tower"),
    }
    for s in order[:2]:
        state, events = apply(state, TraderChoose(choices[s]), s)
        assert not traders(state).revealed
    state, events = apply(state, TraderChoose(choices[order[2]]), order[2])
    shown = [e for e in events if isinstance(e, StreetTraderCitizensRevealed)]
    assert len(shown) == 1 and shown[0].reveals and type(shown[0]).reveals
    assert shown[0].citizens == tuple(choices[s] for s in range(3))
    sl = traders(state)
    assert sl.revealed
    # 4 of each colour in the supply from the start, plus every citizen nobody put on a trader tile
    assert sl.supply == (5, 6, 6, 6, 5, 5) == tuple(4 + sum(1 for c in choices.values() if k not in c) for k in KINDS)
    assert shown[0].supply == sl.supply
    check_citizens(state)
    for viewer in (None, *order):
        assert [t["citizens"] for t in view(state, viewer)["module_views"][ID]["traders"]] == [list(choices[s]) for s in range(3)]
    for i, s in enumerate(order):
        top = state.pending[-1]
        assert isinstance(top, StreetTraderPlacement) and top.seat == s and top.later == tuple(order[i + 1 :])
        assert sorted(a.target for a in legal_actions(state) if isinstance(a, TraderPlace)) == sorted(SIDES)
        state, events = apply(state, TraderPlace(SIDES[i]), s)
        assert events[0] == StreetTraderPlaced(s, *SIDES[i])
        assert seat_of(state, s).at == SIDES[i]
    assert isinstance(state.pending[-1], ChooseAction) and state.pending[-1].seat == order[0] and len(state.pending) == 1
    assert view(state, None)["module_views"][ID]["traders"][order[2]]["at"] == list(SIDES[2])
    check_conservation(state)


def test_setup_refusals_have_reasons() -> None:
    state = fresh(3, 1)
    s = state.current
    with pytest.raises(IllegalAction, match="three different colours"):
        apply(state, TraderChoose(("pavilion", "pavilion", "garden")), s)
    with pytest.raises(IllegalAction, match="exactly 3"):
        apply(state, TraderChoose(("pavilion", "garden")), s)
    with pytest.raises(IllegalAction, match="order of the building kinds"):
        apply(state, TraderChoose(("tower", "pavilion", "garden")), s)
    with pytest.raises(WrongPhase, match="put back"):
        apply(state, TraderPlace((1, 0)), s)
    with pytest.raises(WrongPhase):
        apply(state, TakeMoney((state.card_code(state.display[0]),)), s)
    for seat in order_from(state, state.current):
        state, _ = apply(state, TraderChoose(("pavilion", "seraglio", "arcades")), seat)
    s = state.pending[-1].seat
    with pytest.raises(IllegalPlacement, match="next to a tile of your Alhambra"):
        apply(state, TraderPlace((1, 1)), s)
    with pytest.raises(IllegalPlacement, match="already holds a tile"):
        apply(state, TraderPlace((0, 0)), s)
    with pytest.raises(WrongPhase, match="at the start of the game"):
        apply(state, TraderChoose(("pavilion", "seraglio", "arcades")), s)
    with pytest.raises(WrongPhase, match="only when a building is built"):
        apply(state, TraderSkip(), s)


# ---------------------------------------------------------------------------------- citizens moving in
def test_a_matching_citizen_moves_in_a_new_one_comes_from_the_supply_and_the_trader_goes_back_at_the_end() -> None:
    state = started(3, 1)
    seat = state.current
    supply = traders(state).supply
    state, events = buy_and_place(state, "S9", (1, 0))
    # only the builder's own trader is set aside (the others stand next to their own Alhambras)
    assert [e for e in events if isinstance(e, StreetTraderSetAside)] == [StreetTraderSetAside(seat, "S9", 1, 0)]
    assert seat_of(state, seat).at is None
    assert all(seat_of(state, s).at == (1, 0) for s in range(3) if s != seat)
    top = state.pending[-1]
    assert top == StreetTraderArrival(seat, "S9")
    assert legal_actions(state) == [TraderMove("seraglio"), TraderSkip()]
    assert view(state, None)["pending"] == {"type": "StreetTraderArrival", "seat": seat, "tile": "S9"}
    state, events = apply(state, TraderMove("seraglio"), seat)
    assert events[0] == StreetTraderCitizenMovedIn(seat, "seraglio", "S9")
    assert state.pending[-1] == StreetTraderRestock(seat)
    assert legal_actions(state) == [TraderTake(k) for k in KINDS]
    state, events = apply(state, TraderTake("tower"), seat)
    assert events[0] == StreetTraderCitizenTaken(seat, "tower")
    assert seat_of(state, seat) == TraderSeat(("pavilion", "arcades", "tower"), None, ("S9",))
    assert traders(state).supply == tuple(v - (k == "tower") for k, v in zip(KINDS, supply, strict=True))
    # the end of the turn, after the building placement: the trader tile goes back next to the Alhambra
    assert "TurnEnded" not in types(events)
    top = state.pending[-1]
    assert top == StreetTraderPlacement(seat) and state.stage == "turn"
    spots = trader_spots(state, seat)
    assert sorted(spots) == sorted([(0, -1), (-1, 0), (0, 1), (1, -1), (2, 0), (1, 1)])
    assert sorted(a.target for a in legal_actions(state) if isinstance(a, TraderPlace)) == sorted(spots)
    with pytest.raises(IllegalPlacement, match="already holds a tile"):
        apply(state, TraderPlace((1, 0)), seat)
    state, events = apply(state, TraderPlace((2, 0)), seat)
    assert events[0] == StreetTraderPlaced(seat, 2, 0) and "TurnEnded" in types(events)
    assert isinstance(state.pending[-1], ChooseAction) and state.current == (seat + 1) % 3
    assert view(state, 1)["module_views"][ID]["traders"][seat]["homes"] == [{"tile": "S9", "kind": "seraglio"}]
    check_citizens(state)
    check_conservation(state)


def test_only_one_of_several_citizens_of_the_colour_moves_in() -> None:
    state = started(3, 1)
    seat = state.current
    set_trader(state, seat, citizens=("seraglio", "seraglio", "arcades"))
    state, _ = buy_and_place(state, "S9", (1, 0))
    assert legal_actions(state) == [TraderMove("seraglio"), TraderSkip()]
    state, _ = apply(state, TraderMove("seraglio"), seat)
    assert seat_of(state, seat).citizens == ("seraglio", "arcades")
    state, _ = apply(state, TraderTake("garden"), seat)
    assert seat_of(state, seat).citizens == ("seraglio", "arcades", "garden") and seat_of(state, seat).homes == ("S9",)
    check_citizens(state)


def test_moving_in_is_optional() -> None:
    state = started(3, 1)
    seat = state.current
    state, _ = buy_and_place(state, "S9", (1, 0))
    state, events = apply(state, TraderSkip(), seat)
    assert events[0] == StreetTraderSkipped(seat)
    assert seat_of(state, seat) == TraderSeat(("pavilion", "seraglio", "arcades"), None, ())
    assert state.pending[-1] == StreetTraderPlacement(seat)
    check_citizens(state)


def test_no_matching_colour_a_citizen_may_be_exchanged_with_the_supply() -> None:
    state = started(3, 1)
    seat = state.current
    state, events = buy_and_place(state, "G10", (1, 0))
    assert state.pending[-1] == StreetTraderArrival(seat, "G10")
    acts = legal_actions(state)
    assert acts[-1] == TraderSkip() and TraderMove("garden") not in acts
    assert set(acts[:-1]) == {TraderExchange(g, t) for g in ("pavilion", "seraglio", "arcades") for t in KINDS if t != g}
    with pytest.raises(IllegalAction, match="no green \\(garden\\) citizen on your trader tile"):
        apply(state, TraderMove("garden"), seat)
    with pytest.raises(IllegalAction, match="no white \\(chambers\\) citizen on your trader tile"):
        apply(state, TraderExchange("chambers", "garden"), seat)
    with pytest.raises(IllegalAction, match="another colour"):
        apply(state, TraderExchange("pavilion", "pavilion"), seat)
    with pytest.raises(WrongPhase, match="only after one moved into a building"):
        apply(state, TraderTake("garden"), seat)
    supply = traders(state).supply
    state, events = apply(state, TraderExchange("pavilion", "garden"), seat)
    assert events[0] == StreetTraderCitizensExchanged(seat, "pavilion", "garden")
    assert seat_of(state, seat).citizens == ("seraglio", "arcades", "garden") and seat_of(state, seat).homes == ()
    after = traders(state).supply
    assert after[0] == supply[0] + 1 and after[4] == supply[4] - 1
    assert state.pending[-1] == StreetTraderPlacement(seat)  # no new citizen: the turn ends
    check_citizens(state)


def test_no_exchange_while_a_citizen_matches_and_none_for_an_empty_colour() -> None:
    state = started(3, 1)
    seat = state.current
    state, _ = buy_and_place(state, "S9", (1, 0))
    with pytest.raises(IllegalAction, match="it may move in; no exchange"):
        apply(state, TraderExchange("pavilion", "garden"), seat)
    with pytest.raises(IllegalAction, match="cannot move into S9, a seraglio"):
        apply(state, TraderMove("pavilion"), seat)
    state2, _ = buy_and_place(started(3, 1), "G10", (1, 0))
    sl = traders(state2)
    state2.mods[ID] = sl.with_supply("tower", -sl.supply[5])
    assert all(not (isinstance(a, TraderExchange) and a.take == "tower") for a in legal_actions(state2))
    with pytest.raises(IllegalAction, match="no purple \\(tower\\) citizen left"):
        apply(state2, TraderExchange("pavilion", "tower"), state2.current)


def test_a_redesign_build_on_the_traders_place_lets_a_citizen_move_in() -> None:
    state = started(3, 1)
    seat = state.current
    t = state.components.tile_ids["A9"]
    state.bag.remove(t)
    state.players[seat].reserve.append(t)
    state, events = apply(state, BuildFromReserve("A9", (1, 0)), seat)
    assert StreetTraderSetAside(seat, "A9", 1, 0) in events
    assert legal_actions(state) == [TraderMove("arcades"), TraderSkip()]
    state, _ = apply(state, TraderMove("arcades"), seat)
    state, _ = apply(state, TraderTake("arcades"), seat)
    assert seat_of(state, seat) == TraderSeat(("pavilion", "seraglio", "arcades"), None, ("A9",))
    assert state.pending[-1] == StreetTraderPlacement(seat)
    check_citizens(state)


def test_the_trader_is_set_aside_for_the_rest_of_the_turn() -> None:
    """Two tiles bought in one turn: the second, built where the trader tile is put back later,
    triggers nothing; the tile goes back only after both are placed."""
    state = started(3, 1)
    seat = state.current
    set_market(state, 1, "S9")
    set_market(state, 2, "G10")
    set_hand(state, seat, ["b9", "g9", "g2"])
    state, _ = apply(state, BuyBuilding(1, ("b9",)), seat)  # exact: another action
    state, _ = apply(state, BuyBuilding(2, ("g9", "g2")), seat)
    assert isinstance(state.pending[-1], PlaceTiles)
    state, _ = apply(state, PlaceBuilding("S9", (1, 0)), seat)
    state, _ = apply(state, TraderMove("seraglio"), seat)
    state, _ = apply(state, TraderTake("garden"), seat)
    assert isinstance(state.pending[-1], PlaceTiles) and state.pending[-1].tiles == ("G10",)
    state, events = apply(state, PlaceBuilding("G10", (2, 0)), seat)
    assert not any(isinstance(e, StreetTraderSetAside) for e in events)
    assert state.pending[-1] == StreetTraderPlacement(seat)
    check_citizens(state)


# ---------------------------------------------------------------------------------- citizens leaving
def test_a_citizen_returns_to_the_supply_when_its_building_is_taken_out() -> None:
    state = started(3, 1)
    seat = state.current
    build(state, seat, "S9", (1, 0))
    set_trader(state, seat, at=(0, 1), homes=("S9",))
    check_citizens(state)
    before = traders(state).supply
    state, events = apply(state, MoveToReserve("S9"), seat)
    assert StreetTraderCitizenReturned(seat, "seraglio", "S9") in events
    assert seat_of(state, seat).homes == () and traders(state).supply[1] == before[1] + 1
    # the trader tile still stands next to the fountain: nothing to put back
    assert isinstance(state.pending[-1], ChooseAction) and state.current == (seat + 1) % 3
    check_citizens(state)


def test_a_citizen_returns_when_its_building_is_exchanged_away() -> None:
    state = started(3, 1)
    seat = state.current
    build(state, seat, "S9", (1, 0))
    t = state.components.tile_ids["P8"]
    state.bag.remove(t)
    state.players[seat].reserve.append(t)
    set_trader(state, seat, at=(0, 1), homes=("S9",))
    state, events = apply(state, ExchangeTiles("P8", "S9"), seat)
    assert StreetTraderCitizenReturned(seat, "seraglio", "S9") in events
    assert not any(isinstance(e, StreetTraderSetAside) for e in events)  # P8 is not built on the trader's place
    assert seat_of(state, seat).homes == ()
    check_citizens(state)


def test_a_trader_left_without_a_neighbour_is_put_back_at_the_end_of_the_turn() -> None:
    state = started(3, 1)
    seat = state.current
    build(state, seat, "S9", (1, 0))
    set_trader(state, seat, at=(2, 0))
    state, _ = apply(state, MoveToReserve("S9"), seat)
    assert state.pending[-1] == StreetTraderPlacement(seat)
    assert sorted(a.target for a in legal_actions(state) if isinstance(a, TraderPlace)) == sorted(SIDES)
    state, _ = apply(state, TraderPlace((0, 1)), seat)
    assert seat_of(state, seat).at == (0, 1) and isinstance(state.pending[-1], ChooseAction)


# ---------------------------------------------------------------------------------- supply running out
def test_an_empty_supply_gives_no_new_citizen() -> None:
    state = started(3, 1)
    seat = state.current
    set_trader(state, seat, citizens=("seraglio", "arcades"))
    sl = traders(state)
    state.mods[ID] = StreetTradersState(sl.seats, (0,) * 6, True)
    state, _ = buy_and_place(state, "S9", (1, 0))
    state, events = apply(state, TraderMove("seraglio"), seat)
    assert not any(isinstance(e, StreetTraderCitizenTaken) for e in events)
    assert seat_of(state, seat).citizens == ("arcades",)
    assert state.pending[-1] == StreetTraderPlacement(seat)


def test_a_trader_without_citizens_stays_out_of_play() -> None:
    state = started(3, 1)
    seat = state.current
    set_trader(state, seat, citizens=("seraglio",))
    sl = traders(state)
    state.mods[ID] = StreetTradersState(sl.seats, (0,) * 6, True)
    state, _ = buy_and_place(state, "S9", (1, 0))
    state, events = apply(state, TraderMove("seraglio"), seat)
    assert StreetTraderRetired(seat) in events and "TurnEnded" in types(events)
    assert seat_of(state, seat) == TraderSeat((), None, ("S9",))
    assert isinstance(state.pending[-1], ChooseAction)


def test_an_arrival_with_nothing_to_decide_passes_by_itself() -> None:
    state = started(3, 1)
    seat = state.current
    sl = traders(state)
    state.mods[ID] = StreetTradersState(sl.seats, (0,) * 6, True)
    state, events = buy_and_place(state, "G10", (1, 0))  # no garden citizen, nothing to exchange for
    assert StreetTraderSetAside(seat, "G10", 1, 0) in events
    assert state.pending[-1] == StreetTraderPlacement(seat)


# ---------------------------------------------------------------------------------- out of turn and game end
def test_a_vizier_purchase_on_the_traders_place_and_the_trader_goes_back_at_once() -> None:
    state = started(3, 1, modules=(ID, "vizier"))
    c = state.current
    v = (c + 1) % 3
    set_market(state, 1, "S9")
    set_hand(state, v, ["b9"])
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    state, _ = apply(state, take, c)
    assert isinstance(state.pending[-1], BetweenTurns) and state.pending[-1].seat == v
    state, _ = apply(state, VizierBuy(1, ("b9",)), v)
    state, events = apply(state, PlaceBuilding("S9", (1, 0)), v)
    assert StreetTraderSetAside(v, "S9", 1, 0) in events
    state, _ = apply(state, TraderMove("seraglio"), v)
    state, _ = apply(state, TraderTake("tower"), v)
    # not v's turn: the trader tile goes back at the end of this out-of-turn move
    assert state.pending[-1] == StreetTraderPlacement(v) and state.stage == STAGE_BETWEEN
    state, events = apply(state, TraderPlace((0, 1)), v)
    assert seat_of(state, v) == TraderSeat(("pavilion", "arcades", "tower"), (0, 1), ("S9",))
    assert isinstance(state.pending[-1], BetweenTurns)  # the window is asked again
    check_citizens(state)
    check_conservation(state)


def test_a_tile_of_the_final_distribution_on_the_traders_place_scores_its_citizen() -> None:
    state = started(3, 2)
    c = state.current
    t = (c + 1) % 3
    set_market(state, 1, "S9")
    set_market(state, 2, "G10")
    for s in range(3):
        set_hand(state, s, [])
    set_hand(state, t, ["b9"])
    set_hand(state, c, ["g9", "g8"])
    state.players[(c + 2) % 3].reserve.extend(state.bag)
    state.bag.clear()
    state, _ = apply(state, BuyBuilding(2, ("g9", "g8")), c)
    state, _ = apply(state, PlaceBuilding("G10", "reserve"), c)
    assert state.market_exhausted and state.pending[-1] == PlaceTiles(t, ("S9",), False, "final")
    state, events = apply(state, PlaceBuilding("S9", (1, 0)), t)
    assert StreetTraderSetAside(t, "S9", 1, 0) in events
    state, _ = apply(state, TraderMove("seraglio"), t)
    state, events = apply(state, TraderTake("garden"), t)
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    assert seat_of(state, t).at is None  # not put back: the game is over
    final = [e for e in events if isinstance(e, RoundScored)]
    assert final[-1].round == 3 and final[-1].extra[ID][t] == 1


# ---------------------------------------------------------------------------------- scoring
def test_rulebook_example_3_red_2_white_2_green_1_blue_score_17() -> None:
    counts = [0] * 6
    for kind, n in (("seraglio", 3), ("chambers", 2), ("garden", 2), ("pavilion", 1)):
        assert COLOUR_OF[kind] in ("red", "white", "green", "blue")
        counts[KINDS.index(kind)] = n
    assert citizen_points(counts) == 10 + 6 + 1 == 17


@pytest.mark.parametrize(("colours", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21)])
def test_a_set_of_n_colours(colours: int, points: int) -> None:
    assert citizen_points([1] * colours + [0] * (6 - colours)) == points
    assert citizen_points([2] * colours + [0] * (6 - colours)) == 2 * points


def test_citizens_score_in_every_scoring_round() -> None:
    """The rulebook's example in a real scoring round: 17 points beside the majorities."""
    state = started(3, 1)
    seat = state.current
    other = (seat + 1) % 3
    homes = ("S9", "S8s", "S7w", "C10", "C11", "G10", "G11", "P8")
    for i, code in enumerate(homes):
        build(state, other, code, (i + 1, 0))
    set_trader(state, other, at=(0, 1), homes=tuple(sorted(homes)))
    check_citizens(state)
    assert MODULE.round_points(state, 1) == [17 if s == other else 0 for s in range(3)]
    assert view(state, None)["module_views"][ID]["traders"][other]["points"] == 17
    scoring = next(c for c in state.deck if state.components.cards[c].kind == "scoring")
    state.deck.remove(scoring)
    state.deck.append(scoring)  # the display refill draws it at the end of this turn
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    state, events = apply(state, take, seat)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert len(rounds) == 1 and rounds[0].extra[ID] == tuple(17 if s == other else 0 for s in range(3))


def test_two_players_the_neutral_player_has_no_trader() -> None:
    state = started(2, 1)
    seat = state.current
    assert len(traders(state).seats) == 2
    state = buy(state, "S9")
    assert PlaceBuilding("S9", "neutral") in legal_actions(state)
    state, events = apply(state, PlaceBuilding("S9", "neutral"), seat)
    assert not any(isinstance(e, StreetTraderSetAside) for e in events)
    assert len(MODULE.round_points(state, 1) or []) == 2


# ---------------------------------------------------------------------------------- notation and events
TEXTS = (
    "trader choose pavilion seraglio arcades",
    "trader place 1,0",
    "trader place -2,3",
    "trader move garden",
    "trader take tower",
    "trader exchange pavilion chambers",
    "trader skip",
)


@pytest.mark.parametrize("text", TEXTS)
def test_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text and action.module == ID
    assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action
    cls = type(action)
    words = text.split()
    assert cls.keyword == " ".join(words[:2])
    assert len(cls.grammar) == len(words) - 2


def test_notation_reads_any_case_and_order_and_refuses_junk() -> None:
    assert parse_action("Trader Choose tower Garden pavilion") == TraderChoose(("pavilion", "garden", "tower"))
    assert parse_action("trader place (2,-1)") == TraderPlace((2, -1))
    for bad in ("trader choose pavilion garden", "trader choose castle garden tower", "trader place x", "trader skip now", "trader move"):
        with pytest.raises(NotationError):
            parse_action(bad)


EVENTS: tuple[tuple[Event, str], ...] = (
    (StreetTraderCitizensChosen(0, ("pavilion", "garden", "tower")), "player 1 chooses three citizens for the trader tile in secret"),
    (StreetTraderCitizensRevealed((("pavilion", "garden", "tower"),), (4,) * 6), "the trader tiles are revealed"),
    (StreetTraderPlaced(1, 0, -1), "player 2 puts the trader tile at 0,-1"),
    (StreetTraderSetAside(1, "S9", 1, 0), "player 2 builds S9 where the trader stood"),
    (StreetTraderCitizenMovedIn(1, "seraglio", "S9"), "a red (seraglio) citizen of player 2 moves into S9"),
    (StreetTraderCitizenTaken(2, "tower"), "player 3 takes a purple (tower) citizen"),
    (StreetTraderCitizensExchanged(0, "pavilion", "garden"), "player 1 exchanges a blue (pavilion) citizen"),
    (StreetTraderSkipped(0), "player 1 lets no citizen move in"),
    (StreetTraderCitizenReturned(0, "chambers", "C10"), "C10 leaves the Alhambra of player 1: its white (chambers) citizen returns"),
    (StreetTraderRetired(3), "the trader tile of player 4 has no citizen left"),
)


@pytest.mark.parametrize(("event", "text"), EVENTS)
def test_events_describe_and_round_trip(event: Event, text: str) -> None:
    assert event.describe().startswith(text)
    assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event
    assert type(event).reveals == isinstance(event, StreetTraderCitizensRevealed)
    if not isinstance(event, StreetTraderCitizensChosen):
        assert event.seen_by(0) is event and event.seen_by(None) is event


# ---------------------------------------------------------------------------------- persistence and views
def test_states_with_open_decisions_round_trip_through_json() -> None:
    states = [fresh(3, 1)]
    s0 = states[0]
    one, _ = apply(s0, TraderChoose(("pavilion", "garden", "tower")), s0.current)
    states.append(one)
    placed, _ = buy_and_place(started(3, 1), "S9", (1, 0))
    states.append(placed)
    moved, _ = apply(placed, TraderMove("seraglio"), placed.current)
    states.append(moved)
    for state in states:
        data = json.loads(json.dumps(state_to_json(state)))
        back = state_from_json(data)
        assert state_to_json(back) == data
        assert legal_actions(back) == legal_actions(state)
        assert traders(back) == traders(state)
    with pytest.raises(NotationError):
        MODULE.slice_from_json({"seats": [], "supply": [1, 2], "revealed": True})
    with pytest.raises(NotationError):
        MODULE.slice_from_json({"seats": [{"citizens": ["castle"], "at": None, "homes": []}], "supply": [0] * 6, "revealed": True})


def test_views_rebuild_the_slice_and_samples_redraw_hidden_choices() -> None:
    state = fresh(3, 1)
    a = state.current
    b = (a + 1) % 3
    state, _ = apply(state, TraderChoose(("chambers", "garden", "tower")), a)
    mv = view(state, b)["module_views"][ID]
    drawn = set()
    for k in range(20):
        got = MODULE.sample_slice(state, mv, b, random.Random(k))
        assert isinstance(got, StreetTradersState) and got.supply == traders(state).supply and not got.revealed
        guess = got.seats[a].citizens
        assert len(set(guess)) == 3 and got.seats[b].citizens == ()
        drawn.add(guess)
    assert len(drawn) > 3
    # own choice: the owner's view gives it back exactly
    assert MODULE.slice_from_view(view(state, a)["module_views"][ID], state.config) == traders(state)
    # after the reveal everything is public
    game = started(3, 1)
    game, _ = buy_and_place(game, "S9", (1, 0))
    game, _ = apply(game, TraderMove("seraglio"), game.current)
    for viewer in (None, 0, 1, 2):
        mv = view(game, viewer)["module_views"][ID]
        assert MODULE.slice_from_view(mv, game.config) == traders(game)
        assert MODULE.sample_slice(game, mv, 0, random.Random(1)) == traders(game)


# ---------------------------------------------------------------------------------- bots
def test_bot_values_count_citizens_in_buildings_and_on_the_trader() -> None:
    assert MODULE.bot_values(fresh(3, 1)) is None
    state = started(3, 1)
    seat = state.current
    base = MODULE.bot_values(state)
    assert base is not None and len(base) == 3
    placed, _ = buy_and_place(state, "S9", (1, 0))
    moved, _ = apply(placed, TraderMove("seraglio"), seat)
    skipped, _ = apply(placed, TraderSkip(), seat)
    v_moved = MODULE.bot_values(moved)
    v_skipped = MODULE.bot_values(skipped)
    v_placed = MODULE.bot_values(placed)
    assert v_moved is not None and v_skipped is not None and v_placed is not None
    assert v_moved[seat] > v_skipped[seat] and v_placed[seat] > v_skipped[seat]
    assert v_moved[seat] >= 3.0  # one citizen: 1 point in each of the 3 rounds to come
    # a trader place where a market tile of a citizen's colour fits is worth more
    state = started(3, 1)
    for sq, code in ((1, "S9"), (2, "T11"), (3, "G10"), (4, "C10")):
        set_market(state, sq, code)
    build(state, seat, "S3esw", (1, 0))
    set_trader(state, seat, at=(0, 1))
    fits = MODULE.bot_values(state)
    set_trader(state, seat, at=(2, 0))  # east of a wall: S9 (no walls) cannot go there
    blocked = MODULE.bot_values(state)
    assert fits is not None and blocked is not None and fits[seat] > blocked[seat]


def test_the_first_turn_goes_on_once_the_setup_is_done() -> None:
    state = fresh(2, 4)
    events: list[Event] = []
    while not isinstance(state.pending[-1], ChooseAction):
        state, got = apply(state, legal_actions(state)[0], state.pending[-1].seat)
        events += got
    assert types(events).count("TurnStarted") == 1 and "TurnEnded" not in types(events)
    assert state.turn == 1 and traders(state).revealed
    assert types(events).count("StreetTraderCitizensChosen") == 2 and types(events).count("StreetTraderPlaced") == 2
    assert all(ts.at == (0, -1) for ts in traders(state).seats)  # the first legal place: north of the fountain


def test_the_server_sends_nobody_another_seats_secret_choice(tmp_path: Path) -> None:
    svc = TableService(Database(f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    table, tokens = svc.create_table([SeatSpec("person")] * 3, (ID,))
    for tok in tokens.values():
        svc.join(table.id, tok, None)
    chosen: dict[int, list[str]] = {}
    for k in range(3):
        snap = table.snap
        seat = snap.state.to_act
        assert seat is not None and isinstance(snap.state.pending[-1], StreetTraderChoice)
        text = message(table, snap, seat)["view"]["legal_actions"][7 * k + 1]
        svc.submit(table.id, seat, text, snap.version)
        chosen[seat] = text.split()[2:]
        snap = table.snap
        for viewer in (None, 0, 1, 2):
            msg = message(table, snap, viewer)
            shown = msg["view"]["module_views"][ID]["traders"]
            for s, kinds in chosen.items():
                events = [e for e in msg["events"] if e["type"] == "StreetTraderCitizensChosen" and e["seat"] == s]
                revealed = k == 2
                if viewer == s or revealed:
                    assert shown[s]["citizens"] == kinds
                else:
                    assert shown[s]["citizens"] is None and events[0]["citizens"] == []
                    assert all(" ".join(kinds) not in json.dumps(e) for e in events)
            assert msg["can_undo"] is False  # a secret choice passes the turn on; the reveal cannot be taken back
    assert traders(table.snap.state).revealed
    svc.db.close()


def test_a_game_saved_with_the_old_first_turn_choice_goes_on() -> None:
    """Games saved before the choice became a setup decision hold one :class:`StreetTraderChoice`
    at the first turn naming the seats after it (``later``): they choose in that order, the reveal
    comes after the last, and then (the first turn has begun) every trader goes to the fountain."""
    before = fresh(3, 1)
    state = started(3, 1)
    order = order_from(state, state.current)
    # the save: the first turn under way, nobody has chosen, the one choice naming the others
    assert state.turn == 1 and state.pending == [ChooseAction(order[0])]
    state.mods[ID] = traders(before)
    state.pending.append(StreetTraderChoice(order[0], tuple(order[1:])))
    data = state_to_json(state)
    state = state_from_json(data)
    assert state_to_json(state) == data and state.pending[-1] == StreetTraderChoice(order[0], tuple(order[1:]))
    picks = [("pavilion", "seraglio", "arcades"), ("pavilion", "garden", "tower"), ("chambers", "garden", "tower")]
    for i, s in enumerate(order):
        assert state.to_act == s
        state, events = apply(state, TraderChoose(picks[i]), s)
        assert events[0] == StreetTraderCitizensChosen(s, picks[i])
        if i < 2:
            assert state.pending[-1] == StreetTraderChoice(order[i + 1], tuple(order[i + 2 :])) and not traders(state).revealed
    assert types(events)[1:] == ["StreetTraderCitizensRevealed"] and traders(state).revealed
    assert [t.citizens for t in (seat_of(state, s) for s in order)] == picks
    assert state.pending[-1] == StreetTraderPlacement(order[0], tuple(order[1:]))
    for i, s in enumerate(order):
        state, _ = apply(state, TraderPlace(SIDES[i]), s)
    assert state.pending == [ChooseAction(order[0])] and [seat_of(state, s).at for s in order] == SIDES[:3]
    check_citizens(state)
    check_conservation(state)
