"""Monte Carlo tree search over information sets (single-observer ISMCTS).

One search builds one tree whose nodes are sequences of actions (of every seat) from the
current decision. Every iteration:

1. **determinizes**: draws a full state consistent with the bot's observation
   (:class:`~alhambra.bots.tracker.Sampler`: unknown draw pile and bag order, fresh seed), so
   the chance of every iteration is sampled anew;
2. **selects** down the tree among the children whose actions are legal in *this* sample
   (UCB1 with availability counts, plus a small progressive bias from the greedy prior);
   **progressive widening** unlocks children in the order of the greedy evaluation, one more
   as the node's visits grow (``pw_c * visits ** pw_alpha``), so big choices (payments,
   places) are searched best-first; payments are **canonical** (no dominated overpayment);
   with 3 or more players the opponents' decisions can be widened more slowly
   (``opponent_pw_c``), so the search looks deeper into the seat's own plans than into every
   opponent's alternatives;
3. **expands** one child and runs a **truncated rollout**: ``rollout_plies`` greedy moves,
   then the greedy evaluation of the position;
4. **backs up win rewards**: each seat's reward is its chance of beating every opponent (a
   soft comparison of estimated final points, multiplied over the opponents; the exact result
   once the game is over), so multiplayer search aims at winning, not at margins or a good
   rank (``reward="rank"``: the share of opponents beaten instead).

The move played is the root child visited most. The budget is iterations and/or seconds,
whichever ends first; with ``workers > 1`` independent searches run in parallel processes
(root parallelization) and their root statistics are summed.

For games the native core covers (no modules) the search runs on it
(:mod:`alhambra.bots.native_search`): the same tree, the same moves, faster.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, replace
from multiprocessing import get_context
from typing import Any

from ..actions import Action, parse_action
from ..city import shared_analyses
from ..native import NativeLimit, warn_once
from . import native_search
from .base import Budget, Observation, fallback_action, log
from .greedy import DEFAULT_WEIGHTS, Weights, canonical_actions, greedy_action
from .repetition import Repetition
from .tracker import Sampler, Tracker
from .tree import MctsSettings, _search

__all__ = ["MctsBot", "MctsSettings", "search"]

_ANSWER_RESERVE = 0.01
"""Seconds of a time budget kept back from the search for choosing and returning the move."""


def search(
    sampler: Sampler, settings: MctsSettings, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS
) -> tuple[dict[str, tuple[int, float]], int]:
    """Run one search; return the root children's ``{action: (visits, mean reward)}`` and the
    number of iterations done. On the native core when ``settings.core`` allows it and the
    core covers the game (see ``MctsSettings.core``)."""
    if settings.core != "python":
        if native_search.covers(sampler):
            try:
                return native_search.search(sampler, settings, rng, weights)
            except NativeLimit:  # an Alhambra too wide for the native grid (never seen in play)
                log.warning("mcts: an Alhambra outgrew the native core; searching on the Python engine")
        elif settings.core == "native":
            warn_once("the mcts bots search on the Python engine")
    with shared_analyses():
        return _search(sampler, settings, rng, weights)


def _worker(obs: Observation, settings: MctsSettings, seed: int, weights: Weights) -> tuple[dict[str, tuple[int, float]], int]:
    return search(Sampler(obs), settings, random.Random(seed), weights)


class MctsBot:
    """Information-set MCTS bot (see the module docstring)."""

    def __init__(self, name: str = "mcts", settings: MctsSettings | None = None, weights: Weights | None = None) -> None:
        self.name = name
        self.settings = settings or MctsSettings()
        self.weights = self.settings.weights if weights is None else weights
        self.budget = Budget(self.settings.iterations, self.settings.seconds)
        self.tracker = Tracker()
        self.last_iterations = 0
        self.last_value: float | None = None
        """The mean reward of the chosen move in the last search (the mover's estimated win
        chance; None when the last decision needed no search)."""
        self._pool: ProcessPoolExecutor | None = None

    def choose(self, obs: Observation, budget: Budget, rng: random.Random) -> Action:
        """The most visited root action of a search within ``budget`` (the seconds count from
        the call, so reading the observation is inside them too)."""
        start = time.perf_counter()
        self.last_value = None
        legal = obs.legal
        if len(legal) == 1:
            self.last_iterations = 0
            return parse_action(legal[0])
        try:
            sampler = Sampler(obs, self.tracker)
            base = sampler.base()
            if len(canonical_actions(base)) == 1:
                self.last_iterations = 0
                return canonical_actions(base)[0]
            seconds = budget.seconds
            if seconds is not None:  # what is left, less a little for answering
                seconds = max(0.0, seconds - (time.perf_counter() - start) - _ANSWER_RESERVE)
            its = budget.iterations
            own = self.settings
            if own.native_iterations is not None and its == own.iterations and own.core != "python" and native_search.covers(sampler):
                its = own.native_iterations
            settings = replace(own, iterations=its, seconds=seconds)
            if settings.workers > 1:
                stats, its = self._parallel(obs, settings, rng)
            else:
                stats, its = search(sampler, settings, rng, self.weights)
            self.last_iterations = its
            shown = set(legal)
            ranked = sorted(((v, q, a) for a, (v, q) in stats.items() if a in shown), key=lambda x: (x[0], x[1]), reverse=True)
            if not ranked:
                return fallback_action(obs, rng, "the search found no legal action")
            self.last_value = ranked[0][1]
            choice = parse_action(ranked[0][2])
            rep = Repetition(obs)
            if rep.repeats(choice):  # never redesign back to an earlier layout: the next most visited
                for _, _, text in ranked[1:]:
                    if not rep.repeats(a := parse_action(text)):
                        return a
                rest = [a for a in canonical_actions(base) if not rep.repeats(a)]
                if rest:  # nothing else was visited: greedy's choice among the rest
                    return greedy_action(base, rng, self.weights, rest)
            return choice
        except Exception as e:  # never crash a game: fall back and log
            log.exception("mcts failed")
            return fallback_action(obs, rng, f"mcts failed: {type(e).__name__}: {e}")

    def _parallel(self, obs: Observation, settings: MctsSettings, rng: random.Random) -> tuple[dict[str, tuple[int, float]], int]:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(settings.workers, mp_context=get_context("fork"))
        one = replace(settings, workers=1)
        per = None if settings.iterations is None else max(1, settings.iterations // settings.workers)
        one = replace(one, iterations=per)
        futures = [self._pool.submit(_worker, obs, one, rng.randrange(1 << 62), self.weights) for _ in range(settings.workers)]
        total: dict[str, tuple[int, float]] = {}
        its = 0
        for f in futures:
            stats, k = f.result()
            its += k
            for a, (v, q) in stats.items():
                v0, q0 = total.get(a, (0, 0.0))
                total[a] = (v0 + v, (q0 * v0 + q * v) / (v0 + v) if v0 + v else 0.0)
        return total, its

    def close(self) -> None:
        """Stop the worker processes, if any."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def info(self) -> dict[str, Any]:
        """Settings, for reports."""
        return {"name": self.name, **asdict(self.settings)}
