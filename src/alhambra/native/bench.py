"""``alhambra bench --core native``: the native core beside the Python fast path, one run.

Both engines play random games of the base game with a uniform random policy (every legal
action listed, one chosen uniformly, applied in place): the Python engine through
``legal_actions`` + ``apply_unchecked(events=False)`` with ``random.Random(seed + i)``, the
native core through its own playout loop (legal action ids, a fast generator, apply). The
native core also replays every Python game action by action and must end with the same scores
(``agree``). ``legal_actions`` is timed on the same positions in both engines (a sample of
every ``sample_every``-th position of the Python games). Times are CPU time of this process.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import asdict, dataclass
from typing import Any

from ..engine import apply_unchecked, legal_actions, new_game
from ..state import GameConfig
from .game import NativeGame, encode

__all__ = ["NativeBenchResult", "run_native_bench"]


@dataclass(frozen=True, slots=True)
class NativeBenchResult:
    """Figures of one ``bench --core native`` run (rates per second of CPU time)."""

    players: int
    games: int
    seed: int
    python_games_per_s: float
    python_actions_per_s: float
    native_games_per_s: float
    native_actions_per_s: float
    python_legal_actions_median_us: float
    native_legal_actions_median_us: float
    """Median of one ``legal_ids()`` call from Python (the list of ids included)."""
    native_listing_median_us: float
    """Median of one listing into the core's C buffer (no Python objects), per position."""
    python_mean_actions_per_game: float
    native_mean_actions_per_game: float
    native_games: int
    agree: bool
    """True when the native core, replaying every Python game, ended with the same scores."""

    @property
    def games_speedup(self) -> float:
        """Native games/s over Python fast-path games/s."""
        return self.native_games_per_s / self.python_games_per_s

    @property
    def actions_speedup(self) -> float:
        return self.native_actions_per_s / self.python_actions_per_s

    @property
    def legal_actions_speedup(self) -> float:
        return self.python_legal_actions_median_us / max(self.native_legal_actions_median_us, 1e-9)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures, the speed-ups included."""
        out = asdict(self)
        out["games_speedup"] = self.games_speedup
        out["actions_speedup"] = self.actions_speedup
        out["legal_actions_speedup"] = self.legal_actions_speedup
        return out


def run_native_bench(
    players: int = 4, games: int = 50, seed: int = 0, sample_every: int = 3, native_games: int | None = None
) -> NativeBenchResult:
    """Play ``games`` random games on the Python fast path and ``native_games`` (default 10x
    as many) on the native core; return the figures."""
    if games < 1:
        raise ValueError("play at least one game")
    config = GameConfig(players=players)
    clock = time.process_time_ns
    py_ns = 0
    py_actions = 0
    agree = True
    la_py: list[int] = []
    la_nat: list[int] = []
    la_c: list[float] = []
    for g in range(games):
        rng = random.Random(seed + g)
        played = []
        t0 = clock()
        state, _ = new_game(config, seed + g)
        while not state.is_over:
            acts = legal_actions(state)
            action = acts[rng.randrange(len(acts))]
            apply_unchecked(state, action, events=False)
            played.append(action)
        py_ns += clock() - t0
        py_actions += len(played)
        # replay on the native core: the same game must end with the same scores
        native = NativeGame.new(config, seed + g)
        for action in played:
            native.apply_id(encode(native.rules, action))
        agree = agree and native.is_over and native.scores == state.scores
        if g < 10:
            _sample(config, seed + g, played, sample_every, la_py, la_nat, la_c)
    n_native = native_games if native_games is not None else 10 * games
    nat_ns = 0
    nat_actions = 0
    for g in range(n_native):
        t0 = clock()
        native = NativeGame.new(config, seed + g)
        nat_actions += native.playout(seed + g)
        nat_ns += clock() - t0
    py_s = max(py_ns, 1) / 1e9
    nat_s = max(nat_ns, 1) / 1e9
    return NativeBenchResult(
        players=players,
        games=games,
        seed=seed,
        python_games_per_s=games / py_s,
        python_actions_per_s=py_actions / py_s,
        native_games_per_s=n_native / nat_s,
        native_actions_per_s=nat_actions / nat_s,
        python_legal_actions_median_us=statistics.median(la_py) / 1000 if la_py else 0.0,
        native_legal_actions_median_us=statistics.median(la_nat) / 1000 if la_nat else 0.0,
        native_listing_median_us=statistics.median(la_c) / 1000 if la_c else 0.0,
        python_mean_actions_per_game=py_actions / games,
        native_mean_actions_per_game=nat_actions / n_native,
        native_games=n_native,
        agree=agree,
    )


def _sample(config: GameConfig, seed: int, played: list[Any], every: int, la_py: list[int], la_nat: list[int], la_c: list[float]) -> None:
    """Time one full legal-action listing at every ``every``-th position of a game, in both engines."""
    clock = time.perf_counter_ns
    state, _ = new_game(config, seed)
    native = NativeGame.new(config, seed)
    core = native.core
    for i, action in enumerate(played):
        if i % every == 0:
            t0 = clock()
            legal_actions(state)
            t1 = clock()
            core.legal_ids()
            t2 = clock()
            la_py.append(t1 - t0)
            la_nat.append(t2 - t1)
            la_c.append(core.legal_ns(20))
        apply_unchecked(state, action, events=False)
        native.apply_id(encode(native.rules, action))
