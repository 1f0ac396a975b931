"""Granada on the engine: the fragments' scoring examples, turning tiles over, the black marker,
and modules refusing the game."""

from __future__ import annotations

import pytest

from alhambra import city as geo
from alhambra.actions import PlaceBuilding, TurnOver, parse_action
from alhambra.engine import _score_round, apply, dearest_buildings, legal_actions, new_game
from alhambra.errors import ConfigError, IllegalAction, InvalidPayment, WrongPhase
from alhambra.events import MarkerSwitched, MarketRefilled, RoundScored, TileTurnedOver
from alhambra.state import GameConfig, GameState, PlaceTiles
from alhambra.testing import check_conservation, set_hand, set_market
from alhambra.view import catalogue, view

GRANADA = GameConfig(players=3, game="granada")


def granada(players: int = 3, seed: int = 1) -> GameState:
    state, _ = new_game(GameConfig(players=players, game="granada"), seed)
    return state


def put_in_city(state: GameState, seat: int, codes: list[str]) -> None:
    """Move the physical tiles of ``codes`` out of the bag or market into ``seat``'s city (in a
    row east of the fountain), showing those faces (scoring needs no building rule)."""
    comp = state.components
    p = state.players[seat]
    x = max((geo.xy(q)[0] for q in p.city), default=0)
    for code in codes:
        face = comp.tile_ids[code]
        phys = comp.physical(face)
        if phys in state.bag:
            state.bag.remove(phys)
        else:
            sq = [comp.physical(t) if t >= 0 else -1 for t in state.market].index(phys)
            state.market[sq] = state.bag.pop()
        x += 1
        p.city[geo.pos(x, 0)] = face
    check_conservation(state)


def school_points(state: GameState, rnd: int) -> tuple[int, ...]:
    events: list = []
    _score_round(state, rnd, events)
    (scored,) = [e for e in events if isinstance(e, RoundScored)]
    return scored.kinds["school"]


def test_fragment_example_first_scoring_seven_schools() -> None:
    # Yellow has built 3 schools; both Red and Green have built 2: 7 schools, Yellow gains 7
    state = granada()
    put_in_city(state, 0, ["S2nsw", "S3nw", "S4ne"])
    put_in_city(state, 1, ["S5es", "S6sw"])
    put_in_city(state, 2, ["S7e", "S8sw"])
    assert school_points(state, 1) == (7, 0, 0)


def test_fragment_example_second_scoring_nine_schools() -> None:
    # Blue 4 schools, Green 3, Red 2: 9 schools, Blue gains 2 x 9 = 18 and Green 1 x 9 = 9
    state = granada()
    put_in_city(state, 0, ["S2nsw", "S3nw", "S4ne", "S5es"])
    put_in_city(state, 1, ["S6sw", "S7e", "S8sw"])
    put_in_city(state, 2, ["S9", "S10ne"])
    assert school_points(state, 2) == (18, 9, 0)


def test_fragment_example_third_scoring_price_tie_break() -> None:
    # Blue and Green 4 schools each, Red 2: 10 schools. Blue's dearest school is worth 9, Green's
    # 12: Green gains 30, Blue 20, Red 10.
    state = granada()
    put_in_city(state, 0, ["S2nsw", "S3nw", "S4ne", "S9"])
    put_in_city(state, 1, ["S5es", "S6sw", "S7e", "S12"])
    put_in_city(state, 2, ["S8sw", "S10ne"])
    assert dearest_buildings(state, 0)["school"] == 9 and dearest_buildings(state, 1)["school"] == 12
    assert school_points(state, 3) == (20, 30, 10)


def test_reserve_buildings_never_count() -> None:
    state = granada()
    put_in_city(state, 0, ["S2nsw"])
    put_in_city(state, 1, ["S4ne", "S6sw"])
    phys = state.components.physical(state.components.tile_ids["S8sw"])
    state.bag.remove(phys)
    state.players[0].reserve += [state.components.tile_ids["S8sw"]]
    assert school_points(state, 1) == (0, 3, 0)


def test_neutral_players_buildings_count_in_the_total() -> None:
    state = granada(players=2)
    comp = state.components
    assert state.neutral is not None
    state.bag += [comp.physical(t) for t in state.neutral]
    state.neutral.clear()
    put_in_city(state, 0, ["S2nsw", "S4ne"])
    phys = comp.physical(comp.tile_ids["S6sw"])
    state.bag.remove(phys)
    state.neutral.append(comp.tile_ids["S6sw"])
    check_conservation(state)
    events: list = []
    _score_round(state, 2, events)
    (scored,) = [e for e in events if isinstance(e, RoundScored)]
    assert scored.kinds["school"] == (6, 0, 3)  # seats 0, 1, then the neutral player


# ------------------------------------------------------------------ the black marker
def test_market_starts_even_and_the_marker_then_shows_odd() -> None:
    state = granada()
    comp = state.components
    assert all(comp.tile_price[t] % 2 == 0 for t in state.market)
    assert state.market_face == 1
    v = view(state, 0)
    assert v["market_face"] == "odd" and v["game"] == "granada" and len(v["kinds"]) == 9


def bought_and_waiting(state: GameState, tile: str = "A2new", hand: tuple[str, ...] = ("b2", "b1", "g2", "g1", "o4")) -> GameState:
    """The player to act buys ``tile`` (on square 1, blue) with overpayment: it waits to be placed."""
    state = state.copy()
    seat = state.to_act
    assert seat is not None
    set_market(state, 1, tile)
    set_hand(state, seat, hand)
    price = state.components.tile_price[state.components.tile_ids[tile]]
    pay = "b2+b1" if price == 2 else "b2"
    state, _ = apply(state, parse_action(f"buy 1 {pay}"))
    assert isinstance(state.pending[-1], PlaceTiles)
    return state


def test_refill_after_a_purchase_shows_odd_then_switches_to_even() -> None:
    state = bought_and_waiting(granada())
    state, events = apply(state, parse_action("place A2new reserve"))
    (refill,) = [e for e in events if isinstance(e, MarketRefilled)]
    assert refill.squares == (1,)
    assert state.components.tile_price[state.market[0]] % 2 == 1, "refilled on the odd face the marker showed"
    assert [e.face for e in events if isinstance(e, MarkerSwitched)] == ["even"]
    assert state.market_face == 0


def test_marker_stays_when_nothing_was_refilled() -> None:
    state = granada()
    before = state.market_face
    take = next(a for a in legal_actions(state) if a.keyword == "take")
    state, events = apply(state, take)
    assert not [e for e in events if isinstance(e, MarkerSwitched | MarketRefilled)]
    assert state.market_face == before


# ------------------------------------------------------------------ turning over
def test_turning_over_costs_three_of_one_currency_and_the_tile_must_be_built() -> None:
    state = bought_and_waiting(granada())
    acts = legal_actions(state)
    assert TurnOver("A2new", ("g2", "g1")) in acts
    assert TurnOver("A2new", ("g1",)) not in acts, "1 is not enough"
    assert PlaceBuilding("B3new", "reserve") in acts, "into the reserve on either face, for free"
    seat = state.to_act
    assert seat is not None
    before = len(state.discard)
    after, events = apply(state, TurnOver("A2new", ("g2", "g1")))
    assert [e for e in events if isinstance(e, TileTurnedOver)] == [TileTurnedOver(seat, "A2new", "B3new", ("g2", "g1"))]
    assert len(after.discard) == before + 2, "the turn-over money goes to the discard pile"
    assert [after.card_code(c) for c in after.players[seat].hand] == ["o4"]
    top = after.pending[-1]
    assert isinstance(top, PlaceTiles) and top.tiles == ("B3new",)
    placements = legal_actions(after)
    assert placements and all(isinstance(a, PlaceBuilding) and isinstance(a.target, tuple) for a in placements)
    with pytest.raises(IllegalAction, match="build it in your city"):
        apply(after, PlaceBuilding("B3new", "reserve"))
    with pytest.raises(IllegalAction, match="build it in your city"):
        apply(after, PlaceBuilding("A2new", "reserve"))
    with pytest.raises(IllegalAction, match="turned over already"):
        apply(after, TurnOver("B3new", ("o4",)))
    built, _ = apply(after, placements[0])
    assert built.components.tile_ids["B3new"] in built.players[seat].city.values()
    assert view(built, 0)["turned"] == ["B3new"]
    check_conservation(built)


def test_turn_over_payment_is_checked() -> None:
    state = bought_and_waiting(granada())
    with pytest.raises(InvalidPayment, match="costs 3"):
        apply(state, TurnOver("A2new", ("g2",)))
    with pytest.raises(InvalidPayment):
        apply(state, TurnOver("A2new", ("g2", "o4")))
    with pytest.raises(InvalidPayment, match="do not hold"):
        apply(state, TurnOver("A2new", ("y9",)))
    with pytest.raises(IllegalAction, match="not waiting"):
        apply(state, TurnOver("S2nsw", ("o4",)))


def test_a_tile_in_reserve_or_city_is_never_turned() -> None:
    state = bought_and_waiting(granada())
    seat = state.to_act
    state, _ = apply(state, PlaceBuilding("B3new", "reserve"))
    assert state.components.tile_ids["B3new"] in state.players[seat].reserve
    with pytest.raises(WrongPhase, match="only a tile waiting to be placed"):
        apply(state, TurnOver("B3new", ("o4",)))
    assert all(a.keyword != "turn" for a in legal_actions(state))


def test_alhambra_never_turns_tiles() -> None:
    state, _ = new_game(GameConfig(players=3), 1)
    with pytest.raises(IllegalAction, match="never turned over"):
        apply(state, parse_action("turn G8sw b3"))


def test_turn_notation_round_trips() -> None:
    a = parse_action("turn s2nsw g2+g1")
    assert a == TurnOver("S2nsw", ("g2", "g1"))
    assert parse_action(str(a)) == a


# ------------------------------------------------------------------ modules and the catalogue
def test_modules_refuse_granada() -> None:
    with pytest.raises(ConfigError, match="'vizier' cannot be played with Granada"):
        new_game(GameConfig(players=3, game="granada", modules=("vizier",)), 1)


def test_catalogue_describes_granada() -> None:
    cat = catalogue(GRANADA)
    assert cat["title"] == "Granada" and cat["wall_name"] == "moat" and cat["marker"] is True
    assert cat["turn_over_cost"] == 3 and len(cat["kind_names"]) == 9 and cat["assumptions"]
    assert cat["tiles"]["A2new"]["back"] == "B3new" and cat["tiles"]["B3new"]["back"] == "A2new"
    alh = catalogue(GameConfig(players=3))
    assert alh["title"] == "Alhambra" and alh["marker"] is False and "back" not in alh["tiles"]["G8sw"]
