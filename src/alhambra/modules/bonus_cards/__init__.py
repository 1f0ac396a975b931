"""Bonus cards (Big Box module ``bonus_cards``): see ``README.md``."""

from __future__ import annotations

from .module import (
    CARD_CODES,
    CARD_KINDS,
    CARD_TILES,
    DEAL,
    MODULE,
    BonusCardPlayed,
    BonusCardReturned,
    BonusCards,
    BonusOffer,
    BonusPassed,
    BonusState,
    PassBonus,
    PlayBonusCard,
    bonus_state,
    could_play,
    playable,
)

__all__ = [
    "CARD_CODES",
    "CARD_KINDS",
    "CARD_TILES",
    "DEAL",
    "MODULE",
    "BonusCardPlayed",
    "BonusCardReturned",
    "BonusCards",
    "BonusOffer",
    "BonusPassed",
    "BonusState",
    "PassBonus",
    "PlayBonusCard",
    "bonus_state",
    "could_play",
    "playable",
]
