"""The Bazaars (Big Box module ``bazaars``): see ``README.md``."""

from __future__ import annotations

from .module import (
    BAZAAR_KIND,
    BY_CODE,
    MODULE,
    BazaarDrawn,
    Bazaars,
    BazaarScore,
    BazaarsState,
    BazaarType,
    bazaar_types,
    price_of,
    score_bazaar,
    seat_bazaars,
    seat_points,
)

__all__ = [
    "BAZAAR_KIND",
    "BY_CODE",
    "MODULE",
    "BazaarDrawn",
    "BazaarScore",
    "BazaarType",
    "Bazaars",
    "BazaarsState",
    "bazaar_types",
    "price_of",
    "score_bazaar",
    "seat_bazaars",
    "seat_points",
]
