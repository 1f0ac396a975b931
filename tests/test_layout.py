"""`alhambra score` and `alhambra.layout`: checking and scoring a physical Alhambra.

The "not allowed" layouts follow the five pictures under "Rules for building your Alhambra" in
the base rulebook (the wrong-way-round case cannot happen: tiles are never rotated).
Coordinates: x grows east, y grows south.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from alhambra.cli import app
from alhambra.components import BASE_TILES
from alhambra.layout import (
    LayoutError,
    check_layout,
    drawing_text,
    load_layout,
    parse_layout,
    score_layout,
    tile_choices,
)

runner = CliRunner()


def fountain(x: int = 0, y: int = 0) -> dict[str, Any]:
    return {"x": x, "y": y, "kind": "fountain"}


def tile(x: int, y: int, kind: str, price: int, walls: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"x": x, "y": y, "kind": kind, "price": price}
    if walls is not None:
        out["walls"] = walls
    return out


# A legal Alhambra: a walled north front of four tiles that turns south at the east end.
#
#      -1    0    1    2
# -1  G10n P6n  A8n  T9ne
#  0        F    T11
LEGAL = [
    fountain(),
    tile(-1, -1, "garden", 10, "N"),
    tile(0, -1, "pavilion", 6, "n"),
    tile(1, -1, "arcades", 8, "N"),
    tile(2, -1, "tower", 9, "EN"),  # any order
    tile(1, 0, "tower", 11, ""),  # explicitly no walls
]
LEGAL_COUNTS = {"pavilion": 1, "seraglio": 0, "arcades": 1, "chambers": 0, "garden": 1, "tower": 2}


def score_json(tmp_path: Path, tiles: Any, name: str = "layout.json") -> tuple[int, dict[str, Any]]:
    path = tmp_path / name
    path.write_text(json.dumps({"tiles": tiles}))
    result = runner.invoke(app, ["score", str(path), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.stdout)


def rules_at(report: dict[str, Any]) -> list[tuple[str, int | None, int | None]]:
    return [(v["rule"], v["x"], v["y"]) for v in report["violations"]]


# ---------------------------------------------------------------------------------- legal
def test_legal_alhambra_exit_0_counts_and_longest_wall(tmp_path: Path) -> None:
    code, report = score_json(tmp_path, LEGAL)
    assert code == 0
    assert report == {"valid": True, "violations": [], "buildings": LEGAL_COUNTS, "longest_wall": 5}


def test_json_output_has_exactly_the_contract_keys(tmp_path: Path) -> None:
    code, report = score_json(tmp_path, [*LEGAL, tile(5, 5, "garden", 8, "E")])
    assert code == 1
    assert set(report) == {"valid", "violations", "buildings", "longest_wall"}
    assert set(report["buildings"]) == {"pavilion", "seraglio", "arcades", "chambers", "garden", "tower"}
    for v in report["violations"]:
        assert set(v) == {"rule", "x", "y", "message"}
        assert isinstance(v["message"], str) and v["message"]


def test_fountain_may_sit_anywhere(tmp_path: Path) -> None:
    shifted = [dict(t, x=t["x"] + 7, y=t["y"] - 3) for t in LEGAL]
    code, report = score_json(tmp_path, shifted)
    assert code == 0
    assert report["buildings"] == LEGAL_COUNTS
    assert report["longest_wall"] == 5


def test_closed_ring_of_walls_counts_every_segment() -> None:
    # one tile walled on three sides next to the fountain: N, E, S of T8nes plus nothing else
    report = score_layout({"tiles": [fountain(), tile(1, 0, "tower", 8, "NES")]})
    assert report.valid
    assert report.longest_wall == 3
    assert report.buildings["tower"] == 1


def test_fountain_is_not_a_building() -> None:
    report = score_layout({"tiles": [fountain()]})
    assert report.valid
    assert sum(report.buildings.values()) == 0
    assert report.longest_wall == 0


def test_walls_may_be_left_out_for_a_unique_tile(tmp_path: Path) -> None:
    # pavilion 8 (no walls) and tower 13 (wall E) are the only tiles of their kind and price
    code, report = score_json(tmp_path, [fountain(), tile(1, 0, "pavilion", 8), tile(0, -1, "tower", 13)])
    assert code == 0
    assert report["buildings"]["pavilion"] == 1
    assert report["buildings"]["tower"] == 1
    assert report["longest_wall"] == 1  # T13's east wall
    parsed = parse_layout({"tiles": [tile(0, -1, "tower", 13)]})
    assert parsed[0].walls == 2  # EAST


def test_wall_letters_in_any_case_and_order_mean_the_same() -> None:
    a = parse_layout({"tiles": [tile(0, 1, "garden", 8, "NW")]})
    b = parse_layout({"tiles": [tile(0, 1, "garden", 8, "wn")]})
    assert a[0].walls == b[0].walls
    assert a[0].known


def test_every_base_tile_is_known() -> None:
    tiles = parse_layout({"tiles": [tile(i, 0, t.kind, t.price, t.wall_letters.upper()) for i, t in enumerate(BASE_TILES)]})
    assert all(t.known for t in tiles)
    assert tile_choices("garden", 8) == ["SW", "NE", "NW"]
    assert tile_choices("pavilion", 8) == [""]


# ---------------------------------------------------------------------------------- not allowed
def test_wall_side_joined_to_open_side(tmp_path: Path) -> None:
    # pavilion 3 has walls S and W: its west wall meets the fountain's open east side, so the
    # walls do not match and the pavilion cannot be entered without crossing that wall
    code, report = score_json(tmp_path, [fountain(), tile(1, 0, "pavilion", 3, "SW")])
    assert code == 1
    assert report["valid"] is False
    assert rules_at(report) == [("walls_match", 1, 0), ("on_foot", 1, 0)]


def test_tile_not_reachable_on_foot(tmp_path: Path) -> None:
    # pavilion 7 (wall E) then tower 10 (wall W): the walls match, but the tower lies behind them
    code, report = score_json(tmp_path, [fountain(), tile(1, 0, "pavilion", 7, "E"), tile(2, 0, "tower", 10, "W")])
    assert code == 1
    assert rules_at(report) == [("on_foot", 2, 0)]


def test_tile_joined_only_at_a_corner(tmp_path: Path) -> None:
    code, report = score_json(tmp_path, [fountain(), tile(1, 1, "pavilion", 8)])
    assert code == 1
    assert rules_at(report) == [("adjacent", 1, 1)]


def test_placement_enclosing_an_empty_space(tmp_path: Path) -> None:
    # eight tiles without walls around (1, 1); the arcades closes the ring
    ring = [
        fountain(0, 0),
        tile(1, 0, "pavilion", 8),
        tile(2, 0, "seraglio", 9),
        tile(2, 1, "chambers", 10),
        tile(2, 2, "chambers", 11),
        tile(1, 2, "garden", 10, ""),
        tile(0, 2, "garden", 11),
        tile(0, 1, "arcades", 9),
    ]
    code, report = score_json(tmp_path, ring)
    assert code == 1
    assert rules_at(report) == [("no_holes", 1, 1)]
    code, report = score_json(tmp_path, ring[:-1], "open.json")
    assert code == 0, report


# ---------------------------------------------------------------------------------- tiles that cannot be
def test_unknown_tile(tmp_path: Path) -> None:
    # garden 8 exists with walls SW, NE and NW, but not with a single east wall
    code, report = score_json(tmp_path, [fountain(), tile(0, 1, "garden", 8, "E"), tile(0, -1, "castle", 4, "")])
    assert code == 1
    assert ("unknown_tile", 0, 1) in rules_at(report)
    assert ("unknown_tile", 0, -1) in rules_at(report)


def test_price_that_no_tile_has_is_unknown(tmp_path: Path) -> None:
    code, report = score_json(tmp_path, [fountain(), tile(1, 0, "pavilion", 20)])
    assert code == 1
    assert rules_at(report) == [("unknown_tile", 1, 0)]


def test_duplicate_tile(tmp_path: Path) -> None:
    code, report = score_json(tmp_path, [fountain(), tile(1, 0, "pavilion", 8), tile(-1, 0, "pavilion", 8, "")])
    assert code == 1
    assert rules_at(report) == [("duplicate_tile", -1, 0)]
    assert "1,0" in report["violations"][0]["message"]


def test_same_kind_and_price_with_other_walls_is_not_a_duplicate(tmp_path: Path) -> None:
    # garden 8 NE and garden 8 NW are two different physical tiles
    layout = [fountain(), tile(0, -1, "pavilion", 8), tile(-1, -1, "garden", 8, "NW"), tile(1, -1, "garden", 8, "NE")]
    code, report = score_json(tmp_path, layout)
    assert code == 0, report
    assert report["buildings"]["garden"] == 2
    assert report["longest_wall"] == 2  # W+N of G8nw, N+E of G8ne: P8 between them has no wall


def test_two_tiles_on_one_spot(tmp_path: Path) -> None:
    code, report = score_json(tmp_path, [fountain(), tile(1, 0, "pavilion", 8), tile(1, 0, "seraglio", 9)])
    assert code == 1
    assert rules_at(report) == [("occupied", 1, 0)]
    assert report["buildings"]["pavilion"] == 1
    assert report["buildings"]["seraglio"] == 0  # the tile underneath counts, the one on top does not


def test_exactly_one_fountain(tmp_path: Path) -> None:
    code, report = score_json(tmp_path, [tile(0, 0, "pavilion", 8)])
    assert code == 1
    assert rules_at(report) == [("one_fountain", None, None)]
    code, report = score_json(tmp_path, [fountain(), tile(1, 0, "pavilion", 8), fountain(2, 0)], "two.json")
    assert code == 1
    assert rules_at(report) == [("one_fountain", 2, 0)]


def test_fountain_with_walls_is_unknown() -> None:
    report = score_layout({"tiles": [{"x": 0, "y": 0, "kind": "fountain", "walls": "N"}]})
    assert [(v.rule, v.x, v.y) for v in report.violations] == [("unknown_tile", 0, 0)]


# ---------------------------------------------------------------------------------- unreadable input
def run_score(path: Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["score", str(path), "--json"])
    assert isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


def test_ambiguous_walls_left_out_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "amb.json"
    path.write_text(json.dumps({"tiles": [fountain(), tile(1, 0, "garden", 8)]}))
    code, out, err = run_score(path)
    assert code == 2
    assert out == ""
    assert "garden" in err and "SW, NE, NW" in err
    assert err.count("\n") == 1  # one line
    with pytest.raises(LayoutError, match="walls"):
        load_layout(path)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"tiles": {}}', "'tiles' list"),
        ('{"tiles": [{"x": "1", "y": 0, "kind": "fountain"}]}', "'x' must be an integer"),
        ('{"tiles": [{"x": 1.5, "y": 0, "kind": "fountain"}]}', "'x' must be an integer"),
        ('{"tiles": [{"x": 0, "kind": "fountain"}]}', "missing 'y'"),
        ('{"tiles": [{"x": 0, "y": 0, "kind": 3}]}', "'kind' must be a string"),
        ('{"tiles": [{"x": 0, "y": 0, "kind": "garden", "price": "8", "walls": "N"}]}', "'price' must be an integer"),
        ('{"tiles": [{"x": 0, "y": 0, "kind": "garden", "walls": "N"}]}', "needs a 'price'"),
        ('{"tiles": [{"x": 0, "y": 0, "kind": "garden", "price": 8, "walls": ["N"]}]}', "'walls' must be a string"),
        ('{"tiles": [{"x": 0, "y": 0, "kind": "garden", "price": 8, "walls": "NQ"}]}', "unknown wall side"),
        ('{"tiles": [{"x": 0, "y": 0, "kind": "garden", "price": 8, "wall": "N"}]}', "unknown field(s) wall"),
        ('{"tiles": [{"x": 0, "y": 9999, "kind": "fountain"}]}', "y = 9999 is off any real table"),
        ('{"tiles": [7]}', "expected an object"),
    ],
)
def test_unreadable_layouts_exit_2_with_one_line(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = run_score(path)
    assert code == 2
    assert out == ""
    assert needle in err
    assert err.startswith("alhambra: error: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_missing_file_exit_2(tmp_path: Path) -> None:
    code, out, err = run_score(tmp_path / "nope.json")
    assert out == ""
    assert code == 2
    assert "no such file" in err


# ---------------------------------------------------------------------------------- human report
def test_human_report_draws_the_alhambra(tmp_path: Path) -> None:
    path = tmp_path / "legal.json"
    path.write_text(json.dumps({"tiles": LEGAL}))
    result = runner.invoke(app, ["score", str(path)])
    assert result.exit_code == 0
    out = result.stdout
    assert "F" in out and "G10" in out and "T9" in out and "A8" in out
    assert "┍━━━━━┑" in out  # a tile walled on the north only
    assert "━━━━━┓" in out and "┃" in out  # T9ne: north and east walls
    assert "Longest outer wall: 5" in out
    assert "follows every building rule" in out


def test_human_report_lists_violations(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"tiles": [fountain(), tile(1, 1, "pavilion", 8)]}))
    result = runner.invoke(app, ["score", str(path), "--ascii"])
    assert result.exit_code == 1
    assert "adjacent at 1,1" in result.stdout
    assert "┃" not in result.stdout and "+-----+" in result.stdout


def test_drawing_marks_walls_and_holes() -> None:
    report = check_layout(parse_layout({"tiles": [fountain(), tile(1, 0, "tower", 8, "NES")]}))
    text = drawing_text(report)
    lines = text.splitlines()
    assert lines[0].split() == ["0", "1"]  # x header
    assert lines[1].endswith("┌─────┐┍━━━━━┓")
    assert lines[2].split() == ["0", "│", "F", "││", "T8", "┃"]
    assert lines[3].endswith("└─────┘┕━━━━━┛")
    assert drawing_text(report, "ascii").splitlines()[1].endswith("+-----++=====+")


def test_score_via_python_dash_m(tmp_path: Path) -> None:
    path = tmp_path / "legal.json"
    path.write_text(json.dumps({"tiles": LEGAL}))
    proc = subprocess.run([sys.executable, "-m", "alhambra", "score", str(path), "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["longest_wall"] == 5
    bad = tmp_path / "broken.json"
    bad.write_text("{")
    proc = subprocess.run([sys.executable, "-m", "alhambra", "score", str(bad)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "not valid JSON" in proc.stderr and "Traceback" not in proc.stderr


def test_score_reads_standard_input() -> None:
    result = runner.invoke(app, ["score", "-", "--json"], input=json.dumps({"tiles": LEGAL}))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["buildings"] == LEGAL_COUNTS


def test_example_layout_in_the_readme_is_legal() -> None:
    path = Path(__file__).resolve().parents[1] / "examples" / "layout.json"
    result = runner.invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"valid": True, "violations": [], "buildings": {**LEGAL_COUNTS}, "longest_wall": 5}
