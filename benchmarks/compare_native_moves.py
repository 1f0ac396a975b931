#!/usr/bin/env python3
"""The MCTS bots on the native core choose the moves they choose on the Python engine, faster.

    python benchmarks/compare_native_moves.py [--players 2,3,4] [--levels easy,normal,hard]
        [--positions 10] [--iterations LEVEL] [--seconds 0.5]

For each player count and level, greedy games are played and at every 5th decision with a
choice the level's search runs twice from the same seed with an iterations budget and no time
cap, once on the Python engine (``core=python``) and once on the native core (``core=auto``):
the root statistics (every root action's visits and mean reward) must be equal, so the chosen
move is too. The CPU time of those searches gives each core's iterations per CPU second and
their ratio (steady on a busy machine). With ``--seconds S`` each position is also searched for
S seconds of the clock on each core with no iterations cap (what a level's time budget buys;
noisy when the machine is busy). Exit status 1 when any position differs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace

from alhambra.bots import LEVELS, make_bot, mcts as mcts_mod
from alhambra.bots.base import Budget, EventLog, Observation, observe
from alhambra.bots.tracker import Sampler
from alhambra.engine import apply, new_game
from alhambra.native import available, unavailable_reason
from alhambra.state import GameConfig


def positions(players: int, count: int) -> list[Observation]:
    """Observations at every 5th decision with a choice of greedy games (seeds 101, 102 ...)."""
    greedy = make_bot("greedy")
    out: list[Observation] = []
    game = 0
    while len(out) < count:
        state, events = new_game(GameConfig(players=players), 101 + game)
        log = EventLog()
        log.extend(events)
        rng = random.Random(game)
        step = 0
        while not state.is_over and len(out) < count:
            seat = state.to_act
            assert seat is not None
            obs = observe(state, seat, tuple(log.for_seat(seat)))
            if len(obs.legal) > 1:
                step += 1
                if step % 5 == 3:
                    out.append(obs)
            state, got = apply(state, greedy.choose(obs, Budget(), rng))
            log.extend(got)
        game += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--levels", default="easy,normal,hard")
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=None, help="iterations of the move check (default: the level's)")
    ap.add_argument("--seconds", type=float, default=0.0, help="clock seconds of each timed search (0: none)")
    args = ap.parse_args()
    if not available():
        print(f"the native core is not available: {unavailable_reason()}", file=sys.stderr)
        return 2
    differ = 0
    for players in (int(p) for p in args.players.split(",")):
        obs_list = positions(players, args.positions)
        for level in args.levels.split(","):
            base = LEVELS[level]
            its = args.iterations or base.iterations
            same = 0
            times = {"python": 0.0, "auto": 0.0}
            for i, obs in enumerate(obs_list):
                got = {}
                for core in ("python", "auto"):
                    settings = replace(base, iterations=its, seconds=None, core=core)
                    t0 = time.process_time()
                    got[core] = mcts_mod.search(Sampler(obs), settings, random.Random(i), settings.weights)
                    times[core] += time.process_time() - t0
                if got["python"] == got["auto"]:
                    same += 1
                else:
                    differ += 1
                    print(f"DIFFERENT: {players} players, {level}, position {i}", flush=True)
            line = f"{players} players, mcts:{level}, {its} iterations: {same}/{len(obs_list)} positions the same"
            rates = {core: its * len(obs_list) / max(t, 1e-9) for core, t in times.items()}
            line += f"; iterations per CPU second: python {rates['python']:.0f}, native {rates['auto']:.0f}"
            line += f" ({rates['auto'] / rates['python']:.2f}x)"
            if args.seconds > 0:
                rate = {}
                for core in ("python", "auto"):
                    total = 0
                    for i, obs in enumerate(obs_list):
                        settings = replace(base, iterations=None, seconds=args.seconds, core=core)
                        total += mcts_mod.search(Sampler(obs), settings, random.Random(i), settings.weights)[1]
                    rate[core] = total / (args.seconds * len(obs_list))
                line += f"; iterations in {args.seconds} s of the clock, per second: python {rate['python']:.0f}, native {rate['auto']:.0f}"
                line += f" ({rate['auto'] / rate['python']:.2f}x)"
            print(line, flush=True)
    print(f"{differ} positions differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
