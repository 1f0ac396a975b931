"""Characters (Big Box module ``characters``): see ``README.md``."""

from __future__ import annotations

from .auction import max_bid
from .components import NAMES
from .module import MODULE, Characters
from .state import Auction, CharacterPayment, CharactersState, chars, owns

__all__ = ["MODULE", "NAMES", "Auction", "CharacterPayment", "Characters", "CharactersState", "chars", "max_bid", "owns"]
