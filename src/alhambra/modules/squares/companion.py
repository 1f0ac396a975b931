"""Squares at a real table: per player the extra buildings the squares in the Alhambra give."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Tally
from ...components import KINDS
from ...state import GameState
from .module import bonuses, data

_MOST: Final = {kind: min(len(pile), data().max_per_player) * data().max_extra for kind, pile in data().piles}


class SquaresCompanion(CompanionHooks):
    """Per player and colour: what the squares add (each +1 per building of its colour it joins without a wall, at most 3)."""

    seat_fields = tuple(
        Field(
            k,
            f"squares: more {k}",
            "count",
            0,
            _MOST[k],
            help="each square: one per joined building of its colour without a wall between, at most 3",
        )
        for k in KINDS
    )

    def adjust_counts(self, tally: Tally, who: int, counts: dict[str, float]) -> list[str]:
        """The squares' extra buildings (as ``Module.building_counts``); the neutral player has none."""
        if who >= tally.players:
            return []
        out: list[str] = []
        for k, v in tally.seats[who].items():
            if v:
                counts[k] = counts.get(k, 0) + v
                out.append(f"squares: {v} more {k}")
        return out

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The squares' bonus per kind per player."""
        seats: list[dict[str, Any]] = [dict.fromkeys(KINDS, 0) | bonuses(state, s) for s in range(state.config.players)]
        if state.neutral is not None:
            seats.append({})
        return {}, seats


COMPANION: Final = SquaresCompanion()
