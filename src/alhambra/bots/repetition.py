"""No endless redesigning: a bot never redesigns back to a layout it held since the game last
moved on.

The rules allow a redesign as a whole turn, so two bots can answer each other's redesigns for
ever: each one's best reply to the other's new layout undoes its own last redesign, and the
game never ends (two greedy bots did exactly that in about one game in a hundred). While
nothing but redesigns happens (no money taken, no building bought, no scoring), going back to
an earlier layout only feeds such a cycle, so bots never do it.

:class:`Repetition` reads the layouts from what the seat may see: its current Alhambra and
reserve board (the view) and, walking back through the public events, its own redesigns since
the last event of any other kind, undone one by one. The walk stops at anything else (money
taken, a building bought, a scoring round, a module's event), so a redesign is only ever
refused inside a run of redesign turns.
"""

from __future__ import annotations

from ..actions import Action, BuildFromReserve, ExchangeTiles, MoveToReserve
from .base import Observation

__all__ = ["Layout", "Repetition"]

Layout = tuple[frozenset[tuple[int, int, str]], tuple[str, ...]]
"""An Alhambra (x, y, tile) and a reserve board (sorted tile codes)."""

_PASS = frozenset({"TurnStarted", "TurnEnded", "AlhambraRedesigned"})
"""Events a run of redesign turns is made of; any other event ends the walk back."""


class Repetition:
    """The layouts a seat held earlier in its current run of redesigns, and which actions would
    bring one back."""

    def __init__(self, obs: Observation) -> None:
        me = obs.view["seats"][obs.seat]
        cells = {(c["x"], c["y"]): str(c["tile"]) for c in me.get("alhambra", ())}
        reserve = [str(t) for t in me.get("reserve", ())]
        self.cells = dict(cells)
        self.reserve = list(reserve)
        self.earlier: set[Layout] = set()
        """Layouts the seat held earlier in the current run of redesign turns."""
        for e in reversed(obs.events):
            kind = e.get("type")
            if kind not in _PASS:
                break
            if kind != "AlhambraRedesigned" or e.get("seat") != obs.seat:
                continue
            if not _undo(cells, reserve, e):
                break
            self.earlier.add(_layout(cells, reserve))

    def result(self, action: Action) -> Layout | None:
        """The seat's layout after a redesign ``action`` (None for any other action)."""
        cells = dict(self.cells)
        reserve = list(self.reserve)
        if isinstance(action, BuildFromReserve):
            if action.tile not in reserve:
                return None
            reserve.remove(action.tile)
            cells[action.target] = action.tile
        elif isinstance(action, MoveToReserve):
            at = [p for p, t in cells.items() if t == action.tile]
            if not at:
                return None
            del cells[at[0]]
            reserve.append(action.tile)
        elif isinstance(action, ExchangeTiles):
            at = [p for p, t in cells.items() if t == action.city_tile]
            if not at or action.reserve_tile not in reserve:
                return None
            reserve.remove(action.reserve_tile)
            reserve.append(action.city_tile)
            cells[at[0]] = action.reserve_tile
        else:
            return None
        return _layout(cells, reserve)

    def repeats(self, action: Action) -> bool:
        """True for a redesign that brings back a layout the seat held earlier."""
        if not self.earlier:
            return False
        after = self.result(action)
        return after is not None and after in self.earlier


def _layout(cells: dict[tuple[int, int], str], reserve: list[str]) -> Layout:
    return frozenset((x, y, t) for (x, y), t in cells.items()), tuple(sorted(reserve))


def _undo(cells: dict[tuple[int, int], str], reserve: list[str], e: dict[str, object]) -> bool:
    """Undo one redesign event in place; False if the layout does not match it."""
    how, tile, other = e.get("how"), e.get("tile"), e.get("other")
    x, y = e.get("x"), e.get("y")
    if not isinstance(tile, str) or not isinstance(x, int) or not isinstance(y, int):
        return False
    pos = (x, y)
    if how == "build":  # the tile came from the reserve to pos
        if cells.get(pos) != tile:
            return False
        del cells[pos]
        reserve.append(tile)
    elif how == "remove":  # the tile went from pos to the reserve
        if pos in cells or tile not in reserve:
            return False
        reserve.remove(tile)
        cells[pos] = tile
    elif how == "exchange":  # tile came in at pos, other went to the reserve
        if cells.get(pos) != tile or not isinstance(other, str) or other not in reserve:
            return False
        reserve.remove(other)
        reserve.append(tile)
        cells[pos] = other
    else:
        return False
    return True
