"""The currency exchange cards: six cards, one per pair of currencies.

A card is shuffled into the money deck (two each into piles 2, 3 and 4), shows up in the
display like money and is taken alone, instead of money. When a player buys a tile on a square
whose currency is on the card, they may spend the card and pay with any mix of its two
currencies. The card is then discarded with the money (the core discards every paid card).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, Final

from ...components import CURRENCIES, CURRENCY_LETTERS, CardType
from ...hooks import Module, PaymentOption
from ...state import GameConfig, GameState

EXCHANGE_KIND: Final = "exchange"
"""``CardType.kind`` of an exchange card."""

EXCHANGE_PAIRS: Final = tuple(combinations(range(len(CURRENCIES)), 2))
"""The six currency pairs, one card each: (blue, green), (blue, orange), ... (orange, yellow)."""

PILES: Final = (1, 2, 3)
"""Money piles (0-based; pile 0 ends on top) that receive two exchange cards each."""

PER_PILE: Final = 2


def exchange_code(a: int, b: int) -> str:
    """Card code of the exchange card for currencies ``a`` and ``b``: ``x`` + both letters (``xby``)."""
    lo, hi = sorted((a, b))
    return f"x{CURRENCY_LETTERS[lo]}{CURRENCY_LETTERS[hi]}"


class CurrencyExchange(Module):
    """Six exchange cards; each lets one purchase be paid in either of its two currencies."""

    id = "currency_exchange"
    title = "Currency exchange cards"
    summary = "Exchange cards let one payment mix two currencies."
    description = (
        "Six cards, one for each pair of currencies, are shuffled into the money deck. Take one from the display "
        "instead of money; spend it on a purchase to pay with any mix of its two currencies."
    )
    assumptions = (
        "Taking an exchange card is a whole 'take money' action and the card is taken alone, never together with "
        "money cards (the rulebook: 'take a currency exchange card instead of money').",
        "An exchange card has no value and never counts as money, also not for the end-of-game distribution of the last market tiles.",
        "At most one exchange card per purchase; it may be spent even when the money paid is all in the square's "
        "own currency (then it is simply used up).",
        "A purchase paid with an exchange card is exact, and earns another action, when the money cards add up to exactly the price.",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """The six exchange cards (value 0, no currency; ``extra`` holds the two currencies)."""
        return [CardType(exchange_code(a, b), EXCHANGE_KIND, module=self.id, extra=(a, b)) for a, b in EXCHANGE_PAIRS]

    def deck_piles(self, state: GameState, piles: list[list[int]], rng: random.Random) -> None:
        """Shuffle the cards, then put two into each of piles 2, 3 and 4 at random places."""
        ids = self.card_ids(state)
        rng.shuffle(ids)
        for k, pile in enumerate(PILES):
            for c in ids[k * PER_PILE : (k + 1) * PER_PILE]:
                piles[pile].insert(rng.randrange(len(piles[pile]) + 1), c)

    # ----- payments -----------------------------------------------------------------------
    def payment_options(self, state: GameState, seat: int, currency: int) -> list[PaymentOption]:
        """One option per exchange card in the hand that shows ``currency``."""
        cards = state.components.cards
        out: list[PaymentOption] = []
        seen: set[str] = set()
        for c in state.players[seat].hand:
            ct = cards[c]
            if ct.kind == EXCHANGE_KIND and ct.module == self.id and currency in ct.extra and ct.code not in seen:
                seen.add(ct.code)
                out.append(PaymentOption((c,), frozenset(ct.extra)))
        return out

    # ----- views --------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public facts only: the two currencies of every exchange card and which ones lie on the
        discard pile (hands stay hidden; the core shows only their card counts)."""
        cards = state.components.cards
        ids = set(self.card_ids(state))
        return {
            "cards": {cards[c].code: [CURRENCIES[x] for x in cards[c].extra] for c in sorted(ids)},
            "discarded": sorted(cards[c].code for c in state.discard if c in ids),
        }

    # ----- helpers ------------------------------------------------------------------------
    def card_ids(self, state: GameState) -> list[int]:
        """Ids of this game's exchange cards."""
        return [i for i, c in enumerate(state.components.cards) if c.module == self.id and c.kind == EXCHANGE_KIND]


MODULE: Final = CurrencyExchange()
