#!/usr/bin/env python3
"""Play many random games in the Python engine and on the native core side by side and print
the number of disagreements (it must be 0).

    python benchmarks/native_agreement.py [--games 100000] [--start 0] [--players 2,3,4,5,6]
        [--policy kinds|uniform|both] [--every 1000]

Game ``i`` has ``players[i % len(players)]`` seats and seed ``start + i``; the policies
alternate with ``both``. Each game runs :func:`alhambra.native.check.check_game`: after every
action the full state (every field, every seat's hand, Alhambra and reserve board) and the
legal actions in each payments mode (all, exact, minimal) are compared, and some states go
Python -> native -> Python. Prints a progress line every ``--every`` games (so a run can be
stopped at any time with its count so far) and every disagreement.
"""

from __future__ import annotations

import argparse
import sys
import time

from alhambra.native import available, unavailable_reason
from alhambra.native.check import check_game
from alhambra.state import GameConfig


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--players", default="2,3,4,5,6")
    ap.add_argument("--policy", default="both", choices=["kinds", "uniform", "both"])
    ap.add_argument("--every", type=int, default=1000)
    args = ap.parse_args()
    if not available():
        print(f"the native core is not available: {unavailable_reason()}", file=sys.stderr)
        return 2
    counts = [int(p) for p in args.players.split(",")]
    bad = 0
    actions = 0
    t0 = time.time()
    for i in range(args.games):
        seed = args.start + i
        policy = args.policy if args.policy != "both" else ("kinds", "uniform")[(i // len(counts)) % 2]
        result = check_game(GameConfig(players=counts[i % len(counts)]), seed, policy)
        actions += result.actions
        if not result.agree:
            bad += 1
            print(f"DISAGREEMENT {counts[i % len(counts)]} players, seed {seed}, {policy}: {result.disagreements[0]}", flush=True)
        if (i + 1) % args.every == 0:
            print(f"{i + 1} games, {actions} actions checked, {bad} disagreements ({time.time() - t0:.0f} s)", flush=True)
    print(f"done: {args.games} games, {actions} actions checked, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
