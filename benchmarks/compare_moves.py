#!/usr/bin/env python3
"""Check that two commits' MCTS bots choose exactly the same moves (speed work must not change play).

    python benchmarks/compare_moves.py BASE [HEAD] [--normal 15] [--easy 50] [--configs 4,4+vizier+currency_exchange]

BASE is checked out into a temporary git worktree (HEAD defaults to the working tree itself,
uncommitted changes included). For each configuration (``PLAYERS`` or ``PLAYERS+module+module``)
each tree plays greedy games in a fresh process and, at every 7th decision with a choice, lets
``mcts:normal`` (then ``mcts:easy``) choose with an iterations budget and no time cap
(``Budget(iterations=..., seconds=None)``, the level's own iterations) and a seeded random
generator. It records the chosen action, the iterations done and a digest of the root's
statistics (every root action's visits and mean reward): the two trees must agree on all
three at every position. Exit status 0 when they do, 1 when they differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from trees import checked_out, run_in

SNIPPET = r"""
import hashlib, json, random, sys
from alhambra.bots import make_bot, mcts as mcts_mod
from alhambra.bots.base import Budget, EventLog, observe
from alhambra.engine import apply, new_game
from alhambra.state import GameConfig

level, positions, players = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
modules = tuple(m for m in sys.argv[4].split("+") if m)
config = GameConfig(players=players, modules=modules)
stats_seen = []
real_search = mcts_mod.search

def recording(*args, **kw):
    got = real_search(*args, **kw)
    stats_seen.append(hashlib.sha1(json.dumps(sorted(got[0].items())).encode()).hexdigest()[:16])
    return got

mcts_mod.search = recording
bot = make_bot("mcts:" + level)
if getattr(bot.settings, "native_iterations", None) is not None:  # the level's iterations on both cores
    import dataclasses
    bot.settings = dataclasses.replace(bot.settings, native_iterations=None)
budget = Budget(iterations=bot.settings.iterations, seconds=None)
greedy = make_bot("greedy")
out = []
game = 0
while len(out) < positions:
    state, events = new_game(config, 101 + game)
    log = EventLog()
    log.extend(events)
    rng = random.Random(game)
    step = 0
    while not state.is_over and len(out) < positions:
        seat = state.to_act
        obs = observe(state, seat, tuple(log.for_seat(seat)))
        if step % 7 == 3 and len(obs.legal) > 1:
            stats_seen.clear()
            choice = bot.choose(obs, budget, random.Random(1000 * game + step))
            out.append([game, step, str(choice), bot.last_iterations, stats_seen[0] if stats_seen else ""])
        action = greedy.choose(obs, greedy.budget, rng)
        state, events = apply(state, action, seat)
        log.extend(events)
        step += 1
    game += 1
print(json.dumps(out))
"""


def _run(python: str, src: Path, args: list[str]) -> list[list[object]]:
    got: list[list[object]] = json.loads(run_in(python, src, ["-c", SNIPPET, *args]))
    return got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", help="the commit to compare with (e.g. main)")
    ap.add_argument("head", nargs="?", default=None, help="the other commit (default: the working tree)")
    ap.add_argument("--normal", type=int, default=15, help="positions searched by mcts:normal per configuration")
    ap.add_argument("--easy", type=int, default=50, help="positions searched by mcts:easy per configuration")
    ap.add_argument("--configs", default="4,4+vizier+currency_exchange", help="PLAYERS[+module...], comma-separated")
    ap.add_argument("--python", default=sys.executable)
    opts = ap.parse_args()
    with checked_out(opts.base, opts.head, "alhambra-moves-") as (base, head):
        differ = 0
        total = 0
        for cfg in opts.configs.split(","):
            players, _, mods = cfg.partition("+")
            for level, count in (("normal", opts.normal), ("easy", opts.easy)):
                if count <= 0:
                    continue
                args = [level, str(count), players, mods]
                a = _run(opts.python, base / "src", args)
                b = _run(opts.python, head / "src", args)
                bad = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
                total += len(a)
                differ += len(bad)
                print(f"{cfg:32s} mcts:{level:6s} {len(a) - len(bad):3d}/{len(a)} positions agree", flush=True)
                for x, y in bad[:5]:
                    print(f"    game {x[0]} step {x[1]}: base {x[2:]} head {y[2:]}")
        print(f"{total - differ} of {total} positions: same move, same iterations, same root statistics")
        return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
