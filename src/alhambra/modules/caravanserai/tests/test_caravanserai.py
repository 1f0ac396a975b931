"""Caravanserai: components, buying a card, the marker move, paying with a marker, the hand-out,
notation, views, persistence, bots."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import Action, BuyBuilding, BuyItem, PlaceBuilding, action_from_dict
from alhambra.engine import money_of, purchase_options
from alhambra.errors import IllegalAction, InvalidPayment, NotationError, WrongPhase
from alhambra.events import BuildingBought, ItemBought, MarketTileAwarded, TurnStarted
from alhambra.hooks import MoneySource, load_module
from alhambra.modules.caravanserai import (
    BRANCH,
    MODULE,
    CaravanseraiMarkerMoved,
    CaravanseraiMarkerSpent,
    CaravanseraiMarkersStayed,
    CaravanseraiMove,
    CaravanseraiState,
    CaravanseraiStay,
    CaravanseraiStep,
    cara_slice,
    card_facts,
    components,
    kinds_built,
    price_for,
    seat_price,
)
from alhambra.state import BetweenTurns, ChooseAction, PlaceTiles
from alhambra.testing import check_conservation, set_hand, set_market
from alhambra.view import view_events

from .helpers import ID, build, end_turn_by_taking, fresh, give, reserve, seats, set_slice, square_of

BLUE, GREEN, ORANGE, YELLOW = range(4)
FOUR = ("pavilion", "seraglio", "arcades", "chambers")
FIVE = (*FOUR, "garden")
SIX = (*FIVE, "tower")


def cara_buys(state: object) -> set[str]:
    return {str(a) for a in legal_actions(state, "buy") if str(a).startswith("buy cara")}  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- components
def test_components_known_tracks_and_the_balanced_assumption() -> None:
    comp = components()
    assert comp.prices == ((4, 8), (5, 4), (6, 2)) and comp.kinds_needed == (4, 5) and comp.max_cards == 2
    assert comp.top_level == 5 and comp.branch_levels == (2, 3, 4) and comp.marker_cubes == 8
    assert len(comp.cards) == 8
    assert Counter(c.currency for c in comp.cards) == Counter({0: 2, 1: 2, 2: 2, 3: 2})
    # the three pictured cards (expansion-facts): green 2 orange, 3 yellow, 4 blue; blue 2 green,
    # 3 orange, 4 yellow; orange 2 green, 3 blue, 4 yellow
    pictured = {c.branches for c in comp.cards if not c.assumed}
    assert pictured == {((2, ORANGE), (3, YELLOW), (4, BLUE)), ((2, GREEN), (3, ORANGE), (4, YELLOW)), ((2, GREEN), (3, BLUE), (4, YELLOW))}
    assert sum(c.assumed for c in comp.cards) == 5
    for card in comp.cards:  # each branch goes to another currency, each other currency once
        assert sorted(cur for _, cur in card.branches) == sorted({0, 1, 2, 3} - {card.currency})
    for level in comp.branch_levels:  # balanced: every currency is the branch of 2 cards at every level
        assert Counter(card.branch_currency(level) for card in comp.cards) == Counter({0: 2, 1: 2, 2: 2, 3: 2})
    assert len({(c.currency, c.branches) for c in comp.cards}) == 8
    assert load_module(ID) is MODULE and MODULE.assumptions and MODULE.component_assumptions
    data = json.loads((__import__("importlib.resources").resources.files("alhambra.modules.caravanserai") / "components.json").read_text())
    assert sum("assumption" in c for c in data["cards"]) == 5


def test_prices_by_kinds() -> None:
    assert [price_for(k) for k in range(7)] == [None, None, None, None, 8, 4, 2]


def test_setup_puts_every_card_into_the_stack_with_markers_on_0() -> None:
    for players in (2, 3, 6):
        state, _ = new_game(GameConfig(players=players, modules=(ID,)), 2)
        assert cara_slice(state) == CaravanseraiState((-1,) * 8, (0,) * 8)
        check_conservation(state)
        assert not isinstance(state.pending[-1], CaravanseraiMove)


# ---------------------------------------------------------------------------------- buying a card
def test_no_card_with_fewer_than_four_kinds_built_and_the_reserve_does_not_count() -> None:
    state = fresh()
    s = state.current
    set_hand(state, s, ["g9", "b9"])
    build(state, s, "pavilion", "seraglio", "arcades")
    reserve(state, s, "chambers", "garden")
    assert kinds_built(state, s) == 3 and seat_price(state, s) is None
    assert cara_buys(state) == set()
    with pytest.raises(IllegalAction, match="cannot be bought"):
        apply(state, BuyItem("cara1", ("g9",)))


@pytest.mark.parametrize(("kinds", "price"), [(FOUR, 8), (FIVE, 4), (SIX, 2)])
def test_the_price_is_8_4_2_for_4_5_6_kinds_in_any_one_currency(kinds: tuple[str, ...], price: int) -> None:
    state = fresh()
    s = state.current
    build(state, s, *kinds)
    build(state, s, "pavilion") if len(kinds) < 6 else None  # a second building of a kind changes nothing
    set_hand(state, s, ["b9", "g9", "o9", "y9"])
    assert seat_price(state, s) == price
    buys = cara_buys(state)
    assert buys == {f"buy cara{n} {c}9" for n in range(1, 9) for c in "bgoy"}  # every card, each currency
    offers = MODULE.offers(state, s, False)
    assert {o.price for o in offers} == {price} and all(not o.out_of_turn and not o.building and o.tile < 0 for o in offers)
    assert offers[0].label == "caravanserai card 1 (denar)"


def test_one_currency_only_exact_gives_another_action_overpaying_ends_it() -> None:
    state = fresh()
    s = state.current
    build(state, s, *FOUR)
    set_hand(state, s, ["g5", "g3", "b4", "b4", "y9"])
    assert "buy cara3 g5+g3" in cara_buys(state) and "buy cara3 b4+b4" in cara_buys(state)
    with pytest.raises(InvalidPayment, match="mix of currencies"):
        apply(state, parse_action("buy cara3 b4+g5"))
    with pytest.raises(InvalidPayment, match="costs 8"):
        apply(state, parse_action("buy cara3 g5"))
    after, events = apply(state, parse_action("buy cara3 g5+g3"))
    assert events[0] == ItemBought(s, "cara3", "caravanserai card 3 (dirham)", ("g5", "g3"), True)
    assert after.pending[-1] == ChooseAction(s, 1)  # exact: another action
    assert cara_slice(after).owners[2] == s and cara_slice(after).spots[2] == 0
    assert "buy cara3" not in " ".join(cara_buys(after)) and len(MODULE.offers(after, s, False)) == 0  # 2nd card needs 5 kinds
    check_conservation(after)
    # overpaid: the action phase ends (no tiles bought, so the turn ends)
    over, _ = apply(state, parse_action("buy cara7 y9"))
    assert over.current != s and cara_slice(over).owners[6] == s


def test_the_second_card_needs_five_kinds_and_nobody_holds_a_third() -> None:
    state = fresh()
    s = state.current
    build(state, s, *FOUR)
    give(state, s, 1)
    set_hand(state, s, ["g8", "g4"])
    assert seat_price(state, s) is None and cara_buys(state) == set()
    build(state, s, "garden")
    assert seat_price(state, s) == 4
    assert "buy cara2 g4" in cara_buys(state)
    after, _ = apply(state, parse_action("buy cara2 g4"))
    assert cara_slice(after).owned(s) == [1, 2]
    build(after, s, "tower")
    assert seat_price(after, s) is None and cara_buys(after) == set()  # at most 2


def test_a_card_bought_by_one_player_is_gone_for_the_others() -> None:
    state = fresh()
    s, t, _ = seats(state)
    give(state, t, 4)
    build(state, s, *SIX)
    set_hand(state, s, ["o2"])
    assert {b.split()[1] for b in cara_buys(state)} == {f"cara{n}" for n in (1, 2, 3, 5, 6, 7, 8)}


def test_the_vizier_cannot_buy_a_card() -> None:
    state = fresh(modules=("vizier",))
    _s, t, _ = seats(state)
    build(state, t, *SIX)
    set_hand(state, t, ["b2", "g2"])
    assert MODULE.offers(state, t, True) == []
    assert not any(isinstance(a, BuyItem) for a in purchase_options(state, t, out_of_turn=True, exact=True))
    after, _ = end_turn_by_taking(state)
    top = after.pending[-1]
    assert isinstance(top, BetweenTurns) and top.seat == t
    assert not any("cara" in str(a) for a in legal_actions(after))
    with pytest.raises(IllegalAction, match="cannot be bought now out of turn"):
        apply(after, parse_action("vizier buy cara1 b2"))


# ---------------------------------------------------------------------------------- the marker move
def test_rulebook_example_two_markers_one_move() -> None:
    """Piece A on 2 ducats (orange card), piece B on 3 denars (blue card): without a move the player
    has 2 ducats and 3 denars; A can go to 2 dirhams or 3 ducats, B to 3 ducats or 4 denars."""
    state = fresh()
    _s, t, _ = seats(state)
    set_slice(state, {5: t, 1: t}, {5: 2, 1: 3})
    assert (card_facts(5).currency, card_facts(1).currency) == (ORANGE, BLUE)
    assert sorted(MODULE.money_sources(state, t), key=lambda m: m.token) == [
        MoneySource("k1", BLUE, 3, ID),
        MoneySource("k5", ORANGE, 2, ID),
    ]
    state, events = end_turn_by_taking(state)
    assert state.pending[-2:] == [ChooseAction(t), CaravanseraiMove(t)]
    assert events.index(next(e for e in events if isinstance(e, TurnStarted))) < len(events)
    acts = {str(a) for a in legal_actions(state)}
    assert acts == {"cara move cara1 forward", "cara move cara1 side", "cara move cara5 forward", "cara move cara5 side", "cara stay"}
    outcomes = {}
    for a in sorted(acts - {"cara stay"}):
        after, evs = apply(state, parse_action(a))
        assert after.pending[-1] == ChooseAction(t)  # one marker only: the turn goes on
        assert isinstance(evs[0], CaravanseraiMarkerMoved)
        outcomes[a] = sorted((CURRENCIES_[m.currency], m.value) for m in MODULE.money_sources(after, t))
    assert outcomes == {
        "cara move cara5 side": sorted([("dirham", 2), ("denar", 3)]),
        "cara move cara5 forward": sorted([("ducat", 3), ("denar", 3)]),
        "cara move cara1 side": sorted([("ducat", 2), ("ducat", 3)]),
        "cara move cara1 forward": sorted([("ducat", 2), ("denar", 4)]),
    }
    after, evs = apply(state, CaravanseraiStay())
    assert evs == [CaravanseraiMarkersStayed(t)] and after.pending[-1] == ChooseAction(t)
    assert cara_slice(after) == cara_slice(state)


CURRENCIES_ = {BLUE: "denar", GREEN: "dirham", ORANGE: "ducat", YELLOW: "florin"}


def test_moves_forward_up_to_5_and_sideways_only_at_2_3_4_into_a_dead_end() -> None:
    state = fresh()
    _s, t, _ = seats(state)
    for spot, expected in [
        (0, ["forward"]),
        (1, ["forward"]),
        (2, ["forward", "side"]),
        (3, ["forward", "side"]),
        (4, ["forward", "side"]),
    ]:
        st = state.copy()
        set_slice(st, {3: t}, {3: spot})
        st, _ = end_turn_by_taking(st)
        assert [a.direction for a in legal_actions(st) if isinstance(a, CaravanseraiStep)] == expected
    # green card 3: 2 orange, 3 yellow, 4 blue
    st = state.copy()
    set_slice(st, {3: t}, {3: 3})
    st, _ = end_turn_by_taking(st)
    after, events = apply(st, parse_action("cara move cara3 side"))
    assert events == [CaravanseraiMarkerMoved(t, "cara3", "side", "yellow", 3)]
    assert cara_slice(after).spots[2] == BRANCH + 3
    assert view_events(events, None)[0]["text"] == f"player {t + 1} moves the marker of caravanserai card 3 sideways to 3 florin"
    # nothing can move at 5 or in a branch: nobody is asked
    for spot in (5, BRANCH + 2, BRANCH + 4):
        st = state.copy()
        set_slice(st, {3: t}, {3: spot})
        st, _ = end_turn_by_taking(st)
        assert st.pending[-1] == ChooseAction(t)


def test_refusals_of_a_marker_move() -> None:
    state = fresh()
    _s, t, u = seats(state)
    set_slice(state, {3: t, 4: t, 6: u}, {3: 5, 4: BRANCH + 2, 6: 1})
    with pytest.raises(WrongPhase, match="first thing"):
        apply(state, CaravanseraiStay())
    give(state, t, 8, 1)  # card 8 can move, so t is asked
    state, _ = end_turn_by_taking(state)
    assert isinstance(state.pending[-1], CaravanseraiMove)
    with pytest.raises(IllegalAction, match="not one of your"):
        apply(state, parse_action("cara move cara6 forward"))
    with pytest.raises(IllegalAction, match="top"):
        apply(state, parse_action("cara move cara3 forward"))
    with pytest.raises(IllegalAction, match="dead end"):
        apply(state, parse_action("cara move cara4 forward"))
    with pytest.raises(IllegalAction, match="no branch at 1"):
        apply(state, parse_action("cara move cara8 side"))
    with pytest.raises(IllegalAction):
        apply(state, parse_action("cara move cara8 forward"), u)  # not u's decision
    with pytest.raises(WrongPhase):
        apply(state, parse_action("buy 1 b4"))  # the move comes first


def test_the_move_is_the_first_thing_of_every_own_turn_only() -> None:
    state = fresh()
    s, t, u = seats(state)
    set_slice(state, {1: s, 2: t})
    state, _events = end_turn_by_taking(state)  # s's turn ends; t is asked first thing
    assert state.pending[-1] == CaravanseraiMove(t)
    state, _ = apply(state, parse_action("cara move cara2 forward"))
    state, _ = end_turn_by_taking(state)  # u holds nothing: no question
    assert state.pending == [ChooseAction(u)]
    state, _ = end_turn_by_taking(state)
    assert state.pending[-1] == CaravanseraiMove(s)


# ---------------------------------------------------------------------------------- paying with a marker
def test_a_marker_pays_like_a_money_card_of_its_currency_and_goes_back_to_0() -> None:
    state = fresh()
    s = state.current
    sq = square_of(state, BLUE)
    set_market(state, sq, "S5sw")
    give(state, s, 1, 3)  # blue card on 3 blue
    set_hand(state, s, ["b2", "g3"])
    buys = {str(a) for a in legal_actions(state, "buy")}
    assert f"buy {sq} k1+b2" in buys and f"buy {sq} k1+b2" in buys
    assert not any("k1" in b and "g3" in b for b in buys)
    with pytest.raises(InvalidPayment):
        apply(state, BuyBuilding(sq, ("k1", "g3")))
    with pytest.raises(InvalidPayment, match="only 3"):
        apply(state, BuyBuilding(sq, ("k1",)))
    after, events = apply(state, BuyBuilding(sq, ("k1", "b2")))
    assert events[0] == BuildingBought(s, sq, "S5sw", ("k1", "b2"), True)
    assert CaravanseraiMarkerSpent(s, "cara1", "blue", 3) in events
    assert view_events([CaravanseraiMarkerSpent(s, "cara1", "blue", 3)], None)[0]["text"] == (
        f"player {s + 1} spends caravanserai card 1 as 3 denar; its marker goes back to 0"
    )
    sl = cara_slice(after)
    assert sl.spots[0] == 0 and sl.owners[0] == s and sl.spent == ()
    assert MODULE.money_sources(after, s) == []  # a marker on 0 is no money
    assert after.pending[-1] == ChooseAction(s, 1, ("S5sw",))
    assert [after.components.card_code[c] for c in after.players[s].hand] == ["g3"]
    check_conservation(after)


def test_a_marker_in_a_branch_pays_in_the_branch_currency() -> None:
    state = fresh()
    s = state.current
    sq = square_of(state, YELLOW)
    set_market(state, sq, "P4es")
    give(state, s, 3, BRANCH + 4)  # green card 3, branch at 4: blue
    give(state, s, 5, BRANCH + 4)  # orange card 5, branch at 4: yellow
    assert {(m.token, m.currency, m.value) for m in MODULE.money_sources(state, s)} == {("k3", BLUE, 4), ("k5", YELLOW, 4)}
    buys = {str(a) for a in legal_actions(state, "buy")}
    assert f"buy {sq} k5" in buys and f"buy {square_of(state, BLUE)} k3" not in buys  # the blue tile costs more
    after, events = apply(state, BuyBuilding(sq, ("k5",)))
    assert CaravanseraiMarkerSpent(s, "cara5", "yellow", 4) in events and cara_slice(after).spots[4] == 0


def test_a_marker_pays_for_a_caravanserai_card_and_for_the_vizier() -> None:
    state = fresh(modules=("vizier",))
    s, t, _ = seats(state)
    build(state, s, *FIVE)
    give(state, s, 7, 4)  # yellow 4
    assert "buy cara1 k7" in cara_buys(state)
    after, events = apply(state, parse_action("buy cara1 k7"))
    assert events[0] == ItemBought(s, "cara1", "caravanserai card 1 (denar)", ("k7",), True)
    assert after.pending[-1] == ChooseAction(s, 1)
    assert cara_slice(after).owned(s) == [1, 7] and cara_slice(after).spots[6] == 0
    # the vizier (out of turn, exact): t's marker pays for a market tile; no marker move then
    sq = square_of(state, GREEN)
    set_market(state, sq, "C7sw")
    give(state, t, 3, 5)  # green 5
    set_hand(state, t, ["g2"])
    state, _ = end_turn_by_taking(state)
    window = state.pending[-1]
    assert isinstance(window, BetweenTurns) and window.seat == t
    assert f"vizier buy {sq} k3+g2" in {str(a) for a in legal_actions(state)}
    state, events = apply(state, parse_action(f"vizier buy {sq} k3+g2"))
    assert CaravanseraiMarkerSpent(t, "cara3", "green", 5) in events
    assert cara_slice(state).spots[2] == 0
    assert state.pending[-1] == PlaceTiles(t, ("C7sw",), False, "vizier")
    assert not any(isinstance(p, CaravanseraiMove) for p in state.pending)


def test_markers_count_in_the_end_of_game_hand_out() -> None:
    state = fresh()
    s, t, u = seats(state)
    give(state, t, 3, 3)  # green 3
    give(state, u, 1, BRANCH + 3)  # blue card, branch at 3: orange 3
    set_hand(state, u, ["g2"])
    set_hand(state, t, ["o2"])
    assert money_of(state, t, GREEN) == 3 and money_of(state, u, GREEN) == 2
    assert money_of(state, u, ORANGE) == 3 and money_of(state, t, ORANGE) == 2
    assert MODULE.held_money(state, t, BLUE) == 0
    # the bag runs out: s buys the last refillable tile; the rest is handed out
    state.players[s].reserve.extend(state.bag)
    state.bag.clear()
    sq = square_of(state, BLUE)
    set_hand(state, s, ["b9"])
    state, _ = apply(state, BuyBuilding(sq, ("b9",)))
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles)
    tile = top.tiles[0]
    state, events = apply(state, PlaceBuilding(tile, "reserve"))
    awards = {e.square: e.seat for e in events if isinstance(e, MarketTileAwarded)}
    assert awards[square_of(state, GREEN)] == t and awards[square_of(state, ORANGE)] == u


# ---------------------------------------------------------------------------------- notation, persistence, views
@pytest.mark.parametrize("text", ["cara move cara3 forward", "cara move cara8 side", "cara stay"])
def test_notation_round_trips(text: str) -> None:
    a = parse_action(text)
    assert str(a) == text and parse_action(str(a)) == a
    assert action_from_dict(json.loads(json.dumps(a.to_dict()))) == a
    assert isinstance(a, Action) and a.module == ID


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("cara move cara9 forward", "no caravanserai card"),
        ("cara move k3 forward", "no caravanserai card"),
        ("cara move cara3 back", "forward|side"),
        ("cara move cara3", "usage"),
        ("cara stay now", "usage"),
    ],
)
def test_bad_notation_is_refused_with_a_reason(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        parse_action(text)


def test_grammar_items_and_tokens() -> None:
    assert CaravanseraiStep.grammar == ("item", "word:forward|side") and CaravanseraiStay.grammar == ()
    config = GameConfig(players=3, modules=(ID,))
    assert MODULE.notation_items(config) == [f"cara{n}" for n in range(1, 9)]
    assert MODULE.payment_tokens(config) == [f"k{n}" for n in range(1, 9)]
    assert CaravanseraiStay.declines and not CaravanseraiStep.declines


def test_json_round_trip_and_junk_is_refused() -> None:
    state = fresh()
    s, t, _ = seats(state)
    set_slice(state, {1: s, 5: t}, {1: 4, 5: BRANCH + 2})
    state, _ = end_turn_by_taking(state)
    data = json.loads(json.dumps(state_to_json(state)))
    back = state_from_json(data)
    assert state_to_json(back) == data and cara_slice(back) == cara_slice(state)
    assert legal_actions(back) == legal_actions(state)
    good = cara_slice(state).to_dict()
    for bad in [
        {**good, "spots": [0] * 7},
        {**good, "spots": [6, 0, 0, 0, 0, 0, 0, 0]},
        {**good, "spots": [BRANCH + 1, 0, 0, 0, 0, 0, 0, 0]},
        {**good, "owners": [-2, 0, 0, 0, 0, 0, 0, 0]},
        {**good, "owners": ["x"] * 8},
        {**good, "spent": [[1, 2]]},
        {"owners": good["owners"]},
        [],
    ]:
        with pytest.raises(NotationError):
            CaravanseraiState.from_dict(bad)


def test_the_view_shows_every_card_track_and_marker_to_everybody() -> None:
    state = fresh()
    s, t, _ = seats(state)
    build(state, s, *FIVE)
    set_slice(state, {1: t}, {1: BRANCH + 3})
    views = [view(state, v)["module_views"][ID] for v in (None, s, t)]
    assert views[0] == views[1] == views[2]
    mv = views[0]
    card = mv["cards"][0]
    assert card == {
        "card": "cara1",
        "number": 1,
        "token": "k1",
        "currency": "blue",
        "branches": [[2, "green"], [3, "orange"], [4, "yellow"]],
        "owner": t,
        "spot": BRANCH + 3,
        "level": 3,
        "in_branch": True,
        "marker_currency": "orange",
        "value": 3,
        "moves": [],
        "assumed": False,
    }
    assert mv["cards"][1]["owner"] is None and mv["cards"][1]["moves"] == [["forward", "blue", 1]]
    assert mv["kinds"][s] == 5 and mv["price"][s] == 4 and mv["price"][t] is None
    assert mv["prices"] == [[4, 8], [5, 4], [6, 2]] and mv["kinds_needed"] == [4, 5] and mv["max_cards"] == 2
    assert MODULE.slice_from_view(mv, state.config) == cara_slice(state)
    # the seat view lists every seat's markers as money outside the hand
    seat_view = view(state, s)
    assert seat_view["seats"][t]["money_sources"] == [{"token": "k1", "currency": "orange", "value": 3, "module": ID}]


# ---------------------------------------------------------------------------------- bots
def test_bot_values_a_card_and_a_higher_marker() -> None:
    state = fresh()
    s, t, _ = seats(state)
    assert MODULE.bot_values(state) is None
    give(state, t, 2, 1)
    low = MODULE.bot_values(state)
    assert low is not None and low[t] > 0 and low[s] == 0
    give(state, t, 2, 2)
    higher = MODULE.bot_values(state)
    assert higher is not None and higher[t] > low[t]
    give(state, t, 2, BRANCH + 2)  # same value, but stuck in a dead end
    side = MODULE.bot_values(state)
    assert side is not None and side[t] < higher[t]
