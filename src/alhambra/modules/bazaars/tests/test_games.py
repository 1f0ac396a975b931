"""Whole games with the bazaars: random legal actions (every step checked: conservation, JSON
round trips, actions by kind, exact replays) and the bots."""

from __future__ import annotations

import pytest

from alhambra import GameConfig, GameRecord, replay
from alhambra.actions import Action
from alhambra.events import Event, GameEnded, ItemBought, MarketTileAwarded, RoundScored
from alhambra.modules.bazaars import BY_CODE, BazaarsState, seat_points
from alhambra.state import GameState
from alhambra.testing import play_random_game
from alhambra.tournament import play_game


def likes_bazaars(action: Action) -> float:
    """Random play that buys bazaars whenever it can (and redesigns seldom)."""
    text = str(action)
    if text.startswith(("buy Z", "vizier buy Z")):
        return 200.0
    return 1.0 if text.startswith("redesign") else 10.0


def bazaars_bought(events: list[Event]) -> list[str]:
    return [e.item for e in events if isinstance(e, ItemBought) and e.item in BY_CODE]


def check_end(state: GameState, events: list[Event]) -> None:
    """The final scoring lists every seat's bazaar points; no bazaar is handed out; all 8 are somewhere."""
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    final = [e for e in events if isinstance(e, RoundScored) and e.round == 3]
    assert len(final) == 1
    assert final[0].extra["bazaars"] == tuple(seat_points(state, s) for s in range(state.config.players))
    assert not [e for e in events if isinstance(e, MarketTileAwarded) and e.tile in BY_CODE]
    for e in events:
        if isinstance(e, RoundScored) and e.round < 3:
            assert "bazaars" not in e.extra
    comp = state.components
    slice_ = state.mods["bazaars"]
    assert isinstance(slice_, BazaarsState)
    where = set(slice_.beside)
    for p in state.players:
        where |= {comp.tile_code[t] for t in (*p.city.values(), *p.reserve)}
    where |= {comp.tile_code[t] for t in state.neutral or ()}
    where |= {comp.tile_code[t] for t in state.bag}
    assert set(BY_CODE) <= where


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_games_with_bazaars(players: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=("bazaars",)), seed=200 + players, prefer=likes_bazaars)
    check_end(game.state, game.events)
    assert bazaars_bought(game.events)
    assert any(sum(1 for b in (*p.city.values(),) if game.state.components.tile_code[b] in BY_CODE) for p in game.state.players)


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_with_the_vizier_and_exchange_cards(players: int) -> None:
    config = GameConfig(players=players, modules=("bazaars", "currency_exchange", "vizier"))
    game = play_random_game(config, seed=300 + players, prefer=likes_bazaars)
    check_end(game.state, game.events)
    assert bazaars_bought(game.events)
    assert game.actions["vizier buy"] > 0


def test_a_vizier_buys_a_bazaar_in_some_random_game() -> None:
    config = GameConfig(players=3, modules=("bazaars", "vizier"))
    for seed in range(5):
        game = play_random_game(config, seed=400 + seed, prefer=likes_bazaars, try_every_action=False)
        if any(str(a).startswith("vizier buy Z") for a in game.record.actions):
            check_end(game.state, game.events)
            return
    pytest.fail("no vizier bought a bazaar in 5 games")  # pragma: no cover


def test_greedy_bots_buy_build_and_score_bazaars() -> None:
    result = play_game(GameConfig(players=2, modules=("bazaars",)), ["greedy", "random"], seed=7, game=0)
    assert result.outcome == "finished" and result.fallbacks == 0
    record = GameRecord.from_json(result.record)
    state, events = replay(record)
    greedy_seat = result.seats[0]
    bought = [e for e in events if isinstance(e, ItemBought) and e.item in BY_CODE and e.seat == greedy_seat]
    assert bought
    check_end(state, events)


def test_mcts_plays_with_bazaars() -> None:
    config = GameConfig(players=3, modules=("bazaars", "vizier"), turn_limit=24)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0
