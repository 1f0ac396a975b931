#!/usr/bin/env python3
"""How each bot of an invaders tournament dealt with the invasions: replays every recorded game
and counts, per bot, the scouts taken, the invasion points lost and the unprotected sides
(towards all four directions) of its Alhambra at the end.

    python benchmarks/invaders_use.py [FILES...]
    (default: benchmarks/tournaments/modules/invaders_*.json)

The invaders module has no action of its own (a scout comes with an exact purchase of its kind),
so ``alhambra report`` shows no module use for it; this is the figure docs/bots.md quotes instead.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from alhambra.modules.invaders import InvasionRevealed, InvasionScouted, exposure
from alhambra.record import GameRecord, replay

ROOT = Path(__file__).resolve().parent.parent
MODULE = "invaders"


def usage(path: Path) -> list[tuple[str, int, float, float, float]]:
    """Per bot: (label, games, scouts taken per game, invasion points lost per game,
    unprotected sides at the end per game)."""
    data = json.loads(path.read_text())
    labels: list[str] = data["labels"]
    scouts = [0] * len(labels)
    lost = [0] * len(labels)
    sides = [0] * len(labels)
    games = 0
    for game in data["game_results"]:
        record = GameRecord.from_json(game["record"])
        state, events = replay(record)
        walls = state.components.tile_walls
        games += 1
        for entry, seat in enumerate(game["seats"]):
            scouts[entry] += sum(1 for e in events if isinstance(e, InvasionScouted) and e.seat == seat)
            lost[entry] += sum(e.lost[seat] for e in events if isinstance(e, InvasionRevealed))
            sides[entry] += sum(exposure(state.players[seat].city, walls).values())
    return [(label, games, scouts[i] / games, lost[i] / games, sides[i] / games) for i, label in enumerate(labels)]


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted((ROOT / "benchmarks" / "tournaments" / "modules").glob(f"{MODULE}_*.json"))
    print("| tournament | bot | games | scouts taken / game | invasion points lost / game | unprotected sides at the end / game |")
    print("|---|---|---|---|---|---|")
    for path in files:
        bots = " vs ".join(json.loads(path.read_text())["labels"])
        for label, games, s, p, u in usage(path):
            print(f"| {bots} | {label} | {games} | {s:.2f} | {p:.2f} | {u:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
