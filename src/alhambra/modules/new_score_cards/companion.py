"""The new score cards at a real table: the three cards' numbers replace the scoring table."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Tally
from ...state import GameState
from .module import ROUNDS, card, cards, points, score_cards


class ScoreCardsCompanion(CompanionHooks):
    """Table input ``cards``: the numbers of the cards for rounds 1, 2 and 3."""

    table_fields = (
        Field("cards", "Score cards (rounds 1, 2, 3)", "numbers", 1, len(cards()), help="the number printed on each card", length=ROUNDS),
    )

    def check(self, tally: Tally) -> list[str]:
        """The three cards must be there, and different."""
        got = tally.table["cards"]
        if len(got) != ROUNDS:
            return [f"give the numbers of the {ROUNDS} score cards"]
        if len(set(got)) != len(got):
            return ["the three score cards are different cards"]
        return []

    def kind_points(self, tally: Tally, kind: str) -> tuple[int, ...] | None:
        """The points of this round's card for the kinds it ranks (as ``Module.kind_points``)."""
        got = tally.table["cards"]
        if len(got) != ROUNDS:
            return None
        number = got[tally.round_no - 1]
        if kind not in card(number).kinds:
            return None
        return points(number, tally.round_no, kind)

    def browser_data(self) -> dict[str, Any]:
        """Every card's points: ``points[number][round - 1][kind]`` (1st, 2nd ...)."""
        return {
            "points": {str(c.number): [{k: list(points(c.number, r, k)) for k in c.kinds} for r in range(1, ROUNDS + 1)] for c in cards()}
        }

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The three card numbers."""
        n = state.config.players + (1 if state.neutral is not None else 0)
        return {"cards": list(score_cards(state).cards)}, [{} for _ in range(n)]


COMPANION: Final = ScoreCardsCompanion()
