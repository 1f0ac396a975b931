"""actions.action_data: every legal action as structured data (notation, keyword, arguments) read
with the declared grammar, what the server sends the browser instead of notation to re-parse."""

from __future__ import annotations

import random
from typing import Any

from alhambra.actions import action_data, grammars_of, parse_action
from alhambra.engine import apply_unchecked, legal_actions, new_game
from alhambra.state import GameConfig


def _write(data: dict[str, Any]) -> str:
    """The notation written back from the structured form (as a browser could)."""
    words = [data["keyword"]]
    for arg in data["args"]:
        v = arg["value"]
        if arg["type"] == "cards":
            words.append("+".join(v))
        elif isinstance(v, dict):
            words.append(f"{v['x']},{v['y']}")
        else:
            words.append(str(v))
    return " ".join(words)


def test_every_legal_action_of_short_games_has_its_structured_form() -> None:
    config = GameConfig(players=3, modules=("bazaars", "treasure_chamber", "vizier"), turn_limit=12)
    rng = random.Random(3)
    state, _ = new_game(config, 8)
    kinds: set[str] = set()
    while state.to_act is not None:
        acts = legal_actions(state)
        for a in acts:
            data = action_data(a)
            assert data["notation"] == str(a) and _write(data) == str(a)
            assert tuple(arg["type"] for arg in data["args"]) in grammars_of(data["keyword"])
            assert parse_action(data["notation"]) == a
            kinds.add(data["keyword"])
        apply_unchecked(state, rng.choice(acts))
    assert {"take", "buy", "place", "vizier buy"} <= kinds


def test_values_follow_their_types() -> None:
    import alhambra.modules.vizier  # noqa: F401  (registers its keywords)

    assert action_data(parse_action("place G8 1,-2"))["args"][1] == {"type": "target", "value": {"x": 1, "y": -2}}
    assert action_data(parse_action("place G8 reserve"))["args"][1] == {"type": "target", "value": "reserve"}
    assert action_data(parse_action("vizier buy 2 b4")) == {
        "notation": "vizier buy 2 b4",
        "keyword": "vizier buy",
        "args": [{"type": "square", "value": 2}, {"type": "cards", "value": ["b4"]}],
    }
    assert action_data(parse_action("end")) == {"notation": "end", "keyword": "end", "args": []}
