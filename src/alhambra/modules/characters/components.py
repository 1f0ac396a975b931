"""The characters' components: the ten cards and the module's numbers, read from ``components.json``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from ...state import GameState

MODULE_ID: Final = "characters"
ITEM: Final = "character"
"""The offer item a won character is paid for with (``buy`` payments, listed only to its winner)."""


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
