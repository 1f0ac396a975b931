"""The research encoding with diamonds: diamond cards are card tokens, every legal action (diamond
payments included) encodes to one token sequence and back, and the observation counts them."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig, legal_actions, new_game, parse_action, view
from alhambra.engine import apply_unchecked
from alhambra.modules.diamonds import CARD_CODES
from alhambra.policies import kind_random
from alhambra.research.encoding import codec_for
from alhambra.research.observation import ObservationEncoder
from alhambra.testing import set_hand


@pytest.mark.parametrize("modules", [("diamonds",), ("currency_exchange", "diamonds", "vizier")])
def test_every_legal_action_encodes_and_decodes(modules: tuple[str, ...]) -> None:
    config = GameConfig(players=3, modules=modules)
    codec = codec_for(config)
    assert {f"d{v}" for v in range(3, 10)} <= set(codec.card_codes)
    state, _ = new_game(config, 12)
    rng = random.Random(12)
    diamond_actions = 0
    while not state.is_over:
        actions = legal_actions(state)
        sequences = [codec.encode(a) for a in actions]
        assert len(set(sequences)) == len(actions)
        for a, seq in zip(actions, sequences, strict=True):
            assert codec.decode(seq) == a
            diamond_actions += any(c in CARD_CODES for c in getattr(a, "payment", ()) or getattr(a, "cards", ()))
        apply_unchecked(state, kind_random(state, rng))
    assert diamond_actions > 10


def test_a_diamond_payment_spells_its_cards() -> None:
    config = GameConfig(players=3, modules=("diamonds",))
    codec = codec_for(config)
    action = parse_action("buy 2 d5+d4")
    names = codec.describe(codec.encode(action))
    assert "card d4" in names and "card d5" in names
    assert codec.decode(codec.encode(action)) == action


def test_the_observation_counts_own_diamonds() -> None:
    config = GameConfig(players=3, modules=("diamonds",))
    state, _ = new_game(config, 1)
    set_hand(state, 0, ["d5", "d4"])
    enc = ObservationEncoder(config, codec_for(config))
    plain = enc.encode(view(state, 0))
    set_hand(state, 0, ["b5", "b4"])
    other = enc.encode(view(state, 0))
    assert (plain != other).any()
