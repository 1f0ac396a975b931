#!/usr/bin/env python3
"""Are the soft win's temperatures the best for games between searches? Read from recorded games.

    python benchmarks/soft_win_calibration.py [--every 2] FILES...
        (default: the recorded 2-player tournaments of mcts bots)

Replays every game of the results files and, at every ``--every``-th decision, turns the tuned
evaluation's estimated final points (``seat_values``, as ``mcts:hard``'s leaves see the true
state) into the soft win of ``tree.reward_of`` for each pair of temperatures (the scale at the
end and at the start, ``MctsSettings.temperature`` and ``temperature_early``) of a grid, and
scores each seat's value against its share of the win (log loss, lower is better): overall and
by tiles left in the bag. The files should hold games of one player count.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

from alhambra.bots.greedy import TUNED_WEIGHTS, seat_values
from alhambra.bots.tree import _BAG_START, MctsSettings
from alhambra.engine import apply_unchecked, new_game
from alhambra.record import GameRecord

ROOT = Path(__file__).resolve().parent.parent
Floats = npt.NDArray[np.float64]
DEFAULT = ["hard_native_python_2p", "hard_normal_2p", "learned_fast_2p", "learned_hard_2p", "learned_residual_2p"]


def positions(files: list[Path], every: int) -> tuple[Floats, Floats, Floats]:
    """Estimated final points (rows, seats), bag tiles left (rows) and win shares (rows, seats)."""
    values: list[list[float]] = []
    bags: list[int] = []
    shares: list[list[float]] = []
    for f in files:
        for g in json.loads(f.read_text())["game_results"]:
            rec = GameRecord.from_json(g["record"])
            state, _ = new_game(rec.config, rec.seed)
            seen: list[tuple[list[float], int]] = []
            for i, a in enumerate(rec.actions):
                if i % every == 0 and state.outcome is None:
                    seen.append((list(seat_values(state, TUNED_WEIGHTS)), len(state.bag)))
                apply_unchecked(state, a, events=False)
            scores = list(state.scores)
            top = max(scores)
            share = [1.0 / scores.count(top) if s == top else 0.0 for s in scores]
            for v, bag in seen:
                values.append(v)
                bags.append(bag)
                shares.append(share)
    return np.array(values), np.array(bags, dtype=np.float64), np.array(shares)


def soft_wins(v: Floats, bag: Floats, late: float, early: float) -> Floats:
    """``tree.reward_of``'s win reward before the end, for every row at once."""
    temp = late + (early - late) * np.minimum(1.0, bag / _BAG_START)
    out = np.ones_like(v)
    n = v.shape[1]
    for s in range(n):
        for o in range(n):
            if o != s:
                out[:, s] *= 1.0 / (1.0 + np.exp(-np.clip((v[:, s] - v[:, o]) / temp, -30.0, 30.0)))
    return out


def log_loss(p: Floats, y: Floats) -> float:
    """Mean binary cross-entropy over rows and seats."""
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--every", type=int, default=2, help="read every N-th decision")
    args = ap.parse_args()
    files = args.files or [ROOT / "benchmarks" / "tournaments" / f"{name}.json" for name in DEFAULT]
    v, bag, y = positions(files, args.every)
    if not len(v):
        print("no positions", file=sys.stderr)
        return 1
    now = MctsSettings()
    stages = [bag >= 30, (bag >= 15) & (bag < 30), bag < 15]
    grid = [(late, early) for late in (3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0) for early in (10.0, 14.0, 20.0, 28.0, 36.0, 48.0)]
    rows = []
    for late, early in grid:
        p = soft_wins(v, bag, late, early)
        rows.append((log_loss(p, y), late, early, [log_loss(p[m], y[m]) for m in stages]))
    rows.sort()
    print(f"{len(v)} positions, {v.shape[1]} players; log loss, overall and by bag tiles left: 30+ / 15-29 / 0-14")
    for loss, late, early, by in rows[:5]:
        mark = "   (the levels' setting)" if (late, early) == (now.temperature, now.temperature_early) else ""
        print(f"temperatures {late:4.0f} {early:4.0f}: {loss:.4f}   {' / '.join(f'{x:.4f}' for x in by)}{mark}")
    place = [i for i, r in enumerate(rows) if (r[1], r[2]) == (now.temperature, now.temperature_early)]
    if place:
        print(f"the levels' setting ({now.temperature:.0f}, {now.temperature_early:.0f}) is number {place[0] + 1} of {len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
