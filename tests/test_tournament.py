"""The tournament runner and `alhambra simulate`: rotations, duplicate deals, figures, records."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from alhambra.errors import ConfigError
from alhambra.record import GameRecord, replay
from alhambra.state import GameConfig
from alhambra.tournament import TournamentResult, entry_labels, play_game, run_tournament, summarize, wilson
from tests.cli_helpers import invoke


def test_wilson_interval() -> None:
    lo, hi = wilson(380, 400)
    assert lo == pytest.approx(0.9240, abs=1e-3) and hi == pytest.approx(0.9674, abs=1e-3)
    assert wilson(0, 10)[0] == pytest.approx(0.0) and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(5, 10)[0] < 0.5 < wilson(5, 10)[1]


def test_entry_labels_tell_repeated_bots_apart() -> None:
    assert entry_labels(["mcts:normal", "greedy", "greedy", "greedy"]) == ["mcts:normal", "greedy", "greedy#2", "greedy#3"]


def test_games_rotate_seats_over_duplicate_deals() -> None:
    config = GameConfig(players=3)
    games = [play_game(config, ["greedy", "random", "random"], 50, g) for g in range(3)]
    assert {g.seed for g in games} == {50}  # one deal ...
    assert [g.seats[0] for g in games] == [0, 1, 2]  # ... with the greedy bot in every seat
    for g in games:
        assert sum(g.wins) == pytest.approx(1.0)
        assert sorted(g.ranks) == [1.0, 2.0, 3.0] or len(set(g.scores)) < 3
        state, _ = replay(GameRecord.from_json(g.record))
        assert [state.scores[s] for s in g.seats] == g.scores
        assert g.margins[g.ranks.index(1.0)] > 0 if 1.0 in g.ranks else True
    nxt = play_game(config, ["greedy", "random", "random"], 50, 3)
    assert nxt.seed == 51 and nxt.rotation == 0


def test_shared_wins_are_split() -> None:
    config = GameConfig(players=2)
    g = play_game(config, ["random", "random"], 3, 0)
    g.scores = [40, 40]
    g.wins = [0.5, 0.5]
    g.ranks = [1.5, 1.5]
    stats = summarize(["random", "random"], [g])
    assert [e.wins for e in stats] == [0.5, 0.5]
    assert [e.mean_rank for e in stats] == [1.5, 1.5]


def test_tournament_figures_add_up() -> None:
    seen: list[int] = []
    result = run_tournament(2, ["greedy", "random"], 3, seed=7, workers=1, progress=lambda r, done, total: seen.append(done))
    assert result.games == 4 and result.deals == 2  # rounded up to whole rotations
    assert seen == [1, 2, 3, 4]
    greedy, rnd = result.entries
    assert greedy.games == rnd.games == 4
    assert greedy.wins + rnd.wins == pytest.approx(4)
    assert greedy.win_rate == 1.0 and greedy.win_low > 0.4
    assert greedy.mean_rank == 1.0 and rnd.mean_rank == 2.0
    assert greedy.mean_margin == -rnd.mean_margin > 0
    assert greedy.rating_mu > rnd.rating_mu
    assert greedy.ms_per_move > 0 and greedy.moves > 0
    assert [r.game for r in result.results] == [0, 1, 2, 3]


def test_parallel_games_give_the_same_results() -> None:
    one = run_tournament(2, ["greedy", "random"], 4, seed=3, workers=1)
    two = run_tournament(2, ["greedy", "random"], 4, seed=3, workers=2)
    assert [r.scores for r in one.results] == [r.scores for r in two.results]
    assert [r.record for r in one.results] == [r.record for r in two.results]
    assert two.workers == 2


def test_bad_lineups_are_refused() -> None:
    with pytest.raises(ValueError):
        run_tournament(3, ["greedy", "random"], 3)
    with pytest.raises(ValueError):
        run_tournament(2, ["greedy", "nobody"], 2)


# ---------------------------------------------------------------------------------- command line
def test_simulate_prints_a_table_and_writes_replayable_records(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = invoke(
        "simulate", "--players", "2", "--bots", "Easy,random", "--games", "2", "--seed", "5",
        "--modules", "vizier", "--workers", "1", "--json", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "2 games (1 deal × 2 seat rotations)" in text and "modules: vizier" in text
    # the bots by the level names the browser shows (a level's name is accepted as --bots too)
    assert "Easy (greedy)" in text and "Beginner (random)" in text
    for col in ("win rate", "95% interval", "mean rank", "mean score", "mean margin", "rating (PL)", "ms/move", "max ms"):
        assert col in text
    data = json.loads(out.read_text())
    assert data["format"] == "alhambra-simulation/1" and data["games"] == 2
    assert [e["label"] for e in data["entries"]] == ["greedy", "random"]
    assert data["entries"][0]["wins"] + data["entries"][1]["wins"] == pytest.approx(2)
    game = data["game_results"][1]
    replayed = invoke("replay", str(out), "--game", "1", "--json")
    assert replayed.exit_code == 0
    scores = json.loads(replayed.stdout)["scores"]
    assert [scores[s] for s in game["seats"]] == game["scores"]
    missing = invoke("replay", str(out))
    assert missing.exit_code == 2 and "--game 0..1" in missing.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--players", "3", "--bots", "greedy,random"], "3 players need 3 bots"),
        (["--bots", "greedy,robot"], "unknown bot"),
        (["--bots", "mcts:legendary,greedy"], "unknown level"),
        (["--games", "0"], "--games must be at least 1"),
        (["--modules", "nonsense"], "nonsense"),
        (["--players", "7", "--bots", "greedy,random"], "2 to 6 players"),
    ],
)
def test_simulate_rejects_bad_options(args: list[str], needle: str) -> None:
    result = invoke("simulate", *args)
    assert result.exit_code == 2
    assert needle in result.stderr and result.stderr.startswith("alhambra: error: ")


def test_checkpoints_hold_the_games_done_so_far(tmp_path: Path) -> None:
    partial: list[Any] = []
    final = run_tournament(2, ["random", "random"], 4, seed=2, workers=1, checkpoint=partial.append, checkpoint_every=1)
    assert [len(p.results) for p in partial] == [1, 2, 3]
    assert not any(p.complete for p in partial) and final.complete
    assert partial[-1].results == final.results[:3]
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(partial[1].to_json()))
    shown = invoke("report", str(path))
    assert shown.exit_code == 0
    assert "UNFINISHED: 2 of 4 games" in shown.stdout
    path.write_text(json.dumps(final.to_json()))
    again = TournamentResult.from_json(json.loads(path.read_text()))
    assert [e.win_rate for e in again.entries] == [e.win_rate for e in final.entries]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "alhambra-record/1"}')
    assert invoke("report", str(bad)).exit_code == 1


def _strip_times(results: list[Any]) -> list[tuple[int, list[int], list[float], str]]:
    return [(r.game, r.scores, r.wins, r.outcome) for r in sorted(results, key=lambda r: r.game)]


def test_resume_plays_only_the_missing_games_and_ends_where_a_full_run_ends(tmp_path: Path) -> None:
    full = run_tournament(2, ["greedy", "random"], 6, seed=4, workers=1)
    path = tmp_path / "run.json"
    partial = TournamentResult.from_json(json.loads(json.dumps(full.to_json())))
    partial.results = [r for r in partial.results if r.game in (0, 3, 4)]
    partial.complete = False
    path.write_text(json.dumps(partial.to_json()))
    played: list[int] = []
    resumed = run_tournament(
        2, ["greedy", "random"], 6, seed=4, workers=1, resume=partial, progress=lambda r, done, total: played.append(r.game)
    )
    assert sorted(played) == [1, 2, 5]
    assert resumed.complete and _strip_times(resumed.results) == _strip_times(full.results)
    assert [e.wins for e in resumed.entries] == [e.wins for e in full.entries]
    # through the command line: the file is continued and completed
    result = invoke(
        "simulate", "--players", "2", "--bots", "greedy,random", "--games", "6", "--seed", "4",
        "--workers", "1", "--json", str(path), "--resume", "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text())
    assert data["complete"] and sorted(g["game"] for g in data["game_results"]) == list(range(6))


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--games", "2"], "a tournament of 4 games: resume it with --games 4"),
        (["--bots", "random,greedy"], "another tournament"),
        (["--seed", "5"], "another tournament"),
        (["--turn-limit", "5"], "might end otherwise with a turn limit of 5: resume it with --turn-limit 1000"),
    ],
)
def test_resume_refuses_another_tournament(tmp_path: Path, args: list[str], needle: str) -> None:
    path = tmp_path / "run.json"
    base = {"--players": "2", "--bots": "greedy,random", "--games": "4", "--seed": "4"}
    first = invoke("simulate", *[x for kv in base.items() for x in kv], "--workers", "1", "--json", str(path), "--quiet")
    assert first.exit_code == 0
    before = path.read_text()
    changed = dict(base)
    changed.update(zip(args[::2], args[1::2], strict=True))
    again = invoke("simulate", *[x for kv in changed.items() for x in kv], "--json", str(path), "--resume", "--quiet")
    assert again.exit_code == 2 and needle in again.stderr
    assert path.read_text() == before  # nothing lost


def test_a_game_that_reaches_the_turn_limit_is_stopped_and_reported(tmp_path: Path) -> None:
    result = run_tournament(2, ["random", "random"], 2, seed=3, workers=1, turn_limit=4)
    assert result.turn_limit == 4 and result.truncated == 2
    for g in result.results:
        assert g.outcome == "truncated"
        state, _ = replay(GameRecord.from_json(g.record))  # the record keeps the limit: it replays the stop
        assert state.outcome == "truncated" and state.turn == 4
        assert [state.scores[s] for s in g.seats] == g.scores
    again = TournamentResult.from_json(json.loads(json.dumps(result.to_json())))
    assert again.turn_limit == 4 and again.truncated == 2
    with pytest.raises(ValueError, match="turn_limit"):
        TournamentResult.from_json({**result.to_json(), "turn_limit": "many"})
    path = tmp_path / "run.json"
    run = invoke(
        "simulate", "--bots", "random,random", "--games", "2", "--seed", "3", "--turn-limit", "4",
        "--workers", "1", "--json", str(path), "--quiet",
    )  # fmt: skip
    assert run.exit_code == 0
    assert "2 game(s) reached the turn limit of 4" in " ".join(run.stdout.split())
    assert json.loads(path.read_text())["truncated"] == 2
    assert "reached the turn limit" in " ".join(invoke("report", str(path)).stdout.split())


def test_by_default_games_end_normally_and_a_file_resumes_under_a_limit_none_of_its_games_reach(tmp_path: Path) -> None:
    result = run_tournament(2, ["greedy", "random"], 2, seed=6, workers=1)
    assert result.turn_limit == 1000 and result.truncated == 0
    assert {g.outcome for g in result.results} == {"finished"}
    path = tmp_path / "old.json"
    data = result.to_json()
    del data["turn_limit"]  # a file written before the limit existed: its games had none
    data["game_results"] = data["game_results"][:1]
    data["complete"] = False
    path.write_text(json.dumps(data))
    old = TournamentResult.from_json(data)
    assert old.turn_limit is None
    common = [
        "simulate",
        "--bots",
        "greedy,random",
        "--games",
        "2",
        "--seed",
        "6",
        "--workers",
        "1",
        "--json",
        str(path),
        "--resume",
        "--quiet",
    ]
    short = len(old.results[0].record["actions"]) // 2  # a limit the stored game might reach (it has more actions)
    refused = invoke(*common, "--turn-limit", str(short))
    assert refused.exit_code == 2
    assert f"played with no turn limit, and some of its games might end otherwise with a turn limit of {short}" in refused.stderr
    assert "resume it with --turn-limit 0" in refused.stderr
    assert json.loads(path.read_text()) == data  # nothing lost
    resumed = invoke(*common)  # the default limit: the stored game is far too short to reach it
    assert resumed.exit_code == 0, resumed.stderr
    done = json.loads(path.read_text())
    assert done["complete"] and done["turn_limit"] == 1000 and done["games_done"] == 2
    assert [g["scores"] for g in done["game_results"]] == [g.scores for g in result.results]


def test_a_bad_turn_limit_is_refused() -> None:
    result = invoke("simulate", "--bots", "greedy,random", "--games", "2", "--turn-limit", "-1")
    assert result.exit_code == 2 and "--turn-limit must be a number of turns" in result.stderr


def test_resume_needs_a_results_file() -> None:
    result = invoke("simulate", "--bots", "greedy,random", "--games", "2", "--resume")
    assert result.exit_code == 2 and "--resume needs --json" in result.stderr


def test_the_longest_decision_is_reported_and_old_files_say_they_do_not_know(tmp_path: Path) -> None:
    result = run_tournament(2, ["greedy", "random"], 2, seed=6, workers=1)
    for e in result.entries:
        assert e.max_ms_per_move is not None and e.max_ms_per_move >= e.ms_per_move
    data = result.to_json()
    for g in data["game_results"]:
        del g["max_seconds"]  # as written before the longest decision was kept
    old = TournamentResult.from_json(json.loads(json.dumps(data)))
    assert [e.max_ms_per_move for e in old.entries] == [None, None]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    shown = invoke("report", str(path))
    assert shown.exit_code == 0 and "max ms" in shown.stdout


def test_long_games_are_checkpointed_by_time_too() -> None:
    partial: list[Any] = []
    run_tournament(2, ["random", "random"], 4, seed=2, workers=1, checkpoint=partial.append, checkpoint_every=100, checkpoint_seconds=0.0)
    assert [len(p.results) for p in partial] == [1, 2, 3]  # every game, although checkpoint_every is 100
    partial.clear()
    run_tournament(2, ["random", "random"], 4, seed=2, workers=1, checkpoint=partial.append, checkpoint_every=100, checkpoint_seconds=3600)
    assert partial == []


class _Stop:
    """A progress callback that interrupts the run (like Ctrl-C) after ``after`` games."""

    def __init__(self, after: int) -> None:
        self.after = after

    def __call__(self, result: Any, done: int, total: int) -> None:
        if done >= self.after:
            raise KeyboardInterrupt


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_run_saves_its_finished_games_and_resumes(workers: int) -> None:
    partial: list[Any] = []
    with pytest.raises(KeyboardInterrupt):
        run_tournament(
            2, ["greedy", "random"], 6, seed=4, workers=workers, progress=_Stop(2), checkpoint=partial.append, checkpoint_every=100
        )
    assert len(partial) == 1 and not partial[0].complete
    kept = partial[0]
    assert len(kept.results) == 2
    resumed = run_tournament(2, ["greedy", "random"], 6, seed=4, workers=1, resume=kept)
    full = run_tournament(2, ["greedy", "random"], 6, seed=4, workers=1)
    assert resumed.complete and _strip_times(resumed.results) == _strip_times(full.results)


def test_simulate_stopped_by_sigterm_keeps_the_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    cmd = [sys.executable, "-m", "alhambra", "simulate", "--players", "2", "--bots", "greedy,greedy", "--games", "400"]
    cmd += ["--seed", "3", "--workers", "2", "--json", str(out), "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while not out.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert out.exists(), "no checkpoint was written"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    data = json.loads(out.read_text())
    assert not data["complete"] and 0 < len(data["game_results"]) < 400
    saved = len(data["game_results"])
    assert err.startswith(f"alhambra: stopped: {saved} of 400 games saved in {out}") and "--resume" in err
    assert "Traceback" not in err


def test_options_are_kept_and_checked_on_resume() -> None:
    from alhambra.tournament import resume_problem, run_tournament

    opts = (("vizier", "nap", True),)
    with pytest.raises(ConfigError, match="no option"):
        run_tournament(2, ["random", "random"], 2, 1, ["vizier"], 1, options=opts)
    done = run_tournament(2, ["random", "random"], 2, 1, ["vizier"], 1)
    assert done.options == []
    again = TournamentResult.from_json(json.loads(json.dumps(done.to_json())))
    assert resume_problem(again, 2, ["random", "random"], 2, 1, ["vizier"], done.turn_limit) is None
    assert "options" in (resume_problem(again, 2, ["random", "random"], 2, 1, ["vizier"], done.turn_limit, opts) or "")


def test_a_finished_tournament_is_extended_by_resuming_with_more_games() -> None:
    from alhambra.tournament import resume_problem, run_tournament

    short = run_tournament(2, ["greedy", "random"], 2, 5, workers=1)
    again = TournamentResult.from_json(json.loads(json.dumps(short.to_json())))
    assert resume_problem(again, 2, ["greedy", "random"], 4, 6) is not None  # another seed
    longer = run_tournament(2, ["greedy", "random"], 4, 5, workers=1, resume=again)
    fresh = run_tournament(2, ["greedy", "random"], 4, 5, workers=1)
    assert longer.games == 4 and longer.complete
    assert [r.game for r in longer.results] == [0, 1, 2, 3]
    assert [r.record for r in longer.results] == [r.record for r in fresh.results]
    assert [e.wins for e in longer.entries] == [e.wins for e in fresh.entries]
