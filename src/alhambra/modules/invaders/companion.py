"""The invaders at a real table: the invasion card and each Alhambra's open sides."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...state import GameState
from .module import DIRECTIONS, data, exposure, invaders, invasion_loss, neighbours


class InvadersCompanion(CompanionHooks):
    """Table: the direction of this round's invasion card. Per player: the sides facing each
    direction with no wall and no tile beyond them."""

    table_fields = (Field("direction", "invasion from", "choice", choices=DIRECTIONS),)
    seat_fields = tuple(Field(d, f"open sides facing {d}", "count", 0, 200) for d in DIRECTIONS)

    def after_round(self, tally: Tally, scores: list[int]) -> list[Line] | None:
        """After the round: the loss of the invasion, never below 0 (as ``add_points(floor=0)``)."""
        d = tally.table["direction"]
        a, b = neighbours(d)
        out: list[Line] = []
        for v, score in zip(tally.seats[: tally.players], scores, strict=False):
            loss = invasion_loss({k: v[k] for k in DIRECTIONS}, d, tally.round_no)
            new = max(score - loss, min(score, 0)) if loss > 0 else score
            out.append(Line(new - score, f"invasion from the {d}: {v[d]} open sides facing it, {v[a] + v[b]} beside"))
        return out

    def browser_data(self) -> dict[str, Any]:
        """Loss per open side facing the invasion and per side beside it, per round."""
        d = data()
        return {"main": list(d.main), "beside": list(d.beside), "directions": list(DIRECTIONS)}

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The round's invasion direction and every Alhambra's open sides."""
        walls = state.walls
        seats: list[dict[str, Any]] = [dict(exposure(state.players[s].city, walls)) for s in range(state.config.players)]
        if state.neutral is not None:
            seats.append({})
        return {"direction": invaders(state).revealed[round_no - 1]}, seats


COMPANION: Final = InvadersCompanion()
