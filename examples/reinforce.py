"""A minimal training loop: REINFORCE with a masked linear softmax policy (numpy only).

    python examples/reinforce.py --episodes 200 --opponents random

One seat of a 2-player game against the project's bots (alhambra.gymnasium). The policy never
picks an illegal token: the softmax runs over ``info["action_mask"]`` only. It is a template for
wiring up a real learner, not a strong player.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import alhambra.gymnasium  # noqa: F401  (registers alhambra/Alhambra-v0)


def train(episodes: int, opponents: str, seed: int = 0, lr: float = 0.01) -> list[float]:
    """Train for ``episodes`` games; returns the final reward of each."""
    env = gymnasium.make("alhambra/Alhambra-v0", players=2, opponents=opponents)
    n_obs = env.observation_space.shape[0]
    n_act = int(env.action_space.n)
    rng = np.random.default_rng(seed)
    weights = np.zeros((n_obs, n_act), np.float32)
    baseline = 0.0
    results: list[float] = []
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        # per step: the non-zero features and their values, the legal tokens, the choice, the probabilities
        trajectory: list[tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]] = []
        done = False
        reward = 0.0
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            active = np.flatnonzero(obs)  # observations are sparse: use the non-zero features only
            logits = obs[active] @ weights[np.ix_(active, legal)]
            probs = np.exp(logits - logits.max())
            probs /= probs.sum()
            choice = int(rng.choice(len(legal), p=probs))
            trajectory.append((active, obs[active], legal, choice, probs))
            obs, reward, terminated, truncated, info = env.step(int(legal[choice]))
            done = terminated or truncated
        advantage = float(reward) - baseline
        baseline += 0.05 * (float(reward) - baseline)
        for active, values, legal, choice, probs in trajectory:
            grad = -probs
            grad[choice] += 1.0
            weights[np.ix_(active, legal)] += (lr * advantage) * np.outer(values, grad).astype(np.float32)
        results.append(float(reward))
    env.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--opponents", default="random")
    args = parser.parse_args()
    results = train(args.episodes, args.opponents)
    window = max(1, len(results) // 5)
    for i in range(0, len(results), window):
        chunk = results[i : i + window]
        print(f"episodes {i + 1}-{i + len(chunk)}: mean reward {np.mean(chunk):+.2f}")


if __name__ == "__main__":
    main()
