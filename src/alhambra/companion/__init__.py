"""The scoring companion: score the rounds of a game played with the physical box.

``alhambra score TABLE.json`` and the browser's "Score a real game" page read a whole table
(:mod:`.table`), score its round with the engine's rules (:mod:`.score`) and show the
breakdown. Modules take part through ``Module.companion`` (:mod:`.hooks`). :mod:`.export`
turns an engine game into the same input (the tests score what the engine scored).
"""

from __future__ import annotations

from .hooks import CompanionHooks, Field, Line, Tally
from .score import KindRow, RoundResult, SeatResult, score_table
from .table import Participant, Table, TableError, companion_of, is_table, load_table, parse_table

__all__ = [
    "CompanionHooks",
    "Field",
    "KindRow",
    "Line",
    "Participant",
    "RoundResult",
    "SeatResult",
    "Table",
    "TableError",
    "Tally",
    "companion_of",
    "is_table",
    "load_table",
    "parse_table",
    "score_table",
]
