"""Characters at a real table: the City Watch's points for walls, the Wise Man's half building
and the Travelling Entertainer's 8 points at the end."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...components import KINDS
from ...state import GameState
from .components import CITY_WATCH, ENTERTAINER, WISE_MAN, data
from .state import chars

_NONE: Final = "none"


class CharactersCompanion(CompanionHooks):
    """Per player: owns the City Watch, the Wise Man's kind this round, the Entertainer kept."""

    seat_fields = (
        Field("city_watch", "City Watch", "choice", choices=("no", "yes"), help="1 point more for every 3 wall points"),
        Field("wise_man", "Wise Man: half a building of", "choice", choices=(_NONE, *KINDS), help="the kind named for this round"),
        Field("entertainer", "Travelling Entertainer kept", "choice", choices=("no", "yes"), help="8 points at the end", rounds=(3,)),
    )

    def adjust_counts(self, tally: Tally, who: int, counts: dict[str, float]) -> list[str]:
        """The Wise Man's half building (as ``Module.building_counts``)."""
        if who >= tally.players:
            return []
        kind = tally.seats[who].get("wise_man", _NONE)
        if kind in KINDS:
            counts[kind] = counts.get(kind, 0) + 0.5
            return [f"Wise Man: half a {kind} more"]
        return []

    def round_points(self, tally: Tally) -> list[Line] | None:
        """City Watch: 1 per 3 wall points scored (the watchtowers' bonus included, as in a game);
        the Entertainer kept: 8 in the final round."""
        out: list[Line] = []
        for who in range(tally.players):
            v = tally.seats[who]
            points = 0
            why: list[str] = []
            if v.get("city_watch") == "yes":
                wall = tally.scored_walls[who] if who < len(tally.scored_walls) else 0
                points += wall // data().city_watch_per
                why.append(f"City Watch: {wall} wall points")
            if v.get("entertainer") == "yes" and tally.round_no == 3:
                points += data().entertainer_points
                why.append("Travelling Entertainer")
            out.append(Line(points, "; ".join(why)))
        return out if any(line.points for line in out) else None

    def browser_data(self) -> dict[str, Any]:
        """The numbers ``ui/companion.js`` needs."""
        return {"per": data().city_watch_per, "entertainer": data().entertainer_points}

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """What the players of an engine game would enter for the round just scored."""
        sl = chars(state)
        seats: list[dict[str, Any]] = []
        for s in range(state.config.players):
            mine = sl.owned[s]
            seats.append(
                {
                    "city_watch": "yes" if CITY_WATCH in mine else "no",
                    "wise_man": sl.scored_wise[s] if WISE_MAN in mine and sl.scored_wise and sl.scored_wise[s] else _NONE,
                    "entertainer": "yes" if ENTERTAINER in mine else "no",
                }
            )
        if state.neutral is not None:
            seats.append({})
        return {}, seats


COMPANION: Final = CharactersCompanion()
