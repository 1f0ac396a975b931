"""The treasure chamber's rules, one by one: the rulebook's example, every rule and every refusal."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action, view
from alhambra.actions import BuyBuilding, BuyItem, ExchangeTiles, MoveToReserve, PlaceBuilding
from alhambra.components import CardType
from alhambra.engine import purchase_options
from alhambra.errors import IllegalAction, InvalidPayment, NotationError, WrongPhase
from alhambra.events import ItemBought, RoundScored, TurnEnded
from alhambra.hooks import Module, MoneySource, load_module
from alhambra.modules.treasure_chamber import (
    CHESTS,
    ITEMS,
    MODULE,
    NEUTRAL,
    ChamberRefilled,
    ChamberRoomLeftEmpty,
    ChamberState,
    ChestLost,
    ChestPut,
    ChestsCounted,
    ChestsPassed,
    ChestsPlaced,
    ChestsReturned,
    TreasureChestPlacement,
    chamber,
    free_buildings,
    recipients,
    sort_chests,
)
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import check_conservation

from .helpers import ID, build, check_chests, drain_bag, end_turn_by_taking, fresh, give_chests, give_neutral, with_hand

G, T, P, A, C, S = "garden", "tower", "pavilion", "arcades", "chambers", "seraglio"
ROOMS3 = ([G, T, T, P], [A, C, S, G], [P, P, S, S])


def buys(state: GameState) -> list[BuyItem]:
    return [a for a in legal_actions(state) if isinstance(a, BuyItem)]


def pay(state: GameState, item: str, *cards: str) -> BuyItem:
    """The listed purchase of ``item`` with exactly these cards (in any order)."""
    got = [a for a in buys(state) if a.item == item and Counter(a.payment) == Counter(cards)]
    assert len(got) == 1, (item, cards, [str(a) for a in buys(state)])
    return got[0]


# ---------------------------------------------------------------------------------- setup
def test_setup_puts_all_42_chests_into_the_bag_and_4_into_each_room() -> None:
    for players in (2, 3, 6):
        state, _ = new_game(GameConfig(players=players, modules=(ID,)), players)
        sl = chamber(state)
        assert [len(r) for r in sl.rooms] == [4, 4, 4]
        assert sum(sl.bag) == 42 - 12
        assert sum(CHESTS.values()) == 42 and CHESTS == {P: 5, S: 5, A: 7, C: 7, G: 9, T: 9}
        assert sl.homes == ((),) * players and not sl.neutral and not sl.closed
        check_chests(state)
    # the chests drawn follow the game's seed
    a, _ = new_game(GameConfig(players=3, modules=(ID,)), 7)
    b, _ = new_game(GameConfig(players=3, modules=(ID,)), 7)
    assert chamber(a) == chamber(b)


# ---------------------------------------------------------------------------------- buying
def test_the_rulebook_example_3_orange_3_blue_4_green_buys_a_room_without_change() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["o3", "b3", "g4", "y2"])
    action = pay(state, "room2", "o3", "b3", "g4")
    after, events = apply(state, action, s)
    bought = next(e for e in events if isinstance(e, ItemBought))
    assert bought.item == "room2" and not bought.exact and bought.label == "the treasure chests of room 2"
    assert [after.components.cards[c].code for c in after.players[s].hand] == ["y2"]  # no change
    assert any(isinstance(e, TurnEnded) for e in events) and after.current != s  # no further action
    check_chests(after)
    check_conservation(after)


def test_an_exact_payment_of_8_gives_no_further_action() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["b5", "y3", "g1"])
    after, events = apply(state, pay(state, "room1", "b5", "y3"), s)
    assert next(e for e in events if isinstance(e, ItemBought)).exact
    assert after.current != s and any(isinstance(e, TurnEnded) for e in events)


def test_less_than_8_cannot_buy_a_room() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["b5", "y2"])
    assert buys(state) == []
    with pytest.raises(InvalidPayment, match="costs 8; b5\\+y2 is only 7"):
        apply(state, BuyItem("room1", ("b5", "y2")), s)


def test_a_card_that_is_not_needed_may_not_be_paid() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["b9", "y1", "g4", "o4"])
    listed = {frozenset(a.payment) for a in buys(state) if a.item == "room1"}
    assert listed == {frozenset({"b9"}), frozenset({"g4", "o4"})}
    with pytest.raises(InvalidPayment, match="not needed"):
        apply(state, BuyItem("room1", ("b9", "y1")), s)
    with pytest.raises(InvalidPayment, match="not needed"):
        apply(state, BuyItem("room1", ("b9", "g4")), s)
    apply(state, pay(state, "room1", "g4", "o4"), s)


def test_every_full_room_is_an_offer_and_an_empty_one_is_not() -> None:
    state = fresh(3, rooms=([G, T, T, P], [], [P, P, S, S]))
    s = state.current
    state = with_hand(state, s, ["b9"])
    assert sorted(a.item for a in buys(state)) == ["room1", "room3"]
    with pytest.raises(IllegalAction, match="'room2' cannot be bought now"):
        apply(state, BuyItem("room2", ("b9",)), s)


def test_chests_cannot_be_bought_out_of_turn_nor_after_the_action_phase() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["b9", "b4"])
    assert not [a for a in purchase_options(state, s, out_of_turn=True) if isinstance(a, BuyItem)]
    after, _ = apply(state, BuyBuilding(1, ("b4",)), s)  # P4es exactly: another action
    assert isinstance(after.pending[-1], ChooseAction) and {a.item for a in buys(after)} == set(ITEMS)
    after, _ = apply(after, pay(after, "room1", "b9"), s)
    assert after.pending[-1] == PlaceTiles(s, ("P4es",), False, "bought")  # the room ended the action phase
    with pytest.raises(WrongPhase):
        apply(with_hand(after, s, ["y9"]), BuyItem("room2", ("y9",)), s)


# ---------------------------------------------------------------------------------- placing the chests
def test_chests_go_into_the_buyers_buildings_of_their_colours_one_each() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    build(state, s, "G10", (1, 0))
    build(state, s, "T11", (-1, 0))
    build(state, s, "P8", (0, 1))
    state = with_hand(state, s, ["b9"])
    after, events = apply(state, pay(state, "room1", "b9"), s)  # garden, tower, tower, pavilion
    placed = [e for e in events if isinstance(e, ChestsPlaced)]
    assert placed == [ChestsPlaced(s, ("P8", "G10", "T11"), (P, G, T))]
    assert chamber(after).homes[s] == ("G10", "P8", "T11")
    nxt, last = (s + 1) % 3, (s + 2) % 3
    assert [e for e in events if isinstance(e, ChestsPassed | ChestsReturned)] == [
        ChestsPassed(s, nxt, (T,)),
        ChestsPassed(nxt, last, (T,)),
        ChestsReturned((T,)),
    ]
    check_chests(after)


def test_leftover_chests_pass_to_the_left_and_the_first_who_can_place_them_does() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    nxt, last = (s + 1) % 3, (s + 2) % 3
    build(state, s, "T11", (1, 0))
    build(state, last, "T12", (1, 0))
    build(state, last, "G10", (-1, 0))
    build(state, nxt, "P8", (1, 0))
    state = with_hand(state, s, ["b9"])
    after, events = apply(state, pay(state, "room1", "b9"), s)  # garden, tower, tower, pavilion
    assert [e for e in events if isinstance(e, ChestsPlaced)] == [
        ChestsPlaced(s, ("T11",), (T,)),
        ChestsPlaced(nxt, ("P8",), (P,)),
        ChestsPlaced(last, ("G10", "T12"), (G, T)),
    ]
    assert recipients(state, s) == (nxt, last)
    assert not any(isinstance(e, ChestsReturned) for e in events)
    check_chests(after)


def test_with_two_players_the_neutral_player_takes_leftovers_first() -> None:
    state = fresh(2, rooms=ROOMS3)
    s = state.current
    other = 1 - s
    give_neutral(state, ["G11", "T9ne", "C5nsw", "S3esw", "A9", "P2new"])
    build(state, other, "G10", (1, 0))
    build(state, other, "T12", (-1, 0))
    state = with_hand(state, s, ["b9"])
    assert recipients(state, s) == (NEUTRAL, other)
    after, events = apply(state, pay(state, "room1", "b9"), s)  # garden, tower, tower, pavilion
    assert [e for e in events if isinstance(e, ChestsPassed | ChestsPlaced | ChestsReturned)] == [
        ChestsPassed(s, NEUTRAL, (P, G, T, T)),
        ChestsPlaced(NEUTRAL, ("P2new", "G11", "T9ne"), (P, G, T)),
        ChestsPassed(NEUTRAL, other, (T,)),
        ChestsPlaced(other, ("T12",), (T,)),
    ]
    assert chamber(after).neutral == ("G11", "P2new", "T9ne")
    assert "the neutral player puts 3 treasure chests" in events[[type(e) for e in events].index(ChestsPlaced)].describe()
    check_chests(after)


def test_the_player_chooses_the_building_when_there_are_more_than_chests() -> None:
    state = fresh(3, rooms=([G, T, T, P], [A, C, S, G], [P, P, S, S]))
    s = state.current
    build(state, s, "G10", (1, 0))
    build(state, s, "G11", (-1, 0))
    build(state, s, "T11", (0, 1))
    build(state, s, "A9", (0, -1))
    state = with_hand(state, s, ["b9"])
    after, events = apply(state, pay(state, "room2", "b9"), s)  # arcades, chambers, seraglio, garden
    assert [e for e in events if isinstance(e, ChestsPlaced)] == [ChestsPlaced(s, ("A9",), (A,))]  # no choice for the arcades
    top = after.pending[-1]
    assert top == TreasureChestPlacement(s, (S, C, G), recipients(state, s), 2)
    assert after.to_act == s and chamber(after).rooms[1] == ()
    assert legal_actions(after) == [ChestPut((-1, 0)), ChestPut((1, 0))]  # the two gardens, west first
    # refusals, each with its reason
    for target, reason in [
        ((5, 5), "there is no building at 5,5"),
        ((0, 0), "is no building of the six kinds"),
        ((0, 1), "you have no purple chest to put into T11"),
        ((0, -1), "A9 at 0,-1 already holds a treasure chest"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            apply(after, ChestPut(target), s)
    with pytest.raises(IllegalAction):
        apply(after, ChestPut((1, 0)), (s + 1) % 3)  # not this seat's decision
    done, more = apply(after, ChestPut((1, 0)), s)
    assert more[0] == ChestsPlaced(s, ("G10",), (G,))
    assert chamber(done).homes[s] == ("A9", "G10")
    assert any(isinstance(e, ChamberRefilled) and e.room == 2 for e in more)
    assert any(isinstance(e, TurnEnded) for e in more) and done.current != s
    check_chests(done)


def test_another_player_receiving_leftovers_chooses_during_the_buyers_turn() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    nxt = (s + 1) % 3
    build(state, nxt, "T11", (1, 0))
    build(state, nxt, "T12", (-1, 0))
    build(state, nxt, "T9ne", (0, 1))
    state = with_hand(state, s, ["b9"])
    after, _ = apply(state, pay(state, "room1", "b9"), s)  # garden, tower, tower, pavilion
    top = after.pending[-1]
    assert isinstance(top, TreasureChestPlacement) and top.seat == nxt and after.current == s
    assert Counter(top.chests)[T] == 2 and len(legal_actions(after)) == 3
    mid, _ = apply(after, ChestPut((0, 1)), nxt)
    assert isinstance(mid.pending[-1], TreasureChestPlacement)  # one more tower to place, still a choice of two
    done, events = apply(mid, ChestPut((1, 0)), nxt)
    assert chamber(done).homes[nxt] == ("T11", "T9ne")
    assert any(isinstance(e, TurnEnded) and e.seat == s for e in events)
    check_chests(done)


def test_buildings_bought_this_turn_take_chests_but_not_the_reserve_board() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["b4", "y9"])
    state, _ = apply(state, BuyBuilding(1, ("b4",)), s)  # P4es, exactly: another action
    state, _ = apply(state, pay(state, "room1", "y9"), s)  # garden, tower, tower, pavilion
    built, events = apply(state, PlaceBuilding("P4es", (1, 0)), s)
    assert ChestsPlaced(s, ("P4es",), (P,)) in events
    reserved, events = apply(state, PlaceBuilding("P4es", "reserve"), s)
    assert not any(isinstance(e, ChestsPlaced) and e.seat == s for e in events)
    assert chamber(built).homes[s] == ("P4es",) and chamber(reserved).homes[s] == ()
    check_chests(built)
    check_chests(reserved)


def test_chests_are_placed_only_in_the_turn_they_are_bought() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["b9"])
    state, _ = apply(state, pay(state, "room1", "b9"), s)  # nobody has a building: all back into the bag
    assert sum(len(h) for h in chamber(state).homes) == 0
    build(state, s, "G10", (1, 0))  # a garden built later takes nothing by itself
    state, _ = end_turn_by_taking(state)
    assert chamber(state).homes[s] == ()


def test_a_building_site_takes_no_chest(monkeypatch: pytest.MonkeyPatch) -> None:
    from alhambra import hooks

    class Sites(Module):
        """Probe: G10 is a building site wherever it stands."""

        id = "zz_sites"

        def unbuilt_tiles(self, state: GameState, seat: int) -> list[int]:
            return [state.components.tile_ids["G10"]]

    monkeypatch.setitem(hooks._CACHE, "zz_sites", Sites())
    try:
        state = fresh(3, modules=("zz_sites",), rooms=ROOMS3)
        s = state.current
        build(state, s, "G10", (1, 0))
        build(state, s, "G11", (-1, 0))
        build(state, s, "G12s", (0, 1))
        assert free_buildings(state, s)[G] == ["G11", "G12s"]
        state = with_hand(state, s, ["b9"])
        after, _ = apply(state, pay(state, "room1", "b9"), s)
        assert legal_actions(after) == [ChestPut((-1, 0)), ChestPut((0, 1))]
        with pytest.raises(IllegalAction, match="not built yet"):
            apply(after, ChestPut((1, 0)), s)
    finally:
        for mods in [k for k in hooks._BY_CONFIG if "zz_sites" in k]:
            del hooks._BY_CONFIG[mods]
        for used in [k for k in hooks._USERS if "zz_sites" in k[0]]:
            del hooks._USERS[used]


def test_no_chest_is_to_be_placed_outside_a_placement() -> None:
    state = fresh(3, rooms=ROOMS3)
    with pytest.raises(WrongPhase, match="only at the end of the turn in which they were bought"):
        apply(state, ChestPut((1, 0)), state.current)


# ---------------------------------------------------------------------------------- refill
def test_chests_nobody_places_go_back_into_the_bag_before_the_room_is_refilled() -> None:
    state = fresh(3, rooms=ROOMS3)
    aside = drain_bag(state, [])  # the bag is empty but for what comes back
    s = state.current
    state = with_hand(state, s, ["b9"])
    after, events = apply(state, pay(state, "room3", "b9"), s)  # pavilion, pavilion, seraglio, seraglio
    assert ChestsReturned((P, P, S, S)) in events
    assert ChamberRefilled(3, (P, P, S, S)) in events
    assert chamber(after).rooms[2] == (P, P, S, S) and sum(chamber(after).bag) == 0
    check_chests(after, aside)


def test_the_refill_is_a_random_draw_that_replays_exactly() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["b9"])
    a, ea = apply(state, pay(state, "room1", "b9"), s)
    b, eb = apply(state, pay(state, "room1", "b9"), s)
    assert ea == eb and chamber(a) == chamber(b)
    other = state.copy()
    other.seed += 1  # another seed draws other chests (most of the time)
    draws = set()
    for k in range(6):
        other.seed = state.seed + 1 + k
        c, _ = apply(other, pay(other, "room1", "b9"), s)
        draws.add(chamber(c).rooms[0])
        check_chests(c)
    assert len(draws) > 1


def test_with_fewer_than_4_chests_in_the_bag_the_room_stays_empty_for_good() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    for code, xy in (("G10", (1, 0)), ("T11", (-1, 0)), ("T12", (0, 1)), ("P8", (0, -1))):
        build(state, s, code, xy)
    aside = drain_bag(state, [C, C])
    state = with_hand(state, s, ["b9"])
    after, events = apply(state, pay(state, "room1", "b9"), s)  # all four go into buildings
    assert ChamberRoomLeftEmpty(1, 2) in events
    sl = chamber(after)
    assert sl.rooms[0] == () and sl.closed
    check_chests(after, aside)
    # later chests come back into the bag (4 now), yet no room is refilled any more
    s2 = after.current
    after = with_hand(after, s2, ["y9"])
    again, events = apply(after, pay(after, "room3", "y9"), s2)
    assert ChestsReturned((P, P, S, S)) in events
    assert not any(isinstance(e, ChamberRefilled | ChamberRoomLeftEmpty) for e in events)
    assert chamber(again).rooms == ((), (S, A, C, G), ()) and sum(chamber(again).bag) == 6
    check_chests(again, aside)


# ---------------------------------------------------------------------------------- removal
def test_a_building_that_leaves_the_alhambra_sends_its_chest_back_to_the_bag() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    build(state, s, "G10", (1, 0))
    build(state, s, "T11", (-1, 0))
    give_chests(state, s, ["G10", "T11"])
    bag_before = chamber(state).bag
    after, events = apply(state, MoveToReserve("G10"), s)
    assert ChestLost(s, "G10", G) in events
    assert "G10 leaves the Alhambra of player" in ChestLost(s, "G10", G).describe()
    assert chamber(after).homes[s] == ("T11",)
    assert chamber(after).bag[4] == bag_before[4] + 1
    check_chests(after)
    # an exchange with a reserve tile takes the tile out too
    state.players[s].reserve.append(state.bag.pop(state.bag.index(state.components.tile_ids["T12"])))
    after, events = apply(state, ExchangeTiles("T12", "T11"), s)
    assert ChestLost(s, "T11", T) in events and chamber(after).homes[s] == ("G10",)
    check_chests(after)
    check_conservation(after)


# ---------------------------------------------------------------------------------- scoring
def _with_counts(state: GameState, counts: list[int], neutral: int = 0) -> None:
    """Give the seats (and the neutral player) chests in that many buildings (gardens and towers)."""
    codes = ["G6esw", "G7nsw", "G8sw", "G8ne", "G8nw", "G9e", "G10n", "G10w", "G10", "G11", "G12s"]
    for s, n in enumerate(counts):
        mine = codes[:n]
        del codes[:n]
        for i, code in enumerate(mine):
            build(state, s, code, (i + 1, 0))
        give_chests(state, s, mine)
    if neutral:
        give_neutral(state, codes[:neutral])
        give_chests(state, NEUTRAL, codes[:neutral])


def test_the_most_chests_score_7_then_14_7_then_22_14_7_ties_as_for_buildings() -> None:
    state = fresh(4, rooms=ROOMS3)
    _with_counts(state, [3, 3, 1, 0])
    assert MODULE.round_points(state, 1) == [3, 3, 0, 0]  # 7 shared by two, rounded down
    assert MODULE.round_points(state, 2) == [10, 10, 0, 0]  # 14 + 7 shared
    assert MODULE.round_points(state, 3) == [18, 18, 7, 0]  # 22 + 14 shared, then 7
    state = fresh(4, rooms=ROOMS3)
    _with_counts(state, [1, 4, 2, 2])
    assert MODULE.round_points(state, 1) == [0, 7, 0, 0]
    assert MODULE.round_points(state, 2) == [0, 14, 3, 3]
    assert MODULE.round_points(state, 3) == [0, 22, 10, 10]
    check_chests(state)


def test_the_neutral_player_scores_his_chests() -> None:
    """2-player rules: "In the scoring rounds Dirk is awarded points for having" the most
    buildings; treasure chamber: "treasure chests which are not able to be placed are always
    first passed on to Dirk (our virtual 3rd player), where they are placed in matching
    buildings." One bookkeeping for every module (docs/rules-notes.md, issue 24): his chest points
    are his, the last entry of ``round_points``, added to his score like the medina penalties."""
    state = fresh(2, rooms=ROOMS3)
    _with_counts(state, [2, 0], neutral=3)
    assert MODULE.round_points(state, 1) == [0, 0, 7]  # the neutral player has the most
    assert MODULE.round_points(state, 2) == [7, 0, 14]
    assert MODULE.round_points(state, 3) == [14, 0, 22]
    state = fresh(2, rooms=ROOMS3)
    _with_counts(state, [2, 1], neutral=2)
    assert MODULE.round_points(state, 1) == [3, 0, 3]  # tied with him: 7 shared
    check_chests(state)


def test_a_scoring_round_adds_the_chest_points() -> None:
    state = fresh(3, rooms=ROOMS3)
    _with_counts(state, [0, 2, 1])
    state.scoring_queue.append(1)
    neutral_score = state.neutral_score
    after, events = end_turn_by_taking(state)
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.extra[ID] == (0, 7, 0)
    assert after.neutral_score == neutral_score
    counted = next(e for e in events if isinstance(e, ChestsCounted))
    assert events.index(counted) < events.index(scored)
    assert counted == ChestsCounted(1, (0, 2, 1), (0, 7, 0))
    assert counted.describe() == "scoring round 1, treasure chests: player 1 0, player 2 2, player 3 1; player 2 +7"
    two = fresh(2, rooms=ROOMS3)
    _with_counts(two, [2, 0], neutral=3)
    two.scoring_queue.append(1)
    before = two.neutral_score
    after2, events = end_turn_by_taking(two)
    assert after2.neutral_score - before == next(e for e in events if isinstance(e, RoundScored)).neutral_points
    counted = next(e for e in events if isinstance(e, ChestsCounted))
    assert counted == ChestsCounted(1, (2, 0), (0, 0), 3, 7)
    assert "the neutral player +7" in counted.describe()
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.extra[ID] == (0, 0, 7) and scored.neutral_points >= 7


# ---------------------------------------------------------------------------------- notation, JSON, view
def test_notation_round_trips_and_clear_errors() -> None:
    load_module(ID)
    for text in ("chest put 1,-2", "chest put 0,3"):
        a = parse_action(text)
        assert isinstance(a, ChestPut) and str(a) == text and parse_action(str(a)) == a
        assert type(a).from_dict(a.to_dict()) == a
    assert parse_action("buy room2 b5+g3") == BuyItem("room2", ("b5", "g3"))
    with pytest.raises(NotationError, match="usage: chest put X,Y"):
        parse_action("chest put")
    with pytest.raises(NotationError, match="bad position"):
        parse_action("chest put north")
    assert MODULE.notation_items(GameConfig(players=3, modules=(ID,))) == ["room1", "room2", "room3"]
    assert ChestPut.keyword == "chest put" and ChestPut.grammar == ("cell",)


def test_the_slice_survives_json_and_junk_is_refused() -> None:
    state = fresh(2, rooms=ROOMS3)
    _with_counts(state, [1, 2], neutral=1)
    sl = replace(chamber(state), bought=(G,), room=2, closed=True)
    data = json.loads(json.dumps(MODULE.slice_to_json(sl)))
    assert MODULE.slice_from_json(data) == sl
    for bad in ({}, {**data, "bag": [1, 2]}, {**data, "rooms": [["lantern"], [], []]}, {**data, "room": 9}, {**data, "closed": 1}):
        with pytest.raises(NotationError):
            ChamberState.from_dict(bad)


def test_the_view_is_public_and_rebuilds_the_slice() -> None:
    state = fresh(2, rooms=ROOMS3)
    _with_counts(state, [1, 2], neutral=1)
    views = [view(state, v)["module_views"][ID] for v in (None, 0, 1)]
    assert views[0] == views[1] == views[2]
    mv = views[0]
    assert mv["rooms"] == [list(sort_chests(r)) for r in ROOMS3] and mv["price"] == 8
    assert mv["seats"][1]["count"] == 2 and mv["seats"][0]["chests"] == [{"tile": "G6esw", "kind": G, "x": 1, "y": 0}]
    assert mv["neutral"]["count"] == 1 and mv["leaders"] == [1]
    assert mv["bag_total"] == sum(chamber(state).bag)
    assert MODULE.slice_from_view(json.loads(json.dumps(mv)), state.config) == chamber(state)


def test_the_view_shows_the_chests_being_placed() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    build(state, s, "G10", (1, 0))
    build(state, s, "G11", (-1, 0))
    state = with_hand(state, s, ["b9"])
    after, _ = apply(state, pay(state, "room1", "b9"), s)
    mv = view(after, None)["module_views"][ID]
    assert mv["placing"] == {"seat": s, "chests": [P, G, T, T], "later": list(recipients(state, s)), "room": 1}
    assert MODULE.slice_from_view(mv, after.config) == chamber(after)


# ---------------------------------------------------------------------------------- bots
def test_bot_values_count_the_chest_majority_of_the_rounds_to_come() -> None:
    state = fresh(3, rooms=ROOMS3)
    assert MODULE.bot_values(state) == [0.0, 0.0, 0.0]
    _with_counts(state, [2, 1, 0])
    v = MODULE.bot_values(state)
    assert v is not None and v[0] == pytest.approx(7 + 0.8 * 14 + 0.6 * 22) and v[1] == pytest.approx(0.8 * 7 + 0.6 * 14)
    state.rounds_scored = 2
    assert MODULE.bot_values(state) == pytest.approx([22.0, 14.0, 0.0])


def test_bot_values_count_chests_still_on_their_way() -> None:
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    build(state, s, "G10", (1, 0))
    build(state, s, "G11", (-1, 0))
    state = with_hand(state, s, ["b9"])
    after, _ = apply(state, pay(state, "room1", "b9"), s)  # the garden chest waits for the choice
    v = MODULE.bot_values(after)
    assert v is not None and v[s] == max(v) > 0
    # bought but not yet placed: the tile waiting to be placed counts as built
    state = fresh(3, rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["b4", "y9"])
    state, _ = apply(state, BuyBuilding(1, ("b4",)), s)
    state, _ = apply(state, pay(state, "room1", "y9"), s)
    assert isinstance(state.pending[-1], PlaceTiles) and chamber(state).bought
    v = MODULE.bot_values(state)
    assert v is not None and v[s] == max(v) > 0


def test_describe_texts_read_as_sentences() -> None:
    assert ChestsPassed(0, NEUTRAL, (G, G, T)).describe() == (
        "player 1 cannot place 3 treasure chest(s) (2 green, 1 purple): they pass to the neutral player"
    )
    assert ChestsReturned((P,)).describe() == "the treasure chest(s) nobody can place (1 blue) go back into the bag"
    assert (
        ChamberRefilled(2, (A, A, C, T)).describe() == "room 2 of the treasure chamber is refilled from the bag: 2 brown, 1 white, 1 purple"
    )
    assert "room 3 stays empty" in ChamberRoomLeftEmpty(3, 2).describe()
    assert ChestsPlaced(1, ("G10",), (G,)).describe() == "player 2 puts 1 treasure chest into buildings (green into G10)"


# ---------------------------------------------------------------------------------- other money
class _Money(Module):
    """Probe: the currency ``diamond`` (cards ``dm5``, ``dm4``, on the deck) and a blue coin ``zc``
    worth 1 held outside the hand by every seat until spent (like change coins)."""

    id = "zz_money"

    def extra_currencies(self, config: GameConfig) -> list[str]:
        return ["diamond"]

    def extra_cards(self, config: GameConfig) -> list[CardType]:
        return [CardType("dm5", "money", 4, 5, self.id), CardType("dm4", "money", 4, 4, self.id)]

    def setup(self, state: GameState, rng: random.Random) -> None:
        state.deck.extend(i for i, c in enumerate(state.components.cards) if c.module == self.id)
        state.mods[self.id] = (1,) * state.config.players

    def money_sources(self, state: GameState, seat: int) -> list[MoneySource]:
        return [MoneySource("zc", 0, 1, self.id)] * state.mods[self.id][seat]

    def source_spent(self, state: GameState, seat: int, source: MoneySource) -> None:
        coins = list(state.mods[self.id])
        coins[seat] -= 1
        state.mods[self.id] = tuple(coins)

    def payment_tokens(self, config: GameConfig) -> list[str]:
        return ["zc"]

    def slice_to_json(self, value: Any) -> Any:
        return list(value)

    def slice_from_json(self, data: Any) -> Any:
        return tuple(data)


@pytest.fixture
def money(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from alhambra import hooks

    monkeypatch.setitem(hooks._CACHE, "zz_money", _Money())
    yield
    for mods in [k for k in hooks._BY_CONFIG if "zz_money" in k]:
        del hooks._BY_CONFIG[mods]
    for used in [k for k in hooks._USERS if "zz_money" in k[0]]:
        del hooks._USERS[used]


def test_diamonds_pay_for_chests_on_their_own_and_coins_held_outside_the_hand_pay_too(money: None) -> None:
    state = fresh(3, modules=("zz_money",), rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["dm5", "dm4", "b7", "g2"])
    listed = {frozenset(a.payment) for a in buys(state) if a.item == "room1"}
    assert frozenset({"dm5", "dm4"}) in listed  # diamonds alone
    assert frozenset({"b7", "zc"}) in listed and frozenset({"b7", "g2"}) in listed  # the coin pays like a blue 1
    assert not any(p & {"dm5", "dm4"} and p & {"b7", "g2", "zc"} for p in listed)  # never mixed
    with pytest.raises(InvalidPayment, match="cannot be paid with this mix"):
        apply(state, BuyItem("room1", ("b7", "dm4")), s)
    after, events = apply(state, pay(state, "room1", "b7", "zc"), s)
    assert after.mods["zz_money"][s] == 0  # the coin was spent
    assert next(e for e in events if isinstance(e, ItemBought)).exact
    after, _ = apply(state, pay(state, "room1", "dm5", "dm4"), s)
    check_chests(after)


def test_exchange_cards_are_not_used_for_chests() -> None:
    state = fresh(3, modules=("currency_exchange",), rooms=ROOMS3)
    s = state.current
    state = with_hand(state, s, ["xbg", "b4", "g4"])
    assert all("xbg" not in a.payment for a in buys(state))
    with pytest.raises(InvalidPayment):
        apply(state, BuyItem("room1", ("b4", "g4", "xbg")), s)
