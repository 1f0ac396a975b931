"""Medina (Big Box module ``medina``): see ``README.md``."""

from __future__ import annotations

from .module import MEDINA_KIND, MODULE, Medina, built, medina_code, medina_tiles, participants, penalties, round_penalties

__all__ = ["MEDINA_KIND", "MODULE", "Medina", "built", "medina_code", "medina_tiles", "participants", "penalties", "round_penalties"]
