"""The characters' abilities, each at its time: at the start of the owner's turn the Dancer and
the Beggar; in the turn the Rich Patron and the Moneychanger; after a purchase the Miser; the
Trader's take limit; at the end of the turn the Master Builder's redesign; before a scoring
round the Wise Man's kind. (The points of the City Watch and the Entertainer: ``scoring``.)"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ...actions import Action, BuildFromReserve, ExchangeTiles, MoveToReserve
from ...components import KINDS
from ...engine.services import (
    buy_covered,
    draw_card,
    finish_turn_action,
    module_random,
    module_redesigns,
    offers_of,
    perform_redesign,
    redesign_options,
    refill_market,
)
from ...errors import IllegalAction, WrongPhase
from ...events import Event, MoneyTaken
from ...hooks import Offer, Purchase
from ...state import ChooseAction, GameState, Pending
from .actions import (
    Beg,
    Change,
    Dance,
    Go,
    MasonBuild,
    MasonExchange,
    MasonRemove,
    MasonUse,
    MiserTake,
    Patron,
    PatronItem,
    Skip,
    Wise,
)
from .components import (
    BEGGAR,
    DANCER,
    MASTER_BUILDER,
    MISER,
    MODULE_ID,
    MONEYCHANGER,
    RICH_PATRON,
    TRADER,
    WISE_MAN,
    data,
)
from .events import CardGivenUp, CharacterRemoved, CharacterUsed
from .state import (
    MasonRedesign,
    MasterBuilderChoice,
    MiserChoice,
    TurnStart,
    WiseChoice,
    chars,
    owns,
    usable,
    use,
    without_owner,
)

ACTIONS: Final = (Beg, Change, Dance, Go, MasonBuild, MasonExchange, MasonRemove, MasonUse, MiserTake, Patron, PatronItem, Skip, Wise)
"""The actions of the abilities."""
TURN_ABILITY_ACTIONS: Final = 3 + 2 + 1 + 1 + 2 + 1
"""The most actions the abilities add to one turn: at its start the Dancer, the Beggar and going
on; the Rich Patron's building and its placement; the Moneychanger; the Miser (once a turn); the
Master Builder's question and another module's redesign after ``character redesign``; the Wise
Man's kind before a scoring round."""
_ANSWERS: Final[dict[type[Action], type[Pending]]] = {
    Dance: TurnStart,
    Beg: TurnStart,
    Go: TurnStart,
    MiserTake: MiserChoice,
    Wise: WiseChoice,
    MasonBuild: MasterBuilderChoice,
    MasonRemove: MasterBuilderChoice,
    MasonExchange: MasterBuilderChoice,
    MasonUse: MasterBuilderChoice,
}


# ----- what each ability may do now --------------------------------------------------------
def patron_offers(state: GameState, seat: int) -> list[Offer]:
    """The buildings sold beside the market that the Rich Patron may take (a bazaar: an offer of a
    tile that an exact payment buys; not a building site, never an exact purchase)."""
    return [o for o in offers_of(state, seat) if o.tile >= 0 and not o.never_exact and o.module != MODULE_ID]


def _money_in_hand(state: GameState, seat: int) -> int:
    comp = state.components
    return sum(1 for c in state.players[seat].hand if comp.card_is_money[c])


def dance_squares(state: GameState, seat: int) -> list[int]:
    """The market squares the Dancer may exchange now (none: it may not act)."""
    if not usable(state, seat, DANCER) or not state.bag:
        return []
    return [i + 1 for i, t in enumerate(state.market) if t >= 0]


def may_beg(state: GameState, seat: int) -> bool:
    """The Beggar may draw: unused this turn, few money cards in the hand, a card to draw."""
    return (
        owns(state, seat, BEGGAR)
        and BEGGAR not in chars(state).used
        and _money_in_hand(state, seat) <= data().beggar_hand
        and bool(state.deck or state.discard)
    )


def changes(state: GameState, seat: int) -> list[Action]:
    """The Moneychanger's exchanges: a hand card for an open card of equal or lesser value."""
    if not usable(state, seat, MONEYCHANGER):
        return []
    comp = state.components
    mine = {comp.card_code[c]: comp.card_value[c] for c in state.players[seat].hand if comp.card_is_money[c]}
    shown = {comp.card_code[c]: comp.card_value[c] for c in state.display if c >= 0 and comp.card_is_money[c]}
    return [Change(g, t) for g, gv in sorted(mine.items()) for t, tv in sorted(shown.items()) if tv <= gv and t != g]


def miser_cards(state: GameState) -> list[str]:
    """The open money cards the Miser may take."""
    comp = state.components
    return sorted({comp.card_code[c] for c in state.display if c >= 0 and comp.card_is_money[c]})


def mason_actions(state: GameState, seat: int) -> list[Action]:
    """The Master Builder's core redesigns, in the module's notation (``character build``,
    ``remove``, ``exchange``); the other modules' own redesigns come through :class:`MasonUse`."""
    out: list[Action] = []
    for r in redesign_options(state, seat):
        if isinstance(r, BuildFromReserve):
            out.append(MasonBuild(r.tile, r.target))
        elif isinstance(r, MoveToReserve):
            out.append(MasonRemove(r.tile))
        elif isinstance(r, ExchangeTiles):
            out.append(MasonExchange(r.reserve_tile, r.city_tile))
    return out


def may_mason(state: GameState, seat: int) -> bool:
    """Whether the Master Builder's extra redesign has something to do: a core redesign, or
    another module's own (``engine.module_redesigns``: a magical building, a city gate, a camp)."""
    return bool(mason_actions(state, seat)) or bool(module_redesigns(state, seat))


def _core_redesign(action: Action) -> Action:
    if isinstance(action, MasonBuild):
        return BuildFromReserve(action.tile, action.target)
    if isinstance(action, MasonRemove):
        return MoveToReserve(action.tile)
    assert isinstance(action, MasonExchange)
    return ExchangeTiles(action.reserve_tile, action.city_tile)


# ----- when they come up -------------------------------------------------------------------
def turn_started(state: GameState, seat: int) -> None:
    """A new turn: round abilities are fresh; the Dancer and the Beggar may act first."""
    sl = chars(state)
    if sl.used:
        state.mods[MODULE_ID] = replace(sl, used=())
    if dance_squares(state, seat) or may_beg(state, seat):
        state.pending.append(TurnStart(seat))


def turn_ending(state: GameState) -> None:
    """The Master Builder's extra redesign, after the new buildings are placed."""
    seat = state.current
    if usable(state, seat, MASTER_BUILDER) and may_mason(state, seat):
        state.pending.append(MasterBuilderChoice(seat))


def before_scoring(state: GameState, round_no: int) -> None:
    """The Wise Man's owner names a kind for this round."""
    for seat, mine in enumerate(chars(state).owned):
        if WISE_MAN in mine:
            state.pending.append(WiseChoice(seat, round_no))


def purchase_made(state: GameState, purchase: Purchase) -> None:
    """The Miser: a building of price 10 or more bought in the owner's own turn."""
    seat = purchase.seat
    if (
        not purchase.out_of_turn
        and purchase.tile >= 0
        and purchase.price >= data().miser_price
        and state.current == seat
        and usable(state, seat, MISER)
        and miser_cards(state)
    ):
        state.pending.append(MiserChoice(seat))


def take_limit(state: GameState, seat: int) -> int | None:
    """The Trader: several money cards up to 7."""
    return data().trader_limit if usable(state, seat, TRADER) else None


def resume(state: GameState, pending: Pending) -> None:
    """End an ability's pending that has nothing left to choose."""
    if isinstance(pending, TurnStart):
        if not (dance_squares(state, pending.seat) or may_beg(state, pending.seat)):
            state.pending.pop()
    elif isinstance(pending, MiserChoice):
        if not miser_cards(state):
            state.pending.pop()
    elif isinstance(pending, MasterBuilderChoice | MasonRedesign):
        # the question closes with nothing to redesign; the redesign owed after ``character
        # redesign`` has one (it was offered only then)
        left = may_mason(state, pending.seat) if isinstance(pending, MasterBuilderChoice) else module_redesigns(state, pending.seat)
        if not left:
            state.pending.pop()


# ----- choices, checks and effects ---------------------------------------------------------
def turn_actions(state: GameState, seat: int) -> list[Action]:
    """Rich Patron (a building for free) and Moneychanger (a free exchange)."""
    top = state.pending[-1] if state.pending else None
    if not (isinstance(top, ChooseAction) and top.seat == seat):
        return []
    out: list[Action] = []
    if owns(state, seat, RICH_PATRON):
        out += [Patron(i + 1) for i, t in enumerate(state.market) if t >= 0]
        out += [PatronItem(o.item) for o in patron_offers(state, seat)]
    out += changes(state, seat)
    return out


def choices(state: GameState, pending: Pending) -> list[Action]:
    """The choices of the abilities' pendings (none for another pending)."""
    seat = pending.seat
    if isinstance(pending, TurnStart):
        out: list[Action] = [Dance(q) for q in dance_squares(state, seat)]
        if may_beg(state, seat):
            out.append(Beg())
        return [*out, Go()]
    if isinstance(pending, MiserChoice):
        return [*(MiserTake(c) for c in miser_cards(state)), Skip()]
    if isinstance(pending, MasterBuilderChoice):
        use_: list[Action] = [MasonUse()] if module_redesigns(state, seat) else []
        return [*mason_actions(state, seat), *use_, Skip()]
    if isinstance(pending, MasonRedesign):
        return module_redesigns(state, seat)
    if isinstance(pending, WiseChoice):
        return [Wise(k) for k in KINDS]
    return []


def check(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalAction` unless the ability's ``action`` is allowed now."""
    top = state.pending[-1] if state.pending else None
    if isinstance(action, Patron | PatronItem | Change):
        if not isinstance(top, ChooseAction):
            raise WrongPhase(f"{action} is an action of your own turn")
        _check_turn_action(state, top.seat, action)
        return
    if isinstance(action, Skip):
        if not isinstance(top, MiserChoice | MasterBuilderChoice):
            raise WrongPhase("nothing to skip now (the Miser's card or the Master Builder's redesign)")
        return
    want = _ANSWERS[type(action)]
    if not isinstance(top, want):
        raise WrongPhase(f"{action} answers {want.__name__}, which is not the decision now")
    if isinstance(action, Dance):
        if action.square not in dance_squares(state, top.seat):
            raise IllegalAction("the Dancer exchanges a building of the market for one from the bag (once, with a tile left in the bag)")
    elif isinstance(action, Beg):
        if not may_beg(state, top.seat):
            raise IllegalAction("the Beggar draws only with at most 2 money cards in the hand, once at the start of the turn")
    elif isinstance(action, MiserTake):
        if action.card not in miser_cards(state):
            raise IllegalAction(f"{action.card} is not an open money card")
    elif isinstance(action, MasonBuild | MasonRemove | MasonExchange) and action not in mason_actions(state, top.seat):
        raise IllegalAction(f"{_core_redesign(action)} is not a possible redesign now")
    elif isinstance(action, MasonUse) and not module_redesigns(state, top.seat):
        raise IllegalAction("no module offers a redesign of its own now (use character build, remove or exchange)")


def _check_turn_action(state: GameState, seat: int, action: Action) -> None:
    if isinstance(action, Patron | PatronItem):
        if not owns(state, seat, RICH_PATRON):
            raise IllegalAction("you do not own the Rich Patron")
        if isinstance(action, Patron) and state.market[action.square - 1] < 0:
            raise IllegalAction(f"market square {action.square} is empty")
        if isinstance(action, PatronItem) and action.item not in {o.item for o in patron_offers(state, seat)}:
            raise IllegalAction(f"the Rich Patron cannot take {action.item!r} now")
        return
    assert isinstance(action, Change)
    if not owns(state, seat, MONEYCHANGER):
        raise IllegalAction("you do not own the Moneychanger")
    if MONEYCHANGER in chars(state).used:
        raise IllegalAction("the Moneychanger has been used in this turn already")
    if action not in changes(state, seat):
        raise IllegalAction(
            "the Moneychanger exchanges a money card of your hand for an open money card of equal or lesser value: "
            f"{action.give} for {action.take} is not possible"
        )


def perform(state: GameState, action: Action, events: list[Event]) -> None:
    """Carry out a checked action of an ability."""
    top = state.pending[-1]
    seat = top.seat
    sl = chars(state)
    comp = state.components
    if isinstance(action, Dance):
        sq = action.square
        old = state.market[sq - 1]
        state.market[sq - 1] = -1
        use(state, DANCER)
        events.append(CharacterUsed(seat, DANCER, f"the {comp.tile_code[old]} on square {sq} goes back into the bag"))
        refill_market(state, events)
        if state.decided is None and state.piles is None:
            state.bag.insert(module_random(state, MODULE_ID).randrange(len(state.bag) + 1), old)
        else:
            state.bag.append(old)
    elif isinstance(action, Beg):
        state.mods[MODULE_ID] = replace(sl, used=(*sl.used, BEGGAR))
        while True:
            c = draw_card(state, events)
            if c is None:
                break
            state.players[seat].hand.append(c)
            events.append(MoneyTaken(seat, (comp.card_code[c],)))
            if comp.card_is_money[c]:
                break
        events.append(CharacterUsed(seat, BEGGAR, "draws the top card of the money pile"))
    elif isinstance(action, Go | Skip):
        state.pending.pop()
    elif isinstance(action, Patron | PatronItem):
        assert isinstance(top, ChooseAction)
        state.mods[MODULE_ID] = replace(without_owner(sl, seat, RICH_PATRON), out=(*sl.out, RICH_PATRON))
        where: int | str = action.square if isinstance(action, Patron) else action.item
        if isinstance(where, int):
            code = comp.tile_code[state.market[where - 1]]
            events.append(CharacterUsed(seat, RICH_PATRON, f"takes {code} from square {where}, its price paid"))
        else:
            offer = next(o for o in patron_offers(state, seat) if o.item == where)
            code = comp.tile_code[offer.tile]
            events.append(CharacterUsed(seat, RICH_PATRON, f"takes {code}, its price paid"))
        events.append(CharacterRemoved(RICH_PATRON, "used"))
        state.pending[-1] = ChooseAction(top.seat, top.actions, (*top.bought, code))
        finish_turn_action(state, again=True)
        buy_covered(state, seat, where, events)
    elif isinstance(action, Change):
        hand = state.players[seat].hand
        give = next(c for c in hand if comp.card_code[c] == action.give and comp.card_is_money[c])
        hand.remove(give)
        state.discard.append(give)
        i = next(i for i, c in enumerate(state.display) if c >= 0 and comp.card_code[c] == action.take)
        hand.append(state.display[i])
        state.display[i] = -1
        use(state, MONEYCHANGER)
        events.append(CardGivenUp(seat, (action.give,)))
        events.append(MoneyTaken(seat, (action.take,)))
        events.append(CharacterUsed(seat, MONEYCHANGER, f"{action.give} for {action.take}"))
    elif isinstance(action, MiserTake):
        state.pending.pop()
        i = next(i for i, c in enumerate(state.display) if c >= 0 and comp.card_code[c] == action.card)
        state.players[seat].hand.append(state.display[i])
        state.display[i] = -1
        use(state, MISER)
        events.append(MoneyTaken(seat, (action.card,)))
        events.append(CharacterUsed(seat, MISER, f"takes {action.card}"))
    elif isinstance(action, Wise):
        assert isinstance(top, WiseChoice)
        state.pending.pop()
        wise = list(sl.wise)
        wise[seat] = action.kind
        state.mods[MODULE_ID] = replace(sl, wise=tuple(wise))
        events.append(CharacterUsed(seat, WISE_MAN, f"half a {action.kind} in scoring round {top.round_no}"))
    elif isinstance(action, MasonBuild | MasonRemove | MasonExchange):
        state.pending.pop()
        use(state, MASTER_BUILDER)
        events.append(CharacterUsed(seat, MASTER_BUILDER, "an extra redesign"))
        perform_redesign(state, seat, _core_redesign(action), events)
    elif isinstance(action, MasonUse):
        state.pending.pop()
        use(state, MASTER_BUILDER)
        events.append(CharacterUsed(seat, MASTER_BUILDER, "an extra redesign by another module's own redesign"))
        state.pending.append(MasonRedesign(seat))
