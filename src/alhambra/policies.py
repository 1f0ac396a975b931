"""Random policies: the baselines that benchmarks and simulations play with.

* :func:`uniform_random` chooses uniformly among all :func:`~alhambra.engine.legal_actions`.
  Because every payment and every redesign counts as its own action, such a player spends about
  half its moves shuffling tiles between the Alhambra and the reserve board.
* :func:`kind_random` chooses uniformly among the *kinds* of move available (take money, buy,
  redesign, end the turn, place a tile, a module's decision), then uniformly among the moves of
  that kind; the three forms of redesign (build from the reserve, remove, exchange) count as one
  kind and are chosen between uniformly. A kind that turns out to have no move is dropped and the
  draw repeated, so the result is exactly uniform over the non-empty kinds. It only generates the
  actions of the kinds it draws, which makes it the fast baseline.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import Action, EndTurn
from .engine import (
    _buy_actions,
    _place_actions,
    _redesign_actions,
    _stuck,
    _take_actions,
    _users,
    _window_actions,
    action_kinds,
    kind_forms,
    legal_actions,
    plain_flow,
)
from .errors import GameOver
from .state import BetweenTurns, ChooseAction, GameState, PlaceTiles

__all__ = ["POLICIES", "kind_random", "uniform_random"]


def uniform_random(state: GameState, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    acts = legal_actions(state)
    if not acts:
        raise GameOver("no legal action: the game is over")
    return acts[int(rng.random() * len(acts))]


def kind_random(state: GameState, rng: random.Random) -> Action:
    """A uniformly random kind of move, then a uniformly random move of that kind.

    In a game without modules, and in the window between turns, the kinds and the moves come
    from the engine's generators called directly (no ``action_kinds`` / ``legal_actions``
    dispatch): the same lists and the same draws, only cheaper."""
    rand = rng.random
    pending = state.pending
    if pending and state.outcome is None and (not state.config.modules or plain_flow(state.config)):
        # a game without modules: the same draws as below, with the generators called directly
        top = pending[-1]
        if type(top) is ChooseAction:
            return _plain_turn_choice(state, top, rand)
        if type(top) is PlaceTiles and not state.components.twins:
            rand()  # the draw among the one kind, ``place``
            rand()  # the draw among its one form
            acts = _place_actions(state, top)
            if acts:
                return acts[int(rand() * len(acts))]
            raise GameOver("no legal action: the game is over")
    elif pending and type(pending[-1]) is BetweenTurns and state.outcome is None:
        return _window_choice(state, pending[-1], rand)
    kinds = action_kinds(state)
    while kinds:
        ki = int(rand() * len(kinds))
        kind = kinds[ki]
        if kind != "redesign":  # a kind of one form
            rand()  # the draw among its one form, kept so that the random stream stays the same
            acts = legal_actions(state, kind)
            if acts:
                return acts[int(rand() * len(acts))]
            del kinds[ki]
            continue
        forms = list(kind_forms(state, kind))
        while forms:
            fi = int(rand() * len(forms))
            acts = legal_actions(state, forms[fi])
            if acts:
                return acts[int(rand() * len(acts))]
            del forms[fi]
        del kinds[ki]
    raise GameOver("no legal action: the game is over")


def _window_choice(state: GameState, top: BetweenTurns, rand: Callable[[], float]) -> Action:
    """:func:`kind_random` in the window between turns: the kinds of
    :func:`~alhambra.engine.action_kinds` (the modules' out-of-turn moves, then ``pass``) and
    their lists, drawn from in the same way."""
    kinds = [m.id for m in _users(state, "interrupt_actions")]
    kinds.append("pass")
    while kinds:
        ki = int(rand() * len(kinds))
        rand()  # the draw among its one form
        acts = _window_actions(state, top, kinds[ki])
        if acts:
            return acts[int(rand() * len(acts))]
        del kinds[ki]
    raise GameOver("no legal action: the game is over")


def _plain_turn_choice(state: GameState, top: ChooseAction, rand: Callable[[], float]) -> Action:
    """:func:`kind_random` at a turn's action choice in a game without modules: the kinds of
    :func:`~alhambra.engine.action_kinds` and the lists of
    :func:`~alhambra.engine.legal_actions`, drawn from in the same way."""
    seat = top.seat
    p = state.players[seat]
    reserve = p.reserve
    redesign = reserve or len(p.city) > 1
    if max(state.display) >= 0:
        kinds = ["take", "buy", "redesign"] if redesign else ["take", "buy"]
    else:
        kinds = ["buy", "redesign", "end"] if redesign else ["buy", "end"]
    while kinds:
        ki = int(rand() * len(kinds))
        kind = kinds[ki]
        if kind == "take":
            rand()  # the draw among its one form
            acts = _take_actions(state)
        elif kind == "buy":
            rand()
            acts = _buy_actions(state, seat)
        elif kind == "end":
            rand()
            acts = [EndTurn()] if _stuck(state, top) else []
        else:
            forms = ["build", "remove", "exchange"] if reserve else ["remove"]
            while forms:
                fi = int(rand() * len(forms))
                acts = _redesign_actions(state, seat, forms[fi])
                if acts:
                    return acts[int(rand() * len(acts))]
                del forms[fi]
            del kinds[ki]
            continue
        if acts:
            return acts[int(rand() * len(acts))]
        del kinds[ki]
    raise GameOver("no legal action: the game is over")


POLICIES = {"kinds": kind_random, "uniform": uniform_random}
"""The random policies by name."""
