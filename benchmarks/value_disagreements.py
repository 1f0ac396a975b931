"""Where the value network disagrees with a deep search (docs/bots.md, mcts:learned).

Plays greedy 2-player games, and at every ``--every``-th decision compares the shipped
network's win chance for the seat to act with the value a deep ``mcts:hard`` search (no
network, ``--iterations`` iterations) gives its best move (the mean win reward of the most
visited root move). Prints the correlation, the mean absolute gap, and the positions with the
largest gaps as the seat sees them (``render_view``).

    python benchmarks/value_disagreements.py --games 6 --every 12 --iterations 3000 --show 3
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from alhambra.bots import make_bot, observe
from alhambra.bots.base import Budget, EventLog
from alhambra.bots.mcts import MctsBot, search
from alhambra.bots.tracker import Sampler
from alhambra.bots.value_net import load
from alhambra.engine import apply, new_game
from alhambra.research import render_view
from alhambra.state import GameConfig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--iterations", type=int, default=3000)
    ap.add_argument("--show", type=int, default=3)
    ap.add_argument("--seed", type=int, default=500)
    args = ap.parse_args()
    net = load()
    deep = make_bot(f"mcts:hard@iterations={args.iterations}+seconds=none")
    assert isinstance(deep, MctsBot)
    greedy = make_bot("greedy")
    rows: list[tuple[float, float, int, int, str]] = []
    for g in range(args.games):
        state, events = new_game(GameConfig(players=2), args.seed + g)
        log = EventLog()
        log.extend(events)
        rng = random.Random(g)
        k = 0
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            obs = observe(state, seat, tuple(log.for_seat(seat)))
            if k % args.every == args.every - 1 and len(obs.legal) > 1:
                stats, _ = search(Sampler(obs), deep.settings, random.Random(k), deep.weights)
                _visits, value = max(stats.values())
                rows.append((net.win_probs(state, seat)[seat], value, g, state.turn, render_view(obs.view)))
            action = greedy.choose(obs, Budget(), rng)
            state, events = apply(state, action, seat)
            log.extend(events)
            k += 1
    a = np.array([r[0] for r in rows])
    b = np.array([r[1] for r in rows])
    print(f"{len(rows)} positions from {args.games} greedy games; deep search: mcts:hard, {args.iterations} iterations, no network")
    print(f"correlation {np.corrcoef(a, b)[0, 1]:.3f}, mean |network - search| {np.abs(a - b).mean():.3f}")
    for net_p, value, g, turn, text in sorted(rows, key=lambda r: -abs(r[0] - r[1]))[: args.show]:
        print(f"\n--- game {g}, turn {turn}: network {net_p:.2f}, deep search {value:.2f} ---")
        print(text)


if __name__ == "__main__":
    main()
