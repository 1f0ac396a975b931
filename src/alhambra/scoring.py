"""Majority scoring with the rulebook's tie rule."""

from __future__ import annotations

from collections.abc import Sequence


def majority_awards(counts: Sequence[float], points: Sequence[int]) -> list[int]:
    """Points each participant gets for one building kind in one scoring round.

    ``counts[i]`` is how many buildings of the kind participant ``i`` has; ``points`` are the
    points for 1st, 2nd, ... place in this round. Tied participants add the points of the places
    they occupy and split them, rounding down; the next participant takes the place after the
    tied block. A count of 0 never scores.

    >>> majority_awards([4, 4, 1], [13, 6])  # Kim and Nina tied on 4 towers
    [9, 9, 0]
    """
    awards = [0] * len(counts)
    order = sorted((c for c in set(counts) if c > 0), reverse=True)
    place = 0
    for c in order:
        if place >= len(points):
            break
        tied = [i for i, n in enumerate(counts) if n == c]
        share = sum(points[place : place + len(tied)]) // len(tied)
        for i in tied:
            awards[i] = share
        place += len(tied)
    return awards
