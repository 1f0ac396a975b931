"""Whole games: random legal actions (every action applies, states round-trip, conservation,
exact replays), the citizens conserved at every step, and the bots using the module."""

from __future__ import annotations

import collections

import pytest

from alhambra import GameConfig, apply, new_game
from alhambra.testing import RandomGame, play_random_game
from alhambra.tournament import play_game

from .support import ID, check_citizens


def _citizens_at_every_step(game: RandomGame) -> None:
    state, _ = new_game(game.record.config, game.record.seed)
    check_citizens(state)
    for action in game.record.actions:
        state, _ = apply(state, action)
        check_citizens(state)


def _trader_first(action: object) -> float:
    """Random players that like the module's decisions and building where the trader stands."""
    text = str(action)
    if text.startswith("trader skip"):
        return 1.0
    if text.startswith("redesign"):
        return 1.0
    return 10.0


@pytest.mark.parametrize(("players", "seed", "every"), [(2, 11, True), (4, 13, False), (6, 14, False)])
def test_random_games_with_street_traders(players: int, seed: int, every: bool) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed, prefer=_trader_first, try_every_action=every)
    assert game.state.outcome == "finished"
    assert game.actions["trader choose"] == players and game.actions["trader place"] >= players
    _citizens_at_every_step(game)


def test_random_games_use_every_street_trader_action() -> None:
    used = play_random_game(GameConfig(players=2, modules=(ID,)), 3, try_every_action=False).actions
    for keyword in ("trader choose", "trader place", "trader move", "trader take", "trader exchange", "trader skip"):
        assert used[keyword] > 0, keyword


@pytest.mark.parametrize(("modules", "players", "seed"), [((ID, "vizier"), 3, 31), ((ID, "currency_exchange", "vizier"), 2, 33)])
def test_random_games_with_other_modules(modules: tuple[str, ...], players: int, seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=modules), seed, prefer=_trader_first, try_every_action=players == 2)
    assert game.state.outcome == "finished"
    _citizens_at_every_step(game)


def test_turn_limited_game_is_truncated() -> None:
    game = play_random_game(GameConfig(players=4, modules=(ID,), turn_limit=8), 41)
    assert game.state.outcome == "truncated" and game.state.turn == 8


@pytest.mark.parametrize(("bots", "seed"), [(("greedy", "random", "greedy"), 4), (("mcts:easy@iterations=8", "greedy"), 5)])
def test_bots_play_whole_games_and_use_the_traders(bots: tuple[str, ...], seed: int) -> None:
    result = play_game(GameConfig(players=len(bots), modules=(ID,)), bots, seed, 0)
    assert result.outcome == "finished" and result.fallbacks == 0
    used = collections.Counter(" ".join(a.split()[:2]) for a in result.record["actions"] if a.startswith("trader"))
    assert used["trader choose"] == len(bots) and used["trader move"] > 0 and used["trader take"] > 0
