"""The Vizier's favour (Big Box module ``vizier``): see ``README.md``."""

from __future__ import annotations

from .module import (
    MODULE,
    Vizier,
    VizierBuy,
    VizierOffer,
    VizierPass,
    VizierPassed,
    VizierState,
    VizierUsed,
    VizierWake,
    VizierWoken,
    priority_order,
)

__all__ = [
    "MODULE",
    "Vizier",
    "VizierBuy",
    "VizierOffer",
    "VizierPass",
    "VizierPassed",
    "VizierState",
    "VizierUsed",
    "VizierWake",
    "VizierWoken",
    "priority_order",
]
