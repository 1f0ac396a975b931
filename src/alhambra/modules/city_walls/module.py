"""City walls: eight city-wall cards in the money piles 2-5, laid open beside the board when
drawn; as an action a player takes one and adds its one or two wooden segments to a tile of their
own (in the Alhambra, on the reserve board or bought this turn), never over a wall; the segments
are part of the tile for the rest of the game.

Flow (plug-in hooks and the geometry protocol of docs/hooks.md):

* ``extra_cards`` (8 cards, kind ``citywall``), ``deck_piles`` (two into each of the piles 2-5),
  ``card_drawn`` (laid open in the slice; the core draws another card for the display).
* ``turn_actions``: ``wall build CARD TILE`` for every open card and own tile that can take its
  pattern; ``perform`` adds the segments with ``engine.set_walls`` (``GameState.walls``: every
  building rule and the longest wall read them from then on) and closes the action
  (``engine.finish_turn_action``). ``check`` asks ``engine.city_problem`` on the changed
  Alhambra ("the Alhambra must still be built according to the building rules").
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from ... import city as geo
from ...actions import Action, need_words, parse_card, parse_tile, register_parser
from ...components import SIDE_DELTAS, SIDES, CardType, letters_to_walls, walls_to_letters
from ...engine.services import city_problem, finish_turn_action, set_walls
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module
from ...state import ChooseAction, GameConfig, GameState

MODULE_ID: Final = "city_walls"
CARD_KIND: Final = "citywall"


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class CityWallsData:
    """The module's data file, read once."""

    cards: tuple[tuple[str, int], ...]
    """Each card's code and the wall mask of its segments."""
    piles: tuple[int, ...]
    """How many cards go into each of the five money piles."""
    segments: int


@cache
def data() -> CityWallsData:
    """Read ``components.json`` and check it."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    cards = tuple((str(c["code"]), letters_to_walls(str(c["walls"]))) for c in raw["cards"])
    piles = tuple(int(k) for k in raw["piles"])
    segments = int(raw["segments"])
    if len(piles) != 5 or sum(piles) != len(cards) or sum(m.bit_count() for _, m in cards) != segments:
        raise ValueError("city walls: the piles must take every card and the cards every segment")
    if not all(1 <= m.bit_count() <= 2 and code.isalnum() and code.islower() for code, m in cards):
        raise ValueError("city walls: a card shows one or two segments and has a lower-case code")
    return CityWallsData(cards, piles, segments)


WALLS_OF: Final = {code: m for code, m in data().cards}
"""The wall mask of each card's segments, by card code."""


def card_walls(code: str) -> int:
    """The segments of city-wall card ``code`` as a wall mask (N=1, E=2, S=4, W=8)."""
    return WALLS_OF[code]


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class CityWallsState:
    """The module's slice (public): the cards lying open beside the board (in the order they
    came up), the cards used (out of the game) and every segment built, as (seat, tile key,
    wall letters) (``F1``... for a seat's fountain, see ``GameState.changed_walls``)."""

    open: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    built: tuple[tuple[int, str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"open": list(self.open), "used": list(self.used), "built": [list(b) for b in self.built]}

    @classmethod
    def from_dict(cls, raw: Any) -> CityWallsState:
        """Read the JSON form back (a :class:`NotationError` on junk)."""
        try:
            open_ = tuple(str(c) for c in raw["open"])
            used = tuple(str(c) for c in raw["used"])
            built = tuple((int(s), str(t), str(w)) for s, t, w in raw["built"])
        except (TypeError, KeyError, ValueError) as e:
            raise NotationError(f"bad city walls state {raw!r}") from e
        codes = open_ + used
        if any(c not in WALLS_OF for c in codes) or len(set(codes)) != len(codes):
            raise NotationError(f"bad city walls state {raw!r}: unknown or repeated cards")
        return cls(open_, used, built)


def walls_slice(state: GameState) -> CityWallsState:
    """The module's slice of a game."""
    value = state.mods[MODULE_ID]
    assert isinstance(value, CityWallsState)
    return value


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class BuildCityWall(Action):
    """Take the open city-wall card ``card`` and build its segments on your tile ``tile`` (in the
    Alhambra, on the reserve board or bought this turn; ``F`` is your fountain)."""

    module = MODULE_ID
    keyword = "wall build"
    grammar = ("card", "tile")
    card: str
    tile: str


@dataclass(frozen=True, slots=True)
class BuildFountainWall(Action):
    """Take the open city-wall card ``card`` and build its segments on your fountain (the
    starting tile): ``wall build CARD fountain``."""

    module = MODULE_ID
    keyword = "wall build"
    grammar = ("card", "word:fountain")
    card: str

    def notation(self) -> str:
        return f"wall build {self.card} fountain"


FOUNTAIN: Final = "F"
"""The code of every seat's fountain (``BuildFountainWall`` names one's own)."""


def _parse_build(words: list[str]) -> Action:
    need_words(words, 2, "wall build CARD TILE (e.g. wall build cwne G8sw, or wall build cwn fountain)")
    card, tile = parse_card(words[0]), words[1]
    if tile.lower() in ("fountain", "f"):
        return BuildFountainWall(card)
    return BuildCityWall(card, parse_tile(tile))


def _target_code(action: BuildCityWall | BuildFountainWall) -> str:
    return FOUNTAIN if isinstance(action, BuildFountainWall) else action.tile


# hand-written: ``fountain`` (or ``f``) also reads as a tile code, so the grammar cannot tell the two forms apart
register_parser("wall build", _parse_build, BuildCityWall, BuildFountainWall)


# ---------------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class CityWallCardShown(Event):
    """A city-wall card came up from the money pile and was laid open beside the board."""

    card: str
    walls: str

    def describe(self) -> str:
        return f"a city-wall card ({self.walls.upper()}) is laid open beside the board"


@dataclass(frozen=True, slots=True)
class CityWallBuilt(Event):
    """``seat`` took the card ``card`` and built its segments ``added`` on ``tile`` (``where``:
    ``alhambra``, ``reserve`` or ``bought``); the tile's walls are now ``walls``."""

    seat: int
    card: str
    tile: str
    added: str
    walls: str
    where: str

    def describe(self) -> str:
        sides = {"n": "north", "e": "east", "s": "south", "w": "west"}
        return f"player {self.seat + 1} builds a city wall ({', '.join(sides[c] for c in self.added)}) on {self.tile}"


# ---------------------------------------------------------------------------------- rules
def own_tiles(state: GameState, seat: int) -> list[tuple[int, str, int | None]]:
    """``seat``'s tiles that may take segments: (tile id, where, position in the Alhambra or None):
    the Alhambra (the fountain included), the reserve board and the tiles bought this turn."""
    p = state.players[seat]
    out: list[tuple[int, str, int | None]] = [(t, "alhambra", q) for q, t in sorted(p.city.items())]
    out += [(t, "reserve", None) for t in p.reserve]
    top = state.pending[-1] if state.pending else None
    if isinstance(top, ChooseAction) and top.seat == seat:
        ids = state.components.tile_ids
        out += [(ids[c], "bought", None) for c in top.bought]
    return out


def fits(state: GameState, seat: int, tile: int, position: int | None, mask: int) -> bool:
    """May segments ``mask`` go onto ``tile``: no side already walled, and in the Alhambra every
    new wall faces an empty place (a wall against a neighbour's open side breaks "walls match";
    one facing empty ground leaves every path and every other rule as it was)."""
    if state.walls[tile] & mask:
        return False
    if position is None:
        return True
    city = state.players[seat].city
    for side in SIDES:
        if mask & side:
            dx, dy = SIDE_DELTAS[side]
            if position + geo.pos(dx, dy) - geo.ORIGIN in city:
                return False
    return True


def wall_targets(state: GameState, seat: int, card: str) -> list[tuple[int, str]]:
    """Every (tile id, where) of ``seat`` that can take the segments of ``card`` now."""
    mask = card_walls(card)
    return [(t, where) for t, where, q in own_tiles(state, seat) if fits(state, seat, t, q, mask)]


def _code(state: GameState, tile: int) -> str:
    return state.components.tile_code[tile]


# ---------------------------------------------------------------------------------- module
class CityWalls(Module):
    """City walls."""

    id = MODULE_ID
    title = "City walls"
    summary = "City-wall cards add wooden wall segments to one of your tiles."
    description = (
        "Eight city-wall cards come up from the money piles and lie open beside the board. As an action, take one "
        "and build its one or two wooden wall segments on one of your tiles (in your Alhambra, on your reserve board "
        "or just bought), never over a wall; they count as the tile's walls for the rest of the game."
    )
    assumptions = (
        "Taking a city-wall card is the turn's action: its segments are built at once on one tile, and the card then "
        "leaves the game. It ends the turn's actions like taking money (it is no exact payment).",
        "A card's pattern keeps its orientation (tiles are never turned): a north-east card adds the north and east walls.",
        "In the Alhambra a segment may only face an empty place: one against a neighbouring tile's open side would break "
        "'walls match', and nothing else can change ('the Alhambra must still be built according to the building rules').",
        "Any own tile may take segments: a building, the fountain (the rulebook names the starting tile), or another module's tile.",
    )
    component_assumptions = (
        "Which sides each card shows is not known (4 cards of one segment and 4 of two are certain): components.json "
        "gives one card per side (N, E, S, W) and one per corner (NE, ES, SW, NW).",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """The 8 city-wall cards (kind ``citywall``)."""
        return [CardType(code, CARD_KIND, module=self.id, extra=(m,)) for code, m in data().cards]

    def setup(self, state: GameState, rng: random.Random) -> None:
        """No card is open yet."""
        state.mods[self.id] = CityWallsState()

    def deck_piles(self, state: GameState, piles: list[list[int]], rng: random.Random) -> None:
        """The cards shuffled, two into each of the 2nd to 5th piles at random places."""
        ids = [i for i, c in enumerate(state.components.cards) if c.module == self.id]
        rng.shuffle(ids)
        at = 0
        for pile, k in enumerate(data().piles):
            for c in ids[at : at + k]:
                piles[pile].insert(rng.randrange(len(piles[pile]) + 1), c)
            at += k

    # ----- draws --------------------------------------------------------------------------
    def card_drawn(self, state: GameState, card: int, events: list[Event]) -> bool:
        """A city-wall card is laid open beside the board (several may lie there)."""
        code = state.components.card_code[card]
        sl = walls_slice(state)
        state.mods[self.id] = CityWallsState((*sl.open, code), sl.used, sl.built)
        events.append(CityWallCardShown(code, walls_to_letters(card_walls(code))))
        return True

    def held_cards(self, state: GameState) -> list[int]:
        """The open cards and the used ones (out of the game)."""
        sl = walls_slice(state)
        ids = {c.code: i for i, c in enumerate(state.components.cards) if c.module == self.id}
        return [ids[c] for c in (*sl.open, *sl.used)]

    # ----- actions ------------------------------------------------------------------------
    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """``wall build CARD TILE`` for every open card and own tile that can take it."""
        sl = walls_slice(state)
        if not sl.open:
            return []
        out: list[Action] = []
        for card in sorted(set(sl.open)):
            codes = sorted({_code(state, t) for t, _ in wall_targets(state, seat, card)})
            out += [BuildFountainWall(card) if code == FOUNTAIN else BuildCityWall(card, code) for code in codes]
        return out

    def _target(self, state: GameState, seat: int, code: str) -> tuple[int, str, int | None]:
        for t, where, q in own_tiles(state, seat):
            if _code(state, t) == code:
                return t, where, q
        raise IllegalAction(f"{code} is none of your tiles (in your Alhambra, on your reserve board or bought this turn)")

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        if not isinstance(action, BuildCityWall | BuildFountainWall):
            raise IllegalAction(f"{action} is not a city walls action")
        code = _target_code(action)
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, ChooseAction):
            raise WrongPhase("a city wall is built as an action of your own turn")
        if action.card not in walls_slice(state).open:
            raise IllegalAction(f"the city-wall card {action.card} is not lying open")
        t, _, q = self._target(state, top.seat, code)
        mask = card_walls(action.card)
        if state.walls[t] & mask:
            raise IllegalAction(f"{code} already has a wall where {action.card} would add one: walls are never built over")
        if q is not None:
            trial = state.copy()
            set_walls(trial, t, state.walls[t] | mask)
            why = city_problem(trial, top.seat)
            if why is not None:
                raise IllegalAction(f"with that city wall your Alhambra would break a building rule: {why}")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """The card leaves the game; the segments become part of the tile; the actions end."""
        assert isinstance(action, BuildCityWall | BuildFountainWall)
        top = state.pending[-1]
        seat = top.seat
        code = _target_code(action)
        t, where, _ = self._target(state, seat, code)
        mask = card_walls(action.card)
        walls = state.walls[t] | mask
        set_walls(state, t, walls)
        sl = walls_slice(state)
        rest = list(sl.open)
        rest.remove(action.card)
        key = state.wall_key(t)
        state.mods[self.id] = CityWallsState(tuple(rest), (*sl.used, action.card), (*sl.built, (seat, key, walls_to_letters(mask))))
        events.append(CityWallBuilt(seat, action.card, code, walls_to_letters(mask), walls_to_letters(walls), where))
        finish_turn_action(state, again=False)

    # ----- the scoring companion --------------------------------------------------------
    def layout_segments(self) -> int:
        """A layout (``alhambra score``) may give tiles ``added`` segments: 12 in all."""
        return data().segments

    # ----- views --------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: the open cards with their segments, the segments left, every city wall built."""
        sl = walls_slice(state)
        used_segments = sum(card_walls(c).bit_count() for c in sl.used)
        return {
            "open": [{"card": c, "walls": walls_to_letters(card_walls(c))} for c in sl.open],
            "used": list(sl.used),
            "segments_left": data().segments - used_segments,
            "built": [{"seat": s, "tile": t, "walls": w} for s, t, w in sl.built],
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        return CityWallsState.from_dict(
            {
                "open": [c["card"] for c in module_view["open"]],
                "used": module_view["used"],
                "built": [[b["seat"], b["tile"], b["walls"]] for b in module_view["built"]],
            }
        )

    def slice_to_json(self, value: Any) -> Any:
        """The slice's ``to_dict``."""
        assert isinstance(value, CityWallsState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`CityWallsState`."""
        return CityWallsState.from_dict(data)


MODULE: Final = CityWalls()
