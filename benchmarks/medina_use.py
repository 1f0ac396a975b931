#!/usr/bin/env python3
"""How each bot of a medina tournament used the medinas: replays every recorded game and counts,
per bot, the medinas bought, those built in its Alhambra at the end and its medina points.

    python benchmarks/medina_use.py [FILES...]
    (default: benchmarks/tournaments/modules/medina_*.json)

The medina module has no action of its own (medinas are bought and placed by the core's
actions), so ``alhambra report`` shows no module use for it; this is the figure docs/bots.md
quotes instead.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from alhambra.events import BuildingBought, RoundScored
from alhambra.record import GameRecord, replay

ROOT = Path(__file__).resolve().parent.parent
MODULE = "medina"


def usage(path: Path) -> list[tuple[str, int, float, float, float]]:
    """Per bot: (label, games, medinas bought per game, built at the end per game, medina
    points per game)."""
    data = json.loads(path.read_text())
    labels: list[str] = data["labels"]
    bought = [0] * len(labels)
    built = [0] * len(labels)
    points = [0] * len(labels)
    games = 0
    for game in data["game_results"]:
        record = GameRecord.from_json(game["record"])
        state, events = replay(record)
        comp = state.components
        games += 1
        for entry, seat in enumerate(game["seats"]):
            mine = [e for e in events if isinstance(e, BuildingBought) and e.seat == seat]
            bought[entry] += sum(1 for e in mine if comp.tiles[comp.tile_ids[e.tile]].module == MODULE)
            built[entry] += sum(1 for t in state.players[seat].city.values() if comp.tiles[t].module == MODULE)
            points[entry] += sum(e.extra[MODULE][seat] for e in events if isinstance(e, RoundScored) and MODULE in e.extra)
    return [(label, games, bought[i] / games, built[i] / games, points[i] / games) for i, label in enumerate(labels)]


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted((ROOT / "benchmarks" / "tournaments" / "modules").glob(f"{MODULE}_*.json"))
    print("| tournament | bot | games | medinas bought / game | built at the end / game | medina points / game |")
    print("|---|---|---|---|---|---|")
    for path in files:
        bots = " vs ".join(json.loads(path.read_text())["labels"])
        for label, games, b, c, p in usage(path):
            print(f"| {bots} | {label} | {games} | {b:.2f} | {c:.2f} | {p:+.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
