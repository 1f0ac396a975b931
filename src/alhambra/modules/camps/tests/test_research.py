"""The research APIs with the camps: every legal camp action (``camp place``, ``camp build``,
``camp remove``, ``camp exchange``) maps to exactly one token sequence and back, and the
observation stays in [0, 1]."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig  # noqa: E402
from alhambra.modules.camps import BuildCamp, ExchangeCamp, PlaceCamp, RemoveCamp  # noqa: E402
from alhambra.research.encoding import codec_for  # noqa: E402
from alhambra.testing import check_encoded_game  # noqa: E402

from .helpers import ID  # noqa: E402


def test_every_action_with_camps_encodes_and_decodes() -> None:
    config = GameConfig(players=3, modules=(ID,))
    listed = check_encoded_game(config, 21, prefer=lambda a: isinstance(a, PlaceCamp))
    assert any(isinstance(a, PlaceCamp) for a in listed)
    codec = codec_for(config)
    for a in (PlaceCamp("L8ne", (2, -1)), BuildCamp("L3n", (0, 2)), RemoveCamp("L3n"), ExchangeCamp("L3n", "L8ne")):
        assert codec.decode(codec.encode(a)) == a
