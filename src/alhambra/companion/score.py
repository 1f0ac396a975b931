"""Score one round of a real table with the engine's scoring rules (see :mod:`.table`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..scoring import majority_awards
from .hooks import Line, Tally
from .table import Table, companion_of

__all__ = ["KindRow", "RoundResult", "SeatResult", "score_table"]

_PLACES = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th")


@dataclass(frozen=True, slots=True)
class KindRow:
    """One building kind for one participant: count, place (0: none), who tied, points."""

    kind: str
    name: str
    count: float
    place: int
    tied_with: tuple[str, ...]
    points: int

    @property
    def reason(self) -> str:
        """The row in words: ``3 buildings, 1st (tied with Nina): 9``."""
        if self.count == 0:
            return "no building"
        n = f"{self.count} building{'s' if self.count != 1 else ''}"
        place = _PLACES[self.place - 1] if 0 < self.place <= len(_PLACES) else f"{self.place}th"
        tie = f", tied with {', '.join(self.tied_with)}" if self.tied_with else ""
        return f"{n}, {place}{tie}"


@dataclass(slots=True)
class SeatResult:
    """One participant's round: kind rows, wall, module lines, totals."""

    name: str
    neutral: bool
    kinds: list[KindRow]
    wall: int
    modules: dict[str, Line]
    after: dict[str, Line]
    before: int
    notes: list[str] = field(default_factory=list)

    @property
    def kind_points(self) -> int:
        """Points from the building kinds."""
        return sum(r.points for r in self.kinds)

    @property
    def round_points(self) -> int:
        """The round's points as the engine's ``RoundScored.points`` counts them (no after-round changes)."""
        return self.kind_points + self.wall + sum(v.points for v in self.modules.values())

    @property
    def total(self) -> int:
        """The score after the round: before + round points + after-round changes."""
        return self.before + self.round_points + sum(v.points for v in self.after.values())


@dataclass(slots=True)
class RoundResult:
    """A scored round of a table: per participant (neutral last), and every Alhambra's problems."""

    table: Table
    seats: list[SeatResult]
    problems: list[str]
    """Broken building rules or impossible tiles, per player (the round is scored anyway)."""
    skipped: list[str]
    """Players given by counts: their Alhambras could not be checked."""

    @property
    def valid(self) -> bool:
        """True when no check found a problem."""
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        """The ``alhambra score --json`` document of a table."""
        rules = self.table.rules
        return {
            "game": rules.id,
            "round": self.table.round_no,
            "modules": list(self.table.modules),
            "valid": self.valid,
            "problems": self.problems,
            "unchecked": self.skipped,
            "seats": [
                {
                    "name": s.name,
                    "neutral": s.neutral,
                    "kinds": {
                        r.kind: {"count": r.count, "place": r.place, "tied_with": list(r.tied_with), "points": r.points} for r in s.kinds
                    },
                    "wall": s.wall,
                    "modules": {m: {"points": v.points, "reason": v.reason} for m, v in s.modules.items()},
                    "after": {m: {"points": v.points, "reason": v.reason} for m, v in s.after.items()},
                    "notes": s.notes,
                    "before": s.before,
                    "round_points": s.round_points + sum(v.points for v in s.after.values()),
                    "total": s.total,
                }
                for s in self.seats
            ],
        }


def _places(keys: list[tuple[float, float]]) -> list[tuple[int, tuple[int, ...]]]:
    """Per participant its place (1-based; 0 without any building) and who shares it."""
    out: list[tuple[int, tuple[int, ...]]] = [(0, ())] * len(keys)
    place = 1
    for key in sorted({k for k in keys if k[0] > 0}, reverse=True):
        tied = tuple(i for i, k in enumerate(keys) if k == key)
        for i in tied:
            out[i] = (place, tuple(j for j in tied if j != i))
        place += len(tied)
    return out


def score_table(t: Table) -> RoundResult:
    """Score the round of ``t``: buildings (the scoring table, a module's score cards, or
    Granada's multiples), the longest wall, then every module's points and after-round changes."""
    rules = t.rules
    parts = t.participants
    n = len(t.players)
    names = [p.name for p in parts]
    raw_counts = tuple(dict(p.buildings) for p in parts)
    tallies = {
        m: Tally(
            rules.id,
            t.round_no,
            n,
            t.neutral is not None,
            t.table[m],
            tuple(p.modules[m] for p in parts),
            raw_counts,
            tuple(0 if p.neutral else p.wall for p in parts),
        )
        for m in t.modules
    }
    hooks = {m: h for m in t.modules if (h := companion_of(m)) is not None}
    problems: list[str] = []
    for p in t.players:
        if p.report is not None:
            problems += [f"{p.name}: {v.rule}{f' at {v.x},{v.y}' if v.x is not None else ''}: {v.message}" for v in p.report.violations]
    physical: dict[int, str] = {}
    for p in t.players:
        if p.report is None:
            continue
        for tile in p.report.tiles:
            if tile.physical >= 0:
                if tile.physical in physical and physical[tile.physical] != p.name:
                    problems.append(f"{p.name}: {tile.describe()} at {tile.x},{tile.y} is in {physical[tile.physical]}'s Alhambra too")
                physical.setdefault(tile.physical, p.name)
    for m, h in hooks.items():
        problems += [f"{m}: {s}" for s in h.check(tallies[m])]
    counts: list[dict[str, float]] = [dict(c) for c in raw_counts]
    notes: list[list[str]] = [[] for _ in parts]
    for m, h in hooks.items():
        for i in range(len(parts)):
            notes[i] += h.adjust_counts(tallies[m], i, counts[i])
    rows: list[list[KindRow]] = [[] for _ in parts]
    for kind in rules.kinds:
        c = [cnt.get(kind, 0) for cnt in counts]
        table_points = None
        for m, h in hooks.items():  # the first module in id order that answers, as in a game
            table_points = h.kind_points(tallies[m], kind)
            if table_points is not None:
                break
        if table_points is not None and rules.scoring == "table":
            aw = majority_awards(c, table_points)
            keys: list[tuple[float, float]] = [(x, 0) for x in c]
        else:
            dearest: list[float] = [p.dearest.get(kind, 0) for p in parts] if rules.scoring != "table" else c
            aw = rules.round_points(t.round_no, c, dearest, kind)
            keys = [(x, d if rules.scoring != "table" else 0) for x, d in zip(c, dearest, strict=True)]
        for i, (place, tied) in enumerate(_places(keys)):
            rows[i].append(KindRow(kind, rules.kind_names[kind], c[i], place, tuple(names[j] for j in tied), aw[i]))
    seats = [SeatResult(p.name, p.neutral, rows[i], p.wall if not p.neutral else 0, {}, {}, p.score, notes[i]) for i, p in enumerate(parts)]
    for m, h in hooks.items():  # the wall points, chained in id order as in a game
        for i in range(n):
            seats[i].wall = h.wall_points(tallies[m], i, seats[i].wall)
    scored_walls = tuple(s.wall for s in seats)  # what the round's points read (the City Watch)
    tallies = {m: replace(tally, scored_walls=scored_walls) for m, tally in tallies.items()}
    for m, h in hooks.items():
        lines = h.round_points(tallies[m])
        if lines is None:
            continue
        for i, line in enumerate(lines[: len(parts)]):
            seats[i].modules[m] = line
    for m, h in hooks.items():
        scores = [s.total for s in seats[:n]]
        lines = h.after_round(tallies[m], scores)
        if lines is None:
            continue
        for i, line in enumerate(lines[:n]):
            seats[i].after[m] = line
    skipped = [p.name for p in t.players if p.report is None]
    return RoundResult(t, seats, problems, skipped)
