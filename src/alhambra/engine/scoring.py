"""Scoring: building counts, the points of a scoring round, score changes modules make, the
end-of-game money count and the winners."""

from __future__ import annotations

from collections.abc import Iterable

from .. import city as geo
from ..events import Event, RoundScored
from ..rulesets import ruleset
from ..scoring import majority_awards
from ..state import GameState
from .common import _sink, _users


def unbuilt_tiles(state: GameState, seat: int) -> set[int]:
    """Tiles of ``seat``'s Alhambra (``-1``: the neutral player's tiles) that are not buildings
    yet (``Module.unbuilt_tiles``: a building site): nothing that goes into a building (a treasure chest, a citizen) goes there."""
    out: set[int] = set()
    for m in _users(state, "unbuilt_tiles"):
        out.update(m.unbuilt_tiles(state, seat))
    return out


def building_counts(state: GameState, seat: int) -> dict[str, int]:
    """Buildings per kind that ``seat`` scores with (``-1``: the neutral player), modules included."""
    comp = state.components
    tiles: Iterable[int] = state.neutral or () if seat < 0 else state.players[seat].city.values()
    counts = dict.fromkeys(comp.kinds, 0)
    for t in tiles:
        k = comp.tiles[t].kind
        if k in counts:
            counts[k] += 1
    for m in _users(state, "building_counts"):
        m.building_counts(state, seat, counts)
    return counts


def kind_points(state: GameState, round_no: int, kind: str) -> tuple[int, ...]:
    """The points for 1st, 2nd ... most buildings of ``kind`` in scoring round ``round_no``
    (1-3) in a game with table scoring: a module's (``Module.kind_points``, the first in id
    order that answers) or the ruleset's table. Empty for a game without a table (Granada)."""
    if state.config.modules:
        for m in _users(state, "kind_points"):
            got = m.kind_points(state, round_no, kind)
            if got is not None:
                return got
    rules = state.components.ruleset or ruleset()
    if rules.scoring != "table":
        return ()
    return rules.points[kind][round_no - 1]


def dearest_buildings(state: GameState, seat: int) -> dict[str, int]:
    """The price of the most expensive building of each kind ``seat`` has built (``-1``: the
    neutral player); kinds it has none of are left out. Granada breaks ties with it."""
    comp = state.components
    tiles: Iterable[int] = state.neutral or () if seat < 0 else state.players[seat].city.values()
    out: dict[str, int] = {}
    for t in tiles:
        tt = comp.tiles[t]
        if tt.price > out.get(tt.kind, 0):
            out[tt.kind] = tt.price
    return out


def _score_round(state: GameState, rnd: int, events: list[Event] | None) -> None:
    n = state.config.players
    seats = list(range(n)) + ([-1] if state.neutral is not None else [])
    counts = [building_counts(state, s) for s in seats]
    kinds: dict[str, tuple[int, ...]] = {}
    kind_counts: dict[str, tuple[int, ...]] = {}
    points = [0] * len(seats)
    comp = state.components
    rules = comp.ruleset or ruleset()
    dearest = [dearest_buildings(state, s) for s in seats] if rules.scoring != "table" else []
    table = bool(state.config.modules) and rules.scoring == "table" and bool(_users(state, "kind_points"))
    for kind in comp.kinds:
        c = [cnt.get(kind, 0) for cnt in counts]
        if table:
            aw = majority_awards(c, kind_points(state, rnd, kind))
        else:
            aw = rules.round_points(rnd, c, [d.get(kind, 0) for d in dearest] if dearest else c, kind)
        kinds[kind] = tuple(aw)
        kind_counts[kind] = tuple(c)
        for i, a in enumerate(aw):
            points[i] += a
    walls = tuple(wall_points(state, s, rnd) for s in range(n))
    extra: dict[str, tuple[int, ...]] = {}
    for m in _users(state, "round_points"):
        got = m.round_points(state, rnd)
        if got is not None:
            extra[m.id] = tuple(got)
            for s in range(len(points) if len(got) > n else n):  # an entry past the seats: the neutral player's
                points[s] += got[s]
    for s in range(n):
        points[s] += walls[s]
        state.scores[s] += points[s]
    neutral_points = points[n] if state.neutral is not None else 0
    state.neutral_score += neutral_points
    state.rounds_scored += 1
    state.score_history.append(tuple(state.scores))
    if events is not None:
        events.append(
            RoundScored(
                round=rnd,
                kinds=kinds,
                counts=kind_counts,
                walls=walls,
                points=tuple(points[:n]),
                extra=extra,
                scores=tuple(state.scores),
                neutral_points=neutral_points,
                neutral_score=state.neutral_score,
            )
        )
    if state.config.modules:
        for m in _users(state, "round_scored"):
            m.round_scored(state, rnd, _sink(events))
        state.score_history[-1] = tuple(state.scores)


def wall_points(state: GameState, seat: int, round_no: int) -> int:
    """The points ``seat`` scores for walls in scoring round ``round_no`` now: the longest outer
    wall of its Alhambra (with the walls as they are, ``state.walls``), then every module's
    ``wall_points`` in id order, each given the value before it."""
    points = geo.longest_wall(state.players[seat].city, state.walls)
    if state.config.modules:
        for m in _users(state, "wall_points"):
            points = m.wall_points(state, seat, round_no, points)
    return points


def add_points(state: GameState, seat: int, delta: int, floor: int | None = None) -> int:
    """Add ``delta`` points to ``seat``'s score (a module's adjustment, e.g. after a scoring
    round); with ``floor`` a loss never takes the score below it (a score already below stays
    where it is). Returns the change actually made."""
    score = state.scores[seat]
    new = score + delta
    if floor is not None and delta < 0:
        new = max(new, min(score, floor))
    state.scores[seat] = new
    return new - score


def money_of(state: GameState, seat: int, currency: int) -> int:
    """A seat's money of one currency for the end-of-game hand-out: the money cards in the hand
    plus what modules hold for it outside the hand (``Module.held_money``)."""
    comp = state.components
    total = sum(comp.card_value[c] for c in state.players[seat].hand if comp.card_is_money[c] and comp.card_currency[c] == currency)
    if state.config.modules:
        for m in _users(state, "held_money"):
            total += m.held_money(state, seat, currency)
    return total


def winners(state: GameState) -> tuple[int, ...]:
    """Seats with the highest score (several on a tie: a shared win)."""
    best = max(state.scores)
    return tuple(s for s, v in enumerate(state.scores) if v == best)
