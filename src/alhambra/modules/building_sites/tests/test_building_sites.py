"""The rules of Building Sites, one by one, with the rulebook's cases and every refusal."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import BuyItem
from alhambra.engine import building_counts
from alhambra.errors import IllegalAction, InvalidPayment, NotationError, WrongPhase
from alhambra.events import ItemBought, MarketTileAwarded
from alhambra.hooks import load_module
from alhambra.modules.building_sites import (
    MODULE,
    SiteChoice,
    SiteCompleted,
    SiteKeep,
    SiteRevealed,
    SitesState,
    SiteTileKept,
    SiteTilesDrawn,
    check_sites,
    components,
    is_site,
    setup_price,
    site_location,
    site_tile_ids,
    sites_slice,
)
from alhambra.state import ChooseAction, PlaceTiles

from .helpers import ID, act, build_at, end_turn, event_types, fresh, give_site, hand, legal, seat_to_act, set_stack


# ---------------------------------------------------------------------------------- components and setup
def test_eight_site_tiles_two_per_currency_lie_in_the_stack() -> None:
    assert components().site_tiles == (0, 0, 1, 1, 2, 2, 3, 3)
    state = fresh()
    sl = sites_slice(state)
    assert sl == SitesState((0, 0, 1, 1, 2, 2, 3, 3))
    check_sites(state)
    mv = view(state, 0)["module_views"][ID]
    assert mv["stack"] == 8 and mv["site_tiles"] == 8 and mv["sites"] == [] and mv["drawn"] is None


def test_half_the_price_rounded_down() -> None:
    assert [setup_price(p) for p in (2, 3, 4, 5, 6, 7, 12, 13)] == [1, 1, 2, 2, 3, 3, 6, 6]


def test_the_module_is_listed_with_its_items() -> None:
    assert load_module(ID) is MODULE
    items = MODULE.notation_items(GameConfig(players=3, modules=(ID,)))
    assert items == ["site1", "site2", "site3", "site4", *(f"fin{i}" for i in range(1, 9))]
    assert MODULE.assumptions and MODULE.component_assumptions == ()


# ---------------------------------------------------------------------------------- setting up a site
def test_a_site_costs_at_least_half_in_the_squares_currency_and_gives_no_extra_action() -> None:
    state = fresh()
    seat = seat_to_act(state)
    hand(state, seat, ["b2", "b1", "g3", "o3", "y3", "y9"])
    offered = [a for a in legal(state) if a.split()[1].startswith("site")]
    # square 1 P4es (blue, half 2), 2 S5sw (green, 2), 3 A6sw (orange, 3), 4 C7sw (yellow, 3)
    assert "buy site1 b2" in offered and "buy site1 b1" not in offered and "buy site1 b2+b1" in offered
    assert "buy site2 g3" in offered and "buy site3 o3" in offered and "buy site4 y3" in offered and "buy site4 y9" in offered
    after, events = act(state, "buy site4 y3")  # exactly half of 7
    bought = next(e for e in events if isinstance(e, ItemBought))
    assert bought.item == "site4" and bought.payment == ("y3",)
    # never regarded as exact: the action phase is over; the tile waits below the secret choice
    assert isinstance(after.pending[-1], SiteChoice) and isinstance(after.pending[-2], PlaceTiles)
    assert after.pending[-2].tiles == ("C7sw",) and not any(isinstance(p, ChooseAction) for p in after.pending)
    assert after.market[3] == -1
    assert event_types(events)[-1] == "SiteTilesDrawn"


def test_an_overpaid_site_is_allowed() -> None:
    state = fresh()
    seat = seat_to_act(state)
    hand(state, seat, ["y9"])
    after, _ = act(state, "buy site4 y9")
    assert isinstance(after.pending[-1], SiteChoice)
    assert [c for c in after.discard if after.components.cards[c].code == "y9"]


def test_refusals_when_setting_up() -> None:
    state = fresh()
    seat = seat_to_act(state)
    hand(state, seat, ["b1", "g2", "y3"])
    with pytest.raises(InvalidPayment, match="costs 2; b1 is only 1"):
        apply(state, BuyItem("site1", ("b1",)), seat)
    with pytest.raises(InvalidPayment, match=r"takes blue \(b\) money, not g2"):
        apply(state, BuyItem("site1", ("g2",)), seat)
    with pytest.raises(IllegalAction, match="'site5' cannot be bought now"):
        apply(state, BuyItem("site5", ("y3",)), seat)
    state.market[0] = -1  # an empty square has no site
    with pytest.raises(IllegalAction, match="'site1' cannot be bought now"):
        apply(state, BuyItem("site1", ("b1",)), seat)


def test_no_site_once_the_stack_is_empty() -> None:
    state = fresh()
    seat = seat_to_act(state)
    set_stack(state, "")
    hand(state, seat, ["y9"])
    assert not [a for a in legal(state) if "site" in a]
    with pytest.raises(IllegalAction, match="cannot be bought now"):
        apply(state, BuyItem("site4", ("y9",)), seat)


def test_the_buyer_keeps_one_of_two_drawn_site_tiles_and_the_other_goes_back() -> None:
    state = fresh()
    seat = seat_to_act(state)
    set_stack(state, "bg")
    hand(state, seat, ["b2"])
    state, events = act(state, "buy site1 b2")
    drawn = next(e for e in events if isinstance(e, SiteTilesDrawn))
    assert drawn.currencies == ("blue", "green") and drawn.count == 2
    sl = sites_slice(state)
    assert sl.stack == () and sl.drawn == (0, 1) and sl.sites[0].currency == -1
    assert legal(state) == ["site keep b", "site keep g"]
    with pytest.raises(IllegalAction, match=r"you drew no orange site tile \(you drew blue and green\)"):
        apply(state, SiteKeep("o"), seat)
    state, events = act(state, "site keep g")
    kept = next(e for e in events if isinstance(e, SiteTileKept))
    assert (kept.kept, kept.returned, kept.forced) == ("green", "blue", False)
    sl = sites_slice(state)
    assert sl.stack == (0,) and sl.drawn == () and sl.sites[0].currency == 1
    # the tile is then placed like any bought tile
    assert legal(state) == ["place P4es 1,0", "place P4es 0,1", "place P4es reserve"]
    state, _ = act(state, "place P4es 1,0")
    assert site_location(state, sites_slice(state).sites[0]) == "alhambra"


def test_two_alike_drawn_tiles_still_ask_the_buyer() -> None:
    """A choice between two site tiles of one currency is still asked: skipping it would tell the others."""
    state = fresh()
    seat = seat_to_act(state)
    set_stack(state, "oo")
    hand(state, seat, ["b2"])
    state, _ = act(state, "buy site1 b2")
    assert isinstance(state.pending[-1], SiteChoice) and legal(state) == ["site keep o"]


def test_the_last_site_tile_is_taken_without_a_choice() -> None:
    state = fresh()
    seat = seat_to_act(state)
    set_stack(state, "y")
    hand(state, seat, ["b2"])
    state, events = act(state, "buy site1 b2")
    kept = next(e for e in events if isinstance(e, SiteTileKept))
    assert (kept.kept, kept.returned, kept.forced) == ("yellow", "", True)
    assert "SiteTilesDrawn" not in event_types(events)
    assert isinstance(state.pending[-1], PlaceTiles)
    assert sites_slice(state).stack == () and sites_slice(state).sites[0].currency == 3


def test_keep_is_refused_without_an_open_choice() -> None:
    state = fresh()
    with pytest.raises(WrongPhase, match="no site tile to choose now"):
        apply(state, SiteKeep("b"), seat_to_act(state))


def test_a_site_can_follow_an_exact_purchase_and_ends_the_action_phase() -> None:
    state = fresh()
    seat = seat_to_act(state)
    hand(state, seat, ["g5", "b2"])
    state, _ = act(state, "buy 2 g5")  # exact: another action
    assert isinstance(state.pending[-1], ChooseAction) and state.pending[-1].actions == 1
    state, _ = act(state, "buy site1 b2")
    state, _ = act(state, legal(state)[0])
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles) and top.tiles == ("S5sw", "P4es")


# ---------------------------------------------------------------------------------- counting
def test_a_site_counts_its_walls_but_not_its_building() -> None:
    state = fresh()
    seat = seat_to_act(state)
    build_at(state, seat, "C7ne", 0, -1)  # a completed chamber north of the fountain
    give_site(state, seat, "C5nsw", "b", x=-1, y=0)  # a site: chambers with walls north, south, west
    counts = building_counts(state, seat)
    assert counts["chambers"] == 1
    walls = view(state, seat)["seats"][seat]["longest_wall"]
    assert walls == geo.longest_wall(state.players[seat].city, state.components.tile_walls) and walls >= 3
    assert is_site(state, state.components.tile_ids["C5nsw"]) and not is_site(state, state.components.tile_ids["C7ne"])
    assert site_tile_ids(state) == frozenset({state.components.tile_ids["C5nsw"]})


def test_a_site_on_the_reserve_board_changes_no_count() -> None:
    state = fresh()
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "b", where="reserve")
    assert building_counts(state, seat)["chambers"] == 0
    state.players[seat].reserve.clear()
    state.players[seat].build(geo.pos(-1, 0), state.components.tile_ids["C5nsw"])
    assert building_counts(state, seat)["chambers"] == 0


# ---------------------------------------------------------------------------------- completing
def test_completing_pays_the_full_price_in_the_site_tiles_currency() -> None:
    state = fresh()
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "o", x=-1, y=0)
    hand(state, seat, ["o3", "o2", "o4", "b5", "g9"])
    offered = [a for a in legal(state) if " fin" in a]
    assert "buy fin1 o3+o2" in offered and "buy fin1 o4+o2" in offered
    assert not [a for a in offered if "b5" in a or "g9" in a]
    with pytest.raises(InvalidPayment, match=r"takes orange \(o\) money, not b5"):
        apply(state, BuyItem("fin1", ("b5",)), seat)
    with pytest.raises(InvalidPayment, match="costs 5; o4 is only 4"):  # not just the difference
        apply(state, BuyItem("fin1", ("o4",)), seat)
    after, events = act(state, "buy fin1 o3+o2")
    done = next(e for e in events if isinstance(e, SiteCompleted))
    assert (done.seat, done.site, done.tile, done.currency) == (seat, 1, "C5nsw", "orange") and SiteCompleted.reveals
    # exact: another action; the building now counts; the site tile left the game
    assert isinstance(after.pending[-1], ChooseAction) and after.pending[-1].actions == 1
    assert building_counts(after, seat)["chambers"] == 1
    sl = sites_slice(after)
    assert sl.sites == () and [s.currency for s in sl.completed] == [2] and sl.stack.count(2) == 1
    assert not [a for a in legal(after) if " fin" in a]


def test_an_overpaid_completion_ends_the_action_phase() -> None:
    state = fresh()
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "o", x=-1, y=0)
    hand(state, seat, ["o9"])
    after, _ = act(state, "buy fin1 o9")
    assert after.current != seat  # the turn is over: the next player acts


def test_a_site_on_the_reserve_board_can_be_completed() -> None:
    state = fresh()
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "y", where="reserve")
    hand(state, seat, ["y5"])
    assert "buy fin1 y5" in legal(state)
    after, _ = act(state, "buy fin1 y5")
    assert sites_slice(after).sites == () and state.components.tile_ids["C5nsw"] in after.players[seat].reserve


def test_only_the_owner_completes_and_only_on_its_turn() -> None:
    state = fresh()
    seat = seat_to_act(state)
    other = (seat + 1) % 3
    give_site(state, other, "C5nsw", "y", x=-1, y=0)
    hand(state, seat, ["y5"])
    assert not [a for a in legal(state) if " fin" in a]
    with pytest.raises(IllegalAction, match="'fin1' cannot be bought now"):
        apply(state, BuyItem("fin1", ("y5",)), seat)


def test_site_numbers_stay_with_their_sites() -> None:
    state = fresh()
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "y", x=-1, y=0)
    give_site(state, seat, "G6esw", "b", where="reserve")
    hand(state, seat, ["y5", "b9"])
    state, _ = act(state, "buy fin1 y5")
    assert [s.item for s in sites_slice(state).sites] == ["fin2"]
    assert "buy fin2 b9" in legal(state)


# ---------------------------------------------------------------------------------- the end of the game
def test_sites_in_the_alhambra_are_revealed_and_their_money_discarded_before_the_hand_out() -> None:
    state = fresh()
    seat = seat_to_act(state)
    other = (seat + 1) % 3
    give_site(state, other, "C5nsw", "b", x=-1, y=0)  # revealed: discards all blue
    give_site(state, other, "G6esw", "g", where="reserve")  # ignored: green stays
    hand(state, other, ["b9", "b8", "g2", "o1"])
    hand(state, seat, ["b1", "y2", "y3"])
    hand(state, (seat + 2) % 3, [])
    # the bag is empty and square 2 too: the refill at the end of this turn ends the game
    state.players[(seat + 2) % 3].reserve.extend([*state.bag, state.market[1]])
    state.bag.clear()
    state.market[1] = -1
    state, events = act(state, "take " + next(a.split()[1] for a in legal(state) if a.startswith("take ")))
    revealed = [e for e in events if isinstance(e, SiteRevealed)]
    assert len(revealed) == 1 and SiteRevealed.reveals
    r = revealed[0]
    assert (r.seat, r.tile, r.currency, r.payment) == (other, "C5nsw", "blue", ("b8", "b9"))
    codes = sorted(state.card_code(c) for c in state.players[other].hand)
    assert codes == ["g2", "o1"]
    # the blue square went to the seat with b1, not to the one that had to discard 17 blue
    awards = [e for e in events if isinstance(e, MarketTileAwarded)]
    assert any(a.square == 1 and a.seat == seat for a in awards)
    assert events.index(r) < events.index(awards[0])
    sl = sites_slice(state)
    assert [(s.tile, s.revealed) for s in sl.sites] == [("C5nsw", True), ("G6esw", False)]
    assert view(state, seat)["module_views"][ID]["sites"][0]["currency"] == "blue"
    assert view(state, seat)["module_views"][ID]["sites"][1]["currency"] is None
    check_sites(state)


def test_a_site_still_counts_nothing_in_the_last_scoring() -> None:
    state = fresh(2)
    seat = seat_to_act(state)
    other = 1 - seat
    give_site(state, seat, "T13e", "b", x=-1, y=0)
    build_at(state, other, "T7new", 0, 1)
    state.players[other].reserve.extend([*state.bag, state.market[1]])
    state.bag.clear()
    state.market[1] = -1
    state.neutral = [t for t in (state.neutral or ()) if state.components.tiles[t].kind != "tower"]
    state, events = act(state, "take " + next(a.split()[1] for a in legal(state) if a.startswith("take ")))
    while not state.is_over:
        state, more = act(state, legal(state)[0])
        events += more
    final = [e for e in events if type(e).__name__ == "RoundScored"][-1]
    assert final.counts["tower"][seat] == 0 and final.counts["tower"][other] == 1  # type: ignore[attr-defined]


def test_a_game_stopped_by_a_turn_limit_reveals_nothing() -> None:
    state = fresh(turn_limit=1)
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "b", x=-1, y=0)
    state, events = end_turn(state)
    assert state.outcome == "truncated" and not [e for e in events if isinstance(e, SiteRevealed)]


# ---------------------------------------------------------------------------------- notation and persistence
@pytest.mark.parametrize("text", ["site keep b", "site keep y", "buy site2 g3", "buy fin3 o4+o3", "vizier buy site1 b2"])
def test_notation_round_trips(text: str) -> None:
    if text.startswith("vizier"):
        load_module("vizier")
    a = parse_action(text)
    assert str(a) == text and parse_action(str(a)) == a
    assert type(a).from_dict(a.to_dict()) == a


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("site keep", "usage: site keep CURRENCY"),
        ("site keep blue", "bad currency 'blue'"),
        ("site keep x", "bad currency"),
        ("site keep b g", "usage"),
    ],
)
def test_bad_notation_is_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action(text)


def test_keep_declares_its_grammar() -> None:
    assert SiteKeep.keyword == "site keep" and SiteKeep.grammar == ("currency",)


def test_json_round_trips_in_the_middle_of_a_choice() -> None:
    state = fresh()
    seat = seat_to_act(state)
    give_site(state, (seat + 1) % 3, "C5nsw", "o", where="reserve")
    hand(state, seat, ["b2"])
    state, _ = act(state, "buy site1 b2")
    data = state_to_json(state)
    back = state_from_json(json.loads(json.dumps(data)))
    assert state_to_json(back) == data and legal_actions(back) == legal_actions(state)
    assert back.mods[ID] == state.mods[ID]


@pytest.mark.parametrize(
    "junk",
    [
        None,
        {"stack": []},
        {"stack": ["blue"] * 8, "sites": [], "drawn": [], "completed": []},
        {"stack": ["purple"], "sites": [], "drawn": [], "completed": []},
        {"stack": ["blue", "blue", "green", "green", "orange", "orange", "yellow"], "sites": [], "drawn": ["yellow"], "completed": []},
    ],
)
def test_a_bad_slice_is_refused(junk: object) -> None:
    with pytest.raises(NotationError):
        SitesState.from_dict(junk)


def test_the_slice_round_trips_with_sites() -> None:
    state = fresh()
    give_site(state, 0, "C5nsw", "o", where="reserve")
    sl = replace(sites_slice(state))
    assert SitesState.from_dict(json.loads(json.dumps(sl.to_dict()))) == sl


def test_a_game_without_sites_plays_the_base_game_purchases() -> None:
    state, _ = new_game(GameConfig(players=3, modules=(ID,)), 4)
    assert all(not str(a).startswith("site keep") for a in legal_actions(state))
