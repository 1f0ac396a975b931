"""Whole games with the characters (random legal actions, every step checked: conservation, JSON
round trips, actions by kind, exact replays, views), and the bots bidding with sense."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from alhambra import GameConfig, GameRecord, replay
from alhambra.bots.greedy import greedy_action
from alhambra.events import GameEnded, RoundScored
from alhambra.modules.characters.module import Auction, CharacterWon
from alhambra.testing import play_random_game, set_hand
from alhambra.tournament import play_game

from .helpers import ID, auction, chars, fresh


def _check_end(game: object) -> None:
    state = game.state  # type: ignore[attr-defined]
    events = game.events  # type: ignore[attr-defined]
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    assert [e.round for e in events if isinstance(e, RoundScored)] == [1, 2, 3]
    sl = chars(state)
    owned = [k for o in sl.owned for k in o]
    assert len(owned) + len(sl.out) + len(sl.known) <= 6 + 1  # at most six come up (+1 swapped in)
    assert len(sl.cards) == 10 or len(state.deck) + len(state.discard) > 0


@pytest.mark.parametrize(("players", "every"), [(2, False), (3, True), (5, False)])
def test_random_games_with_the_characters(players: int, every: bool) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=500 + players, try_every_action=every)
    _check_end(game)
    assert game.actions["character pass"] + game.actions["character bid"] > 0


@pytest.mark.parametrize(
    ("players", "modules"),
    [
        (3, ("vizier", "diamonds", "change", "thieves")),
        (4, ("master_builders", "power_of_the_sultan", "caravanserai", "invaders", "bazaars")),
    ],
)
def test_random_games_with_the_modules_it_touches(players: int, modules: tuple[str, ...]) -> None:
    config = GameConfig(players=players, modules=(ID, *modules), turn_limit=50)
    game = play_random_game(config, seed=610 + players, try_every_action=False)
    assert game.state.outcome in ("finished", "truncated")
    assert game.actions["character pass"] + game.actions["character bid"] > 0


def test_greedy_opens_low_and_stops_above_the_cards_worth() -> None:
    state = fresh(3)
    first = state.current
    set_hand(state, first, ["b9", "b8", "b7", "b6"])
    auction(state, "wise_man")
    rng = random.Random(1)
    assert str(greedy_action(state, rng)) == "character bid 1"  # the lowest raise, not a random bid
    top = state.pending[-1]
    assert isinstance(top, Auction)
    other = (first + 1) % 3
    state.pending[-1] = replace(top, high=25, leader=other)  # far above what the Wise Man is worth
    assert str(greedy_action(state, rng)) == "character pass"


def test_greedy_wins_characters_against_random() -> None:
    won = 0
    for seed in (3,):
        result = play_game(GameConfig(players=2, modules=(ID,)), ["greedy", "random"], seed=seed, game=0)
        assert result.outcome == "finished" and result.fallbacks == 0
        _, events = replay(GameRecord.from_json(result.record))
        won += sum(1 for e in events if isinstance(e, CharacterWon) and e.seat == result.seats[0])
    assert won >= 1


def test_mcts_plays_with_the_characters() -> None:
    config = GameConfig(players=3, modules=(ID,), turn_limit=45)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=0.05", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0
