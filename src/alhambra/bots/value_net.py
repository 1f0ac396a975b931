"""A learned value network for the search, evaluated with numpy only.

The network reads what one seat may know: the research API's information-state tensor
(:class:`alhambra.research.ObservationEncoder` with every seat's hand, which is public in
Alhambra: :class:`~alhambra.research.PublicHands`), without its two big picture sections
(``alhambras``, the grids, whose counts the ``seats`` section already holds, and ``prefix``,
empty between whole actions). See :data:`SECTIONS`.

It answers, for every seat in the order relative to the viewer (the viewer first), the chance
that this seat wins the game (a softmax over the seats: the chances sum to 1; a tie counts as a
shared win). That is exactly the reward the MCTS search backs up (``MctsSettings.reward`` =
``win``), so the network's output can stand in for the hand-made soft win at a leaf.

A network trained as a *correction* (``meta["mode"] == "residual"``) gives logits added to the
logarithm of the hand-made rewards: its chances are ``softmax(log(hand) + logits)``, the
hand-made soft win where the network says nothing (all logits equal) and a learned correction
of it elsewhere (:meth:`ValueNet.leaf`). A plain network (``"outcome"``, the default) predicts
the chances alone.

Weights come from ``alhambra train`` (:mod:`alhambra.learning`) as a ``.npz`` file: for each
player count ``p`` the arrays ``p{p}/w0, p{p}/b0, ...`` of a ReLU multi-layer perceptron, plus
``meta`` (a JSON text: the training command, configuration, data counts and the commit).

A search on the native core runs the network's native twin instead
(:mod:`alhambra.bots.native_value`: the same features straight from the native game, the same
perceptron in C); this module serves the Python engine and is the twin's reference.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..state import GameConfig, GameState
from ..view import view

__all__ = ["MODES", "SECTIONS", "SHIPPED", "FeatureMap", "ValueNet", "feature_map", "hand_logits", "hands_of", "load"]

SECTIONS: Final = (
    "seat",
    "to_act",
    "decision",
    "progress",
    "market",
    "display",
    "discard",
    "hand",
    "seats",
    "reserve",
    "waiting",
    "neutral",
    "hands",
)
"""The sections of the information-state tensor the network reads, in this order."""

MODES: Final = ("outcome", "residual")
"""What a network's outputs mean: the win chances themselves, or a correction of the hand-made ones."""

SHIPPED: Final = "shipped"
"""The name of the weights shipped in the package (``alhambra/bots/weights/value.npz``)."""

FloatArray = npt.NDArray[np.float32]


class FeatureMap:
    """The network's input for one game configuration: the sections :data:`SECTIONS` of the
    research information-state tensor."""

    def __init__(self, config: GameConfig) -> None:
        from ..research import ObservationEncoder, codec_for

        self.config = config
        self.encoder = ObservationEncoder.for_config(config, codec_for(config))
        sec = self.encoder.sections
        self.index = np.concatenate([np.arange(*sec[name]) for name in SECTIONS]).astype(np.intp)
        self.size = int(self.index.size)
        self._buf = np.zeros(self.encoder.info_size, np.float32)

    def of_view(self, seat_view: dict[str, Any], hands: list[dict[str, int]]) -> FloatArray:
        """The features of one seat's view (``hands``: every seat's hand by card code)."""
        self.encoder.encode(seat_view, (), hands, out=self._buf)
        return self._buf[self.index].copy()

    def of_state(self, state: GameState, seat: int) -> FloatArray:
        """The features of what ``seat`` sees in ``state`` (its view and the public hands)."""
        return self.of_view(view(state, seat, with_legal_actions=False), hands_of(state))


def hands_of(state: GameState) -> list[dict[str, int]]:
    """Every seat's hand by card code. Public knowledge in Alhambra (what
    :class:`~alhambra.research.PublicHands` reads from the public events; a test proves the two
    agree), taken from the state for speed."""
    out: list[dict[str, int]] = []
    for p in state.players:
        hand: dict[str, int] = {}
        for c in p.hand:
            code = state.card_code(c)
            hand[code] = hand.get(code, 0) + 1
        out.append(hand)
    return out


@lru_cache(maxsize=8)
def feature_map(config: GameConfig) -> FeatureMap:
    """The (cached) feature map of a configuration."""
    return FeatureMap(config)


class ValueNet:
    """A ReLU perceptron per player count; :meth:`win_probs` gives every seat's chance to win."""

    def __init__(self, layers: dict[int, list[tuple[FloatArray, FloatArray]]], meta: dict[str, Any]) -> None:
        self.layers = layers
        self.meta = meta
        mode = meta.get("mode", "outcome")
        if mode not in MODES:
            raise ValueError(f"unknown value network mode {mode!r} (expected one of {', '.join(MODES)})")
        self.residual = mode == "residual"
        """Are the outputs a correction of the hand-made rewards (see the module docstring)?"""

    @classmethod
    def from_file(cls, path: str | Path) -> ValueNet:
        """Load weights written by ``alhambra train`` (a clear ``ValueError`` for a bad file)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read value network weights from {path}: {e}") from None
        meta = json.loads(str(arrays.pop("meta"))) if "meta" in arrays else {}
        layers: dict[int, list[tuple[FloatArray, FloatArray]]] = {}
        for key in sorted(arrays):
            head, _, name = key.partition("/")
            if not head.startswith("p") or name[:1] not in "wb":
                raise ValueError(f"unexpected array {key!r} in {path}")
        for p in sorted({int(k.split("/")[0][1:]) for k in arrays}):
            stack = []
            i = 0
            while f"p{p}/w{i}" in arrays:
                stack.append((arrays[f"p{p}/w{i}"].astype(np.float32), arrays[f"p{p}/b{i}"].astype(np.float32)))
                i += 1
            layers[p] = stack
        return cls(layers, meta)

    def covers(self, config: GameConfig) -> bool:
        """Does the network play this configuration? (the base game at a trained player count)."""
        return config.game == "alhambra" and not config.modules and config.players in self.layers

    def logits(self, players: int, x: FloatArray) -> FloatArray:
        """The last layer's outputs (relative seat order) for a batch ``x`` of shape (rows, features) or one row."""
        h = x
        stack = self.layers[players]
        for i, (w, b) in enumerate(stack):
            h = h @ w + b
            if i < len(stack) - 1:
                np.maximum(h, 0.0, out=h)
        return h

    def forward(self, players: int, x: FloatArray, base: FloatArray | None = None) -> FloatArray:
        """Win chances (relative seat order) for a batch ``x`` of shape (rows, features) or one
        row: the softmax of the logits (plus ``base``, the hand-made logits of a residual network)."""
        h = self.logits(players, x)
        if base is not None:
            h = h + base
        h = h - h.max(axis=-1, keepdims=True)
        e = np.exp(h)
        out: FloatArray = e / e.sum(axis=-1, keepdims=True)
        return out

    def win_probs(self, state: GameState, seat: int) -> list[float]:
        """Every seat's chance to win (absolute seat order) as ``seat`` sees ``state``."""
        n = state.config.players
        rel = self.forward(n, feature_map(state.config).of_state(state, seat))
        return [float(rel[(s - seat) % n]) for s in range(n)]

    def chances(self, hand: list[float], state: GameState, seat: int) -> list[float]:
        """What the network makes of a search leaf (absolute seat order) as ``seat`` sees
        ``state``: its win chances, or for a residual network its correction of ``hand``, the
        leaf's hand-made rewards (the search mixes either with ``hand``: ``tree.mix``)."""
        if not self.residual:
            return self.win_probs(state, seat)
        n = state.config.players
        rel = self.forward(n, feature_map(state.config).of_state(state, seat), hand_logits(hand, seat))
        return [float(rel[(s - seat) % n]) for s in range(n)]


def hand_logits(hand: list[float], seat: int) -> FloatArray:
    """The logits a residual network corrects: the logarithms of the hand-made rewards (absolute
    seat order), floored at 1e-9, in the order relative to ``seat``."""
    n = len(hand)
    return np.asarray([math.log(max(hand[(seat + r) % n], 1e-9)) for r in range(n)], np.float32)


_LOADED: dict[str, ValueNet] = {}


def load(name: str = SHIPPED) -> ValueNet:
    """The network of a weights file, or the shipped one (``"shipped"``); cached."""
    got = _LOADED.get(name)
    if got is None:
        if name == SHIPPED:
            ref = resources.files("alhambra.bots") / "weights" / "value.npz"
            with resources.as_file(ref) as path:
                got = ValueNet.from_file(path)
        else:
            got = ValueNet.from_file(name)
        _LOADED[name] = got
    return got
