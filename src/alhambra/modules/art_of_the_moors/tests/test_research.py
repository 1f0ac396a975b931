"""The research APIs with the art of the moors: every legal action (``culture develop`` among
them) maps to exactly one token sequence and back, and the observation stays in [0, 1]."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig  # noqa: E402
from alhambra.modules.art_of_the_moors import DevelopCulture  # noqa: E402
from alhambra.research.encoding import codec_for  # noqa: E402
from alhambra.testing import check_encoded_game  # noqa: E402

from .helpers import ID  # noqa: E402


@pytest.mark.parametrize(("players", "modules"), [(2, ()), (4, ("vizier", "squares"))])
def test_every_action_with_culture_encodes_and_decodes(players: int, modules: tuple[str, ...]) -> None:
    config = GameConfig(players=players, modules=(ID, *modules))
    listed = check_encoded_game(config, 80 + players, prefer=lambda a: isinstance(a, DevelopCulture))
    assert any(isinstance(a, DevelopCulture) for a in listed)
    codec = codec_for(config)
    assert codec.decode(codec.encode(DevelopCulture())) == DevelopCulture()
