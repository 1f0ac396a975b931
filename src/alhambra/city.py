"""The geometry of one Alhambra: building rules, redesign checks and the longest outer wall.

An Alhambra is a mapping from grid positions to tile ids; a separate walls table (one 4-bit
mask per tile id, see :mod:`alhambra.components`) says which sides carry a wall. Positions are
packed into one int (:func:`pos`), x growing east and y growing south; the fountain sits at
``(0, 0)`` in games, anywhere in a scored layout.

The building rules (rulebook, "Rules for building the Alhambra"):

* ``walls_match``: adjoining sides are both walled or both open;
* ``on_foot``: every tile is reachable on foot from the fountain without crossing a wall;
* ``adjacent``: every tile is joined to the Alhambra by at least one side;
* ``no_holes``: no empty area is surrounded on all sides by tiles;
* orientation needs no check: tiles are never rotated in this model.

Functions here are pure and fast; the engine and the ``alhambra score`` command share them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from .components import EAST, NORTH, SOUTH, WEST

_OFF: Final = 512
_STRIDE: Final = 1024

Cells = Mapping[int, int]
"""Position -> tile id."""

# (side bit, position delta, opposite side bit)
_NEIGHBOURS: Final = (
    (NORTH, -_STRIDE, SOUTH),
    (EAST, 1, WEST),
    (SOUTH, _STRIDE, NORTH),
    (WEST, -1, EAST),
)
# The 8 cells around a position, in ring order starting north (each 4-adjacent to the next).
_RING: Final = (-_STRIDE, -_STRIDE + 1, 1, _STRIDE + 1, _STRIDE, _STRIDE - 1, -1, -_STRIDE - 1)

RULE_MESSAGES: Final = {
    "occupied": "that place already holds a tile",
    "adjacent": "the tile must be joined to the Alhambra by at least one side",
    "walls_match": "adjoining sides must both have a wall or both be open",
    "on_foot": "every tile must be reachable on foot from the fountain without crossing a wall",
    "no_holes": "no empty area may be surrounded on all sides by tiles",
    "fountain": "the fountain cannot be moved, removed or exchanged",
}
"""A readable sentence for each building-rule id."""


def pos(x: int, y: int) -> int:
    """Pack grid coordinates into one position int."""
    return (y + _OFF) * _STRIDE + (x + _OFF)


def xy(p: int) -> tuple[int, int]:
    """Unpack a position int into ``(x, y)``."""
    return p % _STRIDE - _OFF, p // _STRIDE - _OFF


ORIGIN: Final = pos(0, 0)


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken building rule at one place."""

    rule: str
    x: int
    y: int
    message: str


def _bbox(cells: Iterable[int]) -> tuple[int, int, int, int]:
    xs: list[int] = []
    ys: list[int] = []
    for p in cells:
        xs.append(p % _STRIDE)
        ys.append(p // _STRIDE)
    return min(xs), max(xs), min(ys), max(ys)


def _enclosed(cells: Cells, start: int, box: tuple[int, int, int, int]) -> bool:
    """True if the empty region containing ``start`` cannot reach outside the bounding box."""
    x0, x1, y0, y1 = box
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        px = p % _STRIDE
        py = p // _STRIDE
        if px <= x0 or px >= x1 or py <= y0 or py >= y1:
            return False
        for d in (-_STRIDE, 1, _STRIDE, -1):
            q = p + d
            if q not in seen and q not in cells:
                seen.add(q)
                stack.append(q)
    return True


def _runs_of(mask: int) -> int:
    bits = [(mask >> i) & 1 for i in range(8)]
    runs = sum(1 for i in range(8) if bits[i] and not bits[i - 1])
    return 1 if runs == 0 and bits[0] else runs


_RUNS: Final = tuple(_runs_of(m) for m in range(256))
"""Runs of occupied cells for each 8-bit ring occupancy mask."""


def _ring_runs(cells: Cells, p: int) -> int:
    """Number of separate runs of occupied cells in the 8-cell ring around ``p``."""
    m = 0
    bit = 1
    for d in _RING:
        if p + d in cells:
            m |= bit
        bit <<= 1
    return _RUNS[m]


def creates_hole_with(cells: Cells, filled: Mapping[int, int], p: int) -> bool:
    """:func:`creates_hole` in ``cells`` with the ``filled`` places counted as filled (a
    module's pieces outside the city: camps); the union is built only when the ring of eight
    places around ``p`` says an area may close."""
    m = 0
    bit = 1
    for d in _RING:
        if p + d in cells or p + d in filled:
            m |= bit
        bit <<= 1
    if _RUNS[m] <= 1:
        return False
    merged = dict(cells)
    merged.update(filled)
    return creates_hole(merged, p)


def creates_hole(cells: Cells, p: int) -> bool:
    """Would putting a tile on empty ``p`` enclose an empty area? (``cells`` has no hole.)"""
    if _ring_runs(cells, p) <= 1:
        return False
    trial = dict(cells)
    trial[p] = -1
    box = _bbox(trial)
    # widen by one so that a region touching the box edge counts as open
    box = (box[0] - 1, box[1] + 1, box[2] - 1, box[3] + 1)
    for _, d, _ in _NEIGHBOURS:
        q = p + d
        if q not in trial and _enclosed(trial, q, box):
            return True
    return False


def placement_problem(cells: Cells, walls: Sequence[int], tile_walls: int, p: int) -> str | None:
    """The first building rule that putting a tile with ``tile_walls`` on ``p`` breaks, or None."""
    if p in cells:
        return "occupied"
    joined = False
    reachable = False
    for side, d, opp in _NEIGHBOURS:
        t = cells.get(p + d)
        if t is None:
            continue
        joined = True
        mine = tile_walls & side
        theirs = walls[t] & opp
        if bool(mine) != bool(theirs):
            return "walls_match"
        if not mine:
            reachable = True
    if not joined:
        return "adjacent"
    if not reachable:
        return "on_foot"
    if creates_hole(cells, p):
        return "no_holes"
    return None


def placement_problem_filled(cells: Cells, walls: Sequence[int], tile_walls: int, p: int, filled: Iterable[int]) -> str | None:
    """:func:`placement_problem` in an Alhambra where ``filled`` places hold pieces outside
    ``cells`` (a module's camps): such a place is occupied, and it counts as filled in the hole
    test (an area of such pieces is no empty area), nowhere else (no walls, no paths)."""
    taken = set(filled)
    if p in taken:
        return "occupied"
    rule = placement_problem(cells, walls, tile_walls, p)
    if rule is not None and rule != "no_holes":
        return rule
    merged = dict(cells)
    for q in taken:
        merged.setdefault(q, -1)
    return "no_holes" if creates_hole(merged, p) else None


def legal_spots_filled(
    cells: Cells, walls: Sequence[int], tile_walls: int, filled: Iterable[int], spots: Sequence[int] | None = None
) -> list[int]:
    """:func:`legal_spots` with ``filled`` places (see :func:`placement_problem_filled`);
    ``spots``: the places :func:`legal_spots` gives without them (a memoised analysis's).

    From those, a filled place goes and so does a place that closes an area counting the filled
    places; a place refused only because it closed an area of filled places alone comes in (it
    touches one of them by a side, so only the places next to filled ones are tried)."""
    taken = frozenset(q for q in filled if q not in cells)
    plain = legal_spots(cells, walls, tile_walls) if spots is None else spots
    if not taken:
        return list(plain)
    merged = dict(cells)
    merged.update(dict.fromkeys(taken, -1))
    out = [p for p in plain if p not in taken and not creates_hole(merged, p)]
    have = set(plain)
    near = {f + d for f in taken for d in (-_STRIDE, 1, _STRIDE, -1)}
    for p in near:
        if p in have or p in merged or all(p + d not in cells for d in (-_STRIDE, 1, _STRIDE, -1)):
            continue
        if placement_problem(cells, walls, tile_walls, p) == "no_holes" and not creates_hole(merged, p):
            out.append(p)
    return sorted(out)


def frontier(cells: Cells) -> list[int]:
    """Empty positions that touch the Alhambra by a side, in ascending order."""
    out: set[int] = set()
    for p in cells:
        for d in (-_STRIDE, 1, _STRIDE, -1):
            q = p + d
            if q not in cells:
                out.add(q)
    return sorted(out)


def legal_spots(cells: Cells, walls: Sequence[int], tile_walls: int, spots: Sequence[int] | None = None) -> list[int]:
    """Every position where a tile with ``tile_walls`` may be built, ascending."""
    return [p for p in (frontier(cells) if spots is None else spots) if placement_problem(cells, walls, tile_walls, p) is None]


def _walkable_from(cells: Cells, walls: Sequence[int], start: int) -> set[int]:
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        w = walls[cells[p]]
        for side, d, opp in _NEIGHBOURS:
            if w & side:
                continue
            q = p + d
            t = cells.get(q)
            if t is not None and q not in seen and not walls[t] & opp:
                seen.add(q)
                stack.append(q)
    return seen


def removal_problem(cells: Cells, walls: Sequence[int], p: int, fountain: int) -> str | None:
    """The building rule that removing the tile on ``p`` would break, or None."""
    if p == fountain:
        return "fountain"
    if p not in cells:
        raise KeyError(p)
    trial = dict(cells)
    del trial[p]
    if len(_walkable_from(trial, walls, fountain)) != len(trial):
        return "on_foot"
    box = _bbox(trial)
    box = (box[0] - 1, box[1] + 1, box[2] - 1, box[3] + 1)
    if _enclosed(trial, p, box):
        return "no_holes"
    return None


def exchange_problem(cells: Cells, walls: Sequence[int], p: int, new_tile: int, fountain: int) -> str | None:
    """The building rule that exchanging the tile on ``p`` for ``new_tile`` would break, or None.

    The new tile must match every neighbour's walls; when it does, it is joined to its
    neighbours by exactly the open sides the old tile had, so the paths on foot stay the same.
    """
    if p == fountain:
        return "fountain"
    if p not in cells:
        raise KeyError(p)
    nw = walls[new_tile]
    for side, d, opp in _NEIGHBOURS:
        t = cells.get(p + d)
        if t is not None and bool(nw & side) != bool(walls[t] & opp):
            return "walls_match"
    return None


# Neighbour facts of one place, packed into one int: bits 0-3 are the sides that have a tile
# next to them ("known"), bits 4-7 those of them whose tile has a wall facing the place ("need").
_FITS: Final = tuple(frozenset(v for v in range(256) if (w & v & 15) == v >> 4 and v & 15 != v >> 4) for w in range(16))
"""For each wall mask: the packed facts of the empty places where a tile with those walls fits
(its walls match every neighbour, and at least one joined side is open)."""
_EXCHANGE_FITS: Final = tuple(sum(1 << w for w in range(16) if (w & v & 15) == v >> 4) for v in range(256))
"""For each tile's packed neighbour facts: the wall masks (as bits 0-15) of the tiles that may
take its place (walls matching every neighbour)."""
_PAIRS: Final = tuple((v & 15, v >> 4) for v in range(256))
"""Packed facts unpacked as (known, need), shared tuples."""


def _facts(cells: Cells, walls: Sequence[int]) -> dict[int, int]:
    """Packed facts of every empty place touching the Alhambra by a side."""
    fr: dict[int, int] = {}
    get = fr.get
    for p, t in cells.items():
        w = walls[t]
        q = p - _STRIDE
        if q not in cells:
            fr[q] = get(q, 0) | (0x44 if w & NORTH else 0x04)
        q = p + 1
        if q not in cells:
            fr[q] = get(q, 0) | (0x88 if w & EAST else 0x08)
        q = p + _STRIDE
        if q not in cells:
            fr[q] = get(q, 0) | (0x11 if w & SOUTH else 0x01)
        q = p - 1
        if q not in cells:
            fr[q] = get(q, 0) | (0x22 if w & WEST else 0x02)
    return fr


def _requirements_of(cells: Cells, walls: Sequence[int], fountain: int) -> dict[int, int]:
    """Packed neighbour facts of every tile but the fountain (sides with a neighbour in bits
    0-3, those whose neighbour has a wall facing it in bits 4-7)."""
    req: dict[int, int] = {}
    for p in cells:
        if p == fountain:
            continue
        v = 0
        for side, d, opp in _NEIGHBOURS:
            t = cells.get(p + d)
            if t is not None:
                v |= side | (side << 4 if walls[t] & opp else 0)
        req[p] = v
    return req


def _ring_mask(sides: int, corners: int) -> int:
    """The 8-cell ring mask (bit 0 north, clockwise) from the occupied sides (N E S W bits) and
    corners (bits NE SE SW NW)."""
    m = 0
    for i in range(4):
        m |= (sides >> i & 1) << (2 * i) | (corners >> i & 1) << (2 * i + 1)
    return m


_RING_RUNS: Final = tuple(_RUNS[_ring_mask(v & 15, v >> 4)] for v in range(256))
"""Runs of the ring by occupied sides (bits 0-3) and corners (bits 4-7)."""


class CityAnalysis:
    """Facts about one Alhambra that the engine asks for again and again.

    A snapshot: it copies the cells and is never changed from outside. ``removable()`` are the
    positions whose tile may go to the reserve; ``spots(mask)`` the positions where a tile with
    those walls may be built; ``exchange_ok(q, mask)`` says if a tile with those walls may take
    the place of the tile on ``q``. ``memo`` is free for callers to cache results that depend
    only on this Alhambra.

    Incremental: :meth:`with_tile` and :meth:`without_tile` give the analysis of the Alhambra
    with one tile more, exchanged or fewer, updating the facts of the places next to it instead
    of starting again (the frontier and its wall facts always; the tiles' neighbour facts and
    the cut tiles when this analysis knows them, as far as a local argument proves the result,
    else they are recomputed when asked for). What depends on the whole Alhambra and is asked
    for per wall pattern (the places for a pattern, whether a place would close a hole) is
    computed lazily in each analysis; holes need a flood fill only where the ring of eight
    cells around a place is broken into several runs.
    """

    __slots__ = (
        "_back",
        "_clean",
        "_cut",
        "_exchange_fits",
        "_fr",
        "_frontier",
        "_frontier_info",
        "_holes",
        "_next",
        "_removable",
        "_req",
        "_spots",
        "cells",
        "fountain",
        "memo",
        "walls",
    )

    def __init__(self, cells: Cells, walls: Sequence[int], fountain: int) -> None:
        self.cells = dict(cells)
        self.walls = walls
        self.fountain = fountain
        self._fr = _facts(self.cells, walls)
        self._req: dict[int, int] | None = None
        self._cut: frozenset[int] | None = None
        self._clean = False
        self._frontier: list[int] | None = None
        self._frontier_info: list[tuple[int, int, int]] | None = None
        self._holes: dict[int, bool] | None = None
        self._removable: list[int] | None = None
        self._spots: dict[int, list[int]] = {}
        self._exchange_fits: list[tuple[int, int]] | None = None
        self._next: dict[tuple[int, int], CityAnalysis] | None = None
        self._back: tuple[int, int, CityAnalysis] | None = None
        self.memo: dict[object, object] = {}

    # ----------------------------------------------------------------------------- queries
    @property
    def frontier(self) -> list[int]:
        """Empty positions touching the Alhambra by a side, ascending."""
        f = self._frontier
        if f is None:
            f = self._frontier = sorted(self._fr)
        return f

    def frontier_info(self) -> list[tuple[int, int, int]]:
        """Each frontier place with an open neighbour side, ascending: (position, sides with a
        neighbour, sides whose neighbour has a wall)."""
        info = self._frontier_info
        if info is None:
            fr = self._fr
            info = self._frontier_info = [(q, v & 15, v >> 4) for q in self.frontier if (v := fr[q]) & 15 != v >> 4]
        return info

    def spots(self, tile_walls: int) -> list[int]:
        """Positions (ascending) where a tile with these walls may be built."""
        got = self._spots.get(tile_walls)
        if got is None:
            ok = _FITS[tile_walls]
            cells = self.cells
            s = _STRIDE
            got = []
            for q, v in self._fr.items():
                if v in ok:
                    # the ring test of holes, inline: corners NE, SE, SW, NW over the known sides
                    c = (q - s + 1 in cells) << 4 | (q + s + 1 in cells) << 5 | (q + s - 1 in cells) << 6 | (q - s - 1 in cells) << 7
                    if _RING_RUNS[v & 15 | c] > 1 and self._closes_hole(q):
                        continue
                    got.append(q)
            got.sort()
            self._spots[tile_walls] = got
        return got

    def _closes_hole(self, q: int) -> bool:
        """:func:`creates_hole` for a frontier place whose ring is broken (a flood fill), cached."""
        holes = self._holes
        if holes is None:
            holes = self._holes = {}
        h = holes.get(q)
        if h is None:
            h = holes[q] = creates_hole(self.cells, q)
        return h

    def removable(self) -> list[int]:
        """Positions (ascending) whose tile may be moved to the reserve board."""
        r = self._removable
        if r is None:
            cells = self.cells
            cut = self._cut
            if cut is None:
                cut, self._clean = _cut_tiles(cells, self.walls, self.fountain)
                self._cut = cut
            fountain = self.fountain
            r = self._removable = [
                p
                for p in sorted(cells)
                if p != fountain
                and p not in cut
                and (p - _STRIDE not in cells or p + 1 not in cells or p + _STRIDE not in cells or p - 1 not in cells)
            ]
        return r

    @property
    def requirements(self) -> dict[int, tuple[int, int]]:
        """For each non-fountain tile: (sides with a neighbour, sides whose neighbour has a wall)."""
        return {q: _PAIRS[v] for q, v in self._packed_req().items()}

    def _packed_req(self) -> dict[int, int]:
        """:attr:`requirements` packed as the frontier facts are (kept up to date by changes)."""
        req = self._req
        if req is None:
            req = self._req = _requirements_of(self.cells, self.walls, self.fountain)
        return req

    def exchanges(self, tile_walls: int) -> list[int]:
        """Positions (ascending) of the tiles that a tile with these walls may take the place
        of (:meth:`exchange_ok`)."""
        key = 16 + tile_walls  # beside the spots of each wall mask (keys 0-15)
        got = self._spots.get(key)
        if got is None:
            fits = self._exchange_fits  # each tile's place with the wall masks that fit it, ascending
            if fits is None:
                req = self._packed_req()
                fits = self._exchange_fits = []
                for q in sorted(req):
                    fits.append((q, _EXCHANGE_FITS[req[q]]))
            got = self._spots[key] = []
            bit = 1 << tile_walls
            for q, f in fits:
                if f & bit:
                    got.append(q)
        return got

    def exchange_ok(self, p: int, tile_walls: int) -> bool:
        """May a tile with these walls take the place of the (non-fountain) tile on ``p``?

        Its walls must match every neighbour; then the paths on foot are exactly those of the
        tile it replaces, so reachability and holes cannot change.
        """
        v = self._packed_req().get(p)
        if v is None:
            return False
        return (tile_walls & v & 15) == v >> 4

    # ----------------------------------------------------------------------------- changes
    def with_tile(self, p: int, tile: int) -> CityAnalysis | None:
        """The analysis of this Alhambra with ``tile`` built on ``p`` (on an empty place, or in
        exchange for the tile there), or None when ``p`` is the fountain's place."""
        back = self._back
        if back is not None and back[0] == p and back[1] == tile:
            return self._undo(back[2], p)
        nxt = self._next
        if nxt is not None:
            got = nxt.get((p, tile))
            if got is not None:
                return got
        if p == self.fountain:
            return None
        old = self.cells.get(p)
        if old is None:
            new = self._add(p, tile)
            old = -1
        else:
            new = self._exchange(p, tile)
        if _SHARED.stack:
            new = self._remember(new, (p, tile))
        self._back = None
        new._back = (p, old, self)
        return new

    def without_tile(self, p: int) -> CityAnalysis | None:
        """The analysis of this Alhambra without the tile on ``p``, or None when there is no
        tile there or it is the fountain."""
        back = self._back
        if back is not None and back[0] == p and back[1] == -1:
            return self._undo(back[2], p)
        nxt = self._next
        if nxt is not None:
            got = nxt.get((p, -1))
            if got is not None:
                return got
        if p == self.fountain or p not in self.cells:
            return None
        old = self.cells[p]
        new = self._remove(p)
        if _SHARED.stack:
            new = self._remember(new, (p, -1))
        self._back = None
        new._back = (p, old, self)
        return new

    def _undo(self, prev: CityAnalysis, p: int) -> CityAnalysis:
        """Undo of the change that made this analysis from ``prev``: ``prev`` itself, which
        learns how to come back here (one step each way is kept, so no chain of old analyses
        stays alive)."""
        self._back = None
        prev._back = (p, self.cells.get(p, -1), self)
        return prev

    def _remember(self, new: CityAnalysis, key: tuple[int, int]) -> CityAnalysis:
        """Inside :func:`shared_analyses`: keep the result for the same change of this analysis,
        and share it with an equal Alhambra analysed before."""
        memo = _SHARED.stack[-1]
        shared_key = (new.fountain, frozenset(new.cells.items()))
        got = memo.get(shared_key)
        if got is not None and got.walls is new.walls:
            new = got
        else:
            if len(memo) >= _SHARED_LIMIT:
                memo.clear()
            memo[shared_key] = new
        if self._next is None:
            self._next = {}
        self._next[key] = new
        return new

    def _child(self, cells: dict[int, int], fr: dict[int, int], req: dict[int, int] | None) -> CityAnalysis:
        new: CityAnalysis = _new_analysis(CityAnalysis)
        new.cells = cells
        new.walls = self.walls
        new.fountain = self.fountain
        new._fr = fr
        new._req = req
        new._cut = None
        new._clean = False
        new._frontier = None
        new._frontier_info = None
        new._holes = None
        new._removable = None
        new._spots = {}
        new._exchange_fits = None
        new._next = None
        new.memo = {}
        return new

    def _add(self, p: int, tile: int) -> CityAnalysis:
        walls = self.walls
        cells = self.cells.copy()
        cells[p] = tile
        fr = self._fr.copy()
        fr.pop(p, None)
        w = walls[tile]
        s = _STRIDE
        # the empty places around the new tile learn of it (sides unrolled: N, E, S, W)
        tn = cells.get(p - s)
        te = cells.get(p + 1)
        ts = cells.get(p + s)
        tw = cells.get(p - 1)
        if tn is None:
            fr[p - s] = fr.get(p - s, 0) | (0x44 if w & NORTH else 0x04)
        if te is None:
            fr[p + 1] = fr.get(p + 1, 0) | (0x88 if w & EAST else 0x08)
        if ts is None:
            fr[p + s] = fr.get(p + s, 0) | (0x11 if w & SOUTH else 0x01)
        if tw is None:
            fr[p - 1] = fr.get(p - 1, 0) | (0x22 if w & WEST else 0x02)
        req = self._req
        cut = self._cut if self._clean else None
        if req is None and cut is None:
            return self._child(cells, fr, None)
        if req is not None:
            req = req.copy()
        fountain = self.fountain
        joined: list[int] = []  # tiles joined to the new one by open sides
        v = 0
        for (side, d, opp), t in zip(_NEIGHBOURS, (tn, te, ts, tw), strict=True):
            if t is None:
                continue
            q = p + d
            wq = walls[t]
            v |= side | (side << 4 if wq & opp else 0)
            if req is not None and q != fountain:
                req[q] |= opp | opp << 4 if w & side else opp
            if not w & side:
                if wq & opp:
                    cut = None  # an open side against a wall: not a legal Alhambra, recompute
                else:
                    joined.append(q)
            elif not wq & opp:
                cut = None
        if req is not None:
            req[p] = v
        new = self._child(cells, fr, req)
        if cut is not None and joined:
            # A tile joined by one side hangs off that tile, which now strands it when removed;
            # no other tile changes. Joined by several sides it can only close loops: tiles
            # that were cut may stop being cut (recompute, unless there were none).
            if len(joined) == 1:
                a = joined[0]
                new._cut = cut if a == fountain or a in cut else cut | {a}
                new._clean = True
            elif not cut:
                new._cut = cut
                new._clean = True
        return new

    def _remove(self, p: int) -> CityAnalysis:
        walls = self.walls
        cells = self.cells.copy()
        w = walls[cells.pop(p)]
        fr = self._fr.copy()
        req = self._req
        if req is not None:
            req = req.copy()
            del req[p]
        fountain = self.fountain
        v = 0
        joined: list[int] = []
        for side, d, opp in _NEIGHBOURS:
            q = p + d
            tq = cells.get(q)
            if tq is None:
                x = fr[q] & ~(opp | opp << 4)
                if x:
                    fr[q] = x
                else:
                    del fr[q]
                continue
            wq = walls[tq]
            v |= side | (side << 4 if wq & opp else 0)
            if req is not None and q != fountain:
                req[q] &= ~(opp | opp << 4)
            if not w & side and not wq & opp:
                joined.append(q)
        if v:
            fr[p] = v
        new = self._child(cells, fr, req)
        cut = self._cut
        if self._clean and cut is not None and p not in cut and len(joined) == 1:
            # A tile that hung off one tile: the others keep their paths. Its neighbour stays
            # cut unless it is now a dead end itself (one path left); otherwise recompute.
            a = joined[0]
            if a not in cut:
                new._cut = cut
                new._clean = True
            elif _open_degree(cells, walls, a) <= 1:
                new._cut = cut - {a}
                new._clean = True
        return new

    def _exchange(self, p: int, tile: int) -> CityAnalysis:
        walls = self.walls
        cells = self.cells.copy()
        old = walls[cells[p]]
        cells[p] = tile
        w = walls[tile]
        fr = self._fr.copy()
        req = self._req
        if req is not None:
            req = req.copy()
        fountain = self.fountain
        same_paths = True
        for side, d, opp in _NEIGHBOURS:
            q = p + d
            tq = cells.get(q)
            if tq is None:
                fr[q] = (fr[q] | opp << 4) if w & side else (fr[q] & ~(opp << 4))
                continue
            if (w ^ old) & side:
                same_paths = False
            if req is not None and q != fountain:
                req[q] = (req[q] | opp << 4) if w & side else (req[q] & ~(opp << 4))
        new = self._child(cells, fr, req)
        if same_paths and self._clean:
            # open and walled sides towards the neighbours are as before: the same paths on foot
            new._cut = self._cut
            new._clean = self._cut is not None
        return new


_new_analysis = object.__new__


def _open_degree(cells: Cells, walls: Sequence[int], p: int) -> int:
    """How many neighbours the tile on ``p`` is joined to by open sides (both sides open)."""
    w = walls[cells[p]]
    n = 0
    for side, d, opp in _NEIGHBOURS:
        t = cells.get(p + d)
        if t is not None and not w & side and not walls[t] & opp:
            n += 1
    return n


_Shared = dict[tuple[int, frozenset[tuple[int, int]]], "CityAnalysis"]
_SHARED_LIMIT = 20_000


class _SharedStack(threading.local):
    def __init__(self) -> None:
        self.stack: list[_Shared] = []


_SHARED = _SharedStack()


@contextmanager
def shared_analyses() -> Iterator[None]:
    """Within this block (in this thread), states that hold the same Alhambra share one analysis.

    For search: every iteration of a tree search replays the same placements, and a shared
    analysis keeps what was learnt about an Alhambra (its frontier, the tiles that can be
    removed, and whatever callers put into ``memo``) for all of them. An analysis also keeps
    the analyses derived from it by one change within the block, so replaying a change finds
    its result at once. The cache is bounded (cleared when it holds ``_SHARED_LIMIT`` analyses)
    and dropped when the block ends; outside such a block every state computes its own analysis.
    """
    memo: _Shared = {}
    stack = _SHARED.stack
    stack.append(memo)
    try:
        yield
    finally:
        stack.pop()  # blocks nest, and each thread has its own stack
        memo.clear()


def analysis_of(cells: Cells, walls: Sequence[int], fountain: int) -> CityAnalysis:
    """A new analysis of this Alhambra, or the shared one inside :func:`shared_analyses`."""
    stack = _SHARED.stack
    if not stack:
        return CityAnalysis(cells, walls, fountain)
    memo = stack[-1]
    key = (fountain, frozenset(cells.items()))
    got = memo.get(key)
    if got is None or got.walls is not walls:
        if len(memo) >= _SHARED_LIMIT:
            memo.clear()
        got = memo[key] = CityAnalysis(cells, walls, fountain)
    return got


def _cut_tiles(cells: Cells, walls: Sequence[int], root: int) -> tuple[frozenset[int], bool]:
    """Tiles other than ``root`` whose removal would strand others: the articulation points of
    the on-foot graph (tiles joined by open sides), by an iterative Tarjan search from ``root``,
    plus every tile not reachable at all (it cannot be judged by removal; treat it as stuck).
    The flag is True for a proper Alhambra: every tile reachable, no open side against a wall
    (what the incremental updates of :class:`CityAnalysis` rely on)."""
    if root not in cells:
        return frozenset(), False
    clean = True
    adj: dict[int, list[int]] = {}
    for p, t in cells.items():
        w = walls[t]
        nb = []
        for side, d, opp in _NEIGHBOURS:
            q = p + d
            tq = cells.get(q)
            if tq is not None:
                if not w & side:
                    nb.append(q)
                    if walls[tq] & opp:
                        clean = False
                elif not walls[tq] & opp:
                    clean = False
        adj[p] = nb
    disc: dict[int, int] = {root: 0}
    low = [0]  # by discovery number
    cut: set[int] = set()
    counter = 1
    stack: list[tuple[int, int, Iterator[int]]] = [(root, -1, iter(adj[root]))]
    while stack:
        p, parent, todo = stack[-1]
        for q in todo:
            if q == parent:
                continue
            dq = disc.get(q)
            if dq is not None:
                dp = disc[p]
                if dq < low[dp]:
                    low[dp] = dq
                continue
            disc[q] = counter
            low.append(counter)
            counter += 1
            stack.append((q, p, iter(adj[q])))
            break
        else:
            stack.pop()
            if stack:
                pp = stack[-1][0]
                lp = low[disc[p]]
                dpp = disc[pp]
                if lp < low[dpp]:
                    low[dpp] = lp
                if pp != root and lp >= dpp:
                    cut.add(pp)
    if len(disc) != len(cells):
        clean = False
        cut |= {p for p in cells if p not in disc}
    return frozenset(cut), clean


def outer_wall_segments(cells: Cells, walls: Sequence[int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every walled tile side facing an empty place, as a pair of lattice corner points."""
    segs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for p, t in cells.items():
        w = walls[t]
        if not w:
            continue
        x, y = xy(p)
        if w & NORTH and p - _STRIDE not in cells:
            segs.append(((x, y), (x + 1, y)))
        if w & EAST and p + 1 not in cells:
            segs.append(((x + 1, y), (x + 1, y + 1)))
        if w & SOUTH and p + _STRIDE not in cells:
            segs.append(((x, y + 1), (x + 1, y + 1)))
        if w & WEST and p - 1 not in cells:
            segs.append(((x, y), (x, y + 1)))
    return segs


# Directions of wall segments at a lattice corner: 1 north, 2 east, 4 south, 8 west.
_CORNER_STEP: Final = (0, -_STRIDE, 1, 0, _STRIDE, 0, 0, 0, -1)
"""Per single direction: the move to the corner at the other end of the segment."""
_CORNER_BACK: Final = (0, 4, 8, 0, 1, 0, 0, 0, 2)
"""Per single direction: the direction back from the corner at the other end."""
_ONE_WAY: Final = frozenset((1, 2, 4, 8))
_BRANCHING: Final = frozenset(m for m in range(16) if m.bit_count() > 2)


def longest_wall(cells: Cells, walls: Sequence[int]) -> int:
    """Length of the longest continuous outer wall (segments joined end to end, none twice).

    Back-to-back walls between two tiles never count; a closed ring counts every segment.
    """
    # Lattice corners are ints: the north-west corner of the cell at position p is p. Each
    # corner gets the directions its segments go; a segment belongs to one tile only (the
    # other side of the wall is empty), so no direction is counted twice.
    s = _STRIDE
    ways: dict[int, int] = {}
    get = ways.get
    n = 0
    for p, t in cells.items():
        w = walls[t]
        if w:
            if w & NORTH and p - s not in cells:
                ways[p] = get(p, 0) | 2
                ways[p + 1] = get(p + 1, 0) | 8
                n += 1
            if w & EAST and p + 1 not in cells:
                ways[p + 1] = get(p + 1, 0) | 4
                ways[p + s + 1] = get(p + s + 1, 0) | 1
                n += 1
            if w & SOUTH and p + s not in cells:
                ways[p + s] = get(p + s, 0) | 2
                ways[p + s + 1] = get(p + s + 1, 0) | 8
                n += 1
            if w & WEST and p - 1 not in cells:
                ways[p] = get(p, 0) | 4
                ways[p + s] = get(p + s, 0) | 1
                n += 1
    if not n:
        return 0
    for m in ways.values():
        if m in _BRANCHING:
            return _longest_wall_search(cells, walls)
    # Paths and rings only: the longest wall is the component with the most segments. Walk each
    # path from one end, then each ring once (only while the segments left could beat the best).
    best = 0
    left = n
    seen: set[int] = set()
    for v, m in ways.items():
        if m in _ONE_WAY and v not in seen:
            length = 0
            d = m
            u = v
            while True:
                u += _CORNER_STEP[d]
                seen.add(u)
                length += 1
                d = ways[u] & ~_CORNER_BACK[d]
                if not d:
                    break
            left -= length
            if length > best:
                best = length
    if left > best:
        for v, m in ways.items():
            if m not in _ONE_WAY and v not in seen:
                length = 0
                d = m & -m
                u = v
                while True:
                    seen.add(u)
                    u += _CORNER_STEP[d]
                    length += 1
                    if u == v:
                        break
                    d = ways[u] & ~_CORNER_BACK[d]
                left -= length
                if length > best:
                    best = length
                if left <= best:
                    break
    return best


def _longest_wall_search(cells: Cells, walls: Sequence[int]) -> int:
    """:func:`longest_wall` for walls that branch (three or four segments meet at a corner)."""
    # Lattice corners are ints: the north-west corner of the cell at position p is p, so its
    # other corners are p + 1, p + STRIDE and p + STRIDE + 1. Segment i joins ends[2i], ends[2i+1].
    ends: list[int] = []
    for p, t in cells.items():
        w = walls[t]
        if w:
            if w & NORTH and p - _STRIDE not in cells:
                ends += (p, p + 1)
            if w & EAST and p + 1 not in cells:
                ends += (p + 1, p + _STRIDE + 1)
            if w & SOUTH and p + _STRIDE not in cells:
                ends += (p + _STRIDE, p + _STRIDE + 1)
            if w & WEST and p - 1 not in cells:
                ends += (p, p + _STRIDE)
    adj: dict[int, list[int]] = {}
    get = adj.get
    for j, v in enumerate(ends):
        lv = get(v)
        if lv is None:
            adj[v] = [j >> 1]
        else:
            lv.append(j >> 1)
    if not ends:
        return 0
    best = 0
    seen: set[int] = set()
    for start in adj:
        if start in seen:
            continue
        seen.add(start)
        stack = [start]
        comp = [start]
        degrees = 0
        branchy = False
        while stack:
            v = stack.pop()
            es = adj[v]
            degrees += len(es)
            if len(es) > 2:
                branchy = True
            for e in es:
                u = ends[2 * e] ^ ends[2 * e + 1] ^ v  # the other end
                if u not in seen:
                    seen.add(u)
                    stack.append(u)
                    comp.append(u)
        edges = degrees >> 1
        if edges <= best:
            continue
        # a component without branching is a path or a ring: every segment counts
        best = max(best, _longest_trail(adj, ends, comp, edges)) if branchy else edges
    return best


def _longest_trail(adj: dict[int, list[int]], ends: list[int], comp: list[int], limit: int) -> int:
    """Longest edge-simple trail in one component by depth-first search (components are small)."""
    used = [False] * (len(ends) >> 1)
    best = 0

    def dfs(v: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        if best == limit:
            return
        for e in adj[v]:
            if not used[e]:
                used[e] = True
                dfs(ends[2 * e] ^ ends[2 * e + 1] ^ v, length + 1)
                used[e] = False

    odd = [v for v in comp if len(adj[v]) % 2]
    for v in odd or comp:
        dfs(v, 0)
        if best == limit:
            break
    return best


def validate_layout(cells: Cells, walls: Sequence[int], fountain: int, filled: Iterable[int] = ()) -> list[Violation]:
    """Every building-rule violation of a whole Alhambra (used to check physical layouts);
    ``filled`` places hold pieces outside ``cells`` (camps) that count as filled in the hole test."""
    out: list[Violation] = []

    def add(rule: str, p: int) -> None:
        x, y = xy(p)
        out.append(Violation(rule, x, y, RULE_MESSAGES[rule]))

    for p in sorted(cells):
        w = walls[cells[p]]
        for side, d, opp in ((EAST, 1, WEST), (SOUTH, _STRIDE, NORTH)):
            q = p + d
            if q in cells and bool(w & side) != bool(walls[cells[q]] & opp):
                add("walls_match", q)
    # adjacency: tiles in the fountain's side-connected group
    group = {fountain}
    stack = [fountain]
    while stack:
        p = stack.pop()
        for d in (-_STRIDE, 1, _STRIDE, -1):
            q = p + d
            if q in cells and q not in group:
                group.add(q)
                stack.append(q)
    walk = _walkable_from(cells, walls, fountain)
    for p in sorted(cells):
        if p not in group:
            add("adjacent", p)
        elif p not in walk:
            add("on_foot", p)
    solid: Cells = cells
    extra = [q for q in filled if q not in cells]
    if extra:
        solid = {**cells, **dict.fromkeys(extra, -1)}
    box = _bbox(solid)
    box = (box[0] - 1, box[1] + 1, box[2] - 1, box[3] + 1)
    for yy in range(box[2] + 1, box[3]):
        for xx in range(box[0] + 1, box[1]):
            p = yy * _STRIDE + xx
            if p not in solid and _enclosed(solid, p, box):
                add("no_holes", p)
    return out


def kind_counts(cells: Cells, kinds: Sequence[str]) -> dict[str, int]:
    """Number of tiles of each kind in an Alhambra (``kinds`` maps tile id to kind)."""
    out: dict[str, int] = {}
    for t in cells.values():
        k = kinds[t]
        out[k] = out.get(k, 0) + 1
    return out
