"""Engine benchmark: random games through the checked and the unchecked transition path.

Each game ``i`` is dealt with seed ``seed + i`` and played by a uniform random policy: a
``random.Random(seed + i)`` chooses uniformly among :func:`~alhambra.engine.legal_actions`.
The same games are played twice:

* the checked path: ``state, events = apply(state, action)`` (copies and checks every action);
* the unchecked fast path: ``apply_unchecked(state, action)`` (in place, no checks).

Both paths see the same seeds and the same choices, so they play the same games; the figures
say whether they did (``paths_agree``). Per-call medians come from timing a sample of
individual calls (every ``sample_every``-th step) with :func:`time.perf_counter_ns`; the timing
of the sampled calls is part of the game time, which makes games/s slightly pessimistic.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import asdict, dataclass
from typing import Any

from .engine import apply, apply_unchecked, legal_actions, new_game
from .state import GameConfig, GameState

__all__ = ["BenchResult", "run_bench"]


@dataclass(frozen=True, slots=True)
class BenchResult:
    """Benchmark figures (times in seconds unless the name says ``_us``)."""

    players: int
    games: int
    seed: int
    actions: int
    """Actions played over all games (checked path)."""
    games_per_s: float
    """Games per second on the checked path (``apply``), legal-action listing included."""
    actions_per_s: float
    """Actions per second on the checked path, legal-action listing included."""
    mean_actions_per_game: float
    legal_actions_median_us: float
    """Median time of one ``legal_actions`` call."""
    apply_median_us: float
    """Median time of one checked ``apply`` call."""
    unchecked_games_per_s: float
    """Games per second on the fast path (``apply_unchecked``), legal-action listing included."""
    unchecked_actions_per_s: float
    apply_unchecked_median_us: float
    """Median time of one ``apply_unchecked`` call."""
    checked_seconds: float
    unchecked_seconds: float
    paths_agree: bool
    """True when both paths played the same games to the same final scores."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return asdict(self)


def _stuck(state: GameState) -> RuntimeError:
    return RuntimeError(f"no legal action in an unfinished game (turn {state.turn}, stage {state.stage})")


def _median_us(samples: list[int]) -> float:
    return statistics.median(samples) / 1000 if samples else 0.0


def run_bench(players: int = 4, games: int = 50, seed: int = 0, sample_every: int = 3) -> BenchResult:
    """Play ``games`` random games on both paths and return the figures.

    Raises :class:`~alhambra.errors.ConfigError` for an impossible player count and
    ``ValueError`` for a non-positive number of games.
    """
    if games < 1:
        raise ValueError("play at least one game")
    if sample_every < 1:
        raise ValueError("sample_every must be at least 1")
    config = GameConfig(players=players)
    clock = time.perf_counter_ns

    # ---- checked path
    la_samples: list[int] = []
    ap_samples: list[int] = []
    checked_ns = 0
    actions = 0
    checked_results: list[tuple[int, tuple[int, ...]]] = []
    for g in range(games):
        rng = random.Random(seed + g)
        start = clock()
        state, _ = new_game(config, seed + g)
        n = 0
        while not state.is_over:
            if n % sample_every == 0:
                t0 = clock()
                acts = legal_actions(state)
                t1 = clock()
                if not acts:
                    raise _stuck(state)
                action = rng.choice(acts)
                t2 = clock()
                state, _ = apply(state, action)
                t3 = clock()
                la_samples.append(t1 - t0)
                ap_samples.append(t3 - t2)
            else:
                acts = legal_actions(state)
                if not acts:
                    raise _stuck(state)
                state, _ = apply(state, rng.choice(acts))
            n += 1
        checked_ns += clock() - start
        actions += n
        checked_results.append((n, tuple(state.scores)))

    # ---- unchecked fast path
    un_samples: list[int] = []
    unchecked_ns = 0
    unchecked_actions = 0
    unchecked_results: list[tuple[int, tuple[int, ...]]] = []
    for g in range(games):
        rng = random.Random(seed + g)
        start = clock()
        state, _ = new_game(config, seed + g)
        n = 0
        while not state.is_over:
            acts = legal_actions(state)
            if not acts:
                raise _stuck(state)
            action = rng.choice(acts)
            if n % sample_every == 0:
                t0 = clock()
                apply_unchecked(state, action)
                un_samples.append(clock() - t0)
            else:
                apply_unchecked(state, action)
            n += 1
        unchecked_ns += clock() - start
        unchecked_actions += n
        unchecked_results.append((n, tuple(state.scores)))

    checked_s = max(checked_ns, 1) / 1e9
    unchecked_s = max(unchecked_ns, 1) / 1e9
    return BenchResult(
        players=players,
        games=games,
        seed=seed,
        actions=actions,
        games_per_s=games / checked_s,
        actions_per_s=actions / checked_s,
        mean_actions_per_game=actions / games,
        legal_actions_median_us=_median_us(la_samples),
        apply_median_us=_median_us(ap_samples),
        unchecked_games_per_s=games / unchecked_s,
        unchecked_actions_per_s=unchecked_actions / unchecked_s,
        apply_unchecked_median_us=_median_us(un_samples),
        checked_seconds=checked_s,
        unchecked_seconds=unchecked_s,
        paths_agree=checked_results == unchecked_results,
    )
