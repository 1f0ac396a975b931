"""City gates: one city-gate card and one wooden gate per player. A drawn gate card is laid open
beside the gates (or discarded while another one lies open); taking it is a player's action
instead of taking money. A player holding a card may build a tile where no path on foot reaches
it, through a double wall: a wooden gate goes on that wall and opens it; the card leaves the game.
The two tiles under a gate are never redesigned again.

Flow (plug-in hooks and the geometry protocol of docs/hooks.md):

* ``extra_cards`` (one card per player), ``deck_piles`` (spread over the piles 3-5),
  ``card_drawn`` (laid open, or onto the discard pile).
* ``turn_actions``: ``gate take`` (the open card; ends the actions like taking money) and the
  ``redesign_actions``: ``gate build TILE X,Y SIDE`` (from the reserve board through a gate),
  also in a master-builder card's extra redesign.
* ``place_actions``: ``gate place TILE X,Y SIDE`` for a waiting tile (``engine.build_tile``).
* A tile that turns as it enters the Alhambra (another module's ``entry_walls``: a magical
  building) is turned and built through a gate in one move: ``gate turn TILE X,Y SIDE WALLS``.
* A gate opens the double wall: ``engine.set_walls`` takes the wall off both facing sides, so
  the on-foot rule, the hole test and the longest wall need nothing more (a double wall between
  two tiles never scored). ``removal_problem`` keeps the two tiles in place for good.
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
from ...components import OPPOSITE, SIDE_DELTAS, CardType, letters_to_walls, walls_to_letters
from ...engine.services import build_tile, finish_turn_action, occupied_places, placement_veto, redesign_seat, set_walls
from ...errors import IllegalAction, IllegalPlacement, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module, hook_users
from ...state import ChooseAction, GameConfig, GameState, PlaceTiles

MODULE_ID: Final = "city_gates"
CARD_KIND: Final = "citygate"
SIDE_WORDS: Final = "word:n|e|s|w"
WALL_LETTERS: Final = tuple(walls_to_letters(m) for m in range(1, 16))
"""The wall letters a turned tile may show: one to three walls, two opposite, and all four (a
magical building with city-wall segments added, which stay part of it)."""
WALL_WORDS: Final = "word:" + "|".join(WALL_LETTERS)


@dataclass(frozen=True, slots=True)
class CityGatesData:
    """The module's data file, read once."""

    cards: int
    piles: tuple[int, ...]
    """The money piles (0-based) the cards are spread over, in turn."""


@cache
def data() -> CityGatesData:
    """Read ``components.json``."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    return CityGatesData(int(raw["cards"]), tuple(int(p) for p in raw["piles"]))


def card_code(i: int) -> str:
    """``gt1`` ... ``gt6``."""
    return f"gt{i + 1}"


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class CityGatesState:
    """The module's slice (public): the card lying open (None: none), the cards each seat holds,
    the cards used (out of the game), and every gate built as (seat, x, y, side): the tile on
    ``x,y`` and its neighbour on ``side`` lie under it."""

    open: str | None = None
    held: tuple[tuple[str, ...], ...] = ()
    used: tuple[str, ...] = ()
    gates: tuple[tuple[int, int, int, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"open": self.open, "held": [list(h) for h in self.held], "used": list(self.used), "gates": [list(g) for g in self.gates]}

    @classmethod
    def from_dict(cls, raw: Any) -> CityGatesState:
        """Read the JSON form back (a :class:`NotationError` on junk)."""
        try:
            open_ = None if raw["open"] is None else str(raw["open"])
            held = tuple(tuple(str(c) for c in h) for h in raw["held"])
            used = tuple(str(c) for c in raw["used"])
            gates = tuple((int(s), int(x), int(y), str(d)) for s, x, y, d in raw["gates"])
        except (TypeError, KeyError, ValueError) as e:
            raise NotationError(f"bad city gates state {raw!r}") from e
        if any(d not in "nesw" or len(d) != 1 for *_, d in gates):
            raise NotationError(f"bad city gates state {raw!r}: a gate's side is n, e, s or w")
        return cls(open_, held, used, gates)


def gates_slice(state: GameState) -> CityGatesState:
    """The module's slice of a game."""
    value = state.mods[MODULE_ID]
    assert isinstance(value, CityGatesState)
    return value


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class TakeGate(Action):
    """Take the open city-gate card (and a wooden gate) instead of money: ``gate take``."""

    module = MODULE_ID
    keyword = "gate take"
    grammar = ()


@dataclass(frozen=True, slots=True)
class GatePlace(Action):
    """Build a waiting tile at ``target`` through a gate on its ``side`` (a double wall)."""

    module = MODULE_ID
    keyword = "gate place"
    grammar = ("tile", "cell", SIDE_WORDS)
    tile: str
    target: tuple[int, int]
    side: str


@dataclass(frozen=True, slots=True)
class GateBuild(Action):
    """Redesign: build a reserve tile at ``target`` through a gate on its ``side``."""

    module = MODULE_ID
    keyword = "gate build"
    grammar = ("tile", "cell", SIDE_WORDS)
    tile: str
    target: tuple[int, int]
    side: str


@dataclass(frozen=True, slots=True)
class GateTurn(Action):
    """Build a tile that turns (a magical building), turned to show the walls ``walls``, at
    ``target`` through a gate on its ``side``, in one move: the tile waiting to be placed, or (a
    redesign) the tile from the reserve board (``gate turn TILE X,Y SIDE WALLS``)."""

    module = MODULE_ID
    keyword = "gate turn"
    grammar = ("tile", "cell", SIDE_WORDS, WALL_WORDS)
    tile: str
    target: tuple[int, int]
    side: str
    walls: str


GateAction = GatePlace | GateBuild | GateTurn
"""A tile built through a gate (waiting or from the reserve board; as it lies or turned)."""


for _action in (TakeGate, GatePlace, GateBuild, GateTurn):
    register_action(_action)


# ---------------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class CityGateCardShown(Event):
    """A city-gate card came up from the money pile: laid open (``discarded`` False) or, while
    another one lies open, put on the discard pile."""

    card: str
    discarded: bool

    def describe(self) -> str:
        return (
            "a city-gate card comes up and goes onto the discard pile"
            if self.discarded
            else "a city-gate card is laid open beside the gates"
        )


@dataclass(frozen=True, slots=True)
class CityGateTaken(Event):
    """``seat`` took the open city-gate card and a wooden gate."""

    seat: int
    card: str

    def describe(self) -> str:
        return f"player {self.seat + 1} takes the city-gate card"


@dataclass(frozen=True, slots=True)
class CityGateOpened(Event):
    """``seat`` built ``tile`` at ``x,y`` through a gate on its ``side`` (the double wall with
    ``other``); the card ``card`` leaves the game."""

    seat: int
    tile: str
    x: int
    y: int
    side: str
    other: str
    card: str
    walls: str = ""
    """The walls the tile was turned to show (a magical building), "" when built as it lies."""

    def describe(self) -> str:
        turned = f" turned to show walls {self.walls}" if self.walls else ""
        return f"player {self.seat + 1} builds {self.tile}{turned} at {self.x},{self.y} through a city gate (to {self.other})"


# ---------------------------------------------------------------------------------- rules
_SIDE: Final = {"n": 1, "e": 2, "s": 4, "w": 8}


def _printed(state: GameState, tile: int, side: int, walls: int) -> bool:
    """Is ``tile``'s wall on ``side`` printed, not a wooden city-wall segment, when it shows
    ``walls``? (A turned magical building shows its printed walls turned: as many walls as printed.)"""
    printed = state.components.tile_walls[tile]
    return bool(walls & side) and (bool(printed & side) or walls.bit_count() == printed.bit_count())


def _neighbour(position: int, side: int) -> int:
    dx, dy = SIDE_DELTAS[side]
    return position + geo.pos(dx, dy) - geo.ORIGIN


def _entry(state: GameState, seat: int, tile: int) -> tuple[tuple[int, ...], Module | None]:
    """The walls ``tile`` may show as it enters ``seat``'s Alhambra and the module that turns it
    (``Module.entry_walls``), or its walls as they are and None."""
    for m in hook_users(state.config, "entry_walls"):
        got = m.entry_walls(state, seat, tile)
        if got is not None:
            return got, m
    return (state.walls[tile],), None


def gate_spots(state: GameState, seat: int, tile: int) -> list[tuple[int, str, int | None]]:
    """Every (position, side, walls) where ``seat`` may build ``tile`` through a gate: the place
    breaks only the on-foot rule (every joined side is a double wall, no hole is closed), and the
    gate goes on one of those double walls, both walls printed. ``walls`` is the wall mask a tile
    that turns is built showing (turned in the same move), None for a tile built as it lies."""
    city = state.players[seat].city
    walls = state.walls
    masks, turner = _entry(state, seat, tile)
    skip = tuple(m for m in (MODULE, turner) if m is not None)
    frontier = state.players[seat].analysis(walls).frontier
    filled = occupied_places(state, seat)  # places modules' pieces fill (camps): no tile there
    out: list[tuple[int, str, int | None]] = []
    for w in masks:
        for q in frontier:
            if q in filled or geo.placement_problem(city, walls, w, q) != "on_foot" or geo.creates_hole(city, q):
                continue
            if placement_veto(state, seat, tile, q, w, skip) is not None:
                continue
            for letter, side in _SIDE.items():
                nb = city.get(_neighbour(q, side))
                if nb is not None and _printed(state, tile, side, w) and _printed(state, nb, OPPOSITE[side], walls[nb]):
                    out.append((q, letter, None if turner is None else w))
    return out


def _gate_action(kind: str, code: str, q: int, side: str, walls: int | None) -> Action:
    """The action that builds ``code`` through a gate (``kind``: ``place`` or ``build``; turned
    when ``walls`` is given)."""
    if walls is None:
        return (GatePlace if kind == "place" else GateBuild)(code, geo.xy(q), side)
    return GateTurn(code, geo.xy(q), side, walls_to_letters(walls))


def _holds(state: GameState, seat: int) -> int:
    held = gates_slice(state).held
    return len(held[seat]) if seat < len(held) else 0


def _gated(state: GameState, seat: int) -> set[int]:
    """Positions of ``seat``'s tiles under a gate."""
    out: set[int] = set()
    for s, x, y, d in gates_slice(state).gates:
        if s == seat:
            q = geo.pos(x, y)
            out |= {q, _neighbour(q, _SIDE[d])}
    return out


# ---------------------------------------------------------------------------------- module
class CityGates(Module):
    """City gates."""

    id = MODULE_ID
    title = "City gates"
    summary = "A city-gate card lets you build a tile through a double wall."
    description = (
        "One city-gate card per player comes up from the money piles 3-5. Taking the open card is an action instead "
        "of taking money. With a card you may build a tile that no path on foot reaches, through a double wall: a "
        "wooden gate opens that wall. The two tiles under a gate are never redesigned."
    )
    assumptions = (
        "A city-gate card that went onto the discard pile (another lay open) comes back with the discard pile when "
        "the money is reshuffled, like any discarded card.",
        "Taking the card is a whole take action (alone, not with money cards) and ends the turn's actions; the cards a "
        "player holds are public (taken openly).",
        "A gate is used only where it is needed: the new tile's walls match every neighbour, no hole is made, and every "
        "joined side is a double wall; the gate goes on one of those double walls (the player chooses which).",
        "A gate can be used wherever a tile is placed into the Alhambra (the rulebook names placing and redesigning): "
        "bought tiles, a vizier's or sultan's tile, the final hand-out, and a redesign from the reserve board (an "
        "exchange keeps the open sides, so it never needs one).",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """One city-gate card per player."""
        return [CardType(card_code(i), CARD_KIND, module=self.id) for i in range(min(config.players, data().cards))]

    def setup(self, state: GameState, rng: random.Random) -> None:
        """No card is open or held yet."""
        state.mods[self.id] = CityGatesState(None, ((),) * state.config.players)

    def deck_piles(self, state: GameState, piles: list[list[int]], rng: random.Random) -> None:
        """Spread as evenly as possible over the piles 3, 4 and 5, each at a random place."""
        ids = [i for i, c in enumerate(state.components.cards) if c.module == self.id]
        rng.shuffle(ids)
        order = data().piles
        for k, c in enumerate(ids):
            pile = piles[order[k % len(order)]]
            pile.insert(rng.randrange(len(pile) + 1), c)

    def card_drawn(self, state: GameState, card: int, events: list[Event]) -> bool:
        """Laid open beside the gates, or onto the discard pile while another one lies open."""
        code = state.components.card_code[card]
        sl = gates_slice(state)
        if sl.open is None:
            state.mods[self.id] = CityGatesState(code, sl.held, sl.used, sl.gates)
            events.append(CityGateCardShown(code, False))
        else:
            state.discard.append(card)
            events.append(CityGateCardShown(code, True))
        return True

    def held_cards(self, state: GameState) -> list[int]:
        """The open card, the cards the players hold and the used ones."""
        sl = gates_slice(state)
        ids = {c.code: i for i, c in enumerate(state.components.cards) if c.module == self.id}
        codes = ([sl.open] if sl.open else []) + [c for h in sl.held for c in h] + list(sl.used)
        return [ids[c] for c in codes]

    # ----- actions ------------------------------------------------------------------------
    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """``gate take`` while a card lies open; the redesigns through a gate (``gate build``)."""
        out: list[Action] = [TakeGate()] if gates_slice(state).open is not None else []
        return out + self.redesign_actions(state, seat)

    def redesign_actions(self, state: GameState, seat: int) -> list[Action]:
        """``gate build TILE X,Y SIDE [WALLS]`` for the reserve tiles while ``seat`` holds a card."""
        if not _holds(state, seat):
            return []
        code = state.components.tile_code
        tiles = sorted(set(state.players[seat].reserve))
        return [_gate_action("build", code[t], q, d, w) for t in tiles for q, d, w in gate_spots(state, seat, t)]

    def place_actions(self, state: GameState, pending: PlaceTiles) -> list[Action]:
        """``gate place TILE X,Y SIDE [WALLS]`` for the waiting tiles, while the seat holds a card."""
        if not _holds(state, pending.seat):
            return []
        ids = state.components.tile_ids
        seat = pending.seat
        return [_gate_action("place", c, q, d, w) for c in sorted(set(pending.tiles)) for q, d, w in gate_spots(state, seat, ids[c])]

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        if isinstance(action, TakeGate):
            if not isinstance(top, ChooseAction):
                raise WrongPhase("the city-gate card is taken as an action of your own turn")
            if gates_slice(state).open is None:
                raise IllegalAction("no city-gate card lies open")
            return
        if not isinstance(action, GateAction):
            raise IllegalAction(f"{action} is not a city gates action")
        t = state.components.tile_ids.get(action.tile)
        if t is None:
            raise IllegalAction(f"there is no tile {action.tile!r} in this game")
        waiting = isinstance(top, PlaceTiles) and action.tile in top.tiles
        if isinstance(action, GatePlace) or (isinstance(action, GateTurn) and waiting):
            if not isinstance(top, PlaceTiles):
                raise WrongPhase("a tile is placed through a gate when it waits to be placed")
            if action.tile not in top.tiles:
                raise IllegalAction(f"{action.tile} is not waiting to be placed")
            seat = top.seat
        else:
            got = redesign_seat(state)
            if got is None:
                raise WrongPhase("a redesign is an action of your own turn")
            seat = got
            if t not in state.players[seat].reserve:
                raise IllegalAction(f"{action.tile} is not on your reserve board")
        if not _holds(state, seat):
            raise IllegalAction("you hold no city-gate card")
        q = geo.pos(*action.target)
        walls = letters_to_walls(action.walls) if isinstance(action, GateTurn) else None
        if (q, action.side, walls) not in gate_spots(state, seat, t):
            shown = state.walls[t] if walls is None else walls
            rule = geo.placement_problem(state.players[seat].city, state.walls, shown, q)
            why = "it can be built there without a gate" if rule is None else geo.RULE_MESSAGES.get(rule, rule)
            if rule == "on_foot":
                why = "the gate must go on a double wall of two printed walls towards a tile of your Alhambra"
                if geo.creates_hole(state.players[seat].city, q):
                    why = geo.RULE_MESSAGES["no_holes"]
            if (walls is None) != (_entry(state, seat, t)[1] is None):
                why = "this tile is built turned: name the walls it shows" if walls is None else "this tile is built as it lies"
            raise IllegalPlacement(
                f"{action.tile} cannot go to {action.target[0]},{action.target[1]} through a gate on its {action.side} side: {why}",
                rule or "module",
            )

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Take the card, or turn the tile (if it turns), open the double wall and build the tile
        (the card leaves the game)."""
        sl = gates_slice(state)
        if isinstance(action, TakeGate):
            seat = state.pending[-1].seat
            assert sl.open is not None
            held = list(sl.held)
            held[seat] = (*held[seat], sl.open)
            state.mods[self.id] = CityGatesState(None, tuple(held), sl.used, sl.gates)
            events.append(CityGateTaken(seat, sl.open))
            finish_turn_action(state, again=False)
            return
        assert isinstance(action, GateAction)
        top = state.pending[-1]
        who = top.seat if isinstance(top, PlaceTiles) and action.tile in top.tiles else redesign_seat(state)
        assert who is not None
        seat = who
        comp = state.components
        t = comp.tile_ids[action.tile]
        turned = action.walls if isinstance(action, GateTurn) else ""
        if turned:
            set_walls(state, t, letters_to_walls(turned))
        q = geo.pos(*action.target)
        side = _SIDE[action.side]
        nb = state.players[seat].city[_neighbour(q, side)]
        set_walls(state, t, state.walls[t] & ~side)
        set_walls(state, nb, state.walls[nb] & ~OPPOSITE[side])
        card = sl.held[seat][0]
        held = list(sl.held)
        held[seat] = sl.held[seat][1:]
        x, y = action.target
        state.mods[self.id] = CityGatesState(sl.open, tuple(held), (*sl.used, card), (*sl.gates, (seat, x, y, action.side)))
        other = state.wall_key(nb) if nb in comp.fountains else comp.tile_code[nb]
        events.append(CityGateOpened(seat, action.tile, x, y, action.side, other, card, turned))
        build_tile(state, seat, action.tile, action.target, events)

    def removal_problem(self, state: GameState, seat: int, tile: int, position: int, incoming: int | None = None) -> str | None:
        """The two tiles under a gate are never redesigned (nor exchanged)."""
        if gates_slice(state).gates and position in _gated(state, seat):
            return "the tiles under a city gate are never redesigned"
        return None

    # ----- the scoring companion --------------------------------------------------------
    def layout_gates(self) -> int:
        """A layout (``alhambra score``) may give tiles a ``gate``: one per card, 6 in all."""
        return data().cards

    # ----- bots ---------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """A held card: a place more for a tile later (a little under a point)."""
        if state.rounds_scored >= 3 or state.outcome is not None:
            return None
        held = gates_slice(state).held
        return [BOT_CARD_VALUE * len(held[s]) for s in range(state.config.players)]

    # ----- views --------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: the open card, the cards each seat holds, the gates built."""
        sl = gates_slice(state)
        return {
            "open": sl.open,
            "held": [list(h) for h in sl.held],
            "used": list(sl.used),
            "gates": [{"seat": s, "x": x, "y": y, "side": d} for s, x, y, d in sl.gates],
            "gates_left": sum(1 for c in state.components.cards if c.module == self.id) - len(sl.used),
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        return CityGatesState.from_dict(
            {
                "open": module_view["open"],
                "held": module_view["held"],
                "used": module_view["used"],
                "gates": [[g["seat"], g["x"], g["y"], g["side"]] for g in module_view["gates"]],
            }
        )

    def slice_to_json(self, value: Any) -> Any:
        """The slice's ``to_dict``."""
        assert isinstance(value, CityGatesState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`CityGatesState`."""
        return CityGatesState.from_dict(data)


BOT_CARD_VALUE: Final = 0.8
"""Bot estimate: points a held city-gate card is worth (one more place for a tile)."""

MODULE: Final = CityGates()
