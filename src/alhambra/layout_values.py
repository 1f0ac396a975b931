"""The values of a read layout (``alhambra score``): its tiles, the problems found, the report
and the city a module's companion sees. Plain data, below the layout reader and the companion hooks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .components import FOUNTAIN_KIND, walls_to_letters


class LayoutError(ValueError):
    """The layout cannot be read; the message says what is wrong and where."""


@dataclass(frozen=True, slots=True)
class LayoutTile:
    """One tile as read from the layout.

    ``known`` is True when kind, price and walls name a real base-game tile (or the fountain).
    """

    x: int
    y: int
    kind: str
    price: int
    walls: int
    known: bool
    index: int
    """Position of the tile in the input list (0-based)."""
    letter: str = "?"
    """The kind's letter in tile codes (``?`` for a kind the game does not have)."""
    physical: int = -1
    """Which physical tile of the game this is (two faces of a Granada tile share it); -1: none."""
    code: str = ""
    """The tile's code as the game names it (``G8sw``, a module's ``L8ne`` or ``Wp1``); "" when unknown."""
    added: int = 0
    """Wooden wall segments built on the tile (city walls), a part of ``walls``."""
    gates: int = 0
    """Sides where a city gate opens a double wall (city gates): those printed walls are not in
    ``walls`` (a gate takes the wall off both facing sides, as in the engine)."""

    @property
    def is_fountain(self) -> bool:
        """True for the fountain (starting tile)."""
        return self.kind == FOUNTAIN_KIND

    @property
    def label(self) -> str:
        """Short label for drawings: ``F`` for the fountain, else kind letter + price (``G8``)."""
        if self.is_fountain:
            return "F"
        if self.letter == "?" and self.code:  # a module's tile that is no building kind (a camp, a watchtower)
            return self.code
        return f"{self.letter}{self.price}"

    def describe(self) -> str:
        """Readable name, e.g. ``garden 8 (walls NW)``."""
        w = walls_to_letters(self.walls & ~self.added).upper()
        plus = f" + segment{'s' if self.added.bit_count() > 1 else ''} {walls_to_letters(self.added).upper()}" if self.added else ""
        if self.gates:
            plus += f" + gate{'s' if self.gates.bit_count() > 1 else ''} {walls_to_letters(self.gates).upper()}"
        if self.is_fountain:
            return f"fountain{plus}"
        return f"{self.kind} {self.price} ({'walls ' + w if w else 'no walls'}{plus})"


@dataclass(frozen=True, slots=True)
class LayoutViolation:
    """One problem of a layout: ``rule`` id, place (``None`` when it has no place) and sentence."""

    rule: str
    x: int | None
    y: int | None
    message: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"rule": self.rule, "x": self.x, "y": self.y, "message": self.message}


@dataclass(frozen=True, slots=True)
class LayoutReport:
    """The result of checking one layout."""

    tiles: tuple[LayoutTile, ...]
    violations: tuple[LayoutViolation, ...]
    buildings: dict[str, int]
    """Building tiles per kind (the fountain is not a building), every kind of the game present."""
    longest_wall: int
    modules: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per module whose tiles the layout holds, the scoring inputs read from it
    (``CompanionHooks.layout_inputs``: the camps' lines, the wall with the watchtowers)."""

    @property
    def valid(self) -> bool:
        """True when the Alhambra is legal."""
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        """The ``alhambra score --json`` document (``modules`` only when a module's tiles are in it)."""
        out: dict[str, Any] = {
            "valid": self.valid,
            "violations": [v.to_json() for v in self.violations],
            "buildings": dict(self.buildings),
            "longest_wall": self.longest_wall,
        }
        if self.modules:
            out["modules"] = {m: dict(v) for m, v in self.modules.items()}
        return out


@dataclass(frozen=True, slots=True)
class LayoutCity:
    """A read layout as a module's companion sees it (``CompanionHooks.layout_problems`` and
    ``layout_inputs``): ``cells`` maps each place of the Alhambra to the index of its tile in
    ``tiles``, ``outside`` the places of the tiles that lie outside the city walls (camps:
    ``CompanionHooks.outside_kinds``); ``walls`` holds each tile's walls by index."""

    tiles: tuple[LayoutTile, ...]
    cells: Mapping[int, int]
    outside: Mapping[int, int]
    walls: tuple[int, ...]
    fountain: int | None
