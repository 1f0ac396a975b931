"""Camps at a real table: per player the buildings in the lines of the camps' arrows (1 point each),
entered as a count or read from the camps of a layout (``alhambra score`` with tiles)."""

from __future__ import annotations

from typing import Any, ClassVar, Final

from ... import city as geo
from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...layout import LayoutCity, LayoutViolation
from ...state import GameState
from .module import CAMP_KIND, RULES, camp_lines, camp_points, camp_problem, camps_state, layout_tables

MOST: Final = 150
"""The most line points a table may enter for one player (8 camps, at most 12 arrows, long lines)."""


def _camps(city: LayoutCity) -> dict[int, int]:
    """The camps of a layout: place -> tile index."""
    return {q: i for q, i in city.outside.items() if city.tiles[i].kind == CAMP_KIND}


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

    outside_kinds: ClassVar[frozenset[str]] = frozenset({CAMP_KIND})

    def layout_problems(self, city: LayoutCity) -> list[LayoutViolation]:
        """Each camp of a layout by the camps' building rules (joined by a bastion to a city wall,
        green side to green side, never against a watchtower); holes are the layout's own check."""
        camps = _camps(city)
        if not camps:
            return []
        tab = layout_tables([t.kind for t in city.tiles], city.walls)
        out = []
        for q, i in sorted(camps.items()):
            others = {p: j for p, j in camps.items() if p != q}
            why = camp_problem(city.cells, city.walls, others, tab, city.walls[i], q)
            if why is not None and why != "no_holes":
                x, y = geo.xy(q)
                out.append(LayoutViolation(f"camps_{why}", x, y, f"camp {city.tiles[i].code}: {RULES[why]}"))
        return out

    def layout_inputs(self, city: LayoutCity) -> dict[str, Any]:
        """The buildings in the lines of the layout's camps (None of them: nothing to read)."""
        camps = _camps(city)
        if not camps:
            return {}
        tab = layout_tables([t.kind for t in city.tiles], city.walls)
        return {"lines": sum(camp_lines(city.cells, tab, city.walls[i], q) for q, i in camps.items())}

    def export_tiles(self, state: GameState, seat: int) -> list[dict[str, Any]] | None:
        """The seat's camps as layout tiles (their walls: the bastions)."""
        return [{"x": c.x, "y": c.y, "tile": c.camp} for c in camps_state(state).placed[seat]]

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
