"""The MCTS search of :mod:`alhambra.bots.mcts` on the native core (games without modules).

The same algorithm, step by step, with the game states on the native core
(:mod:`alhambra.native`): every iteration's sample is a copy of the native twin of the
sampler's base state with a freshly drawn seed, draw pile and bag (drawn from the generator
exactly as ``Sampler.sample`` draws them); the tree is keyed by native action ids; the legal
actions are the native ``minimal`` payments (the canonical actions of the base game); the
greedy prior, the leaf values and the rollouts use the native twin of the greedy evaluation
(``native/bots.pxi``), which rounds as the Python code rounds. So for the same seed and
iteration count the search grows the same tree and chooses the same move as the Python search
(``tests/test_native_bots.py`` proves it on seeded positions), only faster: the levels keep
their time budgets and spend the speed on more iterations.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any

from ..native import available, core_module, supports
from ..native.game import NativeGame, decode
from .greedy import Weights, _tables
from .tracker import Sampler

if TYPE_CHECKING:
    from .value_net import ValueNet

if TYPE_CHECKING:
    from .mcts import MctsSettings

__all__ = ["covers", "evaluator", "grow", "search"]

_BAG_START = 44
"""As in :mod:`alhambra.bots.mcts`."""

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


class _Node:
    __slots__ = ("avail", "children", "entries", "legal", "mover", "rank", "ranked", "reward", "sq", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.sq = 0.0
        self.children: dict[int, _Node] = {}
        self.entries: list[_Cand] | None = None
        self.rank: dict[int, int] = {}
        self.legal: list[int] | None = None
        self.ranked: list[_Cand] = []


class _Cand:
    __slots__ = ("action", "child", "prior")

    def __init__(self, action: int, prior: float, child: _Node | None) -> None:
        self.action = action
        self.prior = prior
        self.child = child


def _rewards(
    game: Any, settings: MctsSettings, ev: Any, values: list[float] | None, net: ValueNet | None = None, me: int = 0
) -> list[float]:
    """mcts._rewards on a native game (the network reads the game's Python twin)."""
    n = len(game.scores)
    if game.is_over:
        v = [float(s) for s in game.scores]
        if settings.reward == "win":
            top = max(v)
            k = v.count(top)
            return [1.0 / k if x == top else 0.0 for x in v]
        return [sum(1.0 if v[s] > v[o] else 0.5 if v[s] == v[o] else 0.0 for o in range(n) if o != s) / (n - 1) for s in range(n)]
    v = game.seat_values(ev) if values is None else values
    bag = min(1.0, game.nbag / _BAG_START)
    temperature = settings.temperature + (settings.temperature_early - settings.temperature) * bag
    out = []
    win = settings.reward == "win"
    for s in range(n):
        total = 1.0 if win else 0.0
        for o in range(n):
            if o != s:
                x = (v[s] - v[o]) / temperature
                p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))
                if win:
                    total *= p
                else:
                    total += p
        out.append(total if win else total / (n - 1))
    if net is not None:
        from .mcts import mix

        return mix(out, net.win_probs(game.to_state(), me), settings.net_weight)
    return out


def _prior(game: Any, acts: list[int], seat: int, ev: Any, seen: dict[int, list[float]]) -> list[tuple[int, float]]:
    """mcts._prior on a native game."""
    vs, values = game.child_values(acts, seat, ev)
    scored = []
    for i, a in enumerate(acts):
        if values[i] is not None:
            seen[a] = values[i]
        scored.append((vs[i], -i, a))
    scored.sort(reverse=True)
    if not scored:
        return []
    hi = scored[0][0]
    lo = scored[-1][0]
    span = hi - lo if hi > lo else 1.0
    return [(a, (v - lo) / span) for v, _, a in scored]


def greedy_id(game: Any, rng: random.Random, ev: Any) -> int:
    """greedy.greedy_action on a native game (the same ties, the same use of ``rng``)."""
    seat = game.to_act
    cands: list[int] = game.legal_ids(2)
    if len(cands) == 1:
        return cands[0]
    vs, _ = game.child_values(cands, seat, ev)
    best: list[int] = []
    best_v = float("-inf")
    for a, v in zip(cands, vs, strict=True):
        if v > best_v + 1e-9:
            best_v = v
            best = [a]
        elif v > best_v - 1e-9:
            best.append(a)
    return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]


def search(sampler: Sampler, settings: MctsSettings, rng: random.Random, weights: Weights) -> tuple[dict[str, tuple[int, float]], int]:
    """mcts.search on the native core (``NativeLimit`` for an Alhambra too wide for it)."""
    native = NativeGame.from_state(sampler.base())
    root, it = grow(sampler, native.core, settings, rng, weights)
    rules = native.rules
    stats = {str(decode(rules, a)): (c.visits, c.reward / c.visits if c.visits else 0.0) for a, c in root.children.items()}
    return stats, it


def grow(sampler: Sampler, base: Any, settings: MctsSettings, rng: random.Random, weights: Weights) -> tuple[_Node, int]:
    """mcts._grow with native games: grow one tree from ``base`` (the native twin of
    ``sampler.base()``); return its root and the number of iterations done."""
    deadline = None if settings.seconds is None else time.perf_counter() + settings.seconds
    max_iter = settings.iterations
    me = sampler.obs.seat
    opp_pw_c = settings.pw_c if settings.opponent_pw_c is None or sampler.config.players < 3 else settings.opponent_pw_c
    ev = evaluator(sampler.base().components, weights)
    from .mcts import leaf_net

    net = leaf_net(settings, sampler.config)
    root = _Node(-1)
    root_legal: list[int] | None = None
    it = 0
    sqrt = math.sqrt
    ln = math.log
    ceil = math.ceil
    pw_alpha = settings.pw_alpha
    c_ucb = settings.c_ucb
    bias_c = settings.bias
    own_pw_c = settings.pw_c
    hidden = sampler.hidden
    with_hidden = base.with_hidden
    while True:
        if max_iter is not None and it >= max_iter:
            break
        if deadline is not None and it > 0 and time.perf_counter() >= deadline:
            break
        if max_iter is None and deadline is None and it >= 1000:
            break
        it += 1
        game = with_hidden(*hidden(rng))
        node = root
        path = [root]
        known: dict[int, list[float]] | None = None
        last: int | None = None
        while not game.is_over:
            seat = game.to_act
            if node is root:
                if root_legal is None:
                    root_legal = game.legal_ids(2)
                legal = root_legal
            else:
                legal = game.legal_ids(2)
            entries = node.entries
            if entries is None:
                if node is not root and node.visits == 0:
                    break
                known = {}
                ranked = _prior(game, legal, seat, ev, known) if len(legal) > 1 else [(a, 1.0) for a in legal]
                entries = node.entries = [_Cand(a, p, None) for a, p in ranked]
                node.rank = {e.action: i for i, e in enumerate(entries)}
                node.ranked = entries[:]
                node.legal = legal
            elif legal is not node.legal and legal != node.legal:
                rank = node.rank
                idx = []
                for a in legal:
                    i = rank.get(a)
                    if i is None:
                        i = rank[a] = len(entries)
                        entries.append(_Cand(a, 0.0, None))
                    idx.append(i)
                node.ranked = [entries[i] for i in sorted(set(idx))]
                node.legal = legal
            pw_c = own_pw_c if seat == me else opp_pw_c
            allowed = max(1, ceil(pw_c * (node.visits + 1) ** pw_alpha))
            cands = node.ranked[:allowed]
            total_n = 0
            total_r = 0.0
            total_sq = 0.0
            for e in cands:
                child = e.child
                if child is None:
                    child = e.child = node.children[e.action] = _Node(seat)
                child.avail += 1
                total_n += child.visits
                total_r += child.reward
                total_sq += child.sq
            if total_n > 1:
                mean = total_r / total_n
                scale = sqrt(max(total_sq / total_n - mean * mean, 1e-4))
            else:
                scale = 0.1
            explore = c_ucb * scale
            bias = bias_c * scale
            best: _Cand | None = None
            best_score = -1.0
            for e in cands:
                child = e.child
                assert child is not None
                cv = child.visits
                if cv == 0:
                    best = e
                    break
                score = child.reward / cv + explore * sqrt(ln(child.avail) / cv) + bias * e.prior / (cv + 1)
                if score > best_score:
                    best_score = score
                    best = e
            assert best is not None
            last = best.action
            game.apply_id(last)
            nxt = best.child
            assert nxt is not None
            node = nxt
            path.append(node)
            if node.visits == 0:
                break
        for _ in range(settings.rollout_plies):
            if game.is_over:
                break
            game.apply_id(greedy_id(game, rng, ev))
        values = known.get(last) if known is not None and last is not None and not settings.rollout_plies else None
        rewards = _rewards(game, settings, ev, values, net, me)
        for nd in path:
            nd.visits += 1
            if nd.mover >= 0:
                r = rewards[nd.mover]
                nd.reward += r
                nd.sq += r * r
    return root, it
