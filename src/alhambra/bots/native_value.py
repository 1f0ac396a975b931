"""The learned value network on the native core: the twin of :mod:`alhambra.bots.value_net`.

:func:`native_features` gives the native core's ``ValueFeatures`` of a configuration (the
layout of :class:`~alhambra.bots.value_net.FeatureMap`: where each section of
:data:`~alhambra.bots.value_net.SECTIONS` starts, each card's and tile's index among the
research codec's codes), which writes exactly the floats ``FeatureMap.of_state`` gives straight
from a native game (``native/value.pxi``). :func:`native_net` adds the network's float32
weights: its ``win_probs(game, seat)`` is :meth:`ValueNet.win_probs` of the game's Python twin
without building the twin, the view or the tensor (``tests/test_native_value.py`` proves both).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..components import EAST, NORTH, SOUTH, WEST
from ..engine import build_components
from ..native import core_module
from ..native.game import core_rules
from ..state import GameConfig
from .value_net import SECTIONS, ValueNet, feature_map

__all__ = ["native_features", "native_net"]

_FEATURES: dict[int, Any] = {}
_NETS: dict[tuple[int, int], tuple[ValueNet, Any]] = {}


def native_features(config: GameConfig) -> Any:
    """The native feature map of a configuration of the base game (cached per player count:
    the turn limit is read from each game)."""
    n = config.players
    got = _FEATURES.get(n)
    if got is None:
        key = GameConfig(players=n)
        fmap = feature_map(key)
        enc = fmap.encoder
        offsets: dict[str, int] = {}
        at = 0
        for name in SECTIONS:
            start, end = enc.sections[name]
            offsets[name] = at
            at += end - start
        comp = build_components(key)
        cards = {code: i for i, code in enumerate(enc.codec.card_codes)}
        tiles = {code: i for i, code in enumerate(enc.codec.tile_codes)}
        money_total = float(sum(1 for c in comp.cards if c.kind != "scoring"))
        got = _FEATURES[n] = core_module().ValueFeatures(
            core_rules(key),
            offsets,
            fmap.size,
            [cards.get(c.code, -1) if c.kind != "scoring" else -1 for c in comp.cards],
            [tiles.get(t.code, -1) if t.kind != "fountain" else -1 for t in comp.tiles],
            len(cards),
            len(tiles),
            len(comp.kinds),
            money_total,
            [NORTH, EAST, SOUTH, WEST],
        )
    return got


def native_net(net: ValueNet, config: GameConfig) -> Any:
    """The native twin of ``net`` for the player count of ``config`` (cached): ``win_probs(game,
    seat)`` on a native game, ``forward(x)`` on one feature vector. ``ValueError`` when the
    network does not cover the configuration."""
    if not net.covers(config):
        raise ValueError(f"the value network does not cover {config.players}-player games of {config.game} with modules {config.modules}")
    key = (id(net), config.players)
    got = _NETS.get(key)
    if got is None or got[0] is not net:
        layers = [(np.ascontiguousarray(w, np.float32), np.ascontiguousarray(b, np.float32)) for w, b in net.layers[config.players]]
        got = _NETS[key] = (net, core_module().ValueCore(native_features(config), layers))
    return got[1]
