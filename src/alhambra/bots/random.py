"""The random bot: uniform among the legal actions of its view (the baseline)."""

from __future__ import annotations

import random

from ..actions import Action
from .base import Budget, Observation, fallback_action

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions listed in its view."""

    def __init__(self, name: str = "random") -> None:
        self.name = name
        self.budget = Budget()

    def choose(self, obs: Observation, budget: Budget, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return fallback_action(obs, rng, "") if not obs.legal else _pick(obs, rng)


def _pick(obs: Observation, rng: random.Random) -> Action:
    from ..actions import parse_action

    legal = obs.legal
    return parse_action(legal[int(rng.random() * len(legal))])
