"""Alhambra as a single-agent Gymnasium environment (install the extra: ``pip install 'alhambra[rl]'``).

The agent plays one seat; the other seats are played by the project's bots
(:func:`alhambra.bots.make_bot`: ``"random"``, ``"greedy"``, ``"mcts:easy"``, ...), or by the
random policies of :mod:`alhambra.policies` (``"kinds"``, ``"uniform"``) when the bots package is
not available.

>>> import gymnasium, alhambra.gymnasium
>>> env = gymnasium.make("alhambra/Alhambra-v0", players=3, opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].nonzero()[0][0]))

* Observation: a ``float32`` vector in ``[0, 1]``
  (:class:`~alhambra.research.observation.ObservationEncoder` of the agent's own view).
* Action: ``Discrete(num_tokens)``, one sub-decision token (:mod:`alhambra.research.encoding`);
  ``info["action_mask"]`` marks the legal ones. An illegal token forfeits the game
  (``illegal="forfeit"``: reward -1, the episode terminates) or, with ``illegal="ignore"``,
  changes nothing and earns ``illegal_reward``.
* Reward: 0 during the game, the seat's normalised rank reward at the end (1 for a lone win,
  -1 for the lone last place); a game stopped by ``turn_limit`` is truncated.
* ``info``: ``action_mask``, ``seat``, ``action`` (the engine action the token completed, if
  any) and ``illegal``.
* Seeds: ``reset(seed=s)`` fixes the deal, the agent's seat (with ``seat="random"``) and the
  bots' random choices, so the same seed and actions reproduce the episode (as long as the bots
  have no time budget: the MCTS levels stop on the clock unless given ``@seconds=none``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt

from .actions import Action
from .events import Event
from .policies import POLICIES
from .research.encoding import codec_for
from .research.observation import DEFAULT_GRID, ObservationEncoder, render_view
from .research.session import CORES, TokenGame
from .state import GameConfig, GameState
from .view import view, view_events

__all__ = ["ENV_ID", "AlhambraEnv", "Opponent", "make_opponent"]

ENV_ID: Final = "alhambra/Alhambra-v0"

Opponent = Callable[[GameState, int, Sequence[dict[str, Any]], random.Random], Action]
"""Chooses an action for ``seat`` from the state (only its view and the public events are used)."""


def make_opponent(spec: str) -> Opponent:
    """An opponent from a bot spec (``"greedy"``, ``"mcts:easy"``...) or a policy name
    (``"kinds"``, ``"uniform"``). Bots see only their view and the public events."""
    if spec in POLICIES:
        policy = POLICIES[spec]

        def play_policy(state: GameState, seat: int, events: Sequence[dict[str, Any]], rng: random.Random) -> Action:
            return policy(state, rng)

        return play_policy
    try:
        from .bots import Observation, make_bot
    except ImportError as e:  # pragma: no cover - the bots package ships with alhambra
        raise ValueError(f"unknown opponent {spec!r} (no bots available; use one of {sorted(POLICIES)})") from e
    bot = make_bot(spec)

    def play_bot(state: GameState, seat: int, events: Sequence[dict[str, Any]], rng: random.Random) -> Action:
        return bot.choose(Observation(seat, view(state, seat), tuple(events)), bot.budget, rng)

    return play_bot


class AlhambraEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of Alhambra against bots (see the module docstring).

    ``seat``: the agent's seat (0-based) or ``"random"`` (drawn at every reset). ``opponents``:
    one spec for every other seat, or one per other seat in seat order.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - gymnasium.Env declares an attribute

    def __init__(
        self,
        players: int = 2,
        modules: Sequence[str] = (),
        turn_limit: int | None = None,
        seat: int | str = 0,
        opponents: str | Sequence[str] = "greedy",
        illegal: str = "forfeit",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        grid: int = DEFAULT_GRID,
        game: str = "alhambra",
        core: str = "auto",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        if illegal not in ("forfeit", "ignore"):
            raise ValueError("illegal must be 'forfeit' or 'ignore'")
        if not (seat == "random" or (isinstance(seat, int) and 0 <= seat < players)):
            raise ValueError(f"seat must be 0-{players - 1} or 'random'")
        self.config = GameConfig(players=players, modules=tuple(modules), turn_limit=turn_limit, game=game)
        self.codec = codec_for(self.config)
        self.encoder = ObservationEncoder.for_config(self.config, self.codec, grid)
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"give one opponent spec, or {players - 1} (one per other seat)")
        self.opponent_specs = tuple(specs)
        if core not in CORES:
            raise ValueError(f"core must be one of {', '.join(CORES)}")
        self.core = core
        """The engine of the games (see :data:`~alhambra.research.session.CORES`): the native
        core makes the Python engine's events too, so every opponent plays on it."""
        self._opponents = [make_opponent(s) for s in specs]
        self.seat_choice = seat
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.codec.num_tokens)
        self.game: TokenGame | None = None
        self.seat = 0 if seat == "random" else int(seat)
        self._rng = random.Random(0)
        self._log: list[Event] = []
        self._seen: dict[int, list[dict[str, Any]]] = {}
        self._forfeited = False

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new game and let the bots play until the agent's first decision."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**31 - 1))
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(0, self.config.players))
        self._rng = random.Random(game_seed)
        self.game = TokenGame(self.config, game_seed, self.codec, self.core)
        self._log = list(self.game.events)
        self._seen = {}
        self._forfeited = False
        self._play_opponents()
        return self._obs(), self._info(None, False)

    def step(self, action: int | np.integer[Any]) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play one token; the bots then play until the agent must decide again or the game ends."""
        game = self._require_game()
        if game.is_over or self._forfeited:
            raise RuntimeError("the episode has ended; call reset()")
        token = int(action)
        if token not in game.legal_tokens():
            if self.illegal == "forfeit":
                self._forfeited = True
                return self._obs(), -1.0, True, False, self._info(None, True)
            return self._obs(), self.illegal_reward, False, False, self._info(None, True)
        done, events = game.step(token)
        self._log.extend(events)
        self._play_opponents()
        reward = 0.0
        terminated = truncated = False
        if game.is_over:
            reward = game.returns()[self.seat]
            truncated = game.state.outcome == "truncated"
            terminated = not truncated
        return self._obs(), reward, terminated, truncated, self._info(done, False)

    def render(self) -> str | None:
        """The public table as text (``render_mode="ansi"``), from the agent's seat."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        game = self._require_game()
        return render_view(game.view(self.seat), self.codec.describe(game.prefix))

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ helpers
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal tokens as booleans (the method name sb3-contrib's MaskablePPO looks for)."""
        return self._mask().astype(bool)

    def _require_game(self) -> TokenGame:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _play_opponents(self) -> None:
        game = self._require_game()
        while not game.is_over and game.to_act != self.seat:
            seat = game.to_act
            assert seat is not None
            index = seat if seat < self.seat else seat - 1
            action = self._opponents[index](game.state, seat, self.events_seen_by(seat), self._rng)
            self._log.extend(game.play(action))

    def events_seen_by(self, seat: int) -> list[dict[str, Any]]:
        """The game's events so far as ``seat`` may see them (:func:`alhambra.view.view_events`:
        its own private events in full, the other seats' redacted): what its opponent bot reads."""
        got = self._seen.setdefault(seat, [])
        if len(got) < len(self._log):
            got.extend(view_events(self._log[len(got) :], seat))
        return got

    def _mask(self) -> npt.NDArray[np.int8]:
        game = self._require_game()
        if game.to_act != self.seat or self._forfeited:
            return np.zeros(self.codec.num_tokens, np.int8)
        return game.mask()

    def _obs(self) -> npt.NDArray[np.float32]:
        game = self._require_game()
        return self.encoder.encode(game.view(self.seat), game.prefix)

    def _info(self, action: Action | None, illegal: bool) -> dict[str, Any]:
        return {
            "action_mask": self._mask(),
            "seat": self.seat,
            "action": None if action is None else str(action),
            "illegal": illegal,
        }


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="alhambra.gymnasium:AlhambraEnv")
