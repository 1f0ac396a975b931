"""What the bazaars are worth to the bots (``bot_values``) and the greedy bot's use of them."""

from __future__ import annotations

import random

from alhambra import apply, legal_actions, parse_action
from alhambra.bots.greedy import greedy_action, seat_values
from alhambra.modules.bazaars import MODULE, seat_points
from alhambra.modules.bazaars.module import BUY_SHARE, RESERVE_VALUE, WAITING_VALUE
from alhambra.state import PlaceTiles
from alhambra.testing import set_hand

from .helpers import build, fresh, lay_out


def values(state: object) -> list[float]:
    got = MODULE.bot_values(state)  # type: ignore[arg-type]
    assert got is not None
    return got


def test_nothing_is_worth_anything_without_bazaars() -> None:
    state = fresh()
    assert values(state) == [0.0, 0.0, 0.0]


def test_a_built_bazaar_is_worth_more_with_matching_neighbours() -> None:
    state = fresh()
    seat = state.current
    build(state, seat, {(0, 1): "Zg1"})
    alone = values(state)[seat]
    assert alone > 0
    build(state, seat, {(-1, 1): "S4ne", (1, 1): "A8n", (-1, 2): "G10"})
    assert values(state)[seat] > max(alone, 9.0)  # 3 x 3 now, and room for more


def test_reserve_waiting_and_affordable_bazaars() -> None:
    state = fresh()
    seat = state.current
    other = (seat + 1) % 3
    state.players[other].reserve.append(state.components.tile_ids["Zb1"])
    state.bag.remove(state.components.tile_ids["Zb1"])
    lay_out(state, "Zg1")
    set_hand(state, seat, ["g5", "g2"])
    set_hand(state, (seat + 2) % 3, ["g9"])  # cannot pay 5 exactly
    got = values(state)
    assert got[other] == RESERVE_VALUE
    assert got[seat] == BUY_SHARE * WAITING_VALUE
    assert got[(seat + 2) % 3] == 0.0
    state, _ = apply(state, parse_action("buy Zg1 g5"), seat)
    assert values(state)[seat] == WAITING_VALUE


def test_greedy_values_include_the_bazaars() -> None:
    state = fresh()
    seat = state.current
    base = seat_values(state)[seat]
    build(state, seat, {(0, 1): "Zg1", (-1, 1): "S4ne", (1, 1): "A8n"})
    assert seat_values(state)[seat] > base + 4


def test_greedy_places_a_bazaar_where_it_scores_most() -> None:
    state = fresh()
    seat = state.current
    build(state, seat, {(-1, 1): "S4ne", (-1, 2): "A8n", (0, 2): "G10", (1, 2): "G11"})
    lay_out(state, "Zg1")
    set_hand(state, seat, ["g5", "y1"])
    state, _ = apply(state, parse_action("buy Zg1 g5"), seat)
    state, _ = apply(state, parse_action("take " + state.card_code(state.display[0])), seat)
    assert isinstance(state.pending[-1], PlaceTiles)
    points = {}
    for a in legal_actions(state):
        after, _ = apply(state, a, seat)
        points[str(a)] = seat_points(after, seat)
    assert points["place Zg1 0,3"] == 6 and max(points.values()) == 6  # next to A8n, G10 and G11
    choice = greedy_action(state, random.Random(1))
    assert points[str(choice)] == 6
