"""``alhambra train``: a short run of the command that made the shipped weights (PyTorch: the
extra ``train``; skipped without it), its resume, and the numpy export."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from alhambra.bots.value_net import ValueNet, feature_map
from alhambra.state import GameConfig

from .cli_helpers import invoke

TINY = ["--players", "2", "--games", "3", "--epochs", "1", "--hidden", "8", "--eval-games", "2", "--eval-iterations", "4"]


def test_train_refuses_bad_options(tmp_path: Path) -> None:
    bad = (
        (["--players", "5"], "counts from 2 to 4"),
        (["--hidden", "x"], "comma-separated"),
        (["--games", "0"], "--games"),
        (["--workers", "-1"], "--workers"),
    )
    for args, msg in bad:
        r = invoke("train", "--out", str(tmp_path / "r"), *args)
        assert r.exit_code != 0 and msg in r.output
    assert not (tmp_path / "r" / "checkpoint.pt").exists()


def test_a_short_run_trains_logs_exports_and_resumes(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="training needs the 'train' extra (PyTorch CPU)")
    out = tmp_path / "run"
    r = invoke("train", "--out", str(out), "--rounds", "1", *TINY)
    assert r.exit_code == 0, r.output
    log = [json.loads(line) for line in (out / "train.log").read_text().splitlines()]
    assert [e["event"] for e in log] == ["start", "selfplay", "train", "eval", "round", "done"]
    assert log[0]["config"]["games"] == 3 and log[0]["command"].startswith("alhambra")
    assert log[1]["positions"]["2"] > 0 and log[3]["games"] == 2 and 0.0 <= log[3]["score"] <= 1.0
    first = (out / "value_r1.npz").read_bytes()
    # resume: the same command with more rounds continues after round 1 and keeps its data (the
    # self-play processes are not a setting of the run: two now, one before)
    r = invoke("train", "--out", str(out), "--rounds", "2", *TINY, "--workers", "2")
    assert r.exit_code == 0, r.output
    log = [json.loads(line) for line in (out / "train.log").read_text().splitlines()]
    assert [e["event"] for e in log[6:8]] == ["resume", "selfplay"] and log[6]["round"] == 2
    assert (out / "value_r1.npz").read_bytes() == first and (out / "data" / "p2_r2.npz").exists()
    assert torch.load(out / "checkpoint.pt", weights_only=False)["round"] == 2
    # other settings in the same folder: refused, nothing lost
    r = invoke("train", "--out", str(out), "--rounds", "3", *TINY[:-6], "--hidden", "9", *TINY[-4:])
    assert r.exit_code != 0 and "other settings" in r.output
    # the numpy export computes what the torch network computes
    net = ValueNet.from_file(out / "value.npz")
    assert net.meta["round"] == 2 and net.meta["positions"]["2"] > 0
    with np.load(out / "data" / "p2_r1.npz") as d:
        x = d["x"][:5].astype(np.float32)
    assert x.shape[1] == feature_map(GameConfig(players=2)).size
    ck = torch.load(out / "checkpoint.pt", weights_only=False)["models"][2]
    h = torch.from_numpy(x)
    h = torch.relu(h @ ck["0.weight"].T + ck["0.bias"])
    want = torch.softmax(h @ ck["2.weight"].T + ck["2.bias"], dim=1).numpy()
    assert np.allclose(net.forward(2, x), want, atol=1e-5)
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_residual_run_with_search_self_play_starts_at_the_hand_made_rewards(tmp_path: Path) -> None:
    """``--residual --search N``: self-play moves by a small mcts:hard search, a network that
    corrects the hand-made leaf rewards; its log gives the hand-made rewards' own loss, and the
    exported network is marked residual and computes what the torch network computes."""
    torch = pytest.importorskip("torch", reason="training needs the 'train' extra (PyTorch CPU)")
    out = tmp_path / "res"
    args = [
        "--players",
        "2",
        "--games",
        "2",
        "--epochs",
        "1",
        "--hidden",
        "8",
        "--eval-games",
        "0",
        "--residual",
        "--search-target",
        "0.5",
        "--search",
        "6",
    ]
    r = invoke("train", "--out", str(out), "--rounds", "1", *args)
    assert r.exit_code == 0, r.output
    log = [json.loads(line) for line in (out / "train.log").read_text().splitlines()]
    assert log[0]["config"]["residual"] is True and log[0]["config"]["search"] == 6 and log[0]["config"]["net_weight"] == 1.0
    losses = log[2]["losses"]["2"]
    assert 0.0 < losses["hand_loss"] < 5.0 and losses["val_loss"] > 0.0 and losses["hand_outcome_loss"] > 0.0
    assert log[0]["config"]["search_target"] == 0.5
    net = ValueNet.from_file(out / "value.npz")
    assert net.residual and net.meta["mode"] == "residual"
    with np.load(out / "data" / "p2_r1.npz") as d:
        x, hand = d["x"][:4].astype(np.float32), d["hand"][:4]
        q, y = d["q"], d["y"]
    # the targets: the outcome, half of it the search's value where a search chose the move
    from alhambra.learning.selfplay import Batch
    from alhambra.learning.train import targets

    mixed = targets(Batch(np.zeros((len(y), 1), np.float32), y, np.zeros(len(y), np.int64), y, q), 0.5)
    known = ~np.isnan(q).any(axis=1)
    assert known.any() and np.allclose(mixed[known], 0.5 * y[known] + 0.5 * q[known]) and np.array_equal(mixed[~known], y[~known])
    assert np.allclose(hand.sum(axis=1), 1.0, atol=1e-5)
    ck = torch.load(out / "checkpoint.pt", weights_only=False)["models"][2]
    h = torch.relu(torch.from_numpy(x) @ ck["0.weight"].T + ck["0.bias"])
    base = np.log(np.maximum(hand, 1e-9)).astype(np.float32)
    want = torch.softmax(h @ ck["2.weight"].T + ck["2.bias"] + torch.from_numpy(base), dim=1).numpy()
    assert np.allclose(net.forward(2, x, base), want, atol=1e-5)
    # the search and the residual mode are settings of the run: another value is refused
    r = invoke("train", "--out", str(out), "--rounds", "2", *args[:-1], "7")
    assert r.exit_code != 0 and "other settings" in r.output
    r = invoke("train", "--out", str(tmp_path / "bad"), "--search-target", "0.5")
    assert r.exit_code != 0 and "needs --search" in r.output
