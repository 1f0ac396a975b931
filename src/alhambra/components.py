"""Component facts of the base game: building kinds, currencies, tiles, money and scoring tables.

Everything here is plain immutable data. The 54 building tiles are re-encoded from the
component list (kind, price and walled sides of every printed tile); a tile's identity is its
kind, price and walls together, written as a short code such as ``G8sw`` (garden, price 8,
walls south and west). North is the top of the printed tile; tiles are never rotated.

A game assembles its own :class:`ComponentSet` from the base components plus whatever its
modules add, so ids are stable for one configuration and JSON always uses codes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

# the geometry names live in tiles.py; they stay importable from here
from .tiles import (
    EAST as EAST,
    NORTH as NORTH,
    OPPOSITE as OPPOSITE,
    SIDE_DELTAS as SIDE_DELTAS,
    SIDE_LETTERS as SIDE_LETTERS,
    SIDES as SIDES,
    SOUTH as SOUTH,
    WEST as WEST,
    TileType as TileType,
    letters_to_walls as letters_to_walls,
    walls_to_letters as walls_to_letters,
)

if TYPE_CHECKING:
    from .rulesets import Ruleset


KINDS: Final = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
"""The six building kinds, cheapest first (the order of the points table)."""

KIND_LETTERS: Final = "PSACGT"
"""One letter per building kind, used in tile codes."""

CURRENCIES: Final = ("blue", "green", "orange", "yellow")
"""The four currencies by colour: denar, dirham, ducat and florin."""

CURRENCY_NAMES: Final = {"blue": "denar", "green": "dirham", "orange": "ducat", "yellow": "florin"}
"""The rulebook's name of each currency."""

CURRENCY_LETTERS: Final = "bgoy"
"""One letter per currency, used in money card codes (``b9`` is a blue 9)."""

FOUNTAIN_CODE: Final = "F"
FOUNTAIN_KIND: Final = "fountain"

BASE_TILE_CODES: Final = (
    "P2new P3sw P4es P5nw P6n P7e P8 "
    "S3esw S4ne S5sw S6es S7w S8s S9 "
    "A4nes A5nw A6sw A6ne A7es A8n A8e A9 A10 "
    "C5nsw C6es C7sw C7ne C8nw C9w C9s C10 C11 "
    "G6esw G7nsw G8sw G8ne G8nw G9e G10n G10w G10 G11 G12s "
    "T7new T8nes T9es T9ne T9nw T10w T11n T11s T11 T12 T13e"
).split()
"""The 54 building tiles of the base game."""

SCORING_POINTS: Final[dict[str, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]] = {
    "pavilion": ((1,), (8, 1), (16, 8, 1)),
    "seraglio": ((2,), (9, 2), (17, 9, 2)),
    "arcades": ((3,), (10, 3), (18, 10, 3)),
    "chambers": ((4,), (11, 4), (19, 11, 4)),
    "garden": ((5,), (12, 5), (20, 12, 5)),
    "tower": ((6,), (13, 6), (21, 13, 6)),
}
"""Points per building kind for 1st/2nd/3rd place in scoring rounds 1, 2 and 3."""

MONEY_VALUES: Final = tuple(range(1, 10))
MONEY_COPIES: Final = 3
MONEY_COPIES_TWO_PLAYERS: Final = 2
STARTING_MONEY: Final = 20
TAKE_LIMIT: Final = 5
MARKET_SIZE: Final = 4
DISPLAY_SIZE: Final = 4
DECK_PILES: Final = 5
NEUTRAL_START_TILES: Final = 6
NEUTRAL_AFTER_FIRST_SCORING: Final = 6


@dataclass(frozen=True, slots=True)
class CardType:
    """One card of the money deck: a money card, a scoring card, or a module's card."""

    code: str
    kind: str
    currency: int = -1
    value: int = 0
    module: str | None = None
    extra: tuple[int, ...] = ()
    """Module-defined numbers (e.g. the two currencies of an exchange card)."""

    @property
    def is_money(self) -> bool:
        """True for an ordinary money card."""
        return self.kind == "money"


def parse_tile_code(code: str) -> TileType:
    """Parse a base tile code like ``G8sw`` into a :class:`TileType` (not checked against the set)."""
    if code == FOUNTAIN_CODE:
        return TileType(FOUNTAIN_CODE, FOUNTAIN_KIND, 0, 0)
    if not code or code[0] not in KIND_LETTERS:
        raise ValueError(f"bad tile code {code!r}")
    i = 1
    while i < len(code) and code[i].isdigit():
        i += 1
    if i == 1:
        raise ValueError(f"bad tile code {code!r}: no price")
    kind = KINDS[KIND_LETTERS.index(code[0])]
    walls = letters_to_walls(code[i:])
    return TileType(KIND_LETTERS[KINDS.index(kind)] + code[1:i] + walls_to_letters(walls), kind, int(code[1:i]), walls)


def tile_code(kind: str, price: int, walls: int) -> str:
    """Build the code of a base-kind tile."""
    return f"{KIND_LETTERS[KINDS.index(kind)]}{price}{walls_to_letters(walls)}"


BASE_TILES: Final = tuple(parse_tile_code(c) for c in BASE_TILE_CODES)
FOUNTAIN: Final = TileType(FOUNTAIN_CODE, FOUNTAIN_KIND, 0, 0)


def money_code(currency: int, value: int) -> str:
    """Code of a money card, e.g. ``y9`` for a yellow 9."""
    return f"{CURRENCY_LETTERS[currency]}{value}"


def base_money_cards(players: int) -> list[CardType]:
    """The money cards of the base game (three copies, two with 2 players)."""
    copies = MONEY_COPIES_TWO_PLAYERS if players == 2 else MONEY_COPIES
    return [CardType(money_code(c, v), "money", c, v) for c in range(len(CURRENCIES)) for v in MONEY_VALUES for _ in range(copies)]


SCORING_CARDS: Final = (CardType("S1", "scoring", value=1), CardType("S2", "scoring", value=2))


@dataclass(frozen=True)
class ComponentSet:
    """Every tile and card of one game, indexed by integer id (ids are positions).

    Tiles: the fountains (one per seat) come first, then the building tiles. Cards: the money
    deck including scoring cards and module cards. Built once per game and shared by every
    state of that game.
    """

    tiles: tuple[TileType, ...]
    cards: tuple[CardType, ...]
    fountains: tuple[int, ...]
    currencies: tuple[str, ...] = CURRENCIES
    """Currency names by index: the four base currencies, then any a module adds (diamonds)."""
    ruleset: Ruleset | None = None
    """The game of the family these components belong to (None: Alhambra, for hand-made sets)."""
    twins: tuple[tuple[int, int], ...] = ()
    """Two-sided tiles (Granada): (front id, back id) of each physical tile. Both faces are in
    ``tiles``; the bag holds the fronts, and a tile shows one face wherever it lies."""
    tile_twin: tuple[int, ...] = field(init=False)
    """The other face of each tile id (-1: a one-sided tile)."""
    kinds: tuple[str, ...] = field(init=False)
    """The building kinds of the game (the ruleset's, else the base game's six)."""
    tile_walls: tuple[int, ...] = field(init=False)
    tile_price: tuple[int, ...] = field(init=False)
    card_currency: tuple[int, ...] = field(init=False)
    card_value: tuple[int, ...] = field(init=False)
    card_is_money: tuple[bool, ...] = field(init=False)
    card_code: tuple[str, ...] = field(init=False)
    tile_code: tuple[str, ...] = field(init=False)
    tile_ids: dict[str, int] = field(init=False)
    money_value: dict[str, int] = field(init=False)
    """Money value by card code (0 for a card that is not money)."""
    _module_cards: dict[str, tuple[tuple[int, ...], tuple[bool, ...]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "money_value", {c.code: c.value if c.is_money else 0 for c in self.cards})
        object.__setattr__(self, "_module_cards", {})
        object.__setattr__(self, "tile_walls", tuple(t.walls for t in self.tiles))
        object.__setattr__(self, "tile_price", tuple(t.price for t in self.tiles))
        object.__setattr__(self, "card_currency", tuple(c.currency for c in self.cards))
        object.__setattr__(self, "card_value", tuple(c.value for c in self.cards))
        object.__setattr__(self, "card_is_money", tuple(c.is_money for c in self.cards))
        object.__setattr__(self, "card_code", tuple(c.code for c in self.cards))
        object.__setattr__(self, "tile_code", tuple(t.code for t in self.tiles))
        ids: dict[str, int] = {}
        for i, t in enumerate(self.tiles):
            if t.code != FOUNTAIN_CODE:
                if t.code in ids:
                    raise ValueError(f"duplicate tile code {t.code}")
                ids[t.code] = i
        object.__setattr__(self, "tile_ids", ids)
        twin = [-1] * len(self.tiles)
        for a, b in self.twins:
            twin[a], twin[b] = b, a
        object.__setattr__(self, "tile_twin", tuple(twin))
        object.__setattr__(self, "kinds", KINDS if self.ruleset is None else self.ruleset.kinds)

    def physical(self, tile: int) -> int:
        """The id that stands for the physical tile of face ``tile`` (its front; itself when one-sided)."""
        t = self.tile_twin[tile]
        return tile if t < 0 or tile < t else t

    def twin(self, tile: int) -> int:
        """The other face of ``tile`` (-1 for a one-sided tile)."""
        return self.tile_twin[tile]

    def tile_id(self, code: str) -> int:
        """Id of the building tile with this code; ``KeyError`` if the game has none."""
        return self.tile_ids[code]

    def module_cards(self, module: str) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """The ids of the cards a module adds (``CardType.module``), and a flag per card id
        (worked out once per component set)."""
        got = self._module_cards.get(module)
        if got is None:
            flags = tuple(c.module == module for c in self.cards)
            got = self._module_cards[module] = (tuple(i for i, f in enumerate(flags) if f), flags)
        return got

    def card_ids_by_code(self) -> dict[str, list[int]]:
        """Card ids grouped by code (copies of a money card share a code)."""
        out: dict[str, list[int]] = {}
        for i, c in enumerate(self.cards):
            out.setdefault(c.code, []).append(i)
        return out
