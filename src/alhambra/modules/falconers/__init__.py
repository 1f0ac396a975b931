"""The Falconers (Big Box module ``falconers``): see ``README.md``."""

from __future__ import annotations

from .module import (
    BY_CODE,
    MODULE,
    BuyFalcon,
    FalconBought,
    Falconers,
    FalconReturned,
    FalconsDone,
    FalconsFinished,
    FalconsState,
    FalconTurn,
    FalconType,
    PlacedFalcon,
    corner_codes,
    corner_kinds,
    corner_tiles,
    corners,
    falcon_points,
    falcons,
    placements,
)

__all__ = [
    "BY_CODE",
    "MODULE",
    "BuyFalcon",
    "FalconBought",
    "FalconReturned",
    "FalconTurn",
    "FalconType",
    "Falconers",
    "FalconsDone",
    "FalconsFinished",
    "FalconsState",
    "PlacedFalcon",
    "corner_codes",
    "corner_kinds",
    "corner_tiles",
    "corners",
    "falcon_points",
    "falcons",
    "placements",
]
