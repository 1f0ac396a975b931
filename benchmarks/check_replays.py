#!/usr/bin/env python3
"""Replay every recorded game of the tournament files and report those that no longer replay.

    python benchmarks/check_replays.py [FILES...]   (default: benchmarks/tournaments/**/*.json)

A change of the engine that alters play (a rule, the order of legal actions, a random stream)
shows up here: a recorded game whose actions are no longer legal, or whose scores differ.
Exit status 1 when any game does not replay to its recorded scores.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from alhambra.record import GameRecord, replay

ROOT = Path(__file__).resolve().parent.parent


def check(path: Path) -> tuple[int, list[str]]:
    """(games checked, problems) for one tournament file."""
    data = json.loads(path.read_text())
    problems: list[str] = []
    n = 0
    for i, game in enumerate(data.get("game_results", [])):
        rec = game.get("record")
        if rec is None:
            continue
        n += 1
        try:
            state, _ = replay(GameRecord.from_json(rec))
        except Exception as exc:  # every failure is reported, not raised
            problems.append(f"{path.name} game {i}: {exc}")
            continue
        # the result lists are per lineup entry; ``seats`` gives each entry's seat
        want, seats = game.get("scores"), game.get("seats")
        if want is not None and seats is not None:
            got = [state.scores[s] for s in seats]
            if got != list(want):
                problems.append(f"{path.name} game {i}: scores {got} != recorded {want}")
    return n, problems


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted((ROOT / "benchmarks" / "tournaments").rglob("*.json"))
    total = 0
    bad: list[str] = []
    for f in files:
        n, problems = check(f)
        total += n
        bad += problems
        print(f"{f.relative_to(ROOT) if f.is_absolute() else f}: {n} games, {len(problems)} not replaying", flush=True)
    for p in bad:
        print(p)
    print(f"{total} games checked, {len(bad)} not replaying")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
