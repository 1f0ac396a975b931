#!/usr/bin/env python3
"""Where does the greedy prior rank the move a search chose? Read from recorded tournament games.

    python benchmarks/prior_agreement.py [--games 40] FILES...
        (default: benchmarks/tournaments/hard_native_python_2p.json, mcts:hard against itself)

Replays the first ``--games`` games of each results file and, at every decision with more than
one canonical action, ranks the candidates as the search's progressive widening orders them
(``tree._prior`` with the tuned weights of ``mcts:hard``) and finds the place of the move the
recorded bot played. A learned policy prior could only help where that place is late: the
widening opens ``ceil(1.5 * visits ** 0.5)`` candidates at a node.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

from alhambra.bots.greedy import TUNED_WEIGHTS, canonical_actions
from alhambra.bots.tree import _prior
from alhambra.engine import apply_unchecked, legal_actions, new_game
from alhambra.record import GameRecord

ROOT = Path(__file__).resolve().parent.parent


def places(files: list[Path], games: int) -> tuple[int, collections.Counter[int], list[int]]:
    """(games read, how often the played move stood at each place, candidates per decision)."""
    counts: collections.Counter[int] = collections.Counter()
    sizes: list[int] = []
    read = 0
    for f in files:
        for g in json.loads(f.read_text())["game_results"][:games]:
            rec = GameRecord.from_json(g["record"])
            state, _ = new_game(rec.config, rec.seed)
            for a in rec.actions:
                seat = state.to_act
                if seat is not None and seat >= 0:
                    acts = canonical_actions(state, legal_actions(state))
                    if len(acts) > 1:
                        order = [x for x, _ in _prior(state, acts, seat, TUNED_WEIGHTS)]
                        counts[order.index(a) if a in order else -1] += 1
                        sizes.append(len(acts))
                apply_unchecked(state, a, events=False)
            read += 1
    return read, counts, sizes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--games", type=int, default=40, help="games read from each file")
    args = ap.parse_args()
    files = args.files or [ROOT / "benchmarks" / "tournaments" / "hard_native_python_2p.json"]
    read, counts, sizes = places(files, args.games)
    total = sum(counts.values())
    if not total:
        print("no decisions with a choice", file=sys.stderr)
        return 1
    print(f"{read} games, {total} decisions with a choice, {sum(sizes) / len(sizes):.1f} candidates on average")
    cum = 0
    for k in range(10):
        cum += counts[k]
        print(f"place {k + 1:>2}: {counts[k] / total:6.1%}   within the first {k + 1:>2}: {cum / total:6.1%}")
    late = sum(v for k, v in counts.items() if k >= 10)
    print(f"later: {late / total:.1%}   not a canonical action: {counts[-1] / total:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
