"""Whole games with the falconers (random legal actions, every step checked: conservation, JSON
round trips, actions by kind, exact replays) and the bots' valuation and use of falcons."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from alhambra import GameConfig, GameRecord, replay
from alhambra.bots.greedy import seat_values
from alhambra.events import Event, GameEnded, RoundScored
from alhambra.modules.falconers import MODULE, FalconBought, PlacedFalcon, falcon_points, falcons
from alhambra.state import GameState
from alhambra.testing import play_random_game
from alhambra.tournament import play_game

from .helpers import ID, fresh


def bought(events: list[Event], seat: int | None = None) -> int:
    return sum(1 for e in events if isinstance(e, FalconBought) and seat in (None, e.seat))


def falcon_actions(chosen: Counter[str]) -> int:
    """How many falcons were bought (``play_random_game`` counts ``falcon Fw5``, ``falcon done`` ...)."""
    return sum(n for k, n in chosen.items() if k.startswith("falcon ") and k != "falcon done")


def check_end(state: GameState, events: list[Event]) -> None:
    """Three scoring rounds, each listing the falcons' points; the last one as the falcons stand."""
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert [e.round for e in rounds] == [1, 2, 3]
    assert rounds[-1].extra[ID] == tuple(falcon_points(state, s) for s in range(state.config.players))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_falconers(players: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=800 + players, try_every_action=players <= 3)
    check_end(game.state, game.events)
    assert falcon_actions(game.actions) > 0
    assert bought(game.events) == falcon_actions(game.actions)


@pytest.mark.parametrize(
    ("players", "modules"),
    [
        (3, ("diamonds", "master_builders")),
        (2, ("change", "bazaars")),
        (4, ("medina", "building_sites")),
        (3, ("treasure_chamber", "vizier", "exchange_certificates")),
    ],
)
def test_random_games_with_the_modules_it_touches(players: int, modules: tuple[str, ...]) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=900 + players, try_every_action=False)
    check_end(game.state, game.events)
    assert falcon_actions(game.actions) > 0


def test_a_game_stopped_by_the_turn_limit() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID,), turn_limit=80), seed=3, try_every_action=False)
    assert game.state.outcome == "truncated" and isinstance(game.events[-1], GameEnded)
    assert MODULE.bot_values(game.state) is None


# ---------------------------------------------------------------------------------- bots
def give(state: GameState, seat: int, codes: list[str]) -> None:
    sl = falcons(state)
    rows = list(sl.placed)
    rows[seat] = tuple(PlacedFalcon(c, i, 9, ("F", "F", "F", "F")) for i, c in enumerate(codes))
    state.mods[ID] = replace(sl, placed=tuple(rows))


def test_bot_values_grow_with_falcons_and_more_of_a_type() -> None:
    state = fresh()
    seen = []
    for codes in ([], ["Fw1"], ["Fw1", "Fk1"], ["Fw1", "Fw2"], ["Fw1", "Fw2", "Fw3"]):
        give(state, 1, codes)
        got = MODULE.bot_values(state)
        assert got is not None and got[0] == got[2] == 0
        seen.append(got[1])
    assert seen[0] == 0 < seen[1] < seen[2] < seen[3] < seen[4]


def test_greedy_values_include_the_falcons() -> None:
    state = fresh()
    s = state.current
    base = seat_values(state)[s]
    give(state, s, ["Fr1", "Fr2"])
    assert seat_values(state)[s] > base + 6


@pytest.mark.parametrize("bots", [["greedy", "random"], ["random", "greedy"]])
def test_greedy_buys_falcons(bots: list[str]) -> None:
    greedy = bots.index("greedy")
    total = 0
    for seed in (7, 8):
        result = play_game(GameConfig(players=2, modules=(ID,)), bots, seed=seed, game=0)
        assert result.outcome == "finished" and result.fallbacks == 0
        state, events = replay(GameRecord.from_json(result.record))
        check_end(state, events)
        total += bought(events, result.seats[greedy])
    assert total >= 4


def test_mcts_plays_with_the_falconers() -> None:
    config = GameConfig(players=3, modules=(ID,), turn_limit=60)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0
    _, events = replay(GameRecord.from_json(result.record))
    assert bought(events) > 0
