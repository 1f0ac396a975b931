"""Watchtowers (Big Box module ``watchtowers``): see ``README.md``."""

from __future__ import annotations

from .module import (
    COLOUR,
    HALVES,
    MODULE,
    PlaceTower,
    ReturnTower,
    TowerBought,
    TowerPlaced,
    TowerReturned,
    TowersState,
    Watchtowers,
    tower_spots,
    tower_wall,
    tower_wall_points,
    towers,
)

__all__ = [
    "COLOUR",
    "HALVES",
    "MODULE",
    "PlaceTower",
    "ReturnTower",
    "TowerBought",
    "TowerPlaced",
    "TowerReturned",
    "TowersState",
    "Watchtowers",
    "tower_spots",
    "tower_wall",
    "tower_wall_points",
    "towers",
]
