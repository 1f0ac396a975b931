"""Whole games with random legal actions: every action applies, states round-trip, replays match."""

from __future__ import annotations

import pytest

from alhambra import GameConfig
from alhambra.events import GameEnded
from alhambra.modules.vizier import VizierState
from alhambra.testing import play_random_game


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_vizier_finish(players: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=("vizier",)), seed=100 + players)
    assert game.state.outcome == "finished"
    assert isinstance(game.events[-1], GameEnded)
    assert game.actions["vizier buy"] > 0 and game.actions["pass"] > 0 and game.actions["vizier wake"] > 0
    assert isinstance(game.state.mods["vizier"], VizierState)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_turn_limited_games_with_the_vizier_are_truncated(seed: int) -> None:
    game = play_random_game(GameConfig(players=4, modules=("vizier",), turn_limit=12), seed)
    assert game.state.outcome == "truncated"
    assert game.state.turn == 12
    # the last turn is not followed by a vizier offer
    assert game.record.actions[-1].module is None
