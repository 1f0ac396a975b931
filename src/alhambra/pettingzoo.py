"""Alhambra as a PettingZoo AEC environment (install the extra: ``pip install 'alhambra[rl]'``).

>>> from alhambra.pettingzoo import env
>>> e = env(players=3)
>>> e.reset(seed=42)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are ``player_0`` ... ``player_{n-1}`` (seat numbers). The acting agent is the seat the
game waits for; it keeps the move while it spells one engine action token by token
(:mod:`alhambra.research.encoding`), so the same agent may act several times in a row, and out
of turn when a module asks (an offer between turns).

* Observation: ``{"observation": float32 vector in [0, 1], "action_mask": int8 vector}``; the
  vector is :class:`~alhambra.research.observation.ObservationEncoder` of the agent's own view
  (nothing hidden leaks), the mask marks the legal tokens (all zero unless the agent is to act).
* Action: ``Discrete(num_tokens)``; an illegal token raises
  :class:`~alhambra.errors.IllegalAction`.
* Rewards: 0 during the game; at the end every agent receives its normalised rank reward
  (:func:`~alhambra.research.session.rank_rewards`, zero-sum). A finished game terminates every
  agent; a game stopped by ``turn_limit`` truncates them.
* Seeds: ``reset(seed=s)`` deals the engine game with seed ``s``, so the same seed and the same
  actions give the same episode; ``reset()`` without a seed draws the next game seed from the
  environment's generator.
* ``render()`` with ``render_mode="ansi"`` returns a text picture of the public table (the
  spectator's view: hands show only as card counts) and the tokens chosen so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from .research.encoding import codec_for
from .research.observation import DEFAULT_GRID, ObservationEncoder, render_view
from .research.session import CORES, TokenGame
from .state import GameConfig

__all__ = ["AlhambraAEC", "env", "raw_env"]


class AlhambraAEC(AECEnv):
    """The AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "alhambra_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 2,
        modules: Sequence[str] = (),
        turn_limit: int | None = None,
        render_mode: str | None = None,
        grid: int = DEFAULT_GRID,
        game: str = "alhambra",
        core: str = "auto",
    ) -> None:
        super().__init__()
        if core not in CORES:
            raise ValueError(f"core must be one of {', '.join(CORES)}")
        self.core = core
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.config = GameConfig(players=players, modules=tuple(modules), turn_limit=turn_limit, game=game)
        self.codec = codec_for(self.config)
        self.encoder = ObservationEncoder.for_config(self.config, self.codec, grid)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.codec.num_tokens,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.codec.num_tokens) for a in self.possible_agents}
        self.game: TokenGame | None = None
        self.np_random, _ = seeding.np_random(None)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The same space object for every call."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(num_tokens)``."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (with engine seed ``seed`` when given)."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.game = TokenGame(self.config, game_seed, self.codec, self.core)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The agent's observation vector and action mask."""
        game = self._game()
        seat = self.possible_agents.index(agent)
        obs = self.encoder.encode(game.view(seat), game.prefix)
        mask = game.mask() if game.to_act == seat else np.zeros(self.codec.num_tokens, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play one token for the acting agent (None for an agent whose game has ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        game.step(int(action))
        if game.is_over:
            for a, r in zip(self.possible_agents, game.returns(), strict=True):
                self.rewards[a] = r
            truncated = game.state.outcome == "truncated"
            self.terminations = dict.fromkeys(self.agents, not truncated)
            self.truncations = dict.fromkeys(self.agents, truncated)
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The public table as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        game = self._game()
        return render_view(game.view(None), self.codec.describe(game.prefix))

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ helpers
    def _game(self) -> TokenGame:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _select(self) -> None:
        game = self._game()
        seat = game.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]


def raw_env(**kwargs: Any) -> AlhambraAEC:
    """The environment without wrappers."""
    return AlhambraAEC(**kwargs)


def env(**kwargs: Any) -> AlhambraAEC:
    """The environment (``players``, ``modules``, ``turn_limit``, ``render_mode``, ``grid``, ``game``, ``core``)."""
    return AlhambraAEC(**kwargs)
