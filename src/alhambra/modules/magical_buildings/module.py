"""Magical buildings: six building tiles (one per kind, one price above the dearest of their
kind) that are turned any way the player likes whenever they enter an Alhambra, and score as
normal buildings of their kind.

Flow (plug-in hooks, the geometry protocol of docs/hooks.md):

* ``extra_tiles``: the six tiles (``Xp9`` ... ``Xt14``, ``in_bag``: the core shuffles them into
  the bag; they come onto the market, are bought, reserved, given to the neutral player and
  handed out at the end like any tile).
* The walls of a magical building are state (``GameState.walls``): building it turned sets
  them (``engine.set_walls``); they stay while it is in the Alhambra and are set again when it
  enters the Alhambra the next time.
* ``placement_problem`` refuses the core's own positions for a magical building, so that every
  way of building one names its turn: ``magic place TILE X,Y WALLS`` in the placement step
  (``place_actions``, ``engine.build_tile``), ``magic build TILE X,Y WALLS`` and ``magic
  exchange TILE CITY_TILE WALLS`` as redesigns (``turn_actions`` = ``redesign_actions``, also a
  master-builder card's extra redesign). ``WALLS`` are the wall letters of the turned tile (``es``).
* ``entry_walls``: the turns of a magical building, for a module that builds it by its own
  action (a city gate: turned and built through the gate in one move).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from ... import city as geo
from ...actions import Action, register_action
from ...components import KIND_LETTERS, KINDS, ComponentSet, TileType, letters_to_walls, walls_to_letters
from ...engine.services import build_spots as engine_spots, build_tile, finish_redesign, placement_veto, redesign_seat, set_walls
from ...errors import IllegalAction, IllegalPlacement, WrongPhase
from ...events import AlhambraRedesigned, Event
from ...hooks import Module, hook_users
from ...state import GameConfig, GameState, PlaceTiles

MODULE_ID: Final = "magical_buildings"
ORIENTATIONS: Final = ("n", "e", "s", "w", "ne", "es", "sw", "nw", "ns", "ew", "nes", "esw", "nsw", "new", "nesw")
"""Every wall pattern a turned tile can show, as wall letters: one to three printed walls, and
all four when city-wall segments were added to a three-walled one (they stay part of it)."""
WORDS: Final = "word:" + "|".join(ORIENTATIONS)


# ---------------------------------------------------------------------------------- components
@cache
def _raw() -> tuple[tuple[str, int, int], ...]:
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    out = []
    for t in raw["tiles"]:
        kind, price, walls = str(t["kind"]), int(t["price"]), letters_to_walls(str(t["walls"]))
        if kind not in KINDS or not 1 <= walls.bit_count() <= 3:
            raise ValueError(f"magical buildings: bad tile {t!r}")
        out.append((kind, price, walls))
    return tuple(out)


def magic_code(kind: str, price: int) -> str:
    """``Xp9``: ``X``, the kind's letter in lower case, the price (no wall letters: the tile turns)."""
    return f"X{KIND_LETTERS[KINDS.index(kind)].lower()}{price}"


def magical_tiles() -> list[TileType]:
    """The six magical buildings (their walls as printed, in the data's orientation)."""
    return [TileType(magic_code(k, p), k, p, w, module=MODULE_ID, in_bag=True) for k, p, w in _raw()]


CODES: Final = frozenset(magic_code(k, p) for k, p, _ in _raw())


def turn(mask: int) -> int:
    """The wall mask turned a quarter clockwise (north to east)."""
    return ((mask << 1) | (mask >> 3)) & 15


def turns(mask: int) -> tuple[int, ...]:
    """The distinct wall masks of a tile with walls ``mask`` turned every way (ascending)."""
    out = {mask}
    m = mask
    for _ in range(3):
        m = turn(m)
        out.add(m)
    return tuple(sorted(out))


@dataclass(frozen=True, slots=True)
class _Tables:
    comp: ComponentSet
    magic: tuple[bool, ...]


_TABLES: dict[int, _Tables] = {}


def _tables(comp: ComponentSet) -> _Tables:
    got = _TABLES.get(id(comp))
    if got is None or got.comp is not comp:
        got = _TABLES[id(comp)] = _Tables(comp, tuple(t.module == MODULE_ID for t in comp.tiles))
    return got


def is_magical(state: GameState, tile: int) -> bool:
    """Is tile id ``tile`` a magical building?"""
    return _tables(state.components).magic[tile]


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class MagicPlace(Action):
    """Build a waiting magical building at ``target``, turned to show the walls ``walls``."""

    module = MODULE_ID
    keyword = "magic place"
    grammar = ("tile", "cell", WORDS)
    tile: str
    target: tuple[int, int]
    walls: str


@dataclass(frozen=True, slots=True)
class MagicBuild(Action):
    """Redesign: build a magical building from the reserve board at ``target``, turned."""

    module = MODULE_ID
    keyword = "magic build"
    grammar = ("tile", "cell", WORDS)
    tile: str
    target: tuple[int, int]
    walls: str


@dataclass(frozen=True, slots=True)
class MagicExchange(Action):
    """Redesign: a magical building from the reserve board takes the place of ``city_tile``, turned."""

    module = MODULE_ID
    keyword = "magic exchange"
    grammar = ("tile", "tile", WORDS)
    tile: str
    city_tile: str
    walls: str


for _action in (MagicPlace, MagicBuild, MagicExchange):
    register_action(_action)


# ---------------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class MagicalBuildingTurned(Event):
    """``seat`` built the magical building ``tile`` turned to show the walls ``walls``."""

    seat: int
    tile: str
    walls: str

    def describe(self) -> str:
        sides = {"n": "north", "e": "east", "s": "south", "w": "west"}
        return f"player {self.seat + 1} turns the magical building {self.tile}: walls {', '.join(sides[c] for c in self.walls)}"


# ---------------------------------------------------------------------------------- rules
def _others_allow(state: GameState, seat: int, tile: int, q: int, mask: int | None = None) -> bool:
    """Do the other modules' building rules allow ``tile`` on ``q``, turned to show ``mask``?"""
    return placement_veto(state, seat, tile, q, mask, (MODULE,)) is None


def _may_leave(state: GameState, seat: int, q: int, incoming: int) -> bool:
    """May the tile on ``q`` leave the Alhambra for the magical ``incoming`` in an exchange (the
    other modules' vetoes)?"""
    t = state.players[seat].city[q]
    return all(m.removal_problem(state, seat, t, q, incoming) is None for m in hook_users(state.config, "removal_problem"))


def build_spots(state: GameState, seat: int, tile: int) -> list[tuple[int, int]]:
    """Every (position, wall mask) where ``seat`` may build the magical ``tile`` turned (its walls
    as they are now: city-wall segments added to it are part of the tile and turn with it); the
    places other modules' pieces fill (camps) are taken and count in the hole test."""
    return [(q, m) for m in turns(state.walls[tile]) for q in engine_spots(state, seat, m) if _others_allow(state, seat, tile, q, m)]


def exchange_spots(state: GameState, seat: int, tile: int) -> list[tuple[int, int]]:
    """Every (position, wall mask) where the magical ``tile`` may take the place of a tile."""
    an = state.players[seat].analysis(state.walls)
    return [
        (q, m)
        for m in turns(state.walls[tile])
        for q in an.exchanges(m)
        if _may_leave(state, seat, q, tile) and _others_allow(state, seat, tile, q, m)
    ]


def _check_spot(state: GameState, seat: int, tile: int, code: str, target: tuple[int, int], walls: str) -> int:
    mask = letters_to_walls(walls)
    if mask not in turns(state.walls[tile]):
        raise IllegalAction(f"{code} cannot be turned to show the walls {walls!r} (it has {state.walls[tile].bit_count()})")
    x, y = target
    if not (-500 < x < 500 and -500 < y < 500):
        raise IllegalPlacement(f"{x},{y} is far outside any Alhambra", "adjacent")
    q = geo.pos(x, y)
    rule = geo.placement_problem(state.players[seat].city, state.walls, mask, q)
    if rule is None and not _others_allow(state, seat, tile, q, mask):
        rule = "another module's building rule"
    if rule is not None:
        raise IllegalPlacement(f"{code} turned to {walls} cannot go to {x},{y}: {geo.RULE_MESSAGES.get(rule, rule)}", rule)
    return mask


def _magic_tile(state: GameState, code: str) -> int:
    t = state.components.tile_ids.get(code)
    if t is None or not is_magical(state, t):
        raise IllegalAction(f"{code} is not a magical building")
    return t


# ---------------------------------------------------------------------------------- module
class MagicalBuildings(Module):
    """Magical buildings."""

    id = MODULE_ID
    title = "Magical buildings"
    summary = "Six magical buildings can be turned any way you like when built."
    description = (
        "Six magical buildings, one per colour and one price above the dearest of their colour, are shuffled into the "
        "tiles. Whenever you add one to your Alhambra (bought, from the reserve, in a redesign) you turn it any way "
        "you like; it scores as a normal building of its colour."
    )
    assumptions = (
        "A magical building is turned only as it enters the Alhambra (placed, built from the reserve board, exchanged "
        "in); it keeps its walls while it stays there. On the reserve board and with the neutral player its walls do "
        "not matter.",
        "Every way the tile can be turned is offered (turns that give the same walls are listed once).",
    )
    component_assumptions = (
        "The walls of the two-wall magical buildings (arcades 11, chambers 12) meet at a corner (components.json); "
        "no source says whether they are at a corner or opposite.",
    )

    # ----- components ---------------------------------------------------------------------
    def extra_tiles(self, config: GameConfig) -> list[TileType]:
        """The six magical buildings (shuffled into the bag by the core)."""
        return magical_tiles()

    # ----- building rules -----------------------------------------------------------------
    def placement_problem(self, state: GameState, seat: int, tile: int, position: int) -> str | None:
        """A magical building is built turned, with this module's actions (never as it lies)."""
        if is_magical(state, tile):
            return "a magical building is turned as it is built (magic place / magic build / magic exchange)"
        return None

    def place_actions(self, state: GameState, pending: PlaceTiles) -> list[Action]:
        """``magic place TILE X,Y WALLS`` for every waiting magical building, way and place."""
        out: list[Action] = []
        ids = state.components.tile_ids
        for code in sorted({c for c in pending.tiles if c in CODES}):
            t = ids[code]
            out += [MagicPlace(code, geo.xy(q), walls_to_letters(m)) for q, m in build_spots(state, pending.seat, t)]
        return out

    def entry_walls(self, state: GameState, seat: int, tile: int) -> tuple[int, ...] | None:
        """A magical building shows any way it can be turned as it enters the Alhambra."""
        return turns(state.walls[tile]) if is_magical(state, tile) else None

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """Redesigns with a magical building from the reserve board: ``magic build`` and ``magic exchange``."""
        return self.redesign_actions(state, seat)

    def redesign_actions(self, state: GameState, seat: int) -> list[Action]:
        """``magic build`` and ``magic exchange`` for every magical building on the reserve board."""
        p = state.players[seat]
        magic = _tables(state.components).magic
        mine = sorted({t for t in p.reserve if magic[t]})
        if not mine:
            return []
        code = state.components.tile_code
        out: list[Action] = []
        for t in mine:
            out += [MagicBuild(code[t], geo.xy(q), walls_to_letters(m)) for q, m in build_spots(state, seat, t)]
        for t in mine:
            out += [MagicExchange(code[t], code[p.city[q]], walls_to_letters(m)) for q, m in exchange_spots(state, seat, t)]
        return out

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        if isinstance(action, MagicPlace):
            if not isinstance(top, PlaceTiles):
                raise WrongPhase("a magical building is placed when it waits to be placed")
            t = _magic_tile(state, action.tile)
            if action.tile not in top.tiles:
                raise IllegalAction(f"{action.tile} is not waiting to be placed (waiting: {' '.join(top.tiles)})")
            _check_spot(state, top.seat, t, action.tile, action.target, action.walls)
            return
        if not isinstance(action, MagicBuild | MagicExchange):
            raise IllegalAction(f"{action} is not a magical buildings action")
        seat = redesign_seat(state)
        if seat is None:
            raise WrongPhase("a redesign is an action of your own turn")
        t = _magic_tile(state, action.tile)
        p = state.players[seat]
        if t not in p.reserve:
            raise IllegalAction(f"{action.tile} is not on your reserve board")
        if isinstance(action, MagicBuild):
            _check_spot(state, seat, t, action.tile, action.target, action.walls)
            return
        mask = letters_to_walls(action.walls)
        if mask not in turns(state.walls[t]):
            raise IllegalAction(f"{action.tile} cannot be turned to show the walls {action.walls!r}")
        ct = state.components.tile_ids.get(action.city_tile)
        q = next((q for q, c in p.city.items() if c == ct), None)
        if ct is None or q is None:
            raise IllegalAction(f"{action.city_tile} is not in your Alhambra")
        if (q, mask) not in exchange_spots(state, seat, t):
            raise IllegalPlacement(f"{action.tile} turned to {action.walls} cannot take the place of {action.city_tile}", "walls_match")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Turn the tile (its walls), then build it like the core would."""
        assert isinstance(action, MagicPlace | MagicBuild | MagicExchange)
        t = state.components.tile_ids[action.tile]
        set_walls(state, t, letters_to_walls(action.walls))
        top = state.pending[-1]
        who = top.seat if isinstance(top, PlaceTiles) else redesign_seat(state)
        assert who is not None
        seat = who
        events.append(MagicalBuildingTurned(seat, action.tile, action.walls))
        if not isinstance(action, MagicExchange):
            build_tile(state, seat, action.tile, action.target, events)
            return
        p = state.players[seat]
        p.reserve.remove(t)
        ct = state.components.tile_ids[action.city_tile]
        q = next(q for q, c in p.city.items() if c == ct)
        p.reserve.append(ct)
        p.build(q, t)
        x, y = geo.xy(q)
        events.append(AlhambraRedesigned(seat, "exchange", action.tile, x, y, action.city_tile))
        finish_redesign(state)

    def layout_walls(self, tile: TileType) -> tuple[int, ...]:
        """On a real table a magical building may lie turned any way (``alhambra score``)."""
        return turns(tile.walls)

    # ----- views --------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: each magical building with its printed walls and the walls it shows now."""
        comp = state.components
        magic = _tables(comp).magic
        return {
            "tiles": [
                {
                    "tile": comp.tile_code[t],
                    "kind": comp.tiles[t].kind,
                    "price": comp.tile_price[t],
                    "walls": walls_to_letters(state.walls[t]),
                }
                for t in range(len(comp.tiles))
                if magic[t]
            ]
        }


MODULE: Final = MagicalBuildings()
