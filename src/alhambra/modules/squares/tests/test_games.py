"""Whole games with the squares (random legal actions, every step checked: conservation, JSON
round trips, actions by kind, exact replays, views), and the bots taking and valuing squares."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from alhambra import GameConfig, GameRecord, replay
from alhambra.bots.greedy import seat_values
from alhambra.engine import building_counts
from alhambra.events import Event, GameEnded, RoundScored
from alhambra.modules.squares import SquareTaken, bonuses, owned
from alhambra.state import GameState
from alhambra.testing import play_random_game
from alhambra.tournament import play_game

from .helpers import ID, fresh, put_square


def taken(events: list[Event], seat: int | None = None) -> int:
    return sum(1 for e in events if isinstance(e, SquareTaken) and seat in (None, e.seat))


def check_end(state: GameState, events: list[Event]) -> None:
    """Three scoring rounds; at most three squares each; the last round counts the squares' bonus."""
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert [e.round for e in rounds] == [1, 2, 3]
    for s in range(state.config.players):
        assert owned(state, s) <= 3
        for kind, n in bonuses(state, s).items():
            assert rounds[-1].counts[kind][s] == building_counts(state, s)[kind] >= n


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_squares(players: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=300 + players, try_every_action=players <= 3)
    check_end(game.state, game.events)
    assert game.actions["square take"] > 0
    assert taken(game.events) == game.actions["square take"]


@pytest.mark.parametrize(
    ("players", "modules"),
    [
        (2, ("vizier", "bonus_cards")),
        (3, ("street_traders", "treasure_chamber")),
        (4, ("bazaars", "building_sites", "master_builders")),
        (3, ("falconers", "medina", "invaders")),
        (2, ("power_of_the_sultan", "diamonds", "change")),
    ],
)
def test_random_games_with_the_modules_it_touches(players: int, modules: tuple[str, ...]) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=410 + players, try_every_action=False)
    check_end(game.state, game.events)
    assert game.actions["square take"] > 0


def test_a_game_stopped_by_the_turn_limit() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID,), turn_limit=60), seed=4, try_every_action=False)
    assert game.state.outcome == "truncated" and isinstance(game.events[-1], GameEnded)


def test_greedy_values_a_square_that_joins_buildings() -> None:
    state = fresh()
    s = state.current
    from alhambra.testing import build_tiles

    build_tiles(state, s, {(1, 0): "A9", (1, 1): "A10"})
    base = seat_values(state)[s]
    put_square(state, s, "Qa3", (2, 1))  # wall north; joins A10 on its west side
    assert bonuses(state, s) == {"arcades": 1}
    assert seat_values(state)[s] > base


@pytest.mark.parametrize("bots", [["greedy", "random"], ["random", "greedy"]])
def test_greedy_takes_squares(bots: list[str]) -> None:
    greedy = bots.index("greedy")
    got: Counter[int] = Counter()
    for seed in (7, 8):
        result = play_game(GameConfig(players=2, modules=(ID,)), bots, seed=seed, game=0)
        assert result.outcome == "finished" and result.fallbacks == 0
        state, events = replay(GameRecord.from_json(result.record))
        check_end(state, events)
        got[greedy] += taken(events, result.seats[greedy])
    assert got[greedy] >= 2


def test_mcts_plays_with_the_squares() -> None:
    config = GameConfig(players=3, modules=(ID,), turn_limit=60)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0
    _, events = replay(GameRecord.from_json(result.record))
    assert taken(events) > 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_property_squares_never_exceed_three_and_only_add(players: int, seed: int) -> None:
    """Whatever random play does: nobody holds more than three squares, a square adds 0-3 to its
    colour, and the squares' counts only add to the tiles' own counts."""
    game = play_random_game(GameConfig(players=players, modules=(ID,), turn_limit=40), seed=seed, try_every_action=False)
    state = game.state
    comp = state.components
    for s in range(players):
        assert owned(state, s) <= 3
        own = Counter(comp.tiles[t].kind for t in state.players[s].city.values())
        counts = building_counts(state, s)
        extra = bonuses(state, s)
        assert all(0 < n <= 3 * owned(state, s) for n in extra.values())
        assert all(counts[k] == own.get(k, 0) + extra.get(k, 0) for k in counts)
