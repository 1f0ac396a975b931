"""Master builders (Big Box module ``master_builders``): money cards worth 3 that can also pay
for an extra redesign at the end of a turn. See ``README.md``."""

from __future__ import annotations

from .module import (
    CARD_CODES,
    MODULE,
    MasterBuilders,
    MasterBuildersBuild,
    MasterBuildersChoice,
    MasterBuildersDeclined,
    MasterBuildersExchange,
    MasterBuildersRemove,
    MasterBuildersRevealed,
    MasterBuildersSkip,
    MasterBuildersState,
    MasterBuildersUsed,
    builder_cards_in_hand,
    card_ids,
    pile_shares,
)

__all__ = [
    "CARD_CODES",
    "MODULE",
    "MasterBuilders",
    "MasterBuildersBuild",
    "MasterBuildersChoice",
    "MasterBuildersDeclined",
    "MasterBuildersExchange",
    "MasterBuildersRemove",
    "MasterBuildersRevealed",
    "MasterBuildersSkip",
    "MasterBuildersState",
    "MasterBuildersUsed",
    "builder_cards_in_hand",
    "card_ids",
    "pile_shares",
]
