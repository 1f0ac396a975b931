"""Diamonds (Big Box module ``diamonds``): ten money cards of a fifth currency that pays for any
building on its own. See ``README.md``."""

from __future__ import annotations

from .module import (
    CARD_CODES,
    CARD_FACES,
    CARD_VALUES,
    CURRENCY_NAME,
    MODULE,
    Diamonds,
    card_ids,
    diamond_currency,
    diamond_total,
    diamonds_in_hand,
    is_diamond,
    payable_squares,
)

__all__ = [
    "CARD_CODES",
    "CARD_FACES",
    "CARD_VALUES",
    "CURRENCY_NAME",
    "MODULE",
    "Diamonds",
    "card_ids",
    "diamond_currency",
    "diamond_total",
    "diamonds_in_hand",
    "is_diamond",
    "payable_squares",
]
