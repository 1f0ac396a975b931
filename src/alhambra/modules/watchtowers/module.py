"""Watchtowers: 18 right-angled triangles, 3 per colour, bought with a base building (+6/+4/+2 by
the scoring rounds done), placed in a diagonal half of a place with a short edge against a
building of their colour; the long edge is a city wall worth 1 in the longest wall, +2 per
watchtower in the longest wall.

Geometry (our reading, see README): a watchtower occupies its place C in ``PlayerState.city``;
its half is set as its effective walls (``engine.set_walls``): the two short sides open, the two
sides facing the empty half walled. The two places beyond the empty half stay empty for good, so
the core's building rules come out right (paths run through the two open sides). Only the wall
score differs: ``wall_points`` replaces the two walls around the empty half by the diagonal.

Flow (plug-in hooks):

* ``offers`` (``tw1``-``tw4``): a base building on a market square together with a watchtower of
  its colour, at the tile's price + 6/4/2 in the square's currency; ``offer_bought`` takes the
  tile off its square (the core adds it to the turn's tiles); ``purchase_made`` adds the
  watchtower to the waiting tiles.
* ``place_actions``: ``watchtower place CODE X,Y HALF`` for every legal place and half, or
  ``watchtower return CODE`` when there is none (it goes back to the supply, unpaid back);
  ``target_problem``: never the reserve board nor the neutral player.
* ``placement_problem``, ``removal_problem``: the places beyond an empty half stay empty; a
  watchtower never moves; a building leaves only if every watchtower keeps one of its colour.
* ``wall_points``: the longest wall with the diagonals, most watchtowers among equal lengths.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from ... import city as geo
from ...actions import Action, parse_tile, register_action
from ...components import EAST, KIND_LETTERS, KINDS, NORTH, SIDE_DELTAS, SIDES, SOUTH, WEST, ComponentSet, TileType
from ...engine.services import place_waiting, set_walls
from ...errors import IllegalAction, IllegalPlacement, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module, Offer, Purchase, hook_users
from ...state import ChooseAction, GameConfig, GameState, PlaceTiles

MODULE_ID: Final = "watchtowers"
TOWER_KIND: Final = "watchtower"
ITEM_PREFIX: Final = "tw"
HALVES: Final = ("ne", "nw", "se", "sw")
"""A watchtower's half, named by the corner of its right angle (its two short edges)."""
SHORT: Final = {"ne": NORTH | EAST, "nw": NORTH | WEST, "se": SOUTH | EAST, "sw": SOUTH | WEST}
"""The short (open) sides of each half; the other two sides face the empty half."""


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class TowersData:
    """The module's data file, read once."""

    per_colour: int
    surcharge: tuple[int, int, int]
    wall_bonus: int


@cache
def data() -> TowersData:
    """Read ``components.json`` and check it."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    s = tuple(int(v) for v in raw["surcharge"])
    if len(s) != 3 or raw.get("kind") != TOWER_KIND:
        raise ValueError("watchtowers: three surcharges (before round 1, before round 2, after round 2) and kind 'watchtower'")
    return TowersData(int(raw["per_colour"]), (s[0], s[1], s[2]), int(raw["wall_bonus"]))


def tower_code(kind: str, number: int) -> str:
    """``Wg1``: ``W``, the kind's letter in lower case, 1-3."""
    return f"W{KIND_LETTERS[KINDS.index(kind)].lower()}{number}"


COLOUR: Final = {tower_code(k, i + 1): k for k in KINDS for i in range(data().per_colour)}
"""Each watchtower's colour (building kind), by code."""


def tower_tiles() -> list[TileType]:
    """The 18 watchtowers (kind ``watchtower``, no walls until placed, beside the construction yard)."""
    return [TileType(code, TOWER_KIND, 0, 0, module=MODULE_ID) for code in COLOUR]


def _step(side: int) -> int:
    return geo.pos(*SIDE_DELTAS[side]) - geo.ORIGIN


def beyond(q: int, half: str) -> tuple[int, int]:
    """The two places beyond the empty half of a watchtower on ``q`` (they stay empty)."""
    a, b = (s for s in SIDES if not SHORT[half] & s)
    return q + _step(a), q + _step(b)


def diagonal(x: int, y: int, half: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The long edge of a watchtower on place x, y as two lattice corners (sorted)."""
    if half in ("sw", "ne"):
        return (x, y), (x + 1, y + 1)
    return (x, y + 1), (x + 1, y)


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class TowersState:
    """The module's slice (public): per colour (``KINDS`` order) the watchtowers in the supply;
    per seat the placed ones ``(x, y, code, half)`` sorted."""

    supply: tuple[tuple[str, ...], ...]
    placed: tuple[tuple[tuple[int, int, str, str], ...], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "supply": {k: list(s) for k, s in zip(KINDS, self.supply, strict=True)},
            "placed": [[{"x": x, "y": y, "tower": c, "half": h} for x, y, c, h in row] for row in self.placed],
        }

    @classmethod
    def from_dict(cls, raw: Any) -> TowersState:
        """Read the JSON form back (a :class:`NotationError` on junk)."""
        try:
            supply = tuple(tuple(sorted(str(c) for c in raw["supply"][k])) for k in KINDS)
            placed = tuple(tuple(sorted((int(e["x"]), int(e["y"]), str(e["tower"]), str(e["half"])) for e in row)) for row in raw["placed"])
        except (TypeError, KeyError, ValueError) as e:
            raise NotationError(f"bad watchtowers state {raw!r}") from e
        codes = [c for s in supply for c in s] + [c for row in placed for _, _, c, _ in row]
        if any(c not in COLOUR for c in codes) or len(set(codes)) != len(codes):
            raise NotationError(f"bad watchtowers state {raw!r}: unknown or repeated watchtowers")
        if any(COLOUR[c] != k for k, s in zip(KINDS, supply, strict=True) for c in s) or any(
            h not in HALVES for row in placed for *_, h in row
        ):
            raise NotationError(f"bad watchtowers state {raw!r}")
        return cls(supply, placed)


def towers(state: GameState) -> TowersState:
    """The module's slice of a game."""
    value = state.mods[MODULE_ID]
    assert isinstance(value, TowersState)
    return value


@dataclass(frozen=True, slots=True)
class _Tables:
    comp: ComponentSet
    tower: tuple[bool, ...]
    base: tuple[bool, ...]
    """A building of the base game (kind in ``KINDS``, no module)."""


_TABLES: dict[int, _Tables] = {}


def tables(comp: ComponentSet) -> _Tables:
    """Per-components lookups (cached)."""
    got = _TABLES.get(id(comp))
    if got is None or got.comp is not comp:
        got = _TABLES[id(comp)] = _Tables(
            comp, tuple(t.kind == TOWER_KIND for t in comp.tiles), tuple(t.kind in KINDS and t.module is None for t in comp.tiles)
        )
    return got


# ---------------------------------------------------------------------------------- rules
RULES: Final = {
    "not_core": "a watchtower is placed with its half chosen ('watchtower place'), never as a building",
    "long_edge": "no tile may be placed against a watchtower's long edge: the places beyond it stay empty",
    "colour": "a short edge of the watchtower must touch a building tile of its colour",
    "never_moved": "watchtowers cannot be rebuilt",
    "keeps_colour": "a watchtower next to it would no longer touch a building of its colour",
}


def _blocked(state: GameState, seat: int) -> set[int]:
    """The places beyond the empty halves of ``seat``'s watchtowers."""
    out: set[int] = set()
    for x, y, _, h in towers(state).placed[seat]:
        out.update(beyond(geo.pos(x, y), h))
    return out


def _supported(cells: Mapping[int, int], comp: ComponentSet, q: int, half: str, colour: str) -> bool:
    """Whether a watchtower of ``colour`` on ``q`` has a short edge against a building of its colour."""
    kinds = comp.tiles
    for side in SIDES:
        if SHORT[half] & side:
            t = cells.get(q + _step(side))
            if t is not None and kinds[t].kind == colour:
                return True
    return False


def tower_problem(state: GameState, seat: int, tile: int, q: int, half: str, mods: Sequence[Module] = ()) -> str | None:
    """The first rule a watchtower ``tile`` on ``q`` in ``half`` breaks (a readable reason), or None."""
    p = state.players[seat]
    cells = p.city
    if q in cells:
        return geo.RULE_MESSAGES["occupied"]
    if q in _blocked(state, seat):
        return RULES["long_edge"]
    if any(b in cells for b in beyond(q, half)):
        return RULES["long_edge"]
    comp = state.components
    if not _supported(cells, comp, q, half, COLOUR[comp.tile_code[tile]]):
        return RULES["colour"]
    walls = 15 ^ SHORT[half]
    rule = geo.placement_problem(cells, state.walls, walls, q)
    if rule is not None:
        return geo.RULE_MESSAGES[rule]
    for m in mods:
        why = m.placement_problem(state, seat, tile, q)
        if why is not None:
            return why
    return None


def tower_spots(state: GameState, seat: int, tile: int) -> list[tuple[int, int, str]]:
    """Every (x, y, half) where ``seat`` may place the watchtower ``tile`` now."""
    mods = [m for m in hook_users(state.config, "placement_problem") if m.id != MODULE_ID]
    out = []
    for q in geo.frontier(state.players[seat].city):
        for h in HALVES:
            if tower_problem(state, seat, tile, q, h, mods) is None:
                out.append((*geo.xy(q), h))
    return out


# ---------------------------------------------------------------------------------- walls
def tower_wall(cells: Mapping[int, int], walls: Sequence[int], placed: Sequence[tuple[int, int, str, str]]) -> tuple[int, int]:
    """The longest outer wall with the watchtowers' diagonals: (length, watchtowers in it), the
    trail with most watchtowers among the longest ones."""
    segs = geo.outer_wall_segments(cells, walls)
    fake: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    edges: list[tuple[tuple[int, int], tuple[int, int], int]] = []
    for x, y, _, h in placed:
        for s in SIDES:
            if SHORT[h] & s:
                continue
            if s == NORTH:
                fake.add(((x, y), (x + 1, y)))
            elif s == EAST:
                fake.add(((x + 1, y), (x + 1, y + 1)))
            elif s == SOUTH:
                fake.add(((x, y + 1), (x + 1, y + 1)))
            elif s == WEST:
                fake.add(((x, y), (x, y + 1)))
        a, b = diagonal(x, y, h)
        edges.append((a, b, 1))
    edges += [(a, b, 0) for a, b in segs if (a, b) not in fake]
    adj: dict[tuple[int, int], list[tuple[int, tuple[int, int], int]]] = {}
    for i, (a, b, tw) in enumerate(edges):
        adj.setdefault(a, []).append((i, b, tw))
        adj.setdefault(b, []).append((i, a, tw))
    best = (0, 0)
    used = [False] * len(edges)

    def dfs(v: tuple[int, int], length: int, tws: int) -> None:
        nonlocal best
        if (length, tws) > best:
            best = (length, tws)
        for i, w, tw in adj[v]:
            if not used[i]:
                used[i] = True
                dfs(w, length + 1, tws + tw)
                used[i] = False

    # A longest trail cannot be made longer at either end: it starts at a vertex of odd degree,
    # or it is closed (every degree of its component even: an Euler circuit, from any vertex).
    seen: set[tuple[int, int]] = set()
    for v in adj:
        if v in seen:
            continue
        comp = [v]
        seen.add(v)
        k = 0
        while k < len(comp):
            for _, w, _ in adj[comp[k]]:
                if w not in seen:
                    seen.add(w)
                    comp.append(w)
            k += 1
        odd = [u for u in comp if len(adj[u]) % 2]
        for u in odd or comp[:1]:
            dfs(u, 0, 0)
    return best


def tower_wall_points(state: GameState, seat: int) -> int:
    """What ``seat``'s walls score with the watchtowers: length + 2 per watchtower in the wall."""
    length, tws = tower_wall(state.players[seat].city, state.walls, towers(state).placed[seat])
    return length + data().wall_bonus * tws


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class PlaceTower(Action):
    """Place a waiting watchtower in a half of a place (``watchtower place Wg1 2,-1 sw``)."""

    module = MODULE_ID
    keyword = "watchtower place"
    grammar = ("tile", "cell", "word:ne|nw|se|sw")
    tile: str
    target: tuple[int, int]
    half: str


@dataclass(frozen=True, slots=True)
class ReturnTower(Action):
    """A waiting watchtower with no legal place goes back to the supply (``watchtower return Wg1``)."""

    module = MODULE_ID
    keyword = "watchtower return"
    grammar = ("tile",)
    tile: str


def _tower_word(word: str) -> str:
    """The code in any case, as the core reads tile codes (``l3N`` is ``L3n``)."""
    word = parse_tile(word)
    if word not in COLOUR:
        raise NotationError(f"{word!r} is not a watchtower (Wp1 ... Wt3)")
    return word


register_action(PlaceTower, tile=_tower_word)
register_action(ReturnTower, tile=_tower_word)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


_HALF_WORDS: Final = {"ne": "north-east", "nw": "north-west", "se": "south-east", "sw": "south-west"}


@dataclass(frozen=True, slots=True)
class TowerBought(Event):
    """``seat`` bought the watchtower ``tower`` with a building."""

    seat: int
    tower: str

    def describe(self) -> str:
        return f"{_p(self.seat)} buys a {COLOUR[self.tower]} watchtower with the building"


@dataclass(frozen=True, slots=True)
class TowerPlaced(Event):
    """``seat`` placed ``tower`` in the ``half`` of place ``x, y``."""

    seat: int
    tower: str
    x: int
    y: int
    half: str

    def describe(self) -> str:
        return f"{_p(self.seat)} places the {COLOUR[self.tower]} watchtower in the {_HALF_WORDS[self.half]} half at {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class TowerReturned(Event):
    """``seat``'s waiting watchtower had no legal place: back to the supply."""

    seat: int
    tower: str

    def describe(self) -> str:
        return f"{_p(self.seat)}'s {COLOUR[self.tower]} watchtower has no place and goes back to the supply"


# ---------------------------------------------------------------------------------- module
BOT_ROUND_SHARE: Final = (1.6, 1.3, 1.0)
"""Bot estimate: scoring rounds the watchtowers' wall points now are still worth, by rounds scored."""
BOT_WAITING: Final = 2.0
"""Bot estimate (points) of a watchtower waiting to be placed next to a building of its colour."""


class Watchtowers(Module):
    """Watchtowers."""

    id = MODULE_ID
    title = "Watchtowers"
    summary = "Half-place watchtowers link buildings and lengthen your longest wall."
    description = (
        "With a building bought from the market, buy a triangular watchtower of its colour (+6/+4/+2). It fills half a "
        "place diagonally, links the buildings at its short edges, and its walled long edge counts in the longest wall, "
        "+2 for each watchtower in it."
    )
    assumptions = (
        "Geometry: a watchtower fills the diagonal half of a place; the two places beyond its empty half stay empty for "
        "good (the strictest reading of 'no tile can be placed adjacent to a watchtower's long edge').",
        "A watchtower is bought only on a turn (not with a vizier), with a building of the base game from the market.",
        "A watchtower that cannot be placed anywhere when the turn's tiles are placed goes back to the supply; its price is not refunded.",
        "A building next to a watchtower is exchanged in a redesign only if the watchtower keeps another building of its "
        "colour (the redesign veto does not see the tile that comes in).",
    )
    component_assumptions = ("The size of a watchtower relative to the grid: each short edge one tile edge long (a half place).",)

    # ----- components and setup ---------------------------------------------------------
    def extra_tiles(self, config: GameConfig) -> list[TileType]:
        """The 18 watchtowers."""
        return tower_tiles()

    def setup(self, state: GameState, rng: random.Random) -> None:
        """All watchtowers beside the construction yard, sorted by colour."""
        supply = tuple(tuple(c for c in COLOUR if COLOUR[c] == k) for k in KINDS)
        state.mods[self.id] = TowersState(supply, tuple(() for _ in range(state.config.players)))

    def held_tiles(self, state: GameState) -> list[int]:
        """The watchtowers in the supply."""
        ids = state.components.tile_ids
        return [ids[c] for s in towers(state).supply for c in s]

    def notation_items(self, config: GameConfig) -> list[str]:
        """``tw1``-``tw4``."""
        return [f"{ITEM_PREFIX}{i}" for i in range(1, 5)]

    # ----- buying -----------------------------------------------------------------------
    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        """A base building of the market with a watchtower of its colour, + the surcharge."""
        if out_of_turn:
            return []
        sl = towers(state)
        comp = state.components
        base = tables(comp).base
        extra = data().surcharge[min(state.rounds_scored, 2)]
        out: list[Offer] = []
        for sq, t in enumerate(state.market):
            if t < 0 or not base[t] or not sl.supply[KINDS.index(comp.tiles[t].kind)]:
                continue
            out.append(
                Offer(
                    item=f"{ITEM_PREFIX}{sq + 1}",
                    module=self.id,
                    price=comp.tile_price[t] + extra,
                    ways=(frozenset((state.market_currency[sq],)),),
                    tile=t,
                    label=f"{comp.tile_code[t]} with a {comp.tiles[t].kind} watchtower (square {sq + 1})",
                )
            )
        return out

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        """The building leaves its square (the core adds it to the turn's tiles)."""
        sq = int(offer.item[len(ITEM_PREFIX) :])
        assert state.market[sq - 1] == offer.tile
        state.market[sq - 1] = -1

    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        """After a building + watchtower purchase: the watchtower joins the waiting tiles."""
        offer = purchase.offer
        if offer is None or offer.module != self.id:
            return
        sl = towers(state)
        kind = state.components.tiles[offer.tile].kind
        i = KINDS.index(kind)
        code = sl.supply[i][0]
        supply = list(sl.supply)
        supply[i] = sl.supply[i][1:]
        state.mods[self.id] = TowersState(tuple(supply), sl.placed)
        # the turn's bought tiles: in its ChooseAction (another action after an exact payment) or
        # the PlaceTiles that followed it, under any decision another module pushed since
        for i in range(len(state.pending) - 1, -1, -1):
            p = state.pending[i]
            if isinstance(p, ChooseAction) and p.seat == purchase.seat:
                state.pending[i] = ChooseAction(p.seat, p.actions, (*p.bought, code))
                break
            if isinstance(p, PlaceTiles) and p.seat == purchase.seat:
                state.pending[i] = PlaceTiles(p.seat, (*p.tiles, code), p.neutral, p.reason)
                break
        else:
            raise AssertionError("a watchtower was bought with no turn to add it to")
        events.append(TowerBought(purchase.seat, code))

    # ----- placing ----------------------------------------------------------------------
    def place_actions(self, state: GameState, pending: PlaceTiles) -> list[Action]:
        """Each waiting watchtower: every legal place and half, or back to the supply when none."""
        out: list[Action] = []
        ids = state.components.tile_ids
        others = any(c not in COLOUR for c in pending.tiles)
        for code in sorted({c for c in pending.tiles if c in COLOUR}):
            spots = tower_spots(state, pending.seat, ids[code])
            if spots:
                out += [PlaceTower(code, (x, y), h) for x, y, h in spots]
            elif not others:
                out.append(ReturnTower(code))
        return out

    def layout_walls(self, tile: TileType) -> tuple[int, ...]:
        """On a real table a watchtower lies in any of the four halves: the walls it shows are the
        two sides facing its empty half (``alhambra score`` layouts give them as ``walls``)."""
        return tuple(15 ^ SHORT[h] for h in HALVES)

    def target_problem(self, state: GameState, seat: int, tile: int, target: str) -> str | None:
        """A watchtower never goes to the reserve board nor to the neutral player."""
        if tables(state.components).tower[tile]:
            return "watchtowers cannot be kept in reserve (nor given to the neutral player)"
        return None

    def placement_problem(self, state: GameState, seat: int, tile: int, position: int) -> str | None:
        """No watchtower through the core's placement; nothing beyond a watchtower's long edge;
        an exchange keeps every watchtower next to a building of its colour."""
        tab = tables(state.components)
        if tab.tower[tile]:
            return RULES["not_core"]
        placed = towers(state).placed[seat]
        if not placed:
            return None
        if position in _blocked(state, seat):
            return RULES["long_edge"]
        cells = state.players[seat].city
        if position in cells:
            trial = dict(cells)
            trial[position] = tile
            if not self._all_supported(state, seat, trial):
                return RULES["keeps_colour"]
        return None

    def removal_problem(self, state: GameState, seat: int, tile: int, position: int, incoming: int | None = None) -> str | None:
        """A watchtower never moves; a building leaves (or is exchanged for ``incoming``) only if
        every watchtower still touches a building of its colour "after rebuilding is complete"."""
        if tables(state.components).tower[tile]:
            return RULES["never_moved"]
        if not towers(state).placed[seat]:
            return None
        trial = {q: t for q, t in state.players[seat].city.items() if q != position}
        if incoming is not None:
            trial[position] = incoming
        return None if self._all_supported(state, seat, trial) else RULES["keeps_colour"]

    def _all_supported(self, state: GameState, seat: int, cells: Mapping[int, int]) -> bool:
        comp = state.components
        return all(_supported(cells, comp, geo.pos(x, y), h, COLOUR[c]) for x, y, c, h in towers(state).placed[seat])

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        if not isinstance(action, (PlaceTower, ReturnTower)):
            raise IllegalAction(f"{action} is not a watchtowers action")
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, PlaceTiles):
            raise WrongPhase("a watchtower is placed when the turn's tiles are placed")
        if action.tile not in top.tiles:
            raise IllegalAction(f"{action.tile} is not waiting to be placed")
        tile = state.components.tile_ids[action.tile]
        if isinstance(action, ReturnTower):
            if any(c not in COLOUR for c in top.tiles):
                raise IllegalAction("place the other waiting tiles first: the watchtower may find a place next to them")
            if tower_spots(state, top.seat, tile):
                raise IllegalAction(f"{action.tile} can be placed: only a watchtower with no place goes back")
            return
        x, y = action.target
        if not (-500 < x < 500 and -500 < y < 500):
            raise IllegalPlacement(f"{x},{y} is far outside any Alhambra", "adjacent")
        mods = [m for m in hook_users(state.config, "placement_problem") if m.id != MODULE_ID]
        why = tower_problem(state, top.seat, tile, geo.pos(x, y), action.half, mods)
        if why is not None:
            raise IllegalPlacement(f"the watchtower cannot go to {x},{y} ({action.half}): {why}", "watchtower")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Place it (its half becomes its walls) or send it back to the supply."""
        top = state.pending[-1]
        assert isinstance(top, PlaceTiles)
        seat = top.seat
        sl = towers(state)
        if isinstance(action, ReturnTower):
            place_waiting(state, action.tile, None, events)
            i = KINDS.index(COLOUR[action.tile])
            supply = list(sl.supply)
            supply[i] = tuple(sorted((*supply[i], action.tile)))
            state.mods[self.id] = TowersState(tuple(supply), sl.placed)
            events.append(TowerReturned(seat, action.tile))
            return
        assert isinstance(action, PlaceTower)
        set_walls(state, state.components.tile_ids[action.tile], 15 ^ SHORT[action.half])
        place_waiting(state, action.tile, action.target, events)
        placed = list(sl.placed)
        placed[seat] = tuple(sorted((*placed[seat], (*action.target, action.tile, action.half))))
        state.mods[self.id] = TowersState(sl.supply, tuple(placed))
        events.append(TowerPlaced(seat, action.tile, *action.target, action.half))

    # ----- scoring ----------------------------------------------------------------------
    def wall_points(self, state: GameState, seat: int, round_no: int, points: int) -> int:
        """With watchtowers: the longest wall with the diagonals, +2 per watchtower in it."""
        if seat < 0 or not towers(state).placed[seat]:
            return points
        return points - geo.longest_wall(state.players[seat].city, state.walls) + tower_wall_points(state, seat)

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """What the watchtowers add to each seat's wall points, for the rounds left; waiting ones a flat estimate."""
        if state.rounds_scored >= 3 or state.outcome is not None:
            return None
        share = BOT_ROUND_SHARE[state.rounds_scored]
        out = [0.0] * state.config.players
        sl = towers(state)
        for s in range(state.config.players):
            if sl.placed[s]:
                out[s] += share * (tower_wall_points(state, s) - geo.longest_wall(state.players[s].city, state.walls))
        kinds = state.components.tiles
        for top in state.pending:
            codes = top.bought if isinstance(top, ChooseAction) else top.tiles if isinstance(top, PlaceTiles) else ()
            if not any(c in COLOUR for c in codes):
                continue
            # a waiting watchtower is worth something only if it can stand next to a building of
            # its colour: one waiting with it, or a place now (a watchtower sent back is lost)
            ids = state.components.tile_ids
            waiting = {kinds[ids[c]].kind for c in codes if c not in COLOUR}
            for c in codes:
                if c in COLOUR and (COLOUR[c] in waiting or tower_spots(state, top.seat, ids[c])):
                    out[top.seat] += BOT_WAITING
        return out

    # ----- views ------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: the supply by colour, each seat's watchtowers (place, half, colour, the two
        places kept free), the surcharge now and each seat's wall points with them."""
        sl = towers(state)
        return {
            "supply": {k: list(s) for k, s in zip(KINDS, sl.supply, strict=True)},
            "placed": [
                [
                    {
                        "tower": c,
                        "x": x,
                        "y": y,
                        "half": h,
                        "colour": COLOUR[c],
                        "free": [list(geo.xy(b)) for b in beyond(geo.pos(x, y), h)],
                        "diagonal": [list(p) for p in diagonal(x, y, h)],
                    }
                    for x, y, c, h in row
                ]
                for row in sl.placed
            ],
            "surcharge": data().surcharge[min(state.rounds_scored, 2)],
            "wall": [list(tower_wall(state.players[s].city, state.walls, sl.placed[s])) for s in range(state.config.players)],
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        keys = ("x", "y", "tower", "half")
        placed = [[{k: e[k] for k in keys} for e in row] for row in module_view["placed"]]
        return TowersState.from_dict({"supply": module_view["supply"], "placed": placed})

    def slice_to_json(self, value: Any) -> Any:
        """The slice's ``to_dict``."""
        assert isinstance(value, TowersState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`TowersState`."""
        return TowersState.from_dict(data)


MODULE: Final = Watchtowers()
