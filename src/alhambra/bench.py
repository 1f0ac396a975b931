"""Engine benchmark: random games through the checked and the unchecked transition path.

Game ``i`` is dealt with seed ``seed + i`` and played by a random policy from
:mod:`alhambra.policies` driven by ``random.Random(seed + i)``: by default ``kinds`` (a uniform
kind of move, then a uniform move of that kind), or ``uniform`` (uniform over every legal
action). The same games are played twice:

* the checked path: ``state, events = apply(state, action)`` (copies and checks every action);
* the unchecked fast path: ``apply_unchecked(state, action, events=False)`` (in place, no
  checks, no events: what a search uses).

Both paths see the same seeds and choices, so they play the same games (``paths_agree``).
Game times cover choosing (the policy's legal-action generation) and applying, and are CPU
time of this process (``time.process_time``), so other work on a busy machine does not count
against the engine; the figures are for one core, as the benchmark runs in one thread. The per-call
medians come from a separate timed sample of every ``sample_every``-th position: the full
``legal_actions(state)`` listing and one checked ``apply``; that sampling is not part of the
game times.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from .actions import Action
from .engine import apply, apply_unchecked, legal_actions, new_game
from .policies import POLICIES
from .state import GameConfig, GameState

__all__ = ["BenchResult", "run_bench"]


@dataclass(frozen=True, slots=True)
class BenchResult:
    """Benchmark figures (times in seconds unless the name says ``_us``)."""

    players: int
    games: int
    seed: int
    policy: str
    modules: tuple[str, ...]
    actions: int
    """Actions played over all games."""
    games_per_s: float
    """Games per second on the checked path (``apply``), choosing included."""
    actions_per_s: float
    """Actions per second on the checked path, choosing included."""
    mean_actions_per_game: float
    legal_actions_median_us: float
    """Median time of one full ``legal_actions(state)`` call."""
    apply_median_us: float
    """Median time of one checked ``apply`` call."""
    unchecked_games_per_s: float
    """Games per second on the fast path (``apply_unchecked``), choosing included."""
    unchecked_actions_per_s: float
    apply_unchecked_median_us: float
    """Median time of one ``apply_unchecked`` call."""
    checked_seconds: float
    unchecked_seconds: float
    paths_agree: bool
    """True when both paths played the same games to the same final scores."""
    game: str = "alhambra"
    """The game of the family (in the JSON only when not Alhambra)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures."""
        out = asdict(self)
        if self.game == "alhambra":
            del out["game"]
        return out


def _median_us(samples: list[int]) -> float:
    return statistics.median(samples) / 1000 if samples else 0.0


Policy = Callable[[GameState, random.Random], Action]


def _play(config: GameConfig, seed: int, policy: Policy, checked: bool) -> tuple[int, tuple[int, ...], int]:
    """One game; returns (actions, final scores, nanoseconds of CPU time)."""
    clock = time.process_time_ns
    rng = random.Random(seed)
    start = clock()
    state, _ = new_game(config, seed)
    n = 0
    if checked:
        while not state.is_over:
            state, _ = apply(state, policy(state, rng))
            n += 1
    else:
        while not state.is_over:
            apply_unchecked(state, policy(state, rng), events=False)
            n += 1
    return n, tuple(state.scores), clock() - start


def _sample_calls(config: GameConfig, seed: int, policy: Policy, every: int) -> tuple[list[int], list[int], list[int]]:
    """Replay one game and time single calls at every ``every``-th position."""
    clock = time.perf_counter_ns
    rng = random.Random(seed)
    state, _ = new_game(config, seed)
    la: list[int] = []
    ap: list[int] = []
    un: list[int] = []
    n = 0
    while not state.is_over:
        action = policy(state, rng)
        if n % every == 0:
            t0 = clock()
            legal_actions(state)
            t1 = clock()
            apply(state, action)
            t2 = clock()
            spare = state.copy()
            t3 = clock()
            apply_unchecked(spare, action, events=False)
            t4 = clock()
            la.append(t1 - t0)
            ap.append(t2 - t1)
            un.append(t4 - t3)
        apply_unchecked(state, action, events=False)
        n += 1
    return la, ap, un


def run_bench(
    players: int = 4,
    games: int = 50,
    seed: int = 0,
    policy: str = "kinds",
    sample_every: int = 3,
    modules: tuple[str, ...] = (),
    game: str = "alhambra",
) -> BenchResult:
    """Play ``games`` random games on both paths and return the figures.

    Raises :class:`~alhambra.errors.ConfigError` for an impossible player count and
    ``ValueError`` for a non-positive number of games or an unknown policy.
    """
    if games < 1:
        raise ValueError("play at least one game")
    if sample_every < 1:
        raise ValueError("sample_every must be at least 1")
    chooser = POLICIES.get(policy)
    if chooser is None:
        raise ValueError(f"unknown policy {policy!r} (choose from {', '.join(POLICIES)})")
    config = GameConfig(players=players, modules=tuple(modules), game=game)

    checked_ns = 0
    actions = 0
    checked_results: list[tuple[int, tuple[int, ...]]] = []
    for g in range(games):
        n, scores, ns = _play(config, seed + g, chooser, True)
        checked_ns += ns
        actions += n
        checked_results.append((n, scores))

    unchecked_ns = 0
    unchecked_results: list[tuple[int, tuple[int, ...]]] = []
    for g in range(games):
        n, scores, ns = _play(config, seed + g, chooser, False)
        unchecked_ns += ns
        unchecked_results.append((n, scores))

    la: list[int] = []
    ap: list[int] = []
    un: list[int] = []
    for g in range(min(games, 10)):
        a, b, c = _sample_calls(config, seed + g, chooser, sample_every)
        la += a
        ap += b
        un += c

    checked_s = max(checked_ns, 1) / 1e9
    unchecked_s = max(unchecked_ns, 1) / 1e9
    return BenchResult(
        players=players,
        games=games,
        seed=seed,
        policy=policy,
        modules=config.modules,
        game=game,
        actions=actions,
        games_per_s=games / checked_s,
        actions_per_s=actions / checked_s,
        mean_actions_per_game=actions / games,
        legal_actions_median_us=_median_us(la),
        apply_median_us=_median_us(ap),
        unchecked_games_per_s=games / unchecked_s,
        unchecked_actions_per_s=actions / unchecked_s,
        apply_unchecked_median_us=_median_us(un),
        checked_seconds=checked_s,
        unchecked_seconds=unchecked_s,
        paths_agree=checked_results == unchecked_results,
    )
