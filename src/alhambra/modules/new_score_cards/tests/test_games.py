"""Whole games with new score cards: random legal actions (every step checked: conservation,
JSON round trips, actions by kind, exact replays), alone and with every module it combines with."""

from __future__ import annotations

import pytest

from alhambra import GameConfig
from alhambra.events import RoundScored
from alhambra.hooks import available_modules, load_module
from alhambra.modules.new_score_cards import points, score_cards
from alhambra.scoring import majority_awards
from alhambra.testing import RandomGame, play_random_game

from .helpers import ID


def check_rounds(game: RandomGame) -> None:
    """Three rounds, each kind scored with the round's card, the neutral player included."""
    numbers = score_cards(game.state).cards
    rounds = [e for e in game.events if isinstance(e, RoundScored)]
    assert [r.round for r in rounds] == [1, 2, 3]
    for r in rounds:
        for kind, counts in r.counts.items():
            assert r.kinds[kind] == tuple(majority_awards(list(counts), points(numbers[r.round - 1], r.round, kind)))


@pytest.mark.parametrize(("players", "every"), [(2, True), (3, False), (4, False), (5, False), (6, False)])
def test_random_games_with_the_module_alone(players: int, every: bool) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=40 + players, try_every_action=every)
    assert game.state.outcome == "finished"
    check_rounds(game)


def test_random_games_with_every_module_it_combines_with() -> None:
    mods = []
    for mid in available_modules():
        try:
            load_module(mid).check_config(GameConfig(players=3, modules=(mid,)))
        except Exception:
            continue
        mods.append(mid)
    config = GameConfig(players=3, modules=tuple(mods))
    assert ID in config.modules and len(config.modules) >= 10
    game = play_random_game(config, seed=17, try_every_action=False, check_every=10)
    assert game.state.outcome == "finished"
    check_rounds(game)


def test_a_turn_limited_game_is_truncated() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID,), turn_limit=20), seed=9, try_every_action=False)
    assert game.state.outcome == "truncated" and game.state.turn == 20
