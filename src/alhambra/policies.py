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

from .actions import Action
from .engine import action_kinds, kind_forms, legal_actions
from .errors import GameOver
from .state import GameState

__all__ = ["POLICIES", "kind_random", "uniform_random"]


def uniform_random(state: GameState, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    acts = legal_actions(state)
    if not acts:
        raise GameOver("no legal action: the game is over")
    return acts[int(rng.random() * len(acts))]


def kind_random(state: GameState, rng: random.Random) -> Action:
    """A uniformly random kind of move, then a uniformly random move of that kind."""
    kinds = action_kinds(state)
    rand = rng.random
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


POLICIES = {"kinds": kind_random, "uniform": uniform_random}
"""The random policies by name."""
