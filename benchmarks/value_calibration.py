#!/usr/bin/env python3
"""How well do the search's leaf values predict the winner? The hand-made soft win of mcts:hard,
the shipped value network, and mixes of the two, scored on positions of fresh games.

    python benchmarks/value_calibration.py [--players 2] [--games 200] [--seed 900000]
        [--sample-rate 0.15] [--save FILE.npy] [--weights FILE.npz]

Plays ``--games`` games of greedy bots (the tuned and the default weights, alternately, with a
random legal move one time in ten, as the network's self-play did, but on seeds the training
never used). At a share of the decisions it records, for the seat to act: the hand-made soft
win (``tree.reward_of`` of ``seat_values`` with the tuned weights, as ``mcts:hard``'s leaves
score it), the network's win chance as that seat sees the position, and the number of tiles
left in the bag; when the game ends each record gets the seat's share of the win. Prints the
log loss and the Brier score of each predictor (lower is better), overall and by stage (bag
tiles left), then a stacking check: a logistic regression fitted on the first 70% of the
positions (the earlier games), scored on the rest, with the hand-made value alone and with the
network's value beside it. What the second adds over the first is what the network knows that
the hand-made evaluation does not. ``--weights``: another network than the shipped one (a
residual network's value is its correction of the hand-made soft win: ``ValueNet.chances``).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra.bots.greedy import DEFAULT_WEIGHTS, TUNED_WEIGHTS, greedy_action, seat_values
from alhambra.bots.tree import MctsSettings, reward_of
from alhambra.bots.value_net import load

Floats = npt.NDArray[np.float64]


def record(players: int, games: int, seed: int, sample_rate: float, weights: str = "shipped") -> Floats:
    """Rows of (win share, hand-made value, network value, bag tiles left) for the seat to act."""
    net = load(weights)
    settings = MctsSettings()
    rows: list[tuple[float, float, float, int]] = []
    for g in range(games):
        rng = random.Random(seed + g)
        state, _ = new_game(GameConfig(players=players), seed + g)
        weights = TUNED_WEIGHTS if g % 2 else DEFAULT_WEIGHTS
        seen: list[tuple[int, float, float, int]] = []
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if rng.random() < sample_rate:
                hand = reward_of(seat_values(state, TUNED_WEIGHTS), False, len(state.bag), settings)
                seen.append((seat, hand[seat], net.chances(hand, state, seat)[seat], len(state.bag)))
            acts = legal_actions(state)
            action = acts[rng.randrange(len(acts))] if rng.random() < 0.1 else greedy_action(state, rng, weights)
            state, _ = apply(state, action)
        scores = list(state.scores)
        top = max(scores)
        share = [1.0 / scores.count(top) if s == top else 0.0 for s in scores]
        rows += [(share[seat], h, q, bag) for seat, h, q, bag in seen]
    return np.array(rows, dtype=np.float64)


def log_loss(p: Floats, y: Floats) -> float:
    """Mean binary cross-entropy (a shared win counts as its share)."""
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def brier(p: Floats, y: Floats) -> float:
    """Mean squared error of the win chance."""
    return float(((p - y) ** 2).mean())


def _logit(p: Floats) -> Floats:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    out: Floats = np.log(p / (1 - p))
    return out


def stacked(columns: list[Floats], y: Floats, cut: int) -> float:
    """Held-out log loss of a logistic regression on ``columns`` (fitted on rows before ``cut``)."""
    x = np.stack([np.ones_like(y), *columns], axis=1)
    w = np.zeros(x.shape[1])
    for _ in range(3000):  # plain gradient descent: a handful of weights, a few thousand rows
        p = 1 / (1 + np.exp(-x[:cut] @ w))
        w -= 0.5 * (x[:cut].T @ (p - y[:cut]) / cut + 1e-3 * w)
    return log_loss(1 / (1 + np.exp(-x[cut:] @ w)), y[cut:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=900_000, help="seed of the first game (training used seeds far below)")
    ap.add_argument("--sample-rate", type=float, default=0.15)
    ap.add_argument("--save", type=Path, default=None, help="also save the rows (numpy .npy)")
    ap.add_argument("--weights", default="shipped", help="the network's weights file (default: the shipped network)")
    args = ap.parse_args()
    if args.games < 10:
        print("--games must be at least 10", file=sys.stderr)
        return 2
    data = record(args.players, args.games, args.seed, args.sample_rate, args.weights)
    if args.save is not None:
        np.save(args.save, data)
    y, hand, net, bag = data.T
    print(f"{args.players} players, {args.games} games (seeds {args.seed}..{args.seed + args.games - 1}), {len(y)} positions")
    print(f"{'predictor':<24}{'log loss':>10}{'Brier':>9}   log loss by bag tiles left: 30+ / 15-29 / 0-14")
    stages = [bag >= 30, (bag >= 15) & (bag < 30), bag < 15]
    predictors = [
        ("hand-made (mcts:hard)", hand),
        ("network", net),
        ("mix, network 0.25", 0.75 * hand + 0.25 * net),
        ("mix, network 0.5", 0.5 * (hand + net)),
    ]
    for name, p in predictors:
        by_stage = " / ".join(f"{log_loss(p[m], y[m]):.3f}" for m in stages)
        print(f"{name:<24}{log_loss(p, y):>10.4f}{brier(p, y):>9.4f}   {by_stage}")
    cut = int(0.7 * len(y))
    print(f"stacked, fitted on the first {cut} positions, log loss on the other {len(y) - cut}:")
    alone = [_logit(hand), _logit(hand) * bag / 44]
    both = [*alone, _logit(net), _logit(net) * bag / 44]
    print(f"  hand-made alone (recalibrated)   {stacked(alone, y, cut):.4f}")
    print(f"  hand-made and network            {stacked(both, y, cut):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
