"""The Vizier's favour: offers between turns, exact money, sleeping and waking, game end."""

from __future__ import annotations

import json

import pytest

from alhambra import GameConfig, GameRecord, apply, legal_actions, new_game, parse_action, replay, state_from_json, state_to_json, view
from alhambra.actions import Action, BuyBuilding, EndTurn, Pass, PlaceBuilding, TakeMoney
from alhambra.errors import IllegalAction, InvalidPayment, NotationError, WrongPhase
from alhambra.events import (
    BuildingPlaced,
    Event,
    GameEnded,
    MarketRefilled,
    MarketTileAwarded,
    Passed,
    TurnEnded,
    TurnStarted,
)
from alhambra.hooks import load_module
from alhambra.modules.vizier import (
    MODULE,
    VizierBuy,
    VizierBuyItem,
    VizierRefill,
    VizierState,
    VizierUsed,
    VizierWake,
    VizierWoken,
    priority_order,
)
from alhambra.state import STAGE_FINAL, BetweenTurns, ChooseAction, GameState, PlaceTiles
from alhambra.testing import check_conservation, set_hand, set_market

# square -> (tile, exact money for it); squares 1-4 take blue, green, orange, yellow
MARKET = {1: ("P4es", "b4"), 2: ("S5sw", "g5"), 3: ("A6sw", "o6"), 4: ("C7sw", "y7")}


def fresh(players: int = 4, seed: int = 3, modules: tuple[str, ...] = ("vizier",), turn_limit: int | None = None) -> GameState:
    """A new game with the market of ``MARKET``; every hand empty."""
    state, _ = new_game(GameConfig(players=players, modules=modules, turn_limit=turn_limit), seed)
    for sq, (tile, _money) in MARKET.items():
        set_market(state, sq, tile)
    for s in range(players):
        set_hand(state, s, [])
    return state


def seats(state: GameState) -> list[int]:
    """The current seat, then the seats after it: s, s+1, s+2, ..."""
    n = state.config.players
    return [(state.current + i) % n for i in range(n)]


def end_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single card of the display, which ends the turn."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, take, top.seat)


def offer(state: GameState) -> BetweenTurns:
    top = state.pending[-1]
    assert isinstance(top, BetweenTurns), top
    return top


def pass_window(state: GameState) -> tuple[GameState, list[Event]]:
    """Everybody asked between turns passes."""
    events: list[Event] = []
    while isinstance(state.pending[-1], BetweenTurns):
        state, evs = apply(state, Pass())
        events += evs
    return state, events


def awake(state: GameState) -> tuple[bool, ...]:
    value = state.mods["vizier"]
    assert isinstance(value, VizierState)
    return value.awake


def set_awake(state: GameState, seat: int, flag: bool) -> None:
    value = state.mods["vizier"]
    assert isinstance(value, VizierState)
    state.mods["vizier"] = value.with_seat(seat, flag)


def everyone_can_pay_exactly(state: GameState) -> list[int]:
    """Seats s, s+1, s+2, s+3 hold exact money for squares 4, 1, 2, 3."""
    order = seats(state)
    for i, seat in enumerate(order):
        set_hand(state, seat, [MARKET[(i + 3) % 4 + 1][1]])
    return order


def everyone_can_pay_exactly_3(state: GameState) -> None:
    """3 players: seats s, s+1, s+2 hold exact money for squares 1, 2, 3."""
    for i, seat in enumerate(seats(state)):
        set_hand(state, seat, [MARKET[i + 1][1]])


# ---------------------------------------------------------------------------------- setup and notation
def test_setup_every_vizier_awake_and_public() -> None:
    state, _ = new_game(GameConfig(players=5, modules=("vizier",)), 1)
    assert awake(state) == (True,) * 5
    assert view(state, None)["module_views"]["vizier"] == {"awake": [True] * 5}
    assert load_module("vizier") is MODULE
    assert MODULE.id == "vizier" and MODULE.assumptions


def test_notation_round_trips() -> None:
    assert parse_action("vizier buy 2 b5+b2") == VizierBuy(2, ("b5", "b2"))
    assert parse_action("Vizier Buy 2 b2+b5") == VizierBuy(2, ("b5", "b2"))
    for text in ("vizier buy 2 b5+b2", "vizier wake", "vizier buy 4 xby+b2+y9", "vizier buy Zb1 b4", "pass"):
        action = parse_action(text)
        assert str(action) == text
        assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action
    assert parse_action("vizier wake") == VizierWake() and parse_action("pass") == Pass()
    assert parse_action("vizier buy Zb1 b4") == VizierBuyItem("Zb1", ("b4",))
    for bad in ("vizier buy -1 b5", "vizier buy 2", "vizier pass", "vizier wake up", "pass now"):
        with pytest.raises(NotationError):
            parse_action(bad)


def test_events_describe_in_past_tense_and_round_trip() -> None:
    for ev, text in (
        (VizierUsed(1, 2, "S5sw", ("g5",)), "player 2 uses the vizier: buys S5sw from square 2 for g5"),
        (Passed(0), "player 1 passes"),
        (VizierWoken(2), "player 3 wakes the vizier"),
    ):
        assert ev.describe() == text
        assert Event.from_dict(json.loads(json.dumps(ev.to_dict()))) == ev


# ---------------------------------------------------------------------------------- priority and skipping
def test_offers_go_in_priority_order_next_player_first_finisher_last() -> None:
    state = fresh()
    s, s1, s2, s3 = everyone_can_pay_exactly(state)
    state, events = end_turn(state)
    assert priority_order(state) == [s1, s2, s3, s]
    assert any(isinstance(e, TurnEnded) and e.seat == s for e in events)
    asked = []
    while isinstance(state.pending[-1], BetweenTurns):
        top = offer(state)
        asked.append(top.seat)
        assert state.to_act == top.seat
        with pytest.raises(IllegalAction):  # out of turn
            apply(state, Pass(), (top.seat + 1) % 4)
        state, events = apply(state, Pass(), top.seat)
        assert events[0] == Passed(top.seat)
    assert asked == [s1, s2, s3, s]
    assert isinstance(state.pending[-1], ChooseAction) and state.current == s1
    assert any(isinstance(e, TurnStarted) and e.seat == s1 for e in events)


def test_every_awake_player_is_asked_even_without_exact_money_sleepers_are_not() -> None:
    """Money is secret: skipping a player who cannot pay exactly would tell everybody so."""
    state = fresh()
    s, s1, s2, s3 = everyone_can_pay_exactly(state)
    set_hand(state, s1, ["b3", "b2", "g9"])  # 5 blue for a 4: only overpayment
    set_awake(state, s3, False)  # can pay exactly, but asleep
    state, _ = end_turn(state)
    assert offer(state) == BetweenTurns(s1, (s2, s))  # s1 asked although it cannot pay; s3 asleep
    assert legal_actions(state) == [Pass()]
    state, events = apply(state, Pass())
    assert events == [Passed(s1)]
    assert offer(state) == BetweenTurns(s2, (s,))
    assert view(state, s1)["pending"] == view(state, s3)["pending"]


def test_with_nobody_able_to_pay_every_awake_player_just_passes() -> None:
    state = fresh()
    s, s1, s2, s3 = seats(state)
    state, events = end_turn(state)
    asked = []
    while isinstance(state.pending[-1], BetweenTurns):
        assert legal_actions(state) == [Pass()]
        asked.append(state.to_act)
        state, events = apply(state, Pass())
    assert asked == [s1, s2, s3, s]
    assert not any(isinstance(e, VizierUsed) for e in events)
    assert isinstance(state.pending[-1], ChooseAction) and state.current == s1


# ---------------------------------------------------------------------------------- exact money
def test_vizier_purchase_needs_exact_money() -> None:
    state = fresh()
    _s, s1, _s2, _s3 = seats(state)
    set_hand(state, s1, ["b4", "b5", "g9"])
    state, _ = end_turn(state)
    assert offer(state).seat == s1
    assert legal_actions(state) == [VizierBuy(1, ("b4",)), Pass()]
    with pytest.raises(InvalidPayment, match="exact"):
        apply(state, VizierBuy(1, ("b5",)))
    with pytest.raises(InvalidPayment, match="exact"):
        apply(state, VizierBuy(1, ("b5", "b4")))
    with pytest.raises(InvalidPayment):  # wrong currency
        apply(state, VizierBuy(2, ("g9",)))
    with pytest.raises(WrongPhase):  # a core purchase is no out-of-turn move
        apply(state, BuyBuilding(1, ("b4",)))
    state, events = apply(state, VizierBuy(1, ("b4",)))
    assert events[0] == VizierUsed(s1, 1, "P4es", ("b4",))
    assert sorted(state.card_code(c) for c in state.players[s1].hand) == ["b5", "g9"]
    assert "b4" in [state.card_code(c) for c in state.discard]
    check_conservation(state)


def test_vizier_can_pay_with_several_cards() -> None:
    state = fresh()
    _s, s1, *_ = seats(state)
    set_hand(state, s1, ["g3", "g2"])
    state, _ = end_turn(state)
    assert VizierBuy(2, ("g3", "g2")) in legal_actions(state)


# ---------------------------------------------------------------------------------- the purchase and its consequences
def test_purchase_no_extra_action_vizier_sleeps_market_refilled_others_asked_again() -> None:
    state = fresh()
    s, s1, s2, s3 = everyone_can_pay_exactly(state)
    turn = state.turn
    state, _ = end_turn(state)
    state, _ = apply(state, Pass(), s1)
    assert offer(state).seat == s2
    state, events = apply(state, VizierBuy(2, ("g5",)), s2)
    assert events[0] == VizierUsed(s2, 2, "S5sw", ("g5",))
    assert awake(state)[s2] is False
    assert state.market[1] == -1
    top = state.pending[-1]
    assert top == PlaceTiles(s2, ("S5sw",), False, "vizier")  # no extra action: only the placement
    assert state.pending[-2] == VizierRefill(s2) and state.pending[-3] == BetweenTurns(s2, (), True)
    acts = legal_actions(state)
    assert PlaceBuilding("S5sw", "reserve") in acts
    assert all(isinstance(a, PlaceBuilding) and a.tile == "S5sw" for a in acts)
    state, events = apply(state, PlaceBuilding("S5sw", "reserve"), s2)
    assert isinstance(events[0], BuildingPlaced)
    assert any(isinstance(e, MarketRefilled) and e.squares == (2,) for e in events)
    assert state.market[1] >= 0
    # "the other players may then decide again": s1, who passed before, is asked first again
    assert offer(state) == BetweenTurns(s1, (s3, s))
    for seat in (s1, s3, s):
        assert offer(state).seat == seat
        state, events = apply(state, Pass(), seat)
    assert state.turn == turn + 1  # the vizier purchase was not a turn
    assert state.pending == [ChooseAction(s1)]  # normal order resumes with the player due next
    assert [state.tile_code(t) for t in state.players[s2].reserve] == ["S5sw"]
    check_conservation(state)


def test_a_second_vizier_can_buy_after_the_first() -> None:
    state = fresh()
    s, s1, s2, s3 = everyone_can_pay_exactly(state)
    state, _ = end_turn(state)
    state, _ = apply(state, VizierBuy(1, ("b4",)), s1)
    state, _ = apply(state, PlaceBuilding("P4es", "reserve"), s1)
    assert offer(state) == BetweenTurns(s2, (s3, s))
    state, _ = apply(state, VizierBuy(2, ("g5",)), s2)
    state, _ = apply(state, PlaceBuilding("S5sw", "reserve"), s2)
    assert offer(state) == BetweenTurns(s3, (s,))
    assert awake(state) == tuple(seat not in (s1, s2) for seat in range(4))


def test_a_sleeping_vizier_is_not_offered_until_woken() -> None:
    state = fresh()
    _s, s1, *_ = seats(state)
    set_hand(state, s1, ["b4", "b4"])
    state, _ = end_turn(state)
    state, _ = apply(state, VizierBuy(1, ("b4",)), s1)
    state, _ = apply(state, PlaceBuilding("P4es", "reserve"), s1)
    state, _ = pass_window(state)
    set_market(state, 1, "A4nes")  # another blue tile priced 4
    assert isinstance(state.pending[-1], ChooseAction) and state.current == s1
    # s1's own turn: taking money ends it; s1 still holds exact money but sleeps
    state, _ = end_turn(state)
    top = state.pending[-1]
    assert not isinstance(top, BetweenTurns) or s1 not in (top.seat, *top.later)
    assert VizierWake() not in legal_actions(state)


def test_two_player_vizier_purchase_may_go_to_the_neutral_player() -> None:
    state = fresh(players=2)
    _s, s1 = seats(state)
    set_hand(state, s1, ["o6"])
    state, _ = end_turn(state)
    state, _ = apply(state, VizierBuy(3, ("o6",)), s1)
    assert state.pending[-1] == PlaceTiles(s1, ("A6sw",), True, "vizier")
    assert PlaceBuilding("A6sw", "neutral") in legal_actions(state)
    neutral = len(state.neutral or [])
    state, _ = apply(state, PlaceBuilding("A6sw", "neutral"), s1)
    assert len(state.neutral or []) == neutral + 1


# ---------------------------------------------------------------------------------- waking
def test_wake_is_a_whole_turn_action_only_while_asleep() -> None:
    state = fresh()
    s = state.current
    assert VizierWake() not in legal_actions(state)
    with pytest.raises(IllegalAction, match="already awake"):
        apply(state, VizierWake(), s)
    set_awake(state, s, False)
    assert VizierWake() in legal_actions(state)
    state, events = apply(state, VizierWake(), s)
    assert events[0] == VizierWoken(s)
    assert awake(state)[s] is True
    assert any(isinstance(e, TurnEnded) and e.seat == s for e in events)  # the action phase is over
    assert state.pending == [BetweenTurns((s + 1) % 4, ((s + 2) % 4, (s + 3) % 4, s))]  # all awake: all asked


def test_wake_may_be_the_extra_action_after_an_exact_purchase() -> None:
    state = fresh()
    s = state.current
    set_hand(state, s, ["b4", "g1"])
    set_awake(state, s, False)
    state, _ = apply(state, BuyBuilding(1, ("b4",)), s)
    assert state.pending[-1] == ChooseAction(s, 1, ("P4es",))
    assert VizierWake() in legal_actions(state) and EndTurn() not in legal_actions(state)
    state, events = apply(state, VizierWake(), s)
    assert events == [VizierWoken(s)]
    assert state.pending[-1] == PlaceTiles(s, ("P4es",), False, "bought")


def test_vizier_actions_outside_their_moment_are_refused() -> None:
    state = fresh()
    with pytest.raises(WrongPhase):
        apply(state, Pass())
    with pytest.raises(WrongPhase):
        apply(state, VizierBuy(1, ("b4",)))
    state = fresh()
    _s, s1, *_ = seats(state)
    set_hand(state, s1, ["b4"])
    state, _ = end_turn(state)
    set_awake(state, s1, False)
    with pytest.raises(WrongPhase):  # waking is a turn action, not an out-of-turn move
        apply(state, VizierWake(), s1)
    state, _ = new_game(GameConfig(players=3), 1)
    with pytest.raises(IllegalAction, match="module"):
        apply(state, VizierWake())


# ---------------------------------------------------------------------------------- end of the game
def test_no_vizier_when_the_market_cannot_be_refilled() -> None:
    state = fresh()
    s, s1, s2, s3 = everyone_can_pay_exactly(state)
    set_hand(state, s, ["y9"])
    state.bag.clear()
    state, events = apply(state, BuyBuilding(4, ("y9",)), s)  # overpays: the turn ends
    state, events = apply(state, PlaceBuilding("C7sw", "reserve"), s)
    assert state.market_exhausted
    assert not any(isinstance(top, BetweenTurns) for top in state.pending)
    assert not any(isinstance(e, Passed | VizierUsed) for e in events)
    assert state.stage == STAGE_FINAL or state.is_over
    # the last tiles went to the players with the most money of each currency
    assert {e.seat for e in events if isinstance(e, MarketTileAwarded)} == {s1, s2, s3}


def test_a_vizier_purchase_that_empties_the_market_closes_the_vizier_window() -> None:
    state = fresh()
    s, s1, s2, s3 = everyone_can_pay_exactly(state)
    state.bag.clear()
    state, _ = end_turn(state)  # nothing bought: the market is still full
    assert offer(state).seat == s1
    state, _ = apply(state, VizierBuy(1, ("b4",)), s1)
    state, events = apply(state, PlaceBuilding("P4es", "reserve"), s1)
    assert state.market_exhausted
    assert not any(isinstance(top, BetweenTurns) for top in state.pending)
    assert not any(isinstance(e, Passed) for e in events)
    awarded = {e.square: e.seat for e in events if isinstance(e, MarketTileAwarded)}
    assert awarded == {2: s2, 3: s3, 4: s}
    while not state.is_over:
        state, events = apply(state, legal_actions(state)[-1])
    assert isinstance(events[-1], GameEnded) and state.outcome == "finished"


def test_no_offer_after_the_last_turn_of_a_turn_limited_game() -> None:
    state = fresh(players=3, turn_limit=1)
    everyone_can_pay_exactly_3(state)
    state, events = end_turn(state)
    assert state.outcome == "truncated"
    assert isinstance(events[-1], GameEnded)
    state = fresh(players=3, turn_limit=2)
    everyone_can_pay_exactly_3(state)
    state, _ = end_turn(state)
    assert isinstance(state.pending[-1], BetweenTurns)


# ---------------------------------------------------------------------------------- persistence and views
def test_state_with_an_open_offer_round_trips_and_views_hide_hands() -> None:
    state = fresh()
    s, s1, s2, s3 = everyone_can_pay_exactly(state)
    set_awake(state, s3, False)
    state, _ = end_turn(state)
    data = json.loads(json.dumps(state_to_json(state)))
    assert data["mods"]["vizier"] == {"awake": [seat != s3 for seat in range(4)]}
    back = state_from_json(data)
    assert back.pending == state.pending and back.mods == state.mods
    assert legal_actions(back) == legal_actions(state)
    v = view(state, s1)
    assert v["pending"] == {"type": "BetweenTurns", "seat": s1, "later": [s2, s], "restart": False}
    assert v["legal_actions"] == ["vizier buy 1 b4", "pass"]
    assert v["module_views"]["vizier"] == {"awake": [seat != s3 for seat in range(4)]}
    assert view(state, s2)["legal_actions"] == []
    with pytest.raises(NotationError):
        MODULE.slice_from_json({"awake": [1, 0]})


def test_record_with_vizier_actions_replays() -> None:
    config = GameConfig(players=3, modules=("vizier",))
    state, _ = new_game(config, 11)
    record = GameRecord(config, 11)
    used = 0
    while not state.is_over and used < 2:
        acts = legal_actions(state)
        pick = next((a for a in acts if isinstance(a, VizierBuy)), None) or next(
            (a for a in acts if isinstance(a, TakeMoney | BuyBuilding | VizierWake)), acts[0]
        )
        used += isinstance(pick, VizierBuy)
        state, _ = apply(state, pick)
        record.actions.append(pick)
    assert used == 2
    text = json.dumps(record.to_json())
    assert "vizier buy" in text
    replayed, _ = replay(GameRecord.from_json(json.loads(text)))
    assert state_to_json(replayed) == state_to_json(state)
