"""The research APIs with the falconers: every legal action (``falcon ITEM X,Y CARD``, ``falcon
done``) maps to exactly one token sequence and back, and the observation stays in [0, 1]."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig  # noqa: E402
from alhambra.modules.falconers import BuyFalcon, FalconsDone  # noqa: E402
from alhambra.research.encoding import codec_for  # noqa: E402
from alhambra.testing import check_encoded_game  # noqa: E402

from .helpers import ID  # noqa: E402


@pytest.mark.parametrize(("players", "modules"), [(2, ()), (4, ("diamonds", "master_builders"))])
def test_every_action_with_falcons_encodes_and_decodes(players: int, modules: tuple[str, ...]) -> None:
    config = GameConfig(players=players, modules=(ID, *modules))
    listed = check_encoded_game(config, 60 + players, prefer=lambda a: isinstance(a, BuyFalcon))
    assert any(isinstance(a, BuyFalcon) for a in listed)
    assert any(isinstance(a, FalconsDone) for a in listed)
    codec = codec_for(config)
    assert codec.decode(codec.encode(FalconsDone())) == FalconsDone()
