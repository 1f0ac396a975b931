"""Alhambra for game-AI research: a fixed integer action space of sub-decisions and
observation tensors built only from views.

* :mod:`alhambra.research.encoding`: tokens, the bijection with engine actions, prefix trees;
* :mod:`alhambra.research.observation`: observation and information-state tensors, text views;
* :mod:`alhambra.research.session`: a seeded game played token by token, rank rewards.

The environments live in :mod:`alhambra.openspiel` (extra ``openspiel``),
:mod:`alhambra.pettingzoo` and :mod:`alhambra.gymnasium` (extra ``rl``). This package needs numpy.
"""

from __future__ import annotations

from .encoding import ActionCodec, DecisionTree, TokenKind, codec_for
from .observation import ObservationEncoder, PublicHands, render_view
from .session import TokenGame, rank_rewards

__all__ = [
    "ActionCodec",
    "DecisionTree",
    "ObservationEncoder",
    "PublicHands",
    "TokenGame",
    "TokenKind",
    "codec_for",
    "rank_rewards",
    "render_view",
]
