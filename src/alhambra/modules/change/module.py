"""Change: coins drawn from a bag for overpaying a building, money held outside the hand.

Flow (all through the plug-in hooks of protocol 2):

* ``setup`` puts the 24 coins (6 per currency, ``components.json``) into the bag
  (:class:`ChangeState` in ``state.mods["change"]``; all of it public).
* ``purchase_made``: after a building purchase (``Purchase.building``: a market tile, a tile
  offer, completing a building site...) with an overpayment of 2 or more, the buyer draws one
  coin at random (:func:`alhambra.engine.module_random`) for every 2 overpaid, as far as the bag
  holds coins (event :class:`ChangeGiven`). When the exchange certificates are in the game and
  their owner may store this overpayment, the decision is theirs: the change module gives nothing
  now, and the certificates module calls :meth:`Change.give_change` if the player takes the change
  instead of storing the money.
* ``money_sources``: every coin in front of a player pays like a money card worth 1 of its
  currency (tokens ``cb cg co cy``: ``buy 2 cb+cb+b7``); ``source_spent`` puts it back into the bag.
* ``held_money``: the coins count in the end-of-game hand-out of the last market tiles.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, ClassVar, Final

from ...components import CURRENCIES, CURRENCY_LETTERS, CURRENCY_NAMES
from ...engine.services import module_draw, module_random
from ...events import Event
from ...hooks import Module, MoneySource, Purchase, load_module
from ...slices import ModuleState
from ...state import GameConfig, GameState

MODULE_ID: Final = "change"
CERTIFICATES_ID: Final = "exchange_certificates"
"""The exchange certificates module: with it, an overpayment it may store is the player's choice."""


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class Components:
    """The module's component facts, read from ``components.json``."""

    coins: tuple[int, ...]
    """Coins of each currency (in the order of ``CURRENCIES``)."""
    coin_value: int
    overpaid_per_coin: int
    tokens: tuple[str, ...]
    """Each currency's coin token in payments (``cb cg co cy``)."""

    @property
    def total(self) -> int:
        """All coins of the game (24)."""
        return sum(self.coins)


@cache
def components() -> Components:
    """The component facts of ``components.json`` (checked when read)."""
    data = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    coins = tuple(int(data["coins"][c]) for c in CURRENCIES)
    tokens = tuple(str(data["tokens"][c]) for c in CURRENCIES)
    comp = Components(coins, int(data["coin_value"]), int(data["overpaid_per_coin"]), tokens)
    if any(k < 0 for k in coins) or comp.coin_value < 1 or comp.overpaid_per_coin < 1:
        raise ValueError("change/components.json is inconsistent")
    if tokens != tuple(f"c{letter}" for letter in CURRENCY_LETTERS):
        raise ValueError("change/components.json: the coin tokens must be c + the currency letter")
    return comp


def token_of(currency: int) -> str:
    """The payment token of a coin of ``currency`` (``0`` -> ``cb``)."""
    return components().tokens[currency]


def currency_of_token(token: str) -> int:
    """The currency of a coin token (``cg`` -> 1); ``ValueError`` for anything else."""
    return components().tokens.index(token)


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class ChangeState(ModuleState):
    """The module's state slice (all public): the coins in the bag and in front of each seat,
    as counts per currency (in the order of ``CURRENCIES``). JSON form from
    :class:`~alhambra.slices.ModuleState`."""

    module = MODULE_ID
    bag: tuple[int, ...]
    coins: tuple[tuple[int, ...], ...]

    def check(self) -> None:
        """One count per currency, none negative."""
        for counts in (self.bag, *self.coins):
            if len(counts) != len(CURRENCIES) or min(counts) < 0:
                raise ValueError(f"want {len(CURRENCIES)} counts, one per currency, not {list(counts)}")

    def with_seat(self, seat: int, coins: tuple[int, ...], bag: tuple[int, ...]) -> ChangeState:
        """A copy with one seat's coins and the bag replaced."""
        mine = list(self.coins)
        mine[seat] = coins
        return ChangeState(bag, tuple(mine))


change_slice: Final = ChangeState.of
"""The module's slice of ``state``."""


# ---------------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class ChangeGiven(Event):
    """A player overpaid a building by ``overpaid`` and was due ``due`` coins; ``coins`` are the
    tokens of the coins drawn from the bag (fewer than ``due`` when the bag ran out). The draw
    shows what was hidden in the bag, so the action cannot be taken back (``reveals``)."""

    reveals: ClassVar[bool] = True
    seat: int
    overpaid: int
    due: int
    coins: tuple[str, ...]

    def describe(self) -> str:
        who = f"player {self.seat + 1}"
        if not self.coins:
            return f"{who} overpaid by {self.overpaid}, but the coin bag is empty: no change"
        names = ", ".join(f"1 {CURRENCY_NAMES[CURRENCIES[currency_of_token(t)]]}" for t in self.coins)
        short = f" (the bag held only {len(self.coins)} of {self.due})" if len(self.coins) < self.due else ""
        count = f"{len(self.coins)} coin{'s' if len(self.coins) > 1 else ''}"
        return f"{who} overpaid by {self.overpaid} and takes {count} of change: {names}{short}"


# ---------------------------------------------------------------------------------- bots
MONEY_EARLY: Final = 0.28
"""Points per unit of money at the start (the greedy bot's default money weight)."""
MONEY_LATE: Final = 0.06
"""... and once the bag of building tiles is empty."""


def money_rate(state: GameState) -> float:
    """What one unit of money is worth to the bots now (falls as the tile bag empties)."""
    tiles = len(state.components.tiles) - state.config.players
    left = len(state.bag) / max(1, tiles)
    return MONEY_LATE + (MONEY_EARLY - MONEY_LATE) * left


# ---------------------------------------------------------------------------------- module
class Change(Module):
    """Change."""

    id = MODULE_ID
    state_type = ChangeState
    title = "Change"
    summary = "Overpaying earns a coin from the bag for every 2 overpaid."
    description = (
        "A player who overpays for a building takes one coin from a bag of 24 for every 2 overpaid. "
        "Coins are worth 1, pay like money cards of their currency, go back into the bag when spent "
        "and count in the end-of-game hand-out."
    )
    assumptions: ClassVar[tuple[str, ...]] = (
        "Coins are drawn from the bag blindly: each coin in the bag is equally likely.",
        "Change is given for building purchases only: market tiles, bazaars, building sites (set up and completed) and "
        "other tiles bought from a module; not for sultan cards, caravanserai cards or treasure chests.",
        "With the exchange certificates, an overpayment of 1 to 6 that the player may store is either stored or given as "
        "change, the player's choice; an overpayment that cannot be stored (7 or more, a credit already stored, no token "
        "left) is given as change.",
        "Coins lie openly in front of their owner; a payment may mix coins and money cards of the same currency, and coins "
        "pay wherever money of their currency pays (also with exchange cards, for offers and for the vizier).",
        "A purchase paid partly with coins that overpays gives change too; the spent coins are back in the bag before the change is drawn.",
    )

    # ----- components and setup ---------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """Every coin into the bag; nobody holds one."""
        state.mods[self.id] = ChangeState(components().coins, ((0,) * len(CURRENCIES),) * state.config.players)

    # ----- purchases ----------------------------------------------------------------------
    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        """One coin per 2 overpaid on a building or an offer that gives change (a character
        card; unless the exchange certificates decide)."""
        gives = purchase.building or (purchase.offer is not None and purchase.offer.change)
        if not gives or purchase.overpaid < components().overpaid_per_coin:
            return
        if CERTIFICATES_ID in state.config.modules:
            decides = getattr(load_module(CERTIFICATES_ID), "stores_overpayment", None)
            if callable(decides) and decides(state, purchase):
                return  # the player chooses between a stored credit and change there
        self.give_change(state, purchase.seat, purchase.overpaid, events)

    def coins_due(self, state: GameState, overpaid: int) -> int:
        """How many coins an overpayment of ``overpaid`` gives now (limited by the bag)."""
        return min(overpaid // components().overpaid_per_coin, sum(change_slice(state).bag))

    def give_change(self, state: GameState, seat: int, overpaid: int, events: list[Event]) -> tuple[str, ...]:
        """Give ``seat`` one coin from the bag for every 2 of ``overpaid`` (drawn at random, as
        far as the bag holds coins); returns the coins' tokens. Nothing happens for less than 2."""
        due = overpaid // components().overpaid_per_coin
        if due <= 0:
            return ()
        sl = change_slice(state)
        bag = list(sl.bag)
        mine = list(sl.coins[seat])
        drawn: list[str] = []
        k = min(due, sum(bag))
        decided = module_draw(state, self.id, [token_of(c) for c, n in enumerate(bag) for _ in range(n)], k) if k else None
        if decided is not None:  # explicit chance
            for token in decided:
                c = currency_of_token(token)
                bag[c] -= 1
                mine[c] += 1
                drawn.append(token)
            state.mods[self.id] = sl.with_seat(seat, tuple(mine), tuple(bag))
        elif k:
            rng = module_random(state, self.id)
            for _ in range(k):
                r = rng.randrange(sum(bag))
                c = 0
                while r >= bag[c]:
                    r -= bag[c]
                    c += 1
                bag[c] -= 1
                mine[c] += 1
                drawn.append(token_of(c))
            state.mods[self.id] = sl.with_seat(seat, tuple(mine), tuple(bag))
        events.append(ChangeGiven(seat, overpaid, due, tuple(drawn)))
        return tuple(drawn)

    def money_sources(self, state: GameState, seat: int) -> list[MoneySource]:
        """Every coin in front of ``seat``: money worth 1 of its currency."""
        value = components().coin_value
        out: list[MoneySource] = []
        for c, k in enumerate(change_slice(state).coins[seat]):
            if k:
                out += [MoneySource(token_of(c), c, value, self.id)] * k
        return out

    def source_spent(self, state: GameState, seat: int, source: MoneySource) -> None:
        """A spent coin goes back into the bag."""
        sl = change_slice(state)
        c = source.currency
        mine = list(sl.coins[seat])
        bag = list(sl.bag)
        if mine[c] <= 0:  # pragma: no cover - the core spends only listed sources
            raise AssertionError(f"seat {seat} holds no {CURRENCIES[c]} coin")
        mine[c] -= 1
        bag[c] += 1
        state.mods[self.id] = sl.with_seat(seat, tuple(mine), tuple(bag))

    def chance_items(self, config: GameConfig) -> list[str]:
        return list(components().tokens)  # the coins, by payment token

    def payment_tokens(self, config: GameConfig) -> list[str]:
        """``cb cg co cy``."""
        return list(components().tokens)

    def held_money(self, state: GameState, seat: int, currency: int) -> int:
        """The coins count in the end-of-game hand-out ("the players include the coins")."""
        if currency >= len(CURRENCIES):
            return 0
        return change_slice(state).coins[seat][currency] * components().coin_value

    # ----- bots ----------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Coins are money: each is worth what a unit of money is worth to the greedy bot."""
        sl = change_slice(state)
        if not any(any(c) for c in sl.coins):
            return None
        rate = money_rate(state) * components().coin_value
        return [rate * sum(c) for c in sl.coins]

    # ----- views and persistence -------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Everything is public: the coins in the bag and in front of each seat, by currency."""
        sl = change_slice(state)
        comp = components()
        return {
            "bag": dict(zip(CURRENCIES, sl.bag, strict=True)),
            "bag_count": sum(sl.bag),
            "coins": [dict(zip(CURRENCIES, c, strict=True)) for c in sl.coins],
            "tokens": dict(zip(comp.tokens, CURRENCIES, strict=True)),
            "total": comp.total,
            "coin_value": comp.coin_value,
            "overpaid_per_coin": comp.overpaid_per_coin,
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        return ChangeState(
            tuple(int(module_view["bag"][c]) for c in CURRENCIES),
            tuple(tuple(int(seat[c]) for c in CURRENCIES) for seat in module_view["coins"]),
        )


def check_coins(state: GameState) -> None:
    """Assert that every coin is in exactly one place (the bag or in front of one seat)."""
    sl = change_slice(state)
    assert len(sl.coins) == state.config.players
    for c in range(len(CURRENCIES)):
        assert sl.bag[c] >= 0 and all(seat[c] >= 0 for seat in sl.coins)
        assert sl.bag[c] + sum(seat[c] for seat in sl.coins) == components().coins[c], "a coin is missing or in two places"


MODULE: Final = Change()
"""Change (Big Box module ``change``): see ``README.md``."""
