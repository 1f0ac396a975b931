"""The Art of the Moors at a real table: per player the number at the gem of each culture counter."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...state import GameState
from .module import data, moors


class MoorsCompanion(CompanionHooks):
    """Per player and price: the points the counter's corner at the gem shows (0 without the counter)."""

    seat_fields = tuple(
        Field(t.price, f"culture counter {t.label}", "count", 0, max(t.points), help="the number pointing to the gem") for t in data()
    )

    def round_points(self, tally: Tally) -> list[Line] | None:
        """Every round: the numbers at the gem, added (as ``Module.round_points``)."""
        out: list[Line] = []
        for values in tally.seats[: tally.players]:
            parts = [(t.label, values[t.price]) for t in data() if values[t.price]]
            why = ", ".join(f"counter {p}: {v}" for p, v in parts) or "no culture points"
            out.append(Line(sum(v for _, v in parts), why))
        return out

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The points at the gem per counter per player."""
        seats: list[dict[str, Any]] = []
        for row in moors(state).seats:
            seats.append({t.price: t.points[c[0]] if c is not None else 0 for t, c in zip(data(), row, strict=True)})
        if state.neutral is not None:
            seats.append({})
        return {}, seats


COMPANION: Final = MoorsCompanion()
