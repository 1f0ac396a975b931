"""Street traders at a real table: each player's citizens in buildings, per colour."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...components import KINDS
from ...state import GameState
from .module import CITIZENS_PER_COLOUR, COLOUR_OF, SET_POINTS, citizen_points, home_counts


class StreetTradersCompanion(CompanionHooks):
    """Per player: citizens living in the Alhambra's buildings, per colour (= building kind)."""

    seat_fields = tuple(Field(k, f"{COLOUR_OF[k]} citizens ({k})", "count", 0, CITIZENS_PER_COLOUR) for k in KINDS)

    def round_points(self, tally: Tally) -> list[Line] | None:
        """Every round: sets of different colours (as ``citizen_points``)."""
        out: list[Line] = []
        for v in tally.seats[: tally.players]:
            counts = [v[k] for k in KINDS]
            n = sum(counts)
            out.append(Line(citizen_points(counts), f"{n} citizen{'s' if n != 1 else ''} in sets of different colours"))
        return out

    def browser_data(self) -> dict[str, Any]:
        """Points of a set of 0, 1, ... 6 colours, and the colours in the order of the kinds."""
        return {"set_points": list(SET_POINTS), "kinds": list(KINDS)}

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Citizens per colour per player."""
        seats: list[dict[str, Any]] = [dict(zip(KINDS, home_counts(state, s), strict=True)) for s in range(state.config.players)]
        if state.neutral is not None:
            seats.append({})
        return {}, seats


COMPANION: Final = StreetTradersCompanion()
