"""A seeded engine game driven one token at a time (shared by the PettingZoo and Gymnasium
environments).

:class:`TokenGame` keeps the engine state, the partial token sequence of the decision in
progress and the decision's prefix tree. :meth:`TokenGame.step` takes one token; when the
tokens spell a complete engine action, the action is applied (the engine's fast path: it comes
from :func:`~alhambra.engine.legal_actions` of this very state) and its events are returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..engine import apply, apply_unchecked, legal_actions, new_game
from ..errors import IllegalAction
from ..events import Event
from ..state import GameConfig, GameState
from ..view import view
from .encoding import ActionCodec, DecisionTree, codec_for

__all__ = ["TokenGame", "rank_rewards"]


def rank_rewards(scores: Sequence[int]) -> list[float]:
    """Normalised rank rewards: ``(seats behind - seats ahead) / (n - 1)`` for every seat.

    The winner alone gets 1, the last alone -1, tied seats share the mean of the places they
    occupy, and the rewards always sum to 0 (a zero-sum game). With 2 players: win 1, loss -1,
    tie 0.
    """
    n = len(scores)
    out: list[float] = []
    for s in scores:
        behind = sum(1 for o in scores if o < s)
        ahead = sum(1 for o in scores if o > s)
        out.append((behind - ahead) / (n - 1))
    return out


class TokenGame:
    """One seeded game, played token by token (see the module docstring)."""

    def __init__(self, config: GameConfig, seed: int, codec: ActionCodec | None = None) -> None:
        self.config = config
        self.codec = codec or codec_for(config)
        self.state: GameState
        self.state, events = new_game(config, seed)
        self.events: list[Event] = list(events)
        """Every event of the game so far (all public)."""
        self.prefix: tuple[int, ...] = ()
        self._tree: DecisionTree | None = None
        self._views: dict[int | None, dict[str, Any]] = {}

    # ------------------------------------------------------------------ queries
    @property
    def to_act(self) -> int | None:
        """The seat that decides now (None once the game is over)."""
        return self.state.to_act

    @property
    def is_over(self) -> bool:
        """True once the game has ended (finished or truncated)."""
        return self.state.is_over

    def tree(self) -> DecisionTree:
        """The prefix tree of the current decision."""
        if self._tree is None:
            self._tree = self.codec.tree(legal_actions(self.state))
        return self._tree

    def legal_tokens(self) -> list[int]:
        """The tokens that may follow the current partial sequence (empty once the game is over)."""
        if self.state.is_over:
            return []
        return self.tree().legal(self.prefix)

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal tokens as a 0/1 mask over the whole token space."""
        m = np.zeros(self.codec.num_tokens, np.int8)
        m[self.legal_tokens()] = 1
        return m

    def view(self, seat: int | None) -> dict[str, Any]:
        """:func:`alhambra.view.view` of the current state (cached until the next action)."""
        got = self._views.get(seat)
        if got is None:
            got = self._views[seat] = view(self.state, seat, with_legal_actions=False)
        return got

    def returns(self) -> list[float]:
        """Rank rewards of the current scores (the result once the game is over)."""
        return rank_rewards(self.state.scores)

    # ------------------------------------------------------------------ moves
    def step(self, token: int) -> tuple[Action | None, list[Event]]:
        """Take one token; returns the completed engine action (or None) and its events.

        Raises :class:`~alhambra.errors.IllegalAction` for a token that is not legal now.
        """
        if self.state.is_over:
            raise IllegalAction("the game is over")
        tree = self.tree()
        prefix = (*self.prefix, int(token))
        node = tree.node(prefix)
        if node is None:
            name = self.codec.names[token] if 0 <= token < self.codec.num_tokens else str(token)
            raise IllegalAction(f"token {token} ({name}) is not legal after [{self.codec.describe(self.prefix)}]")
        if isinstance(node, dict):
            self.prefix = prefix  # views do not depend on the partial tokens: keep them
            return None, []
        events = apply_unchecked(self.state, node)
        self._moved(events)
        return node, events

    def play(self, action: Action) -> list[Event]:
        """Apply a whole engine action (checked), e.g. one chosen by a bot; drops any partial tokens."""
        self.state, events = apply(self.state, action)
        self._moved(events)
        return events

    def _moved(self, events: list[Event]) -> None:
        self.events.extend(events)
        self.prefix = ()
        self._tree = None
        self._views.clear()
