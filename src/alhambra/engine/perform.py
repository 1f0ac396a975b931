"""Performing a checked action: one handler per core action type (:data:`_PERFORM`), module
actions to their module; closing a turn action (:func:`finish_turn_action`)."""

from __future__ import annotations

from collections.abc import Callable

from .. import city as geo
from ..actions import (
    Action,
    BuildFromReserve,
    BuyBuilding,
    BuyItem,
    EndTurn,
    ExchangeTiles,
    MoveToReserve,
    Pass,
    PlaceBuilding,
    TakeMoney,
    TurnOver,
)
from ..errors import IllegalAction, WrongPhase
from ..events import AlhambraRedesigned, BuildingBought, BuildingPlaced, Event, MoneyTaken, Passed, TileTurnedOver
from ..hooks import Purchase, load_module
from ..state import BetweenTurns, ChooseAction, GameState, PlaceTiles
from .common import _city_pos, _match_cards, _sink, _users, _waiting_for
from .payments import _paid_value, _pay_offer, _pay_square, _purchase_made, _spend


def finish_turn_action(state: GameState, again: bool = False) -> None:
    """Close a module's turn action (one offered by ``Module.turn_actions``) the way the core
    closes its own: with ``again`` the player may take one more action (as after an exact
    payment); otherwise the action phase ends and the tiles bought this turn wait to be placed.
    Call it from ``Module.perform`` while the ``ChooseAction`` is still on top."""
    top = state.pending[-1] if state.pending else None
    if not isinstance(top, ChooseAction):
        raise WrongPhase(_waiting_for(state))
    _finish_action(state, top, again, None)


def build_tile(state: GameState, seat: int, tile: str, target: tuple[int, int], events: list[Event]) -> None:
    """Build ``tile`` (a code) at ``target`` of ``seat``'s Alhambra by a module's action (checked
    by its module): the tile waiting in the ``PlaceTiles`` on top (:func:`place_waiting`), or else,
    as a redesign, the tile from the seat's reserve board (the core's ``AlhambraRedesigned``; the
    redesign is closed by :func:`finish_redesign`)."""
    top = state.pending[-1] if state.pending else None
    if isinstance(top, PlaceTiles) and tile in top.tiles:
        place_waiting(state, tile, target, events)
        return
    p = state.players[seat]
    p.reserve.remove(state.components.tile_ids[tile])
    p.build(geo.pos(*target), state.components.tile_ids[tile])
    events.append(AlhambraRedesigned(seat, "build", tile, target[0], target[1]))
    finish_redesign(state)


def redesign_seat(state: GameState) -> int | None:
    """The seat that may make a redesign by a module's action now (``Module.redesign_actions``):
    the seat of the turn's action choice, or of a module's pending that owes it an extra
    redesign (``Pending.extra_redesign``); None when no redesign may be made."""
    top = state.pending[-1] if state.pending else None
    if isinstance(top, ChooseAction) or (top is not None and top.extra_redesign):
        return top.seat
    return None


def finish_redesign(state: GameState) -> None:
    """Close a module's redesign (call it from ``Module.perform``): as a turn's action it ends
    the actions (:func:`finish_turn_action`); as an extra redesign the pending that owed it is
    taken off and the flow goes on."""
    top = state.pending[-1] if state.pending else None
    if top is not None and top.extra_redesign:
        state.pending.pop()
        return
    finish_turn_action(state, again=False)


def _perform(state: GameState, action: Action, events: list[Event] | None) -> None:
    handler = _PERFORM.get(type(action))
    if handler is not None:
        handler(state, action, events)
    elif action.module is not None:
        at = len(state.pending) - 1
        window = state.pending[at] if at >= 0 and isinstance(state.pending[at], BetweenTurns) else None
        load_module(action.module).perform(state, action, _sink(events))
        if window is not None and at < len(state.pending) and state.pending[at] is window:
            # somebody acted in the window: once that is resolved, everybody may decide again
            state.pending[at] = BetweenTurns(window.seat, (), True)
    else:  # pragma: no cover - _check refuses anything else
        raise IllegalAction(f"{action} is not a core action")


def _do_place(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, PlaceBuilding)
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles)
    seat = top.seat
    t = state.components.tile_ids[action.tile]
    tgt = action.target
    if action.tile not in top.tiles:  # the other face of a waiting tile goes into the reserve
        other = state.components.tile_code[state.components.tile_twin[t]]
        top = PlaceTiles(seat, tuple(action.tile if c == other else c for c in top.tiles), top.neutral, top.reason)
    _place(state, top, seat, t, action.tile, tgt, events)


def _place(
    state: GameState, top: PlaceTiles, seat: int, t: int, code: str, tgt: tuple[int, int] | str | None, events: list[Event] | None
) -> None:
    if tgt == "reserve":
        state.players[seat].reserve.append(t)
    elif tgt == "neutral":
        assert state.neutral is not None
        state.neutral.append(t)
    elif tgt is not None:
        assert isinstance(tgt, tuple)
        state.players[seat].build(geo.pos(*tgt), t)
    if events is not None and tgt is not None:
        events.append(BuildingPlaced(seat, code, tgt))
    if len(top.tiles) > 1:
        rest = list(top.tiles)
        rest.remove(code)
        state.pending[-1] = PlaceTiles(seat, tuple(rest), top.neutral, top.reason)
    else:
        state.pending.pop()


def place_waiting(state: GameState, tile: str, target: tuple[int, int] | str | None, events: list[Event] | None) -> None:
    """What the core's ``place`` does, for a module's action answering the ``PlaceTiles`` on
    top (``Module.place_actions``): take the waiting ``tile`` (a code) off it and build it at
    ``target`` (a position ``(x, y)`` of the seat's Alhambra, ``"reserve"`` or ``"neutral"``),
    with the core's ``BuildingPlaced`` event; the pending is popped once no tile waits. With
    ``target`` None the tile only leaves the pending (the module keeps it: no event). Nothing
    is checked here: the module's ``check`` has done that."""
    top = state.pending[-1] if state.pending else None
    if not isinstance(top, PlaceTiles) or tile not in top.tiles:
        raise WrongPhase(f"{tile} is not waiting to be placed; {_waiting_for(state)}")
    _place(state, top, top.seat, state.components.tile_ids[tile], tile, target, events)


def _do_turn_over(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, TurnOver)
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles)
    comp = state.components
    _spend(state, top.seat, action.payment)
    other = comp.tile_twin[comp.tile_ids[action.tile]]
    face = comp.tile_code[other]
    state.turned = (*state.turned, other)
    tiles = list(top.tiles)
    tiles[tiles.index(action.tile)] = face
    state.pending[-1] = PlaceTiles(top.seat, tuple(tiles), top.neutral, top.reason)
    if events is not None:
        events.append(TileTurnedOver(top.seat, action.tile, face, action.payment))


def _turn_top(state: GameState) -> ChooseAction:
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    return top


def _do_take(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, TakeMoney)
    pending = state.pending
    top = pending[-1]
    assert isinstance(top, ChooseAction)
    seat = top.seat
    hand = state.players[seat].hand
    display = state.display
    cards = action.cards
    if len(cards) == 1:
        want = cards[0]
        code_of = state.components.card_code
        for i, c in enumerate(display):
            if c >= 0 and code_of[c] == want:
                hand.append(c)
                display[i] = -1
                break
    else:
        idx = _match_cards(state.components, display, cards)
        assert idx is not None
        for i in idx:
            hand.append(display[i])
            display[i] = -1
    if events is not None:
        events.append(MoneyTaken(seat, cards))
    pending.pop()  # _finish_action(state, top, False, events), inlined
    if top.bought:
        pending.append(PlaceTiles(seat, top.bought, state.neutral is not None, "bought"))


def _do_buy(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, BuyBuilding)
    top = _turn_top(state)
    seat = top.seat
    comp = state.components
    price = comp.tile_price[state.market[action.square - 1]]
    paid = _paid_value(state, seat, action.payment)
    exact = paid == price
    t = _pay_square(state, seat, action.square, action.payment)
    code = comp.tile_code[t]
    if events is not None:
        events.append(BuildingBought(seat, action.square, code, action.payment, exact))
    # _finish_action(state, ChooseAction(seat, top.actions, bought), exact, events), inlined
    bought = (*top.bought, code)
    pending = state.pending
    if exact:
        pending[-1] = ChooseAction(seat, top.actions + 1, bought)
    else:
        pending.pop()
        pending.append(PlaceTiles(seat, bought, state.neutral is not None, "bought"))
    if state.config.modules and _users(state, "purchase_made"):
        _purchase_made(state, Purchase(seat, action.square, None, t, price, paid, action.payment, exact, False), events)


def _do_build(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, BuildFromReserve)
    top = _turn_top(state)
    p = state.players[top.seat]
    t = state.components.tile_ids[action.tile]
    p.reserve.remove(t)
    p.build(geo.pos(*action.target), t)
    if events is not None:
        events.append(AlhambraRedesigned(top.seat, "build", action.tile, action.target[0], action.target[1]))
    _finish_action(state, top, False, events)


def _do_remove(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, MoveToReserve)
    top = _turn_top(state)
    p = state.players[top.seat]
    t = state.components.tile_ids[action.tile]
    q = _city_pos(p, t, action.tile)
    p.unbuild(q)
    p.reserve.append(t)
    x, y = geo.xy(q)
    if events is not None:
        events.append(AlhambraRedesigned(top.seat, "remove", action.tile, x, y))
    _finish_action(state, top, False, events)


def _do_exchange(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, ExchangeTiles)
    top = _turn_top(state)
    p = state.players[top.seat]
    comp = state.components
    rt = comp.tile_ids[action.reserve_tile]
    ct = comp.tile_ids[action.city_tile]
    q = _city_pos(p, ct, action.city_tile)
    p.reserve.remove(rt)
    p.reserve.append(ct)
    p.build(q, rt)
    x, y = geo.xy(q)
    if events is not None:
        events.append(AlhambraRedesigned(top.seat, "exchange", action.reserve_tile, x, y, action.city_tile))
    _finish_action(state, top, False, events)


def _do_end(state: GameState, action: Action, events: list[Event] | None) -> None:
    _finish_action(state, _turn_top(state), False, events)


def _do_buy_item(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, BuyItem)
    top = _turn_top(state)
    offer, purchase = _pay_offer(state, top.seat, action.item, action.payment, events, False, announce=False)
    bought = top.bought if offer.tile < 0 else (*top.bought, state.components.tile_code[offer.tile])
    _finish_action(state, ChooseAction(top.seat, top.actions, bought), purchase.exact and offer.again_if_exact, events)
    _purchase_made(state, purchase, events)


def _do_pass(state: GameState, action: Action, events: list[Event] | None) -> None:
    top = state.pending[-1]
    assert isinstance(top, BetweenTurns)
    if events is not None:
        events.append(Passed(top.seat))
    if top.later:
        state.pending[-1] = BetweenTurns(top.later[0], top.later[1:])
    else:
        state.pending.pop()


_PERFORM: dict[type, Callable[[GameState, Action, list[Event] | None], None]] = {
    PlaceBuilding: _do_place,
    TurnOver: _do_turn_over,
    TakeMoney: _do_take,
    BuyBuilding: _do_buy,
    BuildFromReserve: _do_build,
    MoveToReserve: _do_remove,
    ExchangeTiles: _do_exchange,
    EndTurn: _do_end,
    BuyItem: _do_buy_item,
    Pass: _do_pass,
}
"""How each core action is carried out (by exact class; module actions go to their module)."""


def _finish_action(state: GameState, top: ChooseAction, again: bool, events: list[Event] | None) -> None:
    """After a turn action: continue (exact payment) or close the action phase."""
    if again:
        state.pending[-1] = ChooseAction(top.seat, top.actions + 1, top.bought)
        return
    state.pending.pop()
    if top.bought:
        state.pending.append(PlaceTiles(top.seat, top.bought, state.neutral is not None, "bought"))
