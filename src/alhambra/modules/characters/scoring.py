"""The characters' points and counts in a scoring round: the Wise Man's half building, the City
Watch's point per 3 wall points, the kept Travelling Entertainer's 8 points at the end."""

from __future__ import annotations

from dataclasses import replace

from ...engine.services import wall_points as engine_wall_points
from ...state import GameState
from .components import CITY_WATCH, ENTERTAINER, MODULE_ID, WISE_MAN, data
from .state import chars, owns


def wall_points(state: GameState, seat: int, round_no: int | None = None) -> int:
    """The points ``seat`` scores for walls in scoring round ``round_no`` (default: the next one):
    what the City Watch reads (``engine.wall_points``: the longest wall and every module's change,
    the watchtowers' bonus included)."""
    rnd = round_no if round_no is not None else min(3, state.rounds_scored + 1)
    return engine_wall_points(state, seat, rnd)


def building_counts(state: GameState, seat: int, counts: dict[str, float]) -> None:
    """The Wise Man's half building of the kind its owner named for this round."""
    if seat < 0:
        return
    kind = chars(state).wise[seat] if seat < len(chars(state).wise) else ""
    if kind and kind in counts and owns(state, seat, WISE_MAN):
        counts[kind] += 0.5


def round_points(state: GameState, round_no: int) -> list[int] | None:
    """City Watch: 1 per 3 wall points; the Entertainer kept: 8 in the final scoring."""
    sl = chars(state)
    out = [0] * state.config.players
    for seat, mine in enumerate(sl.owned):
        if CITY_WATCH in mine:
            out[seat] += wall_points(state, seat, round_no) // data().city_watch_per
        if ENTERTAINER in mine and round_no == 3:
            out[seat] += data().entertainer_points
    return out if any(out) else None


def round_scored(state: GameState) -> None:
    """The Wise Man's choice holds for one round (kept as the record of the round scored)."""
    sl = chars(state)
    if any(sl.wise) or any(sl.scored_wise):
        state.mods[MODULE_ID] = replace(sl, wise=("",) * len(sl.wise), scored_wise=sl.wise)
