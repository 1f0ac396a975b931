"""Payments: enumerating the ways to pay (money cards, module payment options and money sources),
checking a payment, and carrying out a purchase of a market tile or a module offer."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import canonical_cards, card_sort_key
from ..components import CURRENCIES, CURRENCY_LETTERS, MARKET_SIZE, ComponentSet
from ..errors import IllegalAction, InvalidPayment
from ..events import Event, ItemBought
from ..hooks import MoneySource, Offer, PaymentOption, Purchase, load_module
from ..state import GameState
from .caches import _LAST_TABLES, _memo_put, _tables
from .common import _match_cards, _sink, _users, payment_value


def _money_payments(
    comp: ComponentSet,
    hand: Sequence[int],
    currencies: frozenset[int],
    price: int,
    special: tuple[str, ...],
    exact: bool = False,
    sources: Sequence[MoneySource] = (),
    minimal: bool = False,
) -> list[tuple[str, ...]]:
    """:func:`_enumerate_payments` (a new list), memoised by its arguments, with the hand
    reduced to the signature of its money of ``currencies`` (which codes, how many of each)."""
    last = _LAST_TABLES[0]
    tables = last if last is not None and last.comp is comp else _tables(comp)
    coin = tables.coin
    cut = tables.cuts.get(currencies)
    if cut is None:
        cut = 0
        for cur in currencies:
            cut |= tables.purse_digits.get(cur, 0)
        tables.cuts[currencies] = cut
    purse = 0
    for c in hand:
        purse += coin[c]
    key = (purse & cut, currencies, price, special, exact, minimal, tuple(sources) if sources else ())
    got = tables.payments.get(key)
    if got is None:
        got = _enumerate_payments(comp, hand, currencies, price, special, exact, sources, minimal)
        _memo_put(tables.payments, key, got)
    return got[:]


def _enumerate_payments(
    comp: ComponentSet,
    hand: Sequence[int],
    currencies: frozenset[int],
    price: int,
    special: tuple[str, ...],
    exact: bool = False,
    sources: Sequence[MoneySource] = (),
    minimal: bool = False,
) -> list[tuple[str, ...]]:
    """Every multiset of money cards of ``currencies`` from the hand (and money ``sources`` of
    those currencies held outside it) worth at least ``price`` (exactly ``price`` with ``exact``;
    with ``minimal`` only those from which no money could be left out, see :data:`PAYMENTS`).
    The order is fixed (higher values first, more copies first), and the exact or minimal
    payments come in the order they have among all payments: the search prunes, it does not
    filter afterwards."""
    cc = comp.card_currency
    cm = comp.card_is_money
    cards = comp.cards
    counts: dict[str, int] = {}
    value_of: dict[str, int] = {}
    for c in hand:
        if cm[c] and cc[c] in currencies:
            code = cards[c].code
            counts[code] = counts.get(code, 0) + 1
            value_of[code] = cards[c].value
    plain = all(card_sort_key(code)[0] == 1 for code in counts)  # False: a module's money card (mb3) is in the mix
    for src in sources:
        if src.currency in currencies and src.value > 0:
            counts[src.token] = counts.get(src.token, 0) + 1
            value_of[src.token] = src.value
            plain = False
    if not counts:
        return []
    items = sorted(counts.items(), key=lambda kv: (-value_of[kv[0]], kv[0]))
    values = [value_of[code] for code, _ in items]
    total_left = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        total_left[i] = total_left[i + 1] + values[i] * items[i][1]
    if total_left[0] < price:
        return []
    out: list[tuple[str, ...]] = []
    chosen: list[str] = []

    end = len(items)

    def rec(i: int, s: int, low: int) -> None:
        # low: the smallest value chosen so far (items come by falling value: the last one)
        if s + total_left[i] < price or (exact and s > price):
            return
        if minimal and s >= price:
            # the price is paid: any further money could be left out again
            if s - low >= price:
                return
            i = end
        if i == end:
            if chosen and (not exact or s == price):
                out.append(canonical_cards(list(special) + chosen) if special or len(currencies) > 1 or not plain else tuple(chosen))
            return
        code, n = items[i]
        v = values[i]
        for k in range(n, -1, -1):
            chosen.extend([code] * k)
            rec(i + 1, s + v * k, v if k else low)
            if k:
                del chosen[-k:]

    rec(0, 0, 0)
    return out


def _payment_options(state: GameState, seat: int, currency: int) -> list[PaymentOption]:
    opts: list[PaymentOption] = []
    for m in _users(state, "payment_options"):
        opts.extend(m.payment_options(state, seat, currency))
    return opts


def _sources(state: GameState, seat: int) -> list[MoneySource]:
    """The money ``seat`` holds outside the hand (``Module.money_sources``)."""
    out: list[MoneySource] = []
    for m in _users(state, "money_sources"):
        out.extend(m.money_sources(state, seat))
    return out


def money_sources_of(state: GameState, seat: int) -> list[MoneySource]:
    """The money ``seat`` holds outside the hand (every module's ``money_sources``: coins,
    markers, a stored credit), e.g. to know the most it can pay in one currency."""
    return _sources(state, seat) if state.config.modules else []


def offers_of(state: GameState, seat: int, out_of_turn: bool = False) -> list[Offer]:
    """What the modules offer ``seat`` now besides the market squares (every ``Module.offers``):
    e.g. the bazaars a character may take without paying."""
    return _offers(state, seat, out_of_turn) if state.config.modules else []


def _offers(state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
    out: list[Offer] = []
    for m in _users(state, "offers"):
        out.extend(m.offers(state, seat, out_of_turn))
    return out


def _way_payments(
    state: GameState, seat: int, way: frozenset[int], price: int, exact: bool = False, minimal: bool = False, building: bool = True
) -> list[tuple[str, ...]]:
    """Every payment of one way: money of its currencies worth at least ``price`` (exactly with
    ``exact``; with ``minimal`` none that could leave a card out), and for a one-currency way also
    every module payment option (exchange cards...). Unless ``building``, no money source that
    pays only for building tiles (``MoneySource.buildings_only``)."""
    comp = state.components
    hand = state.players[seat].hand
    srcs = _sources(state, seat)
    if not building:
        srcs = [src for src in srcs if not src.buildings_only]
    pays = _money_payments(comp, hand, way, price, (), exact, srcs, minimal)
    if len(way) == 1:
        (cur,) = way
        for opt in _payment_options(state, seat, cur):
            special = tuple(comp.cards[c].code for c in opt.special)
            pays += _money_payments(comp, hand, opt.currencies, price, special, exact, srcs, minimal)
    return pays


PAYMENTS = ("all", "exact", "minimal")
"""Which payments buy actions are generated with (:func:`legal_actions`' ``payments``):
``all`` every payment the rules accept (overpayments included), ``exact`` only those worth
exactly the price, ``minimal`` only those from which no money card (or money source) could be
left out with the price still paid: the exact ones and the overpayments that cannot be avoided
with these cards. Each is in the order the payments have in ``all``."""


def _subsets(comp: ComponentSet, hand: Sequence[int], cur: int) -> list[tuple[int, int, tuple[str, ...]]]:
    """Every non-empty multiset of the money cards of currency ``cur`` in the hand, as (value,
    lowest card value, card codes), in the order of :func:`_money_payments` (whose pruned search
    yields the same payments for a price in the same order: filtering these by the price does
    not change it, and they do not depend on the price)."""
    counts: dict[str, int] = {}
    value_of: dict[str, int] = {}
    cc = comp.card_currency
    cm = comp.card_is_money
    code_of = comp.card_code
    value = comp.card_value
    for c in hand:
        if cm[c] and cc[c] == cur:
            code = code_of[c]
            counts[code] = counts.get(code, 0) + 1
            value_of[code] = value[c]
    plain = all(card_sort_key(code)[0] == 1 for code in counts)  # False: a module's money card (mb3) is in the mix
    partial: list[tuple[int, int, tuple[str, ...]]] = [(0, 0, ())]
    for code, n in sorted(counts.items(), key=lambda kv: (-value_of[kv[0]], kv[0])):
        v = value_of[code]
        if n == 1:
            partial = [x for total, low, codes in partial for x in ((total + v, v, (*codes, code)), (total, low, codes))]
            continue
        grown: list[tuple[int, int, tuple[str, ...]]] = []
        for total, low, codes in partial:
            for k in range(n, 0, -1):
                grown.append((total + v * k, v, codes + (code,) * k))
            grown.append((total, low, codes))
        partial = grown
    partial.pop()  # the empty one comes last
    if not plain:
        partial = [(total, low, canonical_cards(codes)) for total, low, codes in partial]
    return partial


def _check_payment(state: GameState, seat: int, square: int, payment: tuple[str, ...]) -> tuple[list[int], bool]:
    """Validate a payment; return the hand indices used and whether it is exact."""
    comp = state.components
    if not 1 <= square <= MARKET_SIZE:
        raise IllegalAction(f"there is no market square {square} (squares are 1-{MARKET_SIZE})")
    tile = state.market[square - 1]
    if tile < 0:
        raise IllegalAction(f"market square {square} is empty")
    cur = state.market_currency[square - 1]
    return _check_money(state, seat, payment, (frozenset((cur,)),), comp.tile_price[tile], comp.tiles[tile].code, f"square {square}")


def _plain_payment(state: GameState, seat: int, square: int, payment: tuple[str, ...]) -> bool:
    """True when ``payment`` surely pays for the tile on ``square``: money cards of the
    square's currency in ``seat``'s hand, worth at least the price (what :func:`_check_payment`
    accepts first, found more cheaply). False says nothing: the full check decides then."""
    if type(square) is not int or not 1 <= square <= MARKET_SIZE or not payment:
        return False
    tile = state.market[square - 1]
    if tile < 0:
        return False
    comp = state.components
    hand = state.players[seat].hand
    idx = _match_cards(comp, hand, payment)
    if idx is None:
        return False
    cur = state.market_currency[square - 1]
    is_money = comp.card_is_money
    currency = comp.card_currency
    value = comp.card_value
    total = 0
    for i in idx:
        c = hand[i]
        if not is_money[c] or currency[c] != cur:
            return False
        total += value[c]
    return total >= comp.tile_price[tile]


def _check_money(
    state: GameState, seat: int, payment: tuple[str, ...], ways: tuple[frozenset[int], ...], price: int, what: str, where: str
) -> tuple[list[int], bool]:
    """Validate paying ``price`` for ``what`` with ``payment`` by one of ``ways``; return the hand
    indices used and whether the money is exactly the price."""
    comp = state.components
    if not payment:
        raise InvalidPayment("a purchase needs at least one card")
    hand = state.players[seat].hand
    idx, srcs = _match_payment(state, seat, payment)
    ids = [hand[i] for i in idx]
    special = tuple(sorted(c for c in ids if not comp.card_is_money[c]))
    money = [comp.card_currency[c] for c in ids if comp.card_is_money[c]] + [src.currency for src in srcs]
    total = payment_value(comp, [c for c in ids if comp.card_is_money[c]]) + sum(src.value for src in srcs)
    if not special:
        if not any(all(cur in way for cur in money) for way in ways) and not any(
            len(way) == 1 and opt.currencies.issuperset(money)
            for way in ways
            for opt in _payment_options(state, seat, next(iter(way)))
            if not opt.special
        ):
            if len(ways) == 1 and len(ways[0]) == 1:
                (cur,) = ways[0]
                wrong = [code for code in payment if _currency_of(state, seat, code) != cur]
                raise InvalidPayment(f"{where} takes {CURRENCIES[cur]} ({CURRENCY_LETTERS[cur]}) money, not {'+'.join(wrong)}")
            raise InvalidPayment(f"{what} cannot be paid with this mix of currencies: {'+'.join(payment)}")
    else:
        codes = sorted(comp.cards[c].code for c in special)
        ok = False
        for way in ways:
            if len(way) != 1:
                continue
            (cur,) = way
            for opt in _payment_options(state, seat, cur):
                if sorted(comp.cards[c].code for c in opt.special) == codes and opt.currencies.issuperset(money):
                    ok = True
                    break
        if not ok:
            raise InvalidPayment(f"{'+'.join(codes)} cannot be used to pay for {where} with these cards")
        if not money:
            raise InvalidPayment("a purchase needs money cards")
    if total < price:
        raise InvalidPayment(f"{what} costs {price}; {'+'.join(payment)} is only {total}")
    return idx, total == price


def _currency_of(state: GameState, seat: int, code: str) -> int:
    """The currency of a card code or money-source token in a payment (-1 if unknown)."""
    ids = state.components.card_ids_by_code().get(code)
    if ids:
        return state.components.card_currency[ids[0]]
    return next((src.currency for src in _sources(state, seat) if src.token == code), -1)


def _match_payment(state: GameState, seat: int, payment: tuple[str, ...]) -> tuple[list[int], list[MoneySource]]:
    """The hand indices and the money sources a payment names; :class:`InvalidPayment` if
    ``seat`` does not hold all of it."""
    comp = state.components
    hand = state.players[seat].hand
    idx = _match_cards(comp, hand, payment)
    if idx is not None:
        return idx, []
    srcs = _sources(state, seat)
    if srcs:
        tokens = {src.token for src in srcs}
        idx = _match_cards(comp, hand, [c for c in payment if c not in tokens])
        if idx is not None:
            left = list(srcs)
            used: list[MoneySource] = []
            for code in payment:
                if code in tokens:
                    src = next((x for x in left if x.token == code), None)
                    if src is None:
                        break
                    left.remove(src)
                    used.append(src)
            else:
                return idx, used
    raise InvalidPayment(f"you do not hold all of {'+'.join(payment)}")


def _paid_value(state: GameState, seat: int, payment: tuple[str, ...]) -> int:
    """The money value of a payment: its money cards and money sources."""
    mv = state.components.money_value
    total = 0
    try:
        for c in payment:
            total += mv[c]
        return total
    except KeyError:
        idx, srcs = _match_payment(state, seat, payment)
        hand = state.players[seat].hand
        return sum(mv[state.components.card_code[hand[i]]] for i in idx) + sum(src.value for src in srcs)


def _find_offer(state: GameState, seat: int, item: str, out_of_turn: bool) -> Offer:
    for offer in _offers(state, seat, out_of_turn):
        if offer.item == item and (offer.out_of_turn or not out_of_turn):
            return offer
    raise IllegalAction(f"{item!r} cannot be bought now" + (" out of turn" if out_of_turn else ""))


def _check_offer(state: GameState, seat: int, item: str, payment: tuple[str, ...], out_of_turn: bool) -> tuple[Offer, bool]:
    offer = _find_offer(state, seat, item, out_of_turn)
    _, exact = _check_money(state, seat, payment, offer.ways, offer.price, offer.label or offer.item, offer.label or offer.item)
    if not offer.buys_building:
        for src in _match_payment(state, seat, payment)[1]:
            if src.buildings_only:
                raise InvalidPayment(f"{src.token} pays only for building tiles, not for {offer.label or offer.item}")
    if offer.exact_only and not exact:
        raise InvalidPayment(f"{offer.label or offer.item} can only be bought with exact money ({offer.price})")
    if offer.minimal and not exact:
        idx, srcs = _match_payment(state, seat, payment)
        comp = state.components
        hand = state.players[seat].hand
        values = [comp.card_value[hand[i]] for i in idx if comp.card_is_money[hand[i]]] + [src.value for src in srcs]
        total = sum(values)
        if values and total - min(values) >= offer.price:
            raise InvalidPayment(
                f"{offer.label or offer.item} costs {offer.price} and gives nothing back: {'+'.join(payment)} ({total}) "
                f"pays with a card that is not needed (leave out one worth {min(values)})"
            )
    return offer, exact and not offer.never_exact


def _spend(state: GameState, seat: int, payment: tuple[str, ...]) -> list[int]:
    """Take the paid cards out of ``seat``'s hand: onto the discard pile, or to their module when
    it disposes of them (``Module.card_spent``); money sources go back to their module
    (``Module.source_spent``). Returns the card ids."""
    comp = state.components
    hand = state.players[seat].hand
    idx, srcs = _match_payment(state, seat, payment)
    if len(idx) == 1:
        paid = [hand.pop(idx[0])]
    else:
        paid = [hand[i] for i in idx]
        for i in sorted(idx, reverse=True):
            del hand[i]
    cards = comp.cards
    discard = state.discard
    for c in paid:
        owner = cards[c].module
        if owner is None or not load_module(owner).card_spent(state, c):
            discard.append(c)
    for src in srcs:
        load_module(src.module).source_spent(state, seat, src)
    return paid


def spend_cards(state: GameState, seat: int, payment: Sequence[str]) -> list[int]:
    """Pay with these card codes from ``seat``'s hand outside a purchase of a building or an
    offer (a falcon costs "one money card"): each card goes onto the discard pile, or to its
    module when that module disposes of it (``Module.card_spent``). Returns the card ids.
    Check first that the hand holds them (``ValueError`` otherwise)."""
    hand = state.players[seat].hand
    code_of = state.components.card_code
    left = list(hand)
    for code in payment:
        c = next((c for c in left if code_of[c] == code), None)
        if c is None:
            raise ValueError(f"{code} is not in the hand of seat {seat}")
        left.remove(c)
    return _spend(state, seat, tuple(payment))


def _purchase_made(state: GameState, purchase: Purchase, events: list[Event] | None) -> None:
    for m in _users(state, "purchase_made"):
        m.purchase_made(state, purchase, _sink(events))


def check_purchase(state: GameState, seat: int, square: int | str, payment: tuple[str, ...], out_of_turn: bool = True) -> bool:
    """Check ``seat`` paying ``payment`` for the tile on ``square`` (1-4), or for a module offer's
    item (a str; with ``out_of_turn`` only offers that allow it), exactly as ``buy`` is checked
    (raises :class:`~alhambra.errors.InvalidPayment` or another
    :class:`~alhambra.errors.IllegalAction`); return True when the money is exactly the price."""
    if isinstance(square, str):
        return _check_offer(state, seat, square, payment, out_of_turn)[1]
    return _check_payment(state, seat, square, payment)[1]


def pay_for_purchase(
    state: GameState, seat: int, square: int, payment: tuple[str, ...], events: list[Event] | None = None, out_of_turn: bool = True
) -> int:
    """Carry out a checked purchase: the paid cards go from ``seat``'s hand to the discard pile
    (or to their module, ``Module.card_spent``) and the tile leaves ``square`` (1-4), which stays
    empty until :func:`refill_market`; then every ``Module.purchase_made`` hears of it (with
    ``events``; push your own pending first if theirs must come before it). Returns the tile id."""
    hooked = bool(state.config.modules) and bool(_users(state, "purchase_made"))
    paid = _paid_value(state, seat, payment) if hooked else 0
    t = _pay_square(state, seat, square, payment)
    if hooked:
        price = state.components.tile_price[t]
        _purchase_made(
            state, Purchase(seat, square, None, t, price, paid, payment, paid == price, out_of_turn), [] if events is None else events
        )
    return t


def buy_covered(state: GameState, seat: int, square: int | str, events: list[Event] | None = None) -> int:
    """``seat`` takes the tile on market square ``square`` (1-4), or the tile of the module offer
    ``square`` (an item word: a bazaar), with its price covered by something that is not money
    (the Rich Patron "pays the exact amount"): no card leaves the hand, a market square stays
    empty until :func:`refill_market`, an offer's module delivers it (``offer_bought``), and
    every ``Module.purchase_made`` hears of an exact purchase in the player's own turn (``paid``
    = the price, no payment). The caller puts the tile among the turn's tiles and closes the
    action (``finish_turn_action(state, again=True)``). Returns the tile id."""
    hooked = bool(state.config.modules) and bool(_users(state, "purchase_made"))
    if isinstance(square, str):
        offer = _find_offer(state, seat, square, False)
        if events is not None:
            events.append(ItemBought(seat, offer.item, offer.label, (), True, False))
        load_module(offer.module).offer_bought(state, seat, offer, _sink(events))
        if hooked:
            _purchase_made(state, Purchase(seat, 0, offer, offer.tile, offer.price, offer.price, (), True, False), events)
        return offer.tile
    t = state.market[square - 1]
    state.market[square - 1] = -1
    if hooked:
        price = state.components.tile_price[t]
        _purchase_made(state, Purchase(seat, square, None, t, price, price, (), True, False), [] if events is None else events)
    return t


def _pay_square(state: GameState, seat: int, square: int, payment: tuple[str, ...]) -> int:
    _spend(state, seat, payment)
    t = state.market[square - 1]
    state.market[square - 1] = -1
    return t


def pay_for_offer(
    state: GameState, seat: int, item: str, payment: tuple[str, ...], events: list[Event] | None, out_of_turn: bool = True
) -> Offer:
    """Carry out a checked purchase of a module offer: pay, let the module deliver it
    (``Module.offer_bought``) and record ``ItemBought``. Returns the offer (its ``tile``, if any,
    is for the caller to have placed). Every ``Module.purchase_made`` then hears of it."""
    return _pay_offer(state, seat, item, payment, events, out_of_turn)[0]


def _pay_offer(
    state: GameState,
    seat: int,
    item: str,
    payment: tuple[str, ...],
    events: list[Event] | None,
    out_of_turn: bool,
    announce: bool = True,
) -> tuple[Offer, Purchase]:
    offer = _find_offer(state, seat, item, out_of_turn)
    paid = _paid_value(state, seat, payment)
    _spend(state, seat, payment)
    exact = paid == offer.price and not offer.never_exact
    if events is not None:
        events.append(ItemBought(seat, offer.item, offer.label, payment, exact, offer.never_exact))
    load_module(offer.module).offer_bought(state, seat, offer, _sink(events))
    purchase = Purchase(seat, 0, offer, offer.tile, offer.price, paid, payment, exact, out_of_turn)
    if announce:
        _purchase_made(state, purchase, events)
    return offer, purchase
