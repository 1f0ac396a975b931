"""Watchtowers at a real table: per player the longest wall counted with the watchtowers'
diagonals and the watchtowers in it (+2 each)."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Tally
from ...state import GameState
from .module import data, tower_wall, towers

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


COMPANION: Final = WatchtowersCompanion()
