"""Master builders: components, setup, money rules, the extra redesign, refusals, notation,
secret cards and views."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import Action, BuyBuilding, PlaceBuilding, TakeMoney, action_from_dict, canonical_cards, parse_cards
from alhambra.components import BASE_TILE_CODES, base_money_cards
from alhambra.engine import build_components, money_of
from alhambra.errors import IllegalAction, IllegalPlacement, NotationError, WrongPhase
from alhambra.events import AlhambraRedesigned, BuildingBought, Event, GameStarted, TurnEnded
from alhambra.hooks import load_module
from alhambra.modules.master_builders import (
    CARD_CODES,
    MODULE,
    MasterBuildersBuild,
    MasterBuildersChoice,
    MasterBuildersDeclined,
    MasterBuildersExchange,
    MasterBuildersRemove,
    MasterBuildersRevealed,
    MasterBuildersSkip,
    MasterBuildersState,
    MasterBuildersUsed,
    builder_cards_in_hand,
    card_ids,
    pile_shares,
)
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import check_conservation, set_market

from .situations import MB, arrange, build, clear_hands, fresh, set_display, slice_of, to_reserve

BLUE, GREEN, ORANGE, YELLOW = range(4)


def codes(state: GameState, ids: list[int] | tuple[int, ...]) -> list[str]:
    return sorted(state.card_code(c) for c in ids)


def of_type(events: list[Event], kind: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def bought_to_reserve(hand: list[str], secret: list[str] | None = None, seed: int = 3) -> tuple[GameState, int]:
    """The current seat holds ``hand``, buys the pavilion P4es on square 1 with b9 (overpaid: no
    extra action) and puts it on its reserve board: the turn's actions and placements are done."""
    state = fresh(seed=seed)
    seat = state.current
    clear_hands(state)
    arrange(state, seat, hand, secret or [])
    set_market(state, 1, "P4es")
    state, _ = apply(state, BuyBuilding(1, ("b9",)), seat)
    state, _ = apply(state, PlaceBuilding("P4es", "reserve"), seat)
    return state, seat


# ---------------------------------------------------------------------------------- components
def test_sixteen_money_cards_worth_three_four_per_currency() -> None:
    comp = build_components(GameConfig(players=3, modules=(MB,)))
    mb = [c for c in comp.cards if c.module == MB]
    assert len(mb) == 16
    assert Counter(c.code for c in mb) == {"mb3": 4, "mg3": 4, "mo3": 4, "my3": 4}
    assert all(c.kind == "money" and c.is_money and c.value == 3 for c in mb)
    assert {c.code: c.currency for c in mb} == {"mb3": BLUE, "mg3": GREEN, "mo3": ORANGE, "my3": YELLOW}
    assert {c.code for c in mb}.isdisjoint({c.code for c in base_money_cards(3)} | {"S1", "S2"} | set(BASE_TILE_CODES))
    assert all(comp.money_value[code] == 3 for code in CARD_CODES)
    assert CARD_CODES == ("mb3", "mg3", "mo3", "my3")
    assert load_module(MB) is MODULE and MODULE.assumptions and MODULE.component_assumptions == ()


def test_codes_are_read_and_sorted_like_cards() -> None:
    assert parse_cards("MY3+y9+mb3") == ("mb3", "my3", "y9")  # module cards first, then money high to low
    assert canonical_cards(["b2", "mb3", "b5"]) == ("mb3", "b5", "b2")


# ---------------------------------------------------------------------------------- setup
@pytest.mark.parametrize("players, seed, set_aside, pile5", [(2, 1, 6, 3), (3, 2, 4, 3), (4, 3, 2, 3), (5, 4, 0, 3), (6, 5, 0, 1)])
def test_setup_two_secret_cards_each_then_piles_three_and_five(players: int, seed: int, set_aside: int, pile5: int) -> None:
    state, events = new_game(GameConfig(players=players, modules=(MB,)), seed)
    check_conservation(state)
    comp = state.components
    mb = set(card_ids(state))
    sl = slice_of(state)
    for s, p in enumerate(state.players):
        assert len([c for c in p.hand if c in mb]) == 2
        assert sorted(sl.secret[s]) == sorted(c for c in p.hand if c in mb)
    assert len(sl.set_aside) == set_aside and sl.removed == ()
    assert pile_shares(players) == ((2, 3), (4, pile5))
    assert not mb & {c for c in state.display if c >= 0}
    # the starting money is the base game's, face up, and alone decides who starts
    started = events[0]
    assert isinstance(started, GameStarted)
    assert not any(code in CARD_CODES for money in started.starting_money for code in money)
    for s, money in enumerate(started.starting_money):
        assert Counter(money) == Counter(state.card_code(c) for c in state.players[s].hand if c not in mb)
    totals = [(len(m), sum(comp.money_value[c] for c in m), s) for s, m in enumerate(started.starting_money)]
    assert started.starting_player == min(totals)[2] == state.current
    # rebuild the five piles: equal shares of the base money, +1 scoring card in piles 2 and 4, + master builders in 3 and 5
    base_money = sum(1 for c in state.deck if comp.card_is_money[c] and c not in mb)
    size, extra = divmod(base_money, 5)
    adds = {2: 3, 4: pile5}
    sizes = [size + (i < extra) + (i in (1, 3)) + adds.get(i, 0) for i in range(5)]
    assert sum(sizes) == len(state.deck)
    top_first = state.deck[::-1]
    piles, at = [], 0
    for k in sizes:
        piles.append(top_first[at : at + k])
        at += k
    assert [sum(c in mb for c in pile) for pile in piles] == [0, 0, 3, 0, pile5]
    assert [sum(comp.cards[c].kind == "scoring" for c in pile) for pile in piles] == [0, 1, 0, 1, 0]


def test_the_deal_and_the_cards_set_aside_change_with_the_seed() -> None:
    deals = set()
    for seed in range(6):
        state, _ = new_game(GameConfig(players=3, modules=(MB,)), seed)
        sl = slice_of(state)
        deals.add((tuple(codes(state, sl.secret[0])), tuple(codes(state, sl.set_aside))))
    assert len(deals) > 1


# ---------------------------------------------------------------------------------- as money
def test_taken_from_the_display_like_money_at_most_five_together() -> None:
    state = fresh()
    seat = state.current
    clear_hands(state)
    set_display(state, ["mb3", "b2", "g3", "my3"])
    acts = legal_actions(state)
    value = state.components.money_value
    assert TakeMoney(("mb3", "b2")) in acts and TakeMoney(("my3", "b2")) in acts
    assert TakeMoney(("mb3",)) in acts and TakeMoney(("my3",)) in acts
    assert not any(isinstance(a, TakeMoney) and len(a.cards) > 1 and sum(value[c] for c in a.cards) > 5 for a in acts)
    with pytest.raises(IllegalAction, match="at most 5; these total 6"):
        apply(state, parse_action("take mb3+g3"), seat)
    state, events = apply(state, parse_action("take mb3+b2"), seat)
    assert "mb3" in codes(state, state.players[seat].hand)
    assert not any(isinstance(e, MasterBuildersRevealed) for e in events)  # taken face up
    check_conservation(state)


def test_rulebook_example_two_yellow_master_builders_and_a_yellow_nine() -> None:
    """Two yellow master-builder cards and a yellow 9: the player may buy the (purple) tower on
    the yellow square with them, or keep them for a later turn."""
    state = fresh()
    seat = state.current
    clear_hands(state)
    arrange(state, seat, ["my3", "my3", "y9"], ["my3", "my3"])
    set_market(state, 4, "T12")
    acts = legal_actions(state)
    assert BuyBuilding(4, ("my3", "y9")) in acts  # exactly 12
    assert BuyBuilding(4, ("my3", "my3", "y9")) in acts  # 15
    assert BuyBuilding(4, ("y9",)) not in acts  # the 9 alone is not enough
    assert any(isinstance(a, TakeMoney) for a in acts)  # or keep the cards and take money
    state, events = apply(state, parse_action("buy 4 my3+y9"), seat)
    bought = events[0]
    assert isinstance(bought, BuildingBought) and bought.exact and bought.payment == ("my3", "y9")
    assert codes(state, state.players[seat].hand) == ["my3"]
    sl = slice_of(state)
    assert codes(state, sl.removed) == ["my3"]  # out of the game, not on the discard pile
    assert "my3" not in codes(state, state.discard) and "y9" in codes(state, state.discard)
    assert of_type(events, MasterBuildersRevealed) == [MasterBuildersRevealed(seat, "my3")]
    assert MasterBuildersRevealed.reveals
    assert state.pending[-1] == ChooseAction(seat, 1, ("T12",))  # exact: another action
    check_conservation(state)


def test_final_hand_out_counts_them_as_money() -> None:
    state = fresh()
    seat = state.current
    clear_hands(state)
    arrange(state, seat, ["my3", "y2", "mb3"], ["mb3"])
    assert money_of(state, seat, YELLOW) == 5
    assert money_of(state, seat, BLUE) == 3
    assert money_of(state, seat, GREEN) == 0


def test_paying_with_a_copy_seen_taken_reveals_nothing() -> None:
    """The seat holds a secret my3 and a my3 everybody saw it take: paying one my3 shows nothing
    new (the others cannot tell the copies apart); the one left counts as the secret one."""
    state = fresh()
    seat = state.current
    clear_hands(state)
    arrange(state, seat, ["my3", "b5"], ["my3"])
    set_display(state, ["my3", "g6", "o7", "b8"])
    state, _ = apply(state, TakeMoney(("my3",)), seat)
    while state.to_act != seat or not isinstance(state.pending[-1], ChooseAction):
        other = state.to_act
        assert other is not None
        act = next((a for a in legal_actions(state) if isinstance(a, TakeMoney)), legal_actions(state)[-1])
        state, _ = apply(state, act, other)
    set_market(state, 4, "P3sw")
    assert len(slice_of(state).secret[seat]) == 1
    state, events = apply(state, BuyBuilding(4, ("my3",)), seat)
    assert not of_type(events, MasterBuildersRevealed)
    sl = slice_of(state)
    assert codes(state, sl.secret[seat]) == ["my3"] and sl.secret[seat][0] in state.players[seat].hand
    check_conservation(state)


# ---------------------------------------------------------------------------------- the extra redesign
def test_asked_at_the_end_of_the_turn_after_placing() -> None:
    state, seat = bought_to_reserve(["b9", "my3"], ["my3"])
    assert state.pending == [MasterBuildersChoice(seat)]
    acts = legal_actions(state)
    assert acts == legal_actions(state, MB)
    assert set(acts) == {
        MasterBuildersBuild("my3", "P4es", (1, 0)),
        MasterBuildersBuild("my3", "P4es", (0, 1)),
        MasterBuildersSkip(),
    }
    assert acts[-1] == MasterBuildersSkip()


def test_extra_redesign_builds_from_the_reserve_and_the_card_leaves_the_game() -> None:
    state, seat = bought_to_reserve(["b9", "my3", "mb3"], ["my3", "mb3"])
    assert {a.card for a in legal_actions(state) if isinstance(a, MasterBuildersBuild)} == {"mb3", "my3"}
    state, events = apply(state, parse_action("builder build my3 P4es 1,0"), seat)
    assert events[:3] == [
        MasterBuildersUsed(seat, ("my3",)),
        MasterBuildersRevealed(seat, "my3"),
        AlhambraRedesigned(seat, "build", "P4es", 1, 0),
    ]
    assert isinstance(events[3], TurnEnded)
    p = state.players[seat]
    assert state.tile_code(p.city[geo.pos(1, 0)]) == "P4es"
    assert p.reserve == []
    assert codes(state, p.hand) == ["mb3"]
    sl = slice_of(state)
    assert codes(state, sl.removed) == ["my3"] and codes(state, sl.secret[seat]) == ["mb3"]
    assert "my3" not in codes(state, state.discard)
    # only one card per turn: the turn is over, the next seat is to act
    assert not any(isinstance(p_, MasterBuildersChoice) for p_ in state.pending)
    assert state.current != seat
    check_conservation(state)


def test_extra_redesign_remove_and_exchange() -> None:
    state = fresh()
    seat = state.current
    clear_hands(state)
    arrange(state, seat, ["b9", "mo3"])
    build(state, seat, "S4ne", 1, 0)
    to_reserve(state, seat, "A5nw")
    set_market(state, 1, "P4es")
    state, _ = apply(state, BuyBuilding(1, ("b9",)), seat)
    state, _ = apply(state, PlaceBuilding("P4es", "reserve"), seat)
    acts = legal_actions(state)
    assert MasterBuildersRemove("mo3", "S4ne") in acts
    assert MasterBuildersExchange("mo3", "P4es", "S4ne") in acts  # P4es is open to the west, like S4ne
    assert MasterBuildersExchange("mo3", "A5nw", "S4ne") not in acts  # A5nw has a wall to the west
    removed, events = apply(state, MasterBuildersRemove("mo3", "S4ne"), seat)
    assert AlhambraRedesigned(seat, "remove", "S4ne", 1, 0) in events
    assert sorted(removed.tile_code(t) for t in removed.players[seat].reserve) == ["A5nw", "P4es", "S4ne"]
    check_conservation(removed)
    swapped, events = apply(state, MasterBuildersExchange("mo3", "P4es", "S4ne"), seat)
    assert AlhambraRedesigned(seat, "exchange", "P4es", 1, 0, "S4ne") in events
    assert sorted(swapped.tile_code(t) for t in swapped.players[seat].reserve) == ["A5nw", "S4ne"]
    assert not of_type(events, MasterBuildersRevealed)  # mo3 was not a secret card here
    check_conservation(swapped)


def test_declining_keeps_the_card() -> None:
    state, seat = bought_to_reserve(["b9", "my3"], ["my3"])
    state, events = apply(state, parse_action("builder skip"), seat)
    assert events[0] == MasterBuildersDeclined(seat)
    assert isinstance(events[1], TurnEnded)
    assert codes(state, state.players[seat].hand) == ["my3"]
    assert slice_of(state).removed == ()


def test_not_asked_without_a_master_builder_card() -> None:
    state, seat = bought_to_reserve(["b9"])
    assert not any(isinstance(p, MasterBuildersChoice) for p in state.pending)
    assert state.current != seat


def test_not_asked_when_no_redesign_is_possible() -> None:
    state = fresh()
    seat = state.current
    clear_hands(state)
    arrange(state, seat, ["my3"], ["my3"])
    state, _ = apply(state, next(a for a in legal_actions(state) if isinstance(a, TakeMoney)), seat)
    assert not any(isinstance(p, MasterBuildersChoice) for p in state.pending)
    assert state.current != seat


def test_asked_after_a_turn_of_taking_money_too() -> None:
    state = fresh()
    seat = state.current
    clear_hands(state)
    arrange(state, seat, ["my3"])
    to_reserve(state, seat, "P4es")
    state, _ = apply(state, next(a for a in legal_actions(state) if isinstance(a, TakeMoney)), seat)
    assert state.pending == [MasterBuildersChoice(seat)]


def test_refusals_say_why() -> None:
    state, seat = bought_to_reserve(["b9", "my3"], ["my3"])
    with pytest.raises(IllegalPlacement, match="P4es cannot go to 0,-1: adjoining sides must both have a wall or both be open"):
        apply(state, parse_action("builder build my3 P4es 0,-1"), seat)
    with pytest.raises(IllegalAction, match="you do not hold the master-builder card mb3"):
        apply(state, parse_action("builder build mb3 P4es 1,0"), seat)
    with pytest.raises(IllegalAction, match="b9 is not a master-builder card"):
        apply(state, parse_action("builder build b9 P4es 1,0"), seat)
    with pytest.raises(IllegalAction, match="G8sw is not on your reserve board"):
        apply(state, parse_action("builder build my3 G8sw 1,0"), seat)
    with pytest.raises(IllegalAction, match="P4es is not in your Alhambra"):
        apply(state, parse_action("builder remove my3 P4es"), seat)
    with pytest.raises(IllegalAction, match="it is not your turn"):
        apply(state, parse_action("builder skip"), (seat + 1) % 5)
    # not during the turn's actions
    fresh_state = fresh()
    with pytest.raises(WrongPhase, match="only at the end of your own turn"):
        apply(fresh_state, parse_action("builder skip"), fresh_state.current)


def test_builder_actions_need_the_module() -> None:
    state, _ = new_game(GameConfig(players=3), 1)
    with pytest.raises(IllegalAction, match="needs the 'master_builders' module"):
        apply(state, MasterBuildersSkip(), state.current)


# ---------------------------------------------------------------------------------- notation
ACTIONS: list[Action] = [
    MasterBuildersBuild("my3", "G8sw", (1, -2)),
    MasterBuildersRemove("mb3", "T9ne"),
    MasterBuildersExchange("mo3", "T9ne", "G8sw"),
    MasterBuildersSkip(),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_notation_round_trips(action: Action) -> None:
    assert parse_action(str(action)) == action
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    keyword = type(action).keyword
    assert str(action).startswith(keyword) and len(str(action).split()) == len(keyword.split()) + len(type(action).grammar)


def test_notation_reads_case_and_rejects_junk() -> None:
    assert parse_action("Builder Build MY3 g8sw 1,-2") == MasterBuildersBuild("my3", "G8sw", (1, -2))
    with pytest.raises(NotationError, match="usage: builder build"):
        parse_action("builder build my3 G8sw")
    with pytest.raises(NotationError, match="one master-builder card"):
        parse_action("builder remove my3+mb3 G8sw")
    with pytest.raises(NotationError, match="usage: builder skip"):
        parse_action("builder skip now")


# ---------------------------------------------------------------------------------- secrets and views
def test_views_show_counts_of_the_other_seats_secret_cards() -> None:
    state = fresh(players=3, seed=4)
    sl = slice_of(state)
    for viewer in (0, 1, 2):
        mv = view(state, viewer)["module_views"][MB]
        assert mv["held"] == [2, 2, 2] and mv["secret"] == [2, 2, 2]
        assert mv["own_secret"] == codes(state, sl.secret[viewer])
        assert mv["set_aside"] == 4 and mv["removed"] == []
        assert sum(mv["unseen"].values()) == 16 - 2
    spectator = view(state, None)["module_views"][MB]
    assert spectator["own_secret"] is None and sum(spectator["unseen"].values()) == 16


def _swap_secret(state: GameState, seat: int) -> GameState:
    """The same game except that one of ``seat``'s secret cards is of another face (swapped with
    a master-builder card of the draw pile)."""
    other = state.copy()
    sl = slice_of(other)
    mine = sl.secret[seat][0]
    face = other.card_code(mine)
    j = next(i for i, c in enumerate(other.deck) if c in card_ids(other) and other.card_code(c) != face)
    new = other.deck[j]
    other.deck[j] = mine
    hand = other.players[seat].hand
    hand[hand.index(mine)] = new
    secret = list(sl.secret)
    secret[seat] = tuple(new if c == mine else c for c in secret[seat])
    other.mods[MB] = MasterBuildersState(tuple(secret), sl.set_aside, sl.removed)
    check_conservation(other)
    return other


def test_no_view_tells_another_seat_which_cards_were_dealt_face_down() -> None:
    state = fresh(players=3, seed=4)
    other = _swap_secret(state, 1)
    for viewer in (0, 2, None):
        assert view(state, viewer) == view(other, viewer)
    assert view(state, 1) != view(other, 1)
    # also at the end-of-turn question of that seat
    state, seat = bought_to_reserve(["b9", "my3", "mb3"], ["my3", "mb3"])
    other = _swap_secret(state, seat)
    for viewer in range(5):
        if viewer != seat:
            assert view(state, viewer) == view(other, viewer)


def test_state_json_round_trip_with_the_question_open() -> None:
    state, _ = bought_to_reserve(["b9", "my3"], ["my3"])
    data = json.loads(json.dumps(state_to_json(state)))
    back = state_from_json(data)
    assert state_to_json(back) == data
    assert legal_actions(back) == legal_actions(state)
    assert MasterBuildersState.from_dict(json.loads(json.dumps(slice_of(state).to_dict()))) == slice_of(state)
    with pytest.raises(NotationError):
        MasterBuildersState.from_dict({"secret": [[1]], "set_aside": ["x"], "removed": []})


def test_cards_held_are_public_counts() -> None:
    state = fresh(players=3, seed=4)
    assert [len(builder_cards_in_hand(state, s)) for s in range(3)] == [2, 2, 2]
    assert isinstance(state.pending[-1], ChooseAction | PlaceTiles)
