"""The Art of the Moors: culture counters for buildings of the same price; the action
"development of culture" turns every counter one corner on, up to its marker; each scoring round
pays the points of the corner pointing to the gem.

Flow (plug-in hooks):

* ``setup``: the supply of counters per price (6 ... 11 and 12/13, ``components.json``); nobody
  owns one.
* ``after_action`` (after every action of anybody, in or out of turn, and the placements of the
  final hand-out): a player with two or more base-game buildings of one price (Alhambra and
  reserve board; building sites not yet complete do not count) takes that price's counter if
  they have none and the supply has one (gem on corner 0); every counter's marker goes on the
  corner its building count reaches. Tiles bought this turn count once placed, which is the end
  of the turn, as the rulebook says ("at the end of their turn"); the vizier's and the sultan's
  purchases are placed at once, so their counters come "immediately".
* ``turn_actions``: ``culture develop`` turns every counter of the player whose gem corner is
  short of its marker one corner on; it is a whole action (the action phase ends).
* ``round_points``: per player the points of the corners at the gem; the neutral player has none.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final

from ...actions import Action, register_action
from ...components import KINDS, ComponentSet
from ...engine.services import finish_turn_action, unbuilt_tiles
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module, hook_users
from ...slices import slice_reader
from ...state import ChooseAction, GameConfig, GameState

MODULE_ID: Final = "art_of_the_moors"
CORNERS: Final = 6


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class CounterType:
    """The culture counters of one price: how many, and the points and needs of each corner."""

    price: str
    """``"6"`` ... ``"11"``, ``"12"`` for 12 and 13."""
    count: int
    points: tuple[int, ...]
    needs: tuple[int, ...]

    def marker_for(self, buildings: int) -> int:
        """The corner the marker goes on with ``buildings`` of this price: the last corner whose
        needs are at most that (of equal needs the one with the highest points; never past the
        last corner); 0 below the first."""
        at = 0
        for i, need in enumerate(self.needs):
            if need <= buildings:
                at = i
        return at

    @property
    def label(self) -> str:
        """``"8"``, or ``"12/13"``."""
        return "12/13" if self.price == "12" else self.price


@cache
def data() -> tuple[CounterType, ...]:
    """Read ``components.json`` and check it (one entry per price, six corners, points and needs
    not decreasing, 0 points at corner 0)."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    out = []
    for c in raw["counters"]:
        t = CounterType(str(c["price"]), int(c["count"]), tuple(int(v) for v in c["points"]), tuple(int(v) for v in c["needs"]))
        ok = len(t.points) == len(t.needs) == CORNERS and t.points[0] == 0 and t.count >= 0
        ok = ok and all(a <= b for a, b in zip(t.points, t.points[1:], strict=False))
        ok = ok and all(a <= b for a, b in zip(t.needs, t.needs[1:], strict=False))
        if not ok:
            raise ValueError(f"art_of_the_moors: counter {c!r}: six corners, 0 points first, points and needs not decreasing")
        out.append(t)
    if [t.price for t in out] != ["6", "7", "8", "9", "10", "11", "12"]:
        raise ValueError("art_of_the_moors: one counter entry per price 6 ... 11 and 12 (for 12/13), in order")
    return tuple(out)


PRICES: Final = tuple(t.price for t in data())


def group_of(price: int) -> int:
    """The counter index of a building price (6 -> 0 ... 11 -> 5, 12 and 13 -> 6), -1 below 6."""
    if price < 6:
        return -1
    return min(price, 12) - 6


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per game's components: the counter index of each tile id (-1: counts for none: a tile of a
    module, the fountain, a building cheaper than 6)."""

    comp: ComponentSet
    group: tuple[int, ...]


_TABLES: dict[int, _Tables] = {}


def _tables(comp: ComponentSet) -> _Tables:
    got = _TABLES.get(id(comp))
    if got is None or got.comp is not comp:
        group = tuple(group_of(t.price) if t.module is None and t.kind in KINDS else -1 for t in comp.tiles)
        got = _TABLES[id(comp)] = _Tables(comp, group)
    return got


# ---------------------------------------------------------------------------------- state
Counter = tuple[int, int]
"""One owned counter: (the corner pointing to the gem, the corner of the marker)."""


@dataclass(frozen=True, slots=True)
class MoorsState:
    """The module's slice (public): the counters left per price, and per player per price the
    owned counter (``None``: none)."""

    supply: tuple[int, ...]
    seats: tuple[tuple[Counter | None, ...], ...]
    seen: tuple[int, ...] | None = field(default=None, compare=False)
    """What the counts were last taken from (per seat: tiles owned and the sum of their ids, and
    unfinished sites), so that an action that moved no tile costs nothing; not saved."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "supply": dict(zip(PRICES, self.supply, strict=True)),
            "seats": [{p: list(c) for p, c in zip(PRICES, row, strict=True) if c is not None} for row in self.seats],
        }

    @classmethod
    def from_dict(cls, raw: Any) -> MoorsState:
        """Read the JSON form back (a :class:`NotationError` on junk)."""
        try:
            supply = tuple(int(raw["supply"][p]) for p in PRICES)
            seats = tuple(tuple((int(row[p][0]), int(row[p][1])) if p in row else None for p in PRICES) for row in raw["seats"])
            extra = [k for row in raw["seats"] for k in row if k not in PRICES]
        except (TypeError, KeyError, ValueError, IndexError) as e:
            raise NotationError(f"bad art_of_the_moors state {raw!r}") from e
        bad = extra or any(v < 0 for v in supply)
        bad = bad or any(c is not None and not (0 <= c[0] <= c[1] < CORNERS) for row in seats for c in row)
        owned = [sum(1 for row in seats if row[i] is not None) for i in range(len(PRICES))]
        bad = bad or any(o + s != t.count for o, s, t in zip(owned, supply, data(), strict=True))
        if bad:
            raise NotationError(f"bad art_of_the_moors state {raw!r}")
        return cls(supply, seats)


moors: Final = slice_reader(MODULE_ID, MoorsState)
"""The module's slice of a game."""


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class DevelopCulture(Action):
    """Development of culture: every counter short of its marker turns one corner on."""

    module = MODULE_ID
    keyword = "culture develop"
    grammar = ()


register_action(DevelopCulture)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


def _label(price: str) -> str:
    return "12/13" if price == "12" else price


@dataclass(frozen=True, slots=True)
class CultureCounterTaken(Event):
    """``seat`` took the culture counter of ``price`` with ``buildings`` of that price: the
    marker on corner ``marker`` (worth ``points`` once turned to the gem)."""

    seat: int
    price: str
    buildings: int
    marker: int
    points: int

    def describe(self) -> str:
        return (
            f"{_p(self.seat)} takes a culture counter for buildings costing {_label(self.price)} "
            f"({self.buildings} buildings: up to {self.points} points)"
        )


@dataclass(frozen=True, slots=True)
class CultureMarkerMoved(Event):
    """``seat``'s counter of ``price`` now has its marker on corner ``marker`` (``buildings`` of that price)."""

    seat: int
    price: str
    buildings: int
    marker: int
    points: int

    def describe(self) -> str:
        return (
            f"{_p(self.seat)} marks {self.buildings} buildings costing {_label(self.price)} on the culture counter "
            f"(up to {self.points} points)"
        )


@dataclass(frozen=True, slots=True)
class CultureDeveloped(Event):
    """``seat`` developed culture: the counters of ``prices`` turned; they now score ``points`` a round in all."""

    seat: int
    prices: tuple[str, ...]
    points: int

    def describe(self) -> str:
        which = ", ".join(_label(p) for p in self.prices)
        return f"{_p(self.seat)} develops culture: the counters for {which} turn; they score {self.points} points a round now"


# ---------------------------------------------------------------------------------- rules
def buildings(state: GameState, seat: int) -> list[int]:
    """``seat``'s base-game buildings per price (``PRICES`` order), in the Alhambra and on the
    reserve board; building sites not yet complete do not count."""
    group = _tables(state.components).group
    p = state.players[seat]
    out = [0] * len(PRICES)
    unbuilt = unbuilt_tiles(state, seat) if len(state.config.modules) > 1 else ()
    for tiles in (p.city.values(), p.reserve):
        for t in tiles:
            g = group[t]
            if g >= 0 and t not in unbuilt:
                out[g] += 1
    return out


def points_now(state: GameState, seat: int) -> int:
    """What ``seat``'s counters score in a scoring round now."""
    return sum(t.points[c[0]] for t, c in zip(data(), moors(state).seats[seat], strict=True) if c is not None)


def can_develop(state: GameState, seat: int) -> bool:
    """Whether some counter of ``seat`` can turn (its gem corner is short of its marker)."""
    return any(c is not None and c[0] < c[1] for c in moors(state).seats[seat])


def update(state: GameState, events: list[Event]) -> None:
    """Take the counters now due and move the markers, the seat whose turn it is first, then in
    turn order (who gets the last counter of a price when two become due at once)."""
    sl = moors(state)
    n = state.config.players
    seen = _fingerprint(state)
    if seen == sl.seen:
        return
    types = data()
    supply = list(sl.supply)
    rows = list(sl.seats)
    changed = False
    first = state.current if 0 <= state.current < n else 0
    for k in range(n):
        seat = (first + k) % n
        counts = buildings(state, seat)
        row = list(rows[seat])
        for i, t in enumerate(types):
            c = row[i]
            have = counts[i]
            if c is None:
                if have >= 2 and supply[i] > 0:
                    m = t.marker_for(have)
                    row[i] = (0, m)
                    supply[i] -= 1
                    events.append(CultureCounterTaken(seat, t.price, have, m, t.points[m]))
                continue
            m = t.marker_for(have)
            if m != c[1]:
                row[i] = (min(c[0], m), m)
                events.append(CultureMarkerMoved(seat, t.price, have, m, t.points[m]))
        if row != list(rows[seat]):
            rows[seat] = tuple(row)
            changed = True
    state.mods[MODULE_ID] = MoorsState(tuple(supply), tuple(rows), seen) if changed else MoorsState(sl.supply, sl.seats, seen)


def _fingerprint(state: GameState) -> tuple[int, ...]:
    """Per seat: the tiles in the Alhambra and on the reserve board (how many, the sum of their
    ids) and the unfinished sites among them: what the building counts depend on."""
    out: list[int] = []
    sites = bool(hook_users(state.config, "unbuilt_tiles")) if len(state.config.modules) > 1 else False
    for s, p in enumerate(state.players):
        out += (len(p.city) + len(p.reserve), sum(p.city.values()) + sum(p.reserve))
        if sites:
            out.append(len(unbuilt_tiles(state, s)))
    return tuple(out)


# ---------------------------------------------------------------------------------- bots
BOT_LATER_ROUND: Final = 0.8
"""Bot estimate: share of a later round's culture points (at today's corners) counted now."""
BOT_POTENTIAL: Final = 0.3
"""Bot estimate: share of the points a counter's marker promises beyond its gem corner (it takes
development actions to reach them)."""


class ArtOfTheMoors(Module):
    """The Art of the Moors."""

    id = MODULE_ID
    title = "The Art of the Moors"
    summary = "Buildings of the same price earn culture counters that score in every round."
    description = (
        "Two or more buildings of the same price (6 to 11, or 12/13; Alhambra and reserve board) earn that price's "
        "culture counter at the end of your turn, its marker set by how many you have. As an action, develop "
        "culture: every counter turns one corner on, up to its marker. Every scoring round pays the corners at the gem."
    )
    assumptions = (
        "Taking a culture counter needs no decision: it is taken as soon as it is due (it can only help). Tiles "
        "bought this turn count once placed, at the end of the turn; tiles bought out of turn (vizier, sultan) and "
        "those handed out at the end count at once.",
        "When two players become due for the last counter of a price at the same moment, the player whose turn it "
        "is takes it first, then the others in turn order.",
        "Development of culture is a whole action: it ends the turn's actions (like a redesign); it may follow an "
        "exact payment, and is offered only while some counter can turn.",
        "A marker follows the number of buildings both ways; if it falls below the gem corner, the gem corner "
        "follows it (it can only fall when a building leaves the player, which the rules barely allow).",
    )
    component_assumptions = (
        "The faces of the culture counters (points and buildings needed at each corner) are known only in part, and "
        "the split of the 20 counters over the prices not at all: components.json has prices 6 and 8 as reported, "
        "9 as the scoring app's table, 7 in part, and 10, 11 and 12/13 designed to top at 21 points within the "
        "buildings of each price; 3 counters for each price from 6 to 11, 2 for 12/13.",
    )

    # ----- setup ------------------------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """Every counter in the supply."""
        n = state.config.players
        state.mods[self.id] = MoorsState(tuple(t.count for t in data()), ((None,) * len(PRICES),) * n)

    # ----- actions ----------------------------------------------------------------------
    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """``culture develop`` while some counter of ``seat`` can turn."""
        return [DevelopCulture()] if can_develop(state, seat) else []

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        if not isinstance(action, DevelopCulture):
            raise IllegalAction(f"{action} is not an art of the moors action")
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, ChooseAction):
            raise WrongPhase("culture is developed as an action of your own turn")
        if not any(c is not None for c in moors(state).seats[top.seat]):
            raise IllegalAction("you have no culture counter to develop")
        if not can_develop(state, top.seat):
            raise IllegalAction("every culture counter of yours already points its marker to the gem")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Turn every counter short of its marker one corner on; the action phase ends."""
        top = state.pending[-1]
        assert isinstance(top, ChooseAction)
        seat = top.seat
        sl = moors(state)
        row = list(sl.seats[seat])
        turned = []
        for i, c in enumerate(row):
            if c is not None and c[0] < c[1]:
                row[i] = (c[0] + 1, c[1])
                turned.append(PRICES[i])
        rows = list(sl.seats)
        rows[seat] = tuple(row)
        state.mods[self.id] = MoorsState(sl.supply, tuple(rows), sl.seen)
        events.append(CultureDeveloped(seat, tuple(turned), points_now(state, seat)))
        finish_turn_action(state, again=False)

    def after_action(self, state: GameState, events: list[Event]) -> None:
        """Counters due are taken, markers follow the buildings."""
        update(state, events)

    # ----- scoring ----------------------------------------------------------------------
    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """Each player's counters: the points of the corners at the gem."""
        return [points_now(state, s) for s in range(state.config.players)]

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """The culture points of the rounds to come at today's corners (the next round in full,
        later ones in part), plus a share of what the markers promise beyond."""
        left = 3 - state.rounds_scored
        if left <= 0 or state.outcome is not None:
            return None
        weight = 1.0 + BOT_LATER_ROUND * (left - 1)
        types = data()
        out = []
        for row in moors(state).seats:
            now = 0.0
            more = 0.0
            for t, c in zip(types, row, strict=True):
                if c is not None:
                    now += t.points[c[0]]
                    more += t.points[c[1]] - t.points[c[0]]
            out.append(weight * now + BOT_POTENTIAL * more * min(left, 2))
        return out

    # ----- views ------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: the counter faces, the supply, and per player their buildings per price and
        their counters (gem corner, marker corner, points now, points at the marker)."""
        sl = moors(state)
        types = data()
        seats = []
        for s, row in enumerate(sl.seats):
            counts = buildings(state, s)
            counters = [
                {"price": t.price, "gem": c[0], "marker": c[1], "points": t.points[c[0]], "marked": t.points[c[1]]}
                for t, c in zip(types, row, strict=True)
                if c is not None
            ]
            seats.append({"buildings": dict(zip(PRICES, counts, strict=True)), "counters": counters, "points_now": points_now(state, s)})
        return {
            "faces": [{"price": t.price, "label": t.label, "points": list(t.points), "needs": list(t.needs)} for t in types],
            "supply": dict(zip(PRICES, sl.supply, strict=True)),
            "seats": seats,
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        rows = [{c["price"]: [c["gem"], c["marker"]] for c in s["counters"]} for s in module_view["seats"]]
        return MoorsState.from_dict({"supply": module_view["supply"], "seats": rows})

    def slice_to_json(self, value: Any) -> Any:
        """The slice's ``to_dict``."""
        assert isinstance(value, MoorsState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`MoorsState`."""
        return MoorsState.from_dict(data)


def counters_of(state: GameState, seat: int) -> dict[str, Counter]:
    """``seat``'s counters by price: ``{"8": (gem, marker)}``."""
    return {p: c for p, c in zip(PRICES, moors(state).seats[seat], strict=True) if c is not None}


def faces() -> Sequence[CounterType]:
    """The counter types (``components.json``)."""
    return data()


MODULE: Final = ArtOfTheMoors()
