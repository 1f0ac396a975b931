"""The thieves (Big Box module ``thieves``): see ``README.md``."""

from __future__ import annotations

from .module import (
    ALL_THIEVES,
    DEALT,
    MODULE,
    PER_CURRENCY,
    ThiefPlay,
    ThiefPlayed,
    Thieves,
    ThievesState,
    check_thieves,
    next_seat,
    stealable,
    thief_plays,
)

__all__ = [
    "ALL_THIEVES",
    "DEALT",
    "MODULE",
    "PER_CURRENCY",
    "ThiefPlay",
    "ThiefPlayed",
    "Thieves",
    "ThievesState",
    "check_thieves",
    "next_seat",
    "stealable",
    "thief_plays",
]
