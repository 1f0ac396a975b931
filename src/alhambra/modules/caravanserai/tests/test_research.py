"""The research APIs with Caravanserai: the token encoding of its actions and payments, the observation."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig, legal_actions, new_game, view
from alhambra.engine import apply_unchecked
from alhambra.research.encoding import codec_for
from alhambra.research.observation import ObservationEncoder

from .helpers import ID
from .test_games import _prefer


def test_every_legal_action_encodes_and_decodes_in_random_games() -> None:
    config = GameConfig(players=3, modules=(ID, "vizier"))
    codec = codec_for(config)
    assert {f"cara{n}" for n in range(1, 9)} <= set(codec.items)
    assert {f"k{n}" for n in range(1, 9)} <= set(codec.card_codes)
    encoder = ObservationEncoder.for_config(config, codec)
    state, _ = new_game(config, 4)
    rng = random.Random(4)
    seen: set[str] = set()
    while not state.is_over:
        actions = legal_actions(state)
        sequences = [codec.encode(a) for a in actions]
        assert len(set(sequences)) == len(actions)
        for a, seq in zip(actions, sequences, strict=True):
            assert codec.decode(seq) == a
            text = str(a)
            if text.startswith("cara") or text.startswith("buy cara") or " k" in text or "+k" in text:
                seen.add("marker pays" if ("k" in text.split()[-1] and not text.startswith("cara")) else " ".join(text.split()[:2]))
        tree = codec.tree(actions)
        assert sorted(map(str, tree.actions())) == sorted(map(str, actions))
        assert encoder.encode(view(state, state.to_act)).shape == (encoder.size,)
        apply_unchecked(state, rng.choices(actions, [_prefer(a) for a in actions])[0])
    assert {"cara move", "cara stay", "marker pays"} <= seen and any(w.startswith("buy cara") for w in seen)
