"""Check and score a physical Alhambra laid out on a real table (``alhambra score``).

A layout is JSON like::

    {"tiles": [
        {"x": 0, "y": 0, "kind": "fountain"},
        {"x": 1, "y": 0, "kind": "garden", "price": 8, "walls": "NW"},
        {"x": 0, "y": -1, "kind": "pavilion", "price": 8}
    ]}

``x`` grows east and ``y`` grows south; the fountain may be anywhere. ``walls`` lists the
walled sides as letters N, E, S, W (any case, any order; ``""`` for none). It may be left out
when kind and price name exactly one base tile (pavilion 8 is unique); for an ambiguous
kind and price (garden 8 exists with walls SW, NE and NW) leaving it out is an input error
that names the choices.

Two kinds of problem are kept apart:

* :class:`LayoutError`: the input cannot be read (bad JSON, missing or mistyped fields,
  junk wall letters, an ambiguous tile). Nothing is checked.
* :class:`LayoutViolation`: the input is readable but the Alhambra is not legal: a building
  rule is broken (``walls_match``, ``on_foot``, ``adjacent``, ``no_holes``, see
  :data:`alhambra.city.RULE_MESSAGES`), or the tiles are not real: ``unknown_tile`` (no such
  tile in the base game), ``duplicate_tile`` (the same physical tile twice), ``occupied``
  (two tiles on one spot), ``one_fountain`` (not exactly one fountain).

Tile objects may only carry the keys ``x``, ``y``, ``kind``, ``price``, ``walls`` and ``added``
(a typo such as ``wall`` would otherwise silently change the meaning); other top-level keys are
ignored. ``added`` (letters like ``walls``) are wooden wall segments built on the tile (the city
walls module: the document names it in ``"modules"``): ``walls`` stays the printed walls that
identify the tile, a segment never lies over one, the tile then has both, and the layout holds
at most as many segments as the modules bring (``Module.layout_segments``). ``gate`` (side
letters) are city gates over the tile's printed walls towards a neighbour with a printed wall
facing it (the city gates module): the gate takes the wall off both tiles, as in the engine, so
a tile a gate joins stands legally; at most as many as the modules bring (``Module.layout_gates``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from . import city as geo
from .components import FOUNTAIN_KIND, OPPOSITE, SIDE_DELTAS, SIDES, TileType, letters_to_walls, walls_to_letters
from .layout_values import (  # the layout's values live below the reader; importable from here
    LayoutCity as LayoutCity,
    LayoutError as LayoutError,
    LayoutReport as LayoutReport,
    LayoutTile as LayoutTile,
    LayoutViolation as LayoutViolation,
)
from .rulesets import DEFAULT_GAME, Ruleset, ruleset

__all__ = [
    "LAYOUT_RULE_MESSAGES",
    "LayoutCity",
    "LayoutError",
    "LayoutReport",
    "LayoutTile",
    "LayoutViolation",
    "check_layout",
    "decode_json",
    "draw_layout",
    "drawing_text",
    "game_words",
    "layout_modules",
    "load_layout",
    "parse_layout",
    "read_json_file",
    "score_layout",
    "tile_choices",
]

COORD_LIMIT: Final = 500
"""Coordinates must lie within ``-COORD_LIMIT..COORD_LIMIT`` (54 tiles never reach that far)."""

MAX_NESTING: Final = 20
"""JSON nested deeper than this is refused (a layout or table file is 4 levels deep)."""

_TILE_KEYS: Final = frozenset({"x", "y", "kind", "price", "walls", "tile", "added", "gate"})

LAYOUT_RULE_MESSAGES: Final = {
    **geo.RULE_MESSAGES,
    "unknown_tile": "there is no such tile in the base game",
    "duplicate_tile": "the base game has only one tile with this kind, price and walls",
    "occupied": "two tiles lie on the same place",
    "one_fountain": "an Alhambra has exactly one fountain (starting tile)",
}
"""A readable sentence for every rule id a layout check can report."""


def _faces(rules: Ruleset) -> list[tuple[TileType, int]]:
    """Every face of the game's tiles with the index of its physical tile."""
    return [(t, i) for i, t in enumerate(rules.tiles)] + [(t, i) for i, t in enumerate(rules.backs)]


def _module_faces(rules: Ruleset, modules: Sequence[str]) -> list[tuple[TileType, int, tuple[int, ...]]]:
    """The building tiles the ``modules`` add (each with its own physical index after the
    game's tiles) and the wall masks each may show on a real table (``Module.layout_walls``:
    a magical building turned, city-wall segments added)."""
    if not modules:
        return []
    from .engine import build_components
    from .hooks import load_module
    from .state import GameConfig

    comp = build_components(GameConfig(players=4, modules=tuple(modules), game=rules.id))
    out = []
    for i, t in enumerate(comp.tiles):
        if t.module is not None and t.module in modules:
            out.append((t, len(rules.tiles) + i, tuple(load_module(t.module).layout_walls(t))))
    return out


def tile_choices(kind: str, price: int, game: str = DEFAULT_GAME) -> list[str]:
    """Wall letters (upper case, ``""`` for none) of every tile face of the game with this kind and price."""
    return [t.wall_letters.upper() for t, _ in _faces(ruleset(game)) if t.kind == kind and t.price == price]


def _kind_id(rules: Ruleset, text: str) -> str:
    """A kind as written (its id or its name, any case) -> its id (unchanged if unknown)."""
    for k in rules.kinds:
        if text in (k, rules.kind_names[k].lower()):
            return k
    return text


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _read_tile(
    raw: object, i: int, rules: Ruleset, module_faces: Sequence[tuple[TileType, int, tuple[int, ...]]] = (), segments: int = 0
) -> LayoutTile:
    """One tile of the layout; ``segments``: may it carry ``added`` wall segments (city walls)?"""
    tile = _read_printed(raw, i, rules, module_faces)
    assert isinstance(raw, Mapping)
    added_raw = raw.get("added")
    if added_raw is None:
        return tile
    where = f"tile {i + 1} at {tile.x},{tile.y}"
    if not isinstance(added_raw, str):
        raise LayoutError(f"{where}: 'added' must be a string of side letters N, E, S, W like \"S\" (the wooden segments built on it)")
    if not segments:
        raise LayoutError(f"{where}: 'added' wall segments come with the city walls module: name it in \"modules\"")
    try:
        added = letters_to_walls(added_raw.replace(" ", ""))
    except ValueError as e:
        raise LayoutError(f"{where}: {e}") from None
    if added & tile.walls:
        over = walls_to_letters(added & tile.walls).upper()
        raise LayoutError(f"{where}: a wall segment is never built over a wall ({over} is walled already)")
    return replace(tile, walls=tile.walls | added, added=added)


def _read_printed(raw: object, i: int, rules: Ruleset, module_faces: Sequence[tuple[TileType, int, tuple[int, ...]]] = ()) -> LayoutTile:
    where = f"tile {i + 1}"
    if not isinstance(raw, Mapping):
        raise LayoutError(f'{where}: expected an object like {{"x": 1, "y": 0, "kind": "garden", "price": 8, "walls": "NW"}}')
    extra = sorted(str(k) for k in raw if k not in _TILE_KEYS)
    if extra:
        raise LayoutError(f"{where}: unknown field(s) {', '.join(extra)} (allowed: x, y, kind, price, walls, tile, added, gate)")
    for key in ("x", "y"):
        if key not in raw:
            raise LayoutError(f"{where}: missing {key!r}")
        if not _is_int(raw[key]):
            raise LayoutError(f"{where}: {key!r} must be an integer, not {raw[key]!r}")
        if abs(raw[key]) > COORD_LIMIT:
            raise LayoutError(
                f"{where}: {key} = {raw[key]} is off any real table (x and y lie from -{COORD_LIMIT} to {COORD_LIMIT}; "
                f"put the fountain near 0,0)"
            )
    x: int = raw["x"]
    y: int = raw["y"]
    where = f"tile {i + 1} at {x},{y}"
    if "tile" in raw:
        return _read_coded(raw, x, y, i, where, rules, module_faces)
    kind = raw.get("kind")
    if not isinstance(kind, str):
        raise LayoutError(f"{where}: 'kind' must be a string (fountain, {', '.join(rules.kinds)})")
    kind = _kind_id(rules, " ".join(kind.strip().lower().split()))
    letter = rules.kind_letters.get(kind, "?")
    price = raw.get("price")
    if price is not None and not _is_int(price):
        raise LayoutError(f"{where}: 'price' must be an integer, not {price!r}")
    walls_raw = raw.get("walls")
    if walls_raw is not None and not isinstance(walls_raw, str):
        raise LayoutError(f'{where}: \'walls\' must be a string of side letters N, E, S, W like "NW" (or "" for none)')
    walls: int | None = None
    if walls_raw is not None:
        try:
            walls = letters_to_walls(walls_raw.replace(" ", ""))
        except ValueError as e:
            raise LayoutError(f"{where}: {e}") from None

    if kind == FOUNTAIN_KIND:
        known = (price is None or price == 0) and not walls
        return LayoutTile(x, y, kind, price or 0, walls or 0, known, i)
    if price is None:
        if kind in rules.kinds:
            raise LayoutError(f"{where}: a {kind} needs a 'price'")
        return LayoutTile(x, y, kind, 0, walls or 0, False, i, letter)
    for t, physical, may_show in module_faces:  # a module's tile (its walls may be any it can show)
        if t.kind == kind and t.price == price and ((walls is None and len(may_show) == 1) or walls in may_show):
            return LayoutTile(x, y, kind, price, may_show[0] if walls is None else walls, True, i, letter, physical, t.code)
    if walls is None:
        choices = tile_choices(kind, price, rules.id)
        if len(choices) > 1:
            shown = ", ".join(c or "none" for c in choices)
            raise LayoutError(f"{where}: there are {len(choices)} {kind} tiles with price {price}; give 'walls' (one of: {shown})")
        if not choices:
            return LayoutTile(x, y, kind, price, 0, False, i, letter)
        walls = letters_to_walls(choices[0])
    face = next(((t, p) for t, p in _faces(rules) if t.kind == kind and t.price == price and t.walls == walls), None)
    if face is None:
        return LayoutTile(x, y, kind, price, walls, False, i, letter)
    return LayoutTile(x, y, kind, price, walls, True, i, letter, face[1], face[0].code)


def _read_coded(
    raw: Mapping[str, Any],
    x: int,
    y: int,
    i: int,
    where: str,
    rules: Ruleset,
    module_faces: Sequence[tuple[TileType, int, tuple[int, ...]]],
) -> LayoutTile:
    """A tile named by its code (``"tile": "Wp1"``: a module's tile that kind and price do not
    name, such as a watchtower of a colour); ``walls`` as it lies, when it may lie several ways."""
    code = raw["tile"]
    if not isinstance(code, str):
        raise LayoutError(f'{where}: \'tile\' must be a tile code like "Wp1" or "G8sw"')
    if "kind" in raw or "price" in raw:
        raise LayoutError(f"{where}: give either 'tile' (a code) or 'kind' and 'price', not both")
    walls_raw = raw.get("walls")
    walls: int | None = None
    if walls_raw is not None:
        if not isinstance(walls_raw, str):
            raise LayoutError(f'{where}: \'walls\' must be a string of side letters N, E, S, W like "NW" (or "" for none)')
        try:
            walls = letters_to_walls(walls_raw.replace(" ", ""))
        except ValueError as e:
            raise LayoutError(f"{where}: {e}") from None
    for t, physical, may_show in module_faces:
        if t.code == code:
            if walls is None:
                if len(may_show) > 1:
                    shown = ", ".join(walls_to_letters(m).upper() or "none" for m in may_show)
                    raise LayoutError(f"{where}: {code} may lie several ways; give 'walls' (one of: {shown})")
                walls = may_show[0]
            letter = rules.kind_letters.get(t.kind, "?")
            return LayoutTile(x, y, t.kind, t.price, walls, walls in may_show, i, letter, physical, t.code)
    for t, physical in _faces(rules):
        if t.code == code:
            w = t.walls if walls is None else walls
            return LayoutTile(x, y, t.kind, t.price, w, w == t.walls, i, rules.kind_letters.get(t.kind, "?"), physical, t.code)
    hint = "" if module_faces else " (name its module in the layout's 'modules')"
    raise LayoutError(f"{where}: no tile has the code {code!r}{hint}")


def parse_layout(data: Any, game: str = DEFAULT_GAME, modules: Sequence[str] = ()) -> list[LayoutTile]:
    """Read a decoded layout document into tiles of ``game`` (a ruleset id) and of the
    ``modules`` in play (also named by the document's ``"modules"`` list); raise
    :class:`LayoutError` on unreadable input."""
    rules = ruleset(game)
    if not isinstance(data, Mapping):
        raise LayoutError('a layout must be a JSON object like {"tiles": [...]}')
    tiles = data.get("tiles")
    if not isinstance(tiles, list):
        raise LayoutError("the layout needs a 'tiles' list")
    named = data.get("modules", [])
    if not isinstance(named, list) or not all(isinstance(m, str) for m in named):
        raise LayoutError("'modules' must be a list of module ids")
    mods = tuple(sorted({*modules, *named}))
    try:
        extra = _module_faces(rules, mods)
    except ValueError as e:  # an unknown module (ConfigError)
        raise LayoutError(str(e)) from None
    most = len(rules.tiles) + 1 + len(extra)
    if len(tiles) > most:
        raise LayoutError(
            f"the layout has {len(tiles)} tiles, but a real {rules.title} table has at most {most} "
            f"(the fountain and the {len(rules.tiles)} building tiles)"
        )
    segments = _module_segments(mods)
    out = [_read_tile(raw, i, rules, extra, segments) for i, raw in enumerate(tiles)]
    used = sum(t.added.bit_count() for t in out)
    if used > segments:
        raise LayoutError(f"the layout adds {used} wall segments, but the modules bring only {segments}")
    return _open_gates(out, tiles, _module_gates(mods))


def _module_gates(modules: Sequence[str]) -> int:
    """How many city gates the ``modules`` bring (``Module.layout_gates``)."""
    if not modules:
        return 0
    from .hooks import load_module

    return sum(load_module(m).layout_gates() for m in modules)


def _open_gates(tiles: list[LayoutTile], raws: Sequence[Any], most: int) -> list[LayoutTile]:
    """The tiles with the city gates their ``gate`` fields name: each over a printed double wall
    (this tile's and its neighbour's facing wall, no wooden segment), taken off both."""
    at = {(t.x, t.y): k for k, t in enumerate(tiles)}
    edges: set[tuple[int, int]] = set()  # (tile index, side) of both tiles of each gate
    for k, (t, raw) in enumerate(zip(tiles, raws, strict=True)):
        gate_raw = raw.get("gate") if isinstance(raw, Mapping) else None
        if gate_raw is None:
            continue
        where = f"tile {k + 1} at {t.x},{t.y}"
        if not isinstance(gate_raw, str):
            raise LayoutError(f"{where}: 'gate' must be a string of side letters N, E, S, W like \"W\" (the sides a city gate opens)")
        if not most:
            raise LayoutError(f"{where}: a 'gate' comes with the city gates module: name it in \"modules\"")
        try:
            sides = letters_to_walls(gate_raw.replace(" ", ""))
        except ValueError as e:
            raise LayoutError(f"{where}: {e}") from None
        for side in SIDES:
            if not sides & side:
                continue
            name = walls_to_letters(side).upper()
            dx, dy = SIDE_DELTAS[side]
            nb = at.get((t.x + dx, t.y + dy))
            printed = t.walls & ~t.added
            if not printed & side:
                raise LayoutError(f"{where}: a city gate goes only over a printed wall, and side {name} has none")
            if nb is None:
                raise LayoutError(f"{where}: the gate on side {name} opens towards no tile")
            other = tiles[nb]
            if not (other.walls & ~other.added) & OPPOSITE[side]:
                raise LayoutError(f"{where}: the gate on side {name} needs a printed wall on the tile at {other.x},{other.y} facing it")
            edges.add((k, side))
            edges.add((nb, OPPOSITE[side]))
    if len(edges) // 2 > most:
        raise LayoutError(f"the layout has {len(edges) // 2} city gates, but the modules bring only {most}")
    opened = [0] * len(tiles)
    for k, side in edges:
        opened[k] |= side
    return [replace(t, walls=t.walls & ~g, gates=g) if g else t for t, g in zip(tiles, opened, strict=True)]


def _module_segments(modules: Sequence[str]) -> int:
    """How many wooden wall segments the ``modules`` bring (``Module.layout_segments``)."""
    if not modules:
        return 0
    from .hooks import load_module

    return sum(load_module(m).layout_segments() for m in modules)


def _depth(text: str) -> int:
    """The deepest nesting of brackets in JSON text (strings skipped)."""
    depth = most = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            most = max(most, depth)
        elif ch in "]}":
            depth -= 1
    return most


def decode_json(text: str, where: str) -> Any:
    """Decode a layout or table file's JSON; :class:`LayoutError` (naming ``where``) for bad
    JSON or nesting deeper than :data:`MAX_NESTING` (which would exhaust Python's stack)."""
    if _depth(text) > MAX_NESTING:
        raise LayoutError(f"{where}: JSON nested more than {MAX_NESTING} levels deep; a layout is an object with a 'tiles' list of objects")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise LayoutError(f"{where}: not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    except RecursionError:  # pragma: no cover - guarded by the depth check
        raise LayoutError(f"{where}: JSON nested too deeply") from None


def read_json_file(path: str | Path, what: str = "layout") -> Any:
    """The JSON of a ``what`` file (a layout or a table), through :func:`decode_json`;
    :class:`LayoutError` naming the file when it is missing, a directory, unreadable or bad JSON."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LayoutError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise LayoutError(f"{p}: is a directory, not a {what} file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise LayoutError(f"{p}: cannot read: {e}") from None
    return decode_json(text, str(p))


def load_layout(path: str | Path, game: str = DEFAULT_GAME) -> list[LayoutTile]:
    """Read a layout file; raise :class:`LayoutError` for a missing file or bad JSON/fields."""
    p = Path(path)
    data = read_json_file(p)
    try:
        return parse_layout(data, game)
    except LayoutError as e:
        raise LayoutError(f"{p}: {e}") from None


def _violation(rule: str, x: int | None, y: int | None, detail: str = "") -> LayoutViolation:
    msg = LAYOUT_RULE_MESSAGES[rule]
    return LayoutViolation(rule, x, y, f"{msg}: {detail}" if detail else msg)


def _companions(modules: Sequence[str]) -> list[tuple[str, Any]]:
    """(module id, companion part) of the ``modules`` that have one."""
    if not modules:
        return []
    from .hooks import load_module

    out = []
    for m in sorted(set(modules)):
        comp = load_module(m).companion()
        if comp is not None:
            out.append((m, comp))
    return out


def check_layout(tiles: Sequence[LayoutTile], game: str = DEFAULT_GAME, modules: Sequence[str] = ()) -> LayoutReport:
    """Check a layout against the building rules and the tiles of ``game`` (and of the
    ``modules`` in play), and score it.

    Violations come in a fixed order: the tile problems (``occupied``, ``one_fountain``,
    ``unknown_tile``, ``duplicate_tile``) in input order, then the building rules in the order
    :func:`alhambra.city.validate_layout` reports them, then each module's rules for its tiles
    (``CompanionHooks.layout_problems``, in module id order). When two tiles lie on one place,
    the first one is the one checked further and counted. Tiles of a kind a module places
    outside the city walls (``CompanionHooks.outside_kinds``: camps) are not part of the
    Alhambra's building rules, but fill their places in the hole test.
    """
    companions = _companions(modules)
    outside_kinds = frozenset(k for _, c in companions for k in c.outside_kinds)
    out: list[LayoutViolation] = []
    outside: dict[int, int] = {}
    taken: dict[int, int] = {}
    cells: dict[int, int] = {}
    placed: list[LayoutTile] = []
    seen: dict[int, LayoutTile] = {}
    fountain: int | None = None
    for t in tiles:
        p = geo.pos(t.x, t.y)
        if p in taken:
            other = placed[taken[p]]
            out.append(_violation("occupied", t.x, t.y, f"{t.describe()} on top of {other.describe()}"))
            continue
        if t.is_fountain:
            if fountain is not None:
                fx, fy = geo.xy(fountain)
                out.append(_violation("one_fountain", t.x, t.y, f"a second fountain (the first is at {fx},{fy})"))
            else:
                fountain = p
        if not t.known:
            out.append(_violation("unknown_tile", t.x, t.y, t.describe()))
        elif not t.is_fountain:
            first = seen.get(t.physical)
            if first is not None:
                same = (
                    "is already" if (first.kind, first.price) == (t.kind, t.price) else f"is the other face of {first.describe()}, which is"
                )
                out.append(_violation("duplicate_tile", t.x, t.y, f"{t.describe()} {same} at {first.x},{first.y}"))
            else:
                seen[t.physical] = t
        taken[p] = len(placed)
        (outside if t.kind in outside_kinds else cells)[p] = len(placed)
        placed.append(t)
    if fountain is None:
        out.append(_violation("one_fountain", None, None, "there is none"))
    walls = [t.walls for t in placed]
    if cells:
        if fountain is not None:
            found = geo.validate_layout(cells, walls, fountain, outside)
        else:
            # Without a fountain only the rules that need no starting point can be checked.
            found = [v for v in geo.validate_layout(cells, walls, next(iter(cells)), outside) if v.rule not in ("adjacent", "on_foot")]
        out.extend(LayoutViolation(v.rule, v.x, v.y, v.message) for v in found)
    inputs: dict[str, dict[str, Any]] = {}
    if companions:
        city = LayoutCity(tuple(placed), cells, outside, tuple(walls), fountain)
        for m, comp in companions:
            out.extend(comp.layout_problems(city))
            got = comp.layout_inputs(city)
            if got:
                inputs[m] = got
    counts = geo.kind_counts(cells, [t.kind for t in placed])
    rules = ruleset(game)
    buildings = {k: counts.get(k, 0) for k in rules.kinds}
    if rules.id != DEFAULT_GAME:
        out = [LayoutViolation(v.rule, v.x, v.y, game_words(v.message, rules)) for v in out]
    return LayoutReport(tuple(placed), tuple(out), buildings, geo.longest_wall(cells, walls), inputs)


def game_words(text: str, rules: Ruleset) -> str:
    """A sentence written in Alhambra's words in the words of ``rules``' game: Granada has a
    city (not an Alhambra), moats (not walls) and a starting tile (not a fountain)."""
    if rules.id == DEFAULT_GAME:
        return text
    wall = rules.wall_name
    text = re.sub(r"\bthe base game\b", rules.title, text)
    text = re.sub(r"\ban Alhambra\b", "a city", text)
    text = re.sub(r"\bAlhambra\b", "city", text)
    text = re.sub(r"\bwalls\b", f"{wall}s", text)
    text = re.sub(r"\bwall\b", wall, text)
    text = re.sub(r"\bfountains?\b", "starting tile", text)
    return text


def layout_modules(data: Any) -> tuple[str, ...]:
    """The modules a layout document names (``"modules"``), sorted; () when it names none."""
    named = data.get("modules", []) if isinstance(data, Mapping) else []
    return tuple(sorted({str(m) for m in named})) if isinstance(named, list) else ()


def score_layout(data: Any, game: str = DEFAULT_GAME) -> LayoutReport:
    """Parse a decoded layout document and check it (see :func:`check_layout`) with the modules it names."""
    return check_layout(parse_layout(data, game), game, layout_modules(data))


# ---------------------------------------------------------------------------------- drawing
Chunk = tuple[str, str | None]
"""A piece of a drawn line and its tag: ``None``, ``"wall"``, ``"fountain"``, ``"tile"``,
``"bad"`` (a tile or place with a violation) or ``"axis"`` (coordinates)."""

_CHARSETS: Final = {
    # horizontal light/heavy, vertical light/heavy, corners NW NE SW SE indexed by
    # (horizontal side heavy) + 2 * (vertical side heavy)
    "unicode": ("─", "━", "│", "┃", "┌┍┎┏", "┐┑┒┓", "└┕┖┗", "┘┙┚┛", "×"),
    "ascii": ("-", "=", "|", "#", "++++", "++++", "++++", "++++", "x"),
}
_CELL_W: Final = 5
"""Inner width of a drawn tile."""


def draw_layout(report: LayoutReport, charset: str = "unicode") -> list[list[Chunk]]:
    """Draw the Alhambra as lines of tagged text (join the texts for plain output).

    Every tile is a box showing its label (``F`` for the fountain, else kind letter + price);
    walled sides are heavy lines, open sides light ones. Places with a violation but no tile
    (an enclosed hole) show a cross. Column and row headers give x and y.
    """
    if charset not in _CHARSETS:
        raise ValueError(f"unknown charset {charset!r}")
    h, hh, v, vh, c_nw, c_ne, c_sw, c_se, cross = _CHARSETS[charset]
    at = {(t.x, t.y): t for t in report.tiles}
    bad = {(vi.x, vi.y) for vi in report.violations if vi.x is not None and vi.y is not None}
    places = set(at) | bad
    if not places:
        return [[("(no tiles)", None)]]
    xs = [p[0] for p in places]
    ys = [p[1] for p in places]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    margin = max(len(str(y)) for y in range(y0, y1 + 1)) + 1
    lines: list[list[Chunk]] = []
    header = " " * margin + "".join(f"{x:^{_CELL_W + 2}}" for x in range(x0, x1 + 1))
    lines.append([(header.rstrip(), "axis")])
    for y in range(y0, y1 + 1):
        top: list[Chunk] = [(" " * margin, None)]
        mid: list[Chunk] = [(f"{y:>{margin - 1}} ", "axis")]
        bot: list[Chunk] = [(" " * margin, None)]
        for x in range(x0, x1 + 1):
            t = at.get((x, y))
            if t is None:
                blank = " " * (_CELL_W + 2)
                top.append((blank, None))
                bot.append((blank, None))
                if (x, y) in bad:
                    mid.append((" " + f"{cross * 2:^{_CELL_W}}" + " ", "bad"))
                else:
                    mid.append((blank, None))
                continue
            n, e, s, w = (bool(t.walls & side) for side in (1, 2, 4, 8))
            tag_n = "wall" if n else None
            tag_s = "wall" if s else None
            top += [(c_nw[n + 2 * w], None), ((hh if n else h) * _CELL_W, tag_n), (c_ne[n + 2 * e], None)]
            bot += [(c_sw[s + 2 * w], None), ((hh if s else h) * _CELL_W, tag_s), (c_se[s + 2 * e], None)]
            label_tag = "bad" if (x, y) in bad else ("fountain" if t.is_fountain else "tile")
            mid += [(vh if w else v, "wall" if w else None), (f"{t.label:^{_CELL_W}}", label_tag), (vh if e else v, "wall" if e else None)]
        lines += [top, mid, bot]
    return [_rstrip(line) for line in lines]


def _rstrip(line: list[Chunk]) -> list[Chunk]:
    out = list(line)
    while out and not out[-1][0].strip():
        out.pop()
    if out:
        text, tag = out[-1]
        out[-1] = (text.rstrip(), tag)
    return out


def drawing_text(report: LayoutReport, charset: str = "unicode") -> str:
    """The drawing of :func:`draw_layout` as plain text."""
    return "\n".join("".join(text for text, _ in line) for line in draw_layout(report, charset))
