"""Checks: why an action may not be taken now, one check per action type (:data:`_CHECKS` for the
actions of any phase, :data:`_TURN_CHECKS` for the actions of a turn)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

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
from ..components import CURRENCIES, TAKE_LIMIT
from ..errors import IllegalAction, IllegalPlacement, WrongPhase
from ..hooks import load_module
from ..state import BetweenTurns, ChooseAction, GameState, PlaceTiles
from .common import (
    _city_pos,
    _exchange_problem,
    _match_cards,
    _removal_veto,
    _rule_text,
    _seat_of_turn,
    _tile_id,
    _users,
    _waiting_for,
    build_spots,
    payment_value,
    position_problem,
)
from .generate import _stuck, take_limit
from .payments import _check_money, _check_offer, _check_payment, _plain_payment


def _check(state: GameState, action: Action) -> None:
    """Raise :class:`~alhambra.errors.IllegalAction` (or a subclass) with a readable reason
    unless ``action`` may be taken now: a module's action by its module, a core action by its
    entry in :data:`_CHECKS` or, for the actions of a turn, :data:`_TURN_CHECKS`."""
    kind = type(action)
    if kind is TakeMoney or kind is BuyBuilding:  # the usual turn actions, straight to their checks
        top = state.pending[-1] if state.pending else None
        if type(top) is ChooseAction:
            if kind is TakeMoney:
                _check_take(state, action)  # type: ignore[arg-type]
            else:
                _check_buy(state, top.seat, action)  # type: ignore[arg-type]
            return
    if action.module is not None:
        if action.module not in state.config.modules:
            raise IllegalAction(f"{action} needs the {action.module!r} module, which this game does not use")
        load_module(action.module).check(state, action)
        return
    check = _CHECKS.get(kind)
    if check is None and kind not in _TURN_CHECKS:
        check = _lookup(_CHECKS, kind)  # a subclass of a listed action class
    if check is not None:
        check(state, action)
        return
    top = _seat_of_turn(state)
    turn_check = _TURN_CHECKS.get(kind) or _lookup(_TURN_CHECKS, kind)
    if turn_check is None:
        raise IllegalAction(f"{action} is not a core action")
    turn_check(state, top, action)


_T = TypeVar("_T")


def _lookup(table: dict[type, _T], kind: type) -> _T | None:
    """The table's entry for an action class (or, for a subclass, for its nearest listed base)."""
    got = table.get(kind)
    if got is None:
        for base in kind.__mro__[1:]:
            got = table.get(base)
            if got is not None:
                break
    return got


def _check_place(state: GameState, action: Action) -> None:
    assert isinstance(action, PlaceBuilding)
    top = state.pending[-1] if state.pending else None
    if not isinstance(top, PlaceTiles):
        raise WrongPhase(f"there is no tile to place now; {_waiting_for(state)}")
    if action.tile not in top.tiles:
        other = _twin_code(state, action.tile)
        if action.target == "reserve" and other is not None and other in top.tiles:
            if _tile_id(state, other) in state.turned:
                if _must_build(state, top.seat, _tile_id(state, other)):
                    raise IllegalAction(f"{other} was paid to be turned over: build it in your city")
                raise IllegalAction(f"{other} was paid to be turned over: it keeps that face, in the reserve too")
            return  # into the reserve on either face, for free
        raise IllegalAction(f"{action.tile} is not waiting to be placed (waiting: {' '.join(top.tiles)})")
    tgt = action.target
    if state.components.twins and tgt in ("reserve", "neutral") and _must_build(state, top.seat, _tile_id(state, action.tile)):
        raise IllegalAction(f"{action.tile} was paid to be turned over: build it in your city")
    if tgt in ("reserve", "neutral"):
        if tgt == "neutral" and not (top.neutral and state.neutral is not None):
            raise IllegalAction("only a tile bought in a 2-player game can be given to the neutral player")
        for m in _users(state, "target_problem"):
            why = m.target_problem(state, top.seat, _tile_id(state, action.tile), tgt)
            if why is not None:
                raise IllegalAction(f"{action.tile} cannot go to {tgt}: {why}")
        return
    if not isinstance(tgt, tuple):
        raise IllegalAction(f"bad target {tgt!r}")
    _check_position(state, top.seat, _tile_id(state, action.tile), tgt)


def _check_pass(state: GameState, action: Action) -> None:
    if not (state.pending and isinstance(state.pending[-1], BetweenTurns)):
        raise WrongPhase(f"there is nothing to pass now; {_waiting_for(state)}")


def _check_turn_take(state: GameState, top: ChooseAction, action: Action) -> None:
    assert isinstance(action, TakeMoney)
    _check_take(state, action)


def _check_turn_buy(state: GameState, top: ChooseAction, action: Action) -> None:
    assert isinstance(action, BuyBuilding)
    _check_buy(state, top.seat, action)


def _check_build(state: GameState, top: ChooseAction, action: Action) -> None:
    assert isinstance(action, BuildFromReserve)
    t = _tile_id(state, action.tile)
    if t not in state.players[top.seat].reserve:
        raise IllegalAction(f"{action.tile} is not on your reserve board")
    _check_position(state, top.seat, t, action.target)


def _check_remove(state: GameState, top: ChooseAction, action: Action) -> None:
    assert isinstance(action, MoveToReserve)
    p = state.players[top.seat]
    walls = state.walls
    t = _tile_id(state, action.tile)
    q = _city_pos(p, t, action.tile)
    rule = None if q in p.analysis(walls).removable() else geo.removal_problem(p.city, walls, q, geo.ORIGIN)
    if rule is not None:
        raise IllegalPlacement(f"removing {action.tile} breaks a building rule: {geo.RULE_MESSAGES[rule]}", rule)
    why = _removal_veto(state, top.seat, q)
    if why is not None:
        raise IllegalPlacement(f"{action.tile} cannot be redesigned: {why}", "module")


def _check_exchange(state: GameState, top: ChooseAction, action: Action) -> None:
    assert isinstance(action, ExchangeTiles)
    p = state.players[top.seat]
    rt = _tile_id(state, action.reserve_tile)
    if rt not in p.reserve:
        raise IllegalAction(f"{action.reserve_tile} is not on your reserve board")
    q = _city_pos(p, _tile_id(state, action.city_tile), action.city_tile)
    rule = _exchange_problem(state, top.seat, q, rt)
    if rule is not None:
        raise IllegalPlacement(f"{action.reserve_tile} cannot take the place of {action.city_tile}: {_rule_text(rule)}", rule)


def _check_buy_item(state: GameState, top: ChooseAction, action: Action) -> None:
    assert isinstance(action, BuyItem)
    _check_offer(state, top.seat, action.item, action.payment, False)


def _check_end(state: GameState, top: ChooseAction, action: Action) -> None:
    if not _stuck(state, top):
        if top.actions:
            raise IllegalAction("after an exact payment you take another action (take money, buy or redesign); the turn cannot end now")
        raise IllegalAction("you must take an action; a turn is passed only when no action is possible")


def _check_take(state: GameState, action: TakeMoney) -> None:
    comp = state.components
    if not action.cards:
        raise IllegalAction("take at least one card")
    idx = _match_cards(comp, state.display, action.cards)
    if idx is None:
        raise IllegalAction(f"the display does not show {'+'.join(action.cards)}")
    if len(idx) > 1:
        ids = [state.display[i] for i in idx]
        if not all(comp.card_is_money[c] for c in ids):
            raise IllegalAction("only money cards can be taken together")
        total = payment_value(comp, ids)
        limit = take_limit(state, state.pending[-1].seat) if state.config.modules else TAKE_LIMIT
        if total > limit:
            raise IllegalAction(f"several cards may be taken only if they total at most {limit}; these total {total}")


def _check_buy(state: GameState, seat: int, action: BuyBuilding) -> None:
    if not _plain_payment(state, seat, action.square, action.payment):
        _check_payment(state, seat, action.square, action.payment)


def _twin_code(state: GameState, code: str) -> str | None:
    """The code of the other face of tile ``code`` (None: unknown or one-sided)."""
    comp = state.components
    t = comp.tile_ids.get(code, -1)
    return comp.tile_code[comp.tile_twin[t]] if t >= 0 and comp.tile_twin[t] >= 0 else None


def _must_build(state: GameState, seat: int, tile: int) -> bool:
    """A tile paid to be turned over must be built, unless no place is left for it."""
    if tile not in state.turned:
        return False
    return bool(build_spots(state, seat, state.walls[tile]))


def _check_turn_over(state: GameState, action: Action) -> None:
    assert isinstance(action, TurnOver)
    comp = state.components
    cost = comp.ruleset.turn_over_cost if comp.ruleset is not None else 0
    if cost <= 0 or not comp.twins:
        raise IllegalAction(f"tiles are never turned over in {comp.ruleset.title if comp.ruleset else 'Alhambra'}")
    top = state.pending[-1] if state.pending else None
    if not isinstance(top, PlaceTiles):
        raise WrongPhase(f"only a tile waiting to be placed can be turned over; {_waiting_for(state)}")
    if action.tile not in top.tiles:
        raise IllegalAction(
            f"{action.tile} is not waiting to be placed (waiting: {' '.join(top.tiles)}); a tile in a reserve or a city is never turned"
        )
    t = _tile_id(state, action.tile)
    if t in state.turned:
        raise IllegalAction(f"{action.tile} has been turned over already")
    other = comp.tile_twin[t]
    walls = state.walls
    if not build_spots(state, top.seat, walls[other]):
        raise IllegalPlacement(
            f"{comp.tile_code[other]} (the other face of {action.tile}) cannot be built anywhere in your city now", "adjacent"
        )
    ways = tuple(frozenset((c,)) for c in range(len(CURRENCIES)))
    _check_money(state, top.seat, action.payment, ways, cost, f"turning {action.tile} over", "turning a tile over")


def _check_position(state: GameState, seat: int, tile: int, target: tuple[int, int]) -> None:
    if not (isinstance(target, tuple) and len(target) == 2 and type(target[0]) is int and type(target[1]) is int):
        raise IllegalAction(f"bad position {target!r}")
    x, y = target
    if not (-500 < x < 500 and -500 < y < 500):
        raise IllegalPlacement(f"{x},{y} is far outside any Alhambra", "adjacent")
    q = geo.pos(x, y)
    if state.config.modules:
        rule = position_problem(state, seat, state.walls[tile], q)
    else:
        walls = state.walls
        p = state.players[seat]
        rule = None if q in p.analysis(walls).spots(walls[tile]) else geo.placement_problem(p.city, walls, walls[tile], q)
    if rule is None and state.config.modules:
        for m in _users(state, "placement_problem"):
            rule = m.placement_problem(state, seat, tile, q)
            if rule is not None:
                break
    if rule is not None:
        raise IllegalPlacement(f"{state.components.tiles[tile].code} cannot go to {x},{y}: {_rule_text(rule)}", rule)


_CHECKS: dict[type, Callable[[GameState, Action], None]] = {
    PlaceBuilding: _check_place,
    TurnOver: _check_turn_over,
    Pass: _check_pass,
}
"""The checks of the core actions that are taken whenever their pending is on top (placing a
tile, turning one over, passing in the window between turns), by action class."""

_TURN_CHECKS: dict[type, Callable[[GameState, ChooseAction, Action], None]] = {
    TakeMoney: _check_turn_take,
    BuyBuilding: _check_turn_buy,
    BuildFromReserve: _check_build,
    MoveToReserve: _check_remove,
    ExchangeTiles: _check_exchange,
    BuyItem: _check_buy_item,
    EndTurn: _check_end,
}
"""The checks of a turn's actions (the seat's ``ChooseAction`` is on top: :func:`_seat_of_turn`
refuses them otherwise), by action class, beside :data:`~alhambra.engine.perform._PERFORM`."""
