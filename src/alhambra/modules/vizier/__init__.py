"""The Vizier's favour (Big Box module ``vizier``): see ``README.md``."""

from __future__ import annotations

from .module import (
    MODULE,
    Vizier,
    VizierBuy,
    VizierBuyItem,
    VizierRefill,
    VizierState,
    VizierUsed,
    VizierWake,
    VizierWoken,
    exact_purchases,
    priority_order,
)

__all__ = [
    "MODULE",
    "Vizier",
    "VizierBuy",
    "VizierBuyItem",
    "VizierRefill",
    "VizierState",
    "VizierUsed",
    "VizierWake",
    "VizierWoken",
    "exact_purchases",
    "priority_order",
]
