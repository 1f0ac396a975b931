#!/usr/bin/env python3
"""How each bot of a falconers tournament used the falcons: replays every recorded game and
counts, per bot, the falcons bought, those returned to the supply by a redesign, those standing
in its Alhambra at the end and its falcon points (the three scoring rounds).

    python benchmarks/falconers_use.py [FILES...]
    (default: benchmarks/tournaments/modules/falconers_*.json)

``alhambra report`` counts the decisions where a falcon action was legal and taken; this adds
what the falcons were worth, the figures docs/bots.md quotes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from alhambra.events import RoundScored
from alhambra.modules.falconers import FalconBought, FalconReturned, falcons
from alhambra.record import GameRecord, replay

ROOT = Path(__file__).resolve().parent.parent
MODULE = "falconers"


def usage(path: Path) -> list[tuple[str, int, float, float, float, float]]:
    """Per bot: (label, games, and per game: falcons bought, returned, standing at the end, falcon points)."""
    data = json.loads(path.read_text())
    labels: list[str] = data["labels"]
    n = len(labels)
    bought, returned, standing, points = [0] * n, [0] * n, [0] * n, [0] * n
    games = 0
    for game in data["game_results"]:
        state, events = replay(GameRecord.from_json(game["record"]))
        games += 1
        for entry, seat in enumerate(game["seats"]):
            bought[entry] += sum(1 for e in events if isinstance(e, FalconBought) and e.seat == seat)
            returned[entry] += sum(1 for e in events if isinstance(e, FalconReturned) and e.seat == seat)
            standing[entry] += len(falcons(state).placed[seat])
            points[entry] += sum(e.extra[MODULE][seat] for e in events if isinstance(e, RoundScored) and MODULE in e.extra)
    g = max(games, 1)
    return [(label, games, bought[i] / g, returned[i] / g, standing[i] / g, points[i] / g) for i, label in enumerate(labels)]


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted((ROOT / "benchmarks" / "tournaments" / "modules").glob(f"{MODULE}_*.json"))
    print("| tournament | bot | games | falcons bought / game | returned / game | standing at the end / game | falcon points / game |")
    print("|---|---|---|---|---|---|---|")
    for path in files:
        bots = " vs ".join(json.loads(path.read_text())["labels"])
        for label, games, b, r, s, p in usage(path):
            print(f"| {bots} | {label} | {games} | {b:.2f} | {r:.2f} | {s:.2f} | {p:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
