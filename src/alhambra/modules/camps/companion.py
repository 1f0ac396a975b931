"""Camps at a real table: per player the buildings in the lines of the camps' arrows (1 point each)."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...state import GameState
from .module import camp_points

MOST: Final = 150
"""The most line points a table may enter for one player (8 camps, at most 12 arrows, long lines)."""


class CampsCompanion(CompanionHooks):
    """Per player: the buildings counted from the camps' arrows (a building in two lines counts twice)."""

    seat_fields = (
        Field(
            "lines",
            "camps: buildings in the arrows' lines",
            "count",
            0,
            MOST,
            help="for each bastion's arrow, the buildings in the straight unbroken line behind it (fountain and squares count)",
        ),
    )

    def round_points(self, tally: Tally) -> list[Line] | None:
        """Every round: 1 point per building in an arrow's line."""
        out: list[Line] = []
        for values in tally.seats[: tally.players]:
            n = int(values.get("lines", 0))
            out.append(Line(n, f"{n} building{'s' if n != 1 else ''} in the camps' lines" if n else "no camp line"))
        return out

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Each player's line points now."""
        seats: list[dict[str, Any]] = [{"lines": camp_points(state, s)} for s in range(state.config.players)]
        if state.neutral is not None:
            seats.append({})
        return {}, seats


COMPANION: Final = CampsCompanion()
