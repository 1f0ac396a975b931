"""The Art of the Moors (Big Box module ``art_of_the_moors``): see ``README.md``."""

from __future__ import annotations

from .module import (
    MODULE,
    PRICES,
    ArtOfTheMoors,
    CounterType,
    CultureCounterTaken,
    CultureDeveloped,
    CultureMarkerMoved,
    DevelopCulture,
    MoorsState,
    buildings,
    can_develop,
    counters_of,
    faces,
    group_of,
    moors,
    points_now,
)

__all__ = [
    "MODULE",
    "PRICES",
    "ArtOfTheMoors",
    "CounterType",
    "CultureCounterTaken",
    "CultureDeveloped",
    "CultureMarkerMoved",
    "DevelopCulture",
    "MoorsState",
    "buildings",
    "can_develop",
    "counters_of",
    "faces",
    "group_of",
    "moors",
    "points_now",
]
