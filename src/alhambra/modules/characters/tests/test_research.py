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


_AUCTION_KEYWORDS = ("character bid", "character pass", "character pay", "character keep", "character swap")


@pytest.mark.parametrize(("players", "modules", "seed"), [(2, (), 502), (4, ("master_builders", "thieves"), 620)])
def test_the_module_actions_of_a_turn_stay_within_the_research_bound(players: int, modules: tuple[str, ...], seed: int) -> None:
    """``max_actions_between_turns`` sizes the OpenSpiel game: in random games, the characters'
    actions (auctions and abilities) of any one turn never exceed it."""
    from alhambra import apply, new_game
    from alhambra.testing import play_random_game

    config = GameConfig(players=players, modules=(ID, *modules), turn_limit=60)
    game = play_random_game(config, seed=seed, try_every_action=False, prefer=lambda a: 50.0 if a.module == ID else 10.0)
    state, _ = new_game(config, game.record.seed)
    per_turn: dict[int, int] = {}
    abilities = 0
    for action in game.record.actions:
        if action.module == ID:
            per_turn[state.turn] = per_turn.get(state.turn, 0) + 1
            abilities += type(action).keyword not in _AUCTION_KEYWORDS
        state, _ = apply(state, action)
    assert abilities > 0  # the abilities were used, not only the auctions
    assert 0 < max(per_turn.values()) <= MODULE.max_actions_between_turns(config)
