"""Does the greedy bot's valuation of a module matter? Greedy against a greedy that ignores it.

Plays ``--games`` 2-player games (duplicate deals, both seat orders) of greedy against
"blind" greedy, a greedy bot whose evaluation leaves one part of the module out:

* ``kind_points``: the scoring table a module gives (new score cards); blind greedy values
  majorities with the base game's table;
* ``bot_values``: the module's own ``bot_values`` (medina's penalties...); blind greedy adds
  nothing for the module.

Everything else is the same bot. It prints the aware bot's win rate with its Wilson interval
and the mean margin. Usage::

    python benchmarks/module_valuation.py --modules new_score_cards --blind kind_points
    python benchmarks/module_valuation.py --modules medina --blind bot_values
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from alhambra import GameConfig, apply, new_game
from alhambra.bots import EventLog, greedy, make_bot, observe
from alhambra.hooks import modules_of
from alhambra.tournament import wilson


@contextmanager
def blind(part: str, config: GameConfig) -> Iterator[None]:
    """Within this block the greedy evaluation leaves ``part`` of the game's modules out."""
    if part == "kind_points":
        saved: Any = greedy._points_table
        greedy._points_table = lambda state, tables: (0, None)  # type: ignore[assignment]
        try:
            yield
        finally:
            greedy._points_table = saved
        return
    if part == "bot_values":
        mods = modules_of(config)
        saved = [m.__dict__.get("bot_values") for m in mods]
        for m in mods:
            m.bot_values = lambda state: None  # type: ignore[method-assign]
        greedy._STANDING_MEMO.clear()
        try:
            yield
        finally:
            for m, s in zip(mods, saved, strict=True):
                if s is None:
                    del m.bot_values
                else:
                    m.bot_values = s  # type: ignore[method-assign]
        return
    raise ValueError(f"unknown part {part!r} (kind_points or bot_values)")


def play(config: GameConfig, seed: int, aware_seat: int, part: str) -> tuple[int, ...]:
    """One game; returns the final scores."""
    state, events = new_game(config, seed)
    log = EventLog()
    log.extend(events)
    bots = [make_bot("greedy") for _ in range(config.players)]
    rngs = [random.Random(f"{seed}/{s}") for s in range(config.players)]
    while state.outcome is None:
        seat = state.to_act
        assert seat is not None
        obs = observe(state, seat, log.for_seat(seat))
        bot = bots[seat]
        if seat == aware_seat:
            action = bot.choose(obs, bot.budget, rngs[seat])
        else:
            with blind(part, config):
                action = bot.choose(obs, bot.budget, rngs[seat])
        state, events = apply(state, action)
        log.extend(events)
    return tuple(state.scores)


def main() -> None:
    """Run the comparison and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modules", required=True, help="comma-separated module ids")
    ap.add_argument("--blind", required=True, choices=("kind_points", "bot_values"))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    config = GameConfig(players=2, modules=tuple(args.modules.split(",")))
    wins = 0.0
    margin = 0
    n = 0
    for g in range(args.games):
        seed = args.seed + g // 2
        aware = g % 2
        scores = play(config, seed, aware, args.blind)
        other = scores[1 - aware]
        wins += 1.0 if scores[aware] > other else 0.5 if scores[aware] == other else 0.0
        margin += scores[aware] - other
        n += 1
    lo, hi = wilson(wins, n)
    print(f"{args.modules}: greedy against greedy blind to {args.blind}, {n} games (duplicate deals, both seats)")
    print(f"aware greedy wins {wins / n:.1%} ({lo:.1%}-{hi:.1%}), mean margin {margin / n:+.1f}")


if __name__ == "__main__":
    main()
