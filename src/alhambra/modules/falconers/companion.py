"""Falconers at a real table: each player's standing falcons per type."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...state import GameState
from .module import BY_CODE, data, falcons

_PER_TYPE: Final = {t: sum(1 for f in data().falcons if f.type == t) for t in data().types}


class FalconersCompanion(CompanionHooks):
    """Per player: how many falcons of each type stand in the Alhambra."""

    seat_fields = tuple(Field(t, f"{t} falcons", "count", 0, _PER_TYPE[t], help="standing in the Alhambra") for t in data().types)

    def round_points(self, tally: Tally) -> list[Line] | None:
        """Every round: the points for the falcons of each type (as ``falcon_points``)."""
        d = data()
        out: list[Line] = []
        for values in tally.seats[: tally.players]:
            parts = [(t, values[t]) for t in d.types if values[t]]
            pts = sum(d.points[c] for _, c in parts)
            why = ", ".join(f"{c} {t} ({d.points[c]})" for t, c in parts) or "no falcon"
            out.append(Line(pts, why))
        return out

    def browser_data(self) -> dict[str, Any]:
        """Points for 0, 1, 2 ... falcons of a type."""
        return {"points": list(data().points)}

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Falcons per type per player."""
        d = data()
        seats: list[dict[str, Any]] = []
        for row in falcons(state).placed:
            counts = dict.fromkeys(d.types, 0)
            for f in row:
                counts[BY_CODE[f.code].type] += 1
            seats.append(counts)
        if state.neutral is not None:
            seats.append({})
        return {}, seats


COMPANION: Final = FalconersCompanion()
