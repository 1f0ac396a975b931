"""Golden playthroughs: a dozen seeded games recorded once (tests/golden/*.json: the record,
configuration + seed + actions, and what the game came to) replay to the same end, on the
checked path and on the fast path. A failure means the engine now plays a recorded game
differently: if that change is deliberate (a rule fixed, the state's JSON changed), re-record
with ``.venv/bin/python scripts/record_golden.py NAME`` and say why in the commit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from alhambra.engine import apply_unchecked, new_game
from alhambra.events import GameEnded
from alhambra.record import GameRecord, replay
from alhambra.testing import golden_outcome

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))
RERECORD = "deliberate? re-record: .venv/bin/python scripts/record_golden.py {name}"


def load(path: Path) -> tuple[dict[str, Any], GameRecord]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data, GameRecord.from_json(data["record"])


def test_the_golden_games_cover_the_family() -> None:
    configs = [load(p)[1].config for p in FILES]
    assert len(configs) >= 12
    assert {c.players for c in configs if not c.modules and c.game == "alhambra"} == {2, 3, 4, 5, 6}
    assert any(c.game == "granada" for c in configs)
    assert any(c.game == "granada" and c.players == 2 for c in configs)
    mixes = [c for c in configs if len(c.modules) >= 3]
    assert len(mixes) >= 4 and any(c.players == 2 for c in mixes)
    assert len({m for c in mixes for m in c.modules}) >= 15


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_golden_game_replays_to_its_recorded_end(path: Path) -> None:
    data, record = load(path)
    expect = data["expect"]
    assert expect["outcome"] == "finished"
    state, events = replay(record)
    assert golden_outcome(state) == expect, RERECORD.format(name=path.stem)
    assert isinstance(events[-1], GameEnded) and list(events[-1].scores) == expect["scores"]
    fast, _ = new_game(record.config, record.seed)
    for action in record.actions:
        apply_unchecked(fast, action, events=False)
    assert golden_outcome(fast) == expect, "the fast path ends elsewhere than apply: " + RERECORD.format(name=path.stem)
