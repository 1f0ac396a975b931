"""Camps (Big Box module ``camps``): see ``README.md``."""

from __future__ import annotations

from .module import (
    BASTIONS,
    MODULE,
    RULES,
    BuildCamp,
    CampAt,
    CampPlaced,
    CampRemoved,
    Camps,
    CampsState,
    ExchangeCamp,
    PlaceCamp,
    RemoveCamp,
    arrow_points,
    camp_points,
    camp_spots,
    camps_of,
    camps_state,
    is_camp,
)

__all__ = [
    "BASTIONS",
    "MODULE",
    "RULES",
    "BuildCamp",
    "CampAt",
    "CampPlaced",
    "CampRemoved",
    "Camps",
    "CampsState",
    "ExchangeCamp",
    "PlaceCamp",
    "RemoveCamp",
    "arrow_points",
    "camp_points",
    "camp_spots",
    "camps_of",
    "camps_state",
    "is_camp",
]
