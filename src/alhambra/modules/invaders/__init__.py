"""Invaders (Big Box module ``invaders``): see ``README.md``."""

from __future__ import annotations

from .module import (
    DIRECTIONS,
    MODULE,
    Invaders,
    InvadersState,
    InvasionCardShown,
    InvasionRevealed,
    InvasionScouted,
    ScoutsTurnedUp,
    exposure,
    invaders,
    invasion_loss,
    neighbours,
    unprotected,
)

__all__ = [
    "DIRECTIONS",
    "MODULE",
    "Invaders",
    "InvadersState",
    "InvasionCardShown",
    "InvasionRevealed",
    "InvasionScouted",
    "ScoutsTurnedUp",
    "exposure",
    "invaders",
    "invasion_loss",
    "neighbours",
    "unprotected",
]
