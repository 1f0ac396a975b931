"""Invaders: the data, the setup, the unprotected sides (the rulebook's example), the invasions
after scoring rounds 1, 2 and 3 with the floor at 0, and the scouts."""

from __future__ import annotations

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra.actions import BuyBuilding, PlaceBuilding
from alhambra.components import KINDS
from alhambra.engine import _score_round
from alhambra.events import Event, RoundScored
from alhambra.modules.invaders import (
    DIRECTIONS,
    MODULE,
    InvadersState,
    InvasionCardShown,
    InvasionRevealed,
    InvasionScouted,
    ScoutsTurnedUp,
    exposure,
    invaders,
    invasion_loss,
    neighbours,
    unprotected,
)
from alhambra.modules.invaders.module import data
from alhambra.modules.vizier import VizierBuy, VizierUsed
from alhambra.state import BetweenTurns, GameState
from alhambra.testing import build_tiles as build, check_conservation, finish_turn, score_next_round, set_hand, take_first

from .helpers import ID, fresh, set_scouts, set_top

EXAMPLE = {(1, 0): "S8s", (-1, 0): "C9s", (0, 1): "C9w"}
"""Three tiles around the fountain: 3 sides open to the north (the fountain's, S8s's and C9s's;
C9w's north side lies against the fountain), 2 to the east (S8s, C9w), 1 to the west (C9s; C9w
has its wall there), 1 to the south (C9w; the others have walls or the fountain has C9w)."""


def sides(state: GameState, seat: int) -> dict[str, int]:
    return exposure(state.players[seat].city, state.components.tile_walls)


def lost(events: list[Event]) -> InvasionRevealed:
    got = [e for e in events if isinstance(e, InvasionRevealed)]
    assert len(got) == 1
    return got[0]


# ----------------------------------------------------------------------------------- data, setup
def test_the_data_four_directions_points_per_round_six_scouts() -> None:
    d = data()
    assert sorted(d.cards) == sorted(DIRECTIONS) == ["east", "north", "south", "west"]
    assert d.main == (1, 2, 3) and d.beside == (0, 0, 1)
    assert sorted(d.scouts) == sorted(KINDS) and len(d.scouts) == 6
    assert d.face_up == 2
    assert neighbours("north") == ("west", "east") and neighbours("west") == ("south", "north")


def test_setup_two_scouts_face_up_and_no_invasion_card_drawn() -> None:
    state, events = new_game(GameConfig(players=3, modules=(ID,)), 5)
    sl = invaders(state)
    assert len(sl.scouts) == 2 and len(sl.pile) == 4 and set(sl.scouts) | set(sl.pile) == set(KINDS)
    assert sl.revealed == () and sl.top is None and sl.known == (False,) * 3 and sl.taken == ()
    assert ScoutsTurnedUp(sl.scouts) in events
    assert not any(isinstance(e, InvasionCardShown) for e in events)
    seen = {invaders(new_game(GameConfig(players=3, modules=(ID,)), seed)[0]).scouts for seed in range(12)}
    assert len(seen) > 3, "the face-up scouts are drawn at random"


def test_setup_of_the_variation_one_invasion_card_face_up_and_no_scouts() -> None:
    config = GameConfig(players=3, modules=(ID,), options=((ID, "face_up", True),))
    state, events = new_game(config, 5)
    sl = invaders(state)
    assert sl.top in DIRECTIONS and sl.scouts == () and sl.pile == ()
    assert InvasionCardShown(sl.top) in events
    assert not any(isinstance(e, ScoutsTurnedUp) for e in events)
    mv = MODULE.view(state, 1)
    assert mv["face_up"] is True and mv["top"] == sl.top  # everybody sees it
    assert MODULE.view(state, None)["top"] == sl.top


# ----------------------------------------------------------------------------------- geometry
def test_a_lone_fountain_is_open_on_all_four_sides() -> None:
    state = fresh()
    assert sides(state, 0) == {d: 1 for d in DIRECTIONS}


def test_the_rulebook_example_3_sides_cost_3_after_round_1_and_12_after_round_3() -> None:
    state = fresh()
    build(state, 0, EXAMPLE)
    ex = sides(state, 0)
    assert ex == {"north": 3, "east": 2, "south": 1, "west": 1}
    assert invasion_loss(ex, "north", 1) == 3
    assert invasion_loss(ex, "north", 2) == 6
    assert invasion_loss(ex, "north", 3) == 9 + 3  # the two neighbouring directions: east 2 + west 1
    assert invasion_loss(ex, "south", 3) == 3 * 1 + 2 + 1
    assert invasion_loss(ex, "east", 3) == 3 * 2 + 3 + 1  # beside east: north and south


def test_a_side_with_a_neighbour_beyond_it_is_not_open() -> None:
    state = fresh()
    build(state, 0, {(0, -1): "A9"})  # no walls, north of the fountain
    assert sides(state, 0) == {"north": 1, "east": 2, "south": 1, "west": 2}
    walls = state.components.tile_walls
    city = state.players[0].city
    assert unprotected(city, walls, "north") == 1  # only A9's; the fountain's north side is covered


def test_a_wall_protects_its_side() -> None:
    state = fresh()
    build(state, 0, {(1, 0): "S3esw"})  # walls east, south, west (the west wall faces the fountain)
    assert sides(state, 0) == {"north": 2, "east": 0, "south": 1, "west": 1}


def test_the_reserve_board_does_not_count() -> None:
    state = fresh()
    state.players[0].reserve.append(state.components.tile_ids["A9"])
    state.bag.remove(state.components.tile_ids["A9"])
    assert sides(state, 0) == {d: 1 for d in DIRECTIONS}


# ----------------------------------------------------------------------------------- invasions
def test_invasions_after_rounds_1_2_3_with_the_rulebook_example() -> None:
    state = fresh()
    build(state, 0, EXAMPLE)
    events: list[Event] = []
    for rnd, expect in ((1, 3), (2, 6), (3, 12)):
        state.scores = [50, 50, 50]
        set_top(state, "north" if rnd == 1 else None)
        if rnd > 1:  # the example again: as if each round came from the north
            sl = invaders(state)
            before = tuple(d for d in DIRECTIONS if d != "north")[: rnd - 1]
            state.mods[ID] = InvadersState(before, "north", sl.known, sl.scouts, sl.pile, sl.taken)
        events = []
        MODULE.round_scored(state, rnd, events)
        inv = lost(events)
        assert inv.round == rnd and inv.direction == "north"
        assert inv.sides == (3, 1, 1) and inv.lost == (expect, rnd + (rnd == 3) * 2, rnd + (rnd == 3) * 2)
        assert state.scores == [50 - expect, 50 - inv.lost[1], 50 - inv.lost[2]]


def test_round_1_in_play_the_card_turned_up_and_the_points_taken_after_the_scoring() -> None:
    state = fresh(players=3, seed=2)
    build(state, 1, EXAMPLE)
    set_top(state, "north")
    old = invaders(state).scouts
    state, events = score_next_round(state)
    scored = next(e for e in events if isinstance(e, RoundScored))
    inv = lost(events)
    assert events.index(scored) < events.index(inv)  # directly after the scoring round
    assert inv.direction == "north" and inv.sides == (1, 3, 1)
    expect = [min(scored.scores[s], n) for s, n in enumerate((1, 3, 1))]
    assert list(inv.lost) == expect
    assert state.scores == [scored.scores[s] - expect[s] for s in range(3)]
    assert state.score_history[-1] == tuple(state.scores)  # the history shows the score after the invasion
    sl = invaders(state)
    assert sl.revealed == ("north",) and sl.top is None and sl.known == (False,) * 3
    new = next(e for e in events if isinstance(e, ScoutsTurnedUp))
    assert new.removed == old and set(new.kinds) == set(sl.scouts) and not set(old) & set(sl.scouts)
    assert len(sl.pile) == 2 and not set(sl.pile) & (set(old) | set(new.kinds))
    check_conservation(state)


def test_three_rounds_in_play_each_direction_once_and_scouts_after_rounds_1_and_2_only() -> None:
    state = fresh(players=4, seed=3)
    build(state, 2, EXAMPLE)
    directions: list[str] = []
    for rnd in (1, 2, 3):
        state.scores = [40] * 4
        state, events = score_next_round(state) if rnd < 3 else _final(state)
        inv = lost(events)
        assert inv.round == rnd
        directions.append(inv.direction)
        ex = sides(state, 2)
        assert inv.lost[2] == invasion_loss(ex, inv.direction, rnd)
        turned = [e for e in events if isinstance(e, ScoutsTurnedUp)]
        assert len(turned) == (1 if rnd < 3 else 0)
    assert len(set(directions)) == 3 and invaders(state).revealed == tuple(directions)
    assert invaders(state).pile == () and len(invaders(state).left()) == 1


def _final(state: GameState) -> tuple[GameState, list[Event]]:
    """The final scoring (round 3), as the engine runs it at the end of the game."""
    events: list[Event] = []
    _score_round(state, 3, events)
    return state, events


def test_the_floor_a_score_of_2_loses_at_most_2_and_a_score_below_0_stays() -> None:
    state = fresh()
    for s in range(3):
        build(state, s, {(1, 0): ("A9", "C10", "G10")[s]})  # 2 sides open to the north each
    state.scores = [2, 5, -4]  # seat 2 is below 0 (a medina, say)
    set_top(state, "north")
    events: list[Event] = []
    MODULE.round_scored(state, 2, events)  # 2 points per side: 4 each
    inv = lost(events)
    assert inv.sides == (2, 2, 2) and inv.lost == (2, 4, 0)
    assert state.scores == [0, 1, -4]


def test_two_players_the_neutral_player_is_not_invaded() -> None:
    state = fresh(players=2, seed=4)
    state.scores = [10, 10]
    neutral = state.neutral_score
    set_top(state, "west")
    events: list[Event] = []
    MODULE.round_scored(state, 3, events)
    inv = lost(events)
    assert inv.sides == (1, 1) and inv.lost == (3 + 2, 3 + 2)  # the fountain: 3 west, 1 + 1 beside
    assert state.neutral_score == neutral and state.scores == [5, 5]


# ----------------------------------------------------------------------------------- scouts
def _buy(state: GameState, square: int, cards: list[str]) -> tuple[GameState, list[Event], int]:
    seat = state.current
    set_hand(state, seat, cards)
    state, events = apply(state, BuyBuilding(square, tuple(cards)), seat)
    return state, events, seat


def test_an_exact_purchase_of_a_scouts_kind_takes_it_and_the_buyer_looks() -> None:
    state = fresh()  # market: P4es blue, S5sw green, A6sw orange, C7sw yellow
    set_scouts(state, ["pavilion", "garden"])
    state, events, seat = _buy(state, 1, ["b4"])
    sl = invaders(state)
    look = [e for e in events if isinstance(e, InvasionScouted)]
    assert look == [InvasionScouted(seat, "pavilion", sl.top or "")] and sl.top in DIRECTIONS
    assert sl.scouts == ("garden",) and sl.taken == ((seat, "pavilion"),)
    assert sl.known == tuple(s == seat for s in range(3))
    assert "pavilion" not in sl.pile  # the scout is discarded, not back in the pile
    assert MODULE.view(state, seat)["top"] == sl.top
    assert MODULE.view(state, (seat + 1) % 3)["top"] is None and MODULE.view(state, None)["top"] is None
    # the card looked at is the one turned up after the next scoring
    seen = sl.top
    state, _ = finish_turn(state)
    state, events = score_next_round(state)
    assert lost(events).direction == seen


@pytest.mark.parametrize(
    ("square", "cards", "why"),
    [(1, ["b5"], "overpaid"), (2, ["g5"], "another kind"), (3, ["o3", "o3"], "no scout of arcades")],
)
def test_no_scout_without_an_exact_purchase_of_its_kind(square: int, cards: list[str], why: str) -> None:
    state = fresh()
    set_scouts(state, ["pavilion", "garden"])
    state, events, _ = _buy(state, square, cards)
    assert not any(isinstance(e, InvasionScouted) for e in events), why
    sl = invaders(state)
    assert sl.scouts == ("pavilion", "garden") and sl.top is None and sl.taken == ()


def test_the_variation_uses_no_scouts() -> None:
    state = fresh(face_up=True)
    state, events, _ = _buy(state, 1, ["b4"])
    assert not any(isinstance(e, InvasionScouted) for e in events)
    assert invaders(state).taken == ()


def test_the_variation_turns_up_the_next_card_after_each_invasion() -> None:
    state = fresh(face_up=True)
    first = invaders(state).top
    state, events = score_next_round(state)
    assert lost(events).direction == first
    shown = [e for e in events if isinstance(e, InvasionCardShown)]
    sl = invaders(state)
    assert shown == [InvasionCardShown(sl.top or "")] and sl.top not in (None, first)
    assert MODULE.view(state, 2)["top"] == sl.top


def test_a_second_look_sees_the_same_card_and_both_know_it() -> None:
    state = fresh()
    set_scouts(state, ["pavilion", "seraglio"])
    state, _, first = _buy(state, 1, ["b4"])
    state, _ = finish_turn(state)
    top = invaders(state).top
    state, events, second = _buy(state, 2, ["g5"])
    assert [e for e in events if isinstance(e, InvasionScouted)] == [InvasionScouted(second, "seraglio", top or "")]
    sl = invaders(state)
    assert sl.top == top and sl.scouts == ()
    assert sl.known == tuple(s in (first, second) for s in range(3))


def test_the_vizier_pays_exactly_and_takes_the_scout() -> None:
    state = fresh(players=3, seed=3, modules=("vizier",))
    set_scouts(state, ["seraglio", "tower"])
    s = state.current
    s1 = (s + 1) % 3
    set_hand(state, s1, ["g5"])
    state, _ = take_first(state)
    assert isinstance(state.pending[-1], BetweenTurns)
    state, events = apply(state, VizierBuy(2, ("g5",)), s1)
    assert any(isinstance(e, VizierUsed) for e in events)
    sl = invaders(state)
    assert [e for e in events if isinstance(e, InvasionScouted)] == [InvasionScouted(s1, "seraglio", sl.top or "")]
    assert sl.known[s1] and sl.taken == ((s1, "seraglio"),)
    state, _ = apply(state, PlaceBuilding("S5sw", "reserve"), s1)
    check_conservation(state)


def test_unused_scouts_leave_the_game_and_the_last_two_come_after_round_2() -> None:
    state = fresh()
    set_scouts(state, ["pavilion", "garden"])
    state, _, seat = _buy(state, 1, ["b4"])  # the pavilion scout is used
    state, _ = finish_turn(state)
    state, events = score_next_round(state)
    first = next(e for e in events if isinstance(e, ScoutsTurnedUp))
    assert first.removed == ("garden",)
    state, events = score_next_round(state)
    second = next(e for e in events if isinstance(e, ScoutsTurnedUp))
    assert second.removed == first.kinds
    sl = invaders(state)
    assert sl.pile == () and set(sl.scouts) == set(KINDS) - {"pavilion", "garden"} - set(first.kinds)
    assert sl.taken == ((seat, "pavilion"),)
    # scouts still work before the last invasion
    assert len(sl.scouts) == 2 and len(legal_actions(state)) > 0
