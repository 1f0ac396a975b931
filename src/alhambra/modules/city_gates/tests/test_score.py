"""``alhambra score`` with city gates in a layout: a ``gate`` over a printed double wall takes the
wall off both tiles (as the engine does), so a tile that only a gate joins stands legally."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from alhambra.cli import app
from alhambra.layout import LayoutError, parse_layout, score_layout

FOUNTAIN = {"x": 0, "y": 0, "kind": "fountain"}
ARCADES = {"x": 1, "y": 0, "kind": "arcades", "price": 8, "walls": "E"}


def layout(seraglio: dict[str, Any], modules: tuple[str, ...] = ("city_gates",)) -> dict[str, Any]:
    """Fountain, an arcades with a wall east, and a seraglio with a wall west beyond it: the
    seraglio joins the Alhambra only by that double wall."""
    beyond = {"x": 2, "y": 0, "kind": "seraglio", "price": 7, "walls": "W", **seraglio}
    return {"modules": list(modules), "tiles": [FOUNTAIN, ARCADES, beyond]}


def test_a_tile_behind_a_double_wall_stands_only_with_a_gate() -> None:
    without = score_layout(layout({}))
    assert [v.rule for v in without.violations] == ["on_foot"]
    gated = score_layout(layout({"gate": "W"}))
    assert gated.valid and gated.buildings["seraglio"] == 1
    tiles = parse_layout(layout({"gate": "w"}))
    assert (tiles[1].walls, tiles[1].gates, tiles[2].walls, tiles[2].gates) == (0, 2, 0, 8)  # both walls taken off
    assert "gate W" in tiles[2].describe()


@pytest.mark.parametrize(
    ("seraglio", "modules", "message"),
    [
        ({"gate": "W"}, (), "comes with the city gates module"),
        ({"gate": "N"}, ("city_gates",), "side N has none"),
        ({"gate": 1}, ("city_gates",), "must be a string"),
    ],
)
def test_a_gate_that_cannot_be_is_refused(seraglio: dict[str, Any], modules: tuple[str, ...], message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        score_layout(layout(seraglio, modules))


def test_a_gate_needs_a_printed_wall_facing_it() -> None:
    doc = {"modules": ["city_gates"], "tiles": [FOUNTAIN, {"x": 1, "y": 0, "kind": "pavilion", "price": 8, "gate": "W"}]}
    with pytest.raises(LayoutError, match="side W has none"):
        score_layout(doc)
    doc = {"modules": ["city_gates"], "tiles": [FOUNTAIN, {"x": 1, "y": 0, "kind": "seraglio", "price": 7, "walls": "W", "gate": "W"}]}
    with pytest.raises(LayoutError, match="needs a printed wall on the tile at 0,0"):
        score_layout(doc)


def test_the_score_command_reads_gates(tmp_path: Path) -> None:
    path = tmp_path / "gates.json"
    path.write_text(json.dumps(layout({"gate": "W"})))
    result = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["valid"] is True
