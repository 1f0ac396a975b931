"""``alhambra score``: bad input gets one clear line and exit code 2, never a traceback; layouts
that cannot be a real table are refused (issue 28); Granada speaks its own words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import invoke


def run(tmp_path: Path, text: str) -> tuple[int, str, str]:
    path = tmp_path / "in.json"
    path.write_text(text)
    r = invoke("score", str(path))
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize("wrap", ['{"tiles": %s}', '{"round": 1, "players": %s}', "%s"])
def test_deeply_nested_json_is_refused_without_a_recursion_error(tmp_path: Path, wrap: str) -> None:
    code, out, err = run(tmp_path, wrap % ("[" * 100_000 + "]" * 100_000))
    assert code == 2 and out == ""
    assert "nested more than 20 levels" in err and "RecursionError" not in err and len(err.splitlines()) == 1


def test_deep_nesting_from_standard_input_too(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from alhambra.cli import app

    r = CliRunner().invoke(app, ["score", "-"], input="{" * 5000)
    assert r.exit_code == 2 and "nested more than" in r.stderr


def test_a_96000_tile_layout_is_refused_at_once(tmp_path: Path) -> None:
    tiles = [{"x": i % 300, "y": i // 300, "kind": "garden", "price": 10} for i in range(96_000)]
    code, out, err = run(tmp_path, json.dumps({"tiles": tiles}))
    assert code == 2 and out == ""
    assert "96000 tiles, but a real Alhambra table has at most 55" in err


def test_a_layout_of_the_whole_game_is_still_read(tmp_path: Path) -> None:
    tiles = [{"x": i, "y": 0, "kind": "garden", "price": 10, "walls": "N"} for i in range(55)]
    code, _, err = run(tmp_path, json.dumps({"tiles": tiles}))
    assert code == 1, err  # read and checked: impossible tiles, but no input error


def test_a_distant_tile_says_it_is_off_the_table(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, json.dumps({"tiles": [{"x": 1000, "y": 0, "kind": "fountain"}]}))
    assert code == 2
    assert "tile 1: x = 1000 is off any real table (x and y lie from -500 to 500" in err
    assert "'x'" not in err and "too far from the fountain" not in err


def test_granada_layout_speaks_of_city_moats_and_starting_tile(tmp_path: Path) -> None:
    layout = {"tiles": [{"x": 0, "y": 0, "kind": "fountain"}, {"x": 2, "y": 0, "kind": "school", "price": 2}]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(layout))
    r = invoke("score", "--game", "granada", str(path))
    assert r.exit_code == 1
    assert "This city is not legal" in r.stdout and "joined to the city" in r.stdout and "F starting tile," in r.stdout
    assert "fountain" not in r.stdout
    assert "Alhambra" not in r.stdout and " wall" not in r.stdout
    ok = {"tiles": [{"x": 0, "y": 0, "kind": "fountain"}]}
    path.write_text(json.dumps(ok))
    r = invoke("score", "--game", "granada", str(path))
    assert r.exit_code == 0 and "This city follows every building rule" in r.stdout and "Alhambra" not in r.stdout


BASE = {"round": 1, "players": [{"buildings": {}}, {"buildings": {}}, {"buildings": {}}]}


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"round": 4}, "'round' (the scoring round) = 4 is not possible"),
        ({"players": [{"buildings": {}}]}, "2 to 6 players"),
        ({"modules": ["falconers", "falconers"]}, "module 'falconers' is listed twice"),
        ({"modules": ["nope"]}, "unknown module 'nope'"),
        ({"players": [{"buildings": {"tower": 12}}, {}, {}]}, "buildings of tower = 12 is not possible (it lies from 0 to 11)"),
        ({"players": [{"buildings": {"castle": 1}}, {}, {}]}, "'castle' is no building kind of Alhambra"),
        ({"players": [{"wall": 500}, {}, {}]}, "'wall' = 500 is not possible"),
        ({"players": [{"name": "A"}, {"name": "A"}, {}]}, "two players are called 'A'"),
        ({"players": [{"tiles": [], "wall": 3}, {}, {}]}, "either 'tiles' or 'buildings'"),
        ({"players": [{"modules": {"falconers": {"white": 1}}}, {}, {}]}, "not in play"),
        ({"modules": ["falconers"], "players": [{"modules": {"falconers": {"white": 9}}}, {}, {}]}, "falconers.white = 9 is not possible"),
        ({"modules": ["falconers"], "players": [{"modules": {"falconers": {"grey": 1}}}, {}, {}]}, "unknown input(s) grey"),
        ({"neutral": {"buildings": {}}}, "only a 2-player game has the neutral player"),
        ({"game": "chess"}, "chess"),
        ({"players": None}, "'players' must be a list"),
    ],
)
def test_unreadable_tables_exit_2_with_one_line(tmp_path: Path, change: dict[str, object], needle: str) -> None:
    doc = {**BASE, **change}
    code, out, err = run(tmp_path, json.dumps(doc))
    assert code == 2 and out == "", (out, err)
    assert needle in err and len(err.splitlines()) == 1, err


def test_a_broken_alhambra_is_scored_and_reported_with_exit_1(tmp_path: Path) -> None:
    bad = [{"x": 0, "y": 0, "kind": "fountain"}, {"x": 2, "y": 0, "kind": "pavilion", "price": 8}]
    twice = [{"x": 0, "y": 0, "kind": "fountain"}, {"x": 1, "y": 0, "kind": "pavilion", "price": 8}]
    doc = {"round": 1, "players": [{"name": "A", "tiles": bad}, {"name": "B", "tiles": twice}, {"name": "C", "buildings": {"tower": 1}}]}
    code, out, err = run(tmp_path, json.dumps(doc))
    assert code == 1, err
    assert "A: adjacent at 2,0" in out and "scored anyway" in out
    assert "B: pavilion 8 (no walls) at 1,0 is in A's Alhambra too" in out
    assert "Given by counts, not checked: C." in out


def test_the_readme_example_table_scores() -> None:
    from pathlib import Path as P

    example = P(__file__).resolve().parents[1] / "examples" / "table.json"
    r = invoke("score", str(example))
    assert r.exit_code == 0, r.output
    assert "Tower: 2 buildings, 1st, tied with Nina: 9" in r.stdout and "medina: 0 medinas: -8" in r.stdout


def test_game_option_applies_to_a_table_without_game(tmp_path: Path) -> None:
    doc = {"round": 1, "players": [{"buildings": {"school": 2}, "dearest": {"school": 9}}, {}, {}]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc))
    r = invoke("score", "--game", "granada", "--json", str(path))
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["game"] == "granada" and json.loads(r.stdout)["seats"][0]["kinds"]["school"]["points"] == 2
    path.write_text(json.dumps({**doc, "game": "alhambra"}))
    r = invoke("score", "--game", "granada", str(path))
    assert r.exit_code == 2 and "--game says 'granada'" in r.stderr
    path.write_text(json.dumps({**doc, "round": 9}))
    r = invoke("score", "--game", "granada", str(path))
    assert r.exit_code == 2 and r.stderr.startswith(f"alhambra: error: {path}: 'round'")


def test_ascii_output_has_no_box_drawing_or_arrows() -> None:
    from pathlib import Path as P

    example = P(__file__).resolve().parents[1] / "examples" / "table.json"
    r = invoke("score", "--ascii", str(example))
    assert r.exit_code == 0, r.output
    assert "2 -> 9" in r.stdout and "OK: Every Alhambra given by tiles follows the building rules." in r.stdout
    assert all(ord(c) < 128 for c in r.stdout.replace("×", "x")), [c for c in r.stdout if ord(c) >= 128]


def test_a_table_file_that_cannot_be_read_gets_a_table_error_naming_it(tmp_path: Path) -> None:
    from alhambra.companion import TableError, load_table

    bad = tmp_path / "bad.json"
    bad.write_text("{")
    for path, words in ((tmp_path / "nope.json", "no such file"), (tmp_path, "is a directory, not a table file"), (bad, "not valid JSON")):
        with pytest.raises(TableError) as got:
            load_table(path)
        assert str(got.value).startswith(f"{path}: ") and words in str(got.value)
