"""Bazaars at a real table: for each bazaar, its matching neighbours and how many kinds they show."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...state import GameState
from .module import SCORING_ROUND, bazaar_types, seat_bazaars

_MOST: Final = max(len(b.kinds) for b in bazaar_types())


class BazaarsCompanion(CompanionHooks):
    """Per player, one entry per bazaar: matching buildings around it and their kinds."""

    seat_fields = (
        Field("neighbours", "each bazaar's buildings of its kinds around it", "numbers", 0, 8, rounds=(SCORING_ROUND,)),
        Field("kinds", "each bazaar's kinds among them", "numbers", 0, _MOST, rounds=(SCORING_ROUND,)),
    )

    def check(self, tally: Tally) -> list[str]:
        """One entry of each per bazaar; a bazaar cannot show more kinds than buildings."""
        out: list[str] = []
        for i, v in enumerate(tally.seats[: tally.players]):
            if len(v["neighbours"]) != len(v["kinds"]):
                out.append(f"player {i + 1}: give neighbours and kinds for each bazaar (as many of each)")
            elif any(k > m or (m and not k) for m, k in zip(v["neighbours"], v["kinds"], strict=True)):
                out.append(f"player {i + 1}: a bazaar's kinds lie from 1 to its matching buildings")
        return out

    def round_points(self, tally: Tally) -> list[Line] | None:
        """Round 3 only: each bazaar scores matching buildings x their kinds."""
        if tally.round_no != SCORING_ROUND:
            return None
        out: list[Line] = []
        for v in tally.seats[: tally.players]:
            pairs = list(zip(v["neighbours"], v["kinds"], strict=False))
            why = ", ".join(f"{m}×{k}" for m, k in pairs) or "no bazaar"
            out.append(Line(sum(m * k for m, k in pairs), why))
        return out

    def browser_data(self) -> dict[str, Any]:
        """The round the bazaars score in."""
        return {"round": SCORING_ROUND}

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Every bazaar's score parts."""
        seats: list[dict[str, Any]] = []
        for s in range(state.config.players):
            bs = seat_bazaars(state, s)
            seats.append({"neighbours": [b.matching for b in bs], "kinds": [len(b.kinds) for b in bs]})
        if state.neutral is not None:
            seats.append({})
        return {}, seats


COMPANION: Final = BazaarsCompanion()
