"""``alhambra score`` with watchtowers in a layout (issue 25): a watchtower is given by its code and
the walls it shows (the two sides facing its empty half), checked by the watchtowers' rules, and
the longest wall with the diagonals is read from the tiles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from alhambra.cli import app
from alhambra.layout import LayoutError, score_layout

BASE: list[dict[str, Any]] = [
    {"x": 0, "y": 0, "kind": "fountain"},
    {"x": 1, "y": 0, "kind": "pavilion", "price": 8},
    {"x": 2, "y": 0, "tile": "Wp1", "walls": "NE"},  # short edges west (on P8) and south, long edge north-west to south-east
]
"""The fountain, the pavilion 8 east of it, a pavilion watchtower east of that in its south-west half."""


def layout(*extra: dict[str, Any]) -> dict[str, Any]:
    return {"modules": ["watchtowers"], "tiles": [*BASE, *extra]}


def test_a_watchtower_in_a_layout_scores_its_diagonal_and_two_more(tmp_path: Path) -> None:
    path = tmp_path / "tower.json"
    path.write_text(json.dumps(layout()))
    r = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["valid"] and doc["modules"] == {"watchtowers": {"length": 1, "towers": 1}}
    # the core alone sees the two walls around the empty half
    assert doc["longest_wall"] == 2
    # a table with this Alhambra as tiles scores the wall with the watchtower: 1 + 2
    table = {"round": 1, "modules": ["watchtowers"], "players": [{"name": "A", "tiles": layout()["tiles"]}, {"name": "B"}, {"name": "C"}]}
    path.write_text(json.dumps(table))
    r = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["seats"][0]["wall"] == 3


def test_the_watchtowers_rules_in_a_layout() -> None:
    assert score_layout(layout()).valid
    # nothing on the places beyond the long edge (north and east of 2,0)
    beyond = score_layout(layout({"x": 2, "y": -1, "kind": "tower", "price": 12}))
    assert ("watchtowers_long_edge", 2, 0) in [(v.rule, v.x, v.y) for v in beyond.violations]
    # a short edge against a building of its colour: a garden watchtower next to the pavilion is not
    colour = score_layout(layout({"x": 1, "y": 1, "tile": "Wg1", "walls": "SE"}))
    assert [(v.rule, v.x, v.y) for v in colour.violations] == [("watchtowers_colour", 1, 1)]
    # it may lie four ways: the walls it shows must be given
    with pytest.raises(LayoutError, match="several ways"):
        score_layout({"modules": ["watchtowers"], "tiles": [*BASE[:2], {"x": 2, "y": 0, "tile": "Wp1"}]})
    # a watchtower shows two walls at a corner, never one
    assert [v.rule for v in score_layout(layout({"x": 1, "y": -1, "tile": "Wp2", "walls": "N"})).violations] == ["unknown_tile"]
