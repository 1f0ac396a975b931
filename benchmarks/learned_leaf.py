"""What a leaf of ``mcts:learned`` costs, and how many iterations a move it buys.

``python benchmarks/learned_leaf.py [--players 2,3,4] [--seconds 0.2] [--repeats 3] [--seed 1]``
takes positions of seeded greedy games (early, middle and late, for each player count) and prints:

* the leaf's cost in µs: the network's native twin (``native_value``: features and forward pass
  in C, no Python list: ``ValueCore.leaf_ns``; and as the search calls it, ``win_probs`` with its
  list), against the old leaf (the game's Python twin ``to_state``, its view, the research tensor
  and numpy: ``ValueNet.win_probs``), on native games a few moves past the position (the median
  over 20 such games of the best of repeated timings, which a busy machine disturbs least);
* iterations of one search at ``--seconds`` a move (no iteration cap; the median of
  ``--repeats`` searches) for ``mcts:hard``, ``mcts:learned`` with the native leaf and
  ``mcts:learned`` with the old leaf (``old``: the Python twin, as before the native twin);
* the CPU time an iteration of each takes (searches of ``--iterations`` iterations, median of
  ``--repeats``): the figure a busy machine disturbs least.

The iteration counts at equal time scale with the CPU share the process gets: compare the
columns of one run, whose searches are interleaved.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace
from functools import partial
from typing import Any

from alhambra import GameConfig, apply, new_game
from alhambra.bots import LEVELS, EventLog, make_bot, mcts as mcts_mod, native_value, observe
from alhambra.bots.base import Observation
from alhambra.bots.tracker import Sampler
from alhambra.bots.tree import mix
from alhambra.bots.value_net import ValueNet, load
from alhambra.native import core_module
from alhambra.native.game import NativeGame


class _OldRewarder:
    """The leaf rewards before the native twin: the network on the game's Python twin, mixed in
    Python (in place of ``LearnedRewarder``; the same rewards up to float32 rounding)."""

    def __init__(self, hand: Any, twin: Any, seat: int, share: float) -> None:
        self.hand = hand
        self.net = load()
        self.seat = seat
        self.share = share

    def __call__(self, game: Any, values: list[float] | None) -> list[float]:
        out: list[float] = self.hand(game, values)
        return out if game.outcome is not None else mix(out, _old_leaf(self.net, game, self.seat), self.share)


def _old_leaf(net: ValueNet, game: Any, seat: int) -> list[float]:
    return net.win_probs(game.to_state(), seat)


def _positions(players: int, seed: int, at: tuple[int, ...]) -> list[tuple[int, Observation]]:
    state, events = new_game(GameConfig(players=players), seed)
    log = EventLog()
    log.extend(events)
    bot = make_bot("greedy")
    rng = random.Random(seed)
    out: list[tuple[int, Observation]] = []
    decision = 0
    while not state.is_over and len(out) < len(at):
        seat = state.to_act
        assert seat is not None
        obs = observe(state, seat, tuple(log.for_seat(seat)))
        if len(obs.legal) > 1:
            decision += 1
            if decision in at:
                out.append((decision, obs))
        state, events = apply(state, bot.choose(obs, bot.budget, rng), seat)
        log.extend(events)
    return out


def _leaves(obs: Observation, count: int, seed: int) -> list[Any]:
    """Native games a few random moves past the position (what a search's leaves look like)."""
    base = NativeGame.from_state(Sampler(obs).base())
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        g = base.copy()
        for _ in range(rng.randrange(1, 8)):
            if g.is_over:
                break
            g.apply_id(rng.choice(g.legal_ids("minimal")))
        out.append(g.core)
    return out


def _us(fn: Any, reps: int, trials: int) -> float:
    """µs a call: the best of ``trials`` runs of ``reps`` calls (a run the machine did not
    interrupt)."""
    best = float("inf")
    for _ in range(trials):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best * 1e6


def _search(obs: Observation, level: str, seconds: float | None, iterations: int | None, seed: int, old: bool) -> tuple[int, float]:
    """One search: its iterations and the CPU seconds it took."""
    settings = replace(LEVELS[level], iterations=iterations, seconds=seconds)
    core = core_module()
    real = core.LearnedRewarder
    if old:
        core.LearnedRewarder = _OldRewarder
    try:
        c0 = time.process_time()
        its = mcts_mod.search(Sampler(obs), settings, random.Random(seed), settings.weights)[1]
        return its, time.process_time() - c0
    finally:
        core.LearnedRewarder = real


KINDS = (("hard", False), ("learned", False), ("learned", True))
"""mcts:hard, mcts:learned with the native leaf, mcts:learned with the old leaf."""


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--players", default="2,3,4")
    p.add_argument("--seconds", type=float, default=0.2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--iterations", type=int, default=300, help="iterations of the searches timed by CPU")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    net = load()
    print(
        f"{'position':<17}{'leaf µs: native':>16}{'(list)':>8}{'old':>7}"
        f"   its in {a.seconds} s: hard / learned / old   CPU µs an iteration: hard / learned / old"
    )
    for players in (int(x) for x in a.players.split(",")):
        config = GameConfig(players=players)
        twin = native_value.native_net(net, config)
        for decision, obs in _positions(players, a.seed, (8, 30, 60)):
            me = obs.seat
            leaves = _leaves(obs, 20, a.seed)
            native_c = statistics.median(min(twin.leaf_ns(g, me, 20) for _ in range(50)) for g in leaves) / 1000
            native_py = statistics.median(_us(partial(twin.win_probs, g, me), 20, 50) for g in leaves)
            old = statistics.median(_us(partial(_old_leaf, net, g, me), 1, 5) for g in leaves)
            timed: list[list[int]] = [[] for _ in KINDS]
            cpu: list[list[float]] = [[] for _ in KINDS]
            for r in range(a.repeats):  # interleaved, so a busy spell hits all three alike
                for k, (level, old_leaf) in enumerate(KINDS):
                    timed[k].append(_search(obs, level, a.seconds, None, r, old_leaf)[0])
                    its, secs = _search(obs, level, None, a.iterations, r, old_leaf)
                    cpu[k].append(secs / its * 1e6)
            its_text = " / ".join(f"{statistics.median(t):.0f}" for t in timed)
            cpu_text = " / ".join(f"{statistics.median(c):.0f}" for c in cpu)
            name = f"{players}p decision {decision}"
            print(f"{name:<17}{native_c:>16.1f}{native_py:>8.1f}{old:>7.0f}   {its_text:>33}   {cpu_text:>37}")


if __name__ == "__main__":
    main()
