"""Self-play games through the research API, recorded as training positions (numpy only).

Every game is a :class:`~alhambra.research.TokenGame` (on the native core when it is built):
the players choose whole actions (the greedy evaluation, with a random legal move now and
then for variety) and the game is driven token by token with :meth:`TokenGame.step`, the
way a learning agent drives it. At a share of the decisions every seat's position is recorded
as that seat sees it (:class:`~alhambra.bots.value_net.FeatureMap` of :meth:`TokenGame.view`:
never the deck or the bag) and, when the game is over, labelled with the outcome: each seat's
share of the win (1 for a sole winner, 1/k for k tied winners, 0 otherwise), in the seat order
relative to the viewer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..bots.greedy import DEFAULT_WEIGHTS, TUNED_WEIGHTS
from ..bots.native_search import evaluator, greedy_id
from ..bots.value_net import feature_map, hands_of
from ..native.game import decode
from ..research import TokenGame
from ..state import GameConfig

__all__ = ["Batch", "play_games", "selfplay_game", "win_shares"]


@dataclass
class Batch:
    """Recorded positions: features ``x`` (rows, features), targets ``y`` (rows, players: win
    shares, viewer first) and the number of the game each row comes from."""

    x: npt.NDArray[np.float32]
    y: npt.NDArray[np.float32]
    game: npt.NDArray[np.int64]


def win_shares(scores: list[int]) -> list[float]:
    """Each seat's share of the win: 1/k for each of k seats with the top score, else 0."""
    top = max(scores)
    k = scores.count(top)
    return [1.0 / k if s == top else 0.0 for s in scores]


def selfplay_game(
    config: GameConfig, seed: int, epsilon: float, sample_rate: float
) -> tuple[list[npt.NDArray[np.float32]], list[int], list[float]]:
    """Play one self-play game; return the recorded features, the viewer of each and the
    final win shares (absolute seat order)."""
    rng = random.Random(seed)
    game = TokenGame(config, seed)
    fmap = feature_map(config)
    weights = TUNED_WEIGHTS if rng.random() < 0.5 else DEFAULT_WEIGHTS
    rows: list[npt.NDArray[np.float32]] = []
    viewers: list[int] = []
    ev = None
    while not game.is_over:
        if rng.random() < sample_rate:
            hands = hands_of(game.state)
            for seat in range(config.players):
                rows.append(fmap.of_view(game.view(seat), hands))
                viewers.append(seat)
        native = game.native
        if native is None:  # never in the base game (the native core covers it); explicit anyway
            raise RuntimeError("self-play needs the native core (build it: pip install -e .)")
        core = native.core
        if ev is None:
            ev = evaluator(game.state.components, weights)
        if rng.random() < epsilon:
            ids = core.legal_ids(2)
            a = ids[int(rng.random() * len(ids))]
        else:
            a = greedy_id(core, rng, ev)
        for token in game.codec.encode(decode(native.rules, a)):
            game.step(token)
    return rows, viewers, win_shares(list(game.state.scores))


def play_games(config: GameConfig, seeds: list[int], epsilon: float, sample_rate: float) -> Batch:
    """Self-play games with these seeds, as one batch of positions."""
    n = config.players
    xs: list[npt.NDArray[np.float32]] = []
    ys: list[list[float]] = []
    gs: list[int] = []
    for seed in seeds:
        rows, viewers, shares = selfplay_game(config, seed, epsilon, sample_rate)
        for row, v in zip(rows, viewers, strict=True):
            xs.append(row)
            ys.append([shares[(v + r) % n] for r in range(n)])
            gs.append(seed)
    size = feature_map(config).size
    return Batch(
        np.stack(xs).astype(np.float32) if xs else np.zeros((0, size), np.float32),
        np.asarray(ys, np.float32).reshape(-1, n),
        np.asarray(gs, np.int64),
    )
