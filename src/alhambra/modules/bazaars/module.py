"""The Bazaars: eight extra tiles in the bag, bought beside the market, scored only at the end.

Flow (all through the plug-in hooks of protocol 2):

* ``extra_tiles`` declares the eight bazaars (kind ``"bazaar"``, price 0, no walls,
  ``in_bag=True``): the core shuffles them into the bag with the building tiles.
* ``tile_drawn``: a bazaar drawn while the market is being refilled is laid out beside the
  market (the module's slice, :class:`BazaarsState`, public) and the core draws on until every
  square holds a building. Tiles the neutral player receives from the bag are no refill, so a
  bazaar among them simply stays with the neutral player.
* ``offers``: every bazaar beside the market can be bought (``buy Zg1 g7``) for the price of the
  tile on the market square of its currency, with exact money only (another action follows);
  not while that square is empty. The vizier may buy it too (``out_of_turn``). The bought
  bazaar joins the turn's bought tiles and is placed like any building.
* ``round_points`` in scoring round 3: per bazaar in an Alhambra, (neighbouring buildings of
  its colours, diagonals included) x (how many of its colours they show).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from ... import city as geo
from ...components import CURRENCIES, CURRENCY_NAMES, KINDS, ComponentSet, TileType, letters_to_walls
from ...events import Event
from ...hooks import Module, Offer
from ...slices import ModuleState
from ...state import STAGE_FINAL, ChooseAction, GameConfig, GameState, PlaceTiles

MODULE_ID: Final = "bazaars"
BAZAAR_KIND: Final = "bazaar"
"""``TileType.kind`` of a bazaar (not one of the six building kinds: it counts for no majority)."""

NEIGHBOURS: Final = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))
"""The 8 places around a tile (diagonals included), as (dx, dy)."""

SCORING_ROUND: Final = 3
"""Bazaars score only in the third (final) scoring round."""


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class BazaarType:
    """One bazaar tile: its code, the currency on its coin and its three building kinds."""

    code: str
    currency: int
    kinds: tuple[str, ...]
    assumed: bool
    """True when the tile is not known and its facts are our assumption (components.json)."""

    def describe(self) -> str:
        """``bazaar Zg1 (dirham; seraglio, arcades, garden)``."""
        return f"bazaar {self.code} ({CURRENCY_NAMES[CURRENCIES[self.currency]]}; {', '.join(self.kinds)})"


@dataclass(frozen=True, slots=True)
class BazaarData:
    """The module's data file, read once."""

    bazaars: tuple[BazaarType, ...]
    walls: int
    colours: dict[str, str]
    """Colour on the tile -> building kind."""


@cache
def data() -> BazaarData:
    """Read ``components.json`` (colours of the kinds, the eight bazaars, their walls)."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    colours: dict[str, str] = dict(raw["colours"])
    if sorted(colours.values()) != sorted(KINDS):
        raise ValueError("bazaars: the colour table must name each building kind once")
    out: list[BazaarType] = []
    for b in raw["bazaars"]:
        kinds = tuple(colours[c] for c in b["colours"])
        code = str(b["code"])
        if len(set(kinds)) != 3:
            raise ValueError(f"bazaar {code}: three different colours are needed")
        if not re.fullmatch(r"Z[a-z0-9]+", code):
            raise ValueError(f"bazaar {code}: a code is 'Z' + lower-case letters or digits")
        out.append(BazaarType(code, CURRENCIES.index(b["currency"]), kinds, "assumption" in b))
    if len({b.code for b in out}) != len(out):
        raise ValueError("bazaars: two bazaars share a code")
    return BazaarData(tuple(out), letters_to_walls(raw.get("walls", "")), colours)


def bazaar_types() -> tuple[BazaarType, ...]:
    """The eight bazaars of the data file."""
    return data().bazaars


BY_CODE: Final = {b.code: b for b in bazaar_types()}
"""Each bazaar by tile code."""


@dataclass(frozen=True, slots=True)
class _Tables:
    """Facts of one game's components: the bazaar of every tile id (None for other tiles) and
    how many tiles the bag held at the start (buildings and bazaars)."""

    comp: ComponentSet
    bazaars: tuple[BazaarType | None, ...]
    bag_tiles: int


_TABLES: dict[int, _Tables] = {}


def _tables(comp: ComponentSet) -> _Tables:
    got = _TABLES.get(id(comp))
    if got is None or got.comp is not comp:
        bazaars = tuple(BY_CODE.get(t.code) if t.module == MODULE_ID else None for t in comp.tiles)
        bag = sum(1 for t in comp.tiles if t.in_bag or (t.module is None and t.kind in KINDS))
        got = _TABLES[id(comp)] = _Tables(comp, bazaars, max(1, bag))
    return got


def by_tile(comp: ComponentSet) -> tuple[BazaarType | None, ...]:
    """For every tile id of a game: its bazaar, or None for any other tile (cached per game's components)."""
    return _tables(comp).bazaars


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class BazaarsState(ModuleState):
    """The module's state slice: the bazaars lying beside the market (tile codes, in the order
    they were drawn). Public; JSON form from :class:`~alhambra.slices.ModuleState`."""

    module = MODULE_ID
    beside: tuple[str, ...] = ()

    def check(self) -> None:
        """Known bazaars, each once."""
        if not all(c in BY_CODE for c in self.beside) or len(set(self.beside)) != len(self.beside):
            raise ValueError(f"bad bazaars beside the market: {list(self.beside)}")


# ---------------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class BazaarDrawn(Event):
    """A bazaar came out of the bag while the market was refilled: it lies beside the market."""

    tile: str
    currency: str
    kinds: tuple[str, ...]

    def describe(self) -> str:
        return f"bazaar {self.tile} ({CURRENCY_NAMES[self.currency]}; {', '.join(self.kinds)}) is laid out beside the market"


# ---------------------------------------------------------------------------------- scoring
@dataclass(frozen=True, slots=True)
class BazaarScore:
    """How one bazaar in an Alhambra scores now."""

    tile: str
    x: int
    y: int
    matching: int
    """Neighbouring buildings (8 around, diagonals included) of one of its kinds."""
    kinds: tuple[str, ...]
    """Its kinds present among those neighbours."""

    @property
    def points(self) -> int:
        """``matching`` x number of ``kinds``."""
        return self.matching * len(self.kinds)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the view."""
        return {"tile": self.tile, "x": self.x, "y": self.y, "matching": self.matching, "kinds": list(self.kinds), "points": self.points}


def score_bazaar(comp: ComponentSet, city: dict[int, int], position: int, bazaar: BazaarType) -> BazaarScore:
    """Score one bazaar at ``position`` of an Alhambra (walls do not matter; the fountain,
    bazaars and any tile that is not of one of the bazaar's building kinds count nothing)."""
    x, y = geo.xy(position)
    tiles = comp.tiles
    matching = 0
    present: set[str] = set()
    for dx, dy in NEIGHBOURS:
        t = city.get(geo.pos(x + dx, y + dy))
        if t is None:
            continue
        k = tiles[t].kind
        if k in bazaar.kinds:
            matching += 1
            present.add(k)
    return BazaarScore(bazaar.code, x, y, matching, tuple(k for k in bazaar.kinds if k in present))


def seat_bazaars(state: GameState, seat: int) -> list[BazaarScore]:
    """Every bazaar in ``seat``'s Alhambra with its score now (sorted by position)."""
    comp = state.components
    kinds = by_tile(comp)
    city = state.players[seat].city
    out: list[BazaarScore] = []
    for q in sorted(city):
        b = kinds[city[q]]
        if b is not None:
            out.append(score_bazaar(comp, city, q, b))
    return out


def seat_points(state: GameState, seat: int) -> int:
    """What ``seat``'s bazaars would score in the final scoring now."""
    return sum(s.points for s in seat_bazaars(state, seat))


# ---------------------------------------------------------------------------------- bots
WAITING_VALUE: Final = 5.0
"""Bot estimate (points) of a bazaar bought and waiting to be placed."""
RESERVE_VALUE: Final = 1.5
"""Bot estimate of a bazaar on the reserve board (it scores only once built)."""
GROWTH: Final = 0.4
"""Bot estimate: expected matching buildings per empty neighbouring place, at a full bag."""
BUY_SHARE: Final = 0.3
"""Share of ``WAITING_VALUE`` credited to a seat that can pay a bazaar beside the market exactly.

These four were set by a few greedy-against-greedy matches (2 players, 60 games each): the
values here won 56% against (waiting 3.5, reserve 1.0, growth 0.3), mean margin +6.7, and 57.5%
against no bazaar values at all (+3.0)."""


def _estimate(comp: ComponentSet, city: dict[int, int], q: int, bazaar: BazaarType, bag_share: float) -> float:
    """Expected final points of a built bazaar: its points now, plus the matching buildings its
    empty neighbouring places may still receive (fewer as the bag empties)."""
    now = score_bazaar(comp, city, q, bazaar)
    x, y = geo.xy(q)
    empty = sum(1 for dx, dy in NEIGHBOURS if geo.pos(x + dx, y + dy) not in city)
    more = empty * bag_share * GROWTH
    k = len(now.kinds)
    return (now.matching + more) * (k + min(3 - k, more) * (3 - k) / 3)


def _exact(values: list[int], price: int) -> bool:
    """Can some of these card values add up to exactly ``price``? (subset sum)"""
    if price <= 0:
        return False
    reach = 1
    mask = (1 << (price + 1)) - 1
    for v in values:
        reach |= (reach << v) & mask
    return bool(reach >> price & 1)


# ---------------------------------------------------------------------------------- module
def price_of(state: GameState, bazaar: BazaarType) -> int | None:
    """The price of a bazaar now: the price of the tile on the market square of its currency,
    or None when that square is empty (the bazaar cannot be bought now)."""
    for sq, cur in enumerate(state.market_currency):
        if cur == bazaar.currency:
            t = state.market[sq]
            return state.components.tile_price[t] if t >= 0 else None
    return None


class Bazaars(Module):
    """The Bazaars."""

    id = MODULE_ID
    state_type = BazaarsState
    title = "The Bazaars"
    summary = "Bazaars from the bag sell beside the market and score their colourful neighbours."
    description = (
        "Eight bazaars are shuffled into the tile bag. A bazaar drawn for the market is laid out beside it and costs, "
        "in exact money, what the building on the square of its currency costs. At the end, each bazaar scores its "
        "neighbouring buildings (diagonals too) of its three colours, times the number of those colours present."
    )
    assumptions = (
        "Bazaars drawn for the neutral player (2 players: at setup and after the scoring rounds; no market refill) stay "
        "with the neutral player and count for nothing; a bought bazaar may also be given to the neutral player.",
        "A bazaar costs the price of the tile on the market square of its currency at the moment it is bought; while that "
        "square is empty it cannot be bought. Several bazaars of one currency cost the same.",
        "Buying a bazaar is a purchase (a turn action, 'buy Zg1 g7'); only exact money is accepted, so another action "
        "always follows. With a currency exchange card the money cards must add up to exactly the price.",
        "A bought bazaar waits with the turn's other bought tiles and is placed at the end of the action phase, into the "
        "Alhambra under the building rules or onto the reserve board.",
        "The vizier may buy a bazaar (exact money, same price); it is placed at once, like any vizier purchase.",
        "Neighbours are the 8 places around a bazaar. A neighbour counts when it is a building of one of the bazaar's "
        "three kinds; the fountain, other bazaars and any tile that is not one of the six building kinds count nothing.",
        "A bazaar is no building kind: it counts for no majority. Bazaars on the reserve board score nothing.",
        "Bazaars score only in the final (third) scoring; a game stopped by a turn limit scores none.",
        "Bazaars still beside the market at the end are not handed out.",
    )
    component_assumptions = (
        "Only one bazaar is known (dirham, with red, brown and green: seraglio, arcades, garden); the other seven are "
        "assumed in components.json: two per currency whose colours together are all six, each showing one of "
        "blue/red, one of brown/white and one of green/purple, so each colour is on four bazaars.",
        "The walls on the bazaar tiles are unknown: we assume bazaars have no walls.",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_tiles(self, config: GameConfig) -> list[TileType]:
        """The eight bazaars (kind ``bazaar``, price 0), shuffled into the bag by the core."""
        walls = data().walls
        return [TileType(b.code, BAZAAR_KIND, 0, walls, module=self.id, in_bag=True) for b in bazaar_types()]

    def notation_items(self, config: GameConfig) -> list[str]:
        """The bazaars' codes: the items of ``buy ITEM CARDS`` and ``vizier buy ITEM CARDS``."""
        return [b.code for b in bazaar_types()]

    def setup(self, state: GameState, rng: random.Random) -> None:
        """No bazaar lies beside the market yet (the core fills the market after this)."""
        state.mods[self.id] = BazaarsState()

    # ----- draws --------------------------------------------------------------------------
    def tile_drawn(self, state: GameState, tile: int, events: list[Event]) -> bool:
        """A bazaar drawn for the market is laid out beside it; the core draws another tile."""
        b = by_tile(state.components)[tile]
        if b is None:
            return False
        sl = BazaarsState.of(state)
        state.mods[self.id] = BazaarsState((*sl.beside, b.code))
        events.append(BazaarDrawn(b.code, CURRENCIES[b.currency], b.kinds))
        return True

    # ----- purchases ----------------------------------------------------------------------
    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        """Every bazaar beside the market whose currency's square holds a tile (exact money only)."""
        out: list[Offer] = []
        tile_ids = state.components.tile_ids
        for code in BazaarsState.of(state).beside:
            b = BY_CODE[code]
            price = price_of(state, b)
            if price is None:
                continue
            out.append(
                Offer(
                    item=code,
                    module=self.id,
                    price=price,
                    ways=(frozenset((b.currency,)),),
                    exact_only=True,
                    again_if_exact=True,
                    tile=tile_ids[code],
                    out_of_turn=True,
                    label=b.describe(),
                )
            )
        return out

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        """The bazaar leaves its place beside the market (the core adds it to the bought tiles)."""
        sl = BazaarsState.of(state)
        state.mods[self.id] = BazaarsState(tuple(c for c in sl.beside if c != offer.item))

    # ----- scoring --------------------------------------------------------------------------
    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """Round 3 only: each seat's bazaar points."""
        if round_no != SCORING_ROUND:
            return None
        return [seat_points(state, s) for s in range(state.config.players)]

    # ----- bots -------------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Expected final bazaar points per seat: built bazaars (points now plus a share for
        empty neighbouring places), bazaars waiting to be placed or on the reserve board (fixed
        estimates), and a share for a bazaar beside the market the seat could pay exactly."""
        n = state.config.players
        if state.rounds_scored >= SCORING_ROUND:
            return None
        comp = state.components
        tables = _tables(comp)
        kinds = tables.bazaars
        out = [0.0] * n
        bag_share = len(state.bag) / tables.bag_tiles
        for s in range(n):
            p = state.players[s]
            city = p.city
            for q, t in city.items():
                b = kinds[t]
                if b is not None:
                    out[s] += _estimate(comp, city, q, b, bag_share)
            for t in p.reserve:
                if kinds[t] is not None:
                    out[s] += RESERVE_VALUE
        for top in state.pending:
            codes = top.bought if isinstance(top, ChooseAction) else top.tiles if isinstance(top, PlaceTiles) else ()
            for code in codes:
                if code in BY_CODE:
                    out[top.seat] += WAITING_VALUE
        beside = BazaarsState.of(state).beside
        if beside and state.stage != STAGE_FINAL:
            prices = [(BY_CODE[c].currency, price_of(state, BY_CODE[c])) for c in beside]
            cv = comp.card_value
            cc = comp.card_currency
            cm = comp.card_is_money
            for s in range(n):
                by_cur: list[list[int]] = [[], [], [], []]
                for c in state.players[s].hand:
                    if cm[c] and 0 <= cc[c] < 4:
                        by_cur[cc[c]].append(cv[c])
                if any(pr is not None and _exact(by_cur[cur], pr) for cur, pr in prices):
                    out[s] += BUY_SHARE * WAITING_VALUE
        return out

    # ----- accounting, views, persistence -----------------------------------------------------
    def held_tiles(self, state: GameState) -> list[int]:
        """The bazaars lying beside the market."""
        ids = state.components.tile_ids
        return [ids[c] for c in BazaarsState.of(state).beside]

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: every bazaar's currency and kinds, the bazaars beside the market with their
        current price (None: cannot be bought now), and how every built bazaar would score now."""
        beside = []
        for code in BazaarsState.of(state).beside:
            b = BY_CODE[code]
            beside.append({"tile": code, "currency": CURRENCIES[b.currency], "kinds": list(b.kinds), "price": price_of(state, b)})
        built = [[s.to_dict() for s in seat_bazaars(state, seat)] for seat in range(state.config.players)]
        return {
            "bazaars": {b.code: {"currency": CURRENCIES[b.currency], "kinds": list(b.kinds), "assumed": b.assumed} for b in bazaar_types()},
            "beside_market": beside,
            "built": built,
            "points": [sum(s["points"] for s in row) for row in built],
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public: the bazaars beside the market."""
        return BazaarsState(tuple(str(e["tile"]) for e in module_view["beside_market"]))


MODULE: Final = Bazaars()
"""The Bazaars (Big Box module ``bazaars``): see ``README.md``."""
