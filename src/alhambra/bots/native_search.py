"""The MCTS search of :mod:`alhambra.bots.mcts` on the native core (games without modules).

The tree is the one of :mod:`alhambra.bots.tree` (``_grow``); :class:`NativePlay` plays its
samples on the native core (:mod:`alhambra.native`): every iteration's sample is a copy of the
native twin of the sampler's base state with a freshly drawn seed, draw pile and bag (drawn in
Cython from the generator exactly as ``Sampler.hidden`` draws them: ``native/sample.pxi``); the
tree is keyed by native action ids; the legal actions are the native ``minimal`` payments (the
canonical actions of the base game); the greedy prior, the leaf values and the rollouts use the
native twin of the greedy evaluation (``native/bots.pxi``), which rounds as the Python code
rounds. So for the same seed and iteration count the search grows the same tree and chooses the
same move as the Python search (``tests/test_native_bots.py`` proves it on seeded positions),
only faster: the levels keep their time budgets and spend the speed on more iterations. A value
network at the leaves (``mcts:learned``) is run by its native twin
(:mod:`alhambra.bots.native_value`: the same features bit for bit, the forward pass within
float32 rounding of numpy's), on the native game without a Python state or a view.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import methodcaller
from typing import TYPE_CHECKING, Any

from ..native import available, core_module, supports
from ..native.game import NativeGame, decode
from .greedy import Weights, _tables, pick_best
from .tracker import Sampler
from .tree import _BAG_START, _grow, leaf_net, ranked

if TYPE_CHECKING:
    from .tree import MctsSettings

__all__ = ["NativePlay", "covers", "evaluator", "greedy_id", "search"]

_EVALUATORS: dict[tuple[int, Weights], Any] = {}


def covers(sampler: Sampler) -> bool:
    """Can the native search play this decision? (the core is built, the game has no modules
    and the sampler hides only the draw pile and the bag)."""
    return available() and supports(sampler.config) and sampler.plain


def evaluator(components: Any, weights: Weights) -> Any:
    """The native evaluator of these weights for these components (cached)."""
    key = (id(components), weights)
    got = _EVALUATORS.get(key)
    if got is None:
        t = _tables(components)
        got = _EVALUATORS[key] = core_module().Evaluator(weights, t.fit, t.total_tiles)
    return got


def greedy_id(game: Any, rng: random.Random, ev: Any) -> int:
    """greedy.greedy_action on a native game (the same ties, the same use of ``rng``)."""
    cands: list[int] = game.legal_ids(2)
    if len(cands) == 1:
        return cands[0]
    vs, _ = game.child_values(cands, game.to_act, ev)
    best: int = pick_best(cands, vs, rng)
    return best


class NativePlay:
    """:class:`alhambra.bots.tree.Play` on the native core: native games, action ids."""

    def __init__(self, sampler: Sampler, base: Any, settings: MctsSettings, weights: Weights) -> None:

        self.settings = settings
        self.ev = evaluator(sampler.base().components, weights)
        core = core_module()
        sample_game = core.sample_game
        plan = sampler.hidden_plan()
        self.sample: Callable[[random.Random], Any] = lambda rng: sample_game(base, rng, *plan)
        self.legal: Callable[[Any], list[Any]] = methodcaller("legal_ids", 2)
        self.apply: Callable[[Any, Any], None] = core.Game.apply_id
        self._ranked = ranked
        self.rewards: Callable[[Any, list[float] | None], list[float]] = core.Rewarder(
            self.ev, settings.reward == "win", settings.temperature, settings.temperature_early, _BAG_START
        )
        """tree.reward_of of a native game (``native/sample.pxi``: the same arithmetic in C)."""
        net = leaf_net(settings, sampler.config)
        if net is not None:  # mcts:learned: the network's native twin reads the native game itself
            from .native_value import native_net  # numpy: loaded only by a search that uses a network

            twin = native_net(net, sampler.config)
            self.rewards = core.LearnedRewarder(self.rewards, twin, sampler.obs.seat, settings.net_weight, net.residual)
            """tree.mix of the hand-made rewards and the network's (``native/value.pxi``)."""

    def prior(self, game: Any, legal: list[int], seat: int, seen: dict[int, list[float]]) -> list[tuple[int, float]]:
        """tree._prior on a native game."""
        vs, values = game.child_values(legal, seat, self.ev)
        scored = []
        for i, a in enumerate(legal):
            if values[i] is not None:
                seen[a] = values[i]
            scored.append((vs[i], -i, a))
        out: list[tuple[int, float]] = self._ranked(scored)
        return out

    def greedy(self, game: Any, rng: random.Random) -> int:
        """A rollout's move: the greedy choice."""
        return greedy_id(game, rng, self.ev)


def search(sampler: Sampler, settings: MctsSettings, rng: random.Random, weights: Weights) -> tuple[dict[str, tuple[int, float]], int]:
    """mcts.search on the native core (``NativeLimit`` for an Alhambra too wide for it)."""
    native = NativeGame.from_state(sampler.base())
    root, it = _grow(sampler, settings, rng, weights, NativePlay(sampler, native.core, settings, weights))
    rules = native.rules
    stats = {str(decode(rules, a)): (c.visits, c.reward / c.visits if c.visits else 0.0) for a, c in root.children.items()}
    return stats, it
