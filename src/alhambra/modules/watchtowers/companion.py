"""Watchtowers at a real table: per player the longest wall counted with the watchtowers'
diagonals and the watchtowers in it (+2 each)."""

from __future__ import annotations

from typing import Any, Final

from ... import city as geo
from ...companion.hooks import CompanionHooks, Field, Tally
from ...components import SIDE_DELTAS, SIDES, walls_to_letters
from ...layout import LayoutCity, LayoutViolation
from ...state import GameState
from .module import COLOUR, RULES, SHORT, TOWER_KIND, beyond, data, tower_wall, towers

HALF_OF: Final = {15 ^ mask: half for half, mask in SHORT.items()}
"""A watchtower's half by the walls it shows (the two sides facing its empty half)."""

MOST: Final = 200
"""The longest wall a table may enter with watchtowers (as the plain wall's range)."""


class WatchtowersCompanion(CompanionHooks):
    """Per player: the longest wall with the diagonals (each watchtower's long edge 1) and the
    watchtowers in it; the wall then scores its length + 2 per watchtower in it."""

    seat_fields = (
        Field(
            "length",
            "watchtowers: longest wall with the diagonals",
            "count",
            0,
            MOST,
            help="the longest wall counting each watchtower's long edge as 1 segment (0: no watchtower, the wall above counts)",
        ),
        Field("towers", "watchtowers in that wall", "count", 0, 18, help="+2 points each"),
    )

    def layout_problems(self, city: LayoutCity) -> list[LayoutViolation]:
        """Each watchtower of a layout: a short edge against a building of its colour, nothing on
        the two places beyond its long edge (the base game's rules are the layout's own check)."""
        out = []
        for x, y, code, half in _towers(city):
            q = geo.pos(x, y)
            colour = COLOUR[code]
            if not any(
                SHORT[half] & side and (j := city.cells.get(q + d)) is not None and city.tiles[j].kind == colour for side, d in _SIDE_STEPS
            ):
                out.append(LayoutViolation("watchtowers_colour", x, y, f"watchtower {code}: {RULES['colour']}"))
            if any(b in city.cells or b in city.outside for b in beyond(q, half)):
                out.append(LayoutViolation("watchtowers_long_edge", x, y, f"watchtower {code}: {RULES['long_edge']}"))
        return out

    def export_tiles(self, state: GameState, seat: int) -> list[dict[str, Any]] | None:
        """The seat's watchtowers as layout tiles (``walls``: the two sides facing the empty half)."""
        return [
            {"x": x, "y": y, "tile": code, "walls": walls_to_letters(15 ^ SHORT[h]).upper()} for x, y, code, h in towers(state).placed[seat]
        ]

    def layout_inputs(self, city: LayoutCity) -> dict[str, Any]:
        """The longest wall with the layout's watchtowers' diagonals and the watchtowers in it."""
        placed = _towers(city)
        if not placed:
            return {}
        length, tws = tower_wall(city.cells, city.walls, placed)
        return {"length": length, "towers": tws}

    def wall_points(self, tally: Tally, who: int, points: int) -> int:
        """The wall with the watchtowers: its length (when given) + 2 per watchtower in it."""
        values = tally.seats[who]
        length = int(values.get("length", 0))
        return (length if length else points) + data().wall_bonus * int(values.get("towers", 0))

    def browser_data(self) -> dict[str, Any]:
        """Points per watchtower in the longest wall."""
        return {"wall_bonus": data().wall_bonus}

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The longest wall with the diagonals and its watchtowers (0, 0 without watchtowers)."""
        seats: list[dict[str, Any]] = []
        for s in range(state.config.players):
            row = towers(state).placed[s]
            length, tws = tower_wall(state.players[s].city, state.walls, row) if row else (0, 0)
            seats.append({"length": length, "towers": tws})
        if state.neutral is not None:
            seats.append({})
        return {}, seats


_SIDE_STEPS: Final = tuple((side, geo.pos(*SIDE_DELTAS[side]) - geo.ORIGIN) for side in SIDES)


def _towers(city: LayoutCity) -> list[tuple[int, int, str, str]]:
    """The watchtowers of a layout as ``(x, y, code, half)`` (the half from the walls it shows)."""
    out = []
    for q, i in sorted(city.cells.items()):
        t = city.tiles[i]
        if t.kind == TOWER_KIND and t.code in COLOUR and t.walls in HALF_OF:
            out.append((*geo.xy(q), t.code, HALF_OF[t.walls]))
    return out


COMPANION: Final = WatchtowersCompanion()
