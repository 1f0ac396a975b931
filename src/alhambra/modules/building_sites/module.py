"""Building Sites: buy a market tile for half its price as an unfinished building, complete it later.

Flow (all through the plug-in hooks of protocol 2):

* ``setup`` puts the 8 site tiles (2 per currency, ``components.json``) into a face-down stack;
  the slice (:class:`SitesState`) keeps the stack as a sorted multiset: its order is unknown to
  everybody, so each draw is a random draw from it (:func:`alhambra.engine.module_random`).
* ``offers``: on a turn (never out of turn: the vizier cannot), every market square holding a
  building tile (not a camp or a bazaar: a medina may) may be bought as a **building site** (``buy site2 CARDS``) for
  at least half its price, rounded down, in the square's currency. Such a purchase is never
  regarded as exact (``never_exact``: no extra action, and the event and the purchase record
  given to other modules say not exact). ``offer_bought`` takes the tile
  off its square (the core adds it to the turn's bought tiles) and records the site with its
  currency still open.
* ``purchase_made`` (after the action was closed, so the bought tile waits to be placed below):
  the buyer draws 2 site tiles in secret (:class:`SiteTilesDrawn`, redacted for the others) and
  must keep one (:class:`SiteChoice`, ``site keep CURRENCY``); the other is shuffled back. With
  one site tile left it is taken at once. Then the tile is placed as usual.
* ``building_counts``: a building under a site tile does not count for the majorities (its walls
  do: the core reads them from the tile).
* ``offers`` again: completing a site (``buy fin3 CARDS``) is a turn action paying the full price
  of the tile in the currency on the back of its site tile (exact: another action;
  ``Offer.building``). The site tile is revealed and leaves the game (:class:`SiteCompleted`).
* ``final_starting``: before the last market tiles are handed out, every site in an Alhambra is
  revealed and its owner discards all money cards of its currency (:class:`SiteRevealed`, whose
  ``payment`` lists the discarded cards, so the bots' card tracker follows). Sites on a reserve
  board are ignored.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any, ClassVar, Final

from ...actions import Action, register_action
from ...components import CURRENCIES, CURRENCY_LETTERS, CURRENCY_NAMES, KINDS
from ...engine.services import building_counts as core_building_counts, kind_points, module_draw, module_random
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module, Offer, Purchase, load_module
from ...slices import slice_reader
from ...state import ChooseAction, GameConfig, GameState, Pending, PlaceTiles

MODULE_ID: Final = "building_sites"
SETUP_PREFIX: Final = "site"
"""Item of a set-up offer: ``site`` + market square (``site2``)."""
COMPLETE_PREFIX: Final = "fin"
"""Item of a completion offer: ``fin`` + the site's number (``fin3``: the third site set up in the game)."""


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class Components:
    """The module's component facts, read from ``components.json``."""

    site_tiles: tuple[int, ...]
    """Every site tile as the currency on its back (sorted: 2 per currency)."""
    share: tuple[int, int]
    """A site costs at least ``price * share[0] // share[1]`` (half, rounded down)."""
    drawn: int
    """Site tiles drawn when a site is set up (2)."""


@cache
def components() -> Components:
    """The component facts of ``components.json`` (checked when read)."""
    data = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    tiles: list[int] = []
    for entry in data["site_tiles"]:
        if entry["currency"] not in CURRENCIES or int(entry["count"]) < 0:
            raise ValueError(f"building_sites/components.json: bad site tiles {entry!r}")
        tiles += [CURRENCIES.index(entry["currency"])] * int(entry["count"])
    num, den = (int(x) for x in data["setup_share"])
    drawn = int(data["drawn"])
    if not tiles or not 0 < num <= den or drawn < 1:
        raise ValueError("building_sites/components.json is inconsistent")
    return Components(tuple(sorted(tiles)), (num, den), drawn)


def setup_price(price: int) -> int:
    """The least a site on a tile of ``price`` costs: half, rounded down (at least 1)."""
    num, den = components().share
    return max(1, price * num // den)


def currency_name(currency: int) -> str:
    """``0`` -> ``"blue"``."""
    return CURRENCIES[currency]


def _currency_of_name(name: Any) -> int:
    if not isinstance(name, str) or name not in CURRENCIES:
        raise NotationError(f"bad site currency {name!r} (one of {', '.join(CURRENCIES)})")
    return CURRENCIES.index(name)


def money_name(currency: int) -> str:
    """``0`` -> ``"blue (denar)"``."""
    return f"{CURRENCIES[currency]} ({CURRENCY_NAMES[CURRENCIES[currency]]})"


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class Site:
    """One building site: ``number`` (1-8, the order sites were set up in the game), the seat
    that set it up, the building tile under it, and the currency on the back of its site tile
    (-1 while its owner is still choosing; secret from the other seats until ``revealed``)."""

    number: int
    seat: int
    tile: str
    currency: int
    revealed: bool = False

    @property
    def item(self) -> str:
        """The notation item that completes it (``fin3``)."""
        return f"{COMPLETE_PREFIX}{self.number}"

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the full, hidden facts included: for saved games, never for players)."""
        return {
            "site": self.number,
            "seat": self.seat,
            "tile": self.tile,
            "currency": currency_name(self.currency) if self.currency >= 0 else None,
            "revealed": self.revealed,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Site:
        """Read the JSON form back (:class:`NotationError` on junk)."""
        if not isinstance(data, dict) or set(data) != {"site", "seat", "tile", "currency", "revealed"}:
            raise NotationError(f"bad building site {data!r}")
        number, seat, tile, cur, rev = data["site"], data["seat"], data["tile"], data["currency"], data["revealed"]
        if not (_is_int(number) and number >= 1 and _is_int(seat) and seat >= 0 and isinstance(tile, str) and tile):
            raise NotationError(f"bad building site {data!r}")
        if not isinstance(rev, bool):
            raise NotationError(f"bad building site {data!r}")
        return cls(int(number), int(seat), tile, -1 if cur is None else _currency_of_name(cur), rev)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True, slots=True)
class SitesState:
    """The module's state slice.

    ``stack``: the face-down site tiles (currencies, sorted: the stack's order is unknown to
    everybody, so a draw is a random draw from it). ``sites``: the building sites in play, in
    the order they were set up (a site's currency is secret from the other seats).
    ``drawn``: the site tiles its owner holds while choosing which to keep (secret).
    ``completed``: sites whose building was completed; their site tiles left the game face up.
    """

    stack: tuple[int, ...]
    sites: tuple[Site, ...] = ()
    drawn: tuple[int, ...] = ()
    completed: tuple[Site, ...] = ()

    def all_site_tiles(self) -> list[int]:
        """Every site tile's currency, wherever it is (for the conservation check)."""
        return [*self.stack, *(s.currency for s in self.sites if s.currency >= 0), *self.drawn, *(s.currency for s in self.completed)]

    def next_number(self) -> int:
        """The number the next site set up gets."""
        return len(self.sites) + len(self.completed) + 1

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "stack": [currency_name(c) for c in self.stack],
            "sites": [s.to_dict() for s in self.sites],
            "drawn": [currency_name(c) for c in self.drawn],
            "completed": [s.to_dict() for s in self.completed],
        }

    @classmethod
    def from_dict(cls, data: Any) -> SitesState:
        """Read the JSON form back (:class:`NotationError` on junk)."""
        if not isinstance(data, dict) or set(data) != {"stack", "sites", "drawn", "completed"}:
            raise NotationError(f"bad building sites state {data!r}")
        for key in data:
            if not isinstance(data[key], list):
                raise NotationError(f"bad building sites state {data!r}")
        value = cls(
            tuple(sorted(_currency_of_name(c) for c in data["stack"])),
            tuple(Site.from_dict(s) for s in data["sites"]),
            tuple(sorted(_currency_of_name(c) for c in data["drawn"])),
            tuple(Site.from_dict(s) for s in data["completed"]),
        )
        problem = value.problem()
        if problem:
            raise NotationError(f"bad building sites state: {problem}")
        return value

    def problem(self) -> str | None:
        """Why this slice is inconsistent, or None (every site tile once, numbers unique, at most
        one site waiting for its currency and only with site tiles drawn)."""
        undecided = [s for s in self.sites if s.currency < 0]
        if sorted(self.all_site_tiles()) != list(components().site_tiles) or len(undecided) > 1:
            return "the site tiles are not each in exactly one place"
        if bool(undecided) != bool(self.drawn):
            return "site tiles are drawn without a site to choose for (or the reverse)"
        if any(s.currency < 0 for s in self.completed) or any(s.revealed for s in self.completed):
            return "a completed site must show its currency (and is not a revealed site in play)"
        numbers = [s.number for s in (*self.sites, *self.completed)]
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            return f"site numbers must be 1-{len(numbers)}, each once"
        if len({s.tile for s in self.sites}) != len(self.sites):
            return "two sites on one tile"
        return None

    def undecided(self) -> Site | None:
        """The site whose owner is choosing its site tile now, if any."""
        return next((s for s in self.sites if s.currency < 0), None)


# ---------------------------------------------------------------------------------- pendings
@dataclass(frozen=True, slots=True)
class SiteChoice(Pending):
    """``seat`` set up building site ``site`` on ``tile`` and drew site tiles in secret: keep one
    (``site keep CURRENCY``); the other is shuffled back into the stack."""

    module = MODULE_ID
    seat: int
    tile: str
    site: int


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class SiteKeep(Action):
    """Keep the drawn site tile whose back shows ``currency`` (a letter) on the new building site."""

    module = MODULE_ID
    keyword = "site keep"
    grammar = ("currency",)
    currency: str


register_action(SiteKeep)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class SiteTilesDrawn(Event):
    """The buyer of building site ``site`` drew ``count`` site tiles in secret; only the buyer
    sees their currencies (``currencies`` is empty in everybody else's copy). It shows the buyer
    something hidden until then, so the purchase cannot be taken back (``reveals``)."""

    reveals: ClassVar[bool] = True
    seat: int
    site: int
    tile: str
    count: int
    currencies: tuple[str, ...]

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.seat else SiteTilesDrawn(self.seat, self.site, self.tile, self.count, ())

    def describe(self) -> str:
        what = f": {' and '.join(self.currencies)}" if self.currencies else ""
        return f"{_p(self.seat)} draws {self.count} site tiles in secret for the building site on {self.tile}{what}"


@dataclass(frozen=True, slots=True)
class SiteTileKept(Event):
    """The owner of building site ``site`` laid a site tile on ``tile`` (``kept``: its currency)
    and shuffled ``returned`` back into the stack ("" when only one tile was left). Secret:
    everybody else's copy has both empty. With ``forced`` (the last tile) it shows the owner a
    tile hidden until then, so it ``reveals``: the purchase cannot be taken back."""

    reveals: ClassVar[bool] = True
    seat: int
    site: int
    tile: str
    kept: str
    returned: str
    forced: bool

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.seat else SiteTileKept(self.seat, self.site, self.tile, "", "", self.forced)

    def describe(self) -> str:
        what = f" ({self.kept})" if self.kept else ""
        back = f"; the {self.returned} one goes back into the stack" if self.returned else ""
        how = "takes the last site tile" if self.forced else "keeps a site tile"
        return f"{_p(self.seat)} {how}{what} for the building site on {self.tile}{back}"


@dataclass(frozen=True, slots=True)
class SiteCompleted(Event):
    """The owner paid the full price: the building on ``tile`` is complete and counts; the site
    tile (its back shows ``currency``) leaves the game face up."""

    reveals: ClassVar[bool] = True
    seat: int
    site: int
    tile: str
    currency: str

    def describe(self) -> str:
        return f"{_p(self.seat)} completes the building on {self.tile}; its {self.currency} site tile leaves the game"


@dataclass(frozen=True, slots=True)
class SiteRevealed(Event):
    """End of the game, before the last tiles are handed out: the site on ``tile`` in the
    Alhambra of ``seat`` is revealed; ``payment`` are the money cards of its currency the
    owner discards (named ``payment`` so the bots' card tracker takes them out of the hand)."""

    reveals: ClassVar[bool] = True
    seat: int
    site: int
    tile: str
    currency: str
    payment: tuple[str, ...]

    def describe(self) -> str:
        lost = f"discards {'+'.join(self.payment)}" if self.payment else f"holds no {self.currency} money"
        return f"{_p(self.seat)} reveals the {self.currency} site tile on {self.tile} and {lost}"


# ---------------------------------------------------------------------------------- helpers
sites_slice: Final = slice_reader(MODULE_ID, SitesState)
"""The module's slice of ``state``."""


def site_location(state: GameState, site: Site) -> str:
    """Where a site's tile is: ``alhambra``, ``reserve`` (of its owner), ``neutral`` (given to
    the neutral player) or ``waiting`` (bought, not placed yet)."""
    t = state.components.tile_ids[site.tile]
    p = state.players[site.seat]
    if t in p.reserve:
        return "reserve"
    if t in p.city.values():
        return "alhambra"
    if state.neutral is not None and t in state.neutral:
        return "neutral"
    return "waiting"


def site_tile_ids(state: GameState) -> frozenset[int]:
    """The tile ids that carry a building site now (for other modules: chests and citizens go
    on completed buildings only). Empty when the game has no building sites."""
    sl = state.mods.get(MODULE_ID)
    if not isinstance(sl, SitesState) or not sl.sites:
        return frozenset()
    ids = state.components.tile_ids
    return frozenset(ids[s.tile] for s in sl.sites)


def is_site(state: GameState, tile: int) -> bool:
    """Whether building tile ``tile`` (an id) carries a building site now."""
    return tile in site_tile_ids(state)


def _completable(state: GameState, site: Site) -> bool:
    return site.currency >= 0 and site_location(state, site) in ("alhambra", "reserve")


ROUND_WEIGHTS: Final = (1.0, 0.75, 0.55)
"""Bots: weight of the next scoring round, the one after, and the one after that (as the greedy bot)."""
RESERVE_SHARE: Final = 0.33
"""Bots: what the greedy evaluation credits for a building on the reserve board (of a built one)."""


@dataclass(frozen=True, slots=True)
class BotWeights:
    """The bots' estimate of a site (see :meth:`BuildingSites.bot_values`)."""

    action_cost: float = 3.0
    """Points a turn action is worth: completing a site takes one."""
    q_money: float = 0.4
    """Chance of completing a site, for holding its full price in its currency ..."""
    q_time: float = 0.25
    """... plus this much at a full bag (less as the bag empties) ..."""
    q_max: float = 0.65
    """... at most."""
    unfinished: float = 4.5
    """Points an unfinished site costs its owner beyond that (it holds a place and an action)."""
    risk: float = 0.3
    """Points per coin of the site's currency held that an unfinished site in the Alhambra risks
    at the end (times the chance it stays unfinished and how far the bag has emptied)."""


BOT_WEIGHTS = BotWeights()
"""The weights :meth:`BuildingSites.bot_values` uses."""


def _awards(counts: Sequence[float], points: Sequence[int]) -> list[float]:
    """Majority awards for one kind and round with fractional counts (ties split, not rounded),
    as the greedy evaluation reckons them."""
    out = [0.0] * len(counts)
    place = 0
    for c in sorted({c for c in counts if c > 0}, reverse=True):
        if place >= len(points):
            break
        tied = [i for i, x in enumerate(counts) if x == c]
        share = sum(points[place : place + len(tied)]) / len(tied)
        for i in tied:
            out[i] = share
        place += len(tied)
    return out


class _Standing:
    """The majority columns the way the greedy evaluation sees them: ``built`` (the Alhambra's
    counts through every module's ``building_counts``, plus tiles waiting to be placed) and
    ``all`` (``built`` plus a third of each reserve tile), per kind, one entry per seat (and the
    neutral player)."""

    def __init__(self, state: GameState) -> None:
        n = state.config.players
        comp = state.components
        rows = [core_building_counts(state, s) for s in range(n)]
        if state.neutral is not None:
            rows.append(core_building_counts(state, -1))
        self.built = {k: [float(r[k]) for r in rows] for k in KINDS}
        self.all = {k: list(v) for k, v in self.built.items()}
        tiles = comp.tiles
        for top in state.pending:
            codes = top.bought if isinstance(top, ChooseAction) else top.tiles if isinstance(top, PlaceTiles) else ()
            for code in codes:
                k = tiles[comp.tile_ids[code]].kind
                if k in self.built:
                    self.built[k][top.seat] += 1
                    self.all[k][top.seat] += 1
        for s in range(n):
            for t in state.players[s].reserve:
                k = tiles[t].kind
                if k in self.all:
                    self.all[k][s] += RESERVE_SHARE
        self.rounds = list(range(state.rounds_scored + 1, 4))
        self.players = n
        self._state = state

    def delta(self, seat: int, kind: str, d_built: float, d_all: float) -> list[float]:
        """How every seat's points over the rounds to come (weighted like the greedy bot) change
        when ``seat``'s ``kind`` count changes by ``d_built`` (built) and ``d_all`` (built and
        reserve): the seat gains, the others may lose places."""
        col = self.built[kind]
        col_all = self.all[kind]
        col2 = list(col)
        col2[seat] += d_built
        all2 = list(col_all)
        all2[seat] += d_all
        out = [0.0] * self.players
        for i, r in enumerate(self.rounds):
            pts = kind_points(self._state, r, kind)  # the round's table (new score cards may change it)
            a0, a1 = _awards(col, pts), _awards(col2, pts)
            b0, b1 = _awards(col_all, pts), _awards(all2, pts)
            wi = ROUND_WEIGHTS[i]
            for x in range(self.players):
                out[x] += wi * ((a1[x] - a0[x]) * (1 - RESERVE_SHARE) + (b1[x] - b0[x]) * RESERVE_SHARE)
        return out


_TOTAL_TILES: dict[int, int] = {}


def _building_tiles(state: GameState) -> int:
    comp = state.components
    got = _TOTAL_TILES.get(id(comp))
    if got is None:
        got = _TOTAL_TILES[id(comp)] = max(1, sum(1 for t in comp.tiles if t.kind in KINDS))
    return got


NOT_SITES: Final = frozenset({"bazaar", "camp"})
"""Tile kinds that cannot be set up as a building site (rulebook: "Camps and bazaars cannot be set
up as a building site"); every other building tile of the market can (a medina too: it is bought
"like any other building tile")."""


# ---------------------------------------------------------------------------------- module
class BuildingSites(Module):
    """Building Sites."""

    id = MODULE_ID
    title = "Building Sites"
    summary = "Buy a building for half its price as a site and complete it later."
    description = (
        "Buy a building from the market for half its price (rounded down) as a building site: its walls count, the "
        "building does not until you complete it by paying the full price in the currency on the back of its secret "
        "site tile. At the end, every unfinished site in an Alhambra costs its owner all money of that currency."
    )
    assumptions = (
        "Setting up a site is a turn action that buys a building tile from a market square for at least half its price "
        "(rounded down) in the square's currency; overpaying is allowed. It is never an exact payment, even when the "
        "money is exactly half: no other action, and the event and the purchase record other modules read say not exact.",
        "The site tiles are drawn at random from the stack (the stack's order is unknown to everybody). With 2 or more in "
        "the stack the player draws 2, keeps one and the other goes back; with 1 left it is taken; with none left no "
        "site can be set up. The choice is made right after the purchase, before the tile is placed.",
        "Every building tile of the market can become a site except camps and bazaars (the rulebook's only exclusions): "
        "the six building kinds and a medina (bought 'like any other building tile'; under its site tile it is not built "
        "yet, so it does not count for the medina ranking until completed); the vizier cannot set one up (out of turn).",
        "A building under a site tile counts for no majority wherever it lies (Alhambra, reserve board, the neutral "
        "player). Its walls count like any tile's. It may be placed, moved to the reserve board and rebuilt like any tile.",
        "With 2 players a site tile may be given to the neutral player like any bought tile: it stays a site there (the "
        "neutral player never completes it, so it never counts), its site tile stays on it face down.",
        "Completing is a turn action, also for a site on the reserve board, paying the full price of the tile in the "
        "currency on the back of the site tile (exact: another action). Its site tile is then shown (the payment shows its "
        "currency anyway) and leaves the game; the building counts from then on. The vizier cannot complete a site.",
        "Currency exchange cards and diamonds pay for a site and its completion wherever they pay for a square of that "
        "currency (the one-currency ways of the core). Money held outside the hand (coins, credit, markers) pays too.",
        "At the end, only when the game ends because the market cannot be refilled: before the last tiles are handed out, "
        "each site in a player's Alhambra is revealed and its owner discards all money cards (in the hand) of its "
        "currency; sites on the reserve board and with the neutral player are ignored. A game stopped by a turn limit "
        "reveals nothing.",
        "Money held outside the hand (change coins, a certificate's credit, caravanserai markers) is not a money card: the "
        "end-of-game discard leaves it.",
    )
    component_assumptions = ()

    # ----- setup ------------------------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """All site tiles lie face down in the stack."""
        state.mods[self.id] = SitesState(components().site_tiles)

    def chance_items(self, config: GameConfig) -> list[str]:
        return list(CURRENCIES)  # the site tiles, by the currency on their back

    def notation_items(self, config: GameConfig) -> list[str]:
        """``site1``-``site4`` (set up on a market square) and ``fin1``-``fin8`` (complete a site)."""
        n = len(components().site_tiles)
        return [f"{SETUP_PREFIX}{i}" for i in range(1, 5)] + [f"{COMPLETE_PREFIX}{i}" for i in range(1, n + 1)]

    # ----- purchases ----------------------------------------------------------------------
    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        """On a turn: a site on every market square with a building (at least half its price,
        never exact) while site tiles are left; completing each of the seat's own sites in its
        Alhambra or on its reserve board (the full price in the site's currency)."""
        if out_of_turn:
            return []
        sl = sites_slice(state)
        comp = state.components
        out: list[Offer] = []
        if sl.stack:
            for sq, t in enumerate(state.market):
                if t < 0 or comp.tiles[t].kind in NOT_SITES:
                    continue
                code = comp.tiles[t].code
                out.append(
                    Offer(
                        item=f"{SETUP_PREFIX}{sq + 1}",
                        module=self.id,
                        price=setup_price(comp.tile_price[t]),
                        ways=(frozenset((state.market_currency[sq],)),),
                        again_if_exact=False,
                        never_exact=True,
                        tile=t,
                        label=f"a building site on {code} (square {sq + 1})",
                    )
                )
        for site in sl.sites:
            if site.seat != seat or not _completable(state, site):
                continue
            t = comp.tile_ids[site.tile]
            out.append(
                Offer(
                    item=site.item,
                    module=self.id,
                    price=comp.tile_price[t],
                    ways=(frozenset((site.currency,)),),
                    building=True,
                    label=f"the completion of the building on {site.tile}",
                )
            )
        return out

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        """A site: its tile leaves the market square (the core adds it to the bought tiles) and
        the site is recorded (its site tile is drawn once the action is closed). A completion:
        the site tile leaves the game face up; the building counts from now on."""
        sl = sites_slice(state)
        comp = state.components
        if offer.item.startswith(SETUP_PREFIX):
            sq = int(offer.item[len(SETUP_PREFIX) :])
            assert state.market[sq - 1] == offer.tile
            state.market[sq - 1] = -1
            site = Site(sl.next_number(), seat, comp.tiles[offer.tile].code, -1)
            state.mods[self.id] = replace(sl, sites=(*sl.sites, site))
            return
        site = next(s for s in sl.sites if s.item == offer.item)
        done = Site(site.number, site.seat, site.tile, site.currency)
        state.mods[self.id] = replace(sl, sites=tuple(s for s in sl.sites if s is not site), completed=(*sl.completed, done))
        events.append(SiteCompleted(seat, site.number, site.tile, currency_name(site.currency)))

    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        """After a site was set up (the turn action is closed; the tile waits to be placed): draw
        site tiles in secret; with one left it is kept at once, otherwise the buyer chooses."""
        offer = purchase.offer
        if offer is None or offer.module != self.id or not offer.item.startswith(SETUP_PREFIX):
            return
        sl = sites_slice(state)
        site = sl.undecided()
        assert site is not None and sl.stack, "a site was set up without a site tile to draw"
        stack = list(sl.stack)
        k = min(components().drawn, len(stack))
        # drawn in secret: in explicit-chance mode a chance node only the buyer sees the outcome of
        decided = module_draw(state, self.id, [currency_name(c) for c in stack], k, secret_to=site.seat)
        if decided is None:
            drawn = sorted(module_random(state, self.id).sample(stack, k))
        else:
            drawn = sorted(_currency_of_name(name) for name in decided)
        for c in drawn:
            stack.remove(c)
        if k == 1:
            kept = Site(site.number, site.seat, site.tile, drawn[0])
            state.mods[self.id] = replace(sl, stack=tuple(stack), sites=tuple(kept if s is site else s for s in sl.sites))
            events.append(SiteTileKept(site.seat, site.number, site.tile, currency_name(drawn[0]), "", True))
            return
        state.mods[self.id] = replace(sl, stack=tuple(stack), drawn=tuple(drawn))
        events.append(SiteTilesDrawn(site.seat, site.number, site.tile, k, tuple(currency_name(c) for c in drawn)))
        state.pending.append(SiteChoice(site.seat, site.tile, site.number))

    # ----- decisions ----------------------------------------------------------------------
    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """``site keep X`` for each currency among the drawn site tiles."""
        if not isinstance(pending, SiteChoice):
            return []
        return [SiteKeep(CURRENCY_LETTERS[c]) for c in dict.fromkeys(sites_slice(state).drawn)]

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` answers the open choice."""
        if not isinstance(action, SiteKeep):
            raise IllegalAction(f"{action} is not a Building Sites action")
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, SiteChoice):
            raise WrongPhase("there is no site tile to choose now: you choose right after setting up a building site")
        if action.currency not in CURRENCY_LETTERS:
            raise IllegalAction(f"{action.currency!r} is no currency letter (b, g, o or y)")
        drawn = sites_slice(state).drawn
        if CURRENCY_LETTERS.index(action.currency) not in drawn:
            have = " and ".join(CURRENCIES[c] for c in drawn)
            raise IllegalAction(f"you drew no {CURRENCIES[CURRENCY_LETTERS.index(action.currency)]} site tile (you drew {have})")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Keep the chosen site tile on the site; the other goes back into the stack."""
        assert isinstance(action, SiteKeep)
        top = state.pending[-1]
        assert isinstance(top, SiteChoice)
        sl = sites_slice(state)
        cur = CURRENCY_LETTERS.index(action.currency)
        rest = list(sl.drawn)
        rest.remove(cur)
        site = next(s for s in sl.sites if s.number == top.site)
        kept = Site(site.number, site.seat, site.tile, cur)
        state.mods[self.id] = SitesState(
            tuple(sorted((*sl.stack, *rest))), tuple(kept if s is site else s for s in sl.sites), (), sl.completed
        )
        events.append(
            SiteTileKept(top.seat, site.number, site.tile, currency_name(cur), " and ".join(currency_name(c) for c in rest), False)
        )
        state.pending.pop()

    # ----- scoring ------------------------------------------------------------------------
    def unbuilt_tiles(self, state: GameState, seat: int) -> list[int]:
        """The tiles of ``seat``'s Alhambra (``-1``: the neutral player's tiles) that carry a site:
        no chest and no citizen goes there, and a medina there is not built yet."""
        sites = site_tile_ids(state)
        if not sites:
            return []
        where = (state.neutral or ()) if seat < 0 else state.players[seat].city.values()
        return [t for t in where if t in sites]

    def building_counts(self, state: GameState, seat: int, counts: dict[str, float]) -> None:
        """A building under a site tile does not count (in an Alhambra, or with the neutral player)."""
        sl = state.mods.get(self.id)
        if not isinstance(sl, SitesState) or not sl.sites:
            return
        ids = state.components.tile_ids
        tiles = state.components.tiles
        if seat < 0:
            where: Sequence[int] = state.neutral or ()
        else:
            where = list(state.players[seat].city.values())
        for site in sl.sites:
            t = ids[site.tile]
            if t in where:
                kind = tiles[t].kind
                if counts.get(kind, 0) > 0:
                    counts[kind] -= 1

    def final_starting(self, state: GameState, events: list[Event]) -> None:
        """Reveal every site in an Alhambra; its owner discards all money cards of its currency."""
        sl = sites_slice(state)
        if not sl.sites:
            return
        comp = state.components
        new: list[Site] = []
        for site in sl.sites:
            if site.currency < 0 or site_location(state, site) != "alhambra":
                new.append(site)
                continue
            hand = state.players[site.seat].hand
            gone = [c for c in hand if comp.card_is_money[c] and comp.card_currency[c] == site.currency]
            for c in gone:
                hand.remove(c)
                owner = comp.cards[c].module
                if owner is None or not load_module(owner).card_spent(state, c):
                    state.discard.append(c)
            codes = tuple(sorted((comp.cards[c].code for c in gone), key=lambda code: (comp.money_value.get(code, 0), code)))
            events.append(SiteRevealed(site.seat, site.number, site.tile, currency_name(site.currency), codes))
            new.append(Site(site.number, site.seat, site.tile, site.currency, True))
        state.mods[self.id] = replace(sl, sites=tuple(new))

    # ----- bots ---------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """What each seat's sites are worth beyond what the core counts.

        ``V`` = the points one more building of the site's kind adds to its owner over the
        rounds to come (against the current majorities). A site is worth the chance ``q`` of
        completing it (higher with money of its currency in the hand and more of the game
        left) times ``V`` less the money the completion costs; an unfinished site in the
        Alhambra also risks the money of its currency at the end. The greedy evaluation counts
        a tile waiting to be placed as built (and a reserve tile as a third): a site waiting
        (or on the reserve board) takes that back. While the owner chooses, the better of the
        drawn site tiles counts."""
        sl = sites_slice(state)
        if not sl.sites or state.outcome is not None or state.rounds_scored >= 3:
            return None
        n = state.config.players
        comp = state.components
        standing = _Standing(state)
        bag_left = len(state.bag) / _building_tiles(state)
        rate = 0.06 + 0.22 * bag_left
        w = BOT_WEIGHTS
        cv = comp.card_value
        cc = comp.card_currency
        cm = comp.card_is_money
        out = [0.0] * n
        for site in sl.sites:
            where = site_location(state, site)
            if where == "neutral":
                continue
            t = comp.tile_ids[site.tile]
            kind = comp.tiles[t].kind
            if kind not in standing.built:  # a medina: no majority (the medina module values its count)
                continue
            price = comp.tile_price[t]
            s = site.seat
            # what the greedy evaluation credits for the tile now (a waiting tile as built, a
            # reserve tile as a third; also the places the others lose by it) is taken back;
            # ``done``: what completing it would change
            if where == "waiting":
                credit = [-x for x in standing.delta(s, kind, -1.0, -1.0)]
                done = credit
            elif where == "reserve":
                credit = [-x for x in standing.delta(s, kind, 0.0, -RESERVE_SHARE)]
                done = standing.delta(s, kind, 1.0, 1.0)
            else:
                credit = [0.0] * n
                done = standing.delta(s, kind, 1.0, 1.0)
            purse = [0] * len(comp.currencies)
            for c in state.players[s].hand:
                if cm[c]:
                    purse[cc[c]] += cv[c]
            choices = [site.currency] if site.currency >= 0 else list(dict.fromkeys(sl.drawn)) or list(range(len(CURRENCIES)))
            best = float("-inf")
            best_q = 0.0
            net = done[s] - rate * price - w.action_cost
            for cur in choices:
                held = purse[cur]
                q = min(w.q_max, w.q_money * min(1.0, held / price) + w.q_time * bag_left) if net > 0 else 0.0
                worth = q * net
                if where in ("alhambra", "waiting"):
                    worth -= (1.0 - q) * (1.0 - bag_left) * w.risk * held
                worth -= w.unfinished
                if worth > best:
                    best, best_q = worth, q
            for x in range(n):
                out[x] += (best if x == s else best_q * done[x]) - credit[x]
        return out

    # ----- views and persistence --------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: the stack's size, every site (seat, tile, where it lies, its number and full
        price, whether its site tile was chosen), the completed sites with their currencies.
        Private: the currency of the viewer's own sites and the site tiles the viewer is
        choosing from (other seats' show None; revealed sites show theirs to everybody)."""
        sl = sites_slice(state)
        comp = state.components
        choosing = sl.undecided()
        sites = []
        for site in sl.sites:
            shown = site.currency >= 0 and (site.seat == viewer or site.revealed)
            sites.append(
                {
                    "site": site.number,
                    "item": site.item,
                    "seat": site.seat,
                    "tile": site.tile,
                    "price": comp.tile_price[comp.tile_ids[site.tile]],
                    "where": site_location(state, site),
                    "chosen": site.currency >= 0,
                    "currency": currency_name(site.currency) if shown else None,
                    "revealed": site.revealed,
                }
            )
        return {
            "site_tiles": len(components().site_tiles),
            "stack": len(sl.stack),
            "sites": sites,
            "choosing": None if choosing is None else choosing.seat,
            "drawn": [currency_name(c) for c in sl.drawn] if choosing is not None and choosing.seat == viewer else None,
            "drawn_count": len(sl.drawn),
            "completed": [{"site": s.number, "seat": s.seat, "tile": s.tile, "currency": currency_name(s.currency)} for s in sl.completed],
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The slice with the site tiles the view does not show dealt in a fixed order: to the
        hidden sites first, then to the hidden drawn tiles, the rest into the stack."""
        return _redraw(module_view, _unseen(module_view))

    def sample_slice(self, state: GameState, module_view: dict[str, Any], viewer: int, rng: random.Random) -> Any:
        """Per sample: the site tiles the viewer has not seen, shuffled and dealt to the other
        seats' sites (and a drawn pair the viewer cannot see), the rest into the stack."""
        pool = _unseen(module_view)
        rng.shuffle(pool)
        return _redraw(module_view, pool)

    def slice_to_json(self, value: Any) -> Any:
        """``{"stack": [currency...], "sites": [{site, seat, tile, currency, revealed}...], "drawn": [...], "completed": [...]}``."""
        assert isinstance(value, SitesState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`SitesState`."""
        return SitesState.from_dict(data)


def _unseen(view: dict[str, Any]) -> list[int]:
    """The site tiles a view does not show (hidden sites, hidden drawn tiles, the stack), sorted."""
    pool = list(components().site_tiles)
    for s in view["completed"]:
        pool.remove(_currency_of_name(s["currency"]))
    for s in view["sites"]:
        if s["currency"] is not None:
            pool.remove(_currency_of_name(s["currency"]))
    for c in view["drawn"] or ():
        pool.remove(_currency_of_name(c))
    return pool


def _redraw(view: dict[str, Any], order: list[int]) -> SitesState:
    """The slice for a view, with the unseen site tiles (``order``: a permutation of the unseen
    pool) dealt to the hidden sites in order, then to hidden drawn tiles, the rest to the stack."""
    i = 0
    sites: list[Site] = []
    for s in view["sites"]:
        if s["currency"] is not None:
            cur = _currency_of_name(s["currency"])
        elif s["chosen"]:
            cur = order[i]
            i += 1
        else:
            cur = -1
        sites.append(Site(int(s["site"]), int(s["seat"]), str(s["tile"]), cur, bool(s["revealed"])))
    if view["drawn"] is not None:
        drawn = [_currency_of_name(c) for c in view["drawn"]]
    else:
        k = int(view["drawn_count"])
        drawn = order[i : i + k]
        i += k
    completed = tuple(Site(int(s["site"]), int(s["seat"]), str(s["tile"]), _currency_of_name(s["currency"])) for s in view["completed"])
    return SitesState(tuple(sorted(order[i:])), tuple(sites), tuple(sorted(drawn)), completed)


def check_sites(state: GameState) -> None:
    """Assert the module's invariants: every site tile in exactly one place, every site's tile in
    exactly one place of its owner (Alhambra, reserve board, waiting) or with the neutral player,
    a drawn pair exactly while its owner's :class:`SiteChoice` is open."""
    sl = sites_slice(state)
    problem = sl.problem()
    assert problem is None, problem
    choosing = [p for p in state.pending if isinstance(p, SiteChoice)]
    assert len(choosing) == (1 if sl.drawn else 0), "a site choice is open exactly while site tiles are drawn"
    ids = state.components.tile_ids
    for site in sl.sites:
        t = ids[site.tile]
        where = site_location(state, site)
        if where == "waiting":
            waiting = [
                p
                for p in state.pending
                if p.seat == site.seat
                and ((isinstance(p, PlaceTiles) and site.tile in p.tiles) or (isinstance(p, ChooseAction) and site.tile in p.bought))
            ]
            assert waiting, f"site {site.number} on {site.tile} is nowhere"
        assert t not in state.market and t not in state.bag, f"site {site.number} on {site.tile} is on the market or in the bag"


MODULE: Final = BuildingSites()
"""Building Sites (Big Box module ``building_sites``): see ``README.md``."""
