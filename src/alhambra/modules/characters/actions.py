"""The characters' actions and their notation (``character bid 7``, ``character dancer 2``, ...)."""

from __future__ import annotations

from dataclasses import dataclass

from ...actions import Action, register_action
from .components import MODULE_ID


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid ``amount`` for the character in auction (``character bid 7``)."""

    module = MODULE_ID
    keyword = "character bid"
    grammar = ("amount",)
    amount: int


@dataclass(frozen=True, slots=True)
class PassBid(Action):
    """Make no (further) bid for the character in auction."""

    module = MODULE_ID
    keyword = "character pass"
    grammar = ()
    declines = True


@dataclass(frozen=True, slots=True)
class PayBid(Action):
    """Pay the winning bid with these cards (``character pay b5+b3``)."""

    module = MODULE_ID
    keyword = "character pay"
    grammar = ("cards",)
    payment: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Keep the Travelling Entertainer (8 points at the end)."""

    module = MODULE_ID
    keyword = "character keep"
    grammar = ()


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Exchange the Travelling Entertainer for the top card of the surplus pile."""

    module = MODULE_ID
    keyword = "character swap"
    grammar = ()


@dataclass(frozen=True, slots=True)
class Dance(Action):
    """Dancer: exchange the building on market square ``square`` for a new one from the bag."""

    module = MODULE_ID
    keyword = "character dancer"
    grammar = ("square",)
    square: int


@dataclass(frozen=True, slots=True)
class Beg(Action):
    """Beggar: take the top card of the money pile (with 0-2 money cards in the hand)."""

    module = MODULE_ID
    keyword = "character beggar"
    grammar = ()


@dataclass(frozen=True, slots=True)
class Go(Action):
    """Start the turn without (further) Dancer or Beggar."""

    module = MODULE_ID
    keyword = "character go"
    grammar = ()
    declines = True


@dataclass(frozen=True, slots=True)
class Patron(Action):
    """Rich Patron: take the building on ``square``, its price paid exactly (an extra action)."""

    module = MODULE_ID
    keyword = "character patron"
    grammar = ("square",)
    square: int


@dataclass(frozen=True, slots=True)
class PatronItem(Action):
    """Rich Patron: take the building ``item`` sold beside the market (a bazaar), its price paid exactly."""

    module = MODULE_ID
    keyword = "character patron"
    grammar = ("item",)
    item: str


@dataclass(frozen=True, slots=True)
class Change(Action):
    """Moneychanger: discard ``give`` from the hand, take ``take`` (worth no more) from the display."""

    module = MODULE_ID
    keyword = "character change"
    grammar = ("card", "card")
    give: str
    take: str


@dataclass(frozen=True, slots=True)
class MiserTake(Action):
    """Miser: take the open money card ``card``."""

    module = MODULE_ID
    keyword = "character miser"
    grammar = ("card",)
    card: str


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Do not use the Miser or the Master Builder now."""

    module = MODULE_ID
    keyword = "character skip"
    grammar = ()
    declines = True


@dataclass(frozen=True, slots=True)
class Wise(Action):
    """Wise Man: count half a building of ``kind`` in this scoring round."""

    module = MODULE_ID
    keyword = "character wise"
    grammar = ("kind",)
    kind: str


@dataclass(frozen=True, slots=True)
class MasonBuild(Action):
    """Master Builder: build ``tile`` from the reserve board at ``target``."""

    module = MODULE_ID
    keyword = "character build"
    grammar = ("tile", "cell")
    tile: str
    target: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MasonRemove(Action):
    """Master Builder: move ``tile`` from the Alhambra to the reserve board."""

    module = MODULE_ID
    keyword = "character remove"
    grammar = ("tile",)
    tile: str


@dataclass(frozen=True, slots=True)
class MasonExchange(Action):
    """Master Builder: ``reserve_tile`` takes the place of ``city_tile`` (which goes to the reserve)."""

    module = MODULE_ID
    keyword = "character exchange"
    grammar = ("tile", "tile")
    reserve_tile: str
    city_tile: str


@dataclass(frozen=True, slots=True)
class MasonUse(Action):
    """Master Builder: the extra redesign by another module's own redesign action, which follows
    (a magical building built turned, a tile built through a city gate, a camp: ``character
    redesign``)."""

    module = MODULE_ID
    keyword = "character redesign"
    grammar = ()


# in the order of the declarations above (keyword_order() lists the keywords so)
_action: type[Action]
for _action in (Bid, PassBid, PayBid, Keep, Swap, Dance, Beg, Go):
    register_action(_action)
register_action(Patron, PatronItem)  # a square is a number, an item (a bazaar) starts with a letter
for _action in (Change, MiserTake, Skip, Wise, MasonBuild, MasonRemove, MasonExchange, MasonUse):
    register_action(_action)
