"""How many iterations does ``mcts:easy`` complete per decision before its 0.25 s cap?

``python benchmarks/mcts_iterations.py [--modules a,b] [--turns 40] [--seed 1]`` plays one
2-player game ``mcts:easy`` against greedy (stopped after ``--turns`` turns) and prints, for the
decisions of ``mcts:easy`` with more than one legal action, how many search iterations each got
(the budget is 100 iterations or 0.25 s, whichever ends first) and the CPU share the process had.
Issue 26 asked why ``mcts:easy`` did not beat greedy with squares or the art of the moors in 40
games: when the 0.25 s cap ends the search long before 100 iterations (slower module flows, a
shared machine), the bot is little more than its greedy prior.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra.bots import EventLog, make_bot, observe


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--modules", default="")
    p.add_argument("--turns", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--spec", default="mcts:easy")
    a = p.parse_args()
    mods = tuple(m for m in a.modules.split(",") if m)
    config = GameConfig(players=2, modules=mods, turn_limit=a.turns)
    state, events = new_game(config, a.seed)
    history = EventLog()
    history.extend(events)
    bots = [make_bot(a.spec), make_bot("greedy")]
    rngs = [random.Random(a.seed), random.Random(a.seed + 1)]
    its: list[int] = []
    wall = cpu = 0.0
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        obs = observe(state, seat, tuple(history.for_seat(seat)))
        bot = bots[seat]
        w0, c0 = time.perf_counter(), time.process_time()
        action = bot.choose(obs, bot.budget, rngs[seat])
        if seat == 0 and len(legal_actions(state)) > 1:
            wall += time.perf_counter() - w0
            cpu += time.process_time() - c0
            its.append(int(getattr(bot, "last_iterations", 0)))
        state, events = apply(state, action, seat)
        history.extend(events)
    full = sum(1 for i in its if i >= 100)
    print(
        f"modules={','.join(mods) or 'none'} decisions={len(its)} iterations: median {statistics.median(its):.0f}, "
        f"mean {statistics.mean(its):.1f}, min {min(its)}, full budget (100) {full / len(its):.0%}; "
        f"CPU share while searching {cpu / max(wall, 1e-9):.0%}"
    )


if __name__ == "__main__":
    main()
