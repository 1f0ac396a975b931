"""Squares (Big Box module ``squares``): see ``README.md``."""

from __future__ import annotations

from .module import (
    COLOUR,
    MODULE,
    Squares,
    SquaresLaidOut,
    SquaresState,
    SquareTaken,
    TakeSquare,
    bonuses,
    owned,
    square_bonus,
    square_code,
    squares,
)

__all__ = [
    "COLOUR",
    "MODULE",
    "SquareTaken",
    "Squares",
    "SquaresLaidOut",
    "SquaresState",
    "TakeSquare",
    "bonuses",
    "owned",
    "square_bonus",
    "square_code",
    "squares",
]
