"""Camps: eight camp tiles in the bag, bought like buildings, built outside the city walls with a
bastion against a city wall; every round each bastion's arrow scores the buildings in a straight
line behind it.

Model: a camp never enters ``PlayerState.city``. A placed camp lives in this module's slice,
per seat ``(x, y, code)``; the core then sees its cell as empty ground outside the walls, which is
what the rules make of it (no path to it, the wall behind a bastion still an outer wall).

Flow (plug-in hooks):

* ``extra_tiles``: the 8 camps (kind ``camp``, ``in_bag=True``: the core shuffles them into the
  bag; they come onto the market and are bought like building tiles).
* ``place_actions``: while a camp waits to be placed, ``camp place CODE X,Y`` for each legal camp
  place (the core adds the reserve, and the neutral player in 2-player purchases);
  ``placement_problem`` keeps camps out of the core's city places and adds the camps' rules to
  every building placement; ``removal_problem`` to every removal in a redesign.
* ``turn_actions`` = ``redesign_actions``: the camps' redesigns (``camp build``, ``camp
  remove``, ``camp exchange``), each a whole action (``engine.finish_redesign``), also a
  master-builder card's extra redesign (``engine.redesign_seat``).
* ``round_points``: the arrows' lines, every round.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from ... import city as geo
from ...actions import Action, parse_tile, register_action
from ...components import OPPOSITE, SIDE_DELTAS, SIDE_LETTERS, SIDES, ComponentSet, TileType, letters_to_walls, walls_to_letters
from ...engine.services import finish_redesign, place_waiting, redesign_seat
from ...errors import IllegalAction, IllegalPlacement, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module
from ...slices import ModuleState, slice_reader
from ...state import GameConfig, GameState, Pending, PlaceTiles

MODULE_ID: Final = "camps"
CAMP_KIND: Final = "camp"
"""``TileType.kind`` of a camp (no building kind: it scores no majority)."""
WATCHTOWER_KIND: Final = "watchtower"
"""The watchtowers' tile kind: a camp may not touch one, and one breaks a camp's line (p. 29)."""


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class CampsData:
    """The module's data file, read once: each camp's price and bastion sides (a wall mask)."""

    camps: tuple[tuple[int, int], ...]


@cache
def data() -> CampsData:
    """Read ``components.json`` and check it."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    if raw.get("kind") != CAMP_KIND:
        raise ValueError("camps: the data file's kind must be 'camp'")
    camps = tuple((int(c["price"]), letters_to_walls(str(c["bastions"]))) for c in raw["camps"])
    if any(not 1 <= b.bit_count() <= 2 for _, b in camps):
        raise ValueError("camps: every camp shows one or two bastions")
    codes = [camp_code(p, b) for p, b in camps]
    if len(set(codes)) != len(codes):
        raise ValueError("camps: two camps share a code (price and bastions)")
    return CampsData(camps)


def camp_code(price: int, bastions: int) -> str:
    """``L8ne``: ``L`` (Lager), the price, the bastion letters in N E S W order."""
    return f"L{price}{walls_to_letters(bastions)}"


BASTIONS: Final = {camp_code(p, b): b for p, b in data().camps}
"""Each camp's bastion sides (a wall mask), by code."""


def camp_tiles() -> list[TileType]:
    """The 8 camps (kind ``camp``, into the bag; their ``walls`` are the bastions, for drawing)."""
    return [TileType(camp_code(p, b), CAMP_KIND, p, b, module=MODULE_ID, in_bag=True) for p, b in data().camps]


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per game's components: each tile id's bastions (-1: not a camp) and whether it is a watchtower
    (``comp`` None: the tiles of a layout, by index)."""

    comp: ComponentSet | None
    bastions: tuple[int, ...]
    tower: tuple[bool, ...]


_TABLES: dict[int, _Tables] = {}


def tables(comp: ComponentSet) -> _Tables:
    """The per-components lookup tables (cached)."""
    got = _TABLES.get(id(comp))
    if got is None or got.comp is not comp:
        got = _TABLES[id(comp)] = _Tables(
            comp,
            tuple(BASTIONS.get(t.code, -1) if t.kind == CAMP_KIND else -1 for t in comp.tiles),
            tuple(t.kind == WATCHTOWER_KIND for t in comp.tiles),
        )
    return got


def layout_tables(kinds: Sequence[str], walls: Sequence[int]) -> _Tables:
    """The lookup tables for the tiles of a layout (``alhambra score``), by their index: a camp's
    walls are its bastions."""
    return _Tables(
        None, tuple(w if k == CAMP_KIND else -1 for k, w in zip(kinds, walls, strict=True)), tuple(k == WATCHTOWER_KIND for k in kinds)
    )


def is_camp(comp: ComponentSet, tile: int) -> bool:
    """Whether tile id ``tile`` is a camp."""
    return tables(comp).bastions[tile] >= 0


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True, order=True)
class CampAt:
    """A camp outside a seat's city walls: its place and code (sorted by place)."""

    x: int
    y: int
    camp: str


@dataclass(frozen=True, slots=True)
class CampsState(ModuleState):
    """The module's slice (public): per seat its camps outside the city, sorted. JSON form from
    :class:`~alhambra.slices.ModuleState`: ``{"placed": [[{"x", "y", "camp"}, ...], ...]}``."""

    module = MODULE_ID
    placed: tuple[tuple[CampAt, ...], ...]

    def check(self) -> None:
        """Known camps, each once; one camp a place."""
        codes = [c.camp for row in self.placed for c in row]
        if any(c not in BASTIONS for c in codes) or len(set(codes)) != len(codes):
            raise ValueError("unknown or repeated camps")
        if any(len({(c.x, c.y) for c in row}) != len(row) for row in self.placed):
            raise ValueError("two camps on one place")


camps_state: Final = slice_reader(MODULE_ID, CampsState)
"""The module's slice of a game."""


def camps_of(state: GameState, seat: int) -> dict[int, int]:
    """``seat``'s camps: position -> tile id."""
    ids = state.components.tile_ids
    return {geo.pos(c.x, c.y): ids[c.camp] for c in camps_state(state).placed[seat]}


def effective_walls(state: GameState) -> Sequence[int]:
    """Every tile's walls as they stand now (``GameState.walls``: modules may change them)."""
    return state.walls


def _with_row(state: GameState, seat: int, row: list[CampAt]) -> None:
    placed = list(camps_state(state).placed)
    placed[seat] = tuple(sorted(row))
    state.mods[MODULE_ID] = CampsState(tuple(placed))


# ---------------------------------------------------------------------------------- geometry
RULES: Final = {
    "occupied": "that place already holds a tile or a camp",
    "not_in_city": "a camp is built outside the city walls: place it with 'camp place', never as a building",
    "green_side": "a camp touches a building tile only with a bastion (its green sides only touch other camps' green sides)",
    "no_wall": "a bastion must stand against a city wall of the building tile it touches",
    "bastion_camp": "camps touch one another only with sides without bastions",
    "joined": "a camp must be joined by a bastion to the city wall of a building tile",
    "watchtower": "camps cannot be attached to watchtower tiles",
    "no_holes": "no empty area may be surrounded on all sides by tiles and camps",
    "camp_alone": "a camp next to it would then have no bastion against a city wall",
}
"""A readable sentence for each camp rule id."""

_STEPS: Final = tuple((side, geo.pos(*SIDE_DELTAS[side]) - geo.ORIGIN, OPPOSITE[side]) for side in SIDES)
"""(side, position delta, opposite side) for N, E, S, W."""


def _merged(cells: Mapping[int, int], camps: Mapping[int, int]) -> dict[int, int]:
    out = dict(cells)
    out.update(camps)
    return out


def _hole_at(occupied: Mapping[int, int], start: int) -> bool:
    """True if the empty region holding ``start`` (empty in ``occupied``) cannot reach outside
    the box around ``occupied`` (widened by one): an enclosed area."""
    xs = [p % 1024 for p in occupied]
    ys = [p // 1024 for p in occupied]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        px, py = p % 1024, p // 1024
        if px <= x0 or px >= x1 or py <= y0 or py >= y1:
            return False
        for _, d, _ in _STEPS:
            q = p + d
            if q not in seen and q not in occupied:
                seen.add(q)
                stack.append(q)
    return True


def camp_problem(
    cells: Mapping[int, int], walls: Sequence[int], camps: Mapping[int, int], tab: _Tables, bastions: int, q: int
) -> str | None:
    """The first camp rule that a camp with ``bastions`` on empty place ``q`` breaks, or None.

    ``cells`` is the city (position -> tile id), ``camps`` the seat's other camps."""
    if q in cells or q in camps:
        return "occupied"
    joined = False
    for side, d, opp in _STEPS:
        n = q + d
        t = cells.get(n)
        if t is not None:
            if tab.tower[t]:
                return "watchtower"
            if not bastions & side:
                return "green_side"
            if not walls[t] & opp:
                return "no_wall"
            joined = True
            continue
        c = camps.get(n)
        if c is not None and (bastions & side or tab.bastions[c] & opp):
            return "bastion_camp"
    if not joined:
        return "joined"
    if geo.creates_hole_with(cells, camps, q):
        return "no_holes"
    return None


def building_problem(cells: Mapping[int, int], camps: Mapping[int, int], tab: _Tables, tile: int, tile_walls: int, q: int) -> str | None:
    """The first camp rule that building tile ``tile`` (with ``tile_walls``) on ``q`` breaks: ``q``
    empty (a placement) or holding a tile (an exchange). None if the camps allow it."""
    if q in camps:
        return "occupied"
    for side, d, opp in _STEPS:
        c = camps.get(q + d)
        if c is None:
            continue
        if tab.tower[tile]:
            return "watchtower"
        if not tab.bastions[c] & opp:
            return "green_side"
        if not tile_walls & side:
            return "no_wall"
    if q not in cells and geo.creates_hole_with(cells, camps, q):
        return "no_holes"
    return None


def _still_joined(cells: Mapping[int, int], walls: Sequence[int], bastions: int, q: int) -> bool:
    """Whether the camp on ``q`` (with ``bastions``) has a bastion against a city wall in ``cells``."""
    for side, d, opp in _STEPS:
        t = cells.get(q + d)
        if t is not None and bastions & side and walls[t] & opp:
            return True
    return False


def removal_problem(cells: Mapping[int, int], walls: Sequence[int], camps: Mapping[int, int], tab: _Tables, q: int) -> str | None:
    """The camp rule that taking the tile (or camp) on ``q`` away breaks, or None."""
    if not camps:
        return None
    rest = {p: t for p, t in cells.items() if p != q}
    if q in cells:
        for _, d, _ in _STEPS:
            c = camps.get(q + d)
            if c is not None and not _still_joined(rest, walls, tab.bastions[c], q + d):
                return "camp_alone"
    others = {p: t for p, t in camps.items() if p != q}
    if _hole_at(_merged(rest, others), q):
        return "no_holes"
    return None


def arrow_points(cells: Mapping[int, int], tab: _Tables, q: int, side: int) -> int:
    """The buildings in the straight unbroken line from the camp on ``q`` through its ``side``
    (interior walls do not break it; an empty place or a watchtower does)."""
    d = geo.pos(*SIDE_DELTAS[side]) - geo.ORIGIN
    n = 0
    p = q + d
    while True:
        t = cells.get(p)
        if t is None or tab.tower[t]:
            return n
        n += 1
        p += d


def camp_lines(cells: Mapping[int, int], tab: _Tables, bastions: int, q: int) -> int:
    """What a camp with ``bastions`` on ``q`` scores: the buildings in all its arrows' lines."""
    return sum(arrow_points(cells, tab, q, s) for s in SIDES if bastions & s)


def camp_points(state: GameState, seat: int) -> int:
    """What ``seat``'s camps score in a round now."""
    sl = camps_state(state).placed[seat]
    if not sl:
        return 0
    tab = tables(state.components)
    cells = state.players[seat].city
    total = 0
    for c in sl:
        total += camp_lines(cells, tab, BASTIONS[c.camp], geo.pos(c.x, c.y))
    return total


def camp_spots(state: GameState, seat: int, tile: int) -> list[tuple[int, int]]:
    """Every place (x, y) of ``seat``'s Alhambra where the camp ``tile`` may be built now, ascending."""
    tab = tables(state.components)
    cells = state.players[seat].city
    camps = camps_of(state, seat)
    walls = effective_walls(state)
    b = tab.bastions[tile]
    return [geo.xy(q) for q in geo.frontier(cells) if camp_problem(cells, walls, camps, tab, b, q) is None]


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class PlaceCamp(Action):
    """Build a waiting camp at a place outside the city walls (``camp place L8ne 2,-1``)."""

    module = MODULE_ID
    keyword = "camp place"
    grammar = ("tile", "cell")
    tile: str
    target: tuple[int, int]


@dataclass(frozen=True, slots=True)
class BuildCamp(Action):
    """Redesign: build a camp from the reserve board (``camp build L3n 0,2``)."""

    module = MODULE_ID
    keyword = "camp build"
    grammar = ("tile", "cell")
    tile: str
    target: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RemoveCamp(Action):
    """Redesign: move a camp of the Alhambra to the reserve board (``camp remove L3n``)."""

    module = MODULE_ID
    keyword = "camp remove"
    grammar = ("tile",)
    tile: str


@dataclass(frozen=True, slots=True)
class ExchangeCamp(Action):
    """Redesign: a reserve camp takes the place of a placed camp (``camp exchange L3n L8ne``)."""

    module = MODULE_ID
    keyword = "camp exchange"
    grammar = ("tile", "tile")
    reserve_tile: str
    camp: str


def _camp_word(word: str) -> str:
    """The code in any case, as the core reads tile codes (``l3N`` is ``L3n``)."""
    word = parse_tile(word)
    if word not in BASTIONS:
        raise NotationError(f"{word!r} is not a camp (camps: {', '.join(BASTIONS)})")
    return word


for _action in (PlaceCamp, BuildCamp, RemoveCamp, ExchangeCamp):
    register_action(_action, tile=_camp_word)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class CampPlaced(Event):
    """``seat`` built the camp ``camp`` at ``x, y`` (a bought camp, or one from the reserve board:
    ``redesign``)."""

    seat: int
    camp: str
    x: int
    y: int
    redesign: bool = False

    def describe(self) -> str:
        how = "builds" if self.redesign else "places"
        src = " from the reserve board" if self.redesign else ""
        return f"{_p(self.seat)} {how} {self.camp}{src} outside the city walls at {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class CampRemoved(Event):
    """Redesign: ``seat`` moved the camp ``camp`` from ``x, y`` to the reserve board; with
    ``replaced_by`` a reserve camp took its place (an exchange)."""

    seat: int
    camp: str
    x: int
    y: int
    replaced_by: str | None = None

    def describe(self) -> str:
        if self.replaced_by:
            return f"{_p(self.seat)} exchanges {self.camp} at {self.x},{self.y} for {self.replaced_by} from the reserve board"
        return f"{_p(self.seat)} moves {self.camp} at {self.x},{self.y} to the reserve board"


# ---------------------------------------------------------------------------------- bots
BOT_ROUND_SHARE: Final = (1.6, 1.3, 1.0)
"""Bot estimate: scoring rounds a camp's points now are still worth, by rounds scored (0-2): its
line tends to grow, and later rounds come sooner in a short game."""
BOT_RESERVE_SHARE: Final = 0.5
"""Share of a camp's best place value for a camp on the reserve board or waiting to be placed."""


def _best_camp_value(state: GameState, seat: int, tile: int) -> int:
    tab = tables(state.components)
    cells = state.players[seat].city
    return max((camp_lines(cells, tab, tab.bastions[tile], geo.pos(x, y)) for x, y in camp_spots(state, seat, tile)), default=0)


# ---------------------------------------------------------------------------------- module
class Camps(Module):
    """Camps."""

    id = MODULE_ID
    state_type = CampsState
    title = "Camps"
    summary = "Camps outside the city wall score the buildings in line behind them."
    description = (
        "Eight camp tiles come onto the market with the buildings. A camp is built outside the city, a bastion against a "
        "city wall; in every scoring round each bastion's arrow scores 1 point per building in the straight line behind it."
    )
    assumptions = (
        "A camp and a building never take each other's place in one exchange: a camp is redesigned by moving it to the "
        "reserve board, by building it from there, or by exchanging it for a camp of the reserve board.",
    )
    component_assumptions = (
        "The prices and bastions of seven of the eight camps are not known (one is pictured: price 8, bastions north and "
        "east): components.json has four one-bastion camps priced 3-6 (north, east, south, west) and four two-bastion "
        "camps at a corner priced 7-10 (south-west, north-east, east-south, north-west).",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_tiles(self, config: GameConfig) -> list[TileType]:
        """The 8 camps (into the bag)."""
        return camp_tiles()

    def setup(self, state: GameState, rng: random.Random) -> None:
        """No camp is placed yet."""
        state.mods[self.id] = CampsState(tuple(() for _ in range(state.config.players)))

    def held_tiles(self, state: GameState) -> list[int]:
        """The camps outside the Alhambras."""
        ids = state.components.tile_ids
        return [ids[c.camp] for row in camps_state(state).placed for c in row]

    # ----- building rules -----------------------------------------------------------------
    def placement_problem(self, state: GameState, seat: int, tile: int, position: int) -> str | None:
        """A camp never goes into the city; a building obeys the camps next to its place."""
        tab = tables(state.components)
        if tab.bastions[tile] >= 0:
            return RULES["not_in_city"]
        row = camps_state(state).placed[seat]
        if not row:
            return None
        camps = camps_of(state, seat)
        walls = effective_walls(state)
        why = building_problem(state.players[seat].city, camps, tab, tile, walls[tile], position)
        return None if why is None else RULES[why]

    def occupied_places(self, state: GameState, seat: int) -> list[int]:
        """The places of ``seat``'s camps: no tile goes there, and the core's hole test counts
        them as filled (a ring of buildings closed around camps encloses no empty area)."""
        return [geo.pos(c.x, c.y) for c in camps_state(state).placed[seat]]

    def removal_problem(self, state: GameState, seat: int, tile: int, position: int, incoming: int | None = None) -> str | None:
        """A building leaves only if the camps next to it stay joined and no hole opens. In an
        exchange (``incoming``) the place stays filled, and ``placement_problem`` holds the
        incoming tile to the camps' rules (a wall against every bastion it touches)."""
        if incoming is not None or not camps_state(state).placed[seat]:
            return None
        why = removal_problem(state.players[seat].city, effective_walls(state), camps_of(state, seat), tables(state.components), position)
        return None if why is None else RULES[why]

    # ----- actions ------------------------------------------------------------------------
    def place_actions(self, state: GameState, pending: PlaceTiles) -> list[Action]:
        """``camp place`` for every waiting camp at every legal camp place."""
        tab = tables(state.components)
        ids = state.components.tile_ids
        out: list[Action] = []
        for code in sorted(set(pending.tiles)):
            t = ids[code]
            if tab.bastions[t] >= 0:
                out += [PlaceCamp(code, xy) for xy in camp_spots(state, pending.seat, t)]
        return out

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """The camps' redesigns (:meth:`redesign_actions`)."""
        return self.redesign_actions(state, seat)

    def redesign_actions(self, state: GameState, seat: int) -> list[Action]:
        """The camps' redesigns: build from the reserve, remove, exchange two camps (a turn's
        redesign, or a master-builder card's extra redesign)."""
        tab = tables(state.components)
        p = state.players[seat]
        code_of = state.components.tile_code
        reserve = sorted({code_of[t] for t in p.reserve if tab.bastions[t] >= 0})
        row = camps_state(state).placed[seat]
        if not reserve and not row:
            return []
        ids = state.components.tile_ids
        out: list[Action] = []
        for code in reserve:
            out += [BuildCamp(code, xy) for xy in camp_spots(state, seat, ids[code])]
        if row:
            cells = p.city
            walls = effective_walls(state)
            camps = camps_of(state, seat)
            for c in row:
                if removal_problem(cells, walls, camps, tab, geo.pos(c.x, c.y)) is None:
                    out.append(RemoveCamp(c.camp))
            for code in reserve:
                for c in row:
                    if self._exchange_problem(state, seat, code, c.camp) is None:
                        out.append(ExchangeCamp(code, c.camp))
        return out

    def _exchange_problem(self, state: GameState, seat: int, code: str, other: str) -> str | None:
        tab = tables(state.components)
        camps = camps_of(state, seat)
        q = next(geo.pos(c.x, c.y) for c in camps_state(state).placed[seat] if c.camp == other)
        del camps[q]
        return camp_problem(state.players[seat].city, effective_walls(state), camps, tab, BASTIONS[code], q)

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        ids = state.components.tile_ids
        tab = tables(state.components)
        if isinstance(action, PlaceCamp):
            if not isinstance(top, PlaceTiles):
                raise WrongPhase("a bought camp is placed when the turn's tiles are placed")
            if action.tile not in top.tiles:
                raise IllegalAction(f"{action.tile} is not waiting to be placed (waiting: {' '.join(top.tiles)})")
            self._check_spot(state, top.seat, ids[action.tile], action.target)
            return
        if not isinstance(action, (BuildCamp, RemoveCamp, ExchangeCamp)):
            raise IllegalAction(f"{action} is not a camps action")
        got = redesign_seat(state)
        if got is None:
            raise WrongPhase("a redesign is an action of your own turn")
        seat = got
        row = camps_state(state).placed[seat]
        if isinstance(action, BuildCamp):
            if ids[action.tile] not in state.players[seat].reserve:
                raise IllegalAction(f"{action.tile} is not on your reserve board")
            self._check_spot(state, seat, ids[action.tile], action.target)
            return
        if isinstance(action, RemoveCamp):
            where = [(c.x, c.y) for c in row if c.camp == action.tile]
            if not where:
                raise IllegalAction(f"the camp {action.tile} is not in your Alhambra")
            q = geo.pos(*where[0])
            why = removal_problem(state.players[seat].city, effective_walls(state), camps_of(state, seat), tab, q)
            if why is not None:
                raise IllegalPlacement(f"removing the camp {action.tile} breaks a building rule: {RULES[why]}", why)
            return
        assert isinstance(action, ExchangeCamp)
        if ids[action.reserve_tile] not in state.players[seat].reserve:
            raise IllegalAction(f"{action.reserve_tile} is not on your reserve board")
        if not any(c.camp == action.camp for c in row):
            raise IllegalAction(f"the camp {action.camp} is not in your Alhambra")
        why = self._exchange_problem(state, seat, action.reserve_tile, action.camp)
        if why is not None:
            raise IllegalPlacement(f"{action.reserve_tile} cannot take the place of {action.camp}: {RULES[why]}", why)

    def _check_spot(self, state: GameState, seat: int, tile: int, target: tuple[int, int]) -> None:
        if not (isinstance(target, tuple) and len(target) == 2 and all(type(v) is int for v in target)):
            raise IllegalAction(f"bad position {target!r}")
        x, y = target
        if not (-500 < x < 500 and -500 < y < 500):
            raise IllegalPlacement(f"{x},{y} is far outside any Alhambra", "joined")
        tab = tables(state.components)
        why = camp_problem(state.players[seat].city, effective_walls(state), camps_of(state, seat), tab, tab.bastions[tile], geo.pos(x, y))
        if why is not None:
            raise IllegalPlacement(f"the camp {state.components.tile_code[tile]} cannot go to {x},{y}: {RULES[why]}", why)

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry a checked camps action out."""
        ids = state.components.tile_ids
        top = state.pending[-1]
        who = top.seat if isinstance(top, PlaceTiles) else redesign_seat(state)
        assert who is not None
        seat = who
        row = list(camps_state(state).placed[seat])
        if isinstance(action, PlaceCamp):
            place_waiting(state, action.tile, None, events)
            _with_row(state, seat, [*row, CampAt(*action.target, action.tile)])
            events.append(CampPlaced(seat, action.tile, *action.target))
            return
        reserve = state.players[seat].reserve
        if isinstance(action, BuildCamp):
            reserve.remove(ids[action.tile])
            _with_row(state, seat, [*row, CampAt(*action.target, action.tile)])
            events.append(CampPlaced(seat, action.tile, *action.target, redesign=True))
        elif isinstance(action, RemoveCamp):
            at = next(c for c in row if c.camp == action.tile)
            x, y = at.x, at.y
            _with_row(state, seat, [c for c in row if c is not at])
            reserve.append(ids[action.tile])
            events.append(CampRemoved(seat, action.tile, x, y))
        else:
            assert isinstance(action, ExchangeCamp)
            at = next(c for c in row if c.camp == action.camp)
            x, y = at.x, at.y
            reserve.remove(ids[action.reserve_tile])
            reserve.append(ids[action.camp])
            _with_row(state, seat, [*(c for c in row if c is not at), CampAt(x, y, action.reserve_tile)])
            events.append(CampRemoved(seat, action.camp, x, y, replaced_by=action.reserve_tile))
        finish_redesign(state)

    # ----- scoring ------------------------------------------------------------------------
    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """Every round: each seat's arrows (the neutral player has no camps in an Alhambra)."""
        return [camp_points(state, s) for s in range(state.config.players)]

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Each seat's camp points now for the rounds left; camps waiting or on the reserve board
        at their best place now (a share)."""
        if state.rounds_scored >= 3 or state.outcome is not None:
            return None
        rounds = BOT_ROUND_SHARE[state.rounds_scored]
        tab = tables(state.components)
        ids = state.components.tile_ids
        out = [rounds * camp_points(state, s) for s in range(state.config.players)]
        for top in state.pending:
            if isinstance(top, PlaceTiles):
                for code in top.tiles:
                    t = ids[code]
                    if tab.bastions[t] >= 0:
                        out[top.seat] += BOT_RESERVE_SHARE * rounds * _best_camp_value(state, top.seat, t)
        for s, p in enumerate(state.players):
            for t in p.reserve:
                if tab.bastions[t] >= 0:
                    out[s] += BOT_RESERVE_SHARE * rounds * _best_camp_value(state, s, t)
        return out

    # ----- views --------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: per seat its camps (place, bastions, the points of each arrow now) and the
        points they score in a round now."""
        tab = tables(state.components)
        seats = []
        for s, row in enumerate(camps_state(state).placed):
            cells = state.players[s].city
            seats.append(
                [
                    {
                        "camp": c.camp,
                        "x": c.x,
                        "y": c.y,
                        "bastions": walls_to_letters(BASTIONS[c.camp]),
                        "arrows": {
                            SIDE_LETTERS[side]: arrow_points(cells, tab, geo.pos(c.x, c.y), side)
                            for side in SIDES
                            if BASTIONS[c.camp] & side
                        },
                    }
                    for c in row
                ]
            )
        return {"placed": seats, "points_now": [camp_points(state, s) for s in range(state.config.players)]}

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public: each camp's place and code, read back from the view."""
        rows = [[{k: e[k] for k in ("x", "y", "camp")} for e in row] for row in module_view["placed"]]
        return CampsState.from_dict({"placed": rows})


def waiting(pending: Pending) -> tuple[str, ...]:
    """The camps among the tiles a pending holds (a ``PlaceTiles``), for views and bots."""
    return tuple(c for c in pending.tiles if c in BASTIONS) if isinstance(pending, PlaceTiles) else ()


MODULE: Final = Camps()
