"""The characters' auction: a character drawn from the money pile is set aside and auctioned at
once (bids in turn, each higher than the last and payable in one currency, until all but the
highest bidder have passed); the winner pays through the module's offer and owns the card. The
Travelling Entertainer's winner keeps it or swaps it for the top card of the surplus pile."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ...actions import Action, BuyItem
from ...engine.services import module_draw, module_random, money_sources_of, pay_for_offer, purchase_options
from ...errors import IllegalAction, WrongPhase
from ...events import Event
from ...hooks import Offer
from ...state import STAGE_TURN, ChooseAction, GameState, Pending
from .actions import Bid, Keep, PassBid, PayBid, Swap
from .components import BY_KEY, ENTERTAINER, ITEM, MAX_BID, MODULE_ID
from .events import BidMade, BidPassed, CharacterDrawn, CharacterRemoved, CharacterWon, EntertainerDecided
from .state import Auction, CharacterPayment, EntertainerChoice, TurnStart, chars, with_owner, without_owner

ACTIONS: Final = (Bid, PassBid, PayBid, Keep, Swap)
"""The actions of the auction's pendings."""
_ANSWERS: Final[dict[type[Action], type[Pending]]] = {
    Bid: Auction,
    PassBid: Auction,
    PayBid: CharacterPayment,
    Keep: EntertainerChoice,
    Swap: EntertainerChoice,
}


def max_bid(state: GameState, seat: int) -> int:
    """The most ``seat`` can pay in one currency: money cards of one currency (diamonds alone
    are a currency) and the money of that currency it holds outside the hand (coins, markers;
    not a credit for building tiles only). Exchange cards do not pay for characters."""
    comp = state.components
    totals = [0] * len(comp.currencies)
    for c in state.players[seat].hand:
        if comp.card_is_money[c] and 0 <= comp.card_currency[c] < len(totals):
            totals[comp.card_currency[c]] += comp.card_value[c]
    for src in money_sources_of(state, seat):
        if not src.buildings_only and 0 <= src.currency < len(totals):
            totals[src.currency] += src.value
    return min(MAX_BID, max(totals, default=0))


def payments(state: GameState, seat: int) -> list[tuple[str, ...]]:
    """Every way ``seat`` may pay its winning bid (the module's offer, one currency per payment)."""
    comp = state.components
    codes = set(comp.card_code)
    money = {c.code for c in comp.cards if c.is_money}
    out: list[tuple[str, ...]] = []
    for a in purchase_options(state, seat, out_of_turn=True):
        ok = isinstance(a, BuyItem) and a.item == ITEM and all(code in money or code not in codes for code in a.payment)
        if ok and a.payment not in out:
            out.append(a.payment)
    return out


def offers(state: GameState, seat: int) -> list[Offer]:
    """The won character, only to its winner while it pays (one currency per payment)."""
    top = state.pending[-1] if state.pending else None
    if not isinstance(top, CharacterPayment) or top.seat != seat:
        return []
    ways = tuple(frozenset({c}) for c in range(len(state.components.currencies)))
    label = f"the {BY_KEY[top.character].name}"
    return [Offer(ITEM, MODULE_ID, top.bid, ways, out_of_turn=True, again_if_exact=False, label=label, change=True)]


def may_swap(state: GameState) -> bool:
    """The surplus pile still holds a face-down card nobody has seen."""
    sl = chars(state)
    return bool(sl.unseen()) and sl.surplus - len(sl.known) > 0


def draw_identity(state: GameState, pool: list[str]) -> str:
    """Which character a face-down card shows (a chance node in explicit-chance mode)."""
    got = module_draw(state, MODULE_ID, pool)
    return got[0] if got is not None else module_random(state, MODULE_ID).choice(pool)


def card_drawn(state: GameState, card: int, events: list[Event]) -> None:
    """Turn the card up (which character it is, is drawn now) and set it aside for its auction."""
    sl = chars(state)
    key = draw_identity(state, sl.unseen())
    state.mods[MODULE_ID] = replace(sl, cards=tuple(sorted((*sl.cards, card))), queue=(*sl.queue, key))
    events.append(CharacterDrawn(key))


def start_next(state: GameState) -> None:
    """Auction the first character waiting, unless an auction (or its payment) is under way."""
    sl = chars(state)
    if not sl.queue or any(isinstance(p, Auction | CharacterPayment | EntertainerChoice) for p in state.pending):
        return
    n = state.config.players
    first = state.current if state.stage == STAGE_TURN and _turn_under_way(state) else (state.current + 1) % n
    order = tuple((first + i) % n for i in range(n))
    state.pending.append(Auction(first, sl.queue[0], order, 0, -1, first))


def _turn_under_way(state: GameState) -> bool:
    """The turn's actions are not over yet (a Beggar's draw): its player is the auctioneer."""
    return any(isinstance(p, ChooseAction | TurnStart) for p in state.pending)


def resume(state: GameState, pending: Pending, events: list[Event]) -> None:
    """Close a finished auction; an Entertainer with no card to swap for is kept."""
    if isinstance(pending, Auction):
        _settle(state, pending, events)
    elif isinstance(pending, EntertainerChoice) and not may_swap(state):
        state.pending.pop()
        events.append(EntertainerDecided(pending.seat, None))
        start_next(state)


def _settle(state: GameState, a: Auction, events: list[Event]) -> None:
    """Close a finished auction: the last bidder left pays; nobody bid: the card leaves the game."""
    sl = chars(state)
    if a.order and not (a.leader >= 0 and a.order == (a.leader,)):
        return
    state.pending.pop()
    if a.leader < 0:
        state.mods[MODULE_ID] = replace(sl, queue=sl.queue[1:], out=(*sl.out, a.character))
        events.append(CharacterRemoved(a.character, "nobody bid for it"))
        start_next(state)
    else:
        state.pending.append(CharacterPayment(a.leader, a.character, a.high))


def choices(state: GameState, pending: Pending) -> list[Action]:
    """The choices of the auction's pendings (none for another pending)."""
    seat = pending.seat
    if isinstance(pending, Auction):
        return [*(Bid(b) for b in range(pending.high + 1, max_bid(state, seat) + 1)), PassBid()]
    if isinstance(pending, CharacterPayment):
        return [PayBid(p) for p in payments(state, seat)]
    if isinstance(pending, EntertainerChoice):
        return [Keep(), Swap()]
    return []


def check(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalAction` unless the auction's ``action`` is allowed now."""
    top = state.pending[-1] if state.pending else None
    want = _ANSWERS[type(action)]
    if not isinstance(top, want):
        raise WrongPhase(f"{action} answers {want.__name__}, which is not the decision now")
    if isinstance(action, Bid):
        assert isinstance(top, Auction)
        if action.amount <= top.high:
            raise IllegalAction(f"a bid must be higher than {top.high}")
        if action.amount > max_bid(state, top.seat):
            raise IllegalAction(f"you cannot pay {action.amount} in one currency (at most {max_bid(state, top.seat)})")
    elif isinstance(action, PayBid):
        assert isinstance(top, CharacterPayment)
        if action.payment not in payments(state, top.seat):
            raise IllegalAction(
                f"pay {top.bid} or more with money of one currency (or diamonds alone): {'+'.join(action.payment)} does not"
            )
    elif isinstance(action, Swap) and not may_swap(state):
        raise IllegalAction("the surplus pile holds no card to swap for")


def perform(state: GameState, action: Action, events: list[Event]) -> None:
    """Carry out a checked action of the auction."""
    top = state.pending[-1]
    seat = top.seat
    if isinstance(action, Bid | PassBid):  # a bid goes to the back of the order; a pass leaves it
        assert isinstance(top, Auction)
        if isinstance(action, Bid):
            events.append(BidMade(seat, top.character, action.amount))
            top = replace(top, order=(*top.order[1:], seat), high=action.amount, leader=seat)
        else:
            events.append(BidPassed(seat, top.character))
            top = replace(top, order=top.order[1:])
        state.pending[-1] = replace(top, seat=top.order[0] if top.order else seat)
    elif isinstance(action, PayBid):
        assert isinstance(top, CharacterPayment)
        pay_for_offer(state, seat, ITEM, action.payment, events, out_of_turn=True)
        state.pending.remove(top)
        sl = chars(state)
        state.mods[MODULE_ID] = with_owner(replace(sl, queue=sl.queue[1:]), seat, top.character)
        events.append(CharacterWon(seat, top.character, top.bid, action.payment))
        if top.character == ENTERTAINER:
            state.pending.append(EntertainerChoice(seat))
        else:
            start_next(state)
    elif isinstance(action, Keep):
        state.pending.pop()
        events.append(EntertainerDecided(seat, None))
        start_next(state)
    elif isinstance(action, Swap):
        state.pending.pop()
        sl = chars(state)
        got = draw_identity(state, sl.unseen())
        sl = with_owner(without_owner(sl, seat, ENTERTAINER), seat, got)
        state.mods[MODULE_ID] = replace(sl, known=(*sl.known, ENTERTAINER))
        events.append(EntertainerDecided(seat, got))
        start_next(state)
