"""The loopback load test runs a real server, plays its tables to the bounded count and reports
latency figures; the serve command refuses bad options with a one-line error."""

from __future__ import annotations

import json
import math
import subprocess
import sys

from alhambra.server.loadtest import run_loadtest
from tests.cli_helpers import invoke


def test_a_small_load_test_plays_and_measures() -> None:
    got = run_loadtest(tables=3, players=3, actions=6, pace=0.0, max_seconds=60)
    assert got["tables"] == 3 and got["players"] == 3
    assert got["actions"] == 18
    assert got["errors"] == 0 and got["failures"] == []
    assert 0 < got["p50_ms"] <= got["p99_ms"] <= got["max_ms"]
    assert not math.isnan(got["actions_per_s"]) and got["actions_per_s"] > 0


def test_serve_refuses_bad_options() -> None:
    for args in (["--port", "0"], ["--bot-delay", "-1"], ["--database-url", "nosuchdb://x"]):
        r = subprocess.run([sys.executable, "-m", "alhambra", "serve", *args], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.startswith("alhambra: error: ") and r.stderr.count("\n") == 1


def test_a_small_fairness_run_prints_its_figures() -> None:
    """One watched all-bot mcts:hard table beside a person's table: both phases are measured
    and the ratios printed (no timing assertion: the figures go to docs/server.md)."""
    r = subprocess.run(
        [sys.executable, "-m", "alhambra", "loadtest", "--fairness", "1", "--actions", "6", "--max-seconds", "120", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    print(got)
    assert got["bot_tables"] == 1 and got["failures"] == []
    for phase in ("idle", "loaded"):
        assert got[phase]["actions"] == 6 and got[phase]["bot_replies"] >= 1
        assert 0 < got[phase]["update_p50_ms"] <= got[phase]["update_p99_ms"]
        assert 0 < got[phase]["bot_reply_p50_ms"] <= got[phase]["bot_reply_p99_ms"]
    assert got["bot_reply_p50_ratio"] > 0
    r = subprocess.run([sys.executable, "-m", "alhambra", "loadtest", "--fairness", "99"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--fairness must be 0-20" in r.stderr


def test_serve_refuses_bad_pool_and_housekeeping_options() -> None:
    """Checked before anything starts (in-process: no server is run)."""
    for args, words in (
        (["--bot-workers", "0"], "--bot-workers must be 1-64"),
        (["--max-bot-tables", "-1"], "--max-bot-tables must not be negative"),
        (["--evict-after", "0"], "--evict-after must be positive"),
        (["--expire-waiting", "-5"], "--expire-waiting must be positive"),
        (["--expire-idle", "0"], "--expire-idle must be positive"),
    ):
        result = invoke("serve", *args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.stderr
