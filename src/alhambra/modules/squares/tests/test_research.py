"""The research APIs with the squares: every legal action (``square take KIND``) maps to exactly
one token sequence and back, the observation stays in [0, 1], and the square turned up next is a
chance node in explicit-chance mode."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig  # noqa: E402
from alhambra.modules.squares import MODULE, TakeSquare  # noqa: E402
from alhambra.testing import check_encoded_game  # noqa: E402

from .helpers import ID  # noqa: E402


@pytest.mark.parametrize(("players", "modules"), [(2, ()), (4, ("vizier", "bazaars"))])
def test_every_action_with_squares_encodes_and_decodes(players: int, modules: tuple[str, ...]) -> None:
    config = GameConfig(players=players, modules=(ID, *modules))
    listed = check_encoded_game(config, 70 + players, prefer=lambda a: isinstance(a, TakeSquare))
    assert {a.kind for a in listed if isinstance(a, TakeSquare)} == {"pavilion", "seraglio", "arcades", "chambers", "garden", "tower"}


def test_the_squares_are_chance_items() -> None:
    items = MODULE.chance_items(GameConfig(players=3, modules=(ID,)))
    assert len(items) == len(set(items)) == 24
