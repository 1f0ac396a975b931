"""Self-play games through the research API, recorded as training positions (numpy only).

Every game is a :class:`~alhambra.research.TokenGame` (on the native core when it is built):
the players choose whole actions (the greedy evaluation, or with ``search`` iterations an
``mcts:hard`` search of that many iterations a move, with a random legal move now and then for
variety) and the game is driven token by token with :meth:`TokenGame.step`, the way a
learning agent drives it. At a share of the decisions every seat's position is recorded
as that seat sees it (:class:`~alhambra.bots.value_net.FeatureMap` of :meth:`TokenGame.view`:
never the deck or the bag) and, when the game is over, labelled with the outcome: each seat's
share of the win (1 for a sole winner, 1/k for k tied winners, 0 otherwise), in the seat order
relative to the viewer. Each recorded position also keeps the leaf rewards the hand-made
evaluation of ``mcts:hard`` gives it (``tree.reward_of`` of the tuned seat values, same order),
which a residual network learns to correct (:mod:`alhambra.bots.value_net`).
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

import numpy as np
import numpy.typing as npt

from ..bots import LEVELS, make_bot
from ..bots.base import Budget, EventLog, observe
from ..bots.greedy import DEFAULT_WEIGHTS, TUNED_WEIGHTS
from ..bots.native_search import evaluator, greedy_id
from ..bots.tree import _BAG_START
from ..bots.value_net import feature_map, hands_of
from ..native import core_module
from ..native.game import decode
from ..research import TokenGame
from ..state import GameConfig

__all__ = ["Batch", "play_games", "selfplay_game", "win_shares"]


@dataclass
class Batch:
    """Recorded positions: features ``x`` (rows, features), targets ``y`` (rows, players: win
    shares, viewer first), the number of the game each row comes from and the hand-made leaf
    rewards ``hand`` (rows, players, viewer first); ``q``: what the mover's search made of the
    position (the chosen move's mean reward: with two players each seat's win chance, viewer
    first; NaN where no search chose the move, or with more players)."""

    x: npt.NDArray[np.float32]
    y: npt.NDArray[np.float32]
    game: npt.NDArray[np.int64]
    hand: npt.NDArray[np.float32]
    q: npt.NDArray[np.float32]


def win_shares(scores: list[int]) -> list[float]:
    """Each seat's share of the win: 1/k for each of k seats with the top score, else 0."""
    top = max(scores)
    k = scores.count(top)
    return [1.0 / k if s == top else 0.0 for s in scores]


def selfplay_game(
    config: GameConfig, seed: int, epsilon: float, sample_rate: float, search: int = 0
) -> tuple[list[npt.NDArray[np.float32]], list[int], list[float], list[list[float]], list[list[float]]]:
    """Play one self-play game; return the recorded features, the viewer of each, the final
    win shares, the hand-made leaf rewards of each recorded position and its search values
    (see :class:`Batch`; absolute seat order). ``search``: the iterations of the ``mcts:hard``
    search that chooses each move (0: greedy)."""
    rng = random.Random(seed)
    game = TokenGame(config, seed)
    fmap = feature_map(config)
    weights = TUNED_WEIGHTS if search or rng.random() < 0.5 else DEFAULT_WEIGHTS
    hard = LEVELS["hard"]
    rows: list[npt.NDArray[np.float32]] = []
    viewers: list[int] = []
    hands: list[list[float]] = []
    values: list[list[float]] = []
    nan = float("nan")
    bot = make_bot(f"mcts:hard@iterations={search}+seconds=none") if search else None
    log = EventLog()
    log.extend(game.events)
    ev = None
    rewarder = None
    while not game.is_over:
        native = game.native
        if native is None:  # never in the base game (the native core covers it); explicit anyway
            raise RuntimeError("self-play needs the native core (build it: pip install -e .)")
        core = native.core
        if ev is None:
            ev = evaluator(game.state.components, weights)
            tuned = evaluator(game.state.components, TUNED_WEIGHTS)
            rewarder = core_module().Rewarder(tuned, True, hard.temperature, hard.temperature_early, _BAG_START)
        recorded = rng.random() < sample_rate
        if recorded:
            public = hands_of(game.state)
            assert rewarder is not None
            hand = [float(v) for v in rewarder(core, None)]
            for viewer in range(config.players):
                rows.append(fmap.of_view(game.view(viewer), public))
                viewers.append(viewer)
                hands.append(hand)
                values.append([nan] * config.players)
        if rng.random() < epsilon:
            ids = core.legal_ids(2)
            a = ids[int(rng.random() * len(ids))]
            action = decode(native.rules, a)
        elif bot is not None:
            mover = game.to_act
            assert mover is not None
            action = bot.choose(observe(game.state, mover, tuple(log.for_seat(mover))), Budget(search, None), rng)
            q = getattr(bot, "last_value", None)
            if recorded and q is not None and config.players == 2:
                values[-config.players :] = [[q if s == mover else 1.0 - q for s in range(2)]] * config.players
        else:
            action = decode(native.rules, greedy_id(core, rng, ev))
        for token in game.codec.encode(action):
            log.extend(game.step(token)[1])
    return rows, viewers, win_shares(list(game.state.scores)), hands, values


def _play_one(
    job: tuple[GameConfig, int, float, float, int],
) -> tuple[list[npt.NDArray[np.float32]], list[int], list[float], list[list[float]], list[list[float]]]:
    return selfplay_game(*job)


def play_games(config: GameConfig, seeds: list[int], epsilon: float, sample_rate: float, search: int = 0, workers: int = 1) -> Batch:
    """Self-play games with these seeds, as one batch of positions (in the order of the seeds).
    ``workers`` > 1 plays them in that many processes: the same batch, sooner."""
    n = config.players
    jobs = [(config, seed, epsilon, sample_rate, search) for seed in seeds]
    if workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=get_context("fork")) as pool:
            games = list(pool.map(_play_one, jobs))
    else:
        games = [_play_one(job) for job in jobs]
    xs: list[npt.NDArray[np.float32]] = []
    ys: list[list[float]] = []
    gs: list[int] = []
    hs: list[list[float]] = []
    qs: list[list[float]] = []
    for seed, (rows, viewers, shares, hands, values) in zip(seeds, games, strict=True):
        for row, v, hand, value in zip(rows, viewers, hands, values, strict=True):
            xs.append(row)
            ys.append([shares[(v + r) % n] for r in range(n)])
            hs.append([hand[(v + r) % n] for r in range(n)])
            qs.append([value[(v + r) % n] for r in range(n)])
            gs.append(seed)
    size = feature_map(config).size
    return Batch(
        np.stack(xs).astype(np.float32) if xs else np.zeros((0, size), np.float32),
        np.asarray(ys, np.float32).reshape(-1, n),
        np.asarray(gs, np.int64),
        np.asarray(hs, np.float32).reshape(-1, n),
        np.asarray(qs, np.float32).reshape(-1, n),
    )
