"""The research APIs with the falconers: every legal action (``falcon ITEM X,Y CARD``, ``falcon
done``) maps to exactly one token sequence and back, and the observation stays in [0, 1]."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig, legal_actions, new_game, view  # noqa: E402
from alhambra.engine import apply_unchecked  # noqa: E402
from alhambra.modules.falconers import BuyFalcon, FalconsDone  # noqa: E402
from alhambra.research.encoding import codec_for  # noqa: E402
from alhambra.research.observation import ObservationEncoder  # noqa: E402

from .helpers import ID  # noqa: E402


@pytest.mark.parametrize(("players", "modules"), [(2, ()), (4, ("diamonds", "master_builders"))])
def test_every_action_with_falcons_encodes_and_decodes(players: int, modules: tuple[str, ...]) -> None:
    config = GameConfig(players=players, modules=(ID, *modules))
    codec = codec_for(config)
    enc = ObservationEncoder.for_config(config, codec)
    state, _ = new_game(config, 60 + players)
    rng = random.Random(players)
    buys = 0
    while not state.is_over:
        actions = legal_actions(state)
        sequences = [codec.encode(a) for a in actions]
        assert len(set(sequences)) == len(actions)
        for a, seq in zip(actions, sequences, strict=True):
            assert codec.decode(seq) == a
            buys += isinstance(a, BuyFalcon)
        seat = state.to_act
        assert seat is not None
        obs = enc.encode(view(state, seat, with_legal_actions=False))
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        falcon = [a for a in actions if isinstance(a, BuyFalcon)]
        apply_unchecked(state, rng.choice(falcon if falcon and rng.random() < 0.5 else actions))
    assert buys > 0
    assert codec.decode(codec.encode(FalconsDone())) == FalconsDone()
