"""Whole games with the art of the moors (random legal actions, every step checked: conservation,
JSON round trips, actions by kind, exact replays, views), with the modules it touches, and the
bots developing culture."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from alhambra import GameConfig, GameRecord, replay
from alhambra.bots.greedy import seat_values
from alhambra.events import Event, GameEnded, RoundScored
from alhambra.modules.art_of_the_moors import MODULE, CultureCounterTaken, CultureDeveloped, MoorsState, buildings, faces, moors, points_now
from alhambra.state import GameState
from alhambra.testing import play_random_game
from alhambra.tournament import play_game

from .helpers import ID, fresh, give


def developed(events: list[Event], seat: int | None = None) -> int:
    return sum(1 for e in events if isinstance(e, CultureDeveloped) and seat in (None, e.seat))


def check_end(state: GameState, events: list[Event]) -> None:
    """Three scoring rounds, each listing the culture points; every counter once; the last round as the counters stand."""
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert [e.round for e in rounds] == [1, 2, 3]
    assert rounds[-1].extra[ID] == tuple(points_now(state, s) for s in range(state.config.players))
    sl = moors(state)
    owned = [sum(1 for row in sl.seats if row[i] is not None) for i in range(7)]
    assert [o + s for o, s in zip(owned, sl.supply, strict=True)] == [t.count for t in faces()]
    assert sum(1 for e in events if isinstance(e, CultureCounterTaken)) == sum(owned)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_art_of_the_moors(players: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=500 + players, try_every_action=players <= 3)
    check_end(game.state, game.events)
    assert game.actions["culture develop"] > 0
    assert developed(game.events) == game.actions["culture develop"]


@pytest.mark.parametrize(
    ("players", "modules"),
    [
        (2, ("vizier", "squares")),
        (3, ("power_of_the_sultan", "building_sites")),
        (4, ("medina", "bazaars", "master_builders")),
        (3, ("falconers", "bonus_cards", "invaders")),
    ],
)
def test_random_games_with_the_modules_it_touches(players: int, modules: tuple[str, ...]) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=610 + players, try_every_action=False)
    check_end(game.state, game.events)
    assert game.actions["culture develop"] > 0


def test_a_game_stopped_by_the_turn_limit() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID,), turn_limit=60), seed=4, try_every_action=False)
    assert game.state.outcome == "truncated" and isinstance(game.events[-1], GameEnded)
    assert MODULE.bot_values(game.state) is None


def test_bot_values_grow_with_the_gem_and_the_marker() -> None:
    state = fresh()
    s = state.current
    give(state, s, "A8n")
    give(state, s, "G8ne")
    got = MODULE.bot_values(state)
    assert got is not None and got[s] > 0 == got[(s + 1) % 3]
    sl = moors(state)
    rows = list(sl.seats)
    row = list(rows[s])
    row[2] = (1, 1)
    rows[s] = tuple(row)
    base = seat_values(state)[s]
    state.mods[ID] = MoorsState(sl.supply, tuple(rows))
    turned = MODULE.bot_values(state)
    assert turned is not None and turned[s] > got[s]
    assert seat_values(state)[s] > base


@pytest.mark.parametrize("bots", [["greedy", "random"], ["random", "greedy"]])
def test_greedy_develops_culture(bots: list[str]) -> None:
    greedy = bots.index("greedy")
    total = 0
    for seed in (7, 8):
        result = play_game(GameConfig(players=2, modules=(ID,)), bots, seed=seed, game=0)
        assert result.outcome == "finished" and result.fallbacks == 0
        state, events = replay(GameRecord.from_json(result.record))
        check_end(state, events)
        total += developed(events, result.seats[greedy])
    assert total >= 2


def test_mcts_plays_with_the_art_of_the_moors() -> None:
    config = GameConfig(players=3, modules=(ID,), turn_limit=80)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.fallbacks == 0
    _, events = replay(GameRecord.from_json(result.record))
    assert any(isinstance(e, CultureCounterTaken) for e in events)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_property_counters_stay_consistent(players: int, seed: int) -> None:
    """Whatever random play does: every counter is owned once or in the supply, a gem corner
    never passes its marker, and each marker is where the seat's buildings put it."""
    game = play_random_game(GameConfig(players=players, modules=(ID,), turn_limit=50), seed=seed, try_every_action=False)
    state = game.state
    sl = moors(state)
    types = faces()
    for i, t in enumerate(types):
        assert sl.supply[i] + sum(1 for row in sl.seats if row[i] is not None) == t.count
    for s, row in enumerate(sl.seats):
        counts = buildings(state, s)
        for i, c in enumerate(row):
            if c is not None:
                assert 0 <= c[0] <= c[1] == types[i].marker_for(counts[i])
            elif sl.supply[i]:
                assert counts[i] < 2
