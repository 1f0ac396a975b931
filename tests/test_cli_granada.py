"""``--game granada`` on the command line: demo, games, score, bench, simulate, replay."""

from __future__ import annotations

import json
from pathlib import Path

from alhambra.rulesets import ruleset
from tests.cli_helpers import invoke


def test_demo_prints_the_assumptions_and_plays_granada(tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    r = invoke("demo", "--game", "granada", "--players", "3", "--seed", "4", "--record", str(rec))
    assert r.exit_code == 0, r.output
    assert "Granada demo" in r.stdout and "the marker now shows the odd side" in r.stdout
    flat = " ".join(r.stdout.split())
    for sentence in ruleset("granada").assumptions:
        assert " ".join(sentence.split())[:60] in flat
    assert "Winner" in r.stdout or "Shared win" in r.stdout
    data = json.loads(rec.read_text())
    assert data["config"]["game"] == "granada"
    again = invoke("replay", str(rec))
    assert again.exit_code == 0, again.output


def test_games_lists_both_games() -> None:
    r = invoke("games", "--json")
    assert r.exit_code == 0
    games = json.loads(r.stdout)
    assert [g["id"] for g in games] == ["alhambra", "granada"]
    assert games[0]["assumptions"] == [] and len(games[1]["kinds"]) == 9
    text = invoke("games")
    assert "Granada assumes" in text.stdout and "READING (marker)" in " ".join(text.stdout.split())


def test_score_a_granada_city(tmp_path: Path) -> None:
    layout = {
        "tiles": [
            {"x": 0, "y": 0, "kind": "fountain"},
            {"x": 1, "y": 0, "kind": "school", "price": 12},
            {"x": -1, "y": 0, "kind": "bath house", "price": 3, "walls": "NEW"},
        ]
    }
    f = tmp_path / "city.json"
    f.write_text(json.dumps(layout))
    r = invoke("score", "--game", "granada", "--json", str(f))
    out = json.loads(r.stdout)
    assert out["buildings"]["school"] == 1 and out["buildings"]["bathhouse"] == 1 and len(out["buildings"]) == 9
    # west of the fountain, the bath house 3 (moats N, E, W) would join it with a moat: illegal
    assert r.exit_code == 1 and out["violations"][0]["rule"] == "walls_match"
    layout["tiles"][2] = {"x": 0, "y": -1, "kind": "bath house", "price": 3, "walls": "NEW"}
    f.write_text(json.dumps(layout))
    r = invoke("score", "--game", "granada", "--json", str(f))
    assert r.exit_code == 0 and json.loads(r.stdout)["valid"] and json.loads(r.stdout)["longest_wall"] == 3
    # both faces of one physical tile (arena 2 / bath house 3) cannot be in one city
    layout["tiles"].append({"x": 0, "y": 1, "kind": "arena", "price": 2, "walls": "NEW"})
    f.write_text(json.dumps(layout))
    out = json.loads(invoke("score", "--game", "granada", "--json", str(f)).stdout)
    assert "duplicate_tile" in [v["rule"] for v in out["violations"]]
    assert invoke("score", "--game", "chess", str(f)).exit_code == 2


def test_bench_and_simulate_granada(tmp_path: Path) -> None:
    r = invoke("bench", "--game", "granada", "--players", "2", "--games", "2", "--json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["game"] == "granada" and data["paths_agree"]
    out = tmp_path / "t.json"
    two = ("--players", "2", "--bots", "greedy,random", "--games", "2", "--workers", "1", "-q")
    r = invoke("simulate", "--game", "granada", *two, "--json", str(out))
    assert r.exit_code == 0, r.output
    res = json.loads(out.read_text())
    assert res["game"] == "granada" and res["games_done"] == 2
    r = invoke("simulate", *two, "--json", str(out), "--resume")
    assert r.exit_code == 2 and "another tournament" in r.stderr
    r = invoke("simulate", "--game", "granada", "--players", "2", "--bots", "greedy,random", "--games", "2", "-m", "vizier", "-q")
    assert r.exit_code == 2 and "cannot be played with Granada" in r.stderr


def test_every_command_refuses_an_unknown_game_in_words() -> None:
    """``--game`` is one option of the commands that play or score: an unknown game is refused
    before anything runs, with the games there are."""
    for command in (["demo"], ["bench", "--games", "1"], ["simulate", "--games", "1"], ["score", "-"]):
        r = invoke(*command, "--game", "chess")
        assert r.exit_code == 2, (command, r.output)
        assert "unknown game 'chess' (the games are: alhambra, granada)" in r.stderr, (command, r.stderr)


def test_module_lists_read_alike_on_the_command_line_and_in_openspiel() -> None:
    from alhambra.hooks import parse_module_ids

    assert parse_module_ids(" vizier, currency_exchange+,thieves ") == ("vizier", "currency_exchange", "thieves")
    assert parse_module_ids("") == parse_module_ids(None) == ()
    r = invoke("demo", "--modules", "vizier+currency_exchange", "--turns", "2", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "modules: vizier, currency_exchange" in r.stdout
