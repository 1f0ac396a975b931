"""Power of Sultan: sultan cards that let their holder take a building tile drawn for the market.

Flow (all through the plug-in hooks of protocol 2):

* ``extra_cards`` adds the 8 sultan cards (``components.json``); ``deck_piles`` shuffles 3 into
  the 1st money pile, 2 into the 2nd and 3 into the 3rd.
* ``card_drawn``: a sultan card drawn for the display is laid face up beside the building market
  (the module's slice) and marked with the kind on top of a random extra tile
  (:func:`alhambra.engine.module_random`); the core draws another card for the display slot.
* ``offers``: every face-up sultan card beside the market may be bought as a turn action for 7 in
  its currency (exact: another action; never with the vizier). ``offer_bought`` lays it in
  front of the buyer; ``after_action`` then asks the buyer whether to keep the mark
  (:class:`SultanRemarkOffer`: ``sultan keep`` / ``sultan reveal``); after a reveal the buyer must
  mark one of the two kinds of the extra tile (:class:`SultanMarkChoice`: ``sultan mark KIND``).
* ``tile_drawn``: a building tile drawn to refill the market whose kind is marked on a sultan
  card in front of some player is held in the slice while the holders are asked, in order of
  play from the player whose turn is next (:class:`SultanClaimOffer`: ``sultan claim`` /
  ``sultan decline``). A claim removes the card from the game and the claimer places the tile
  (a core ``PlaceTiles``, reason ``"sultan"``); if nobody claims it, it goes onto the market
  (:func:`alhambra.engine.put_on_market`). The core's refill waits meanwhile and then goes on.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, ClassVar, Final

from ...actions import Action, register_action
from ...components import CURRENCIES, CURRENCY_LETTERS, KINDS, SCORING_POINTS, CardType
from ...engine.services import module_draw, module_random, put_on_market
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import Event, ItemBought
from ...hooks import Module, Offer
from ...slices import slice_reader
from ...state import GameConfig, GameState, Pending, PlaceTiles

MODULE_ID: Final = "power_of_the_sultan"
CARD_KIND: Final = "sultan"
"""``CardType.kind`` of a sultan card."""


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class Components:
    """The module's component facts, read from ``components.json``."""

    price: int
    cards: tuple[tuple[str, int], ...]
    """Sultan cards as (code, currency index)."""
    piles: tuple[int, ...]
    """How many sultan cards go into money piles 1, 2, 3..."""
    extra_tiles: tuple[tuple[str, str], ...]
    """The extra tiles as (top kind, bottom kind)."""
    marker_cubes: int


@cache
def components() -> Components:
    """The component facts of ``components.json`` (checked when read)."""
    data = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    cards = tuple((str(c["code"]), CURRENCIES.index(c["currency"])) for c in data["sultan_cards"])
    extra = tuple((str(t["top"]), str(t["bottom"])) for t in data["extra_tiles"])
    piles = tuple(int(k) for k in data["piles"])
    if sum(piles) != len(cards) or any(top not in KINDS or bottom not in KINDS or top == bottom for top, bottom in extra):
        raise ValueError("power_of_the_sultan/components.json is inconsistent")
    codes = [code for code, _ in cards]
    if len(set(codes)) != len(codes) or not all(c.startswith("su") and c[2] == CURRENCY_LETTERS[cur] for c, cur in cards):
        raise ValueError("sultan card codes must be unique and read su + currency letter + number")
    return Components(int(data["price"]), cards, piles, extra, int(data["marker_cubes"]))


def card_currency(code: str) -> int:
    """Currency index of a sultan card, from its code (``sug1`` is green)."""
    return CURRENCY_LETTERS.index(code[2])


@cache
def sultan_codes() -> frozenset[str]:
    """The codes of the sultan cards."""
    return frozenset(code for code, _ in components().cards)


def is_sultan_code(code: object) -> bool:
    """True for the code of a sultan card of this module."""
    return isinstance(code, str) and code in sultan_codes()


# ---------------------------------------------------------------------------------- state
Card = tuple[str, str]
"""A sultan card on the table: (card code, marked kind; "" while its cube is off)."""


def _check_card(v: Any) -> Card:
    if not (isinstance(v, list | tuple) and len(v) == 2 and is_sultan_code(v[0]) and (v[1] in KINDS or v[1] == "")):
        raise NotationError(f"bad sultan card {v!r} (want [code, kind])")
    return (str(v[0]), str(v[1]))


@dataclass(frozen=True, slots=True)
class SultanState:
    """The module's state slice (all public).

    ``beside``: face-up cards beside the building market, in the order they came up.
    ``owned``: per seat, the cards lying face up in front of that player.
    ``used``: cards removed from the game after a claim.
    ``held``: the code of a tile drawn for the market while its claim is being decided, or None.
    """

    beside: tuple[Card, ...]
    owned: tuple[tuple[Card, ...], ...]
    used: tuple[str, ...] = ()
    held: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "beside": [list(c) for c in self.beside],
            "owned": [[list(c) for c in cards] for cards in self.owned],
            "used": list(self.used),
            "held": self.held,
        }

    @classmethod
    def from_dict(cls, data: Any) -> SultanState:
        """Read the JSON form back (:class:`NotationError` on junk)."""
        if not isinstance(data, dict) or set(data) != {"beside", "owned", "used", "held"}:
            raise NotationError(f"bad sultan state {data!r}")
        beside, owned, used, held = data["beside"], data["owned"], data["used"], data["held"]
        if not (isinstance(beside, list) and isinstance(owned, list) and all(isinstance(o, list) for o in owned)):
            raise NotationError(f"bad sultan state {data!r}")
        if not (isinstance(used, list) and all(isinstance(c, str) and is_sultan_code(c) for c in used)):
            raise NotationError(f"bad used sultan cards {used!r}")
        if held is not None and not isinstance(held, str):
            raise NotationError(f"bad held tile {held!r}")
        return cls(
            tuple(_check_card(c) for c in beside),
            tuple(tuple(_check_card(c) for c in o) for o in owned),
            tuple(used),
            held,
        )


# ---------------------------------------------------------------------------------- pendings
@dataclass(frozen=True, slots=True)
class SultanClaimOffer(Pending):
    """``tile`` was drawn for the market and its kind is marked on a sultan card of ``seat``:
    ``sultan claim`` or ``sultan decline``; ``later`` are the other holders of such a card, asked
    next in order of play."""

    module = MODULE_ID
    seat: int
    tile: str
    later: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SultanRemarkOffer(Pending):
    """Right after buying sultan card ``card``: keep its mark (``sultan keep``) or take the cube
    off and reveal an extra tile (``sultan reveal``)."""

    module = MODULE_ID
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class SultanMarkChoice(Pending):
    """An extra tile showing ``kinds`` (top, bottom) was revealed for ``card``: ``seat`` must mark
    one of them (``sultan mark KIND``)."""

    module = MODULE_ID
    seat: int
    card: str
    kinds: tuple[str, str]


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class SultanClaim(Action):
    """Take the drawn tile for free with a sultan card marked with its kind (the card leaves the game)."""

    module = MODULE_ID
    keyword = "sultan claim"
    grammar = ()


@dataclass(frozen=True, slots=True)
class SultanDecline(Action):
    """Let the drawn tile go (to the next holder, else onto the market)."""

    module = MODULE_ID
    keyword = "sultan decline"
    grammar = ()

    declines = True


@dataclass(frozen=True, slots=True)
class SultanKeep(Action):
    """Keep the kind marked on the sultan card just bought."""

    module = MODULE_ID
    keyword = "sultan keep"
    grammar = ()

    declines = True


@dataclass(frozen=True, slots=True)
class SultanReveal(Action):
    """Take the cube off the sultan card just bought and reveal an extra tile."""

    module = MODULE_ID
    keyword = "sultan reveal"
    grammar = ()


@dataclass(frozen=True, slots=True)
class SultanMark(Action):
    """Mark one of the two kinds of the revealed extra tile on the sultan card."""

    module = MODULE_ID
    keyword = "sultan mark"
    grammar = ("kind",)
    kind: str


for _action in (SultanClaim, SultanDecline, SultanKeep, SultanReveal, SultanMark):
    register_action(_action)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class SultanCardRevealed(Event):
    """A sultan card came up from the money pile: it lies face up beside the market, marked with
    ``kind``, the top of the extra tile revealed for it (``extra``: top, bottom)."""

    reveals: ClassVar[bool] = True
    card: str
    currency: str
    kind: str
    extra: tuple[str, str]

    def describe(self) -> str:
        extra = f"{self.extra[0]}/{self.extra[1]}"
        return f"sultan card {self.card} ({self.currency}) is laid beside the market, marked {self.kind} (extra tile {extra})"


@dataclass(frozen=True, slots=True)
class SultanMarkKept(Event):
    """The buyer of a sultan card kept its mark."""

    seat: int
    card: str
    kind: str

    def describe(self) -> str:
        return f"{_p(self.seat)} keeps {self.kind} on sultan card {self.card}"


@dataclass(frozen=True, slots=True)
class SultanExtraTileRevealed(Event):
    """The buyer took the cube off and revealed an extra tile showing ``kinds`` (top, bottom)."""

    reveals: ClassVar[bool] = True
    seat: int
    card: str
    kinds: tuple[str, str]

    def describe(self) -> str:
        return f"{_p(self.seat)} takes the cube off sultan card {self.card} and reveals an extra tile: {self.kinds[0]} / {self.kinds[1]}"


@dataclass(frozen=True, slots=True)
class SultanCardMarked(Event):
    """The buyer marked ``kind`` on the sultan card."""

    seat: int
    card: str
    kind: str

    def describe(self) -> str:
        return f"{_p(self.seat)} marks {self.kind} on sultan card {self.card}"


@dataclass(frozen=True, slots=True)
class SultanTileOffered(Event):
    """``tile`` was drawn for the market; holders of a sultan card marked ``kind`` (``seats``, in
    the order they are asked) may take it."""

    reveals: ClassVar[bool] = True
    tile: str
    kind: str
    seats: tuple[int, ...]

    def describe(self) -> str:
        who = ", ".join(_p(s) for s in self.seats)
        return f"{self.tile} is drawn for the market: {who} may take it with a sultan card ({self.kind})"


@dataclass(frozen=True, slots=True)
class SultanTileClaimed(Event):
    """A player took the drawn tile with sultan card ``card``, which leaves the game."""

    seat: int
    card: str
    tile: str

    def describe(self) -> str:
        return f"{_p(self.seat)} takes {self.tile} with sultan card {self.card} (the card leaves the game)"


@dataclass(frozen=True, slots=True)
class SultanTileDeclined(Event):
    """A holder let the drawn tile go."""

    seat: int
    tile: str

    def describe(self) -> str:
        return f"{_p(self.seat)} does not take {self.tile}"


# ---------------------------------------------------------------------------------- helpers
sultan_slice: Final = slice_reader(MODULE_ID, SultanState)
"""The module's slice of ``state``."""


def _replace_owned(sl: SultanState, seat: int, cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    owned = list(sl.owned)
    owned[seat] = cards
    return tuple(owned)


def claim_order(state: GameState, kind: str) -> list[int]:
    """Seats holding a sultan card marked ``kind``, in order of play beginning with the seat
    whose turn is next (the seat that has just played, ``state.current``, last)."""
    sl = sultan_slice(state)
    n = state.config.players
    order = [(state.current + 1 + i) % n for i in range(n)]
    return [s for s in order if any(k == kind for _, k in sl.owned[s])]


TILE_VALUE: Final = {k: SCORING_POINTS[k][1][0] / 3 + 1.0 for k in KINDS}
"""What a free tile of each kind is roughly worth to the bots (a third of the kind's first place
in round 2, plus the money it saves)."""


def extra_item(tile: tuple[str, str]) -> str:
    """An extra tile as a chance item: ``TOP/BOTTOM`` (its two kinds)."""
    return f"{tile[0]}/{tile[1]}"


def _reveal_extra(state: GameState) -> tuple[str, str]:
    """Reveal one of the face-down extra tiles at random (they are shuffled back every time)."""
    tiles = components().extra_tiles
    decided = module_draw(state, MODULE_ID, [extra_item(t) for t in tiles])  # explicit chance
    if decided is not None:
        top, _, bottom = decided[0].partition("/")
        return (top, bottom)
    rng = module_random(state, MODULE_ID)
    return tiles[rng.randrange(len(tiles))]


# ---------------------------------------------------------------------------------- module
class PowerOfTheSultan(Module):
    """Power of Sultan."""

    id = MODULE_ID
    title = "Power of Sultan"
    summary = "Sultan cards claim a tile of their kind for free when it is drawn."
    description = (
        "Eight sultan cards come up with the money; each is marked with a building kind and can be bought for 7. "
        "Its holder may take a tile of that kind for free when one is drawn for the market, out of turn; the card is then used up."
    )
    assumptions = (
        "A sultan card drawn from the money pile never enters the display: it is laid beside the market and the display "
        "slot is filled with the next card. Sultan cards never reach the discard pile, so they never come back in a reshuffle.",
        "Each extra tile reveal is a uniformly random one of the six (the tile is shuffled back every time).",
        "Buying a sultan card is a turn action like buying a building (exact payment: another action); it cannot be bought "
        "with the vizier, at the end of the game or out of turn. Money of the card's currency pays, and any payment option "
        "of another module for that currency (exchange cards, diamonds, coins).",
        "Re-marking is decided at once after the purchase (before any other action); the buyer decides before seeing the "
        "extra tile and must then mark one of its two kinds (possibly the kind marked before).",
        "Holders are asked one at a time in order of play from the player whose turn is next (the player whose turn just "
        "ended last); the first to claim gets the tile. Only players holding a card marked with the tile's kind are asked "
        "(the cards lie face up, so this reveals nothing).",
        "A player holding two cards marked with the same kind uses one of them (the one bought first); the cards are "
        "otherwise identical once bought.",
        "Every tile drawn to fill the market can be claimed: at the end of a turn, after a vizier purchase and in the "
        "last refill before the end of the game. Tiles the neutral player receives after the scorings (2 players) and the "
        "tiles dealt at setup are not drawn for the market and cannot be claimed.",
        "A claimed tile is placed at once like a bought tile: into the Alhambra, on the reserve board or (2 players) given "
        "to the neutral player; then the market refill goes on. Claims happen inside the refill, before the vizier may be "
        "used between turns ('the vizier only after the Power of Sultan').",
        "Unsold sultan cards beside the market and unused cards in front of players are worth nothing at the end.",
    )
    component_assumptions = (
        "The currencies of 7 of the 8 sultan cards (one green card is pictured): 2 per currency.",
        "The kinds on 5 of the 6 extra tiles (arcades + chambers is the rulebook's example): each kind on top of exactly one "
        "tile and at the bottom of exactly one, each tile pairing a kind with the next dearer one (tower with pavilion).",
        "Which kind is on top of the arcades/chambers tile: arcades.",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """The 8 sultan cards (kind ``sultan``, no value; ``currency`` is the currency they cost)."""
        return [CardType(code, CARD_KIND, currency=cur, module=self.id) for code, cur in components().cards]

    def chance_items(self, config: GameConfig) -> list[str]:
        return sorted({extra_item(t) for t in components().extra_tiles})

    def notation_items(self, config: GameConfig) -> list[str]:
        """The sultan cards' codes: the items of ``buy ITEM CARDS``."""
        return [code for code, _ in components().cards]

    def deck_piles(self, state: GameState, piles: list[list[int]], rng: random.Random) -> None:
        """Shuffle the sultan cards; 3 go into the 1st pile, 2 into the 2nd, 3 into the 3rd."""
        ids = self.card_ids(state)
        rng.shuffle(ids)
        at = 0
        for pile, k in enumerate(components().piles):
            for c in ids[at : at + k]:
                piles[pile].insert(rng.randrange(len(piles[pile]) + 1), c)
            at += k

    def setup(self, state: GameState, rng: random.Random) -> None:
        """No card is out yet."""
        state.mods[self.id] = SultanState((), ((),) * state.config.players)

    # ----- draws ------------------------------------------------------------------------
    def card_drawn(self, state: GameState, card: int, events: list[Event]) -> bool:
        """A sultan card came up: lay it beside the market, marked with the top of a random extra tile."""
        code = state.components.cards[card].code
        extra = _reveal_extra(state)
        sl = sultan_slice(state)
        state.mods[self.id] = SultanState((*sl.beside, (code, extra[0])), sl.owned, sl.used, sl.held)
        events.append(SultanCardRevealed(code, CURRENCIES[card_currency(code)], extra[0], extra))
        return True

    def tile_drawn(self, state: GameState, tile: int, events: list[Event]) -> bool:
        """A building tile drawn for the market whose kind is marked on somebody's sultan card is
        held while those players are asked (next to play first)."""
        t = state.components.tiles[tile]
        if t.kind not in KINDS:
            return False
        sl = state.mods.get(self.id)
        if not isinstance(sl, SultanState) or not any(sl.owned):
            return False
        seats = claim_order(state, t.kind)
        if not seats:
            return False
        state.mods[self.id] = SultanState(sl.beside, sl.owned, sl.used, t.code)
        events.append(SultanTileOffered(t.code, t.kind, tuple(seats)))
        state.pending.append(SultanClaimOffer(seats[0], t.code, tuple(seats[1:])))
        return True

    # ----- purchases ----------------------------------------------------------------------
    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        """Every face-up sultan card beside the market: 7 in its currency, on a turn only."""
        if out_of_turn:
            return []
        price = components().price
        return [
            Offer(code, self.id, price, (frozenset((card_currency(code),)),), label=f"sultan card {code} ({kind})")
            for code, kind in sultan_slice(state).beside
        ]

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        """The buyer lays the card face up in front of them (the re-mark question follows in ``after_action``)."""
        sl = sultan_slice(state)
        card = next(c for c in sl.beside if c[0] == offer.item)
        beside = tuple(c for c in sl.beside if c[0] != offer.item)
        state.mods[self.id] = SultanState(beside, _replace_owned(sl, seat, (*sl.owned[seat], card)), sl.used, sl.held)

    def after_action(self, state: GameState, events: list[Event]) -> None:
        """Right after a sultan card was bought: ask the buyer whether to keep its mark."""
        for e in events:
            if type(e) is ItemBought and is_sultan_code(e.item):
                state.pending.append(SultanRemarkOffer(e.seat, e.item))

    # ----- decisions ----------------------------------------------------------------------
    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """The answers to the module's open question."""
        if isinstance(pending, SultanClaimOffer):
            return [SultanClaim(), SultanDecline()]
        if isinstance(pending, SultanRemarkOffer):
            return [SultanKeep(), SultanReveal()]
        if isinstance(pending, SultanMarkChoice):
            return [SultanMark(k) for k in dict.fromkeys(pending.kinds)]
        return []

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` answers the open question."""
        top = state.pending[-1] if state.pending else None
        if isinstance(action, SultanClaim | SultanDecline):
            if not isinstance(top, SultanClaimOffer):
                raise WrongPhase("there is no drawn tile to take with a sultan card now")
            return
        if isinstance(action, SultanKeep | SultanReveal):
            if not isinstance(top, SultanRemarkOffer):
                raise WrongPhase("the mark of a sultan card can be changed only right after buying it")
            return
        if isinstance(action, SultanMark):
            if not isinstance(top, SultanMarkChoice):
                raise WrongPhase("there is no revealed extra tile to mark from now")
            if action.kind not in top.kinds:
                raise IllegalAction(f"mark one of the two kinds on the extra tile: {top.kinds[0]} or {top.kinds[1]}, not {action.kind}")
            return
        raise IllegalAction(f"{action} is not a Power of Sultan action")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry out a checked answer."""
        top = state.pending[-1]
        sl = sultan_slice(state)
        if isinstance(top, SultanClaimOffer):
            if isinstance(action, SultanClaim):
                kind = state.components.tiles[state.components.tile_ids[top.tile]].kind
                mine = sl.owned[top.seat]
                card = next(c for c in mine if c[1] == kind)
                rest = tuple(c for c in mine if c[0] != card[0])
                state.mods[self.id] = SultanState(sl.beside, _replace_owned(sl, top.seat, rest), (*sl.used, card[0]), None)
                events.append(SultanTileClaimed(top.seat, card[0], top.tile))
                state.pending[-1] = PlaceTiles(top.seat, (top.tile,), state.neutral is not None, "sultan")
                return
            events.append(SultanTileDeclined(top.seat, top.tile))
            if top.later:
                state.pending[-1] = SultanClaimOffer(top.later[0], top.tile, top.later[1:])
                return
            state.pending.pop()
            state.mods[self.id] = SultanState(sl.beside, sl.owned, sl.used, None)
            put_on_market(state, state.components.tile_ids[top.tile], events)
            return
        if isinstance(top, SultanRemarkOffer):
            if isinstance(action, SultanKeep):
                kind = next(k for c, k in sl.owned[top.seat] if c == top.card)
                events.append(SultanMarkKept(top.seat, top.card, kind))
                state.pending.pop()
                return
            kinds = _reveal_extra(state)
            self._set_mark(state, top.seat, top.card, "")
            events.append(SultanExtraTileRevealed(top.seat, top.card, kinds))
            state.pending[-1] = SultanMarkChoice(top.seat, top.card, kinds)
            return
        assert isinstance(top, SultanMarkChoice) and isinstance(action, SultanMark)
        self._set_mark(state, top.seat, top.card, action.kind)
        events.append(SultanCardMarked(top.seat, top.card, action.kind))
        state.pending.pop()

    def _set_mark(self, state: GameState, seat: int, card: str, kind: str) -> None:
        sl = sultan_slice(state)
        mine = tuple((c, kind) if c == card else (c, k) for c, k in sl.owned[seat])
        state.mods[self.id] = SultanState(sl.beside, _replace_owned(sl, seat, mine), sl.used, sl.held)

    # ----- bots ----------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """A sultan card in front of a seat is worth a share of a free tile of its kind: more
        likely the more tiles of that kind are still in the bag, shared among the cards marked
        with that kind. While a card waits for its new mark, the better of the two kinds counts."""
        sl = sultan_slice(state)
        if not any(sl.owned) or not state.bag:
            return None
        top = state.pending[-1] if state.pending else None
        choice = top if isinstance(top, SultanMarkChoice) else None
        tiles = state.components.tiles
        in_bag = dict.fromkeys(KINDS, 0)
        for t in state.bag:
            k = tiles[t].kind
            if k in in_bag:
                in_bag[k] += 1
        marked = dict.fromkeys(KINDS, 0)
        for cards in sl.owned:
            for _, k in cards:
                if k:
                    marked[k] += 1

        def worth(kind: str) -> float:
            c = in_bag[kind]
            if not c:
                return 0.0
            share = min(1.0, c / max(1, marked[kind]))
            return (1.0 - 0.6**c) * share * TILE_VALUE[kind]

        out = [0.0] * state.config.players
        for s, cards in enumerate(sl.owned):
            for code, k in cards:
                if k:
                    out[s] += worth(k)
                elif choice is not None and choice.card == code:
                    out[s] += max(worth(choice.kinds[0]), worth(choice.kinds[1]))
        return out

    # ----- accounting, views, persistence ---------------------------------------------------
    def held_cards(self, state: GameState) -> list[int]:
        """Sultan cards beside the market, in front of players, and removed from the game."""
        sl = state.mods.get(self.id)
        if not isinstance(sl, SultanState):
            return []
        ids = _card_ids(state.components.cards)
        codes = [c for c, _ in sl.beside] + [c for cards in sl.owned for c, _ in cards] + list(sl.used)
        return [ids[c] for c in codes]

    def held_tiles(self, state: GameState) -> list[int]:
        """The tile held while its claim is decided."""
        sl = state.mods.get(self.id)
        if not isinstance(sl, SultanState) or sl.held is None:
            return []
        return [state.components.tile_ids[sl.held]]

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Everything is public: the cards beside the market, in front of each player, removed, and a held tile."""
        sl = sultan_slice(state)

        def card(c: Card) -> dict[str, Any]:
            return {"card": c[0], "currency": CURRENCIES[card_currency(c[0])], "kind": c[1] or None}

        comp = components()
        return {
            "price": comp.price,
            "beside": [card(c) for c in sl.beside],
            "owned": [[card(c) for c in cards] for cards in sl.owned],
            "used": list(sl.used),
            "held": sl.held,
            "extra_tiles": [list(t) for t in comp.extra_tiles],
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""

        def card(d: dict[str, Any]) -> Card:
            return (str(d["card"]), str(d["kind"] or ""))

        return SultanState(
            tuple(card(d) for d in module_view["beside"]),
            tuple(tuple(card(d) for d in cards) for cards in module_view["owned"]),
            tuple(str(c) for c in module_view["used"]),
            module_view["held"],
        )

    def slice_to_json(self, value: Any) -> Any:
        """``{"beside": [[code, kind]...], "owned": [[[code, kind]...] per seat], "used": [...], "held": tile|null}``."""
        assert isinstance(value, SultanState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`SultanState`."""
        return SultanState.from_dict(data)

    # ----- helpers ------------------------------------------------------------------------
    def card_ids(self, state: GameState) -> list[int]:
        """Ids of this game's sultan cards."""
        return [i for i, c in enumerate(state.components.cards) if c.module == self.id]


_IDS: dict[int, tuple[tuple[CardType, ...], dict[str, int]]] = {}


def _card_ids(cards: tuple[CardType, ...]) -> dict[str, int]:
    """Card id of each sultan card code in a component set (cached per set of cards)."""
    got = _IDS.get(id(cards))
    if got is None or got[0] is not cards:
        got = _IDS[id(cards)] = (cards, {c.code: i for i, c in enumerate(cards) if c.module == MODULE_ID})
    return got[1]


MODULE: Final = PowerOfTheSultan()
"""Power of Sultan (Big Box module ``power_of_the_sultan``): see ``README.md``."""
