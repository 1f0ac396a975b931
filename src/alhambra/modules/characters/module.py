"""Characters: ten character cards; six are shuffled into the 2nd, 3rd and 4th money piles (two
each), four lie face down as the surplus pile. A character drawn from the money pile is auctioned
at once; the winner owns it and uses its ability.

Flow (plug-in hooks):

* ``extra_cards``: ten cards of one back (code ``char``): which character a drawn card shows is
  drawn when it is turned up (``engine.module_draw`` / ``module_random``) from the characters no
  one has seen yet, so nobody (not even the bots' samples) knows which six are in the piles.
  ``deck_piles`` puts two into each of piles 2-4; the other four are the surplus pile.
* ``card_drawn``: a character drawn for the display is set aside for its auction (another card is
  drawn). ``after_refill`` (after the end-of-turn display refill) and ``after_action`` (a refill
  inside an action: a thief, the Beggar) push :class:`Auction`: bids in turn from the seat due to
  play next, each higher than the last and payable in one currency, until all but the highest
  bidder have passed; the winner pays (:class:`CharacterPayment`). Nobody bids: the card is out.
* Abilities: see :data:`CHARACTERS` and the README (turn start: Dancer, Beggar; turn actions:
  Rich Patron, Moneychanger; purchases: Miser; take limit: Trader; turn end: Master Builder;
  scoring: Wise Man (half a building), City Watch; at the end: the Entertainer's 8 points).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any, ClassVar, Final

from ... import city as geo
from ...actions import (
    Action,
    BuildFromReserve,
    BuyItem,
    ExchangeTiles,
    MoveToReserve,
    need_words,
    parse_cards,
    parse_xy,
    register_parser,
    word_parser,
)
from ...companion.hooks import CompanionHooks
from ...components import KINDS, CardType
from ...engine.services import (
    buy_covered,
    draw_card,
    finish_turn_action,
    module_draw,
    module_random,
    money_sources_of,
    offers_of,
    pay_for_offer,
    purchase_options,
    redesign_options,
    refill_market,
)
from ...engine.services import wall_points as engine_wall_points
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import AlhambraRedesigned, Event, MoneyTaken
from ...hooks import Module, Offer, Purchase
from ...state import STAGE_TURN, ChooseAction, GameConfig, GameState, Pending

MODULE_ID: Final = "characters"
ITEM: Final = "character"
"""The offer item a won character is paid for with (``buy`` payments, listed only to its winner)."""


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class Character:
    """One character card: its id word, printed name, usage symbol (assumed) and bot value."""

    key: str
    name: str
    usage: str
    bot_value: float


@dataclass(frozen=True, slots=True)
class CharactersData:
    """The module's data file, read once."""

    code: str
    piles: tuple[int, ...]
    per_pile: int
    characters: tuple[Character, ...]
    entertainer_points: int
    miser_price: int
    trader_limit: int
    beggar_hand: int
    city_watch_per: int


@cache
def data() -> CharactersData:
    """Read ``components.json``."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    chars = tuple(Character(k, str(v["name"]), str(v["usage"]), float(v["bot_value"])) for k, v in raw["characters"].items())
    if len(chars) != 10 or any(c.usage not in ("once", "round", "crown", "none") for c in chars):
        raise ValueError("characters: ten characters, usage once|round|crown|none")
    return CharactersData(
        str(raw["code"]),
        tuple(int(p) for p in raw["piles"]),
        int(raw["per_pile"]),
        chars,
        int(raw["entertainer_points"]),
        int(raw["miser_price"]),
        int(raw["trader_limit"]),
        int(raw["beggar_hand"]),
        int(raw["city_watch_per"]),
    )


NAMES: Final = tuple(c.key for c in data().characters)
"""The ten characters' id words, in the data file's order."""
BY_KEY: Final = {c.key: c for c in data().characters}
RICH_PATRON, MISER, MASTER_BUILDER, TRADER, ENTERTAINER = "rich_patron", "miser", "master_builder", "trader", "entertainer"
WISE_MAN, DANCER, MONEYCHANGER, BEGGAR, CITY_WATCH = "wise_man", "dancer", "moneychanger", "beggar", "city_watch"
MAX_BID: Final = 99
"""Bids are ``amount`` words (1-99)."""


def card_ids(state: GameState) -> tuple[int, ...]:
    """The ids of the ten character cards (one back: ``char``)."""
    code = data().code
    return tuple(i for i, c in enumerate(state.components.cards) if c.code == code)


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class CharactersState:
    """The module's slice (all public: which character a face-down card is, is drawn when it is
    turned up). ``cards``: the character cards not in the money pile (surplus pile, set aside
    for an auction, owned, out of the game). ``owned`` per seat; ``queue``: drawn, waiting for
    (the first: in) their auction; ``out``: removed from the game; ``surplus``: face-down
    cards in the surplus pile; ``known``: characters known to lie in it (the Entertainer given
    back); ``used``: round-symbol abilities used in the current turn; ``wise``: per seat the
    kind its Wise Man counts for in the coming scoring round ('' none)."""

    cards: tuple[int, ...]
    owned: tuple[tuple[str, ...], ...]
    queue: tuple[str, ...] = ()
    out: tuple[str, ...] = ()
    surplus: int = 4
    known: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    wise: tuple[str, ...] = ()
    scored_wise: tuple[str, ...] = ()
    """Per seat the kind its Wise Man counted for in the last scoring round ('' none): the record."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "cards": list(self.cards),
            "owned": [list(o) for o in self.owned],
            "queue": list(self.queue),
            "out": list(self.out),
            "surplus": self.surplus,
            "known": list(self.known),
            "used": list(self.used),
            "wise": list(self.wise),
            "scored_wise": list(self.scored_wise),
        }

    @classmethod
    def from_dict(cls, raw: Any) -> CharactersState:
        """Read the JSON form back (a :class:`NotationError` on junk)."""
        try:
            out = cls(
                tuple(int(c) for c in raw["cards"]),
                tuple(tuple(str(k) for k in o) for o in raw["owned"]),
                tuple(str(k) for k in raw["queue"]),
                tuple(str(k) for k in raw["out"]),
                int(raw["surplus"]),
                tuple(str(k) for k in raw["known"]),
                tuple(str(k) for k in raw["used"]),
                tuple(str(k) for k in raw["wise"]),
                tuple(str(k) for k in raw.get("scored_wise", ())),
            )
        except (TypeError, KeyError, ValueError) as e:
            raise NotationError(f"bad characters state {raw!r}") from e
        named = [k for o in out.owned for k in o] + list(out.queue) + list(out.out) + list(out.known)
        if any(k not in BY_KEY for k in named + list(out.used)) or len(set(named)) != len(named):
            raise NotationError(f"bad characters state {raw!r}: unknown or repeated characters")
        return out

    def seen(self) -> set[str]:
        """Characters whose card has been turned up (or is known to lie in the surplus pile)."""
        return {k for o in self.owned for k in o} | set(self.queue) | set(self.out) | set(self.known)

    def unseen(self) -> list[str]:
        """Characters nobody has seen yet (the face-down cards show one of these)."""
        s = self.seen()
        return [k for k in NAMES if k not in s]


def chars(state: GameState) -> CharactersState:
    """The module's slice of a game."""
    value = state.mods[MODULE_ID]
    assert isinstance(value, CharactersState)
    return value


def owns(state: GameState, seat: int, key: str) -> bool:
    """Whether ``seat`` owns the character ``key``."""
    return 0 <= seat < len(chars(state).owned) and key in chars(state).owned[seat]


def _usable(state: GameState, seat: int, key: str) -> bool:
    """``seat`` owns ``key`` and has not used it in this turn (round symbol)."""
    sl = chars(state)
    return owns(state, seat, key) and not (BY_KEY[key].usage == "round" and key in sl.used)


# ---------------------------------------------------------------------------------- pendings
@dataclass(frozen=True, slots=True)
class Auction(Pending):
    """The auction of ``character``: ``seat`` (= ``order[0]``) bids or passes. ``order``: the
    seats still in, in bidding order from the one to act; ``high``: the highest bid (0: none
    yet) by ``leader`` (-1: none); ``auctioneer``: the seat due to play next when it was drawn."""

    module = MODULE_ID
    seat: int
    character: str
    order: tuple[int, ...]
    high: int = 0
    leader: int = -1
    auctioneer: int = 0


@dataclass(frozen=True, slots=True)
class CharacterPayment(Pending):
    """``seat`` won ``character`` for ``bid``: it pays with money of one currency (or diamonds)."""

    module = MODULE_ID
    seat: int
    character: str
    bid: int


@dataclass(frozen=True, slots=True)
class EntertainerChoice(Pending):
    """``seat`` has just won the Travelling Entertainer: keep it (8 points) or swap it for the
    top card of the surplus pile."""

    module = MODULE_ID
    seat: int


@dataclass(frozen=True, slots=True)
class TurnStart(Pending):
    """The start of ``seat``'s turn: it may use the Dancer and the Beggar first (or go on)."""

    module = MODULE_ID
    seat: int


@dataclass(frozen=True, slots=True)
class MiserChoice(Pending):
    """``seat`` bought a building of price 10 or more: it may take an open money card."""

    module = MODULE_ID
    seat: int


@dataclass(frozen=True, slots=True)
class MasterBuilderChoice(Pending):
    """The end of ``seat``'s turn: the Master Builder's extra redesign (or skip)."""

    module = MODULE_ID
    seat: int


@dataclass(frozen=True, slots=True)
class WiseChoice(Pending):
    """Before scoring round ``round_no``: ``seat`` names the kind its Wise Man counts for."""

    module = MODULE_ID
    seat: int
    round_no: int


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid ``amount`` for the character in auction (``character bid 7``)."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character bid"
    grammar: ClassVar[tuple[str, ...]] = ("amount",)
    amount: int


@dataclass(frozen=True, slots=True)
class PassBid(Action):
    """Make no (further) bid for the character in auction."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character pass"
    grammar: ClassVar[tuple[str, ...]] = ()
    declines = True


@dataclass(frozen=True, slots=True)
class PayBid(Action):
    """Pay the winning bid with these cards (``character pay b5+b3``)."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character pay"
    grammar: ClassVar[tuple[str, ...]] = ("cards",)
    payment: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Keep the Travelling Entertainer (8 points at the end)."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character keep"
    grammar: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Exchange the Travelling Entertainer for the top card of the surplus pile."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character swap"
    grammar: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True, slots=True)
class Dance(Action):
    """Dancer: exchange the building on market square ``square`` for a new one from the bag."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character dancer"
    grammar: ClassVar[tuple[str, ...]] = ("square",)
    square: int


@dataclass(frozen=True, slots=True)
class Beg(Action):
    """Beggar: take the top card of the money pile (with 0-2 money cards in the hand)."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character beggar"
    grammar: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True, slots=True)
class Go(Action):
    """Start the turn without (further) Dancer or Beggar."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character go"
    grammar: ClassVar[tuple[str, ...]] = ()
    declines = True


@dataclass(frozen=True, slots=True)
class Patron(Action):
    """Rich Patron: take the building on ``square``, its price paid exactly (an extra action)."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character patron"
    grammar: ClassVar[tuple[str, ...]] = ("square",)
    square: int


@dataclass(frozen=True, slots=True)
class PatronItem(Action):
    """Rich Patron: take the building ``item`` sold beside the market (a bazaar), its price paid exactly."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character patron"
    grammar: ClassVar[tuple[str, ...]] = ("item",)
    item: str


@dataclass(frozen=True, slots=True)
class Change(Action):
    """Moneychanger: discard ``give`` from the hand, take ``take`` (worth no more) from the display."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character change"
    grammar: ClassVar[tuple[str, ...]] = ("card", "card")
    give: str
    take: str


@dataclass(frozen=True, slots=True)
class MiserTake(Action):
    """Miser: take the open money card ``card``."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character miser"
    grammar: ClassVar[tuple[str, ...]] = ("card",)
    card: str


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Do not use the Miser or the Master Builder now."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character skip"
    grammar: ClassVar[tuple[str, ...]] = ()
    declines = True


@dataclass(frozen=True, slots=True)
class Wise(Action):
    """Wise Man: count half a building of ``kind`` in this scoring round."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character wise"
    grammar: ClassVar[tuple[str, ...]] = ("kind",)
    kind: str


@dataclass(frozen=True, slots=True)
class MasonBuild(Action):
    """Master Builder: build ``tile`` from the reserve board at ``target``."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character build"
    grammar: ClassVar[tuple[str, ...]] = ("tile", "cell")
    tile: str
    target: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MasonRemove(Action):
    """Master Builder: move ``tile`` from the Alhambra to the reserve board."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character remove"
    grammar: ClassVar[tuple[str, ...]] = ("tile",)
    tile: str


@dataclass(frozen=True, slots=True)
class MasonExchange(Action):
    """Master Builder: ``reserve_tile`` takes the place of ``city_tile`` (which goes to the reserve)."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character exchange"
    grammar: ClassVar[tuple[str, ...]] = ("tile", "tile")
    reserve_tile: str
    city_tile: str


def _amount(w: str) -> int:
    if not w.isdigit() or not 1 <= int(w) <= MAX_BID:
        raise NotationError(f"a bid is a whole number from 1 to {MAX_BID}, not {w!r}")
    return int(w)


def _square(w: str) -> int:
    if w not in ("1", "2", "3", "4"):
        raise NotationError(f"a market square is 1-4, not {w!r}")
    return int(w)


def _one_card(w: str) -> str:
    cards = parse_cards(w)
    if len(cards) != 1:
        raise NotationError(f"name one card, not {w!r}")
    return cards[0]


def _tile(w: str) -> str:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", w):
        raise NotationError(f"bad tile code {w!r}")
    return w[0].upper() + w[1:].lower()


def _kind(w: str) -> str:
    if w not in KINDS:
        raise NotationError(f"unknown building kind {w!r} (one of {', '.join(KINDS)})")
    return w


def _p1(usage: str, make: Any) -> Any:
    def parse(words: list[str]) -> Action:
        need_words(words, 1, usage)
        return make(words[0])  # type: ignore[no-any-return]

    return parse


def _p2(usage: str, make: Any) -> Any:
    def parse(words: list[str]) -> Action:
        need_words(words, 2, usage)
        return make(words[0], words[1])  # type: ignore[no-any-return]

    return parse


register_parser("character bid", _p1("character bid AMOUNT (e.g. character bid 7)", lambda w: Bid(_amount(w))), Bid)
register_parser("character pass", word_parser(PassBid()), PassBid)
register_parser("character pay", _p1("character pay CARDS (e.g. character pay b5+b3)", lambda w: PayBid(parse_cards(w))), PayBid)
register_parser("character keep", word_parser(Keep()), Keep)
register_parser("character swap", word_parser(Swap()), Swap)
register_parser("character dancer", _p1("character dancer SQUARE (1-4)", lambda w: Dance(_square(w))), Dance)
register_parser("character beggar", word_parser(Beg()), Beg)
register_parser("character go", word_parser(Go()), Go)


def _parse_patron(words: list[str]) -> Action:
    need_words(words, 1, "character patron SQUARE|ITEM (a market square 1-4, or a bazaar)")
    w = words[0]
    if w.isdigit():
        return Patron(_square(w))
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", w):
        raise NotationError(f"name a market square (1-4) or an item, not {w!r}")
    return PatronItem(w)


register_parser("character patron", _parse_patron, Patron, PatronItem)
register_parser(
    "character change",
    _p2("character change CARD CARD (e.g. character change b7 y5)", lambda a, b: Change(_one_card(a), _one_card(b))),
    Change,
)
register_parser("character miser", _p1("character miser CARD (e.g. character miser g6)", lambda w: MiserTake(_one_card(w))), MiserTake)
register_parser("character skip", word_parser(Skip()), Skip)
register_parser("character wise", _p1("character wise KIND (e.g. character wise tower)", lambda w: Wise(_kind(w))), Wise)
register_parser(
    "character build",
    _p2("character build TILE x,y (e.g. character build G8sw 1,-2)", lambda a, b: MasonBuild(_tile(a), parse_xy(b))),
    MasonBuild,
)
register_parser("character remove", _p1("character remove TILE", lambda w: MasonRemove(_tile(w))), MasonRemove)
register_parser(
    "character exchange",
    _p2("character exchange RESERVE_TILE ALHAMBRA_TILE", lambda a, b: MasonExchange(_tile(a), _tile(b))),
    MasonExchange,
)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


def _n(key: str) -> str:
    return BY_KEY[key].name


@dataclass(frozen=True, slots=True)
class CharacterDrawn(Event):
    """A character card came up from the money pile: ``character`` is auctioned."""

    character: str

    def describe(self) -> str:
        return f"the {_n(self.character)} comes up and is auctioned"


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """``seat`` bid ``amount`` for ``character``."""

    seat: int
    character: str
    amount: int

    def describe(self) -> str:
        return f"{_p(self.seat)} bids {self.amount} for the {_n(self.character)}"


@dataclass(frozen=True, slots=True)
class BidPassed(Event):
    """``seat`` is out of the auction of ``character``."""

    seat: int
    character: str

    def describe(self) -> str:
        return f"{_p(self.seat)} passes on the {_n(self.character)}"


@dataclass(frozen=True, slots=True)
class CharacterWon(Event):
    """``seat`` paid ``payment`` (its bid ``bid``) and owns ``character``."""

    seat: int
    character: str
    bid: int
    payment: tuple[str, ...]

    def describe(self) -> str:
        return f"{_p(self.seat)} pays {'+'.join(self.payment)} for the {_n(self.character)} (bid {self.bid})"


@dataclass(frozen=True, slots=True)
class CharacterRemoved(Event):
    """``character`` leaves the game (nobody bid for it, or it was used up)."""

    character: str
    why: str

    def describe(self) -> str:
        return f"the {_n(self.character)} leaves the game ({self.why})"


@dataclass(frozen=True, slots=True)
class EntertainerDecided(Event):
    """``seat`` kept the Entertainer, or swapped it for ``got`` from the surplus pile."""

    seat: int
    got: str | None

    def describe(self) -> str:
        if self.got is None:
            return f"{_p(self.seat)} keeps the Travelling Entertainer (8 points)"
        return f"{_p(self.seat)} swaps the Travelling Entertainer for the {_n(self.got)} from the surplus pile"


@dataclass(frozen=True, slots=True)
class CharacterUsed(Event):
    """``seat`` used ``character``; ``detail`` says how (for the log)."""

    seat: int
    character: str
    detail: str

    def describe(self) -> str:
        return f"{_p(self.seat)} uses the {_n(self.character)}: {self.detail}"


@dataclass(frozen=True, slots=True)
class CardGivenUp(Event):
    """``seat`` discarded ``payment`` (the Moneychanger's exchange): the tracker reads ``payment``."""

    seat: int
    payment: tuple[str, ...]

    def describe(self) -> str:
        return f"{_p(self.seat)} discards {'+'.join(self.payment)}"


# ---------------------------------------------------------------------------------- rules helpers
def max_bid(state: GameState, seat: int) -> int:
    """The most ``seat`` can pay in one currency: money cards of one currency (diamonds alone
    are a currency) and the money of that currency it holds outside the hand (coins, markers;
    not a credit for building tiles only). Exchange cards do not pay for characters."""
    comp = state.components
    totals = [0] * len(comp.currencies)
    for c in state.players[seat].hand:
        if comp.card_is_money[c] and 0 <= comp.card_currency[c] < len(totals):
            totals[comp.card_currency[c]] += comp.card_value[c]
    for src in money_sources_of(state, seat):
        if not src.buildings_only and 0 <= src.currency < len(totals):
            totals[src.currency] += src.value
    return min(MAX_BID, max(totals, default=0))


def _payments(state: GameState, seat: int) -> list[tuple[str, ...]]:
    """Every way ``seat`` may pay its winning bid (the module's offer, one currency per payment)."""
    comp = state.components
    codes = set(comp.card_code)
    money = {c.code for c in comp.cards if c.is_money}
    out: list[tuple[str, ...]] = []
    for a in purchase_options(state, seat, out_of_turn=True):
        ok = isinstance(a, BuyItem) and a.item == ITEM and all(code in money or code not in codes for code in a.payment)
        if ok and a.payment not in out:
            out.append(a.payment)
    return out


def _may_swap(state: GameState) -> bool:
    """The surplus pile still holds a face-down card nobody has seen."""
    sl = chars(state)
    return bool(sl.unseen()) and sl.surplus - len(sl.known) > 0


def _patron_offers(state: GameState, seat: int) -> list[Offer]:
    """The buildings sold beside the market that the Rich Patron may take (a bazaar: an offer of a
    tile that an exact payment buys; not a building site, never an exact purchase)."""
    return [o for o in offers_of(state, seat) if o.tile >= 0 and not o.never_exact and o.module != MODULE_ID]


def _money_in_hand(state: GameState, seat: int) -> int:
    comp = state.components
    return sum(1 for c in state.players[seat].hand if comp.card_is_money[c])


def _dance_squares(state: GameState, seat: int) -> list[int]:
    if not _usable(state, seat, DANCER) or not state.bag:
        return []
    return [i + 1 for i, t in enumerate(state.market) if t >= 0]


def _may_beg(state: GameState, seat: int) -> bool:
    return (
        owns(state, seat, BEGGAR)
        and BEGGAR not in chars(state).used
        and _money_in_hand(state, seat) <= data().beggar_hand
        and bool(state.deck or state.discard)
    )


def _changes(state: GameState, seat: int) -> list[Action]:
    if not _usable(state, seat, MONEYCHANGER):
        return []
    comp = state.components
    mine = {comp.card_code[c]: comp.card_value[c] for c in state.players[seat].hand if comp.card_is_money[c]}
    shown = {comp.card_code[c]: comp.card_value[c] for c in state.display if c >= 0 and comp.card_is_money[c]}
    return [Change(g, t) for g, gv in sorted(mine.items()) for t, tv in sorted(shown.items()) if tv <= gv and t != g]


def _miser_cards(state: GameState) -> list[str]:
    comp = state.components
    return sorted({comp.card_code[c] for c in state.display if c >= 0 and comp.card_is_money[c]})


def _turn_top(state: GameState, seat: int) -> bool:
    top = state.pending[-1] if state.pending else None
    return isinstance(top, ChooseAction) and top.seat == seat


def _mason_actions(state: GameState, seat: int) -> list[Action]:
    out: list[Action] = []
    for r in redesign_options(state, seat):
        if isinstance(r, BuildFromReserve):
            out.append(MasonBuild(r.tile, r.target))
        elif isinstance(r, MoveToReserve):
            out.append(MasonRemove(r.tile))
        elif isinstance(r, ExchangeTiles):
            out.append(MasonExchange(r.reserve_tile, r.city_tile))
    return out


def _core_redesign(action: Action) -> Action:
    if isinstance(action, MasonBuild):
        return BuildFromReserve(action.tile, action.target)
    if isinstance(action, MasonRemove):
        return MoveToReserve(action.tile)
    assert isinstance(action, MasonExchange)
    return ExchangeTiles(action.reserve_tile, action.city_tile)


def _do_redesign(state: GameState, seat: int, redesign: Action, events: list[Event]) -> None:
    """A checked core redesign for ``seat``, as the core does it, with its event."""
    p = state.players[seat]
    ids = state.components.tile_ids

    def where(tile: int) -> int:
        return next(q for q, c in p.city.items() if c == tile)

    if isinstance(redesign, BuildFromReserve):
        t = ids[redesign.tile]
        p.reserve.remove(t)
        p.build(geo.pos(*redesign.target), t)
        events.append(AlhambraRedesigned(seat, "build", redesign.tile, redesign.target[0], redesign.target[1]))
    elif isinstance(redesign, MoveToReserve):
        t = ids[redesign.tile]
        q = where(t)
        p.unbuild(q)
        p.reserve.append(t)
        x, y = geo.xy(q)
        events.append(AlhambraRedesigned(seat, "remove", redesign.tile, x, y))
    else:
        assert isinstance(redesign, ExchangeTiles)
        rt = ids[redesign.reserve_tile]
        ct = ids[redesign.city_tile]
        q = where(ct)
        p.reserve.remove(rt)
        p.reserve.append(ct)
        p.build(q, rt)
        x, y = geo.xy(q)
        events.append(AlhambraRedesigned(seat, "exchange", redesign.reserve_tile, x, y, redesign.city_tile))


def _with_owner(sl: CharactersState, seat: int, key: str) -> CharactersState:
    owned = list(sl.owned)
    owned[seat] = tuple(sorted((*owned[seat], key), key=NAMES.index))
    return replace(sl, owned=tuple(owned))


def _without_owner(sl: CharactersState, seat: int, key: str) -> CharactersState:
    owned = list(sl.owned)
    owned[seat] = tuple(k for k in owned[seat] if k != key)
    return replace(sl, owned=tuple(owned))


def _draw_identity(state: GameState, pool: list[str]) -> str:
    """Which character a face-down card shows (a chance node in explicit-chance mode)."""
    got = module_draw(state, MODULE_ID, pool)
    return got[0] if got is not None else module_random(state, MODULE_ID).choice(pool)


def wall_points(state: GameState, seat: int, round_no: int | None = None) -> int:
    """The points ``seat`` scores for walls in scoring round ``round_no`` (default: the next one):
    what the City Watch reads (``engine.wall_points``: the longest wall and every module's change,
    the watchtowers' bonus included)."""
    rnd = round_no if round_no is not None else min(3, state.rounds_scored + 1)
    return engine_wall_points(state, seat, rnd)


def _use(state: GameState, key: str) -> None:
    sl = chars(state)
    if BY_KEY[key].usage == "round" and key not in sl.used:
        state.mods[MODULE_ID] = replace(sl, used=(*sl.used, key))


# ---------------------------------------------------------------------------------- bots
BOT_COIN: Final = 0.5
"""Bot estimate: points one coin of a bid is worth (what the bidder gives up)."""


def _char_value(state: GameState, key: str) -> float:
    """What owning ``key`` is worth to the bots now, in points (less as the game goes on)."""
    if key == ENTERTAINER:
        return float(data().entertainer_points)
    left = max(0.0, (3 - state.rounds_scored) / 3)
    return BY_KEY[key].bot_value * left


# ---------------------------------------------------------------------------------- module
class Characters(Module):
    """Characters."""

    id = MODULE_ID
    title = "Characters"
    description = (
        "Ten characters with special abilities; six are shuffled into the money piles. A character that comes up is "
        "auctioned at once (bids in one currency); the winner may use it from then on."
    )
    assumptions = (
        "A bid must be payable in one currency (diamonds alone count as one) with what the bidder holds, but need not be "
        "payable exactly: the winner may pay more (the rulebook gives change for overpaid characters, p.18). Exchange "
        "cards do not pay for characters; change coins and caravanserai markers do, as money of their currency.",
        "The auction: the seat due to play next (the player whose turn is under way, for a card the Beggar draws) bids "
        "first or passes; then clockwise every seat still in raises or passes for good, until one bidder is left. With "
        "2 players the neutral player never bids and owns no character.",
        "Several characters drawn in one refill are auctioned one after the other, in the order drawn, right after the "
        "display refill (before the market refill and before a scoring round drawn in the same refill).",
        "A 'round' in the usage rule is one turn of the owner: an ability with the round symbol is used at most once in "
        "each of the owner's turns; the Rich Patron leaves the game once used.",
        "The Dancer and the Beggar are used at the very start of the owner's own turn (before the caravanserai "
        "marker move). The old tile of the Dancer goes back into the bag at a random place; the new one is drawn as "
        "for a market refill.",
        "A scoring card the Beggar draws is scored at the end of the turn, like one drawn by the display refill.",
        "The Rich Patron and the Miser act only on purchases in the owner's own turn (not with the vizier). The "
        "Patron's purchase counts as an exact payment (another action) with no money paid.",
        "The Travelling Entertainer kept is worth 8 points in the final scoring; swapped, it goes to the bottom of the "
        "surplus pile face down and the surplus pile's top card is owned at once.",
        "The Wise Man's half building counts for the chosen kind even with no building of it (so it can take a place).",
        "The City Watch adds 1 point per 3 points the owner scores for the longest wall in each scoring round.",
    )
    component_assumptions = (
        "Which usage symbol each card carries is unknown (the symbols are lost in the rule text): Wise Man and City "
        "Watch crown; Rich Patron once; Entertainer and Beggar none; the other five once per turn (components.json).",
    )

    def companion(self) -> CompanionHooks:
        """Its part in scoring a real table (:mod:`.companion`)."""
        from .companion import COMPANION

        return COMPANION

    # ----- components and setup ---------------------------------------------------------
    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """Ten character cards of one back."""
        return [CardType(data().code, "character", module=self.id) for _ in range(10)]

    def check_config(self, config: GameConfig) -> None:
        """Any table of the Alhambra (2-6 players)."""

    def setup(self, state: GameState, rng: random.Random) -> None:
        """The slice; every card is held here until ``deck_piles`` puts six into the piles."""
        n = state.config.players
        state.mods[self.id] = CharactersState(card_ids(state), ((),) * n, wise=("",) * n)

    def deck_piles(self, state: GameState, piles: list[list[int]], rng: random.Random) -> None:
        """Two cards into each of piles 2, 3 and 4 (shuffled in); four stay as the surplus pile."""
        sl = chars(state)
        ids = list(sl.cards)
        k = data().per_pile
        at = 0
        for pile in data().piles:
            for c in ids[at : at + k]:
                piles[pile].insert(rng.randrange(len(piles[pile]) + 1), c)
            at += k
        state.mods[self.id] = replace(sl, cards=tuple(ids[at:]), surplus=len(ids) - at)

    def chance_items(self, config: GameConfig) -> list[str]:
        """The ten characters (which one a turned-up card shows)."""
        return list(NAMES)

    def held_cards(self, state: GameState) -> list[int]:
        """Every character card not in the money pile (they never go back into it)."""
        return list(chars(state).cards)

    def max_actions_between_turns(self, config: GameConfig) -> int:
        """Auctions of up to four cards one refill draws: bids rise by at least 1 up to 99, each
        seat passes once, a payment and the Entertainer's choice."""
        return 4 * (MAX_BID + config.players + 2)

    def notation_items(self, config: GameConfig) -> list[str]:
        """The offer item of a won character's payment."""
        return [ITEM]

    # ----- draws and auctions -------------------------------------------------------------
    def card_drawn(self, state: GameState, card: int, events: list[Event]) -> bool:
        """Turn the card up (which character it is, is drawn now) and set it aside for its auction."""
        sl = chars(state)
        key = _draw_identity(state, sl.unseen())
        state.mods[self.id] = replace(sl, cards=tuple(sorted((*sl.cards, card))), queue=(*sl.queue, key))
        events.append(CharacterDrawn(key))
        return True

    def _start_auction(self, state: GameState) -> None:
        sl = chars(state)
        if not sl.queue or any(isinstance(p, Auction | CharacterPayment | EntertainerChoice) for p in state.pending):
            return
        n = state.config.players
        first = state.current if state.stage == STAGE_TURN and self._turn_under_way(state) else (state.current + 1) % n
        order = tuple((first + i) % n for i in range(n))
        state.pending.append(Auction(first, sl.queue[0], order, 0, -1, first))

    @staticmethod
    def _turn_under_way(state: GameState) -> bool:
        """The turn's actions are not over yet (a Beggar's draw): its player is the auctioneer."""
        return any(isinstance(p, ChooseAction | TurnStart) for p in state.pending)

    def after_refill(self, state: GameState, events: list[Event]) -> None:
        """The end-of-turn refill drew characters: auction the first."""
        self._start_auction(state)

    def after_action(self, state: GameState, events: list[Event]) -> None:
        """A refill inside an action (a thief's, the Beggar's draw) drew characters: auction them."""
        self._start_auction(state)

    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """Settle pendings with nothing to decide; chain auctions; end turn-start choices."""
        if isinstance(pending, Auction):
            self._settle_auction(state, pending, events)
        elif isinstance(pending, TurnStart):
            if not (_dance_squares(state, pending.seat) or _may_beg(state, pending.seat)):
                state.pending.pop()
        elif isinstance(pending, MiserChoice):
            if not _miser_cards(state):
                state.pending.pop()
        elif isinstance(pending, MasterBuilderChoice):
            if not _mason_actions(state, pending.seat):
                state.pending.pop()
        elif isinstance(pending, EntertainerChoice) and not _may_swap(state):
            state.pending.pop()
            events.append(EntertainerDecided(pending.seat, None))
            self._start_auction(state)

    def _settle_auction(self, state: GameState, a: Auction, events: list[Event]) -> None:
        """Close a finished auction: the last bidder left pays; nobody bid: the card leaves the game."""
        sl = chars(state)
        if a.order and not (a.leader >= 0 and a.order == (a.leader,)):
            return
        state.pending.pop()
        if a.leader < 0:
            state.mods[self.id] = replace(sl, queue=sl.queue[1:], out=(*sl.out, a.character))
            events.append(CharacterRemoved(a.character, "nobody bid for it"))
            self._start_auction(state)
        else:
            state.pending.append(CharacterPayment(a.leader, a.character, a.high))

    def _after_auction(self, state: GameState) -> None:
        """The next character waiting for its auction, if any."""
        self._start_auction(state)

    def turn_started(self, state: GameState, seat: int, events: list[Event]) -> None:
        """A new turn: round abilities are fresh; the Dancer and the Beggar may act first."""
        sl = chars(state)
        if sl.used:
            state.mods[self.id] = replace(sl, used=())
        if _dance_squares(state, seat) or _may_beg(state, seat):
            state.pending.append(TurnStart(seat))

    def turn_ending(self, state: GameState, events: list[Event]) -> None:
        """The Master Builder's extra redesign, after the new buildings are placed."""
        seat = state.current
        if _usable(state, seat, MASTER_BUILDER) and _mason_actions(state, seat):
            state.pending.append(MasterBuilderChoice(seat))

    def before_scoring(self, state: GameState, round_no: int, events: list[Event]) -> None:
        """The Wise Man's owner names a kind for this round."""
        for seat, mine in enumerate(chars(state).owned):
            if WISE_MAN in mine:
                state.pending.append(WiseChoice(seat, round_no))

    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        """The Miser: a building of price 10 or more bought in the owner's own turn."""
        seat = purchase.seat
        if (
            not purchase.out_of_turn
            and purchase.tile >= 0
            and purchase.price >= data().miser_price
            and state.current == seat
            and _usable(state, seat, MISER)
            and _miser_cards(state)
        ):
            state.pending.append(MiserChoice(seat))

    def take_limit(self, state: GameState, seat: int) -> int | None:
        """The Trader: several money cards up to 7."""
        return data().trader_limit if _usable(state, seat, TRADER) else None

    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        """The won character, only to its winner while it pays (one currency per payment)."""
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, CharacterPayment) or top.seat != seat:
            return []
        ways = tuple(frozenset({c}) for c in range(len(state.components.currencies)))
        return [Offer(ITEM, self.id, top.bid, ways, out_of_turn=True, again_if_exact=False, label=f"the {_n(top.character)}", change=True)]

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        """Nothing to deliver here: :meth:`perform` hands the card over."""

    # ----- actions ------------------------------------------------------------------------
    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """Rich Patron (a building for free) and Moneychanger (a free exchange)."""
        if not _turn_top(state, seat):
            return []
        out: list[Action] = []
        if owns(state, seat, RICH_PATRON):
            out += [Patron(i + 1) for i, t in enumerate(state.market) if t >= 0]
            out += [PatronItem(o.item) for o in _patron_offers(state, seat)]
        out += _changes(state, seat)
        return out

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """The choices of this module's pendings."""
        seat = pending.seat
        if isinstance(pending, Auction):
            top = max_bid(state, seat)
            return [Bid(b) for b in range(pending.high + 1, top + 1)] + [PassBid()]
        if isinstance(pending, CharacterPayment):
            return [PayBid(p) for p in _payments(state, seat)]
        if isinstance(pending, EntertainerChoice):
            return [Keep(), Swap()]
        if isinstance(pending, TurnStart):
            out: list[Action] = [Dance(q) for q in _dance_squares(state, seat)]
            if _may_beg(state, seat):
                out.append(Beg())
            return [*out, Go()]
        if isinstance(pending, MiserChoice):
            return [*(MiserTake(c) for c in _miser_cards(state)), Skip()]
        if isinstance(pending, MasterBuilderChoice):
            return [*_mason_actions(state, seat), Skip()]
        if isinstance(pending, WiseChoice):
            return [Wise(k) for k in KINDS]
        return []

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        if isinstance(action, Patron | PatronItem | Change):
            if not isinstance(top, ChooseAction):
                raise WrongPhase(f"{action} is an action of your own turn")
            seat = top.seat
            if isinstance(action, Patron | PatronItem):
                if not owns(state, seat, RICH_PATRON):
                    raise IllegalAction("you do not own the Rich Patron")
                if isinstance(action, Patron) and state.market[action.square - 1] < 0:
                    raise IllegalAction(f"market square {action.square} is empty")
                if isinstance(action, PatronItem) and action.item not in {o.item for o in _patron_offers(state, seat)}:
                    raise IllegalAction(f"the Rich Patron cannot take {action.item!r} now")
                return
            if not owns(state, seat, MONEYCHANGER):
                raise IllegalAction("you do not own the Moneychanger")
            if MONEYCHANGER in chars(state).used:
                raise IllegalAction("the Moneychanger has been used in this turn already")
            if action not in _changes(state, seat):
                raise IllegalAction(
                    "the Moneychanger exchanges a money card of your hand for an open money card of equal or lesser value: "
                    f"{action.give} for {action.take} is not possible"
                )
            return
        expect: dict[type[Action], type[Pending]] = {
            Bid: Auction,
            PassBid: Auction,
            PayBid: CharacterPayment,
            Keep: EntertainerChoice,
            Swap: EntertainerChoice,
            Dance: TurnStart,
            Beg: TurnStart,
            Go: TurnStart,
            MiserTake: MiserChoice,
            Wise: WiseChoice,
            MasonBuild: MasterBuilderChoice,
            MasonRemove: MasterBuilderChoice,
            MasonExchange: MasterBuilderChoice,
        }
        if isinstance(action, Skip):
            if not isinstance(top, MiserChoice | MasterBuilderChoice):
                raise WrongPhase("nothing to skip now (the Miser's card or the Master Builder's redesign)")
            return
        want = expect.get(type(action))
        if want is None:
            raise IllegalAction(f"{action} is not a characters action")
        if not isinstance(top, want):
            raise WrongPhase(f"{action} answers {want.__name__}, which is not the decision now")
        assert top is not None
        if isinstance(action, Bid):
            assert isinstance(top, Auction)
            if action.amount <= top.high:
                raise IllegalAction(f"a bid must be higher than {top.high}")
            if action.amount > max_bid(state, top.seat):
                raise IllegalAction(f"you cannot pay {action.amount} in one currency (at most {max_bid(state, top.seat)})")
        elif isinstance(action, PayBid):
            if action.payment not in _payments(state, top.seat):
                assert isinstance(top, CharacterPayment)
                raise IllegalAction(
                    f"pay {top.bid} or more with money of one currency (or diamonds alone): {'+'.join(action.payment)} does not"
                )
        elif isinstance(action, Swap):
            if not _may_swap(state):
                raise IllegalAction("the surplus pile holds no card to swap for")
        elif isinstance(action, Dance):
            if action.square not in _dance_squares(state, top.seat):
                raise IllegalAction(
                    "the Dancer exchanges a building of the market for one from the bag (once, with a tile left in the bag)"
                )
        elif isinstance(action, Beg):
            if not _may_beg(state, top.seat):
                raise IllegalAction("the Beggar draws only with at most 2 money cards in the hand, once at the start of the turn")
        elif isinstance(action, MiserTake):
            if action.card not in _miser_cards(state):
                raise IllegalAction(f"{action.card} is not an open money card")
        elif isinstance(action, MasonBuild | MasonRemove | MasonExchange) and action not in _mason_actions(state, top.seat):
            raise IllegalAction(f"{_core_redesign(action)} is not a possible redesign now")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry out a checked action."""
        top = state.pending[-1]
        seat = top.seat
        sl = chars(state)
        comp = state.components
        if isinstance(action, Bid):
            assert isinstance(top, Auction)
            events.append(BidMade(seat, top.character, action.amount))
            order = (*top.order[1:], seat)
            state.pending[-1] = Auction(order[0], top.character, order, action.amount, seat, top.auctioneer)
        elif isinstance(action, PassBid):
            assert isinstance(top, Auction)
            events.append(BidPassed(seat, top.character))
            order = top.order[1:]
            state.pending[-1] = Auction(order[0] if order else seat, top.character, order, top.high, top.leader, top.auctioneer)
        elif isinstance(action, PayBid):
            assert isinstance(top, CharacterPayment)
            pay_for_offer(state, seat, ITEM, action.payment, events, out_of_turn=True)
            state.pending.remove(top)
            sl = chars(state)
            state.mods[self.id] = _with_owner(replace(sl, queue=sl.queue[1:]), seat, top.character)
            events.append(CharacterWon(seat, top.character, top.bid, action.payment))
            if top.character == ENTERTAINER:
                state.pending.append(EntertainerChoice(seat))
            else:
                self._after_auction(state)
        elif isinstance(action, Keep):
            state.pending.pop()
            events.append(EntertainerDecided(seat, None))
            self._after_auction(state)
        elif isinstance(action, Swap):
            state.pending.pop()
            got = _draw_identity(state, sl.unseen())
            sl = _with_owner(_without_owner(sl, seat, ENTERTAINER), seat, got)
            state.mods[self.id] = replace(sl, known=(*sl.known, ENTERTAINER))
            events.append(EntertainerDecided(seat, got))
            self._after_auction(state)
        elif isinstance(action, Dance):
            sq = action.square
            old = state.market[sq - 1]
            state.market[sq - 1] = -1
            _use(state, DANCER)
            events.append(CharacterUsed(seat, DANCER, f"the {comp.tile_code[old]} on square {sq} goes back into the bag"))
            refill_market(state, events)
            if state.decided is None and state.piles is None:
                state.bag.insert(module_random(state, self.id).randrange(len(state.bag) + 1), old)
            else:
                state.bag.append(old)
        elif isinstance(action, Beg):
            state.mods[self.id] = replace(sl, used=(*sl.used, BEGGAR))
            while True:
                c = draw_card(state, events)
                if c is None:
                    break
                state.players[seat].hand.append(c)
                events.append(MoneyTaken(seat, (comp.card_code[c],)))
                if comp.card_is_money[c]:
                    break
            events.append(CharacterUsed(seat, BEGGAR, "draws the top card of the money pile"))
        elif isinstance(action, Go):
            state.pending.pop()
        elif isinstance(action, Patron | PatronItem):
            assert isinstance(top, ChooseAction)
            state.mods[self.id] = replace(_without_owner(sl, seat, RICH_PATRON), out=(*sl.out, RICH_PATRON))
            where: int | str = action.square if isinstance(action, Patron) else action.item
            if isinstance(where, int):
                code = comp.tile_code[state.market[where - 1]]
                events.append(CharacterUsed(seat, RICH_PATRON, f"takes {code} from square {where}, its price paid"))
            else:
                offer = next(o for o in _patron_offers(state, seat) if o.item == where)
                code = comp.tile_code[offer.tile]
                events.append(CharacterUsed(seat, RICH_PATRON, f"takes {code}, its price paid"))
            events.append(CharacterRemoved(RICH_PATRON, "used"))
            state.pending[-1] = ChooseAction(top.seat, top.actions, (*top.bought, code))
            finish_turn_action(state, again=True)
            buy_covered(state, seat, where, events)
        elif isinstance(action, Change):
            hand = state.players[seat].hand
            give = next(c for c in hand if comp.card_code[c] == action.give and comp.card_is_money[c])
            hand.remove(give)
            state.discard.append(give)
            i = next(i for i, c in enumerate(state.display) if c >= 0 and comp.card_code[c] == action.take)
            hand.append(state.display[i])
            state.display[i] = -1
            _use(state, MONEYCHANGER)
            events.append(CardGivenUp(seat, (action.give,)))
            events.append(MoneyTaken(seat, (action.take,)))
            events.append(CharacterUsed(seat, MONEYCHANGER, f"{action.give} for {action.take}"))
        elif isinstance(action, MiserTake):
            state.pending.pop()
            i = next(i for i, c in enumerate(state.display) if c >= 0 and comp.card_code[c] == action.card)
            state.players[seat].hand.append(state.display[i])
            state.display[i] = -1
            _use(state, MISER)
            events.append(MoneyTaken(seat, (action.card,)))
            events.append(CharacterUsed(seat, MISER, f"takes {action.card}"))
        elif isinstance(action, Skip):
            state.pending.pop()
        elif isinstance(action, Wise):
            assert isinstance(top, WiseChoice)
            state.pending.pop()
            wise = list(sl.wise)
            wise[seat] = action.kind
            state.mods[self.id] = replace(sl, wise=tuple(wise))
            events.append(CharacterUsed(seat, WISE_MAN, f"half a {action.kind} in scoring round {top.round_no}"))
        elif isinstance(action, MasonBuild | MasonRemove | MasonExchange):
            state.pending.pop()
            _use(state, MASTER_BUILDER)
            events.append(CharacterUsed(seat, MASTER_BUILDER, "an extra redesign"))
            _do_redesign(state, seat, _core_redesign(action), events)

    # ----- scoring ------------------------------------------------------------------------
    def building_counts(self, state: GameState, seat: int, counts: dict[str, float]) -> None:
        """The Wise Man's half building of the kind its owner named for this round."""
        if seat < 0:
            return
        kind = chars(state).wise[seat] if seat < len(chars(state).wise) else ""
        if kind and kind in counts and owns(state, seat, WISE_MAN):
            counts[kind] += 0.5

    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """City Watch: 1 per 3 wall points; the Entertainer kept: 8 in the final scoring."""
        sl = chars(state)
        out = [0] * state.config.players
        for seat, mine in enumerate(sl.owned):
            if CITY_WATCH in mine:
                out[seat] += wall_points(state, seat, round_no) // data().city_watch_per
            if ENTERTAINER in mine and round_no == 3:
                out[seat] += data().entertainer_points
        return out if any(out) else None

    def round_scored(self, state: GameState, round_no: int, events: list[Event]) -> None:
        """The Wise Man's choice holds for one round."""
        sl = chars(state)
        if any(sl.wise) or any(sl.scored_wise):
            state.mods[self.id] = replace(sl, wise=("",) * len(sl.wise), scored_wise=sl.wise)

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Owned characters at their value for the rest of the game; the leader of an auction
        (or the winner about to pay) at the card's value less what the bid costs."""
        if state.outcome is not None:
            return None
        sl = chars(state)
        out = [0.0] * state.config.players
        for seat, mine in enumerate(sl.owned):
            for k in mine:
                out[seat] += _char_value(state, k)
        for p in state.pending:
            if isinstance(p, Auction) and p.leader >= 0:
                out[p.leader] += _char_value(state, p.character) - BOT_COIN * p.high
            elif isinstance(p, CharacterPayment):
                out[p.seat] += _char_value(state, p.character) - BOT_COIN * p.bid
        return out

    # ----- views --------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: who owns which character, those out of the game, the cards waiting for an
        auction, the surplus pile's size, the abilities used this turn and the Wise Man's kinds."""
        sl = chars(state)
        return {
            "cards": len(sl.cards),
            "owned": [list(o) for o in sl.owned],
            "queue": list(sl.queue),
            "out": list(sl.out),
            "surplus": sl.surplus,
            "known": list(sl.known),
            "used": list(sl.used),
            "wise": list(sl.wise),
            "scored_wise": list(sl.scored_wise),
            "unseen": sl.unseen(),
            "names": {k: BY_KEY[k].name for k in NAMES},
            "usage": {k: BY_KEY[k].usage for k in NAMES},
            "in_piles": len(card_ids(state)) - len(sl.cards) if MODULE_ID in state.mods else 0,
            "city_watch": [wall_points(state, s) // data().city_watch_per if CITY_WATCH in o else 0 for s, o in enumerate(sl.owned)],
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public; the held card ids are any of the character cards."""
        from ...engine.services import build_components

        comp = build_components(config)
        ids = [i for i, c in enumerate(comp.cards) if c.code == data().code]
        k = int(module_view["cards"])
        return CharactersState(
            tuple(ids[len(ids) - k :]),
            tuple(tuple(o) for o in module_view["owned"]),
            tuple(module_view["queue"]),
            tuple(module_view["out"]),
            int(module_view["surplus"]),
            tuple(module_view["known"]),
            tuple(module_view["used"]),
            tuple(module_view["wise"]),
            tuple(module_view["scored_wise"]),
        )

    def slice_from_json(self, data: Any) -> Any:
        """Read the slice back."""
        return CharactersState.from_dict(data)


MODULE: Final = Characters()
