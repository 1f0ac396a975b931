"""Whole games with change: random legal actions (every step checked: conservation, JSON round
trips, actions by kind, exact replays, and every coin in one place), and the bots."""

from __future__ import annotations

import pytest

from alhambra import GameConfig, GameRecord, new_game, replay
from alhambra.actions import Action
from alhambra.engine import apply_unchecked
from alhambra.events import Event
from alhambra.modules.change import ChangeGiven, check_coins
from alhambra.record import GameRecord as Record
from alhambra.testing import RandomGame, play_random_game
from alhambra.tournament import action_owners, play_game

TOKENS = ("cb", "cg", "co", "cy")


def pays_with_coins(action: Action) -> bool:
    return any(c in TOKENS for c in getattr(action, "payment", ()))


def likes_coins(action: Action) -> float:
    """Random play that overpays and pays with coins often."""
    text = str(action)
    if pays_with_coins(action):
        return 60.0
    if text == "certificate decline":
        return 30.0
    if text.startswith("buy"):
        return 30.0
    return 1.0 if text.startswith("redesign") else 10.0


def check_every_step(config: GameConfig, seed: int, actions: list[Action]) -> None:
    """Replay the game and check that every coin is in one place at every step."""
    state, _ = new_game(config, seed)
    check_coins(state)
    for a in actions:
        apply_unchecked(state, a)
        check_coins(state)


def check_game(game: RandomGame) -> None:
    assert game.state.outcome == "finished"
    check_every_step(game.record.config, game.record.seed, game.record.actions)
    assert any(isinstance(e, ChangeGiven) and e.coins for e in game.events)
    assert any(pays_with_coins(a) for a in game.record.actions)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_with_change(players: int) -> None:
    game = play_random_game(
        GameConfig(players=players, modules=("change",)), seed=500 + players, prefer=likes_coins, try_every_action=players == 2
    )
    check_game(game)


def test_random_games_with_the_vizier_and_exchange_cards() -> None:
    config = GameConfig(players=3, modules=("change", "currency_exchange", "vizier"))
    game = play_random_game(config, seed=603, prefer=likes_coins, try_every_action=False)
    check_game(game)
    assert game.actions["vizier buy"] > 0


def test_random_games_with_the_exchange_certificates() -> None:
    config = GameConfig(players=3, modules=("change", "exchange_certificates"))
    game = play_random_game(config, seed=701, prefer=likes_coins, try_every_action=False)
    check_game(game)
    assert game.actions["certificate store"] > 0 and game.actions["certificate decline"] > 0


def test_greedy_bots_pay_with_coins_and_the_tournament_counts_it() -> None:
    config = GameConfig(players=2, modules=("change",))
    result = play_game(config, ["greedy", "random"], seed=11, game=0)
    assert result.outcome == "finished" and result.fallbacks == 0
    state, events = replay(Record.from_json(result.record))
    greedy_seat = result.seats[0]
    assert any(isinstance(e, ChangeGiven) and e.seat == greedy_seat and e.coins for e in events)
    owner = action_owners(config)
    record = GameRecord.from_json(result.record)
    assert any(owner(a) == "change" for a in record.actions)
    assert result.module_use[0]["change"][1] > 0  # the greedy bot paid with coins
    _ = state


def test_mcts_plays_with_change() -> None:
    config = GameConfig(players=3, modules=("change", "vizier"), turn_limit=20)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0


def _events(game: RandomGame) -> list[Event]:  # pragma: no cover - a debugging aid
    return game.events
