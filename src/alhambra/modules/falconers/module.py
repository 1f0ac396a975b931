"""The Falconers: buy falcons for one money card each and place them where four tiles of your
Alhambra meet; falcons of one type score more the more of them you own, in every scoring round.

Flow (plug-in hooks):

* ``turn_actions``: as the first (and then only) action of a turn, ``falcon ITEM X,Y CARD`` buys
  falcon ``ITEM`` for the money card ``CARD`` (any currency, any value) and places it on the
  intersection at the south-east corner of the Alhambra's place ``X,Y``: the four places
  ``X,Y``, ``X+1,Y``, ``X,Y+1`` and ``X+1,Y+1`` hold tiles, one building of each of the falcon's
  two colours touches it, and no falcon is there yet. A :class:`FalconTurn` pending then lets
  the player buy more (``falcon ...``) or stop (``falcon done``); it closes by itself when no
  falcon can be bought any more, and the turn ends.
* ``after_action``: a falcon whose four tiles are no longer all in place (a redesign moved one)
  goes back to the supply.
* ``round_points``: per player and falcon type, 1/2/3/4/5 falcons score 2/6/12/20/30.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any, Final

from ... import city as geo
from ...actions import Action, register_action
from ...components import KINDS
from ...engine.services import finish_turn_action, spend_cards, unbuilt_tiles
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module
from ...slices import slice_reader
from ...state import ChooseAction, GameConfig, GameState, Pending

MODULE_ID: Final = "falconers"


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class FalconType:
    """One falcon tile: its code, its type (black, brown, white) and the two building kinds on its back."""

    code: str
    type: str
    kinds: tuple[str, str]
    assumed: bool

    def describe(self) -> str:
        """``white falcon (garden, tower)``."""
        return f"{self.type} falcon ({self.kinds[0]}, {self.kinds[1]})"


@dataclass(frozen=True, slots=True)
class FalconData:
    """The module's data file, read once."""

    falcons: tuple[FalconType, ...]
    types: tuple[str, ...]
    points: tuple[int, ...]
    """Points for 0, 1, 2 ... falcons of one type."""


@cache
def data() -> FalconData:
    """Read ``components.json`` and check it."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    types = tuple(raw["types"])
    falcons: list[FalconType] = []
    for f in raw["falcons"]:
        kinds = tuple(f["kinds"])
        if len(kinds) != 2 or kinds[0] == kinds[1] or not set(kinds) <= set(KINDS) or f["type"] not in types:
            raise ValueError(f"falcon {f['code']}: one of {types} with two different building kinds")
        falcons.append(FalconType(str(f["code"]), str(f["type"]), (kinds[0], kinds[1]), bool(f.get("assumption"))))
    if len({f.code for f in falcons}) != len(falcons):
        raise ValueError("falconers: two falcons share a code")
    points = tuple(int(v) for v in raw["points"])
    per_type = max(sum(1 for f in falcons if f.type == t) for t in types)
    if len(points) <= per_type or points[0] != 0:
        raise ValueError("falconers: points for 0 up to every falcon of a type")
    return FalconData(tuple(falcons), types, points)


BY_CODE: Final = {f.code: f for f in data().falcons}


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class PlacedFalcon:
    """A falcon in an Alhambra: ``x, y`` name the intersection at the south-east corner of that
    place; ``tiles`` the codes of the tiles on the four places around it when it was placed (NW,
    NE, SW, SE): once one of them is not there any more, the falcon goes back to the supply."""

    code: str
    x: int
    y: int
    tiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FalconsState:
    """The module's slice (public): the falcons in every player's Alhambra."""

    placed: tuple[tuple[PlacedFalcon, ...], ...]

    def supply(self) -> list[str]:
        """The falcons nobody owns, in code order."""
        used = {f.code for row in self.placed for f in row}
        return [f.code for f in data().falcons if f.code not in used]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"placed": [[{"falcon": f.code, "x": f.x, "y": f.y, "tiles": list(f.tiles)} for f in row] for row in self.placed]}

    @classmethod
    def from_dict(cls, raw: Any) -> FalconsState:
        """Read the JSON form back (a :class:`NotationError` on junk)."""
        try:
            rows = tuple(
                tuple(PlacedFalcon(str(f["falcon"]), int(f["x"]), int(f["y"]), tuple(str(t) for t in f["tiles"])) for f in row)
                for row in raw["placed"]
            )
        except (TypeError, KeyError, ValueError) as e:
            raise NotationError(f"bad falconers state {raw!r}") from e
        codes = [f.code for row in rows for f in row]
        if len(set(codes)) != len(codes) or not all(c in BY_CODE for c in codes) or any(len(f.tiles) != 4 for row in rows for f in row):
            raise NotationError(f"bad falconers state {raw!r}: unknown or repeated falcons")
        return cls(rows)


falcons: Final = slice_reader(MODULE_ID, FalconsState)
"""The module's slice of a game."""


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class BuyFalcon(Action):
    """Buy falcon ``falcon`` for the money card ``card`` and place it on the intersection at the
    south-east corner of place ``corner`` (``falcon Fw5 0,-1 b5``)."""

    module = MODULE_ID
    keyword = "falcon"
    grammar = ("item", "cell", "card")
    falcon: str
    corner: tuple[int, int]
    card: str


@dataclass(frozen=True, slots=True)
class FalconsDone(Action):
    """Buy no more falcons this turn (the turn ends)."""

    module = MODULE_ID
    keyword = "falcon done"
    grammar = ()

    declines = True


register_action(BuyFalcon)
register_action(FalconsDone)


@dataclass(frozen=True, slots=True)
class FalconTurn(Pending):
    """``seat`` bought a falcon this turn: it may buy more (``falcon ...``) or stop (``falcon done``)."""

    module = MODULE_ID
    seat: int


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class FalconBought(Event):
    """``seat`` paid ``payment`` (one card) for falcon ``falcon`` and placed it at the corner of
    place ``x, y``. ``payment`` is the field every purchase event carries, so that the bots'
    card tracker sees the card leave the hand."""

    seat: int
    falcon: str
    x: int
    y: int
    payment: tuple[str, ...]

    def describe(self) -> str:
        what = BY_CODE[self.falcon].describe()
        return f"{_p(self.seat)} buys a {what} for {self.payment[0]} and places it at the corner south-east of the place {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class FalconReturned(Event):
    """A tile under ``seat``'s falcon was moved: the falcon goes back to the supply."""

    seat: int
    falcon: str

    def describe(self) -> str:
        return f"{_p(self.seat)}'s {BY_CODE[self.falcon].describe()} goes back to the supply (a tile under it was moved)"


@dataclass(frozen=True, slots=True)
class FalconsFinished(Event):
    """``seat`` buys no more falcons this turn."""

    seat: int

    def describe(self) -> str:
        return f"{_p(self.seat)} buys no more falcons"


# ---------------------------------------------------------------------------------- rules
_CORNER: Final = ((0, 0), (1, 0), (0, 1), (1, 1))
"""The places around the intersection at the south-east corner of place (x, y): NW, NE, SW, SE."""


_STEPS: Final = tuple(geo.pos(dx, dy) - geo.pos(0, 0) for dx, dy in _CORNER)
"""The same four places as steps between packed positions (``geo.pos`` is linear)."""


def _tiles_at(city: dict[int, int], q: int) -> tuple[int, ...] | None:
    """:func:`corner_tiles` for the packed position ``q`` of the north-west place."""
    get = city.get
    a, b, c, d = (get(q + step) for step in _STEPS)
    if a is None or b is None or c is None or d is None:
        return None
    return (a, b, c, d)


def corner_tiles(city: dict[int, int], x: int, y: int) -> tuple[int, ...] | None:
    """The tile ids on the four places around the intersection (NW, NE, SW, SE), or None unless all four hold tiles."""
    return _tiles_at(city, geo.pos(x, y))


def corner_codes(state: GameState, seat: int, x: int, y: int) -> tuple[str, ...] | None:
    """The codes of the tiles around the intersection south-east of place ``x, y`` in ``seat``'s
    Alhambra (NW, NE, SW, SE), or None unless all four places hold tiles."""
    tiles = corner_tiles(state.players[seat].city, x, y)
    if tiles is None:
        return None
    code = state.components.tile_code
    return tuple(code[t] for t in tiles)


def corner_kinds(state: GameState, seat: int, tiles: tuple[int, ...]) -> set[str]:
    """The building kinds of the base game among these tiles (the fountain, module tiles and
    building sites not yet complete give none)."""
    comp = state.components
    unbuilt = unbuilt_tiles(state, seat) if state.config.modules else frozenset()
    return {comp.tiles[t].kind for t in tiles if comp.tiles[t].kind in KINDS and t not in unbuilt}


def corners(state: GameState, seat: int) -> list[tuple[int, int]]:
    """Every intersection of four tiles in ``seat``'s Alhambra without a falcon, as the place
    at its north-west (sorted)."""
    city = state.players[seat].city
    if len(city) < 4:
        return []
    taken = {geo.pos(f.x, f.y) for f in falcons(state).placed[seat]}
    _, ne, sw, se = _STEPS
    out = [geo.xy(q) for q in city if q + se in city and q + ne in city and q + sw in city and q not in taken]
    return sorted(out)


def placements(state: GameState, seat: int) -> list[tuple[str, tuple[int, int]]]:
    """Every (falcon of the supply, intersection) ``seat`` may place now."""
    city = state.players[seat].city
    out: list[tuple[str, tuple[int, int]]] = []
    spots = [(c, corner_kinds(state, seat, corner_tiles(city, *c) or ())) for c in corners(state, seat)]
    if not spots:
        return out
    for code in falcons(state).supply():
        a, b = BY_CODE[code].kinds
        for c, kinds in spots:
            if a in kinds and b in kinds:
                out.append((code, c))
    return out


def money_codes(state: GameState, seat: int) -> list[str]:
    """The codes of the money cards in ``seat``'s hand (any currency, module money too), sorted."""
    comp = state.components
    return sorted({comp.card_code[c] for c in state.players[seat].hand if comp.cards[c].kind == "money"})


def falcon_points(state: GameState, seat: int) -> int:
    """What ``seat``'s falcons score in a scoring round now."""
    d = data()
    counts = dict.fromkeys(d.types, 0)
    for f in falcons(state).placed[seat]:
        counts[BY_CODE[f.code].type] += 1
    return sum(d.points[c] for c in counts.values())


def _may_start(state: GameState, seat: int) -> bool:
    top = state.pending[-1] if state.pending else None
    return isinstance(top, ChooseAction) and top.seat == seat and top.actions == 0 and not top.bought


# ---------------------------------------------------------------------------------- module
BOT_LATER_ROUND: Final = 0.8
"""Bot estimate: share of a later round's falcon points (at today's falcons) counted now."""


class Falconers(Module):
    """The Falconers."""

    id = MODULE_ID
    title = "The Falconers"
    summary = "Falcons placed where four tiles meet score in sets in every round."
    description = (
        "As your whole turn, buy falcons for one money card each and place them where four tiles of your Alhambra "
        "meet, next to buildings of the two colours on the falcon's back. In every scoring round 1, 2, 3, 4 or 5 "
        "falcons of one type score 2, 6, 12, 20 or 30."
    )
    assumptions = (
        "Buying falcons is a turn's first and only action: not after an exact payment, and nothing else follows it.",
        "A falcon is paid with one money card of any currency and value, never with coins, credit or other money "
        "held outside the hand; diamonds and master-builder cards are money cards and may pay.",
        "The four places around the intersection must hold tiles of the player's Alhambra (the fountain and any module "
        "tile count as tiles); only the base game's building kinds give colours, a building site not yet complete none.",
        "After the first falcon the player may buy more, one at a time, or stop; the turn ends when they stop or cannot buy any more.",
        "A falcon whose four tiles are not all in place any more (a redesign moved one, in or out of turn) goes back "
        "to the supply at once and can be bought again.",
        "Falcons score in every scoring round; a falcon belongs to its player only while it stands in their Alhambra.",
    )
    component_assumptions = (
        "Only one falcon's back is known (a white falcon: tower and garden); the other fourteen are assumed in "
        "components.json: the fifteen pairs of the six colours, each once, each type's five a path through all six colours.",
    )

    # ----- setup --------------------------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """Every falcon in the supply."""
        state.mods[self.id] = FalconsState(((),) * state.config.players)

    def notation_items(self, config: GameConfig) -> list[str]:
        """The falcons' codes (the ``item`` of ``falcon ITEM X,Y CARD``)."""
        return [f.code for f in data().falcons]

    # ----- actions ------------------------------------------------------------------------
    def _buys(self, state: GameState, seat: int) -> list[Action]:
        cards = money_codes(state, seat)
        if not cards:
            return []
        return [BuyFalcon(code, c, card) for code, c in placements(state, seat) for card in cards]

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """Every falcon purchase, as the first action of the turn."""
        return self._buys(state, seat) if _may_start(state, seat) else []

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """More falcons, or ``falcon done``."""
        assert isinstance(pending, FalconTurn)
        return [*self._buys(state, pending.seat), FalconsDone()]

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        if isinstance(action, FalconsDone):
            if not isinstance(top, FalconTurn):
                raise WrongPhase("'falcon done' ends buying falcons, after a falcon was bought this turn")
            return
        if not isinstance(action, BuyFalcon):
            raise IllegalAction(f"{action} is not a falconers action")
        if isinstance(top, FalconTurn):
            seat = top.seat
        elif isinstance(top, ChooseAction):
            seat = top.seat
            if not _may_start(state, seat):
                raise WrongPhase("buying falcons is a whole turn: only as the first action, not after an exact payment")
        else:
            raise WrongPhase("falcons are bought on your own turn, as its only action")
        f = BY_CODE.get(action.falcon)
        if f is None:
            raise IllegalAction(f"there is no falcon {action.falcon!r} ({', '.join(BY_CODE)})")
        if action.falcon not in falcons(state).supply():
            raise IllegalAction(f"the {f.describe()} is not in the supply")
        if action.card not in money_codes(state, seat):
            comp = state.components
            if any(comp.card_code[c] == action.card for c in state.players[seat].hand):
                raise IllegalAction(f"a falcon costs one money card; {action.card} is not a money card")
            raise IllegalAction(f"a falcon costs one money card from your hand; you hold no {action.card}")
        x, y = action.corner
        city = state.players[seat].city
        tiles = corner_tiles(city, x, y)
        if tiles is None:
            raise IllegalAction(
                "a falcon stands where four tiles of your Alhambra meet: "
                f"the places around the corner south-east of {x},{y} are not all built"
            )
        if any((p.x, p.y) == (x, y) for p in falcons(state).placed[seat]):
            raise IllegalAction("a falcon already stands on that intersection")
        kinds = corner_kinds(state, seat, tiles)
        missing = [k for k in f.kinds if k not in kinds]
        if missing:
            raise IllegalAction(f"the {f.describe()} needs a {' and a '.join(missing)} building at that intersection")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Pay the card and place the falcon (the first one opens :class:`FalconTurn`); or stop."""
        top = state.pending[-1]
        if isinstance(action, FalconsDone):
            state.pending.pop()
            events.append(FalconsFinished(top.seat))
            finish_turn_action(state)
            return
        assert isinstance(action, BuyFalcon)
        seat = top.seat
        spend_cards(state, seat, (action.card,))
        x, y = action.corner
        codes = corner_codes(state, seat, x, y)
        assert codes is not None
        sl = falcons(state)
        rows = list(sl.placed)
        rows[seat] = (*rows[seat], PlacedFalcon(action.falcon, x, y, codes))
        state.mods[self.id] = replace(sl, placed=tuple(rows))
        events.append(FalconBought(seat, action.falcon, x, y, (action.card,)))
        if isinstance(top, ChooseAction):
            state.pending.append(FalconTurn(seat))

    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """Close the falcon purchases by themselves when no falcon can be bought any more."""
        assert isinstance(pending, FalconTurn)
        if not self._buys(state, pending.seat):
            state.pending.pop()
            events.append(FalconsFinished(pending.seat))
            finish_turn_action(state)

    def after_action(self, state: GameState, events: list[Event]) -> None:
        """A falcon whose four tiles are not all in place any more goes back to the supply."""
        sl = falcons(state)
        rows = list(sl.placed)
        changed = False
        code = state.components.tile_code
        for seat, row in enumerate(sl.placed):
            if not row:
                continue
            get = state.players[seat].city.get
            keep = []
            for f in row:
                q = geo.pos(f.x, f.y)
                if all((t := get(q + step)) is not None and code[t] == c for step, c in zip(_STEPS, f.tiles, strict=True)):
                    keep.append(f)
                else:
                    events.append(FalconReturned(seat, f.code))
                    changed = True
            rows[seat] = tuple(keep)
        if changed:
            state.mods[self.id] = replace(sl, placed=tuple(rows))

    # ----- scoring ------------------------------------------------------------------------
    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """Each player's falcons by type: 2 / 6 / 12 / 20 / 30 for 1-5 of a type."""
        return [falcon_points(state, s) for s in range(state.config.players)]

    # ----- bots ---------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """The falcons' points in the scoring rounds to come, at today's falcons (the next round
        in full, later ones in part)."""
        left = 3 - state.rounds_scored
        if left <= 0 or state.outcome is not None:
            return None
        weight = 1.0 + BOT_LATER_ROUND * (left - 1)
        return [weight * falcon_points(state, s) for s in range(state.config.players)]

    # ----- views --------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: the supply (falcons with type and colours), every player's falcons (where they
        stand) and what they score in a round now, and the points table."""
        sl = falcons(state)
        d = data()
        return {
            "supply": [{"falcon": c, "type": BY_CODE[c].type, "kinds": list(BY_CODE[c].kinds)} for c in sl.supply()],
            "placed": [
                [
                    {"falcon": f.code, "type": BY_CODE[f.code].type, "kinds": list(BY_CODE[f.code].kinds)}
                    | {"x": f.x, "y": f.y, "tiles": list(f.tiles)}
                    for f in row
                ]
                for row in sl.placed
            ],
            "points_now": [falcon_points(state, s) for s in range(state.config.players)],
            "points": list(d.points),
            "types": list(d.types),
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        rows = [[{k: f[k] for k in ("falcon", "x", "y", "tiles")} for f in row] for row in module_view["placed"]]
        return FalconsState.from_dict({"placed": rows})

    def slice_to_json(self, value: Any) -> Any:
        """The slice's ``to_dict``."""
        assert isinstance(value, FalconsState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`FalconsState`."""
        return FalconsState.from_dict(data)


MODULE: Final = Falconers()
