"""The research APIs with Building Sites: every legal action <-> exactly one token sequence (the
items ``site1``-``site4`` / ``fin1``-``fin8`` and ``site keep CURRENCY`` by the declared grammar),
and the observation encoder reads every view."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig, legal_actions, new_game, view
from alhambra.actions import grammar_of
from alhambra.engine import apply_unchecked
from alhambra.research.encoding import codec_for
from alhambra.research.observation import ObservationEncoder

from .helpers import ID


@pytest.mark.parametrize("players", [2, 4])
def test_every_site_action_encodes_and_decodes(players: int) -> None:
    config = GameConfig(players=players, modules=(ID, "vizier"))
    codec = codec_for(config)
    encoder = ObservationEncoder.for_config(config, codec)
    state, _ = new_game(config, 40 + players)
    rng = random.Random(players)
    seen: set[str] = set()
    while not state.is_over:
        actions = legal_actions(state)
        sequences = [codec.encode(a) for a in actions]
        assert len(set(sequences)) == len(actions)
        for a, seq in zip(actions, sequences, strict=True):
            assert codec.decode(seq) == a
            text = str(a)
            if text.startswith("buy site"):
                seen.add("setup")
            elif text.startswith("buy fin"):
                seen.add("complete")
            elif text.startswith("site keep"):
                seen.add("keep")
        seat = state.to_act
        assert seat is not None
        encoder.encode(view(state, seat, with_legal_actions=False))
        mine = [a for a in actions if "site" in str(a) or " fin" in str(a)]
        apply_unchecked(state, rng.choice(mine if mine and rng.random() < 0.5 else actions))
    assert seen == {"setup", "complete", "keep"}
    assert grammar_of("site keep") == ("currency",)
