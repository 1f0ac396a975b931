"""Diamonds: ten money cards of a fifth currency that pays for any building, but only on its own.

Flow (all through the plug-in hooks of protocol 2):

* ``extra_currencies``: the currency ``diamond`` (index 4 when no module before this one adds a
  currency: ``state.components.currencies``). No market square takes it, and the end-of-game
  hand-out of the last market tiles never counts it (the core asks only for the squares'
  currencies).
* ``extra_cards``: the ten cards are ordinary money to the core (``CardType(kind="money",
  currency=<diamond>, value=3..9, module="diamonds")``, codes ``d3`` .. ``d9``, one card per
  copy), so the take rule, the starting money, reshuffles, the bots' hand tracker and the
  research encoding treat them as money cards.
* ``setup`` (run before the core shuffles the money and deals the starting money) adds them to
  ``state.deck``, the money the core shuffles: "The diamond cards are shuffled together with the
  other money cards."
* ``payment_options``: for every square (and every one-currency way of a module offer) one
  ``PaymentOption((), {diamond})``, so a payment of diamonds alone pays; a mix of diamonds and
  another currency, or diamonds with an exchange card, is refused by the core.
* Spent diamonds go to the discard pile like money (the default ``card_spent``).

The module keeps no state slice: every diamond is in the draw pile, the display, a hand or the
discard pile, where the core keeps money cards.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any, Final

from ...components import CURRENCIES, CardType
from ...errors import ConfigError
from ...hooks import Module, PaymentOption, modules_of
from ...state import GameConfig, GameState

MODULE_ID: Final = "diamonds"


# ---------------------------------------------------------------------------------- components
def _load_components() -> dict[str, Any]:
    text = resources.files(__name__.rpartition(".")[0]).joinpath("components.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


COMPONENTS: Final = _load_components()
"""The module's component facts (``components.json``)."""

CURRENCY_NAME: Final = str(COMPONENTS["currency"])
"""The name of the fifth currency in ``ComponentSet.currencies`` and in views: ``diamond``."""

CARD_FACES: Final = tuple((str(c["code"]), int(c["value"]), int(c["copies"])) for c in COMPONENTS["cards"])
"""(code, value, copies) of each face: ``d3`` .. ``d9``."""

CARD_CODES: Final = tuple(code for code, _, _ in CARD_FACES)
"""``d3``, ``d4``, ``d5``, ``d6``, ``d7``, ``d8``, ``d9``."""

CARD_VALUES: Final = tuple(value for _, value, copies in CARD_FACES for _ in range(copies))
"""The value of every card, lowest first (assumed: 3, 4, 5, 5, 6, 6, 7, 7, 8, 9)."""

ASSUMED_FACES: Final = tuple(str(c["code"]) for c in COMPONENTS["cards"] if "assumption" in c)
"""The faces whose number of copies is a component assumption (marked in ``components.json``)."""

if len(CARD_VALUES) != 10 or min(CARD_VALUES) != 3 or max(CARD_VALUES) != 9:  # pragma: no cover - a data check
    raise ValueError("components.json: the rulebook's diamonds are 10 cards valued 3 to 9")

BOT_BUY_POWER: Final = 0.35
"""Points the bots' evaluation credits for a market tile the seat's diamonds alone can pay for
(the greedy bot's own buying power only counts the money of the square's currency)."""
BOT_EXACT_POWER: Final = 0.25
"""Extra points when the diamonds can pay that tile exactly (another action)."""


_CURRENCY: dict[tuple[tuple[str, ...], tuple[tuple[str, str, bool | int | str], ...]], int] = {}


def diamond_currency(config: GameConfig) -> int:
    """The index of the diamond currency in a game of ``config`` (4 unless a module before this
    one in id order adds currencies too; cached per configuration)."""
    key = (config.modules, config.options)
    got = _CURRENCY.get(key)
    if got is not None:
        return got
    index = len(CURRENCIES)
    for m in modules_of(config):
        if m.id == MODULE_ID:
            _CURRENCY[key] = index
            return index
        index += len(m.extra_currencies(config))
    raise ConfigError(f"the module {MODULE_ID!r} is not part of this game")


def card_ids(state: GameState) -> tuple[int, ...]:
    """Ids of the game's ten diamond cards."""
    return state.components.module_cards(MODULE_ID)[0]


def is_diamond(state: GameState, card: int) -> bool:
    """True for a diamond card id."""
    return card >= 0 and state.components.module_cards(MODULE_ID)[1][card]


def diamonds_in_hand(state: GameState, seat: int) -> list[int]:
    """The diamond card ids in ``seat``'s hand."""
    flags = state.components.module_cards(MODULE_ID)[1]
    return [c for c in state.players[seat].hand if flags[c]]


def diamond_total(state: GameState, seat: int) -> int:
    """What ``seat``'s diamonds are worth together."""
    flags = state.components.module_cards(MODULE_ID)[1]
    value = state.components.card_value
    return sum(value[c] for c in state.players[seat].hand if flags[c])


def payable_squares(state: GameState, seat: int) -> list[int]:
    """The market squares (1-4) whose tile ``seat``'s diamonds alone can pay for now."""
    total = diamond_total(state, seat)
    price = state.components.tile_price
    return [sq + 1 for sq, t in enumerate(state.market) if t >= 0 and price[t] <= total]


def _subset_sums(values: list[int], limit: int) -> int:
    """A bit mask of every sum up to ``limit`` some of ``values`` add up to."""
    reach = 1
    mask = (1 << (limit + 1)) - 1
    for v in values:
        reach |= (reach << v) & mask
    return reach


# ---------------------------------------------------------------------------------- the module
class Diamonds(Module):
    """Ten diamond cards (3-9), a fifth currency: any building, but never mixed with other money."""

    id = MODULE_ID
    title = "Diamonds"
    summary = "Diamonds, a fifth currency, buy any building but never mixed with money."
    description = (
        "Ten diamond cards (values 3 to 9), a fifth currency, are shuffled into the money. Diamonds buy any "
        "building whatever the square's currency, but only on their own: never mixed with other money or with "
        "exchange cards. They never count in the final hand-out of the market tiles."
    )
    assumptions = (
        "Diamonds are money in every other respect: they count towards the starting money (cards are dealt until "
        "they reach 20, diamonds included, and the starting player is found from those cards as in the base game), "
        "they are taken from the display like any money card (one card, or several worth 5 at most, mixed freely "
        "with other money), and spent diamonds go to the discard pile and come back with the reshuffle.",
        "A payment in diamonds pays the price of the building, whatever the square's currency; exactly the price "
        "earns another action, as with any money (the rulebook's example: 5 + 4 diamonds pay exactly for the red "
        "building priced 9).",
        "Everything bought 'like a building tile' in one currency may be paid in diamonds alone too: sultan "
        "cards, bazaars, caravanserai cards, building sites and their completion (each module's one-currency ways "
        "accept them); the treasure chamber takes diamonds alone as a way of its own. Purchases that mix "
        "currencies never take diamonds in the mix.",
        "The vizier's out-of-turn purchase may be paid in diamonds (exact, as every vizier purchase).",
        "Thieves take only money of their own currency: diamonds are never stolen.",
    )
    component_assumptions = (
        "Diamond card values: the rulebook gives 10 cards valued 3 to 9 but not the repeats; the component notes "
        "disagree. Assumed one each of 3, 4, 8 and 9 and two each of 5, 6 and 7 (3, 4, 5, 5, 6, 6, 7, 7, 8, 9); "
        "see components.json.",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_currencies(self, config: GameConfig) -> list[str]:
        """The fifth currency, ``diamond``."""
        return [CURRENCY_NAME]

    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """The ten cards: money of the diamond currency, valued 3 to 9."""
        cur = diamond_currency(config)
        return [CardType(code, "money", cur, value, module=self.id) for code, value, copies in CARD_FACES for _ in range(copies)]

    def setup(self, state: GameState, rng: random.Random) -> None:
        """Add the diamonds to the money the core shuffles next (before the starting money is dealt)."""
        state.deck.extend(card_ids(state))

    # ----- payments -----------------------------------------------------------------------
    def payment_options(self, state: GameState, seat: int, currency: int) -> list[PaymentOption]:
        """Diamonds alone pay for a square (or a one-currency way) of any base currency: one
        option without special cards, offered while the seat holds a diamond."""
        cur = diamond_currency(state.config)
        if currency == cur:
            return []
        flags = state.components.module_cards(MODULE_ID)[1]
        if not any(flags[c] for c in state.players[seat].hand):
            return []
        return [PaymentOption((), frozenset((cur,)))]

    # ----- bots ---------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Buying power of the diamonds, which the core's evaluation (that looks only at each
        square's own currency) misses: for every market tile the diamonds alone can pay, 0.35
        (0.6 when exactly); the best tile fully, the others at 30%, as the core does. Their money
        value is the core's (it counts every money card)."""
        flags = state.components.module_cards(MODULE_ID)[1]
        value = state.components.card_value
        price = state.components.tile_price
        prices = [price[t] for t in state.market if t >= 0]
        out: list[float] = []
        for p in state.players:
            mine = [value[c] for c in p.hand if flags[c]]
            if not mine or not prices:
                out.append(0.0)
                continue
            total = sum(mine)
            reach = _subset_sums(mine, max(prices))
            credits = sorted(
                (BOT_BUY_POWER + (BOT_EXACT_POWER if reach >> pr & 1 else 0.0) for pr in prices if pr <= total),
                reverse=True,
            )
            out.append(credits[0] + 0.3 * sum(credits[1:]) if credits else 0.0)
        return out

    # ----- views --------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public facts and the viewer's own diamonds: the ten cards (faces, copies, which are
        assumed), the diamonds face up in the display and on the discard pile; for a seat, the
        diamonds in its hand and the market squares they alone can pay for now. Other seats'
        hands stay hidden (the core shows only their card counts)."""
        code_of = state.components.card_code
        flags = state.components.module_cards(MODULE_ID)[1]
        mine = None if viewer is None else sorted((code_of[c] for c in diamonds_in_hand(state, viewer)), key=_face_order)
        return {
            "currency": CURRENCY_NAME,
            "cards": [
                {"code": code, "value": value, "copies": copies, "assumed": code in ASSUMED_FACES} for code, value, copies in CARD_FACES
            ],
            "display": [code_of[c] for c in state.display if c >= 0 and flags[c]],
            "discarded": sorted((code_of[c] for c in state.discard if flags[c]), key=_face_order),
            "mine": mine,
            "payable": [] if viewer is None else payable_squares(state, viewer),
        }


def _face_order(code: str) -> tuple[int, str]:
    return (CARD_CODES.index(code) if code in CARD_CODES else len(CARD_CODES), code)


MODULE: Final = Diamonds()
"""Diamonds (Big Box module ``diamonds``): see ``README.md``."""
