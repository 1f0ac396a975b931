"""Characters (Big Box module ``characters``): see ``README.md``."""

from __future__ import annotations

from .module import (
    MODULE,
    NAMES,
    Auction,
    CharacterPayment,
    Characters,
    CharactersState,
    chars,
    max_bid,
    owns,
)

__all__ = ["MODULE", "NAMES", "Auction", "CharacterPayment", "Characters", "CharactersState", "chars", "max_bid", "owns"]
