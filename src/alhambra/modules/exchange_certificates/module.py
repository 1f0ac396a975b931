"""Exchange certificates: an overpayment of up to 6 kept as a credit for a later purchase.

Flow (all through the plug-in hooks of protocol 2):

* ``setup`` gives every player an empty certificate board and puts 1 / 2 / 2 / 3 / 3 currency
  tokens of each colour (2 / 3 / 4 / 5 / 6 players) in the centre (:class:`CertificatesState` in
  ``state.mods["exchange_certificates"]``; all of it public).
* ``purchase_made``: after a building purchase (``Purchase.building``) overpaid by 1 to 6, when the
  buyer's board is empty and a token is left in the centre, the buyer decides at once
  (:class:`StoreChoice`, pushed on top of the placement of the bought tiles):
  ``certificate store CURRENCY`` marks the overpaid amount on the board with a token of any
  colour left in the centre; ``certificate decline`` stores nothing. With the change module in the
  game, declining takes the change instead (the change module gives no coins for an overpayment
  the player may store; see :meth:`ExchangeCertificates.stores_overpayment`).
* ``money_sources``: a stored credit pays like one money card of the token's colour worth the whole
  amount (token ``cr``: ``buy 3 cr+b8``), only for building tiles (``MoneySource.buildings_only``:
  a market square, an offer with a tile or a site's completion; never chests or cards); ``source_spent`` returns the token to the centre and
  clears the board, so an overpayment of that very purchase may be stored again.
* ``held_money``: the credit counts in the end-of-game hand-out as money of its colour.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, ClassVar, Final

from ...actions import Action, register_action
from ...components import CURRENCIES, CURRENCY_LETTERS, CURRENCY_NAMES
from ...errors import IllegalAction, WrongPhase
from ...events import Event
from ...hooks import Module, MoneySource, Purchase, load_module
from ...slices import ModuleState
from ...state import GameConfig, GameState, Pending

MODULE_ID: Final = "exchange_certificates"
CHANGE_ID: Final = "change"
"""The change module: with it, declining to store an overpayment takes the change."""

NO_CREDIT: Final = (-1, 0)
"""An empty certificate board: (no currency, 0)."""


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class Components:
    """The module's component facts, read from ``components.json``."""

    boards: int
    tokens: tuple[int, ...]
    """Currency tokens of each colour in the box (in the order of ``CURRENCIES``)."""
    in_play: dict[int, int]
    """Tokens of each colour put in the centre, by number of players."""
    max_credit: int
    credit_token: str


@cache
def components() -> Components:
    """The component facts of ``components.json`` (checked when read)."""
    data = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    tokens = tuple(int(data["tokens"][c]) for c in CURRENCIES)
    in_play = {int(k): int(v) for k, v in data["tokens_in_play"].items()}
    comp = Components(int(data["boards"]), tokens, in_play, int(data["max_credit"]), str(data["credit_token"]))
    if any(k > min(tokens) or k < 1 for k in in_play.values()) or comp.max_credit < 1 or comp.boards < max(in_play):
        raise ValueError("exchange_certificates/components.json is inconsistent")
    return comp


def currency_letter(currency: int) -> str:
    """``0`` -> ``b``."""
    return CURRENCY_LETTERS[currency]


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class CertificatesState(ModuleState):
    """The module's state slice (all public; JSON form from :class:`~alhambra.slices.ModuleState`).

    ``centre``: currency tokens of each colour left in the centre (order of ``CURRENCIES``).
    ``credit``: per seat, the credit on its certificate board as (currency, amount), or
    :data:`NO_CREDIT` when the board is empty.
    """

    module = MODULE_ID
    centre: tuple[int, ...]
    credit: tuple[tuple[int, int], ...]

    def check(self) -> None:
        """One count per currency in the centre, none negative; every credit a currency and 1 to
        the board's maximum, or :data:`NO_CREDIT`."""
        if len(self.centre) != len(CURRENCIES) or min(self.centre) < 0:
            raise ValueError(f"bad currency tokens in the centre {list(self.centre)}")
        for cur, amount in self.credit:
            if (cur, amount) != NO_CREDIT and not (0 <= cur < len(CURRENCIES) and 1 <= amount <= components().max_credit):
                raise ValueError(f"bad credit {[cur, amount]} (want [currency, amount] or [-1, 0])")

    def with_seat(self, seat: int, credit: tuple[int, int], centre: tuple[int, ...]) -> CertificatesState:
        """A copy with one seat's credit and the centre replaced."""
        boards = list(self.credit)
        boards[seat] = credit
        return CertificatesState(centre, tuple(boards))


certificates_slice: Final = CertificatesState.of
"""The module's slice of ``state``."""


# ---------------------------------------------------------------------------------- pending
@dataclass(frozen=True, slots=True)
class StoreChoice(Pending):
    """Right after a building purchase overpaid by ``amount`` (1-6): store it on the certificate
    board (``certificate store CURRENCY``, a token of any colour left in the centre) or not
    (``certificate decline``). ``change`` is how many coins the change module gives instead
    (0 without that module)."""

    module = MODULE_ID
    seat: int
    amount: int
    change: int = 0


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class CertificateStore(Action):
    """Store the overpaid amount on the certificate board with a currency token of this colour."""

    module = MODULE_ID
    keyword = "certificate store"
    grammar = ("currency",)
    currency: str
    """The token's currency letter (``b g o y``)."""


@dataclass(frozen=True, slots=True)
class CertificateDecline(Action):
    """Store nothing (with the change module: take the change instead)."""

    module = MODULE_ID
    keyword = "certificate decline"
    grammar = ()

    declines = True


register_action(CertificateStore)
register_action(CertificateDecline)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class CreditStored(Event):
    """A player stored an overpayment on their certificate board with a token of ``currency``."""

    seat: int
    currency: str
    amount: int

    def describe(self) -> str:
        money = f"{self.amount} {CURRENCY_NAMES[self.currency]} ({self.currency})"
        return f"{_p(self.seat)} stores a credit of {money} on the exchange certificate"


@dataclass(frozen=True, slots=True)
class CreditDeclined(Event):
    """A player chose not to store an overpayment of ``amount`` (with change: took the change)."""

    seat: int
    amount: int

    def describe(self) -> str:
        return f"{_p(self.seat)} does not store the {self.amount} overpaid on the exchange certificate"


# ---------------------------------------------------------------------------------- bots
MONEY_EARLY: Final = 0.28
"""Points per unit of money at the start (the greedy bot's default money weight)."""
MONEY_LATE: Final = 0.06
"""... and once the bag of building tiles is empty."""
ENABLES: Final = 0.5
"""Extra points when the credit lets its holder pay for the market tile of its currency, which the
hand alone cannot."""


def money_rate(state: GameState) -> float:
    """What one unit of money is worth to the bots now (falls as the tile bag empties)."""
    tiles = len(state.components.tiles) - state.config.players
    left = len(state.bag) / max(1, tiles)
    return MONEY_LATE + (MONEY_EARLY - MONEY_LATE) * left


# ---------------------------------------------------------------------------------- module
class ExchangeCertificates(Module):
    """Exchange Certificates."""

    id = MODULE_ID
    state_type = CertificatesState
    title = "Exchange Certificates"
    summary = "Store an overpayment of 1 to 6 and spend it later as one money card."
    description = (
        "A player who overpays for a building by 1 to 6 may store the difference on their exchange certificate with a "
        "currency token of any colour left in the centre, and later spend it whole like one money card of that colour."
    )
    assumptions: ClassVar[tuple[str, ...]] = (
        "The decision to store is taken at once after the purchase, before the bought tiles are placed.",
        "Only building purchases can be stored (market tiles, bazaars, building sites and other tiles bought from a "
        "module), not sultan cards, caravanserai cards or treasure chests.",
        "A credit pays only for building tiles (market squares, also with exchange cards and for the vizier; bazaars, "
        "building sites and their completion), like one money card of its colour and value, never for sultan cards, "
        "caravanserai cards or treasure chests; it can only be spent whole.",
        "While a credit is stored, a new overpayment cannot be stored (one token per certificate) and the stored credit "
        "is not replaced; spending the credit frees the certificate at once, so the overpayment of the very purchase "
        "that spent it may be stored.",
        "With the change module, an overpayment of 1 to 6 that may be stored is either stored or given as change "
        "(declining to store takes the change); an overpayment that cannot be stored is given as change.",
        "A stored credit counts as money of its colour in the end-of-game hand-out of the last market tiles (the rules "
        "are silent; it is money 'as if paying with a money card in that amount').",
    )

    # ----- components and setup ---------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """Empty boards; 1/2/2/3/3 tokens of each colour in the centre."""
        k = components().in_play[state.config.players]
        state.mods[self.id] = CertificatesState((k,) * len(CURRENCIES), (NO_CREDIT,) * state.config.players)

    # ----- purchases ----------------------------------------------------------------------
    def stores_overpayment(self, state: GameState, purchase: Purchase) -> bool:
        """Whether the buyer of ``purchase`` may store its overpayment now (a building, 1 to 6
        overpaid, an empty certificate board and a token left in the centre): then the buyer
        decides (:class:`StoreChoice`), and the change module gives no coins by itself."""
        if not purchase.building or not 1 <= purchase.overpaid <= components().max_credit:
            return False
        sl = certificates_slice(state)
        return sl.credit[purchase.seat] == NO_CREDIT and any(sl.centre)

    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        """Ask the buyer whether to store an overpayment of 1 to 6 on a building."""
        if self.stores_overpayment(state, purchase):
            state.pending.append(StoreChoice(purchase.seat, purchase.overpaid, _coins_due(state, purchase.overpaid)))

    def money_sources(self, state: GameState, seat: int) -> list[MoneySource]:
        """A stored credit: one money card of its colour worth the whole amount, for building
        tiles only (rulebook: "The player can use this credit when buying a building tile")."""
        cur, amount = certificates_slice(state).credit[seat]
        if cur < 0:
            return []
        return [MoneySource(components().credit_token, cur, amount, self.id, buildings_only=True)]

    def source_spent(self, state: GameState, seat: int, source: MoneySource) -> None:
        """The credit was spent: its token goes back to the centre and the board is empty."""
        sl = certificates_slice(state)
        cur, _ = sl.credit[seat]
        if cur < 0:  # pragma: no cover - the core spends only listed sources
            raise AssertionError(f"seat {seat} has no credit")
        centre = list(sl.centre)
        centre[cur] += 1
        state.mods[self.id] = sl.with_seat(seat, NO_CREDIT, tuple(centre))

    def payment_tokens(self, config: GameConfig) -> list[str]:
        """``cr``."""
        return [components().credit_token]

    def held_money(self, state: GameState, seat: int, currency: int) -> int:
        """A stored credit counts as money of its colour in the end-of-game hand-out."""
        cur, amount = certificates_slice(state).credit[seat]
        return amount if cur == currency else 0

    # ----- decisions ----------------------------------------------------------------------
    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """A token of every colour left in the centre, or nothing."""
        if not isinstance(pending, StoreChoice):
            return []
        centre = certificates_slice(state).centre
        out: list[Action] = [CertificateStore(currency_letter(c)) for c in range(len(CURRENCIES)) if centre[c] > 0]
        out.append(CertificateDecline())
        return out

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` answers the open question."""
        top = state.pending[-1] if state.pending else None
        if not isinstance(action, CertificateStore | CertificateDecline):
            raise IllegalAction(f"{action} is not an exchange certificates action")
        if not isinstance(top, StoreChoice):
            raise WrongPhase("an overpayment can be stored on the exchange certificate only right after buying a building")
        if isinstance(action, CertificateStore):
            if action.currency not in CURRENCY_LETTERS or len(action.currency) != 1:
                raise IllegalAction(f"{action.currency!r} is no currency (b, g, o or y)")
            cur = CURRENCY_LETTERS.index(action.currency)
            if certificates_slice(state).centre[cur] <= 0:
                left = [CURRENCIES[c] for c, k in enumerate(certificates_slice(state).centre) if k > 0]
                raise IllegalAction(f"no {CURRENCIES[cur]} currency token is left in the centre (left: {', '.join(left)})")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Store the overpayment, or decline (and take the change when the change module is in the game)."""
        top = state.pending.pop()
        assert isinstance(top, StoreChoice)
        sl = certificates_slice(state)
        if isinstance(action, CertificateStore):
            cur = CURRENCY_LETTERS.index(action.currency)
            centre = list(sl.centre)
            centre[cur] -= 1
            state.mods[self.id] = sl.with_seat(top.seat, (cur, top.amount), tuple(centre))
            events.append(CreditStored(top.seat, CURRENCIES[cur], top.amount))
            return
        events.append(CreditDeclined(top.seat, top.amount))
        if CHANGE_ID in state.config.modules:
            give = getattr(load_module(CHANGE_ID), "give_change", None)
            if callable(give):
                give(state, top.seat, top.amount, events)

    # ----- bots ----------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """A credit is money worth its amount, a little more when it lets its holder pay for the
        market tile of its colour that the hand alone cannot pay."""
        sl = certificates_slice(state)
        if all(c == NO_CREDIT for c in sl.credit):
            return None
        rate = money_rate(state)
        comp = state.components
        out = [0.0] * state.config.players
        for s, (cur, amount) in enumerate(sl.credit):
            if cur < 0:
                continue
            out[s] = rate * amount
            purse = sum(comp.card_value[c] for c in state.players[s].hand if comp.card_is_money[c] and comp.card_currency[c] == cur)
            for sq, t in enumerate(state.market):
                if t >= 0 and state.market_currency[sq] == cur and purse < comp.tile_price[t] <= purse + amount:
                    out[s] += ENABLES
        return out

    # ----- views and persistence -------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Everything is public: the tokens in the centre and each seat's stored credit."""
        sl = certificates_slice(state)
        comp = components()
        return {
            "centre": dict(zip(CURRENCIES, sl.centre, strict=True)),
            "in_play": comp.in_play[state.config.players],
            "boards": [None if cur < 0 else {"currency": CURRENCIES[cur], "amount": amount} for cur, amount in sl.credit],
            "max_credit": comp.max_credit,
            "token": comp.credit_token,
            "with_change": CHANGE_ID in state.config.modules,
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        return CertificatesState(
            tuple(int(module_view["centre"][c]) for c in CURRENCIES),
            tuple(NO_CREDIT if b is None else (CURRENCIES.index(b["currency"]), int(b["amount"])) for b in module_view["boards"]),
        )


def _coins_due(state: GameState, overpaid: int) -> int:
    """Coins the change module would give for ``overpaid`` now (0 without it)."""
    if CHANGE_ID not in state.config.modules:
        return 0
    due = getattr(load_module(CHANGE_ID), "coins_due", None)
    return int(due(state, overpaid)) if callable(due) else 0


def check_tokens(state: GameState) -> None:
    """Assert that every currency token in play is in exactly one place (the centre or one board)."""
    sl = certificates_slice(state)
    k = components().in_play[state.config.players]
    assert len(sl.credit) == state.config.players
    for c in range(len(CURRENCIES)):
        on_boards = sum(1 for cur, _ in sl.credit if cur == c)
        assert sl.centre[c] >= 0 and sl.centre[c] + on_boards == k, "a currency token is missing or in two places"
    for cur, amount in sl.credit:
        assert (cur, amount) == NO_CREDIT or (cur >= 0 and 1 <= amount <= components().max_credit)


MODULE: Final = ExchangeCertificates()
"""Exchange Certificates (Big Box module ``exchange_certificates``): see ``README.md``."""
