"""The thieves: dealing, who is asked between turns, taking one card per thief, priority, refusals,
scoring cards drawn by a thief's refill, the vizier, views and the bots' sampler."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import Action, BuyBuilding, Pass, PlaceBuilding
from alhambra.bots import EventLog, observe
from alhambra.bots.tracker import Sampler, Tracker
from alhambra.engine import money_of
from alhambra.errors import IllegalAction, NotationError, WrongPhase
from alhambra.events import DisplayRefilled, Event, MoneyTaken, Passed, RoundScored, ScoringCardDrawn, TurnStarted
from alhambra.hooks import load_module
from alhambra.modules.thieves import (
    ALL_THIEVES,
    DEALT,
    MODULE,
    PER_CURRENCY,
    ThiefPlay,
    ThiefPlayed,
    ThievesState,
    check_thieves,
)
from alhambra.modules.vizier import VizierBuy
from alhambra.state import STAGE_FINAL, ChooseAction, GameState
from alhambra.testing import check_conservation, set_hand, set_market
from alhambra.view import view_events

from .helpers import (
    asked,
    display_codes,
    end_turn,
    fresh,
    letters,
    order_after,
    put_on_deck_top,
    set_display,
    set_thieves,
    thieves,
    window,
)

DISPLAY = ("b4", "g2", "o7", "y9")


def opened(
    players: int = 4, hands: dict[int, str] | None = None, display: tuple[str, ...] = DISPLAY, modules: tuple[str, ...] = ("thieves",)
) -> GameState:
    """The window after the first turn: the seats ``order_after`` gets thieves by position
    (``hands`` maps a position in that order, 0 = next to play, to currency letters)."""
    state = fresh(players, modules=modules)
    order = [(state.current + 1 + i) % players for i in range(players)]
    set_thieves(state, {order[i]: h for i, h in (hands or {}).items()})
    state, _ = end_turn(state)
    set_display(state, display)
    return state


def by_position(state: GameState, i: int) -> int:
    return order_after(state)[i]


def play(state: GameState, text: str) -> tuple[GameState, list[Event]]:
    top = window(state)
    return apply(state, parse_action(text), top.seat)


def pass_all(state: GameState) -> tuple[GameState, list[Event]]:
    got: list[Event] = []
    while state.pending and type(state.pending[-1]).__name__ == "BetweenTurns":
        state, evs = apply(state, Pass(), window(state).seat)
        got += evs
    return state, got


# ---------------------------------------------------------------------------------- setup and components
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_the_thieves_face_down(players: int) -> None:
    state, _ = new_game(GameConfig(players=players, modules=("thieves",)), 7)
    value = thieves(state)
    per_player = {2: 4, 3: 4, 4: 3, 5: 2, 6: 2}[players]
    assert DEALT[players] == per_player
    assert [len(h) for h in value.hands] == [per_player] * players
    assert len(value.aside) == 12 - per_player * players and value.played == ()
    assert Counter(ALL_THIEVES) == Counter({0: 3, 1: 3, 2: 3, 3: 3}) and PER_CURRENCY == 3
    check_thieves(state)
    check_conservation(state)  # thieves are not cards of the money deck
    assert len(state.components.cards) == len(new_game(GameConfig(players=players), 7)[0].components.cards)


def test_the_deal_is_random_and_fixed_by_the_seed() -> None:
    deals = {tuple(thieves(new_game(GameConfig(players=3, modules=("thieves",)), seed)[0]).hands) for seed in range(8)}
    assert len(deals) > 4
    a = thieves(new_game(GameConfig(players=3, modules=("thieves",)), 5)[0])
    assert a == thieves(new_game(GameConfig(players=3, modules=("thieves",)), 5)[0])


def test_module_metadata() -> None:
    assert load_module("thieves") is MODULE
    assert MODULE.id == "thieves" and MODULE.title and MODULE.description
    assert len(MODULE.assumptions) >= 5 and MODULE.component_assumptions == ()


# ---------------------------------------------------------------------------------- notation
def test_notation_round_trips() -> None:
    assert parse_action("thief b4") == ThiefPlay("b4")
    assert parse_action("Thief B4") == ThiefPlay("b4")
    for text in ("thief b4", "thief y9", "thief g1"):
        action = parse_action(text)
        assert str(action) == text
        assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action
    assert ThiefPlay.keyword == "thief" and ThiefPlay.grammar == ("card",)
    # one card per thief: never several cards (worth up to 5) as with 'take'
    for bad in ("thief", "thief b2+b3", "thief b4 b5", "thief 4", "thief b-4"):
        with pytest.raises(NotationError):
            parse_action(bad)


def test_the_event_is_public_reveals_the_thief_and_round_trips() -> None:
    ev = ThiefPlayed(1, "orange")
    assert ev.describe() == "player 2 plays an orange thief"
    assert ThiefPlayed(0, "blue").describe() == "player 1 plays a blue thief"
    assert ThiefPlayed.reveals
    assert Event.from_dict(json.loads(json.dumps(ev.to_dict()))) == ev
    assert ev.seen_by(0) == ev and ev.seen_by(None) == ev


# ---------------------------------------------------------------------------------- who is asked
def test_no_thief_before_the_first_turn() -> None:
    state = fresh(4)
    assert isinstance(state.pending[-1], ChooseAction)
    assert not any(isinstance(a, ThiefPlay) for a in legal_actions(state))


def test_the_next_player_is_never_asked_the_one_who_just_finished_last() -> None:
    state = opened(4, {0: "b", 1: "g", 2: "o", 3: "y"})
    order = order_after(state)
    assert asked(state) == order[1:]  # the next player (order[0]) is skipped, the one who just played is last
    assert order[-1] == state.current


def test_seats_without_thieves_are_not_asked() -> None:
    state = opened(4, {0: "b", 2: "o"})
    assert asked(state) == [by_position(state, 2)]


def test_a_seat_with_thieves_is_asked_even_when_no_card_matches() -> None:
    """Thieves are secret: skipping a seat whose thieves match nothing would tell the table."""
    state = opened(4, {1: "bb"}, display=("g2", "g3", "o7", "y9"))
    assert asked(state) == [by_position(state, 1)]
    assert legal_actions(state) == [Pass()]


def test_nobody_holding_thieves_means_no_window() -> None:
    state = fresh(3)
    set_thieves(state, {})
    finished = state.current
    state, _ = end_turn(state)
    top = state.pending[-1]
    assert isinstance(top, ChooseAction) and top.seat == (finished + 1) % 3


def test_may_interrupt_depends_on_public_facts_only() -> None:
    a = opened(4, {1: "b", 2: "g"})
    b = a.copy()
    set_thieves(b, {by_position(b, 1): "y", by_position(b, 2): "o"})
    for s in range(4):
        assert MODULE.may_interrupt(a, s) == MODULE.may_interrupt(b, s)


def test_two_players_the_one_who_just_finished_may_play_thieves() -> None:
    """With 2 players the only seat that may use a thief is the one whose turn has just ended."""
    state = opened(2, {0: "bb", 1: "gg"})
    finished = state.current
    assert asked(state) == [finished]
    assert ThiefPlay("g2") in legal_actions(state)
    state, _ = play(state, "thief g2")
    assert asked(state) == [finished]  # asked again: may play another thief
    assert Pass() in legal_actions(state) and letters(thieves(state).hands[finished]) == "g"


# ---------------------------------------------------------------------------------- playing a thief
def test_a_thief_takes_one_card_of_its_currency_and_the_display_is_refilled() -> None:
    state = opened(4, {1: "bg"})
    seat = by_position(state, 1)
    assert sorted(map(str, legal_actions(state))) == ["pass", "thief b4", "thief g2"]
    deck_before = len(state.deck)
    state, events = play(state, "thief b4")
    assert "b4" in [state.card_code(c) for c in state.players[seat].hand]
    assert letters(thieves(state).hands[seat]) == "g"
    assert thieves(state).played == ((seat, 0),)
    assert -1 not in state.display and len(state.deck) == deck_before - 1
    kinds = [type(e) for e in events]
    assert kinds[:3] == [ThiefPlayed, MoneyTaken, DisplayRefilled]
    assert events[0] == ThiefPlayed(seat, "blue") and events[1] == MoneyTaken(seat, ("b4",))
    refilled = events[2]
    assert isinstance(refilled, DisplayRefilled) and refilled.slots == (1,)
    check_thieves(state)
    check_conservation(state)


def test_several_thieves_one_after_another() -> None:
    """'A player may play several thieves at the same time. After each thief is used, the card
    taken is replaced so that there are 4 face-up money cards once more.'"""
    state = opened(4, {1: "bbg"}, display=("b4", "b6", "g2", "y9"))
    seat, nxt = by_position(state, 1), by_position(state, 0)
    put_on_deck_top(state, ["o1", "o2", "o3"])
    state, _ = play(state, "thief b6")
    assert display_codes(state) == ["b4", "o1", "g2", "y9"]
    assert window(state).seat == seat  # asked again from the top of the order
    state, _ = play(state, "thief b4")
    assert display_codes(state) == ["o2", "o1", "g2", "y9"]
    state, _ = play(state, "thief g2")
    assert display_codes(state) == ["o2", "o1", "o3", "y9"]
    assert thieves(state).hands[seat] == ()
    assert sorted(state.card_code(c) for c in state.players[seat].hand) == ["b4", "b6", "g2"]
    # no thief left: the seat is not asked any more, and the next turn starts
    top = state.pending[-1]
    assert isinstance(top, ChooseAction) and top.seat == nxt


def test_equal_cards_give_one_action_and_other_currencies_none() -> None:
    state = opened(3, {1: "o"}, display=("o3", "o3", "b5", "g5"))
    assert sorted(map(str, legal_actions(state))) == ["pass", "thief o3"]


def test_priority_the_player_first_in_the_order_of_play_gets_the_card() -> None:
    """'If several players want to take a certain money card at the same time, the player who is
    first in the order of play has priority.'"""
    state = opened(4, {1: "yo", 2: "y"}, display=("b4", "g2", "o7", "y9"))
    first, second = by_position(state, 1), by_position(state, 2)
    assert asked(state) == [first, second]
    put_on_deck_top(state, ["b1"])
    state, _ = play(state, "thief y9")
    assert window(state).seat == first  # everybody is asked again from the top
    state, _ = apply(state, Pass(), first)
    assert window(state).seat == second
    assert ThiefPlay("y9") not in legal_actions(state)  # the card is gone
    assert "y9" in [state.card_code(c) for c in state.players[first].hand]


def test_a_later_player_may_act_after_an_earlier_one_passes() -> None:
    state = opened(4, {1: "b", 3: "b"})
    later = by_position(state, 3)
    state, _ = apply(state, Pass(), by_position(state, 1))
    assert window(state).seat == later
    state, events = play(state, "thief b4")
    assert isinstance(events[0], ThiefPlayed) and events[0].seat == later


# ---------------------------------------------------------------------------------- refusals
def test_refusals_have_readable_reasons() -> None:
    state = opened(4, {1: "b", 2: "g"}, display=("b4", "g2", "o7", "y9"))
    seat = window(state).seat
    with pytest.raises(IllegalAction, match="not face up in the display"):
        apply(state, ThiefPlay("b5"), seat)
    with pytest.raises(IllegalAction, match="you hold no green thief"):
        apply(state, ThiefPlay("g2"), seat)
    with pytest.raises(IllegalAction, match="you hold no orange thief"):
        apply(state, ThiefPlay("o7"), seat)
    # during a turn
    turn = fresh(4)
    set_thieves(turn, {s: "bgoy"[s] for s in range(4)})
    set_display(turn, ("b4", "g2", "o7", "y9"))
    with pytest.raises(WrongPhase, match="only between turns"):
        apply(turn, ThiefPlay("b4"), turn.current)


def test_a_seat_without_thieves_is_refused() -> None:
    """Reached only when another module (the vizier) asks a seat that holds no thief."""
    state = opened(4, {1: "b"}, modules=("thieves", "vizier"))
    assert asked(state) == order_after(state)  # the vizier asks everybody awake
    with pytest.raises(IllegalAction, match="you play next"):
        apply(state, ThiefPlay("b4"), window(state).seat)
    state, _ = apply(state, Pass(), window(state).seat)
    assert window(state).seat == by_position(state, 1)
    state, _ = apply(state, Pass(), window(state).seat)
    with pytest.raises(IllegalAction, match="you hold no thief"):
        apply(state, ThiefPlay("b4"), window(state).seat)


def test_an_exchange_card_is_not_money_for_a_thief() -> None:
    state = opened(3, {1: "bgoy"}, display=("b4", "xby", "g2", "o7"), modules=("currency_exchange", "thieves"))
    assert sorted(map(str, legal_actions(state))) == ["pass", "thief b4", "thief g2", "thief o7"]
    with pytest.raises(IllegalAction, match="not a money card"):
        apply(state, ThiefPlay("xby"), window(state).seat)


def test_the_next_player_may_use_the_vizier_but_not_a_thief() -> None:
    state = opened(3, {0: "bbb", 1: "g"}, modules=("thieves", "vizier"))
    nxt = by_position(state, 0)
    set_market(state, 1, "P4es")
    set_hand(state, nxt, ["b4"])
    assert window(state).seat == nxt
    acts = legal_actions(state)
    assert VizierBuy(1, ("b4",)) in acts and not any(isinstance(a, ThiefPlay) for a in acts)


# ---------------------------------------------------------------------------------- with the vizier
def test_a_thief_then_the_vizier() -> None:
    """'A player is allowed to play a thief and then a vizier.'"""
    state = opened(3, {1: "b"}, modules=("thieves", "vizier"))
    seat = by_position(state, 1)
    set_market(state, 1, "P4es")  # blue square, price 4
    state, _ = apply(state, Pass(), window(state).seat)  # the next player passes
    assert window(state).seat == seat
    assert VizierBuy(1, ("b4",)) not in legal_actions(state)
    state, _ = play(state, "thief b4")
    assert window(state).seat == order_after(state)[0]  # everybody is asked again
    state, _ = apply(state, Pass(), window(state).seat)
    assert window(state).seat == seat
    state, _ = apply(state, VizierBuy(1, ("b4",)), seat)
    state, _ = apply(state, PlaceBuilding("P4es", "reserve"), seat)
    assert state.components.tile_ids["P4es"] in state.players[seat].reserve
    check_conservation(state)


def test_a_thief_may_follow_a_vizier() -> None:
    """The rulebook names "first a thief and then the vizier" ("A player is allowed to play a
    thief and then a vizier") and, for the vizier, "The other players may then decide again
    whether they want to use their vizier." Our reading (docs/rules-notes.md, issue 24): after any
    out-of-turn move everybody is asked again, so a thief may also follow a vizier purchase,
    by the same player or another."""
    state = opened(3, {1: "b"}, modules=("thieves", "vizier"))
    first, second = by_position(state, 0), by_position(state, 1)  # the next to play: a vizier only
    set_market(state, 1, "P4es")
    set_hand(state, first, ["b4"])
    assert window(state).seat == first
    state, _ = apply(state, VizierBuy(1, ("b4",)), first)
    state, _ = apply(state, PlaceBuilding("P4es", "reserve"), first)
    assert window(state).seat == second  # everybody asked again from the top (the first has no vizier left)
    state, events = play(state, "thief b4")
    assert any(isinstance(e, ThiefPlayed) for e in events)
    check_conservation(state)


# ---------------------------------------------------------------------------------- scoring and the end
def test_a_scoring_card_drawn_by_a_thief_is_scored_at_once_before_anybody_is_asked_again() -> None:
    """Rulebook: "When a scoring card is drawn, it is put in front of the next player in turn
    order and the next card or cards are used to to fill up the display. Before the next player
    begins their turn the scores are calculated." One order for every refill (docs/rules-notes.md,
    issue 24): a round is scored as soon as the move that drew its card is over, before anybody
    acts out of turn again, as a card drawn at a turn's end is scored before the window opens."""
    state = opened(4, {1: "bg"})
    put_on_deck_top(state, ["S1", "g8"])
    rounds = state.rounds_scored
    state, events = play(state, "thief b4")
    kinds = [type(e) for e in events]
    assert ScoringCardDrawn(1) in events and display_codes(state)[0] == "g8"
    assert RoundScored in kinds and kinds.index(ScoringCardDrawn) < kinds.index(RoundScored)
    assert state.rounds_scored == rounds + 1 and state.scoring_queue == []
    assert type(state.pending[-1]).__name__ == "BetweenTurns"  # then everybody is asked again
    state, events = pass_all(state)
    kinds = [type(e) for e in events]
    assert RoundScored not in kinds and TurnStarted in kinds
    check_conservation(state)


def test_no_thief_once_the_market_could_not_be_refilled() -> None:
    state = fresh(3)
    set_thieves(state, {s: "bgoy" for s in range(3)})
    seat = state.current
    set_market(state, 1, "P4es")
    set_hand(state, seat, ["b4"])
    state.bag.clear()  # nothing left to refill the market with
    state, _ = apply(state, BuyBuilding(1, ("b4",)), seat)
    state, _ = end_turn(state)  # exact payment: one more action, then the tile is placed
    state, events = apply(state, PlaceBuilding("P4es", "reserve"), seat)
    assert state.market_exhausted and state.stage == STAGE_FINAL
    assert not any(type(p).__name__ == "BetweenTurns" for p in state.pending)
    assert not any(isinstance(e, ThiefPlayed | Passed) for e in events)
    assert not any(isinstance(a, ThiefPlay) for a in legal_actions(state))


def test_no_thief_after_the_last_turn_of_a_turn_limited_game() -> None:
    state = fresh(3, turn_limit=1)
    set_thieves(state, {s: "bgoy" for s in range(3)})
    state, _ = end_turn(state)
    assert state.outcome == "truncated"


def test_thieves_are_not_money() -> None:
    state = opened(3, {1: "bbb"})
    seat = by_position(state, 1)
    assert [money_of(state, seat, c) for c in range(4)] == [0, 0, 0, 0]
    assert MODULE.held_cards(state) == [] and MODULE.held_money(state, seat, 0) == 0


# ---------------------------------------------------------------------------------- views and hidden facts
def test_views_show_own_thieves_and_only_counts_of_the_others() -> None:
    state = opened(4, {1: "bg", 2: "oyy"})
    me, other = by_position(state, 1), by_position(state, 2)
    mine = view(state, me)["module_views"]["thieves"]
    assert mine["counts"][me] == 2 and mine["counts"][other] == 3
    assert mine["seats"][me] == {"count": 2, "thieves": ["blue", "green"]}
    assert mine["seats"][other] == {"count": 3, "thieves": None}
    assert mine["aside_count"] == 12 - 5 and mine["played"] == [] and mine["next"] == by_position(state, 0)
    spectator = view(state, None)["module_views"]["thieves"]
    assert all(sv["thieves"] is None for sv in spectator["seats"])


def test_no_view_leaks_another_seats_thieves() -> None:
    """Two states that differ only in hidden thieves look the same to everybody who may not see them."""
    a = opened(4, {1: "bg", 2: "oy"})
    b = a.copy()
    me, other = by_position(a, 1), by_position(a, 2)
    set_thieves(b, {me: "bg", other: "bb"})  # other's thieves and the aside pile differ
    assert thieves(a) != thieves(b)
    for viewer in (None, *(s for s in range(4) if s != other)):
        assert json.dumps(view(a, viewer), sort_keys=True) == json.dumps(view(b, viewer), sort_keys=True)
    assert view(a, other) != view(b, other)


def test_played_thieves_are_public() -> None:
    state = opened(4, {1: "bg"})
    seat = by_position(state, 1)
    state, events = play(state, "thief b4")
    for viewer in (None, 0, 1, 2, 3):
        mv = view(state, viewer)["module_views"]["thieves"]
        assert mv["played"] == [[seat, "blue"]] and mv["counts"][seat] == 1
        assert [e["type"] for e in view_events(events, viewer)][:2] == ["ThiefPlayed", "MoneyTaken"]


def test_state_json_round_trip_and_bad_slices() -> None:
    state = opened(4, {1: "bg"})
    state, _ = play(state, "thief b4")
    data = state_to_json(state)
    text = json.dumps(data, sort_keys=True)
    back = state_from_json(json.loads(text))
    assert json.dumps(state_to_json(back), sort_keys=True) == text
    assert thieves(back) == thieves(state)
    good = thieves(state).to_dict()
    bad: object
    for bad in (
        None,
        {"hands": [], "aside": []},
        {**good, "aside": [*good["aside"], "blue"]},  # a 13th thief
        {**good, "aside": good["aside"][1:]},  # one missing
        {**good, "hands": [["purple"]]},
        {**good, "played": [[9, "blue"]]},
    ):
        with pytest.raises(NotationError):
            ThievesState.from_dict(bad)


def test_the_sampler_redraws_hidden_thieves_consistently() -> None:
    state = opened(4, {0: "b", 1: "bg", 2: "oy", 3: "g"})
    me = by_position(state, 1)
    state, _ = apply(state, ThiefPlay("b4"), me)
    seen = view(state, me)["module_views"]["thieves"]
    fixed = MODULE.slice_from_view(seen, state.config)
    assert isinstance(fixed, ThievesState)
    assert fixed.hands[me] == thieves(state).hands[me] and fixed.played == thieves(state).played
    assert [len(h) for h in fixed.hands] == [len(h) for h in thieves(state).hands]
    rng = random.Random(1)
    samples = {MODULE.sample_slice(state, seen, me, rng) for _ in range(30)}
    assert len(samples) > 3
    for s in samples:
        assert isinstance(s, ThievesState)
        assert sorted(s.all_thieves()) == list(ALL_THIEVES)
        assert s.hands[me] == thieves(state).hands[me] and s.played == thieves(state).played
        assert [len(h) for h in s.hands] == [len(h) for h in thieves(state).hands]


def test_sampled_states_match_the_view_between_turns() -> None:
    """In a real game, every seat asked between turns gets sampled states with the same view
    (its own thieves, every count, the played ones) and the same legal actions."""
    from alhambra.engine import apply_unchecked
    from alhambra.policies import kind_random

    config = GameConfig(players=3, modules=("thieves",))
    rng = random.Random(4)
    state, events = new_game(config, 21)
    log = EventLog()
    log.extend(events)
    trackers = [Tracker() for _ in range(3)]
    checked = played = 0
    while not state.is_over and checked < 12:
        if type(state.pending[-1]).__name__ == "BetweenTurns":
            seat = window(state).seat
            obs = observe(state, seat, tuple(log.dicts))
            sample = Sampler(obs, trackers[seat]).sample(rng)
            check_conservation(sample)
            check_thieves(sample)
            a, b = view(sample, seat), view(state, seat)
            assert a["module_views"] == b["module_views"] and a["seats"] == b["seats"]
            assert sorted(a["legal_actions"]) == sorted(b["legal_actions"])
            checked += 1
        evs = apply_unchecked(state, kind_random(state, rng))
        played += sum(isinstance(e, ThiefPlayed) for e in evs)
        log.extend(evs)
    assert checked == 12 and played > 0


# ---------------------------------------------------------------------------------- bots
def test_bot_values_count_thieves_and_fade_to_nothing() -> None:
    state = opened(4, {1: "bg", 2: "o"})
    values = MODULE.bot_values(state)
    assert values is not None
    me, other = by_position(state, 1), by_position(state, 2)
    assert values[me] == pytest.approx(2 * values[other]) and values[me] > 0
    assert values[by_position(state, 0)] == 0
    late = state.copy()
    late.bag = late.bag[: len(late.bag) // 10]
    late_values = MODULE.bot_values(late)
    assert late_values is not None and late_values[me] < values[me]
    late.bag = []
    assert MODULE.bot_values(late) == [0.0] * 4
