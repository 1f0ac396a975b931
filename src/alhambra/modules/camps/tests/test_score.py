"""``alhambra score`` with camps in a layout (issue 25): the camps lie outside the city walls, are
checked by their own building rules, fill their places in the hole test, and their lines are read
from the tiles; a table with tiles scores what the engine scores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from alhambra.cli import app
from alhambra.companion import parse_table, score_table
from alhambra.companion.export import export_table
from alhambra.layout import LayoutError, score_layout

from .helpers import EXAMPLE_CAMPS, EXAMPLE_CITY, example

FOUNTAIN = {"x": 0, "y": 0, "kind": "fountain"}


def example_tiles() -> list[dict[str, Any]]:
    """The rulebook's camps example (p. 15) as layout tiles: buildings by kind and price, camps by
    kind, price and bastions (``walls``) or by code."""
    state = example()
    comp = state.components
    out: list[dict[str, Any]] = [FOUNTAIN]
    for (x, y), code in EXAMPLE_CITY.items():
        t = comp.tiles[comp.tile_ids[code]]
        out.append({"x": x, "y": y, "kind": t.kind, "price": t.price, "walls": t.wall_letters})
    for (x, y), code in EXAMPLE_CAMPS.items():
        t = comp.tiles[comp.tile_ids[code]]
        out.append({"x": x, "y": y, "kind": "camp", "price": t.price, "walls": t.wall_letters} if x < 0 else {"x": x, "y": y, "tile": code})
    return out


def test_the_rulebook_example_as_a_layout_scores_ten(tmp_path: Path) -> None:
    path = tmp_path / "camps.json"
    path.write_text(json.dumps({"modules": ["camps"], "tiles": example_tiles()}))
    r = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["valid"] and doc["modules"] == {"camps": {"lines": 10}}
    assert sum(doc["buildings"].values()) == 5  # camps are no building kind
    text = CliRunner().invoke(app, ["score", str(path), "--ascii"])
    assert text.exit_code == 0 and "camps: lines 10" in text.stdout and "L6w" in text.stdout
    # without the module named, a camp is no tile of the base game
    with pytest.raises(LayoutError, match="name its module"):
        score_layout({"tiles": example_tiles()})
    plain = [t for t in example_tiles() if "tile" not in t]
    # the camp given by kind is then an unknown tile inside the city (and nobody reaches it on foot)
    assert [v.rule for v in score_layout({"tiles": plain}).violations] == ["unknown_tile", "on_foot"]


def test_a_camp_that_breaks_its_rules_is_reported() -> None:
    tiles = example_tiles()
    moved = next(t for t in tiles if t.get("tile") == "L6w")
    moved["x"], moved["y"] = 2, 2  # its green north side against P8 (picture: "not allowed")
    report = score_layout({"modules": ["camps"], "tiles": tiles})
    assert [(v.rule, v.x, v.y) for v in report.violations] == [("camps_green_side", 2, 2)]
    moved["x"], moved["y"] = 6, 1  # alone, east of nothing
    report = score_layout({"modules": ["camps"], "tiles": tiles})
    assert [(v.rule, v.x, v.y) for v in report.violations] == [("camps_joined", 6, 1)]


def test_a_ring_of_buildings_around_camps_is_no_hole_in_a_layout() -> None:
    from .test_camps import BLOCK, RING

    state = example()
    comp = state.components
    tiles: list[dict[str, Any]] = [FOUNTAIN]
    for (x, y), code in {**RING, (2, 3): "T11n"}.items():
        t = comp.tiles[comp.tile_ids[code]]
        tiles.append({"x": x, "y": y, "kind": t.kind, "price": t.price, "walls": t.wall_letters})
    camps = [{"x": x, "y": y, "tile": code} for (x, y), code in BLOCK.items()]
    report = score_layout({"modules": ["camps"], "tiles": tiles + camps})
    assert report.valid, report.violations
    assert report.modules["camps"]["lines"] == 2 * 4  # each of the 8 bastions faces one building
    holed = score_layout({"modules": ["camps"], "tiles": tiles + camps[:3]})
    assert [v.rule for v in holed.violations] == ["no_holes"]


def test_a_table_with_camps_in_its_layouts_scores_as_the_engine() -> None:
    """The exported table gives the Alhambras as tiles, camps included; without the players' line
    counts the companion reads them from the tiles and scores the engine's 10 points."""
    state = example()
    seat = 0
    doc = json.loads(json.dumps(export_table(state, 1, tiles=True)))
    player = doc["players"][seat]
    assert any(t.get("tile") == "L6w" for t in player["tiles"])
    player.pop("modules", None)
    result = score_table(parse_table(doc))
    assert result.valid, result.problems
    assert result.seats[seat].modules["camps"].points == 10
