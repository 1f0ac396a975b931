#!/usr/bin/env python3
"""Compare the engine speed of two commits, measured alternately in the same period.

    python benchmarks/compare_speed.py BASE [HEAD] [--rounds 3] [--games 300] [--modules a,b]
        [--mcts-positions 6] [--cold] [--instructions] [--python PATH]

Both commits are checked out into temporary git worktrees (HEAD defaults to the working tree
itself, uncommitted changes included). Each round runs, for BASE and then for HEAD, each in a
fresh process:

* ``alhambra bench --players 4 --games N --json`` (fast path and checked path games/s, the
  median ``legal_actions`` time), once without modules and, with ``--modules``, once more with
  them;
* with ``--cold``: the fast path alone on N games in a fresh process (``alhambra bench`` plays
  the same games on the checked path first, which fills the memoised purchase lists the fast
  path then finds again; here every game is new to the process);
* with ``--mcts-positions K``: mcts:normal's search (1,000 iterations, no time cap) at K fixed
  positions of a greedy 4-player game, as iterations per second of CPU time.

The machine may be busy: alternating the two commits round by round puts both under the same
load. Prints each run, then per figure the medians over the rounds and the median of the
rounds' ratios HEAD / BASE (for ``legal_actions``: BASE / HEAD, how many times faster): the
two runs of a round ran one after the other, so their ratio is the steadier figure when the
machine's speed drifts between rounds.

With ``--instructions`` (needs valgrind) it also counts the machine instructions per game of
each path under ``valgrind --tool=callgrind``, which no other load on the machine changes: the
games of the benchmark's policy, once on the checked path and once on the fast path after it
(as ``alhambra bench`` plays them), the difference between 10 and 30 games.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from trees import checked_out, run_in

MCTS_SNIPPET = r"""
import json, random, sys, time
from alhambra.bots import make_bot
from alhambra.bots.base import Budget, EventLog, observe
from alhambra.engine import apply, new_game
from alhambra.state import GameConfig

positions = int(sys.argv[1])
config = GameConfig(players=4)
state, events = new_game(config, 7)
log = EventLog()
log.extend(events)
greedy = make_bot("greedy")
mcts = make_bot("mcts:normal")
budget = Budget(iterations=1000, seconds=None)
rng = random.Random(7)
step = 0
its = 0
spent = 0.0
done = 0
while not state.is_over and done < positions:
    seat = state.to_act
    obs = observe(state, seat, tuple(log.for_seat(seat)))
    if step % 17 == 5:
        t0 = time.process_time()
        mcts.choose(obs, budget, random.Random(step))
        t = time.process_time() - t0
        if mcts.last_iterations:
            its += mcts.last_iterations
            spent += t
            done += 1
    action = greedy.choose(obs, greedy.budget, rng)
    state, events = apply(state, action, seat)
    log.extend(events)
    step += 1
print(json.dumps({"iterations": its, "seconds": spent, "positions": done}))
"""


PATHS_SNIPPET = r"""
import sys
from alhambra.bench import _play
from alhambra.policies import POLICIES
from alhambra.state import GameConfig
config = GameConfig(players=4)
games, fast = int(sys.argv[1]), sys.argv[2] == "fast"
for g in range(games):
    _play(config, g, POLICIES["kinds"], True)
if fast:
    for g in range(games):
        _play(config, g, POLICIES["kinds"], False)
"""


COLD_SNIPPET = r"""
import json, sys
from alhambra.bench import _play
from alhambra.policies import POLICIES
from alhambra.state import GameConfig
config = GameConfig(players=4)
games = int(sys.argv[1])
ns = sum(_play(config, g, POLICIES["kinds"], False)[2] for g in range(games))
print(json.dumps({"games_per_s": games / (ns / 1e9)}))
"""


def _instructions(python: str, src: Path, games: int, path: str) -> int:
    """Instructions of the whole process (valgrind's callgrind, the output file thrown away)."""
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-c", PATHS_SNIPPET, str(games), path]
    done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=str(src.parent))
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    raise RuntimeError(f"no instruction count from valgrind: {done.stderr[-500:]}")


def _per_game(python: str, src: Path) -> dict[str, float]:
    """Instructions per game: the checked path (10 to 30 games), the fast path after it."""
    checked = {g: _instructions(python, src, g, "checked") for g in (10, 30)}
    both = {g: _instructions(python, src, g, "fast") for g in (10, 30)}
    return {
        "checked_instr": (checked[30] - checked[10]) / 20,
        "fast_instr": ((both[30] - checked[30]) - (both[10] - checked[10])) / 20,
    }


def _bench(python: str, src: Path, games: int, modules: str | None) -> dict[str, float]:
    args = ["-m", "alhambra", "bench", "--players", "4", "--games", str(games), "--json"]
    if modules:
        args += ["--modules", modules]
    got = json.loads(run_in(python, src, args))
    return {
        "fast": got["unchecked_games_per_s"],
        "checked": got["games_per_s"],
        "legal_us": got["legal_actions_median_us"],
        "fast_actions": got["unchecked_actions_per_s"],
        "actions": got["actions"],
    }


def _mcts(python: str, src: Path, positions: int) -> float:
    got = json.loads(run_in(python, src, ["-c", MCTS_SNIPPET, str(positions)]))
    return got["iterations"] / got["seconds"] if got["seconds"] else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", help="the commit before the work (e.g. a hash or a branch)")
    ap.add_argument("head", nargs="?", default=None, help="the commit to compare (default: the working tree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--modules", default=None, help="also bench with these modules (comma-separated)")
    ap.add_argument("--mcts-positions", type=int, default=0, help="mcts:normal searches per round (0: none)")
    ap.add_argument("--cold", action="store_true", help="also time the fast path alone on games new to the process")
    ap.add_argument("--instructions", action="store_true", help="also count instructions per game under valgrind (slow)")
    ap.add_argument("--python", default=sys.executable)
    opts = ap.parse_args()

    with checked_out(opts.base, opts.head, "alhambra-speed-") as (base, head):
        sides = {"base": base / "src", "head": head / "src"}
        runs: dict[str, dict[str, list[float]]] = {k: {} for k in sides}
        for r in range(1, opts.rounds + 1):
            for name, src in sides.items():
                figures = _bench(opts.python, src, opts.games, None)
                if opts.modules:
                    with_mods = _bench(opts.python, src, opts.games, opts.modules)
                    figures["fast_modules"] = with_mods["fast"]
                    figures["checked_modules"] = with_mods["checked"]
                    figures["fast_actions_modules"] = with_mods["fast_actions"]
                if opts.cold:
                    figures["fast_cold"] = json.loads(run_in(opts.python, src, ["-c", COLD_SNIPPET, str(opts.games)]))["games_per_s"]
                if opts.mcts_positions:
                    figures["mcts_it_s"] = _mcts(opts.python, src, opts.mcts_positions)
                for k, v in figures.items():
                    runs[name].setdefault(k, []).append(v)
                print(f"round {r} {name}: " + ", ".join(f"{k} {v:,.1f}" for k, v in figures.items()), flush=True)
        med = {name: {k: statistics.median(v) for k, v in got.items()} for name, got in runs.items()}
        print()
        print(f"medians over {opts.rounds} rounds ({opts.games} games a run, 4 players), and the median ratio of a round:")
        for k in med["base"]:
            if k == "actions":
                continue
            b, h = med["base"][k], med["head"][k]
            pairs = zip(runs["base"][k], runs["head"][k], strict=True)
            ratio = statistics.median([x / y if k == "legal_us" else y / x for x, y in pairs])
            what = "times faster" if k == "legal_us" else "x"
            print(f"  {k:20s} base {b:10,.1f}  head {h:10,.1f}  ratio {ratio:5.2f} {what}")
        if "fast_modules" in med["head"]:
            for name in ("base", "head"):
                games = med[name]["fast_modules"] / med[name]["fast"]
                acts = med[name]["fast_actions_modules"] / med[name]["fast_actions"]
                share = f"{games:.0%} of the games/s, {acts:.0%} of the actions/s without modules"
                print(f"  {name} fast path with --modules {opts.modules}: {share}")
        if opts.instructions:
            counts = {name: _per_game(opts.python, src) for name, src in sides.items()}
            for k in ("fast_instr", "checked_instr"):
                b, h = counts["base"][k], counts["head"][k]
                print(f"  {k:16s} base {b / 1e6:9,.1f}M head {h / 1e6:9,.1f}M per game; ratio {b / h:5.2f} times fewer")
        if med["base"]["actions"] != med["head"]["actions"]:
            print("  note: the two commits played games of different lengths (the rules or the policy changed)")
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
