"""Squares: 24 square tiles in six face-down colour piles; taking the top square of a pile is a
whole (free) action; a square in the Alhambra counts as one extra building of its colour for
each neighbouring building of that colour it joins without a wall (at most three).

Flow (plug-in hooks):

* ``extra_tiles`` declares the 24 squares (kind ``"square"``, price 0, not in the bag); ``setup``
  shuffles each colour pile and turns its top square face up. The slice keeps, per colour, the
  face-up top square and the squares still face down below it (a set: their order is drawn only
  when the next one is turned up, with ``engine.module_draw`` / ``engine.module_random``, so it
  is a chance node for the research APIs and unknown to every seat and to the bots' samples).
* ``turn_actions``: ``square take KIND`` takes the face-up square of that colour: it joins the
  tiles bought this turn and the action phase ends (``engine.finish_turn_action``; a square costs
  nothing, so it is never an exact payment). At most three squares per player, counting the
  Alhambra, the reserve board and squares waiting to be placed.
* ``target_problem``: a square is never given to the neutral player (2 players).
* ``building_counts``: each square in the Alhambra adds its bonus to its colour's count.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from ... import city as geo
from ...actions import Action, register_action
from ...components import KIND_LETTERS, KINDS, OPPOSITE, SIDE_DELTAS, SIDES, ComponentSet, TileType, letters_to_walls
from ...engine.services import finish_turn_action, module_draw, module_random, unbuilt_tiles
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module
from ...slices import slice_reader
from ...state import ChooseAction, GameConfig, GameState, PlaceTiles

MODULE_ID: Final = "squares"
SQUARE_KIND: Final = "square"
"""``TileType.kind`` of a square (no building kind: its colour lives in this module's data)."""


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class SquaresData:
    """The module's data file, read once."""

    piles: tuple[tuple[str, tuple[int, ...]], ...]
    """Per building kind (in ``KINDS`` order): the walls of each of its squares."""
    max_per_player: int
    max_extra: int


@cache
def data() -> SquaresData:
    """Read ``components.json`` and check it."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    piles = raw["piles"]
    if tuple(piles) != KINDS:
        raise ValueError(f"squares: one pile per building kind, in the order {KINDS}")
    out = tuple((k, tuple(letters_to_walls(str(w)) for w in piles[k])) for k in KINDS)
    return SquaresData(out, int(raw["max_per_player"]), int(raw["max_extra"]))


def square_code(kind: str, number: int) -> str:
    """``Qp1``: ``Q``, the kind's letter in lower case, the square's number in its pile (1-based)."""
    return f"Q{KIND_LETTERS[KINDS.index(kind)].lower()}{number}"


def square_tiles() -> list[TileType]:
    """The 24 squares (kind ``square``, price 0; kept in this module's piles, not in the bag)."""
    return [
        TileType(square_code(kind, i + 1), SQUARE_KIND, 0, walls, module=MODULE_ID)
        for kind, pile in data().piles
        for i, walls in enumerate(pile)
    ]


COLOUR: Final = {square_code(kind, i + 1): kind for kind, pile in data().piles for i in range(len(pile))}
"""Each square's colour (building kind), by code."""


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per game's components: the colour of each tile id that is a square ('' for other tiles)."""

    comp: ComponentSet
    colour: tuple[str, ...]


_TABLES: dict[int, _Tables] = {}


def _tables(comp: ComponentSet) -> _Tables:
    got = _TABLES.get(id(comp))
    if got is None or got.comp is not comp:
        got = _TABLES[id(comp)] = _Tables(comp, tuple(COLOUR.get(t.code, "") for t in comp.tiles))
    return got


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class SquaresState:
    """The module's slice (public): per building kind (``KINDS`` order) the face-up top square
    (None once the pile is empty) and the squares still face down under it (sorted codes)."""

    top: tuple[str | None, ...]
    rest: tuple[tuple[str, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"piles": {k: {"top": t, "rest": list(r)} for k, t, r in zip(KINDS, self.top, self.rest, strict=True)}}

    @classmethod
    def from_dict(cls, raw: Any) -> SquaresState:
        """Read the JSON form back (a :class:`NotationError` on junk)."""
        try:
            piles = raw["piles"]
            top = tuple(None if piles[k]["top"] is None else str(piles[k]["top"]) for k in KINDS)
            rest = tuple(tuple(sorted(str(c) for c in piles[k]["rest"])) for k in KINDS)
        except (TypeError, KeyError, ValueError) as e:
            raise NotationError(f"bad squares state {raw!r}") from e
        for k, t, r in zip(KINDS, top, rest, strict=True):
            codes = ([t] if t is not None else []) + list(r)
            if any(COLOUR.get(c) != k for c in codes) or len(set(codes)) != len(codes) or (t is None and r):
                raise NotationError(f"bad squares state {raw!r}: the {k} pile")
        return cls(top, rest)


squares: Final = slice_reader(MODULE_ID, SquaresState)
"""The module's slice of a game."""


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class TakeSquare(Action):
    """Take the face-up square of the ``kind`` pile (``square take garden``)."""

    module = MODULE_ID
    keyword = "square take"
    grammar = ("kind",)
    kind: str


register_action(TakeSquare)


# ---------------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class SquareTaken(Event):
    """``seat`` took the square ``tile`` (colour ``kind``); ``shown`` is the square turned up
    next on that pile (None: the pile is empty now)."""

    seat: int
    kind: str
    tile: str
    shown: str | None

    def describe(self) -> str:
        after = f"; the next {self.kind} square is turned up" if self.shown else f"; the {self.kind} squares are all taken"
        return f"player {self.seat + 1} takes a {self.kind} square{after}"


@dataclass(frozen=True, slots=True)
class SquaresLaidOut(Event):
    """Setup: the six piles with their top squares face up (``tops`` in ``KINDS`` order)."""

    tops: tuple[str, ...]

    def describe(self) -> str:
        return "the six piles of squares are laid out, each with its top square face up"


# ---------------------------------------------------------------------------------- rules
def owned(state: GameState, seat: int) -> int:
    """How many squares ``seat`` has: in the Alhambra, on the reserve board and waiting to be placed."""
    colour = _tables(state.components).colour
    p = state.players[seat]
    n = sum(1 for t in p.city.values() if colour[t]) + sum(1 for t in p.reserve if colour[t])
    for top in state.pending:
        if isinstance(top, ChooseAction) and top.seat == seat:
            n += sum(1 for c in top.bought if c in COLOUR)
        elif isinstance(top, PlaceTiles) and top.seat == seat:
            n += sum(1 for c in top.tiles if c in COLOUR)
    return n


def square_bonus(state: GameState, seat: int, position: int, tile: int | None = None) -> int:
    """What the square at ``position`` of ``seat``'s Alhambra (or ``tile``, a square that would
    stand there) adds to its colour: one per side that joins a building of that colour with no
    wall on either tile's side (at most 3)."""
    comp = state.components
    city = state.players[seat].city
    t = city[position] if tile is None else tile
    kind = COLOUR[comp.tile_code[t]]
    walls = state.walls
    unbuilt = unbuilt_tiles(state, seat) if len(state.config.modules) > 1 else set()
    n = 0
    for side in SIDES:
        if walls[t] & side:
            continue
        dx, dy = SIDE_DELTAS[side]
        other = city.get(position + geo.pos(dx, dy) - geo.ORIGIN)
        if other is None or comp.tiles[other].kind != kind or walls[other] & OPPOSITE[side] or other in unbuilt:
            continue
        n += 1
    return min(n, data().max_extra)


def best_bonus(state: GameState, seat: int, tile: int) -> int:
    """The most the square ``tile`` could add where ``seat`` may build it now (0 if nowhere)."""
    walls = state.walls
    spots = state.players[seat].analysis(walls).spots(walls[tile])
    return max((square_bonus(state, seat, q, tile) for q in spots), default=0)


def bonuses(state: GameState, seat: int) -> dict[str, int]:
    """The extra buildings per kind that ``seat``'s squares give now (kinds with none left out)."""
    colour = _tables(state.components).colour
    out: dict[str, int] = {}
    for q, t in state.players[seat].city.items():
        if colour[t]:
            b = square_bonus(state, seat, q)
            if b:
                out[colour[t]] = out.get(colour[t], 0) + b
    return out


def _may_take(state: GameState, seat: int) -> bool:
    top = state.pending[-1] if state.pending else None
    return isinstance(top, ChooseAction) and top.seat == seat and owned(state, seat) < data().max_per_player


# ---------------------------------------------------------------------------------- bots
BOT_BUILDING_VALUE: Final = 3.0
"""Bot estimate: points one extra building of a kind is worth over the rest of the game (a
square waiting to be placed or on the reserve board is valued at its best spot; once built, its
bonus counts through ``building_counts`` like any building)."""
BOT_RESERVE_SHARE: Final = 0.5
"""Share of that value for a square on the reserve board (it may still be built)."""


# ---------------------------------------------------------------------------------- module
class Squares(Module):
    """Squares."""

    id = MODULE_ID
    title = "Squares"
    summary = "Free square tiles count as more buildings of their colour when joined."
    description = (
        "Six face-down piles of squares, one per building colour, each with its top square open. As an action, take "
        "an open square for free (it ends your actions) and build it like a building tile; at most three per player. "
        "In scoring, a square counts as one more building of its colour for each building of that colour it joins "
        "without a wall (at most three)."
    )
    assumptions = (
        "Taking a square is a whole action: it ends the turn's actions (a square is never an exact payment), and it "
        "may follow an exact payment like any action.",
        "The limit of three squares counts the squares in the Alhambra, on the reserve board and waiting to be placed this turn.",
        "A square counts only in the Alhambra (not on the reserve board). A neighbour counts when it is a building of "
        "the square's colour (of the base game or any module's building of a building kind; not a square, a bazaar, a "
        "medina or a building site not yet complete) and neither tile has a wall on the side they share.",
        "A square is never given to the neutral player (2 players): he only gets bought tiles.",
    )
    component_assumptions = (
        "The walls of the 24 squares are not known: components.json gives every square one wall, the walls going round "
        "north, east, south and west through the piles (six squares per side).",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_tiles(self, config: GameConfig) -> list[TileType]:
        """The 24 squares."""
        return square_tiles()

    def setup(self, state: GameState, rng: random.Random) -> None:
        """Each pile shuffled, its top square face up (chance nodes in explicit-chance mode)."""
        tops: list[str | None] = []
        rests: list[tuple[str, ...]] = []
        for kind, pile in data().piles:
            codes = [square_code(kind, i + 1) for i in range(len(pile))]
            got = module_draw(state, self.id, codes)
            top = got[0] if got is not None else rng.choice(codes)
            tops.append(top)
            rests.append(tuple(c for c in codes if c != top))
        state.mods[self.id] = SquaresState(tuple(tops), tuple(rests))

    def game_set_up(self, state: GameState, events: list[Event]) -> None:
        """Announce the six open squares."""
        events.append(SquaresLaidOut(tuple(t for t in squares(state).top if t is not None)))

    def chance_items(self, config: GameConfig) -> list[str]:
        """The 24 squares' codes (the square turned up on a pile)."""
        return list(COLOUR)

    def held_tiles(self, state: GameState) -> list[int]:
        """The squares still on the piles."""
        sl = squares(state)
        ids = state.components.tile_ids
        return [ids[c] for t, r in zip(sl.top, sl.rest, strict=True) for c in ((t,) if t else ()) + r]

    # ----- actions ------------------------------------------------------------------------
    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """``square take KIND`` for every pile with an open square, while ``seat`` has fewer than three."""
        if not _may_take(state, seat):
            return []
        return [TakeSquare(k) for k, t in zip(KINDS, squares(state).top, strict=True) if t is not None]

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        if not isinstance(action, TakeSquare):
            raise IllegalAction(f"{action} is not a squares action")
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, ChooseAction):
            raise WrongPhase("a square is taken as an action of your own turn")
        if action.kind not in KINDS:
            raise IllegalAction(f"there are no {action.kind!r} squares ({', '.join(KINDS)})")
        if squares(state).top[KINDS.index(action.kind)] is None:
            raise IllegalAction(f"the {action.kind} squares are all taken")
        if owned(state, top.seat) >= data().max_per_player:
            raise IllegalAction(f"each player may have at most {data().max_per_player} squares, the reserve board included")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """The square joins the turn's tiles; the next one of its pile is turned up; the actions end."""
        assert isinstance(action, TakeSquare)
        sl = squares(state)
        i = KINDS.index(action.kind)
        code = sl.top[i]
        assert code is not None
        rest = sl.rest[i]
        shown: str | None = None
        if rest:
            got = module_draw(state, self.id, list(rest))
            shown = got[0] if got is not None else module_random(state, self.id).choice(list(rest))
        tops = list(sl.top)
        rests = list(sl.rest)
        tops[i] = shown
        rests[i] = tuple(c for c in rest if c != shown)
        state.mods[self.id] = SquaresState(tuple(tops), tuple(rests))
        top = state.pending[-1]
        assert isinstance(top, ChooseAction)
        state.pending[-1] = ChooseAction(top.seat, top.actions, (*top.bought, code))
        events.append(SquareTaken(top.seat, action.kind, code, shown))
        finish_turn_action(state, again=False)

    def target_problem(self, state: GameState, seat: int, tile: int, target: str) -> str | None:
        """A square never goes to the neutral player."""
        if target == "neutral" and _tables(state.components).colour[tile]:
            return "a square is never given to the neutral player"
        return None

    # ----- scoring ------------------------------------------------------------------------
    def building_counts(self, state: GameState, seat: int, counts: dict[str, float]) -> None:
        """Each square in the Alhambra adds its bonus to its colour (the neutral player has none)."""
        if seat < 0:
            return
        for kind, n in bonuses(state, seat).items():
            if kind in counts:
                counts[kind] += n

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Squares not built yet (waiting to be placed, or on the reserve board) at the bonus of
        their best spot now; built squares count through ``building_counts``."""
        if state.rounds_scored >= 3 or state.outcome is not None:
            return None
        colour = _tables(state.components).colour
        ids = state.components.tile_ids
        out = [0.0] * state.config.players
        for top in state.pending:
            codes = top.bought if isinstance(top, ChooseAction) else top.tiles if isinstance(top, PlaceTiles) else ()
            for code in codes:
                if code in COLOUR:
                    out[top.seat] += BOT_BUILDING_VALUE * best_bonus(state, top.seat, ids[code])
        for s, p in enumerate(state.players):
            for t in p.reserve:
                if colour[t]:
                    out[s] += BOT_RESERVE_SHARE * BOT_BUILDING_VALUE * best_bonus(state, s, t)
        return out

    # ----- views --------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: per colour the open square and the squares face down (as a set: their order is
        not decided yet); per player the squares owned and what they add to each colour now."""
        sl = squares(state)
        n = state.config.players
        return {
            "piles": [{"kind": k, "top": t, "rest": list(r), "left": len(r)} for k, t, r in zip(KINDS, sl.top, sl.rest, strict=True)],
            "owned": [owned(state, s) for s in range(n)],
            "max": data().max_per_player,
            "bonus": [bonuses(state, s) for s in range(n)],
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        return SquaresState.from_dict({"piles": {p["kind"]: {"top": p["top"], "rest": p["rest"]} for p in module_view["piles"]}})

    def slice_to_json(self, value: Any) -> Any:
        """The slice's ``to_dict``."""
        assert isinstance(value, SquaresState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`SquaresState`."""
        return SquaresState.from_dict(data)


MODULE: Final = Squares()
