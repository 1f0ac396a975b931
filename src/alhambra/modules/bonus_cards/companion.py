"""Bonus cards at a real table: the played cards whose tile is in the Alhambra, per kind."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Tally
from ...components import KINDS
from ...state import GameState
from .module import CARD_KINDS, bonus_state, ids_of


class BonusCardsCompanion(CompanionHooks):
    """Per player and kind: played bonus cards whose building is in the Alhambra (each counts one more)."""

    seat_fields = tuple(Field(k, f"bonus cards played: {k}", "count", 0, CARD_KINDS.count(k)) for k in KINDS if k in CARD_KINDS)

    def adjust_counts(self, tally: Tally, who: int, counts: dict[str, float]) -> list[str]:
        """Each played card counts one building of its kind (as ``Module.building_counts``)."""
        if who >= tally.players:
            return []
        out: list[str] = []
        for k, v in tally.seats[who].items():
            if v:
                counts[k] = counts.get(k, 0) + v
                out.append(f"bonus cards: {v} more {k}")
        return out

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Played cards per kind whose tile is in the seat's Alhambra."""
        tiles = ids_of(state).tiles
        seats: list[dict[str, Any]] = []
        for s, played in enumerate(bonus_state(state).played):
            city = set(state.players[s].city.values())
            row = dict.fromkeys(self_kinds(), 0)
            for i in played:
                if tiles[i] in city:
                    row[CARD_KINDS[i]] += 1
            seats.append(row)
        if state.neutral is not None:
            seats.append({})
        return {}, seats


def self_kinds() -> list[str]:
    """The kinds a bonus card can show."""
    return [k for k in KINDS if k in CARD_KINDS]


COMPANION: Final = BonusCardsCompanion()
