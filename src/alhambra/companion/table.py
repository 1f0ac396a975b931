"""Read a table file: the whole table of a scoring round of a game played on a real table.

A table file is JSON::

    {"game": "alhambra", "round": 2, "modules": ["MODULE"],
     "table": {"MODULE": {"KEY": 3}},
     "players": [
        {"name": "Kim", "score": 21, "tiles": [{"x": 0, "y": 0, "kind": "fountain"}, ...],
         "modules": {"MODULE": {"KEY": 1}}},
        {"name": "Nina", "buildings": {"pavilion": 2, "tower": 1}, "wall": 4}
     ],
     "neutral": {"buildings": {"garden": 3}}}

Each player gives either ``tiles`` (the Alhambra in the layout format of ``alhambra score
LAYOUT.json``: it is checked, and buildings and the longest wall are read from it) or counts:
``buildings`` per kind, ``wall`` (the longest outer wall) and, in Granada, ``dearest`` (the
price of the dearest building per kind, which breaks ties). ``score`` is the score before this
round (default 0). In a 2-player game ``neutral`` gives the neutral player's buildings (counts,
or ``tiles`` as a list of ``{"kind", "price"}``). Module inputs: ``table`` per module id, and
``modules`` per player (see :mod:`alhambra.companion.hooks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..errors import ConfigError
from ..hooks import available_modules, load_module
from ..layout import LayoutError, LayoutReport, check_layout, parse_layout, read_json_file
from ..rulesets import Ruleset, ruleset
from .hooks import CompanionHooks, Field

__all__ = ["MAX_SCORE", "Participant", "Table", "TableError", "companion_of", "load_table", "parse_table"]

MAX_SCORE: Final = 10_000
"""Scores before a round beyond this are refused (no real game comes near)."""

_TOP_KEYS: Final = frozenset({"game", "round", "modules", "table", "players", "neutral", "options"})
_PLAYER_KEYS: Final = frozenset({"name", "score", "tiles", "buildings", "wall", "dearest", "modules"})


class TableError(ValueError):
    """The table file cannot be read or makes no sense; the message says what and where."""


def companion_of(module_id: str) -> CompanionHooks | None:
    """A module's companion part (``Module.companion``); None when it changes no scoring."""
    return load_module(module_id).companion()


@dataclass(slots=True)
class Participant:
    """One player (or the neutral player) as read: counts, wall, the checked Alhambra if tiles."""

    name: str
    buildings: dict[str, int]
    wall: int
    dearest: dict[str, int]
    score: int = 0
    report: LayoutReport | None = None
    modules: dict[str, dict[str, Any]] = field(default_factory=dict)
    neutral: bool = False


@dataclass(slots=True)
class Table:
    """A whole table, read and range-checked (see the module docstring)."""

    rules: Ruleset
    round_no: int
    modules: tuple[str, ...]
    players: list[Participant]
    neutral: Participant | None
    table: dict[str, dict[str, Any]]

    @property
    def participants(self) -> list[Participant]:
        """The players, then the neutral player (2 players)."""
        return self.players + ([self.neutral] if self.neutral is not None else [])


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v: object, where: str, lo: int, hi: int) -> int:
    if not _is_int(v):
        raise TableError(f"{where} must be a whole number, not {v!r}")
    assert isinstance(v, int)
    if not lo <= v <= hi:
        raise TableError(f"{where} = {v} is not possible (it lies from {lo} to {hi})")
    return v


def _kind_limits(rules: Ruleset) -> dict[str, int]:
    """How many tiles of each kind the game has (both faces of two-sided tiles)."""
    out = dict.fromkeys(rules.kinds, 0)
    for t in (*rules.tiles, *rules.backs):
        if t.kind in out:
            out[t.kind] += 1
    return out


def _kind(rules: Ruleset, text: object, where: str) -> str:
    if isinstance(text, str):
        t = " ".join(text.strip().lower().split())
        for k in rules.kinds:
            if t in (k, rules.kind_names[k].lower()):
                return k
    names = ", ".join(rules.kinds)
    raise TableError(f"{where}: {text!r} is no building kind of {rules.title} ({names})")


def _field_value(f: Field, raw: object, where: str) -> Any:
    if f.kind == "choice":
        if raw not in f.choices:
            raise TableError(f"{where} must be one of {', '.join(f.choices)}, not {raw!r}")
        return raw
    if f.kind == "numbers":
        if not isinstance(raw, list):
            raise TableError(f"{where} must be a list of whole numbers")
        if f.length and len(raw) != f.length:
            raise TableError(f"{where} needs exactly {f.length} numbers, not {len(raw)}")
        if len(raw) > 60:
            raise TableError(f"{where} has {len(raw)} entries; no real table has so many")
        return [_int(v, f"{where}[{i + 1}]", f.minimum, f.maximum) for i, v in enumerate(raw)]
    return _int(raw, where, f.minimum, f.maximum)


def _fields(fields: tuple[Field, ...], raw: object, where: str) -> dict[str, Any]:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise TableError(f"{where} must be an object of the module's inputs")
    known = {f.key for f in fields}
    extra = sorted(str(k) for k in raw if k not in known)
    if extra:
        allowed = ", ".join(sorted(known)) or "none"
        raise TableError(f"{where}: unknown input(s) {', '.join(extra)} (allowed: {allowed})")
    return {f.key: _field_value(f, raw[f.key], f"{where}.{f.key}") if f.key in raw else f.default() for f in fields}


def _modules(raw: object) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(m, str) for m in raw):
        raise TableError("'modules' must be a list of module ids (see alhambra modules)")
    if len(raw) > 40:
        raise TableError(f"'modules' lists {len(raw)} entries; the Big Box has 26 modules")
    seen: set[str] = set()
    for m in raw:
        if m in seen:
            raise TableError(f"module {m!r} is listed twice")
        seen.add(m)
        if m not in available_modules():
            raise TableError(f"unknown module {m!r} (known: {', '.join(available_modules())})")
    return tuple(sorted(raw))


def _participant(raw: object, i: int, rules: Ruleset, mods: tuple[str, ...], neutral: bool) -> Participant:
    who = "the neutral player" if neutral else f"player {i + 1}"
    if not isinstance(raw, Mapping):
        raise TableError(f"{who} must be an object with 'tiles' or 'buildings'")
    extra = sorted(str(k) for k in raw if k not in _PLAYER_KEYS)
    if extra:
        raise TableError(f"{who}: unknown field(s) {', '.join(extra)} (allowed: {', '.join(sorted(_PLAYER_KEYS))})")
    name = raw.get("name", "Dirk" if neutral else f"player {i + 1}")
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        raise TableError(f"{who}: 'name' must be a text of 1 to 40 characters")
    name = name.strip()
    who = f"{who} ({name})"
    limits = _kind_limits(rules)
    if "tiles" in raw and ("buildings" in raw or "wall" in raw):
        raise TableError(f"{who}: give either 'tiles' or 'buildings' and 'wall', not both")
    report: LayoutReport | None = None
    dearest: dict[str, int] = {}
    if "tiles" in raw and neutral:
        tiles = raw["tiles"]
        if not isinstance(tiles, list) or len(tiles) > len(rules.tiles):
            raise TableError(f'{who}: \'tiles\' must be a list of at most {len(rules.tiles)} tiles like {{"kind": "garden", "price": 8}}')
        buildings = dict.fromkeys(rules.kinds, 0)
        for j, t in enumerate(tiles):
            if not isinstance(t, Mapping) or set(t) - {"kind", "price", "walls"}:
                raise TableError(f'{who}: tile {j + 1} must be like {{"kind": "garden", "price": 8}}')
            k = _kind(rules, t.get("kind"), f"{who}: tile {j + 1}")
            price = _int(t.get("price"), f"{who}: tile {j + 1}: 'price'", 1, 99)
            buildings[k] += 1
            dearest[k] = max(dearest.get(k, 0), price)
        wall = 0
    elif "tiles" in raw:
        try:
            tiles_ = parse_layout({"tiles": raw["tiles"]}, rules.id, mods)
        except LayoutError as e:
            raise TableError(f"{who}: {e}") from None
        report = check_layout(tiles_, rules.id, mods)
        buildings = dict(report.buildings)
        wall = report.longest_wall
        for t in report.tiles:
            if not t.is_fountain and t.kind in limits:
                dearest[t.kind] = max(dearest.get(t.kind, 0), t.price)
    else:
        b = raw.get("buildings", {})
        if not isinstance(b, Mapping):
            raise TableError(f"{who}: 'buildings' must be an object of counts per kind like {{\"pavilion\": 2}}")
        buildings = dict.fromkeys(rules.kinds, 0)
        for k_raw, v in b.items():
            k = _kind(rules, k_raw, f"{who}: buildings")
            buildings[k] = _int(v, f"{who}: buildings of {k}", 0, limits[k])
        max_wall = sum(bin(t.walls).count("1") for t in rules.tiles)
        wall = 0 if neutral else _int(raw.get("wall", 0), f"{who}: 'wall'", 0, max_wall)
        if neutral and "wall" in raw:
            raise TableError(f"{who}: the neutral player has no Alhambra and no wall")
        d = raw.get("dearest", {})
        if not isinstance(d, Mapping):
            raise TableError(f"{who}: 'dearest' must be an object of prices per kind like {{\"school\": 9}}")
        for k_raw, v in d.items():
            k = _kind(rules, k_raw, f"{who}: dearest")
            dearest[k] = _int(v, f"{who}: dearest {k}", 0, 99)
        if rules.scoring != "table":
            missing = [k for k in rules.kinds if buildings[k] and not dearest.get(k)]
            if missing:
                raise TableError(
                    f"{who}: {rules.title} breaks ties by the dearest building: give 'dearest' for {', '.join(missing)} "
                    f"(the price of the most expensive building of that kind)"
                )
    score = 0 if neutral else _int(raw.get("score", 0), f"{who}: 'score'", -MAX_SCORE, MAX_SCORE)
    raw_mods = raw.get("modules", {})
    if not isinstance(raw_mods, Mapping):
        raise TableError(f"{who}: 'modules' must be an object of inputs per module id")
    for m in raw_mods:
        if m not in mods:
            raise TableError(f"{who}: inputs for module {m!r}, which is not in play (add it to 'modules')")
    values: dict[str, dict[str, Any]] = {}
    for m in mods:
        comp = companion_of(m)
        fields = tuple(f for f in comp.seat_fields if f.neutral or not neutral) if comp else ()
        given = raw_mods.get(m)
        read = report.modules.get(m) if report is not None else None
        if read and (given is None or isinstance(given, Mapping)):  # read from the tiles; what the player gives wins
            given = {**read, **(given or {})}
        values[m] = _fields(fields, given, f"{who}: {m}")
    return Participant(name, buildings, wall, dearest, score, report, values, neutral)


def parse_table(data: Any) -> Table:
    """Read a decoded table document; raise :class:`TableError` for anything unreadable or impossible."""
    if not isinstance(data, Mapping):
        raise TableError('a table file is a JSON object like {"round": 1, "players": [...]}')
    if "tiles" in data and "players" not in data:
        raise TableError("this is one Alhambra, not a table (a table has 'players')")
    extra = sorted(str(k) for k in data if k not in _TOP_KEYS)
    if extra:
        raise TableError(f"unknown field(s) {', '.join(extra)} (allowed: {', '.join(sorted(_TOP_KEYS))})")
    game = data.get("game", "alhambra")
    try:
        rules = ruleset(game) if isinstance(game, str) else ruleset(str(game))
    except ConfigError as e:
        raise TableError(str(e)) from None
    round_no = _int(data.get("round"), "'round' (the scoring round)", 1, 3)
    mods = _modules(data.get("modules"))
    for m in mods:
        if rules.id not in load_module(m).games:
            raise TableError(f"module {m!r} is not played with {rules.title}")
    players_raw = data.get("players")
    if not isinstance(players_raw, list) or not 2 <= len(players_raw) <= 6:
        raise TableError("'players' must be a list of 2 to 6 players")
    players = [_participant(p, i, rules, mods, False) for i, p in enumerate(players_raw)]
    names = [p.name for p in players]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise TableError(f"two players are called {dup!r}: give each a name of their own")
    neutral: Participant | None = None
    if len(players) == 2:
        if "neutral" not in data:
            raise TableError("a 2-player game has the neutral player: give 'neutral' with his buildings")
        neutral = _participant(data["neutral"], 2, rules, mods, True)
    elif "neutral" in data:
        raise TableError("only a 2-player game has the neutral player")
    table_raw = data.get("table", {})
    if not isinstance(table_raw, Mapping):
        raise TableError("'table' must be an object of inputs per module id")
    for m in table_raw:
        if m not in mods:
            raise TableError(f"table: inputs for module {m!r}, which is not in play (add it to 'modules')")
    table: dict[str, dict[str, Any]] = {}
    for m in mods:
        comp = companion_of(m)
        table[m] = _fields(comp.table_fields if comp else (), table_raw.get(m), f"table: {m}")
    return Table(rules, round_no, mods, players, neutral, table)


def load_table(path: str | Path) -> Table:
    """Read a table file ('-': standard input is for the caller); :class:`TableError` if it cannot be used."""
    p = Path(path)
    try:
        return parse_table(read_json_file(p, "table"))
    except (LayoutError, TableError) as e:
        raise TableError(f"{p}: {e}" if not str(e).startswith(str(p)) else str(e)) from None


def is_table(data: Any) -> bool:
    """True for a table document (it has ``players``), False for one Alhambra's layout."""
    return isinstance(data, Mapping) and "players" in data
