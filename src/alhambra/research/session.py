"""A seeded engine game driven one token at a time (shared by the PettingZoo and Gymnasium
environments).

:class:`TokenGame` keeps the engine state, the partial token sequence of the decision in
progress and the decision's prefix tree. :meth:`TokenGame.step` takes one token; when the
tokens spell a complete engine action, the action is applied (the engine's fast path: it comes
from :func:`~alhambra.engine.legal_actions` of this very state) and its events are returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..engine import apply, apply_unchecked, legal_actions, new_game
from ..errors import IllegalAction
from ..events import Event
from ..native import NativeLimit
from ..state import GameConfig, GameState
from ..view import view

if TYPE_CHECKING:
    from ..native.game import NativeGame
from .encoding import ActionCodec, DecisionTree, codec_for

__all__ = ["CORES", "TokenGame", "rank_rewards", "use_native"]


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


CORES = ("auto", "python", "native")
"""Which engine a :class:`TokenGame` plays on: ``native`` the native core (:mod:`alhambra.native`,
base game only), ``python`` the Python engine, ``auto`` the native core when it is built and
can play the configuration, else the Python engine."""


def use_native(config: GameConfig, core: str) -> bool:
    """Should a game of ``config`` run on the native core (``core`` one of :data:`CORES`)?
    ``ValueError`` for an unknown core or ``native`` for a game it cannot play; ``native``
    without the extension falls back to the Python engine with one warning."""
    from .. import native

    if core not in CORES:
        raise ValueError(f"core is one of {', '.join(CORES)}, not {core!r}")
    if core == "python":
        return False
    if not native.supports(config):
        if core == "native":
            raise ValueError("the native core plays Alhambra without modules only (modules and Granada run on the Python engine)")
        return False
    if not native.available():
        native.warn_once()
        return False
    return True


class TokenGame:
    """One seeded game, played token by token (see the module docstring).

    ``core`` (see :data:`CORES`): on the native core the legal actions and the moves are
    computed natively and ``state`` is the Python twin of the native state, built when asked
    for; the events are the native core's event records read back as engine events
    (:func:`alhambra.native.game.events_of`), equal to the Python engine's, so bots that read
    events play the same on both cores."""

    def __init__(self, config: GameConfig, seed: int, codec: ActionCodec | None = None, core: str = "auto") -> None:
        self.config = config
        self.codec = codec or codec_for(config)
        self.native: NativeGame | None = None
        self._state: GameState | None = None
        events: list[Event] = []
        if use_native(config, core):
            from ..native.game import NativeGame

            self.native = NativeGame.new(config, seed)
            events = self.native.setup_events()
        else:
            self._state, events = new_game(config, seed)
        self.events: list[Event] = list(events)
        """Every event of the game so far (all of them; :func:`alhambra.view.view_events` redacts them per seat)."""
        self.prefix: tuple[int, ...] = ()
        self._tree: DecisionTree | None = None
        self._views: dict[int | None, dict[str, Any]] = {}

    @property
    def state(self) -> GameState:
        """The game state (on the native core: its Python twin, built once per move)."""
        if self._state is None:
            assert self.native is not None
            self._state = self.native.state()
        return self._state

    @state.setter
    def state(self, value: GameState) -> None:
        self._state = value

    # ------------------------------------------------------------------ queries
    @property
    def to_act(self) -> int | None:
        """The seat that decides now (None once the game is over)."""
        if self.native is not None:
            return self.native.to_act
        return self.state.to_act

    @property
    def is_over(self) -> bool:
        """True once the game has ended (finished or truncated)."""
        if self.native is not None:
            return self.native.is_over
        return self.state.is_over

    def tree(self) -> DecisionTree:
        """The prefix tree of the current decision."""
        if self._tree is None:
            acts = None
            if self.native is not None:
                try:
                    acts = self.native.legal_actions()
                except NativeLimit:
                    self._leave_native()
            self._tree = self.codec.tree(legal_actions(self.state) if acts is None else acts)
        return self._tree

    def _leave_native(self) -> None:
        """Go on with the Python engine from the native core's state (an Alhambra outgrew the
        native grid: :class:`~alhambra.native.NativeLimit`)."""
        assert self.native is not None
        self._state = self.native.state()
        self.native = None

    def legal_tokens(self) -> list[int]:
        """The tokens that may follow the current partial sequence (empty once the game is over)."""
        if self.is_over:
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
        if self.is_over:
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
        events = self.native.apply_events(node) if self.native is not None else apply_unchecked(self.state, node)
        self._moved(events)
        return node, events

    def play(self, action: Action) -> list[Event]:
        """Apply a whole engine action (checked), e.g. one chosen by a bot; drops any partial tokens."""
        events: list[Event] = []
        if self.native is not None:
            try:
                events = self.native.apply(action, events=True)
            except NativeLimit:
                self._leave_native()
        if self.native is None:
            self.state, events = apply(self.state, action)
        self._moved(events)
        return events

    def _moved(self, events: list[Event]) -> None:
        if self.native is not None:
            self._state = None
        self.events.extend(events)
        self.prefix = ()
        self._tree = None
        self._views.clear()
