"""Tuning the greedy evaluation's :class:`~alhambra.bots.greedy.Weights` by self-play.

This is how :data:`~alhambra.bots.greedy.TUNED_WEIGHTS` were found, as a library (``alhambra
tune`` is its command line). Two greedy players with **full information** (they see the real
state: tuning compares evaluations, not guesses about hidden cards) play **matches**: every deal
twice, once in each seat, so the deal and the seat cancel out. Game ``2 * d + s`` of a match
uses deal seed ``seed + d`` with the candidate in seat ``s``, and both seats draw their tie
breaks from ``random.Random("SEED/DEAL/SEAT")``. Two equal weight sets therefore play the same
game twice with the candidate on either side, so a match between equal weights is exactly even.

The **coordinate search** goes over the parameters in order. It multiplies one by each factor
(0.6 and 1.6 by default) and keeps the change when the candidate wins at least ``threshold``
of a match against the current weights, with a positive mean margin. A kept change is pushed
again by the same factor until it fails (at most ``pushes`` times); a pass over all parameters is repeated until it keeps
nothing (or ``passes`` is reached). Every match of one search uses the same deals, so the
comparisons are paired.

A game still running after ``turn_limit`` turns (two full-information players can undo each
other's redesigns for ever) is stopped and counts as a draw; the figures count such games.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

from ..engine import apply_unchecked, new_game
from ..state import GameConfig
from .greedy import Weights, greedy_action

__all__ = ["PARAMETERS", "Match", "Step", "check_parameters", "get_parameter", "play_match", "search", "with_parameter"]

PARAMETERS: tuple[str, ...] = (
    "money",
    "money_late",
    "round_weights[1]",
    "round_weights[2]",
    "reserve_share",
    "buy_power",
    "exact_power",
    "room",
    "room_cap",
    "tempo",
    "lead_blend",
)
"""The tunable parameters, in search order. ``round_weights[0]`` (the next scoring round) is the
unit of the others and stays 1; ``lead_blend`` only matters with 3 or more players."""


def check_parameters(names: Sequence[str]) -> None:
    """``ValueError`` naming every unknown parameter (or none given)."""
    unknown = [n for n in names if n not in PARAMETERS]
    if unknown or not names:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown) or '(none given)'}; known: {', '.join(PARAMETERS)}")


def get_parameter(weights: Weights, name: str) -> float:
    """The value of parameter ``name`` (one of :data:`PARAMETERS`)."""
    check_parameters([name])
    if name.startswith("round_weights["):
        return weights.round_weights[_round_index(name)]
    value: float = getattr(weights, name)
    return value


def with_parameter(weights: Weights, name: str, value: float) -> Weights:
    """A copy of ``weights`` with parameter ``name`` set to ``value``."""
    check_parameters([name])
    if name.startswith("round_weights["):
        rounds = list(weights.round_weights)
        rounds[_round_index(name)] = value
        return dataclasses.replace(weights, round_weights=(rounds[0], rounds[1], rounds[2]))
    changes: dict[str, Any] = {name: value}
    return dataclasses.replace(weights, **changes)


def _round_index(name: str) -> int:
    return int(name[len("round_weights[") : -1])


@dataclass(frozen=True)
class Match:
    """The result of a match, from the candidate's side."""

    games: int
    wins: float
    """A shared win (equal scores, or a game stopped by the turn limit) counts a half."""
    margin: float
    """Mean of the candidate's score minus the other's."""
    stopped: int
    """Games stopped by the turn limit."""

    @property
    def win_rate(self) -> float:
        """Share of the games the candidate won."""
        return self.wins / self.games if self.games else 0.0


def _play(args: tuple[Weights, Weights, int, int, int, int]) -> tuple[float, int, bool]:
    """One game: (candidate's win share, candidate's margin, stopped by the turn limit)."""
    candidate, other, seed, deal, seat, turn_limit = args
    state, _ = new_game(GameConfig(players=2, turn_limit=turn_limit), seed + deal)
    weights = [other, other]
    weights[seat] = candidate
    rngs = [random.Random(f"{seed}/{deal}/{s}") for s in range(2)]
    while state.outcome is None:
        actor = state.to_act
        assert actor is not None
        apply_unchecked(state, greedy_action(state, rngs[actor], weights[actor]), events=False)
    mine, theirs = state.scores[seat], state.scores[1 - seat]
    if state.outcome == "truncated":
        return 0.5, mine - theirs, True
    return (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0), mine - theirs, False


def play_match(candidate: Weights, other: Weights, deals: int, seed: int = 0, workers: int | None = 1, turn_limit: int = 300) -> Match:
    """Play ``deals`` deals twice (both seats) between two weight sets; see the module docstring."""
    if deals < 1:
        raise ValueError("a match needs at least one deal")
    tasks = [(candidate, other, seed, d, s, turn_limit) for d in range(deals) for s in range(2)]
    n = max(1, min(workers if workers is not None else (os.cpu_count() or 1), len(tasks)))
    if n == 1:
        games = [_play(t) for t in tasks]
    else:
        with get_context("fork").Pool(n) as pool:
            games = pool.map(_play, tasks, chunksize=max(1, len(tasks) // (8 * n)))
    return Match(
        games=len(games),
        wins=sum(g[0] for g in games),
        margin=sum(g[1] for g in games) / len(games),
        stopped=sum(1 for g in games if g[2]),
    )


@dataclass(frozen=True)
class Step:
    """One candidate tried by the search."""

    parameter: str
    factor: float
    value: float
    match: Match
    kept: bool


def search(
    start: Weights,
    deals: int,
    seed: int = 0,
    parameters: Sequence[str] = PARAMETERS,
    factors: Sequence[float] = (0.6, 1.6),
    threshold: float = 0.525,
    passes: int = 3,
    workers: int | None = 1,
    turn_limit: int = 300,
    on_step: Callable[[Step, Weights], None] | None = None,
    pushes: int = 6,
) -> tuple[Weights, list[Step]]:
    """Coordinate search from ``start``; returns the final weights and every step tried.

    ``on_step(step, current)`` is called after each match with the weights current after it.
    """
    check_parameters(parameters)
    if not 0 < threshold <= 1:
        raise ValueError("the threshold is a share of the games, above 0 and at most 1")
    if any(f <= 0 or f == 1 for f in factors):
        raise ValueError("factors must be positive and not 1")
    current = start
    steps: list[Step] = []
    for _ in range(passes):
        changed = False
        for p in parameters:
            for f in factors:
                for _push in range(pushes):
                    value = round(get_parameter(current, p) * f, 6)
                    candidate = with_parameter(current, p, value)
                    m = play_match(candidate, current, deals, seed, workers, turn_limit)
                    kept = m.win_rate >= threshold and m.margin > 0
                    if kept:
                        current = candidate
                        changed = True
                    step = Step(p, f, value, m, kept)
                    steps.append(step)
                    if on_step is not None:
                        on_step(step, current)
                    if not kept:
                        break
        if not changed:
            break
    return current, steps
