"""Magical buildings (Big Box module ``magical_buildings``): see ``README.md``."""

from __future__ import annotations

from .module import MODULE, MagicalBuildings, MagicalBuildingTurned, MagicBuild, MagicExchange, MagicPlace, magical_tiles, turns

__all__ = ["MODULE", "MagicBuild", "MagicExchange", "MagicPlace", "MagicalBuildingTurned", "MagicalBuildings", "magical_tiles", "turns"]
