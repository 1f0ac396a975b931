"""Legal actions: :func:`legal_actions`, the single source of truth for UI hints, bots and
validation, with the cheap :func:`action_kinds` / :func:`kind_forms` for policies that pick a
kind first (redesigns are generated in :mod:`.redesign`)."""

from __future__ import annotations

from collections.abc import Sequence

from .. import city as geo
from ..actions import Action, BuyBuilding, BuyItem, EndTurn, Pass, PlaceBuilding, TakeMoney, TurnOver, canonical_cards
from ..components import CURRENCIES, MARKET_SIZE, TAKE_LIMIT
from ..hooks import load_module
from ..state import BetweenTurns, ChooseAction, GameState, PlaceTiles
from .caches import _LAST_TABLES, _MEMO_LIMIT, _TAKE_MEMO, _memo_put, _Tables, _tables
from .common import _users, build_spots, occupied_places
from .payments import PAYMENTS, _offers, _subsets, _way_payments
from .redesign import REDESIGN_KINDS, _redesign_actions


def _offer_actions(state: GameState, seat: int, out_of_turn: bool, exact: bool = False, minimal: bool = False) -> list[Action]:
    """``buy ITEM ...`` for every offer (only exact payments with ``exact``, only payments with
    no money to spare with ``minimal``)."""
    out: list[Action] = []
    for offer in _offers(state, seat, out_of_turn):
        if out_of_turn and not offer.out_of_turn:
            continue
        seen: set[tuple[str, ...]] = set()
        only_exact = exact or offer.exact_only
        for way in offer.ways:
            for pay in _way_payments(state, seat, way, offer.price, only_exact, minimal or offer.minimal, offer.buys_building):
                if pay not in seen:
                    seen.add(pay)
                    out.append(BuyItem(offer.item, pay))
    return out


def _buy_actions(state: GameState, seat: int, payments: str = "all", square: int | None = None, offers: bool = True) -> list[Action]:
    """``buy`` actions of ``seat`` with ``payments`` (see :data:`PAYMENTS`): the market squares
    in order (only ``square`` when given), then the module offers (unless ``square`` is given
    or ``offers`` is False)."""
    comp = state.components
    hand = state.players[seat].hand
    market = state.market
    exact = payments == "exact"
    minimal = payments == "minimal"
    out: list[Action] = []
    squares = range(MARKET_SIZE) if square is None else (square - 1,) if 1 <= square <= MARKET_SIZE else ()
    if state.config.modules and (_users(state, "payment_options") or _users(state, "money_sources")):
        for sq in squares:
            t = market[sq]
            if t >= 0:
                seen: set[tuple[str, ...]] = set()
                for pay in _way_payments(state, seat, frozenset((state.market_currency[sq],)), comp.tile_price[t], exact, minimal):
                    if pay not in seen:
                        seen.add(pay)
                        out.append(BuyBuilding(sq + 1, pay))
    else:
        # Payments depend only on the price and on the money of the square's currency in the
        # hand: memoised by price and the purse's signature (which codes, how many of each).
        last = _LAST_TABLES[0]
        tables = last if last is not None and last.comp is comp else _tables(comp)
        coin = tables.coin
        purse = 0
        for c in hand:
            purse += coin[c]
        memo = tables.buys
        mode = 0 if payments == "all" else PAYMENTS.index(payments)
        currency = state.market_currency
        masks = tables.masks.get(currency)
        if masks is None:
            masks = tables.masks[currency] = tuple(tables.purse_digits.get(cur, 0) for cur in currency)
        price_of = comp.tile_price
        for sq in squares:
            t = market[sq]
            if t < 0:
                continue
            sig = purse & masks[sq]
            if not sig:
                continue
            by_sig = memo.get(sig)
            got = None if by_sig is None else by_sig.get(price_of[t] << 4 | sq << 2 | mode)
            if got is None:
                got = _buy_list(tables, hand, sq, currency[sq], price_of[t], sig, mode)
            out += got
    if offers and square is None and state.config.modules and _users(state, "offers"):
        out += _offer_actions(state, seat, False, exact, minimal)
    return out


def _buy_list(tables: _Tables, hand: Sequence[int], sq: int, cur: int, price: int, sig: int, mode: int) -> list[Action]:
    """The buy actions of market square index ``sq`` (memoised in ``tables.buys``): every
    payment of ``price`` in currency ``cur`` from the hand (purse signature ``sig``) that
    payments mode ``mode`` (an index into :data:`PAYMENTS`) lists."""
    by_sig = tables.buys.get(sig)
    if by_sig is None:
        by_sig = {}
        _memo_put(tables.buys, sig, by_sig)
    subsets = tables.subsets.get(sig)
    if subsets is None:
        subsets = _subsets(tables.comp, hand, cur)
        _memo_put(tables.subsets, sig, subsets)
    if mode == 1:  # exact
        pays = [pay for total, _, pay in subsets if total == price]
    elif mode == 2:  # minimal
        pays = [pay for total, low, pay in subsets if total >= price and total - low < price]
    else:
        pays = [pay for total, _, pay in subsets if total >= price]
    got = by_sig[price << 4 | sq << 2 | mode] = [tables.buy_action(sq + 1, pay) for pay in pays]
    return got


def can_buy(state: GameState, square: int, seat: int | None = None) -> bool:
    """Can ``seat`` (default: the seat to act) pay for the tile on market square ``square``
    (1-4) now? Without module payment options or money sources this is one sum over the hand,
    not a list of payments."""
    if seat is None:
        seat = state.to_act
        if seat is None:
            return False
    if not 1 <= square <= MARKET_SIZE or state.market[square - 1] < 0:
        return False
    if state.config.modules and (_users(state, "payment_options") or _users(state, "money_sources")):
        return bool(_buy_actions(state, seat, "minimal", square))
    comp = state.components
    cur = state.market_currency[square - 1]
    currency = comp.card_currency
    is_money = comp.card_is_money
    value = comp.card_value
    purse = 0
    for c in state.players[seat].hand:
        if is_money[c] and currency[c] == cur:
            purse += value[c]
    return purse >= comp.tile_price[state.market[square - 1]]


def purchase_options(state: GameState, seat: int, out_of_turn: bool = False, exact: bool = False) -> list[BuyBuilding | BuyItem]:
    """Every purchase ``seat`` can pay for now, as ``buy`` actions in the core's order: each
    market square with each payment in the square's currency or by any module's
    :class:`~alhambra.hooks.PaymentOption` (overpayments included unless ``exact``). With
    ``out_of_turn``, also the module offers that may be bought out of turn (``Offer.out_of_turn``).

    For modules that let a player buy outside the turn action; check such a purchase with
    :func:`check_purchase` and carry it out with :func:`pay_for_purchase` (:func:`pay_for_offer`
    for a ``BuyItem``).
    """
    out: list[BuyBuilding | BuyItem] = []
    for a in _buy_actions(state, seat, "exact" if exact else "all", offers=False):
        if isinstance(a, BuyBuilding):
            out.append(a)
    if out_of_turn:
        out += [a for a in _offer_actions(state, seat, True, exact) if isinstance(a, BuyItem)]
    return out


def legal_actions(state: GameState, kind: str | None = None, *, payments: str = "all") -> list[Action]:
    """Every action the game accepts now, in a stable order (empty once the game is over).

    With ``kind`` (one of :func:`action_kinds`), only the actions of that kind: ``take``,
    ``buy``, ``redesign-build``, ``redesign-remove``, ``redesign-exchange`` (or ``redesign``
    for all three), ``end``, ``place``, or a module id for a module's actions.

    ``payments`` (see :data:`PAYMENTS`) narrows the turn's ``buy`` actions without listing the
    others first: ``exact`` only exact payments, ``minimal`` no payment from which money could
    be left out (what a search needs: every other payment only gives away more money). The
    rest of the list is the same, in the same order.
    """
    if state.outcome is not None or not state.pending:
        return []
    top = state.pending[-1]
    if isinstance(top, ChooseAction):
        if payments != "all" and payments not in PAYMENTS:
            raise ValueError(f"payments is one of {', '.join(PAYMENTS)}, not {payments!r}")
        if kind is None:
            return _turn_actions(state, top, payments)
        if kind == "take":
            return _take_actions(state)
        if kind == "buy":
            return _buy_actions(state, top.seat, payments)
        if kind == "redesign":
            return list(_redesign_actions(state, top.seat))
        if kind in REDESIGN_KINDS:
            return list(_redesign_actions(state, top.seat, kind[9:]))
        if kind == "end":
            return [EndTurn()] if _stuck(state, top) else []
        if kind in state.config.modules:
            return load_module(kind).turn_actions(state, top.seat)
        return []
    if isinstance(top, PlaceTiles):
        if kind in (None, "place"):
            out = _place_actions(state, top)
            if kind is None:
                if state.components.twins:
                    out += _turn_over_actions(state, top, payments)
                if state.config.modules:
                    for m in _users(state, "place_actions"):
                        out += m.place_actions(state, top)
            return out
        if kind in state.config.modules:
            m = load_module(kind)
            return m.place_actions(state, top) if m in _users(state, "place_actions") else []
        return _turn_over_actions(state, top, payments) if kind == "turn" and state.components.twins else []
    if isinstance(top, BetweenTurns):
        return _window_actions(state, top, kind)
    if top.module is None:  # pragma: no cover - every core pending is handled above
        raise AssertionError(f"unhandled pending {top!r}")
    if kind not in (None, top.module):
        return []
    return load_module(top.module).pending_actions(state, top)


def action_kinds(state: GameState) -> list[str]:
    """The kinds of action that may be legal now (a kind listed here can still turn out empty).

    Cheap: lets a policy pick a kind first and generate only that kind's actions. ``redesign``
    has three forms (see :func:`kind_forms`) that can be generated one by one.
    """
    if state.outcome is not None or not state.pending:
        return []
    top = state.pending[-1]
    if isinstance(top, ChooseAction):
        p = state.players[top.seat]
        redesign = p.reserve or len(p.city) > 1
        shown = max(state.display) >= 0
        kinds = ["take", "buy"] if shown else ["buy"]
        if redesign:
            kinds.append("redesign")
        if state.config.modules:
            kinds += [m.id for m in _users(state, "turn_actions")]
        if not shown:
            kinds.append("end")
        return kinds
    if isinstance(top, PlaceTiles):
        kinds = ["place", "turn"] if state.components.twins else ["place"]
        if state.config.modules:
            kinds += [m.id for m in _users(state, "place_actions")]
        return kinds
    if isinstance(top, BetweenTurns):
        return [m.id for m in _users(state, "interrupt_actions")] + ["pass"]
    return [top.module] if top.module else []


def kind_forms(state: GameState, kind: str) -> tuple[str, ...]:
    """The forms of a kind that can be generated separately: for ``redesign`` the three
    ``redesign-*`` kinds (only ``redesign-remove`` while the reserve board is empty); any other
    kind is its own single form."""
    if kind != "redesign":
        return (kind,)
    top = state.pending[-1] if state.pending else None
    if isinstance(top, ChooseAction) and not state.players[top.seat].reserve:
        return ("redesign-remove",)
    return REDESIGN_KINDS


def take_limit(state: GameState, seat: int) -> int:
    """The most several money cards taken together may total for ``seat`` now: the rule's 5, or
    more when a module says so (``Module.take_limit``, the highest answer: the Trader's 7)."""
    limit = TAKE_LIMIT
    if state.config.modules:
        for m in _users(state, "take_limit"):
            got = m.take_limit(state, seat)
            if got is not None and got > limit:
                limit = got
    return limit


def _takes_up_to(state: GameState, limit: int) -> list[Action]:
    """``take`` actions for the display with a take limit other than the rule's (not memoised)."""
    comp = state.components
    code_of = comp.card_code
    out: list[Action] = []
    seen: set[tuple[str, ...]] = set()
    cards = [c for c in state.display if c >= 0]
    for c in cards:
        one = (code_of[c],)
        if one not in seen:
            seen.add(one)
            out.append(TakeMoney(one))
    money = [c for c in cards if comp.card_is_money[c]]
    for mask in range(1, 1 << len(money)):
        if mask & (mask - 1) == 0:
            continue
        chosen = [money[i] for i in range(len(money)) if mask >> i & 1]
        if sum(comp.card_value[c] for c in chosen) <= limit:
            several = canonical_cards([code_of[c] for c in chosen])
            if several not in seen:
                seen.add(several)
                out.append(TakeMoney(several))
    return out


def _take_actions(state: GameState) -> list[Action]:
    """``take`` actions for the display (a new list): memoised by the display with each card
    standing for its code (cards of one code are interchangeable)."""
    if state.config.modules and _users(state, "take_limit"):
        limit = take_limit(state, state.pending[-1].seat)
        if limit != TAKE_LIMIT:
            return _takes_up_to(state, limit)
    comp = state.components
    last = _LAST_TABLES[0]
    tables = last if last is not None and last.comp is comp else _tables(comp)
    rep = tables.rep
    d = state.display
    key = (rep[d[0]], rep[d[1]], rep[d[2]], rep[d[3]]) if len(d) == 4 else tuple([rep[c] for c in d])
    takes = tables.takes
    got = takes.get(key)
    if got is None:
        got = _list_takes(state, tables)
        _memo_put(takes, key, got)
    return got[:]


def _list_takes(state: GameState, tables: _Tables) -> list[Action]:
    comp = state.components
    one = tables.take_one
    small_code = tables.small
    code_of = comp.card_code
    out: list[Action] = []
    singles: list[str] = []
    small: list[str] = []
    for c in state.display:
        if c >= 0:
            code = code_of[c]
            if code not in singles:
                singles.append(code)
                out.append(one[c])
            sc = small_code[c]
            if sc is not None:
                small.append(sc)
    if len(small) < 2:
        return out
    small.sort()
    key = tuple(small)
    got = _TAKE_MEMO.get(key)
    if got is None:
        got = []
        seen: set[tuple[str, ...]] = set()
        values = [comp.money_value[code] for code in key]
        m = len(key)
        for mask in range(1, 1 << m):
            if mask & (mask - 1) == 0:
                continue  # single cards are listed already
            total = 0
            chosen = []
            for i in range(m):
                if mask >> i & 1:
                    total += values[i]
                    chosen.append(key[i])
            if total <= TAKE_LIMIT:
                several = canonical_cards(chosen)
                if several not in seen:
                    seen.add(several)
                    got.append(TakeMoney(several))
        _memo_put(_TAKE_MEMO, key, got)
    return out + got


def _place_actions_of(tables: _Tables, code: str) -> dict[int | str, Action]:
    """``PlaceBuilding`` of ``code`` by packed position, ``reserve`` or ``neutral`` (filled as
    targets come up)."""
    got = tables.place.get(code)
    if got is None or len(got) >= _MEMO_LIMIT:
        got = tables.place[code] = {}
    return got


def _turn_actions(state: GameState, top: ChooseAction, payments: str = "all") -> list[Action]:
    out = _take_actions(state)
    out += _buy_actions(state, top.seat, payments)
    out += _redesign_actions(state, top.seat)
    if state.config.modules:
        for m in _users(state, "turn_actions"):
            out += m.turn_actions(state, top.seat)
    if not out:
        out.append(EndTurn())
    return out


def _stuck(state: GameState, top: ChooseAction) -> bool:
    """True when a player has no action at all (every money card is in the hands, nothing is
    affordable, nothing can be redesigned): they may only pass the turn (``end``). After an
    exact payment the player must take another action (rulebook: "decide once more which of the
    three options"); only a player with no possible action ends the turn."""
    if any(c >= 0 for c in state.display):
        return False
    return _turn_actions(state, top) == [EndTurn()]


def _window_actions(state: GameState, top: BetweenTurns, kind: str | None = None) -> list[Action]:
    out: list[Action] = []
    for m in _users(state, "interrupt_actions"):
        if kind in (None, m.id):
            out += m.interrupt_actions(state, top.seat)
    if kind in (None, "pass"):
        out.append(Pass())
    return out


def _place_actions(state: GameState, top: PlaceTiles) -> list[Action]:
    comp = state.components
    walls = state.walls
    seat = top.seat
    an = state.players[seat].analysis(walls)
    mods = _users(state, "placement_problem")
    targets = _users(state, "target_problem")
    filled = bool(state.config.modules) and bool(occupied_places(state, seat))  # places modules' pieces fill: the exact list
    neutral = top.neutral and state.neutral is not None
    tables = _tables(comp)
    out: list[Action] = []
    tiles = top.tiles
    twins = comp.twins
    for code in sorted(set(tiles)) if len(tiles) > 1 else tiles:
        t = comp.tile_ids[code]
        spots = build_spots(state, seat, walls[t]) if filled else an.spots(walls[t])
        if mods:
            spots = [q for q in spots if all(m.placement_problem(state, seat, t, q) is None for m in mods)]
        acts = _place_actions_of(tables, code)
        for q in spots:
            a = acts.get(q)
            if a is None:
                a = acts[q] = PlaceBuilding(code, geo.xy(q))
            out.append(a)
        if twins and spots and t in state.turned:
            continue  # paid to turn it over: it is built (unless the other waiting tiles took every place for it)
        for target in ("reserve", "neutral") if neutral else ("reserve",):
            if targets and any(m.target_problem(state, seat, t, target) is not None for m in targets):
                continue
            a = acts.get(target)
            if a is None:
                a = acts[target] = PlaceBuilding(code, target)
            out.append(a)
        if twins and t not in state.turned:  # a tile paid to be turned over keeps that face
            out.append(PlaceBuilding(comp.tile_code[comp.tile_twin[t]], "reserve"))  # the other face, for free
    return out


def _turn_over_actions(state: GameState, top: PlaceTiles, payments: str = "all") -> list[Action]:
    """``turn`` actions (two-sided tiles): each waiting tile not turned yet whose other face can
    be built now, with each payment of the turn-over cost in one currency (``payments`` as for
    ``buy``: see :data:`PAYMENTS`)."""
    comp = state.components
    cost = comp.ruleset.turn_over_cost if comp.ruleset is not None else 0
    if cost <= 0:
        return []
    seat = top.seat
    hand = state.players[seat].hand
    walls = state.walls
    pays: list[tuple[str, ...]] = []
    for cur in range(len(CURRENCIES)):
        for total, low, pay in _subsets(comp, hand, cur):
            if total >= cost and (payments == "all" or (total == cost if payments == "exact" else total - low < cost)):
                pays.append(pay)
    if not pays:
        return []
    out: list[Action] = []
    for code in sorted(set(top.tiles)):
        t = comp.tile_ids[code]
        other = comp.tile_twin[t]
        if other < 0 or t in state.turned or not build_spots(state, seat, walls[other]):
            continue
        out += [TurnOver(code, pay) for pay in pays]
    return out
