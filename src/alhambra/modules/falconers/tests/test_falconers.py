"""The falconers' rules: the components, where a falcon may stand, how it is paid, the falcon
turn, falcons returned by a redesign, and the scoring in every round."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest

from alhambra import apply, legal_actions, parse_action
from alhambra.components import KINDS
from alhambra.engine import _score_round
from alhambra.errors import IllegalAction, NotYourTurn, WrongPhase
from alhambra.events import Event, RoundScored
from alhambra.modules.falconers import (
    BY_CODE,
    MODULE,
    BuyFalcon,
    FalconBought,
    FalconReturned,
    FalconsDone,
    FalconsFinished,
    FalconTurn,
    PlacedFalcon,
    corners,
    falcon_points,
    falcons,
    placements,
)
from alhambra.modules.falconers.module import data
from alhambra.state import ChooseAction, GameState
from alhambra.testing import build_tiles as build, finish_turn, set_hand, set_market, take_tile

from .helpers import CORNER, act, fresh, legal, score_next_round


def corner_game(players: int = 3, seed: int = 1, modules: tuple[str, ...] = ()) -> tuple[GameState, int]:
    """A game where the current seat has garden, tower and arcades around its fountain's
    south-east corner (intersection ``0,0``)."""
    state = fresh(players, seed, modules)
    seat = state.current
    build(state, seat, CORNER)
    return state, seat


# ---------------------------------------------------------------------------------- components
def test_fifteen_falcons_five_of_each_type() -> None:
    d = data()
    assert len(d.falcons) == 15
    assert Counter(f.type for f in d.falcons) == {"black": 5, "brown": 5, "white": 5}
    assert d.points == (0, 2, 6, 12, 20, 30)


def test_the_known_white_falcon_is_tower_and_garden_and_the_others_are_assumed() -> None:
    known = [f for f in data().falcons if not f.assumed]
    assert [(f.code, f.type, set(f.kinds)) for f in known] == [("Fw5", "white", {"tower", "garden"})]
    assert BY_CODE["Fw5"].describe() == "white falcon (garden, tower)"


def test_every_pair_of_colours_once_and_every_type_needs_every_colour() -> None:
    pairs = [frozenset(f.kinds) for f in data().falcons]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, combinations(KINDS, 2))))
    for t in ("black", "brown", "white"):
        assert {k for f in data().falcons if f.type == t for k in f.kinds} == set(KINDS)


def test_setup_every_falcon_in_the_supply() -> None:
    state = fresh(players=4)
    sl = falcons(state)
    assert sl.placed == ((),) * 4
    assert sl.supply() == [f.code for f in data().falcons]
    assert MODULE.notation_items(state.config) == sl.supply()


# ---------------------------------------------------------------------------------- placement
def test_the_rulebook_example_a_tower_and_a_garden_at_the_intersection() -> None:
    state, seat = corner_game()
    set_hand(state, seat, ["b5", "g2"])
    assert corners(state, seat) == [(0, 0)]
    assert ("Fw5", (0, 0)) in placements(state, seat)
    assert "falcon Fw5 0,0 b5" in legal(state)
    build(state, seat, {(2, 0): "T11", (2, 1): "G10"})  # a second intersection keeps the falcon turn open
    state, events = act(state, "falcon Fw5 0,0 b5")
    assert events == [FalconBought(seat, "Fw5", 0, 0, ("b5",))]
    assert falcons(state).placed[seat] == (PlacedFalcon("Fw5", 0, 0, ("F", "G11", "T12", "A9")),)
    assert "Fw5" not in falcons(state).supply()
    assert state.components.card_code[state.discard[-1]] == "b5"
    assert [state.components.card_code[c] for c in state.players[seat].hand] == ["g2"]
    assert state.pending[-1] == FalconTurn(seat)


def test_only_the_pairs_present_are_offered() -> None:
    state, seat = corner_game()
    set_hand(state, seat, ["b5"])
    got = {code for code, c in placements(state, seat)}
    want = {f.code for f in data().falcons if set(f.kinds) <= {"garden", "tower", "arcades"}}
    assert got == want and len(want) == 3  # garden-tower, garden-arcades, arcades-tower
    assert sorted(str(a) for a in legal_actions(state) if isinstance(a, BuyFalcon)) == sorted(f"falcon {code} 0,0 b5" for code in want)


def test_four_tiles_are_needed() -> None:
    state = fresh()
    seat = state.current
    build(state, seat, {(1, 0): "G11", (0, 1): "T12"})
    set_hand(state, seat, ["b5"])
    assert corners(state, seat) == []
    assert not any(isinstance(a, BuyFalcon) for a in legal_actions(state))
    with pytest.raises(IllegalAction, match=r"four tiles of your Alhambra meet.*not all built"):
        act(state, "falcon Fw5 0,0 b5")


@pytest.mark.parametrize(
    ("layout", "missing"),
    [
        ({(1, 0): "G11", (0, 1): "A10", (1, 1): "A9"}, "a tower building"),
        ({(1, 0): "C11", (0, 1): "T12", (1, 1): "A9"}, "a garden building"),
        ({(1, 0): "C11", (0, 1): "P8", (1, 1): "A9"}, "a garden and a tower building"),
    ],
)
def test_both_colours_are_needed(layout: dict[tuple[int, int], str], missing: str) -> None:
    state = fresh()
    seat = state.current
    build(state, seat, layout)
    set_hand(state, seat, ["b5"])
    with pytest.raises(IllegalAction, match=f"needs {missing} at that intersection"):
        act(state, "falcon Fw5 0,0 b5")


def test_the_fountain_may_be_under_a_falcon_without_colour_and_four_buildings_also_work() -> None:
    state, seat = corner_game()
    build(state, seat, {(2, 0): "T11", (2, 1): "G10"})  # intersection 1,0: G11, T11, A9, G10
    set_hand(state, seat, ["b5", "b6"])
    assert corners(state, seat) == [(0, 0), (1, 0)]
    state, _ = act(state, "falcon Fw5 1,0 b5")
    # the fountain's corner has garden, tower, arcades: the garden-arcades falcon fits there
    ga = next(f.code for f in data().falcons if set(f.kinds) == {"garden", "arcades"})
    state, _ = act(state, f"falcon {ga} 0,0 b6")
    assert [f.code for f in falcons(state).placed[seat]] == ["Fw5", ga]


def test_one_falcon_per_intersection() -> None:
    state, seat = corner_game()
    build(state, seat, {(2, 0): "T11", (2, 1): "G10"})
    set_hand(state, seat, ["b5", "b6"])
    state, _ = act(state, "falcon Fw5 0,0 b5")
    assert corners(state, seat) == [(1, 0)]
    ga = next(f.code for f in data().falcons if set(f.kinds) == {"garden", "arcades"})
    with pytest.raises(IllegalAction, match="already stands on that intersection"):
        act(state, f"falcon {ga} 0,0 b6")
    assert f"falcon {ga} 1,0 b6" in legal(state) and f"falcon {ga} 0,0 b6" not in legal(state)


def test_a_falcon_in_another_alhambra_does_not_block_the_same_intersection() -> None:
    state, seat = corner_game()
    other = (seat + 1) % 3
    build(state, other, {(1, 0): "G10", (0, 1): "T11", (1, 1): "A10"})
    set_hand(state, seat, ["b5"])
    set_hand(state, other, ["b6"])
    state, _ = act(state, "falcon Fw5 0,0 b5")  # the only card: the turn ends by itself
    while state.current != other:
        state, _ = finish_turn(state)
    assert "Fw5" not in falcons(state).supply()
    ga = next(f.code for f in data().falcons if set(f.kinds) == {"garden", "arcades"})
    state, _ = act(state, f"falcon {ga} 0,0 b6")
    assert falcons(state).placed[other][0].code == ga


def test_a_falcon_only_as_the_first_action_not_after_an_exact_payment() -> None:
    state, seat = corner_game()
    set_market(state, 1, "P4es")
    set_hand(state, seat, ["b4", "b5"])
    state, _ = act(state, "buy 1 b4")  # exact: another action follows
    top = state.pending[-1]
    assert isinstance(top, ChooseAction) and top.seat == seat and top.actions == 1
    assert not any(isinstance(a, BuyFalcon) for a in legal_actions(state))
    with pytest.raises(WrongPhase, match="only as the first action, not after an exact payment"):
        act(state, "falcon Fw5 0,0 b5")


def test_no_falcon_out_of_turn() -> None:
    state, seat = corner_game()
    other = (seat + 1) % 3
    build(state, other, {(1, 0): "G10", (0, 1): "T11", (1, 1): "A10"})
    set_hand(state, other, ["b5"])
    with pytest.raises(NotYourTurn):
        act(state, "falcon Fw5 0,0 b5", seat=other)


def test_falcon_done_outside_a_falcon_turn_is_refused() -> None:
    state, _ = corner_game()
    with pytest.raises(WrongPhase, match="after a falcon was bought"):
        act(state, "falcon done")


def test_the_card_must_be_a_money_card_of_the_hand() -> None:
    state, seat = corner_game(modules=("currency_exchange",))
    set_hand(state, seat, ["xby", "g3"])
    assert {str(a).split()[-1] for a in legal_actions(state) if isinstance(a, BuyFalcon)} == {"g3"}
    with pytest.raises(IllegalAction, match="xby is not a money card"):
        act(state, "falcon Fw5 0,0 xby")
    with pytest.raises(IllegalAction, match="you hold no b5"):
        act(state, "falcon Fw5 0,0 b5")
    with pytest.raises(IllegalAction, match="no falcon 'Fx9'"):
        act(state, "falcon Fx9 0,0 g3")


def test_any_currency_and_value_pays() -> None:
    for card in ("y1", "o9", "g4"):
        state, seat = corner_game()
        set_hand(state, seat, [card])
        state, events = act(state, f"falcon Fw5 0,0 {card}")
        assert isinstance(events[0], FalconBought) and events[0].payment == (card,)
        assert state.components.card_code[state.discard[-1]] == card


def test_a_falcon_already_owned_is_not_in_the_supply() -> None:
    state, seat = corner_game()
    build(state, seat, {(2, 0): "T11", (2, 1): "G10"})
    set_hand(state, seat, ["b5", "b6"])
    state, _ = act(state, "falcon Fw5 0,0 b5")
    with pytest.raises(IllegalAction, match=r"white falcon \(garden, tower\) is not in the supply"):
        act(state, "falcon Fw5 1,0 b6")


# ---------------------------------------------------------------------------------- the falcon turn
def test_more_falcons_then_falcon_done_ends_the_turn() -> None:
    state, seat = corner_game()
    build(state, seat, {(2, 0): "T11", (2, 1): "G10", (3, 0): "C10", (3, 1): "P8"})
    set_hand(state, seat, ["b5", "b6", "y2"])
    state, _ = act(state, "falcon Fw5 1,0 b5")
    acts = legal(state)
    assert acts[-1] == "falcon done"
    assert all(a.startswith("falcon ") for a in acts)  # nothing else: no take, no buy, no redesign
    ga = next(f.code for f in data().falcons if set(f.kinds) == {"garden", "arcades"})
    state, events = act(state, f"falcon {ga} 0,0 b6")
    assert events == [FalconBought(seat, ga, 0, 0, ("b6",))]
    assert state.pending[-1] == FalconTurn(seat)  # one pending, not a second one
    assert sum(isinstance(p, FalconTurn) for p in state.pending) == 1
    assert legal(state)[-1] == "falcon done" and len(legal(state)) > 1  # y2 could buy a third falcon
    state, events = act(state, "falcon done")
    assert FalconsFinished(seat) in events
    assert state.current == (seat + 1) % 3
    assert [state.components.card_code[c] for c in state.players[seat].hand] == ["y2"]


def test_the_falcon_turn_closes_by_itself_when_no_card_is_left() -> None:
    state, seat = corner_game()
    set_hand(state, seat, ["b5"])
    state, events = act(state, "falcon Fw5 0,0 b5")
    assert events[:2] == [FalconBought(seat, "Fw5", 0, 0, ("b5",)), FalconsFinished(seat)]
    assert state.current == (seat + 1) % 3
    assert not any(isinstance(p, FalconTurn) for p in state.pending)


def test_the_falcon_turn_closes_by_itself_when_no_placement_is_left() -> None:
    state, seat = corner_game()
    set_hand(state, seat, ["b5", "b6"])
    state, events = act(state, "falcon Fw5 0,0 b5")
    assert FalconsFinished(seat) in events
    assert state.current == (seat + 1) % 3
    assert [state.components.card_code[c] for c in state.players[seat].hand] == ["b6"]


# ---------------------------------------------------------------------------------- redesigns
def placed_game() -> tuple[GameState, int]:
    """Seat's falcon Fw5 at 0,0 and one more tile (C11 at 2,0) away from it; it is seat's turn again."""
    state, seat = corner_game()
    build(state, seat, {(2, 0): "C11"})
    set_hand(state, seat, ["b5"])
    state, _ = act(state, "falcon Fw5 0,0 b5")
    while state.current != seat:
        state, _ = finish_turn(state)
    return state, seat


def test_removing_a_tile_under_a_falcon_returns_it_and_it_can_be_bought_again() -> None:
    state, seat = placed_game()
    state, events = act(state, "redesign remove A9")
    assert FalconReturned(seat, "Fw5") in events
    assert falcons(state).placed[seat] == ()
    assert "Fw5" in falcons(state).supply()
    assert FalconReturned(seat, "Fw5").describe().endswith("goes back to the supply (a tile under it was moved)")
    # build it again and buy the falcon again
    while state.current != seat:
        state, _ = finish_turn(state)
    state, _ = act(state, "redesign build A9 1,1")
    while state.current != seat:
        state, _ = finish_turn(state)
    set_hand(state, seat, ["o3"])
    state, events = act(state, "falcon Fw5 0,0 o3")
    assert FalconBought(seat, "Fw5", 0, 0, ("o3",)) in events


def test_exchanging_a_tile_under_a_falcon_returns_it() -> None:
    state, seat = placed_game()
    state.players[seat].reserve.append(take_tile(state, "A10"))
    state, events = act(state, "redesign exchange A10 A9")  # same colour: still the falcon goes
    assert FalconReturned(seat, "Fw5") in events
    assert falcons(state).placed[seat] == () and "Fw5" in falcons(state).supply()


def test_a_redesign_elsewhere_leaves_the_falcon() -> None:
    state, seat = placed_game()
    state, events = act(state, "redesign remove C11")
    assert not any(isinstance(e, FalconReturned) for e in events)
    assert [f.code for f in falcons(state).placed[seat]] == ["Fw5"]


# ---------------------------------------------------------------------------------- scoring
def with_falcons(state: GameState, seat: int, codes: list[str]) -> None:
    """Give ``seat`` these falcons (anywhere: scoring does not look where they stand)."""
    sl = falcons(state)
    rows = list(sl.placed)
    rows[seat] = tuple(PlacedFalcon(c, i, 9, ("F", "F", "F", "F")) for i, c in enumerate(codes))
    state.mods["falconers"] = replace(sl, placed=tuple(rows))


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 2), (2, 6), (3, 12), (4, 20), (5, 30)])
def test_falcons_of_one_type_score_more_the_more_there_are(n: int, points: int) -> None:
    state = fresh()
    with_falcons(state, 0, [f"Fk{i}" for i in range(1, n + 1)])
    assert falcon_points(state, 0) == points


def test_types_are_scored_separately_and_added() -> None:
    state = fresh()
    with_falcons(state, 1, ["Fk1", "Fk2", "Fr1", "Fw1", "Fw2", "Fw3"])
    assert falcon_points(state, 1) == 6 + 2 + 12
    assert MODULE.round_points(state, 1) == [0, 20, 0]


@pytest.mark.parametrize("rnd", [1, 2, 3])
def test_falcons_score_in_every_round(rnd: int) -> None:
    state = fresh()
    with_falcons(state, 2, ["Fr1", "Fr2", "Fw5"])
    events: list[Event] = []
    before = list(state.scores)
    _score_round(state, rnd, events)
    scored = events[-1]
    assert isinstance(scored, RoundScored)
    assert scored.extra["falconers"] == (0, 0, 8)
    assert state.scores[2] - before[2] == scored.points[2] >= 8


def test_two_scoring_rounds_in_play() -> None:
    state, seat = corner_game()
    set_hand(state, seat, ["b5"])
    state, _ = act(state, "falcon Fw5 0,0 b5")
    state, first = score_next_round(state)
    assert first.round == 1 and first.extra["falconers"][seat] == 2
    state, second = score_next_round(state)
    assert second.round == 2 and second.extra["falconers"][seat] == 2


def test_two_players_the_neutral_player_has_no_falcons() -> None:
    state, seat = corner_game(players=2)
    assert state.neutral is not None
    with_falcons(state, seat, ["Fw1"])
    events: list[Event] = []
    _score_round(state, 1, events)
    scored = events[-1]
    assert isinstance(scored, RoundScored)
    assert scored.extra["falconers"] == tuple(2 if s == seat else 0 for s in range(2))


def test_apply_checks_the_seat_of_the_falcon_turn() -> None:
    state, seat = corner_game()
    build(state, seat, {(2, 0): "T11", (2, 1): "G10"})
    set_hand(state, seat, ["b5", "b6"])
    state, _ = act(state, "falcon Fw5 0,0 b5")
    with pytest.raises(NotYourTurn):
        apply(state, FalconsDone(), (seat + 1) % 3)
    assert isinstance(parse_action("falcon done"), FalconsDone)
