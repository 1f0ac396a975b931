"""Majority scoring (scoring.majority_awards) with the rulebook's tie rule."""

from __future__ import annotations

import pytest

from alhambra.components import SCORING_POINTS
from alhambra.scoring import majority_awards

R1 = {k: v[0] for k, v in SCORING_POINTS.items()}
R2 = {k: v[1] for k, v in SCORING_POINTS.items()}
R3 = {k: v[2] for k, v in SCORING_POINTS.items()}


def test_kim_and_nina_share_first_and_second_in_round_two() -> None:
    # Kim and Nina each have 4 towers: (13 + 6) // 2 = 9 each; the third player gets nothing
    assert majority_awards([4, 4, 1], R2["tower"]) == [9, 9, 0]


def test_round_one_pays_only_the_majority_holder() -> None:
    assert majority_awards([3, 1, 2], R1["chambers"]) == [4, 0, 0]
    assert majority_awards([0, 5, 2, 4], R1["tower"]) == [0, 6, 0, 0]


def test_round_one_tie_for_first_splits_first_place_only() -> None:
    # two players tie for first: they add the points of places 1 and 2 (2nd pays nothing in round 1)
    assert majority_awards([2, 2, 1], R1["chambers"]) == [2, 2, 0]
    assert majority_awards([1, 1, 1], R1["seraglio"]) == [0, 0, 0]  # 2 // 3
    assert majority_awards([3, 3, 3], R1["tower"]) == [2, 2, 2]


def test_round_two_first_and_second() -> None:
    assert majority_awards([5, 3, 1], R2["tower"]) == [13, 6, 0]
    assert majority_awards([1, 4, 2], R2["pavilion"]) == [0, 8, 1]


def test_round_three_pavilions_16_8_1() -> None:
    assert majority_awards([5, 3, 1, 0], R3["pavilion"]) == [16, 8, 1, 0]
    assert majority_awards([1, 3, 5], R3["pavilion"]) == [1, 8, 16]


def test_three_way_ties() -> None:
    assert majority_awards([2, 2, 2], R3["garden"]) == [12, 12, 12]  # (20 + 12 + 5) // 3
    assert majority_awards([2, 2, 2], R2["garden"]) == [5, 5, 5]  # (12 + 5) // 3
    assert majority_awards([4, 2, 2, 2], R3["tower"]) == [21, 6, 6, 6]  # (13 + 6 + 0) // 3


def test_ties_beyond_the_paid_places() -> None:
    # three players tied for second in round 2: only the 6 points of place 2 are shared
    assert majority_awards([5, 3, 3, 3], R2["tower"]) == [13, 2, 2, 2]
    # four players tied for second in round 3: (8 + 1) // 4
    assert majority_awards([4, 2, 2, 2, 2], R3["pavilion"]) == [16, 2, 2, 2, 2]
    # tied for third in round 3: (1 + 0) // 2
    assert majority_awards([6, 5, 3, 3], R3["pavilion"]) == [16, 8, 0, 0]
    assert majority_awards([6, 5, 3, 3], R3["tower"]) == [21, 13, 3, 3]


def test_zero_buildings_never_score() -> None:
    assert majority_awards([0, 0, 0], R3["tower"]) == [0, 0, 0]
    assert majority_awards([3, 0, 0], R3["tower"]) == [21, 0, 0]
    assert majority_awards([0, 0], R1["tower"]) == [0, 0]
    assert majority_awards([2, 1, 0, 0], R3["garden"]) == [20, 12, 0, 0]


def test_the_next_player_takes_the_place_after_the_tied_block() -> None:
    # two tied for first take places 1 and 2; the next one is third, not second
    assert majority_awards([4, 4, 2], R3["tower"]) == [17, 17, 6]
    assert majority_awards([4, 4, 2], R2["tower"]) == [9, 9, 0]
    # one first, two tied for second (places 2 and 3), the fourth is beyond the paid places
    assert majority_awards([5, 3, 3, 1], R3["tower"]) == [21, 9, 9, 0]
    # all tied for first: nobody is second
    assert majority_awards([2, 2, 1, 1], R3["seraglio"]) == [13, 13, 1, 1]  # (17+9)//2, (2+0)//2


def test_shares_are_rounded_down() -> None:
    assert majority_awards([1, 1], R2["pavilion"]) == [4, 4]  # 9 // 2
    assert majority_awards([3, 3, 3], R3["pavilion"]) == [8, 8, 8]  # 25 // 3


def test_a_single_participant() -> None:
    assert majority_awards([2], R3["arcades"]) == [18]
    assert majority_awards([], R3["arcades"]) == []


@pytest.mark.parametrize("rnd", [0, 1, 2])
def test_more_buildings_never_earn_less(rnd: int) -> None:
    # monotone in the count: for every kind, a strictly larger count gets at least as much
    for kind, table in SCORING_POINTS.items():
        points = table[rnd]
        for counts in ([3, 2, 1, 0], [5, 5, 4, 1], [2, 1, 1, 1, 0, 3]):
            aw = majority_awards(counts, points)
            for i, a in enumerate(counts):
                for j, b in enumerate(counts):
                    if a > b:
                        assert aw[i] >= aw[j], (kind, counts, aw)
            assert sum(aw) <= sum(points)
