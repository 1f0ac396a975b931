"""Tuning the greedy weights by self-play (`alhambra.bots.tuning`, `alhambra tune`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alhambra.bots import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights
from alhambra.bots.tuning import PARAMETERS, get_parameter, play_match, search, with_parameter
from tests.cli_helpers import invoke


def test_parameters_read_and_write_every_weight() -> None:
    for p in PARAMETERS:
        changed = with_parameter(DEFAULT_WEIGHTS, p, 9.5)
        assert get_parameter(changed, p) == 9.5 and get_parameter(DEFAULT_WEIGHTS, p) != 9.5
        assert sum(get_parameter(changed, q) != get_parameter(DEFAULT_WEIGHTS, q) for q in PARAMETERS) == 1
    assert with_parameter(DEFAULT_WEIGHTS, "round_weights[2]", 0.1).round_weights == (1.0, 0.75, 0.1)
    for bad in ("round_weights[0]", "speed", "round_weights[7]"):
        with pytest.raises(ValueError, match="unknown parameter"):
            get_parameter(DEFAULT_WEIGHTS, bad)


def test_a_match_between_equal_weights_is_exactly_even() -> None:
    m = play_match(TUNED_WEIGHTS, TUNED_WEIGHTS, deals=2, seed=11)
    assert m.games == 4 and m.wins == 2.0 and m.margin == 0.0 and m.stopped == 0


def test_a_match_finds_the_worse_weights() -> None:
    backwards = Weights(round_weights=(-1.0, -0.75, -0.55))  # shuns the majorities it scores with
    m = play_match(backwards, DEFAULT_WEIGHTS, deals=2, seed=11)
    assert m.games == 4 and m.win_rate == 0.0 and m.margin < -30
    again = play_match(backwards, DEFAULT_WEIGHTS, deals=2, seed=11, workers=2)
    assert again == m  # the same games in parallel


def test_the_search_keeps_a_change_only_when_it_wins() -> None:
    start = Weights(tempo=-20.0)  # shuns exact payments
    seen: list[tuple[float, bool, float]] = []
    final, steps = search(
        start, deals=2, seed=11, parameters=["tempo"], factors=(0.01, 100.0), passes=1, pushes=1,
        on_step=lambda step, current: seen.append((step.value, step.kept, current.tempo)),
    )  # fmt: skip
    assert [(s.parameter, s.factor) for s in steps] == [("tempo", 0.01), ("tempo", 100.0)]
    assert seen == [(-0.2, True, -0.2), (-20.0, False, -0.2)]  # back to -20 loses again
    for s in steps:
        assert s.kept == (s.match.win_rate >= 0.525 and s.match.margin > 0)
    assert final == Weights(tempo=-0.2)


def test_the_search_stops_after_a_pass_that_keeps_nothing() -> None:
    # lead_blend only acts with 3 or more players: a 2-player match with it changed is exactly even
    final, steps = search(TUNED_WEIGHTS, deals=1, seed=11, parameters=["lead_blend"], factors=(0.5,), passes=5)
    assert final == TUNED_WEIGHTS and len(steps) == 1 and not steps[0].kept
    assert steps[0].match.win_rate == 0.5 and steps[0].match.margin == 0


def test_the_search_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="factors must be positive"):
        search(DEFAULT_WEIGHTS, deals=1, parameters=["money"], factors=(-0.25,))
    with pytest.raises(ValueError, match="threshold"):
        search(DEFAULT_WEIGHTS, deals=1, parameters=["money"], threshold=0.0)
    with pytest.raises(ValueError, match="unknown parameter"):
        search(DEFAULT_WEIGHTS, deals=1, parameters=["luck"])
    with pytest.raises(ValueError, match="at least one deal"):
        play_match(DEFAULT_WEIGHTS, DEFAULT_WEIGHTS, deals=0)


def test_tune_command_reports_every_step_and_writes_the_weights(tmp_path: Path) -> None:
    path = tmp_path / "tune.json"
    args = ["tune", "--start", "tuned", "--deals", "1", "--seed", "11", "--parameters", "tempo,money"]
    result = invoke(*args, "--factors", "0.5", "--passes", "1", "--workers", "1", "--json", str(path))
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "Tuning from the tuned weights: tempo, money; 1 deals (2 games) per match" in text
    data = json.loads(path.read_text())
    assert data["complete"] is True and data["start"] == "tuned" and data["factors"] == [0.5]
    assert [s["parameter"] for s in data["steps"]][:1] == ["tempo"] and {s["parameter"] for s in data["steps"]} == {"tempo", "money"}
    for s in data["steps"]:
        assert f"{s['parameter']} ×0.5 = {s['value']:g}: {100 * s['wins'] / s['games']:.1f}% of 2 games" in text
    final = Weights(**{**data["weights"], "round_weights": tuple(data["weights"]["round_weights"])})
    kept = [s for s in data["steps"] if s["kept"]]
    for name in ("tempo", "money"):  # the last kept value of each, or the start
        values = [s["value"] for s in kept if s["parameter"] == name]
        assert getattr(final, name) == (values[-1] if values else getattr(TUNED_WEIGHTS, name))
    assert f"Final weights: {final!r}" in text


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--parameters", "luck"], "unknown parameter(s) luck"),
        (["--parameters", ","], "unknown parameter(s) (none given)"),
        (["--factors", "a,b"], "--factors must be numbers"),
        (["--start", "best"], "--start must be 'default' or 'tuned'"),
        (["--deals", "0"], "--deals must be at least 1"),
        (["--factors", "1"], "factors must be positive and not 1"),
        (["--passes", "0"], "--passes must be at least 1"),
    ],
)
def test_tune_command_refuses_bad_input(args: list[str], needle: str) -> None:
    result = invoke("tune", *args)
    assert result.exit_code == 2 and needle in " ".join(result.stderr.split())
