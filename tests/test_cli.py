"""The `alhambra` command line: demo, replay, bench, modules and error handling.

(`alhambra score` is tested with its layouts in test_layout.py.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from alhambra import GameRecord, legal_actions, new_game, replay
from alhambra.bench import run_bench
from alhambra.cli import app
from alhambra.demo import group_by_turn, play_demo
from alhambra.events import GameEnded, RoundScored, TurnStarted
from alhambra.hooks import available_modules, load_module
from tests.cli_helpers import invoke, runner


def final_scores(demo_output: str) -> list[int]:
    m = re.search(r"game (?:finished|truncated): scores \[([\d, ]+)\]", demo_output)
    assert m, demo_output[-2000:]
    return [int(v) for v in m.group(1).split(",")]


def assert_one_line_error(result: Any, code: int, needle: str) -> None:
    assert result.exit_code == code
    assert needle in result.stderr
    assert result.stderr.startswith("alhambra: error: ")
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------------------- demo + replay
def test_demo_prints_turns_scoring_rounds_and_final_scores(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = invoke("demo", "--players", "3", "--seed", "3", "--record", str(out))
    assert result.exit_code == 0
    text = result.stdout
    assert "Setup" in text and "Turn 1 · player" in text
    assert "Scoring round 1" in text and "Scoring round 2" in text and "Scoring round 3" in text
    assert "Final scores (finished" in text
    game = play_demo(players=3, seed=3)
    assert final_scores(text) == game.state.scores
    assert f"Turn {game.state.turn} · player" in text
    assert json.loads(out.read_text()) == game.record.to_json()


def test_replay_of_demo_record_gives_the_demo_scores(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    demo = invoke("demo", "--seed", "11", "--record", str(out))
    assert demo.exit_code == 0
    scores = final_scores(demo.stdout)
    result = invoke("replay", str(out), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["scores"] == scores
    assert data["outcome"] == "finished"
    assert data["winners"] == [s for s, v in enumerate(scores) if v == max(scores)]
    human = invoke("replay", str(out))
    assert human.exit_code == 0
    assert "Final scores (finished" in human.stdout
    assert "Winner" in human.stdout or "Shared win" in human.stdout
    for v in scores:
        assert re.search(rf"│\s+{v}\s+│", human.stdout)


def test_two_player_demo_shows_the_neutral_player(tmp_path: Path) -> None:
    out = tmp_path / "two.json"
    result = invoke("demo", "-p", "2", "-s", "1", "-r", str(out))
    assert result.exit_code == 0
    assert "Dirk (neutral)" in result.stdout
    assert "the neutral player receives" in result.stdout
    state, _ = replay(GameRecord.from_json(json.loads(out.read_text())))
    assert re.search(rf"Dirk \(neutral\)\s+│\s+{state.neutral_score}\s", result.stdout)


def test_demo_is_deterministic_and_seed_dependent() -> None:
    a = invoke("demo", "--seed", "5", "--turns", "20").stdout
    b = invoke("demo", "--seed", "5", "--turns", "20").stdout
    c = invoke("demo", "--seed", "6", "--turns", "20").stdout
    assert a == b
    assert a != c
    assert "truncated" in a and "Turn 20 ·" in a and "Turn 21 ·" not in a


def test_demo_with_every_available_module(tmp_path: Path) -> None:
    mods = available_modules()
    if not mods:
        pytest.skip("no modules installed")
    out = tmp_path / "mods.json"
    result = invoke("demo", "--modules", ",".join(mods), "--seed", "2", "--record", str(out))
    assert result.exit_code == 0
    assert "modules: " in result.stdout  # the title line may be cut to the terminal's width; the record has them all
    data = json.loads(out.read_text())
    assert data["config"]["modules"] == sorted(mods)
    replayed = invoke("replay", str(out), "--json")
    assert replayed.exit_code == 0
    assert json.loads(replayed.stdout)["scores"] == final_scores(result.stdout)


def test_group_by_turn_starts_groups_at_turn_starts() -> None:
    game = play_demo(players=4, seed=0, turns=12)
    groups = group_by_turn(game.events)
    assert groups[0][0] is None  # setup
    turns = [g[0] for g in groups[1:]]
    assert all(isinstance(t, TurnStarted) for t in turns)
    assert [t.turn for t in turns if t is not None] == list(range(1, 13))
    assert sum(len(g[1]) for g in groups) + len(turns) == len(game.events)
    assert isinstance(groups[-1][1][-1], GameEnded)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["demo", "--players", "7"], "2 to 6 players"),
        (["demo", "--modules", "no_such_module"], "unknown module 'no_such_module'"),
        (["demo", "--turns", "0"], "--turns"),
        (["demo", "--players", "many"], "Invalid value for '--players'"),
        (["bench", "--games", "0"], "--games"),
        (["bench", "--players", "1"], "2 to 6 players"),
        (["frobnicate"], "No such command"),
        (["score"], "Missing argument"),
    ],
)
def test_bad_options_give_one_line_errors(args: list[str], needle: str) -> None:
    assert_one_line_error(invoke(*args), 2, needle)


def test_demo_record_to_unwritable_place(tmp_path: Path) -> None:
    assert_one_line_error(invoke("demo", "--turns", "2", "--record", str(tmp_path / "no" / "dir" / "x.json")), 2, "cannot write")


# ---------------------------------------------------------------------------------- corrupt records
def demo_record(tmp_path: Path, seed: int = 4) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "game.json"
    assert invoke("demo", "--seed", str(seed), "--record", str(path)).exit_code == 0
    return path, json.loads(path.read_text())


@pytest.mark.parametrize("k", [1, 17, 60])
def test_illegal_action_inserted_at_step_k_is_named(tmp_path: Path, k: int) -> None:
    path, data = demo_record(tmp_path)
    # several cards may be taken only if they total at most 5: never legal
    data["actions"].insert(k - 1, "take b9+y9")
    path.write_text(json.dumps(data))
    result = invoke("replay", str(path))
    assert_one_line_error(result, 1, f"step {k} (take b9+y9)")
    assert result.stdout == ""


def test_illegal_action_is_checked_by_the_engine_too(tmp_path: Path) -> None:
    # the inserted action really is illegal where it is inserted, not just unparseable
    _, data = demo_record(tmp_path)
    state, _ = replay(GameRecord.from_json(dict(data, actions=data["actions"][:16])))
    assert "take b9+y9" not in {str(a) for a in legal_actions(state)}


def test_unreadable_action_at_step_k_is_named(tmp_path: Path) -> None:
    path, data = demo_record(tmp_path)
    data["actions"][4] = "place nowhere"
    path.write_text(json.dumps(data))
    assert_one_line_error(invoke("replay", str(path)), 1, "step 5")


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "TakeMoney", "cards": 5},
        {"type": "BuyBuilding", "square": "x", "payment": ["b1"]},
        {"type": "PlaceBuilding", "tile": "G8sw", "target": [1]},
    ],
)
def test_malformed_action_object_at_step_k_is_named(tmp_path: Path, bad: dict[str, Any]) -> None:
    path, data = demo_record(tmp_path)
    data["actions"][2] = bad
    path.write_text(json.dumps(data))
    assert_one_line_error(invoke("replay", str(path)), 1, "step 3: malformed action")


def test_actions_as_json_objects_replay_like_notation(tmp_path: Path) -> None:
    path, data = demo_record(tmp_path)
    record = GameRecord.from_json(data)
    as_objects = dict(data, actions=[a.to_dict() for a in record.actions])
    path.write_text(json.dumps(as_objects))
    result = invoke("replay", str(path), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["scores"] == replay(record)[0].scores


def test_internal_errors_are_one_line_with_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(**_: Any) -> None:
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr("alhambra.cli.play.play_demo", boom)
    result = invoke("demo")
    assert result.exit_code == 3
    assert result.stderr == "alhambra: internal error: ZeroDivisionError: simulated bug (set ALHAMBRA_DEBUG=1 for the traceback)\n"
    monkeypatch.setenv("ALHAMBRA_DEBUG", "1")
    result = runner.invoke(app, ["demo"])
    assert isinstance(result.exception, ZeroDivisionError)


def test_record_of_another_format_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "something/9", "actions": []}))
    assert_one_line_error(invoke("replay", str(path)), 1, "not a game record")
    path.write_text(json.dumps({"format": "alhambra-record/1", "config": {"players": 9}, "seed": 0, "actions": []}))
    assert_one_line_error(invoke("replay", str(path)), 1, "2 to 6 players")


def test_unreadable_record_file_exits_2(tmp_path: Path) -> None:
    assert_one_line_error(invoke("replay", str(tmp_path / "missing.json")), 2, "no such file")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ')
    assert_one_line_error(invoke("replay", str(broken)), 2, "not valid JSON")


def test_replay_of_a_partial_record_reports_the_game_in_progress(tmp_path: Path) -> None:
    _, data = demo_record(tmp_path)
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(dict(data, actions=data["actions"][:10])))
    result = invoke("replay", str(path), "--json")
    assert result.exit_code == 0
    got = json.loads(result.stdout)
    assert got["outcome"] is None and got["winners"] == []
    assert "game in progress" in invoke("replay", str(path)).stdout


# ---------------------------------------------------------------------------------- bench
BENCH_KEYS = {
    "games_per_s",
    "actions_per_s",
    "mean_actions_per_game",
    "legal_actions_median_us",
    "apply_median_us",
    "unchecked_games_per_s",
    "unchecked_actions_per_s",
    "apply_unchecked_median_us",
}


def test_bench_json_figures_are_positive() -> None:
    result = invoke("bench", "--games", "2", "--players", "3", "--seed", "7", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) >= BENCH_KEYS
    for key in BENCH_KEYS:
        assert isinstance(data[key], float) and data[key] > 0, key
    assert data["games"] == 2 and data["players"] == 3 and data["seed"] == 7
    assert data["paths_agree"] is True
    assert data["actions"] == round(data["mean_actions_per_game"] * 2)


@pytest.mark.parametrize("policy", ["kinds", "uniform"])
def test_bench_plays_the_games_the_policy_defines(policy: str) -> None:
    # game i: seed + i for the deal and for the Random that drives the policy
    import random

    from alhambra import GameConfig, apply
    from alhambra.policies import POLICIES

    r = run_bench(players=2, games=1, seed=3, policy=policy)
    rng = random.Random(3)
    state, _ = new_game(GameConfig(players=2), 3)
    n = 0
    while not state.is_over:
        state, _ = apply(state, POLICIES[policy](state, rng))
        n += 1
    assert r.actions == n and r.policy == policy


def test_bench_rejects_an_unknown_policy() -> None:
    result = invoke("bench", "-g", "1", "--policy", "clever")
    assert result.exit_code != 0 and "unknown policy" in result.stderr


def test_bench_table() -> None:
    result = invoke("bench", "-g", "1")
    assert result.exit_code == 0
    assert "games/s" in result.stdout and "apply_unchecked" in result.stdout and "median legal_actions" in result.stdout


# ---------------------------------------------------------------------------------- modules
def test_modules_lists_every_available_module() -> None:
    result = invoke("modules")
    assert result.exit_code == 0
    ids = available_modules()
    if not ids:
        assert "No modules are installed" in result.stdout
    for mid in ids:
        assert mid in result.stdout
        assert load_module(mid).title.split()[0] in result.stdout


def test_modules_with_none_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("alhambra.cli.modules.available_modules", list)
    result = invoke("modules")
    assert result.exit_code == 0
    assert "No modules are installed" in result.stdout


# ---------------------------------------------------------------------------------- python -m alhambra
def test_python_dash_m_demo_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    cmd = [sys.executable, "-m", "alhambra"]
    proc = subprocess.run([*cmd, "demo", "--seed", "8", "--record", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    scores = final_scores(proc.stdout)
    proc = subprocess.run([*cmd, "replay", str(out), "--json"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["scores"] == scores
    proc = subprocess.run([*cmd, "demo", "--players", "x"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_version() -> None:
    from alhambra import __version__

    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"alhambra {__version__}"


def test_round_scored_events_match_the_panels() -> None:
    result = invoke("demo", "--seed", "9")
    game = play_demo(seed=9)
    rounds = [e for e in game.events if isinstance(e, RoundScored)]
    assert [e.round for e in rounds] == [1, 2, 3]
    for e in rounds:
        assert f"Scoring round {e.round}" in result.stdout


def test_modules_json_lists_assumptions_and_options() -> None:
    result = invoke("modules", "--json")
    assert result.exit_code == 0
    facts = {m["id"]: m for m in json.loads(result.stdout)}
    assert set(facts) == set(available_modules()) and len(facts) == 26
    for m in facts.values():
        assert m["title"] and m["description"]
        assert m["summary"] and "\n" not in m["summary"] and len(m["summary"]) <= 90  # one line for the lobby
        assert m["rests_on_assumptions"] == bool(m["component_assumptions"])
        assert isinstance(m["options"], list)
    table = invoke("modules")
    assert table.exit_code == 0
    for mid, m in facts.items():
        if m["rests_on_assumptions"]:
            assert f"{mid} assumes" in table.stdout


def test_demo_refuses_a_bad_option() -> None:
    result = invoke("demo", "--modules", "vizier", "--option", "vizier.nap=true")
    assert result.exit_code == 2 and "no option 'nap'" in result.stderr
    result = invoke("demo", "--option", "garbage")
    assert result.exit_code == 2 and "MODULE.KEY=VALUE" in result.stderr


# ---------------------------------------------------------------------------------- help and output
def test_help_takes_dash_h_and_shows_no_type_labels() -> None:
    for args in (["-h"], ["replay", "-h"], ["simulate", "-h"], ["serve", "-h"]):
        got = invoke(*args)
        assert got.exit_code == 0, (args, got.output)
        assert "Usage: alhambra" in got.stdout
        assert not re.search(r"<(bool|int|str|float)>|list\[", got.stdout), (args, got.stdout)
    assert re.search(r"--games\s+-g\s+INTEGER", invoke("simulate", "-h").stdout)
    assert re.search(r"--json\s+Print", invoke("replay", "-h").stdout)  # a flag: no value column


def test_replay_help_states_every_exit_code_in_whole_sentences() -> None:
    text = " ".join(line.strip(" │") for line in invoke("replay", "--help").stdout.splitlines())
    flat = " ".join(text.split())
    assert "Exit codes: 0 replayed; 1 for an illegal or corrupt record (the error names the step); 2 for an unreadable file" in flat
    # no paragraph line ends after a lone word: the docstring's line breaks are not the help's
    lines = [ln.strip() for ln in invoke("replay", "--help").stdout.splitlines() if ln.strip()]
    assert all(len(ln.split()) > 1 for ln in lines if ln[0].isalpha()), lines


def test_piped_output_uses_the_whole_width() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TERMINAL_WIDTH")}
    cmd = [sys.executable, "-m", "alhambra", "simulate", "--help"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    assert max(len(line) for line in out.splitlines()) > 100, "piped help cut at 80 columns"
    env["TERMINAL_WIDTH"] = "90"
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    assert max(len(line) for line in out.splitlines()) <= 90


def test_a_module_listed_twice_is_named() -> None:
    got = invoke("demo", "--modules", "vizier,thieves,vizier")
    assert got.exit_code == 2
    assert "the module vizier is listed twice" in got.stderr
