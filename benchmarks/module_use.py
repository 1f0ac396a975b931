#!/usr/bin/env python3
"""How each bot of a module's tournaments used a module that has few or no actions of its own:
replays every recorded game and prints, per bot, figures per game (a Markdown table).

    python benchmarks/module_use.py MODULE [FILES...]
    (default files: benchmarks/tournaments/modules/MODULE_*.json)

``alhambra report`` counts the uses of a module's actions; medinas are bought by the core's
actions, scouts come with purchases and invasions with the scoring rounds, and falcons are
better counted by what happens to them, so docs/bots.md quotes these figures instead:

* ``medina``: medinas bought, built at the end, medina points;
* ``invaders``: scouts taken, invasion points lost, unprotected sides at the end;
* ``falconers``: falcons bought, returned to the supply, standing at the end, falcon points;
* ``squares``: squares taken, built at the end, the extra buildings they give at the end;
* ``art_of_the_moors``: culture counters taken, developments, culture points.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from alhambra.events import BuildingBought, Event, RoundScored
from alhambra.record import GameRecord, replay
from alhambra.state import GameState

ROOT = Path(__file__).resolve().parent.parent

Counter = Callable[[GameState, Sequence[Event], int], tuple[float, ...]]
"""Figures of one seat in one finished game (its state and every event)."""


def _round_points(module: str, events: Sequence[Event], seat: int) -> int:
    return sum(e.extra[module][seat] for e in events if isinstance(e, RoundScored) and module in e.extra)


def _medina(state: GameState, events: Sequence[Event], seat: int) -> tuple[float, ...]:
    comp = state.components
    mine = [e for e in events if isinstance(e, BuildingBought) and e.seat == seat]
    bought = sum(1 for e in mine if comp.tiles[comp.tile_ids[e.tile]].module == "medina")
    built = sum(1 for t in state.players[seat].city.values() if comp.tiles[t].module == "medina")
    return bought, built, _round_points("medina", events, seat)


def _invaders(state: GameState, events: Sequence[Event], seat: int) -> tuple[float, ...]:
    from alhambra.modules.invaders import InvasionRevealed, InvasionScouted, exposure

    scouts = sum(1 for e in events if isinstance(e, InvasionScouted) and e.seat == seat)
    lost = sum(e.lost[seat] for e in events if isinstance(e, InvasionRevealed))
    return scouts, lost, sum(exposure(state.players[seat].city, state.components.tile_walls).values())


def _falconers(state: GameState, events: Sequence[Event], seat: int) -> tuple[float, ...]:
    from alhambra.modules.falconers import FalconBought, FalconReturned, falcons

    bought = sum(1 for e in events if isinstance(e, FalconBought) and e.seat == seat)
    returned = sum(1 for e in events if isinstance(e, FalconReturned) and e.seat == seat)
    return bought, returned, len(falcons(state).placed[seat]), _round_points("falconers", events, seat)


def _squares(state: GameState, events: Sequence[Event], seat: int) -> tuple[float, ...]:
    from alhambra.modules.squares import SquareTaken, bonuses

    taken = sum(1 for e in events if isinstance(e, SquareTaken) and e.seat == seat)
    colour = {c for c in state.components.tile_code if c.startswith("Q")}
    built = sum(1 for t in state.players[seat].city.values() if state.components.tile_code[t] in colour)
    return taken, built, sum(bonuses(state, seat).values())


def _moors(state: GameState, events: Sequence[Event], seat: int) -> tuple[float, ...]:
    from alhambra.modules.art_of_the_moors import CultureCounterTaken, CultureDeveloped

    taken = sum(1 for e in events if isinstance(e, CultureCounterTaken) and e.seat == seat)
    developed = sum(1 for e in events if isinstance(e, CultureDeveloped) and e.seat == seat)
    return taken, developed, _round_points("art_of_the_moors", events, seat)


def _camps(state: GameState, events: Sequence[Event], seat: int) -> tuple[float, ...]:
    from alhambra.modules.camps import CampPlaced, camps_state

    bought = sum(1 for e in events if isinstance(e, BuildingBought) and e.seat == seat and e.tile.startswith("L"))
    placed = sum(1 for e in events if isinstance(e, CampPlaced) and e.seat == seat)
    return bought, placed, len(camps_state(state).placed[seat]), _round_points("camps", events, seat)


def _watchtowers(state: GameState, events: Sequence[Event], seat: int) -> tuple[float, ...]:
    from alhambra.modules.watchtowers import TowerBought, TowerReturned, tower_wall, towers

    bought = sum(1 for e in events if isinstance(e, TowerBought) and e.seat == seat)
    returned = sum(1 for e in events if isinstance(e, TowerReturned) and e.seat == seat)
    row = towers(state).placed[seat]
    in_wall = tower_wall(state.players[seat].city, state.walls, row)[1] if row else 0
    return bought, returned, len(row), in_wall


COUNTERS: dict[str, tuple[tuple[str, ...], Counter]] = {
    "watchtowers": (("watchtowers bought", "sent back", "standing at the end", "in the longest wall at the end"), _watchtowers),
    "camps": (("camps bought", "camps built", "standing at the end", "camp points"), _camps),
    "squares": (("squares taken", "built at the end", "extra buildings at the end"), _squares),
    "art_of_the_moors": (("counters taken", "developments", "culture points"), _moors),
    "medina": (("medinas bought", "built at the end", "medina points"), _medina),
    "invaders": (("scouts taken", "invasion points lost", "unprotected sides at the end"), _invaders),
    "falconers": (("falcons bought", "returned", "standing at the end", "falcon points"), _falconers),
}
"""Per module: the column titles and the counter."""


def usage(path: Path, counter: Counter) -> list[tuple[str, int, list[float]]]:
    """Per bot of a tournament file: (label, games, the counter's figures per game)."""
    data = json.loads(path.read_text())
    labels: list[str] = data["labels"]
    totals: list[list[float]] = [[] for _ in labels]
    games = 0
    for game in data["game_results"]:
        state, events = replay(GameRecord.from_json(game["record"]))
        games += 1
        for entry, seat in enumerate(game["seats"]):
            got = counter(state, events, seat)
            totals[entry] = [a + b for a, b in zip(totals[entry] or [0.0] * len(got), got, strict=True)]
    g = max(games, 1)
    return [(label, games, [v / g for v in totals[i]]) for i, label in enumerate(labels)]


def main(argv: list[str]) -> int:
    """Print the table for the module and files of ``argv``."""
    if not argv or argv[0] not in COUNTERS:
        print(f"usage: module_use.py {{{'|'.join(COUNTERS)}}} [FILES...]", file=sys.stderr)
        return 2
    module, files = argv[0], [Path(a) for a in argv[1:]]
    files = files or sorted((ROOT / "benchmarks" / "tournaments" / "modules").glob(f"{module}_*.json"))
    titles, counter = COUNTERS[module]
    print("| tournament | bot | games | " + " | ".join(f"{t} / game" for t in titles) + " |")
    print("|---" * (3 + len(titles)) + "|")
    for path in files:
        bots = " vs ".join(json.loads(path.read_text())["labels"])
        for label, games, figures in usage(path, counter):
            print(f"| {bots} | {label} | {games} | " + " | ".join(f"{v:.2f}" for v in figures) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
