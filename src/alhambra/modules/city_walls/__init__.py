"""City walls (Big Box module ``city_walls``): see ``README.md``."""

from __future__ import annotations

from .module import (
    MODULE,
    BuildCityWall,
    BuildFountainWall,
    CityWallBuilt,
    CityWallCardShown,
    CityWalls,
    CityWallsState,
    card_walls,
    wall_targets,
)

__all__ = [
    "MODULE",
    "BuildCityWall",
    "BuildFountainWall",
    "CityWallBuilt",
    "CityWallCardShown",
    "CityWalls",
    "CityWallsState",
    "card_walls",
    "wall_targets",
]
