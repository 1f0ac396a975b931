"""The search tree of the MCTS bots: its settings, nodes, leaf rewards and the loop that grows
it (:func:`_grow`), the same for both engines: :class:`Play` plays the samples on the Python
engine, :class:`alhambra.bots.native_search.NativePlay` on the native core. How a search is run
and turned into a move is :mod:`alhambra.bots.mcts`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..actions import Action
from ..engine import apply_unchecked
from ..state import GameConfig, GameState
from .base import yield_point
from .greedy import DEFAULT_WEIGHTS, Weights, canonical_actions, evaluate, greedy_action, relative, seat_values
from .tracker import Sampler

if TYPE_CHECKING:
    from .value_net import ValueNet

__all__ = ["MctsSettings", "Play", "Plays", "leaf_net", "mix", "ranked", "reward_of"]


@dataclass(frozen=True, slots=True)
class MctsSettings:
    """Search settings (see the module docstring)."""

    iterations: int | None = 400
    seconds: float | None = 1.0
    c_ucb: float = 1.0
    """UCB exploration constant, in units of the standard deviation of the rewards seen at the node."""
    bias: float = 1.0
    """Weight of the progressive bias towards the greedy prior (same units; fades with visits)."""
    pw_c: float = 1.5
    pw_alpha: float = 0.5
    opponent_pw_c: float | None = None
    """With 3 or more players: the widening constant at the opponents' decisions (None: ``pw_c``).
    A smaller value keeps each opponent to its few best replies by the greedy prior, so the
    iterations go to the searching seat's own choices instead of being spread over every
    opponent's; with 2 players the one opponent is always searched like the seat itself."""
    rollout_plies: int = 0
    temperature: float = 6.0
    """Logistic scale of a soft win, in points, at the end of the game (a lead of this many
    points counts as a 73% win)."""
    temperature_early: float = 20.0
    """The same scale at the start: the scale shrinks from this to ``temperature`` as the bag
    empties, since an early lead is less sure than a late one."""
    workers: int = 1
    reward: str = "win"
    """``win``: the chance of beating every opponent (the product of the pairwise chances), 1
    for a sole winner at the end (1/k for k tied winners); ``rank``: the share of opponents
    beaten. The same with 2 players; with more, ``win`` aims at what a game is won by."""
    weights: Weights = DEFAULT_WEIGHTS
    """The evaluation's weights, for the prior that orders candidates and for the leaves."""
    core: str = "auto"
    """Where the search plays its samples: ``auto`` on the native core when it covers the game
    (built, no modules: :mod:`alhambra.bots.native_search`, the same moves faster), else on the
    Python engine; ``python`` always on the Python engine; ``native`` as ``auto`` but says once
    when the native core is missing."""
    native_iterations: int | None = None
    """The iteration cap of a search on the native core when the bot searches with its own
    iterations (``iterations``; None: the same): the levels keep their time budgets and spend
    the native core's speed on more iterations. A budget with other iterations is kept as given."""
    value_net: str | None = None
    """A learned value network for the leaves (:mod:`alhambra.bots.value_net`): ``shipped`` or
    the path of a weights file; None: the hand-made evaluation alone. Used only in games the
    network covers (the base game at a trained player count)."""
    net_weight: float = 0.5
    """The network's share of a leaf's reward (the rest is the hand-made soft win)."""


_BAG_START = 44
"""Tiles in the bag after setup (54 tiles less the market; 2 players: less the neutral player's 6 too)."""


class _Node:
    __slots__ = ("avail", "children", "entries", "legal", "mover", "rank", "ranked", "reward", "sets", "sq", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        """The seat whose action led here (its reward is summed)."""
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.sq = 0.0
        self.children: dict[Any, _Node] = {}
        """The children created so far, in the order they were first candidates (by action:
        an :class:`Action` on the Python engine, an action id on the native core)."""
        self.entries: list[_Cand] | None = None
        """Every action seen here, best prior first (actions first seen later, with prior 0, after)."""
        self.rank: dict[Any, int] = {}
        """Each action's place in ``entries``."""
        self.legal: list[Any] | None = None
        """The legal (canonical) actions of the last visit, and their entries in prior order (``ranked``)."""
        self.ranked: list[_Cand] = []
        self.sets: dict[tuple[Any, ...], list[_Cand]] = {}
        """``ranked`` by the legal actions of a visit (samples with other hidden facts may allow
        other actions; each set's list is made once)."""


class _Cand:
    """One action at a node: its prior and its child (None until the action is first a candidate)."""

    __slots__ = ("action", "child", "prior")

    def __init__(self, action: Any, prior: float, child: _Node | None) -> None:
        self.action = action
        self.prior = prior
        self.child = child


def _rewards(
    state: GameState, settings: MctsSettings, weights: Weights, values: list[float] | None = None, net: ValueNet | None = None, me: int = 0
) -> list[float]:
    """Every seat's reward (see ``MctsSettings.reward``), soft before the end (``values``: the
    state's ``seat_values`` if already known; ``net``: a value network mixed in as ``me`` sees the state)."""
    if state.outcome is not None:
        return reward_of(state.scores, True, 0, settings)
    out = reward_of(seat_values(state, weights) if values is None else values, False, len(state.bag), settings)
    if net is not None:
        return mix(out, net.chances(out, state, me), settings.net_weight)
    return out


def reward_of(v: Sequence[float], over: bool, bag_left: int, settings: MctsSettings) -> list[float]:
    """Every seat's reward from the final scores (``over``) or the estimated final points ``v``
    with ``bag_left`` tiles in the bag (the same for both engines)."""
    n = len(v)
    if over:
        v = [float(s) for s in v]
        if settings.reward == "win":
            top = max(v)
            k = v.count(top)
            return [1.0 / k if x == top else 0.0 for x in v]
        return [sum(1.0 if v[s] > v[o] else 0.5 if v[s] == v[o] else 0.0 for o in range(n) if o != s) / (n - 1) for s in range(n)]
    bag = min(1.0, bag_left / _BAG_START)
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
    return out


def mix(hand: list[float], learned: list[float], share: float) -> list[float]:
    """A leaf's rewards: the hand-made ones and the network's, ``share`` of the latter."""
    return [(1.0 - share) * h + share * q for h, q in zip(hand, learned, strict=True)]


def leaf_net(settings: MctsSettings, config: GameConfig) -> ValueNet | None:
    """The value network the search mixes in at its leaves, if any covers this game."""
    if settings.value_net is None or settings.net_weight <= 0.0:
        return None
    from . import value_net  # numpy: loaded only by a search that uses a network

    net = value_net.load(settings.value_net)
    return net if net.covers(config) else None


def _prior(
    state: GameState, acts: Sequence[Action], seat: int, weights: Weights, seen: dict[Action, list[float]] | None = None
) -> list[tuple[Action, float]]:
    """Candidates with their greedy value, best first. Each result's ``seat_values`` go into
    ``seen`` (for a game not over), by action."""
    scored = []
    for i, a in enumerate(acts):
        s = state.copy()
        apply_unchecked(s, a, events=False)
        if s.outcome is not None:
            v = evaluate(s, seat, weights)
        else:
            values = seat_values(s, weights)
            if seen is not None:
                seen[a] = values
            v = relative(values, seat, weights)
        scored.append((v, -i, a))
    return ranked(scored)


def ranked(scored: list[tuple[float, int, Any]]) -> list[tuple[Any, float]]:
    """Candidates ``(value, -place, action)`` best first with their prior: the value scaled to
    0-1 between the worst and the best (the same for both engines)."""
    scored.sort(reverse=True)  # by value, then by place in ``acts`` (``-i`` is unique: actions are never compared)
    if not scored:
        return []
    hi = scored[0][0]
    lo = scored[-1][0]
    span = hi - lo if hi > lo else 1.0
    return [(a, (v - lo) / span) for v, _, a in scored]


def _search(sampler: Sampler, settings: MctsSettings, rng: random.Random, weights: Weights) -> tuple[dict[str, tuple[int, float]], int]:
    root, it = _grow(sampler, settings, rng, weights)
    stats = {str(a): (c.visits, c.reward / c.visits if c.visits else 0.0) for a, c in root.children.items()}
    return stats, it


def _play(state: GameState, action: Action) -> None:
    apply_unchecked(state, action, events=False)


class Plays(Protocol):
    """What :func:`_grow` plays its samples with (see :class:`Play`)."""

    sample: Callable[[random.Random], Any]
    legal: Callable[[Any], list[Any]]
    apply: Callable[[Any, Any], None]

    def prior(self, game: Any, legal: list[Any], seat: int, seen: dict[Any, list[float]]) -> list[tuple[Any, float]]: ...
    def greedy(self, game: Any, rng: random.Random) -> Any: ...
    def rewards(self, game: Any, values: list[float] | None) -> list[float]: ...


class Play:
    """How a search plays its samples: on the Python engine (this class; the games are
    :class:`GameState` values and the actions :class:`Action` values) or on the native core
    (:class:`alhambra.bots.native_search.NativePlay`: native games and action ids). A game has
    ``outcome`` (None until the end) and ``to_act``; the tree is the same for both."""

    def __init__(self, sampler: Sampler, settings: MctsSettings, weights: Weights) -> None:
        self.settings = settings
        self.weights = weights
        self.sample: Callable[[random.Random], Any] = sampler.sample
        """A fresh sample of the hidden facts (a game to play an iteration in)."""
        self.legal: Callable[[Any], list[Any]] = canonical_actions
        """The actions the tree considers in a game (the canonical ones)."""
        self.apply: Callable[[Any, Any], None] = _play
        """Play an action of :attr:`legal` in place."""
        self.net = leaf_net(settings, sampler.config)
        """The value network mixed in at the leaves (None: the hand-made evaluation alone)."""
        self.me = sampler.obs.seat

    def prior(self, game: Any, legal: list[Any], seat: int, seen: dict[Any, list[float]]) -> list[tuple[Any, float]]:
        """:func:`_prior`: the candidates best first with their prior; ``seen`` gets the seat values after each."""
        return _prior(game, legal, seat, self.weights, seen)

    def greedy(self, game: Any, rng: random.Random) -> Any:
        """A rollout's move: the greedy choice."""
        return greedy_action(game, rng, self.weights)

    def rewards(self, game: Any, values: list[float] | None) -> list[float]:
        """:func:`_rewards` of a game (``values``: its seat values if known)."""
        return _rewards(game, self.settings, self.weights, values, self.net, self.me)


def _grow(sampler: Sampler, settings: MctsSettings, rng: random.Random, weights: Weights, play: Plays | None = None) -> tuple[_Node, int]:
    """Grow one search tree; return its root and the number of iterations done (``play``: how
    the samples are played, by default on the Python engine)."""
    plays: Plays = Play(sampler, settings, weights) if play is None else play
    deadline = None if settings.seconds is None else time.perf_counter() + settings.seconds
    max_iter = settings.iterations
    me = sampler.obs.seat
    opp_pw_c = settings.pw_c if settings.opponent_pw_c is None or sampler.config.players < 3 else settings.opponent_pw_c
    root = _Node(-1)
    root_legal: list[Any] | None = None
    it = 0
    sqrt = math.sqrt
    ln = math.log
    ceil = math.ceil
    pw_alpha = settings.pw_alpha
    c_ucb = settings.c_ucb
    bias_c = settings.bias
    own_pw_c = settings.pw_c
    sample = plays.sample
    legal_of = plays.legal
    apply = plays.apply
    prior = plays.prior
    pause = yield_point()
    while True:
        if pause is not None:
            paused = pause()  # a server worker yields to people's tables (bots.base.set_yield_point)
            if paused and deadline is not None:
                deadline += paused
        if max_iter is not None and it >= max_iter:
            break
        if deadline is not None and it > 0 and time.perf_counter() >= deadline:
            break
        if max_iter is None and deadline is None and it >= 1000:
            break
        it += 1
        state = sample(rng)
        node = root
        path = [root]
        known: dict[Any, list[float]] | None = None
        last: Any = None
        while state.outcome is None:
            seat = state.to_act
            assert seat is not None
            if node is root:
                # the decision being searched depends only on what the seat sees, never on
                # the sampled hidden facts: its actions are the same in every sample
                if root_legal is None:
                    root_legal = legal_of(state)
                legal = root_legal
            else:
                legal = legal_of(state)
            entries = node.entries
            if entries is None:
                if node is not root and node.visits == 0:
                    break
                known = {}
                order = prior(state, legal, seat, known) if len(legal) > 1 else [(a, 1.0) for a in legal]
                entries = node.entries = [_Cand(a, p, None) for a, p in order]
                node.rank = {e.action: i for i, e in enumerate(entries)}
                node.ranked = entries[:]
                node.legal = legal
            elif legal is not node.legal and legal != node.legal:  # another sample: other actions may be legal here
                key = tuple(legal)
                got = node.sets.get(key)
                if got is None:  # an action's place never changes, so neither does this list
                    rank = node.rank
                    idx = []
                    for a in legal:
                        i = rank.get(a)
                        if i is None:  # first seen now: after the others, with no prior
                            i = rank[a] = len(entries)
                            entries.append(_Cand(a, 0.0, None))
                        idx.append(i)
                    got = node.sets[key] = [entries[i] for i in sorted(set(idx))]
                node.ranked = got
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
            # exploration in units of the spread of the rewards seen here (rewards are
            # probabilities whose differences between moves are small)
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
            apply(state, last)
            nxt = best.child
            assert nxt is not None
            node = nxt
            path.append(node)
            if node.visits == 0:
                break
        for _ in range(settings.rollout_plies):
            if state.outcome is not None:
                break
            apply(state, plays.greedy(state, rng))
        # a node expanded in this iteration evaluated its children: the leaf is the one chosen
        values = known.get(last) if known is not None and last is not None and not settings.rollout_plies else None
        rewards = plays.rewards(state, values)
        for nd in path:
            nd.visits += 1
            if nd.mover >= 0:
                r = rewards[nd.mover]
                nd.reward += r
                nd.sq += r * r
    return root, it
