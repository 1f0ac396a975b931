"""Street traders: citizens move from a trader tile into the buildings built where it stood.

Flow (all through the plug-in hooks of protocol 2):

* ``setup`` gives every seat a trader tile and one citizen of each colour; the other citizens
  form the general supply (:class:`StreetTradersState` in ``state.mods["street_traders"]``).
* ``setup_decisions``: before the market is filled and the money dealt, every seat (the first seat
  first) chooses three of its six citizens in secret (:class:`StreetTraderChoice`, ``trader choose
  A B C``). The choice lives in the slice and in a private event until everybody has chosen; then
  :class:`StreetTraderCitizensRevealed` shows them all and the unchosen citizens join the supply.
* ``turn_started`` of the first turn: every seat, starting player first, puts its trader tile on a
  side of its fountain (:class:`StreetTraderPlacement`, ``trader place X,Y``).
* ``after_action`` (after any action, in or out of turn): a building that now stands on a
  trader's place sets the trader aside and asks its owner (:class:`StreetTraderArrival`):
  ``trader move KIND`` (a citizen of the building's colour moves in; then ``trader take KIND``
  from the supply, :class:`StreetTraderRestock`), or, if no citizen matches, ``trader exchange
  GIVE TAKE``; or ``trader skip``. A citizen whose building left the Alhambra returns to the supply.
* ``turn_ending`` asks the player to put a set-aside trader tile back next to the Alhambra.
  A trader set aside outside its owner's turn (a vizier purchase) is put back at once.
* ``round_points`` scores the citizens in every scoring round: sets of different colours.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from itertools import combinations
from typing import Any, ClassVar, Final

from ... import city as geo
from ...actions import Action, need_words, parse_kind, register_action, register_parser, usage
from ...components import KINDS
from ...engine.services import occupied_places, unbuilt_tiles
from ...errors import IllegalAction, IllegalPlacement, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module, hook_users
from ...slices import slice_reader
from ...state import STAGE_FINAL, STAGE_TURN, GameConfig, GameState, Pending

MODULE_ID: Final = "street_traders"


# ---------------------------------------------------------------------------------- components
def _load_components() -> dict[str, Any]:
    text = resources.files(__name__.rpartition(".")[0]).joinpath("components.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


COMPONENTS: Final = _load_components()
"""The module's component facts (``components.json``)."""

COLOUR_OF: Final[dict[str, str]] = dict(COMPONENTS["colours"])
"""Citizen colour of each building kind (a citizen moves only into a building of its kind)."""

CITIZENS_PER_COLOUR: Final[int] = int(COMPONENTS["citizens_per_colour"])
TRADER_TILES: Final[int] = int(COMPONENTS["trader_tiles"])
ON_TRADER: Final[int] = int(COMPONENTS["citizens_on_trader"])
SET_POINTS: Final[tuple[int, ...]] = tuple(int(v) for v in COMPONENTS["set_points"])
"""``SET_POINTS[k]``: a set of ``k`` different colours (0-6)."""

if tuple(COLOUR_OF) != KINDS or len(SET_POINTS) != len(KINDS) + 1:  # pragma: no cover - a broken data file
    raise ImportError("street_traders/components.json: one colour per building kind, in the order of KINDS, and 7 set values")

_KI: Final = {k: i for i, k in enumerate(KINDS)}
_CHOICES: Final = tuple(combinations(KINDS, ON_TRADER))


def _kinds_sorted(kinds: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(kinds, key=_KI.__getitem__))


def citizen_points(counts: Sequence[int]) -> int:
    """Points for citizens in the buildings, ``counts`` per colour: sets of different colours,
    each as large as possible (a set of 1/2/3/4/5/6 colours scores 1/3/6/10/15/21). With 3 red,
    2 white, 2 green and 1 blue the sets have 4, 3 and 1 colours: 10 + 6 + 1 = 17."""
    total = 0
    for level in range(1, max(counts, default=0) + 1):
        total += SET_POINTS[sum(1 for c in counts if c >= level)]
    return total


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class TraderSeat:
    """One seat's trader: ``citizens`` on its trader tile (kinds, in the order of the kinds;
    before the reveal: the secret choice, empty while not chosen), ``at`` where the tile stands
    (``(x, y)``; None while set aside or not placed yet) and ``homes``, the building tiles of its
    Alhambra that hold a citizen (tile codes, sorted; the citizen has the building's colour)."""

    citizens: tuple[str, ...] = ()
    at: tuple[int, int] | None = None
    homes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"citizens": list(self.citizens), "at": None if self.at is None else list(self.at), "homes": list(self.homes)}

    @classmethod
    def from_dict(cls, data: Any) -> TraderSeat:
        """Read the JSON form back (clear error on junk)."""
        try:
            cit = data["citizens"]
            at = data["at"]
            homes = data["homes"]
            if not (isinstance(cit, list) and all(k in _KI for k in cit)):
                raise ValueError("citizens")
            if at is not None and not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at)):
                raise ValueError("at")
            if not (isinstance(homes, list) and all(isinstance(h, str) for h in homes)):
                raise ValueError("homes")
            if set(data) != {"citizens", "at", "homes"}:
                raise ValueError("fields")
        except (KeyError, TypeError, ValueError) as e:
            raise NotationError(f"bad street trader {data!r} ({e})") from None
        return cls(tuple(cit), None if at is None else (at[0], at[1]), tuple(homes))


@dataclass(frozen=True, slots=True)
class StreetTradersState:
    """The module's state slice: every seat's trader, the general supply (citizens per kind, in
    the order of the kinds) and whether the setup choices were revealed. Until the reveal every
    seat holds one citizen of each colour besides the supply; the unchosen ones then join it."""

    seats: tuple[TraderSeat, ...]
    supply: tuple[int, ...]
    revealed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"seats": [t.to_dict() for t in self.seats], "supply": list(self.supply), "revealed": self.revealed}

    @classmethod
    def from_dict(cls, data: Any) -> StreetTradersState:
        """Read the JSON form back (clear error on junk)."""
        if not (isinstance(data, dict) and set(data) == {"seats", "supply", "revealed"}):
            raise NotationError(f"bad street traders state {data!r}")
        sup = data["supply"]
        if not (isinstance(sup, list) and len(sup) == len(KINDS) and all(type(v) is int and v >= 0 for v in sup)):
            raise NotationError(f"bad citizen supply {sup!r}")
        if not (isinstance(data["seats"], list) and isinstance(data["revealed"], bool)):
            raise NotationError(f"bad street traders state {data!r}")
        return cls(tuple(TraderSeat.from_dict(t) for t in data["seats"]), tuple(sup), data["revealed"])

    def with_seat(self, seat: int, trader: TraderSeat) -> StreetTradersState:
        """A copy with one seat's trader replaced."""
        seats = list(self.seats)
        seats[seat] = trader
        return replace(self, seats=tuple(seats))

    def with_supply(self, kind: str, delta: int) -> StreetTradersState:
        """A copy with ``delta`` citizens of ``kind`` more in the supply."""
        sup = list(self.supply)
        sup[_KI[kind]] += delta
        return replace(self, supply=tuple(sup))


# ---------------------------------------------------------------------------------- pendings
@dataclass(frozen=True, slots=True)
class StreetTraderChoice(Pending):
    """Setup (before the market is filled): ``seat`` chooses three of its citizens for its trader
    tile, in secret. One per seat (``later``: the seats after it, only in games saved before
    the choice became a setup decision)."""

    module = MODULE_ID
    seat: int
    later: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class StreetTraderPlacement(Pending):
    """``seat`` puts its trader tile on an empty place next to its Alhambra (at the start: a
    side of the fountain); ``later`` do the same after it."""

    module = MODULE_ID
    seat: int
    later: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class StreetTraderArrival(Pending):
    """The building ``tile`` was built where ``seat``'s trader tile stood: a citizen of its colour
    may move in (or, when none matches, one may be exchanged with the supply)."""

    module = MODULE_ID
    seat: int
    tile: str


@dataclass(frozen=True, slots=True)
class StreetTraderRestock(Pending):
    """A citizen moved into a building: ``seat`` takes a new one from the supply onto its trader tile."""

    module = MODULE_ID
    seat: int


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class TraderChoose(Action):
    """Setup, in secret: the three citizens (kinds, one of each chosen colour) for the trader tile."""

    module = MODULE_ID
    keyword = "trader choose"
    grammar = ("kind", "kind", "kind")
    citizens: tuple[str, ...]

    def notation(self) -> str:
        return "trader choose " + " ".join(self.citizens)


@dataclass(frozen=True, slots=True)
class TraderPlace(Action):
    """Put the trader tile on an empty place orthogonally next to one's Alhambra."""

    module = MODULE_ID
    keyword = "trader place"
    grammar = ("cell",)
    target: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TraderMove(Action):
    """The citizen of the new building's colour moves from the trader tile into the building."""

    module = MODULE_ID
    keyword = "trader move"
    grammar = ("kind",)
    kind: str


@dataclass(frozen=True, slots=True)
class TraderTake(Action):
    """Take a citizen of ``kind`` from the supply onto the trader tile (after one moved in)."""

    module = MODULE_ID
    keyword = "trader take"
    grammar = ("kind",)
    kind: str


@dataclass(frozen=True, slots=True)
class TraderExchange(Action):
    """No citizen matches the new building: give the citizen ``give`` back to the supply and take
    one of ``take`` instead."""

    module = MODULE_ID
    keyword = "trader exchange"
    grammar = ("kind", "kind")
    give: str
    take: str


@dataclass(frozen=True, slots=True)
class TraderSkip(Action):
    """Let no citizen move in (or exchange none) for the new building."""

    module = MODULE_ID
    keyword = "trader skip"
    grammar = ()

    declines = True


def _parse_choose(words: list[str]) -> Action:
    need_words(words, 3, usage(TraderChoose))
    return TraderChoose(_kinds_sorted([parse_kind(x) for x in words]))


# choose: three words, one field (the kinds in canonical order), so its own notation and parser
register_parser("trader choose", _parse_choose, TraderChoose)
for _action in (TraderPlace, TraderMove, TraderTake, TraderExchange, TraderSkip):
    register_action(_action)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


def _citizen(kind: str) -> str:
    return f"{COLOUR_OF[kind]} ({kind}) citizen"


@dataclass(frozen=True, slots=True)
class StreetTraderCitizensChosen(Event):
    """A player chose the three citizens for the trader tile, in secret: the other players see
    that they chose, not what (``citizens`` is empty in their copy)."""

    seat: int
    citizens: tuple[str, ...]

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.seat else StreetTraderCitizensChosen(self.seat, ())

    def describe(self) -> str:
        what = f": {', '.join(self.citizens)}" if self.citizens else ""
        return f"{_p(self.seat)} chooses three citizens for the trader tile in secret{what}"


@dataclass(frozen=True, slots=True)
class StreetTraderCitizensRevealed(Event):
    """Everybody has chosen: the citizens on every trader tile are shown (per seat) and the
    citizens nobody chose join the supply (``supply``: per kind, in the order of the kinds)."""

    reveals: ClassVar[bool] = True
    citizens: tuple[tuple[str, ...], ...]
    supply: tuple[int, ...]

    def describe(self) -> str:
        shown = "; ".join(f"{_p(s)}: {', '.join(c)}" for s, c in enumerate(self.citizens))
        return f"the trader tiles are revealed ({shown})"


@dataclass(frozen=True, slots=True)
class StreetTraderPlaced(Event):
    """A player put the trader tile on the empty place ``x``, ``y`` next to the Alhambra."""

    seat: int
    x: int
    y: int

    def describe(self) -> str:
        return f"{_p(self.seat)} puts the trader tile at {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class StreetTraderSetAside(Event):
    """A building (``tile``) was built where a player's trader tile stood: the tile is set aside."""

    seat: int
    tile: str
    x: int
    y: int

    def describe(self) -> str:
        return f"{_p(self.seat)} builds {self.tile} where the trader stood ({self.x},{self.y}): the trader tile is set aside"


@dataclass(frozen=True, slots=True)
class StreetTraderCitizenMovedIn(Event):
    """A citizen moved from the trader tile into the building ``tile`` of its colour."""

    seat: int
    kind: str
    tile: str

    def describe(self) -> str:
        return f"a {_citizen(self.kind)} of {_p(self.seat)} moves into {self.tile}"


@dataclass(frozen=True, slots=True)
class StreetTraderCitizenTaken(Event):
    """A player took a citizen from the supply onto the trader tile."""

    seat: int
    kind: str

    def describe(self) -> str:
        return f"{_p(self.seat)} takes a {_citizen(self.kind)} from the supply onto the trader tile"


@dataclass(frozen=True, slots=True)
class StreetTraderCitizensExchanged(Event):
    """No citizen matched the new building: a player gave ``gave`` back and took ``took``."""

    seat: int
    gave: str
    took: str

    def describe(self) -> str:
        return f"{_p(self.seat)} exchanges a {_citizen(self.gave)} of the trader tile for a {_citizen(self.took)} from the supply"


@dataclass(frozen=True, slots=True)
class StreetTraderSkipped(Event):
    """A player let no citizen move in (or exchanged none) for the new building."""

    seat: int

    def describe(self) -> str:
        return f"{_p(self.seat)} lets no citizen move in and exchanges none"


@dataclass(frozen=True, slots=True)
class StreetTraderCitizenReturned(Event):
    """The building ``tile`` left the Alhambra: its citizen went back to the supply."""

    seat: int
    kind: str
    tile: str

    def describe(self) -> str:
        return f"{self.tile} leaves the Alhambra of {_p(self.seat)}: its {_citizen(self.kind)} returns to the supply"


@dataclass(frozen=True, slots=True)
class StreetTraderRetired(Event):
    """A player's trader tile has no citizen left (the supply ran out): it is not placed again."""

    seat: int

    def describe(self) -> str:
        return f"the trader tile of {_p(self.seat)} has no citizen left and stays out of play"


# ---------------------------------------------------------------------------------- helpers
traders: Final = slice_reader(MODULE_ID, StreetTradersState)
"""The module's slice of ``state``."""


def home_counts(state: GameState, seat: int) -> list[int]:
    """Citizens per colour (in the order of the kinds) in ``seat``'s buildings."""
    comp = state.components
    counts = [0] * len(KINDS)
    for code in traders(state).seats[seat].homes:
        counts[_KI[comp.tiles[comp.tile_ids[code]].kind]] += 1
    return counts


def trader_spots(state: GameState, seat: int) -> list[tuple[int, int]]:
    """Where ``seat`` may put its trader tile: every empty place orthogonally next to a tile of
    its Alhambra (fountain included), west to east within rows north to south. A place a
    module's piece fills (a camp: ``engine.occupied_places``) is not empty."""
    filled = occupied_places(state, seat)
    return [geo.xy(q) for q in geo.frontier(state.players[seat].city) if q not in filled]


def _base_kind(state: GameState, code: str) -> str | None:
    """The building kind of a tile if citizens may live in it (a base kind, and not an unfinished
    building of the building_sites module: residents go on completed buildings only), else None."""
    comp = state.components
    kind = comp.tiles[comp.tile_ids[code]].kind
    if kind not in _KI:
        return None
    tid = comp.tile_ids[code]
    if any(tid in unbuilt_tiles(state, s) for s in range(state.config.players)):  # a building site (Module.unbuilt_tiles)
        return None
    return kind


def _needs_placing(state: GameState, sl: StreetTradersState, seat: int) -> bool:
    """The trader has citizens and stands nowhere valid (set aside, or its neighbours were
    taken out of the Alhambra)."""
    ts = sl.seats[seat]
    if not ts.citizens:
        return False
    if ts.at is None:
        return True
    q = geo.pos(*ts.at)
    city = state.players[seat].city
    return q in city or q in occupied_places(state, seat) or all(q + d not in city for d in _STEPS)


_STEPS: Final = tuple(geo.pos(x, y) - geo.ORIGIN for x, y in ((0, -1), (1, 0), (0, 1), (-1, 0)))

_P_BASE: Final = 0.15
"""Bots: the chance that a citizen on the trader tile moves into a building some day."""
_P_FIT: Final = 0.4
"""Bots: the same when a market or reserve tile of its kind can be built on the trader's place."""


# ---------------------------------------------------------------------------------- module
class StreetTraders(Module):
    """Street traders."""

    id = MODULE_ID
    title = "Street traders"
    summary = "Citizens move into your trader tile and score in sets of colours."
    description = (
        "Each player's trader tile stands next to the Alhambra with three citizens; a building built on its place lets a "
        "citizen of its colour move in (then a new one comes from the supply). Every scoring round, citizens score in sets "
        "of different colours: 1/3/6/10/15/21 points for 1-6 colours."
    )
    assumptions = (
        "The secret choice of the three citizens is a setup decision taken before the building market is filled and "
        "the starting money dealt (rulebook order), one player after the other from the first seat (there is no "
        "starting player yet); the choices are hidden until everybody has chosen, then revealed together. At the start "
        "of the first turn each player, starting player first, puts the trader tile on a side of the fountain.",
        "Moving a matching citizen in is optional (the rulebook says 'can'); only a player who moved one in takes a new "
        "citizen from the supply, and must then take one (any colour left in the supply) if the supply is not empty.",
        "The exchange with the supply is allowed only when no citizen on the trader tile has the building's colour, and "
        "it is optional; a citizen is exchanged for one of another colour.",
        "Only the six base building kinds take citizens: on any other tile (a bazaar, a square...) nobody moves in, and "
        "a citizen may be exchanged instead.",
        "A building placed on the trader's place outside its owner's turn (a vizier purchase) triggers the trader "
        "too; the trader tile is then put back at once, at the end of that out-of-turn move. During the final "
        "distribution of the last market tiles it is not put back (the game ends).",
        "The trader tile is put back at the end of the turn if it was set aside, and also if a redesign took away "
        "every tile next to it (it must stand next to the Alhambra). It may stand on any empty place orthogonally "
        "next to the Alhambra, also where no tile could ever be built.",
        "A trader tile without citizens (possible only once the supply is empty) can never do anything again: it is not placed again.",
        "The trader tile is not part of the Alhambra: it has no walls, a tile may be built on its place, and it does "
        "not count for holes or any building rule.",
        "A citizen belongs to its building tile: when the tile leaves the Alhambra (to the reserve board, also by an "
        "exchange) the citizen returns to the supply; a tile built again later has no citizen.",
    )
    component_assumptions = ()

    # ----- setup ------------------------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """Every seat holds one citizen of each colour (not chosen yet); the rest is the supply."""
        n = state.config.players
        state.mods[self.id] = StreetTradersState((TraderSeat(),) * n, (CITIZENS_PER_COLOUR - n,) * len(KINDS))

    def setup_decisions(self, state: GameState) -> list[Pending]:
        """Before the building market is filled (rulebook: "Before the building tiles are placed
        in the building market, each player is given a trader tile and a citizen of each color.
        The player secretly chooses three of these citizens"): one secret choice per seat, seat 1
        first (no starting player yet; the choices are hidden until all have chosen)."""
        return [StreetTraderChoice(s) for s in range(state.config.players)]

    def turn_started(self, state: GameState, seat: int, events: list[Event]) -> None:
        """First turn: before anybody acts, every seat puts its trader tile on a side of its
        fountain (starting player first)."""
        sl = traders(state)
        if state.turn != 1 or not sl.revealed or any(ts.at is not None for ts in sl.seats):
            return
        if any(isinstance(p, StreetTraderPlacement) for p in state.pending):
            return
        order = _order_from(state, state.current)
        state.pending.append(StreetTraderPlacement(order[0], tuple(order[1:])))

    # ----- decisions --------------------------------------------------------------------
    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """The legal answers to this module's open decision."""
        sl = traders(state)
        if isinstance(pending, StreetTraderChoice):
            return [TraderChoose(c) for c in _CHOICES]
        if isinstance(pending, StreetTraderPlacement):
            return [TraderPlace(xy) for xy in trader_spots(state, pending.seat)]
        if isinstance(pending, StreetTraderArrival):
            return _arrival_actions(state, sl, pending)
        if isinstance(pending, StreetTraderRestock):
            return [TraderTake(k) for k, left in zip(KINDS, sl.supply, strict=True) if left > 0]
        return []  # pragma: no cover - every pending of the module is handled above

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        sl = traders(state)
        if isinstance(action, TraderChoose):
            if not isinstance(top, StreetTraderChoice):
                raise WrongPhase("the citizens for the trader tile are chosen at the start of the game, when the game asks you")
            if len(action.citizens) != ON_TRADER:
                raise IllegalAction(f"choose exactly {ON_TRADER} citizens for the trader tile")
            if any(k not in _KI for k in action.citizens):
                raise IllegalAction(f"citizens have the colours of the building kinds: {', '.join(KINDS)}")
            if len(set(action.citizens)) != len(action.citizens):
                raise IllegalAction("you have one citizen of each colour: choose three different colours")
            if action.citizens != _kinds_sorted(action.citizens):
                raise IllegalAction(f"list the citizens in the order of the building kinds: {' '.join(_kinds_sorted(action.citizens))}")
            return
        if isinstance(action, TraderPlace):
            if not isinstance(top, StreetTraderPlacement):
                raise WrongPhase("the trader tile is put back only at the end of a turn in which it was set aside, or at the start")
            x, y = action.target
            if not (-500 < x < 500 and -500 < y < 500):
                raise IllegalPlacement(f"{x},{y} is far outside your Alhambra", "adjacent")
            q = geo.pos(x, y)
            city = state.players[top.seat].city
            if q in city or q in occupied_places(state, top.seat):
                raise IllegalPlacement(f"{x},{y} already holds a tile: the trader tile stands on an empty place", "occupied")
            if all(q + d not in city for d in _STEPS):
                raise IllegalPlacement(
                    f"the trader tile must stand orthogonally next to a tile of your Alhambra, not at {x},{y}", "adjacent"
                )
            return
        if isinstance(action, TraderMove | TraderExchange | TraderSkip):
            if not isinstance(top, StreetTraderArrival):
                raise WrongPhase("citizens move in only when a building is built where your trader tile stands")
            ts = sl.seats[top.seat]
            kind = _base_kind(state, top.tile)
            match = kind is not None and kind in ts.citizens
            if isinstance(action, TraderMove):
                if kind is None:
                    raise IllegalAction(f"citizens may not move into {top.tile}: only finished buildings of the six kinds take citizens")
                if action.kind != kind:
                    raise IllegalAction(f"a {_citizen(action.kind)} cannot move into {top.tile}, a {kind}")
                if not match:
                    raise IllegalAction(f"there is no {_citizen(kind)} on your trader tile")
            elif isinstance(action, TraderExchange):
                if match:
                    raise IllegalAction(f"a citizen of the colour of {top.tile} is on your trader tile: it may move in; no exchange")
                if action.give not in ts.citizens:
                    raise IllegalAction(f"there is no {_citizen(action.give)} on your trader tile")
                if action.take == action.give:
                    raise IllegalAction("exchange a citizen for one of another colour")
                if sl.supply[_KI[action.take]] <= 0:
                    raise IllegalAction(f"the supply has no {_citizen(action.take)} left")
            return
        if isinstance(action, TraderTake):
            if not isinstance(top, StreetTraderRestock):
                raise WrongPhase("a citizen is taken from the supply only after one moved into a building")
            if sl.supply[_KI[action.kind]] <= 0:
                raise IllegalAction(f"the supply has no {_citizen(action.kind)} left")
            return
        raise IllegalAction(f"{action} is not a street trader action")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry out a checked street trader action."""
        top = state.pending[-1]
        seat = top.seat
        sl = traders(state)
        ts = sl.seats[seat]
        if isinstance(action, TraderChoose):
            assert isinstance(top, StreetTraderChoice)
            sl = sl.with_seat(seat, replace(ts, citizens=action.citizens))
            events.append(StreetTraderCitizensChosen(seat, action.citizens))
            if top.later:  # a choice that names the seats after it (a game saved before setup decisions)
                state.pending[-1] = StreetTraderChoice(top.later[0], top.later[1:])
            else:
                state.pending.pop()
            if any(isinstance(p, StreetTraderChoice) for p in state.pending):
                state.mods[self.id] = sl
                return
            sup = list(sl.supply)
            for t in sl.seats:
                for k in KINDS:
                    if k not in t.citizens:
                        sup[_KI[k]] += 1
            sl = replace(sl, supply=tuple(sup), revealed=True)
            state.mods[self.id] = sl
            events.append(StreetTraderCitizensRevealed(tuple(t.citizens for t in sl.seats), sl.supply))
            if state.turn >= 1:  # (a saved game that chose at the first turn) the placement follows now
                order = _order_from(state, state.current)
                state.pending.append(StreetTraderPlacement(order[0], tuple(order[1:])))
            return
        if isinstance(action, TraderPlace):
            assert isinstance(top, StreetTraderPlacement)
            state.mods[self.id] = sl.with_seat(seat, replace(ts, at=action.target))
            events.append(StreetTraderPlaced(seat, *action.target))
            if top.later:
                state.pending[-1] = StreetTraderPlacement(top.later[0], top.later[1:])
            else:
                state.pending.pop()
            return
        if isinstance(action, TraderMove):
            assert isinstance(top, StreetTraderArrival)
            cit = list(ts.citizens)
            cit.remove(action.kind)
            sl = sl.with_seat(seat, replace(ts, citizens=tuple(cit), homes=tuple(sorted((*ts.homes, top.tile)))))
            state.mods[self.id] = sl
            events.append(StreetTraderCitizenMovedIn(seat, action.kind, top.tile))
            if sum(sl.supply) > 0:
                state.pending[-1] = StreetTraderRestock(seat)
            else:
                self._done(state, seat, events)
            return
        if isinstance(action, TraderTake):
            state.mods[self.id] = sl.with_seat(seat, replace(ts, citizens=_kinds_sorted((*ts.citizens, action.kind)))).with_supply(
                action.kind, -1
            )
            events.append(StreetTraderCitizenTaken(seat, action.kind))
            self._done(state, seat, events)
            return
        if isinstance(action, TraderExchange):
            cit = list(ts.citizens)
            cit.remove(action.give)
            cit.append(action.take)
            sl = sl.with_seat(seat, replace(ts, citizens=_kinds_sorted(cit))).with_supply(action.give, 1).with_supply(action.take, -1)
            state.mods[self.id] = sl
            events.append(StreetTraderCitizensExchanged(seat, action.give, action.take))
            self._done(state, seat, events)
            return
        assert isinstance(action, TraderSkip)
        events.append(StreetTraderSkipped(seat))
        self._done(state, seat, events)

    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """Skip what nobody needs to decide: a trader that needs no placing, an arrival where
        nothing can move in or be exchanged, a restock from an empty supply."""
        sl = traders(state)
        if isinstance(pending, StreetTraderPlacement):
            seats = [pending.seat, *pending.later]
            while seats and not _needs_placing(state, sl, seats[0]):
                seats.pop(0)
            if not seats:
                state.pending.pop()
            elif seats[0] != pending.seat:
                state.pending[-1] = StreetTraderPlacement(seats[0], tuple(seats[1:]))
            return
        if isinstance(pending, StreetTraderArrival):
            if _arrival_actions(state, sl, pending) == [TraderSkip()]:
                self._done(state, pending.seat, events)
            return
        if isinstance(pending, StreetTraderRestock) and sum(sl.supply) == 0:
            self._done(state, pending.seat, events)

    def _done(self, state: GameState, seat: int, events: list[Event]) -> None:
        """The arrival is resolved: a trader tile without citizens retires; otherwise it waits
        set aside for the end of its owner's turn, or (outside that turn) is put back now."""
        state.pending.pop()
        sl = traders(state)
        if not sl.seats[seat].citizens:
            events.append(StreetTraderRetired(seat))
            return
        if state.stage == STAGE_FINAL or self._before_turn_end(state, seat):
            return
        if _needs_placing(state, sl, seat):
            state.pending.append(StreetTraderPlacement(seat))

    def _before_turn_end(self, state: GameState, seat: int) -> bool:
        """True during ``seat``'s own turn before this module's ``turn_ending`` ran (the trader
        tile then waits set aside until the end of the turn)."""
        if state.stage != STAGE_TURN or seat != state.current:
            return False
        return state.flow <= hook_users(state.config, "turn_ending").index(self)

    # ----- turn points ------------------------------------------------------------------
    def after_action(self, state: GameState, events: list[Event]) -> None:
        """A building on a trader's place sets the trader aside and asks its owner whether a
        citizen moves in; a citizen whose building left the Alhambra returns to the supply."""
        sl = traders(state)
        if not sl.revealed:
            return
        comp = state.components
        arrivals: list[Pending] = []
        new = sl
        for s in _order_from(state, state.current):
            ts = before = new.seats[s]
            city = state.players[s].city
            if ts.homes:
                present = set(city.values())
                gone = [code for code in ts.homes if comp.tile_ids[code] not in present]
                if gone:
                    for code in gone:
                        kind = comp.tiles[comp.tile_ids[code]].kind
                        new = new.with_supply(kind, 1)
                        events.append(StreetTraderCitizenReturned(s, kind, code))
                    ts = replace(ts, homes=tuple(h for h in ts.homes if h not in gone))
            if ts.at is not None:
                q = geo.pos(*ts.at)
                if q in city:
                    code = comp.tiles[city[q]].code
                    events.append(StreetTraderSetAside(s, code, *ts.at))
                    ts = replace(ts, at=None)
                    arrivals.append(StreetTraderArrival(s, code))
            if ts is not before:
                new = new.with_seat(s, ts)
        if new != sl:
            state.mods[self.id] = new
        state.pending.extend(reversed(arrivals))

    def turn_ending(self, state: GameState, events: list[Event]) -> None:
        """At the end of the turn: a set-aside trader tile goes back next to the Alhambra."""
        sl = traders(state)
        if not sl.revealed:
            return
        need = [s for s in _order_from(state, state.current) if _needs_placing(state, sl, s)]
        if need:
            state.pending.append(StreetTraderPlacement(need[0], tuple(need[1:])))

    # ----- scoring ----------------------------------------------------------------------
    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """Every scoring round: each seat's citizens in sets of different colours."""
        return [citizen_points(home_counts(state, s)) for s in range(state.config.players)]

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Citizens in buildings: their set points once per scoring round still to come. A
        citizen on the trader tile: the points it would add, times the rounds to come, times the
        chance it moves in (higher when a market or reserve tile of its colour can be built on
        the trader's place). A citizen about to move in (the decision is open) counts fully."""
        sl = traders(state)
        if not sl.revealed or state.outcome is not None:
            return None
        left = 3 - state.rounds_scored
        if left <= 0:
            return None
        top = state.pending[-1] if state.pending else None
        out: list[float] = []
        for s in range(state.config.players):
            ts = sl.seats[s]
            counts = home_counts(state, s)
            base = citizen_points(counts)
            value = float(base * left)
            wanted = set(ts.citizens)
            if isinstance(top, StreetTraderRestock) and top.seat == s:
                wanted |= {k for k, v in zip(KINDS, sl.supply, strict=True) if v > 0}
            gains: dict[str, int] = {}
            for k in wanted:
                i = _KI[k]
                counts[i] += 1
                gains[k] = citizen_points(counts) - base
                counts[i] -= 1
            if ts.citizens:
                fits = _fitting_kinds(state, s, ts.at)
                for k in set(ts.citizens):
                    value += (_P_FIT if k in fits else _P_BASE) * gains[k] * left
            if top is not None and top.seat == s:
                if isinstance(top, StreetTraderArrival):
                    kind = _base_kind(state, top.tile)
                    if kind is not None and kind in ts.citizens:
                        value += (1.0 - _P_BASE) * gains[kind] * left
                elif isinstance(top, StreetTraderRestock) and gains:
                    value += _P_BASE * max(gains[k] for k in gains) * left
            out.append(value)
        return out

    # ----- views and persistence --------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: the supply, where every trader tile stands, the citizens in the buildings and
        their points; the citizens on the trader tiles once revealed (before: only one's own)."""
        sl = traders(state)
        comp = state.components
        seats = []
        for s, ts in enumerate(sl.seats):
            shown = sl.revealed or viewer == s
            seats.append(
                {
                    "seat": s,
                    "chosen": sl.revealed or bool(ts.citizens),
                    "citizens": list(ts.citizens) if shown else None,
                    "at": None if ts.at is None else list(ts.at),
                    "homes": [{"tile": code, "kind": comp.tiles[comp.tile_ids[code]].kind} for code in ts.homes],
                    "points": citizen_points(home_counts(state, s)),
                }
            )
        return {
            "revealed": sl.revealed,
            "supply": {k: v for k, v in zip(KINDS, sl.supply, strict=True)},
            "traders": seats,
            "colours": dict(COLOUR_OF),
            "set_points": list(SET_POINTS),
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The slice from a view; a choice the viewer may not see yet is filled in with a fixed
        guess (the first three colours)."""
        return _slice_from_view(module_view, lambda: KINDS[:ON_TRADER])

    def sample_slice(self, state: GameState, module_view: dict[str, Any], viewer: int, rng: random.Random) -> Any:
        """Per sample: another seat's hidden choice is drawn at random (three different colours)."""
        return _slice_from_view(module_view, lambda: _kinds_sorted(rng.sample(KINDS, ON_TRADER)))

    def slice_to_json(self, value: Any) -> Any:
        """The slice as plain JSON data."""
        assert isinstance(value, StreetTradersState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`StreetTradersState`."""
        return StreetTradersState.from_dict(data)


def _order_from(state: GameState, first: int) -> list[int]:
    n = state.config.players
    return [(first + i) % n for i in range(n)]


def _arrival_actions(state: GameState, sl: StreetTradersState, pending: StreetTraderArrival) -> list[Action]:
    ts = sl.seats[pending.seat]
    kind = _base_kind(state, pending.tile)
    if kind is not None and kind in ts.citizens:
        return [TraderMove(kind), TraderSkip()]
    out: list[Action] = []
    for give in _kinds_sorted(set(ts.citizens)):
        for take, left in zip(KINDS, sl.supply, strict=True):
            if left > 0 and take != give:
                out.append(TraderExchange(give, take))
    out.append(TraderSkip())
    return out


def _fitting_kinds(state: GameState, seat: int, at: tuple[int, int] | None) -> set[str]:
    """Kinds of the market and reserve tiles that could be built on the trader's place now."""
    if at is None:
        return set()
    comp = state.components
    walls = state.walls
    city = state.players[seat].city
    q = geo.pos(*at)
    out: set[str] = set()
    for t in (*state.market, *state.players[seat].reserve):
        if t < 0:
            continue
        kind = comp.tiles[t].kind
        if kind in _KI and kind not in out and geo.placement_problem(city, walls, walls[t], q) is None:
            out.add(kind)
    return out


def _slice_from_view(mv: dict[str, Any], guess: Callable[[], tuple[str, ...]]) -> StreetTradersState:
    seats = []
    for t in mv["traders"]:
        cit = t["citizens"]
        citizens: tuple[str, ...] = (guess() if t["chosen"] else ()) if cit is None else tuple(cit)
        at = t["at"]
        seats.append(TraderSeat(citizens, None if at is None else (int(at[0]), int(at[1])), tuple(h["tile"] for h in t["homes"])))
    return StreetTradersState(tuple(seats), tuple(int(mv["supply"][k]) for k in KINDS), bool(mv["revealed"]))


MODULE: Final = StreetTraders()
"""Street traders (Big Box module ``street_traders``): see ``README.md``."""
