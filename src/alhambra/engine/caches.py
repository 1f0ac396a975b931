"""Every speed cache of the engine in one room, and :func:`clear_caches` to empty them all.

The caches hold only facts derived from immutable inputs (a configuration, a component set, a
display, a purse signature) and the immutable action values handed out for them, so a cached
answer is always the answer: clearing them changes speed, never a game.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from ..actions import Action, BuyBuilding, TakeMoney
from ..components import TAKE_LIMIT, ComponentSet
from ..hooks import _USERS as _HOOK_USERS
from ..state import GameConfig

_COMPONENT_CACHE: dict[GameConfig, ComponentSet] = {}

_K = TypeVar("_K", bound=Hashable)

_V = TypeVar("_V")

_PLAIN: dict[tuple[str, ...], bool] = {(): True}

_MEMO_LIMIT = 200_000

_TAKE_MEMO: dict[tuple[str, ...], list[Action]] = {}


def _memo_put(memo: dict[_K, _V], key: _K, value: _V) -> None:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value


class _Tables:
    """Facts about one game's components that legal-action generation looks up per card or
    tile id, and the action objects it hands out (actions are immutable values, so every
    generator shares one object per action)."""

    __slots__ = (
        "build",
        "buy",
        "buys",
        "coin",
        "comp",
        "cuts",
        "exchange",
        "masks",
        "payments",
        "place",
        "plain_card",
        "purse_digits",
        "remove",
        "rep",
        "small",
        "subsets",
        "take_one",
        "takes",
    )

    def __init__(self, comp: ComponentSet) -> None:
        self.comp = comp
        cards = comp.cards
        takes: dict[str, Action] = {}
        self.take_one = tuple(takes.setdefault(c.code, TakeMoney((c.code,))) for c in cards)
        """Per card id: taking that card alone."""
        self.small = tuple(c.code if c.is_money and c.value < TAKE_LIMIT else None for c in cards)
        """Per card id: its code if it may be taken together with others."""
        self.plain_card = tuple(c.module is None and c.kind != "scoring" for c in cards)
        """Per card id: a drawn card that simply goes to the display."""
        first: dict[str, int] = {}
        self.rep = (*(first.setdefault(c.code, i) for i, c in enumerate(cards)), -1)
        """Per card id: the first id of its code (copies are interchangeable); the extra last
        entry makes ``rep[-1]`` (an empty display slot) -1."""
        self.takes: dict[tuple[int, ...], list[Action]] = {}
        """``take`` actions by the display's :attr:`rep` ids."""
        money = sorted({(c.currency, c.code) for c in cards if c.is_money})
        index = {code: i for i, (_, code) in enumerate(money)}
        copies: dict[str, int] = {}
        for c in cards:
            if c.is_money:
                copies[c.code] = copies.get(c.code, 0) + 1
        width = max(copies.values(), default=1).bit_length()  # a hand holds at most every copy of a code
        self.coin = tuple(1 << (width * index[c.code]) if c.is_money else 0 for c in cards)
        """Per card id: its money code as one digit (of ``width`` bits, enough to count every
        copy of a code) of a purse signature: the sum over a hand says which money codes it
        holds, how many of each; the codes of one currency are neighbouring digits
        (:attr:`purse_digits`). Narrow digits keep the sums small ints, cheap to add and hash."""
        self.purse_digits: dict[int, int] = {}
        """Per currency: the mask that cuts its part (its digits) out of a hand's signature."""
        for cur in {cur for cur, _ in money}:
            digits = [index[code] for c, code in money if c == cur]
            self.purse_digits[cur] = ((1 << (width * len(digits))) - 1) << (width * digits[0])
        self.place: dict[str, dict[int | str, Action]] = {}
        self.build: dict[str, dict[int, Action]] = {}
        self.remove: dict[str, Action] = {}
        self.exchange: dict[tuple[str, str], Action] = {}
        self.buy: dict[tuple[int, tuple[str, ...]], Action] = {}
        self.buys: dict[int, dict[int, list[Action]]] = {}
        """Buy actions of one square by purse signature, then by price, square index and
        payments mode packed into one int (``price << 4 | square << 2 | mode``)."""
        self.payments: dict[tuple[object, ...], list[tuple[str, ...]]] = {}
        """Payments with module payment options or money sources (see :func:`_money_payments`)."""
        self.cuts: dict[frozenset[int], int] = {}
        """Per set of currencies: the mask of their digits in a purse signature."""
        self.masks: dict[tuple[int, ...], tuple[int, ...]] = {}
        """Per market currencies (``GameState.market_currency``): each square's purse mask."""
        self.subsets: dict[int, list[tuple[int, int, tuple[str, ...]]]] = {}
        """Every payment of one currency by purse signature (see :func:`_subsets`)."""

    def buy_action(self, square: int, payment: tuple[str, ...]) -> Action:
        key = (square, payment)
        got = self.buy.get(key)
        if got is None:
            _memo_put(self.buy, key, BuyBuilding(square, payment))
            got = self.buy[key]
        return got


_TABLES: dict[int, _Tables] = {}

_LAST_TABLES: list[_Tables | None] = [None]
"""The tables asked for last (most calls are for the same game's components)."""


def _tables(comp: ComponentSet) -> _Tables:
    last = _LAST_TABLES[0]
    if last is not None and last.comp is comp:
        return last
    got = _TABLES.get(id(comp))
    if got is None or got.comp is not comp:
        got = _TABLES[id(comp)] = _Tables(comp)  # it keeps ``comp`` alive, so the id stays its own
    _LAST_TABLES[0] = got
    return got


_READS_EVENTS: dict[tuple[str, ...], bool] = {}


def clear_caches() -> None:
    """Empty every speed cache of the engine (the components per configuration, the generation
    tables per component set, the memoised ``take`` lists the per-module-list flow facts and the hooks' users).
    Games go on exactly as before, only slower until the caches fill again (a test or a
    benchmark that wants a cold start, or a long-running process that wants the memory back)."""
    _COMPONENT_CACHE.clear()
    _TABLES.clear()
    _LAST_TABLES[0] = None
    _TAKE_MEMO.clear()
    _READS_EVENTS.clear()
    _HOOK_USERS.clear()
    _PLAIN.clear()
    _PLAIN[()] = True
