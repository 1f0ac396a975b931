"""The characters' actions and their notation (``character bid 7``, ``character dancer 2``, ...)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ...actions import (
    Action,
    args_parser,
    need_words,
    parse_cards,
    parse_kind,
    parse_tile,
    parse_xy,
    register_parser,
    word_parser,
)
from ...errors import NotationError
from .components import MAX_BID, MODULE_ID


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


@dataclass(frozen=True, slots=True)
class MasonUse(Action):
    """Master Builder: the extra redesign by another module's own redesign action, which follows
    (a magical building built turned, a tile built through a city gate, a camp: ``character
    redesign``)."""

    module = MODULE_ID
    keyword: ClassVar[str] = "character redesign"
    grammar: ClassVar[tuple[str, ...]] = ()


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


register_parser("character bid", args_parser(1, "character bid AMOUNT (e.g. character bid 7)", lambda w: Bid(_amount(w))), Bid)
register_parser("character pass", word_parser(PassBid()), PassBid)
register_parser("character pay", args_parser(1, "character pay CARDS (e.g. character pay b5+b3)", lambda w: PayBid(parse_cards(w))), PayBid)
register_parser("character keep", word_parser(Keep()), Keep)
register_parser("character swap", word_parser(Swap()), Swap)
register_parser("character dancer", args_parser(1, "character dancer SQUARE (1-4)", lambda w: Dance(_square(w))), Dance)
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
    args_parser(2, "character change CARD CARD (e.g. character change b7 y5)", lambda a, b: Change(_one_card(a), _one_card(b))),
    Change,
)
register_parser(
    "character miser", args_parser(1, "character miser CARD (e.g. character miser g6)", lambda w: MiserTake(_one_card(w))), MiserTake
)
register_parser("character skip", word_parser(Skip()), Skip)
register_parser("character wise", args_parser(1, "character wise KIND (e.g. character wise tower)", lambda w: Wise(parse_kind(w))), Wise)
register_parser(
    "character build",
    args_parser(2, "character build TILE x,y (e.g. character build G8sw 1,-2)", lambda a, b: MasonBuild(parse_tile(a), parse_xy(b))),
    MasonBuild,
)
register_parser("character remove", args_parser(1, "character remove TILE", lambda w: MasonRemove(parse_tile(w))), MasonRemove)
register_parser(
    "character exchange",
    args_parser(2, "character exchange RESERVE_TILE ALHAMBRA_TILE", lambda a, b: MasonExchange(parse_tile(a), parse_tile(b))),
    MasonExchange,
)
register_parser("character redesign", word_parser(MasonUse()), MasonUse)
