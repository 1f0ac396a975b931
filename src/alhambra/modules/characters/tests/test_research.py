"""The research APIs with the characters: every legal action (bids as ``amount`` tokens, passes,
payments, abilities) maps to exactly one token sequence and back, and which character a card
shows is a chance node in explicit-chance mode."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig  # noqa: E402
from alhambra.modules.characters import MODULE  # noqa: E402
from alhambra.modules.characters.actions import Bid  # noqa: E402
from alhambra.research.encoding import codec_for  # noqa: E402
from alhambra.testing import check_encoded_game  # noqa: E402

from .helpers import ID  # noqa: E402


@pytest.mark.parametrize(("players", "modules"), [(2, ()), (4, ("diamonds", "thieves"))])
def test_every_action_with_characters_encodes_and_decodes(players: int, modules: tuple[str, ...]) -> None:
    config = GameConfig(players=players, modules=(ID, *modules))
    listed = check_encoded_game(config, 80 + players, prefer=lambda a: a.module == ID)
    bids = {a.amount for a in listed if isinstance(a, Bid)}
    assert bids and max(bids) > 9  # bids above 9 need the amount tokens


def test_bids_are_one_amount_token() -> None:
    codec = codec_for(GameConfig(players=3, modules=(ID,)))
    for amount in (1, 9, 10, 42, 99):
        tokens = codec.encode(Bid(amount))
        assert len(tokens) == 2 and codec.decode(tokens) == Bid(amount)


def test_the_characters_are_chance_items() -> None:
    items = MODULE.chance_items(GameConfig(players=3, modules=(ID,)))
    assert len(items) == len(set(items)) == 10
