"""The treasure chamber at a real table: each participant's chests in buildings."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...scoring import majority_awards
from ...state import GameState
from .module import CHESTS, POINTS, chest_counts


class TreasureChamberCompanion(CompanionHooks):
    """Per player and the neutral player: treasure chests in the buildings."""

    seat_fields = (Field("chests", "treasure chests", "count", 0, sum(CHESTS.values()), neutral=True),)

    def round_points(self, tally: Tally) -> list[Line] | None:
        """The chest majority (the neutral player takes part and scores his points, as in the game)."""
        counts = [v["chests"] for v in tally.seats]
        got = majority_awards(counts, POINTS[tally.round_no - 1])
        return [Line(p, f"{c} chest{'s' if c != 1 else ''}") for p, c in zip(got, counts, strict=True)]

    def browser_data(self) -> dict[str, Any]:
        """Points of the chest majority per round (1st, 2nd ...)."""
        return {"points": [list(r) for r in POINTS]}

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Chests of every participant."""
        return {}, [{"chests": c} for c in chest_counts(state)]


COMPANION: Final = TreasureChamberCompanion()
