"""The companion's hook family: what a module adds to the scoring of a real game night.

A module takes part through one hook of :class:`alhambra.hooks.Module`: ``companion()`` returns
an instance of a :class:`CompanionHooks` subclass (usually from ``companion.py`` in the module's
folder), or None when the module changes nothing in a scoring round. The engine never calls it:
only ``alhambra score`` and the "Score a real game" page do, so it costs the game nothing.

Every method has a do-nothing default. Participants are the players in seat order, then (in a
2-player game) the neutral player at index ``players``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from ..layout import LayoutCity, LayoutViolation
    from ..state import GameState


@dataclass(frozen=True, slots=True)
class Field:
    """One input a module's scoring needs.

    ``kind``: ``"count"`` (an integer from ``minimum`` to ``maximum``), ``"choice"`` (one of
    ``choices``) or ``"numbers"`` (a list of integers from ``minimum`` to ``maximum``, e.g. the
    three score cards, or one entry per bazaar). ``neutral``: the neutral player has it too.
    ``rounds``: the scoring rounds it counts in (the page hides it in the others).
    """

    key: str
    label: str
    kind: str = "count"
    minimum: int = 0
    maximum: int = 99
    choices: tuple[str, ...] = ()
    help: str = ""
    neutral: bool = False
    rounds: tuple[int, ...] = (1, 2, 3)
    length: int = 0
    """For ``numbers``: how many entries exactly (0: any number)."""

    def default(self) -> Any:
        """The value of a field left out: 0, the first choice, or an empty list."""
        if self.kind == "choice":
            return self.choices[0] if self.choices else ""
        if self.kind == "numbers":
            return []
        return 0

    def to_json(self) -> dict[str, Any]:
        """JSON form (``alhambra score --fields``, the page's forms)."""
        return {
            "key": self.key,
            "label": self.label,
            "kind": self.kind,
            "min": self.minimum,
            "max": self.maximum,
            "choices": list(self.choices),
            "help": self.help,
            "neutral": self.neutral,
            "rounds": list(self.rounds),
            "length": self.length,
        }


@dataclass(frozen=True, slots=True)
class Tally:
    """What a module's companion hooks read: the round, the players, the module's inputs.

    ``table``: the module's table-wide inputs (key -> value, every field present).
    ``seats``: per participant the module's inputs (the neutral player last, in a 2-player game).
    ``counts``: per participant the buildings per kind as entered (before any module's change).
    ``walls``: per participant the longest wall as entered (the City Watch reads it).
    """

    game: str
    round_no: int
    players: int
    neutral: bool
    table: dict[str, Any]
    seats: tuple[dict[str, Any], ...]
    counts: tuple[dict[str, int], ...] = field(default=())
    walls: tuple[int, ...] = field(default=())
    """Per participant the longest wall as entered (the neutral player's 0)."""

    @property
    def participants(self) -> int:
        """Players plus the neutral player (if any)."""
        return self.players + (1 if self.neutral else 0)


@dataclass(frozen=True, slots=True)
class Line:
    """Points of one participant from a module in a round, with the reason in words."""

    points: int
    reason: str


class CompanionHooks:
    """Base class of a module's companion part. Override what the module's scoring needs."""

    table_fields: ClassVar[tuple[Field, ...]] = ()
    """Inputs entered once for the table (the score cards of the round, the invasion card)."""
    seat_fields: ClassVar[tuple[Field, ...]] = ()
    """Inputs entered per player (and for the neutral player where ``Field.neutral``)."""
    outside_kinds: ClassVar[frozenset[str]] = frozenset()
    """Tile kinds of this module that lie outside the city walls in a layout (camps): the
    Alhambra's building rules leave them out, the hole test counts their places as filled."""

    def layout_problems(self, city: LayoutCity) -> list[LayoutViolation]:
        """The module's building rules broken by a layout (``alhambra score`` with tiles): a camp
        without a bastion against a city wall, a watchtower without a building of its colour."""
        return []

    def export_tiles(self, state: GameState, seat: int) -> list[dict[str, Any]] | None:
        """This module's tiles of ``seat``'s Alhambra (in it or outside its walls) as layout tiles
        (``{"x", "y", "tile", "walls"}``) for :func:`alhambra.companion.export.export_table`;
        None: the module's tiles cannot be given as a layout (the player's counts are exported)."""
        return None

    def layout_inputs(self, city: LayoutCity) -> dict[str, Any]:
        """This module's per-player inputs (``seat_fields`` keys) read from a layout, so a player
        who lays out the Alhambra tile by tile need not count them (the camps' lines); {} when
        the layout holds none of the module's tiles. Inputs the player gives win."""
        return {}

    def check(self, tally: Tally) -> list[str]:
        """Problems of the inputs that the fields' ranges do not catch (each a sentence)."""
        return []

    def adjust_counts(self, tally: Tally, who: int, counts: dict[str, float]) -> list[str]:
        """Change the buildings per kind participant ``who`` scores with (a played bonus card:
        one more; a building site: one fewer), as ``Module.building_counts`` does in a game.
        Returns a sentence per change, for the breakdown."""
        return []

    def kind_points(self, tally: Tally, kind: str) -> tuple[int, ...] | None:
        """The points for 1st, 2nd ... of ``kind`` this round in place of the scoring table (the
        new score cards), as ``Module.kind_points``; None keeps the table."""
        return None

    def wall_points(self, tally: Tally, who: int, points: int) -> int:
        """The wall points of player ``who`` given ``points`` (the longest wall as entered, after
        the modules before this one in id order), as ``Module.wall_points`` in a game: return the
        new value (watchtowers: the wall counted with their diagonals, +2 each in it)."""
        return points

    def round_points(self, tally: Tally) -> list[Line] | None:
        """This module's points per participant this round, as ``Module.round_points`` (the
        entry of the neutral player may be left out); None: nothing this round."""
        return None

    def after_round(self, tally: Tally, scores: list[int]) -> list[Line] | None:
        """Changes right after the round (``scores``: the players' totals with the round), as
        ``Module.round_scored`` does (the invaders take points, never below 0)."""
        return None

    def browser_data(self) -> dict[str, Any]:
        """The facts the module's scoring needs in the browser (its ``ui/companion.js``, which
        scores offline): points tables, penalties... read from the module's data, never copied."""
        return {}

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The inputs a player would enter for scoring round ``round_no`` of an engine game, read
        from ``state`` right after it (tests: the companion scores what the engine scored).
        Returns the table inputs and one dict per participant."""
        n = state.config.players + (1 if state.neutral is not None else 0)
        return {}, [{} for _ in range(n)]
