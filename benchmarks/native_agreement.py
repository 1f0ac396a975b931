#!/usr/bin/env python3
"""Play many random games in the Python engine and on the native core side by side and print
the number of disagreements (it must be 0).

    python benchmarks/native_agreement.py [--games 100000] [--start 0] [--players 2,3,4,5,6]
        [--policy kinds|uniform|both] [--every 1000] [--log FILE [--resume]]

Game ``i`` has ``players[i % len(players)]`` seats and seed ``start + i``; the policies
alternate with ``both``. Each game runs :func:`alhambra.native.check.check_game`: after every
action the full state (every field, every seat's hand, Alhambra and reserve board), the
legal actions in each payments mode (all, exact, minimal) and the action's events (and the
deal's) are compared, and some states go
Python -> native -> Python. Prints a progress line every ``--every`` games (so a run can be
stopped at any time with its count so far) and every disagreement.

With ``--log FILE`` the same lines are also appended to FILE, which then serves as the
checkpoint: ``--resume`` reads the last progress line of FILE (written by a run with the same
``--start``, ``--players`` and ``--policy``) and goes on with the next game, keeping the counts,
so a long run can be stopped and started again without checking any game twice.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

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
    ap.add_argument("--log", type=Path, default=None, help="also append the output to this file (the checkpoint)")
    ap.add_argument("--resume", action="store_true", help="go on from the last progress line of --log")
    args = ap.parse_args()
    if not available():
        print(f"the native core is not available: {unavailable_reason()}", file=sys.stderr)
        return 2
    counts = [int(p) for p in args.players.split(",")]
    run = f"run: --start {args.start} --players {args.players} --policy {args.policy}"
    done, bad, actions, spent = 0, 0, 0, 0.0
    if args.resume:
        if args.log is None:
            print("--resume needs --log", file=sys.stderr)
            return 2
        done, bad, actions, spent = _checkpoint(args.log, run)
    log = args.log.open("a") if args.log is not None else None

    def say(line: str) -> None:
        print(line, flush=True)
        if log is not None:
            log.write(line + "\n")
            log.flush()

    say(f"{run} --games {args.games}" + (f" (resumed after {done} games)" if done else ""))
    t0 = time.time() - spent
    for i in range(done, args.games):
        seed = args.start + i
        policy = args.policy if args.policy != "both" else ("kinds", "uniform")[(i // len(counts)) % 2]
        result = check_game(GameConfig(players=counts[i % len(counts)]), seed, policy)
        actions += result.actions
        if not result.agree:
            bad += 1
            say(f"DISAGREEMENT {counts[i % len(counts)]} players, seed {seed}, {policy}: {result.disagreements[0]}")
        if (i + 1) % args.every == 0:
            say(f"{i + 1} games, {actions} actions checked, {bad} disagreements ({time.time() - t0:.0f} s)")
    say(f"done: {args.games} games, {actions} actions checked, {bad} disagreements")
    return 1 if bad else 0


_PROGRESS = re.compile(r"^(\d+) games, (\d+) actions checked, (\d+) disagreements \((\d+) s\)$")


def _checkpoint(path: Path, run: str) -> tuple[int, int, int, float]:
    """Games done, disagreements, actions and seconds of the last progress line of ``run`` in ``path``."""
    done, bad, actions, spent = 0, 0, 0, 0.0
    if not path.exists():
        return done, bad, actions, spent
    mine = False
    for line in path.read_text().splitlines():
        if line.startswith("run: "):
            mine = line.startswith(run + " ")
        elif mine and (m := _PROGRESS.match(line)):
            done, actions, bad, spent = int(m[1]), int(m[2]), int(m[3]), float(m[4])
    return done, bad, actions, spent


if __name__ == "__main__":
    sys.exit(main())
