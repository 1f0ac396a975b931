"""Sides, walls and the tile type: the geometry facts every other component file builds on.

North is the top of a printed tile; a wall mask is a bit set of sides (``NORTH | WEST``), written
as letters in N, E, S, W order (``"nw"``). :class:`TileType` is one physical tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# Wall bits. A tile's walls are a 4-bit mask.
NORTH: Final = 1
EAST: Final = 2
SOUTH: Final = 4
WEST: Final = 8
SIDES: Final = (NORTH, EAST, SOUTH, WEST)
SIDE_LETTERS: Final = {NORTH: "n", EAST: "e", SOUTH: "s", WEST: "w"}
OPPOSITE: Final = {NORTH: SOUTH, EAST: WEST, SOUTH: NORTH, WEST: EAST}
SIDE_DELTAS: Final = {NORTH: (0, -1), EAST: (1, 0), SOUTH: (0, 1), WEST: (-1, 0)}
"""Grid step for each side: x grows east, y grows south."""


def walls_to_letters(walls: int) -> str:
    """Return the wall letters of a mask in N, E, S, W order (``"nw"``)."""
    return "".join(SIDE_LETTERS[s] for s in SIDES if walls & s)


def letters_to_walls(letters: str) -> int:
    """Parse wall letters (any case, any order) into a mask; raise ``ValueError`` on junk."""
    mask = 0
    for ch in letters.lower():
        side = {"n": NORTH, "e": EAST, "s": SOUTH, "w": WEST}.get(ch)
        if side is None:
            raise ValueError(f"unknown wall side {ch!r} (use N, E, S, W)")
        mask |= side
    return mask


@dataclass(frozen=True, slots=True)
class TileType:
    """One physical building tile (or a fountain): kind, price and walled sides."""

    code: str
    kind: str
    price: int
    walls: int
    module: str | None = None
    in_bag: bool = False
    """A module tile that the core shuffles into the bag with the building tiles (bazaars)."""

    @property
    def wall_letters(self) -> str:
        """Walled sides as letters, e.g. ``"sw"``."""
        return walls_to_letters(self.walls)
