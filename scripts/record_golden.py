"""Record the golden playthroughs of tests/golden/ (replayed by tests/test_golden.py).

Each golden game is a configuration and a seed, played by the seeded ``kind_random`` policy,
saved as its record (configuration + seed + actions) with what the game came to: the outcome,
the scores, the number of turns and a digest of the final state's JSON. Re-record after a
deliberate change of the rules or of the state's JSON (say why in the commit):

    .venv/bin/python scripts/record_golden.py            # every game
    .venv/bin/python scripts/record_golden.py base-4p    # only these
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from alhambra.engine import apply, new_game
from alhambra.policies import kind_random
from alhambra.record import GameRecord
from alhambra.state import GameConfig
from alhambra.testing import golden_outcome

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"

GAMES: dict[str, tuple[GameConfig, int]] = {
    "base-2p-neutral": (GameConfig(players=2), 11),
    "base-3p": (GameConfig(players=3), 12),
    "base-4p": (GameConfig(players=4), 13),
    "base-5p": (GameConfig(players=5), 14),
    "base-6p": (GameConfig(players=6), 15),
    "granada-3p": (GameConfig(players=3, game="granada"), 16),
    "granada-2p-neutral": (GameConfig(players=2, game="granada"), 17),
    "mix-vizier-exchange-thieves-4p": (GameConfig(players=4, modules=("currency_exchange", "thieves", "vizier")), 18),
    "mix-chamber-sites-change-3p": (GameConfig(players=3, modules=("building_sites", "change", "treasure_chamber")), 19),
    "mix-sultan-bazaars-builders-2p": (GameConfig(players=2, modules=("bazaars", "master_builders", "power_of_the_sultan")), 20),
    "mix-invaders-falconers-scorecards-medina-4p": (
        GameConfig(players=4, modules=("falconers", "invaders", "medina", "new_score_cards")),
        21,
    ),
    "mix-bonus-traders-caravanserai-diamonds-certificates-5p": (
        GameConfig(players=5, modules=("bonus_cards", "caravanserai", "diamonds", "exchange_certificates", "street_traders")),
        22,
    ),
}
"""Name -> (configuration, seed): base 2-6 players (2: with the neutral player), Granada, module mixes."""


def record(name: str) -> dict[str, object]:
    config, seed = GAMES[name]
    rng = random.Random(seed)
    state, _ = new_game(config, seed)
    rec = GameRecord(config, seed)
    while not state.is_over:
        action = kind_random(state, rng)
        state, _ = apply(state, action)
        rec.actions.append(action)
    return {"name": name, "record": rec.to_json(), "expect": golden_outcome(state)}


def main(names: list[str]) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name in names or list(GAMES):
        data = record(name)
        path = GOLDEN / f"{name}.json"
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(data['record']['actions'])} actions, {data['expect']}")  # type: ignore[index]


if __name__ == "__main__":
    main(sys.argv[1:])
