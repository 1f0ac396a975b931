"""Whole games with the camps (random legal actions, every step checked: conservation, JSON round
trips, actions by kind, exact replays), every camp standing legally at the end, and the bots'
valuation and use of camps."""

from __future__ import annotations

import pytest

from alhambra import GameConfig, GameRecord, city as geo, replay
from alhambra.bots.greedy import seat_values
from alhambra.events import Event, GameEnded, RoundScored
from alhambra.modules.camps import BASTIONS, MODULE, CampPlaced, camp_points, camps_of, camps_state
from alhambra.modules.camps.module import camp_problem, tables
from alhambra.state import GameState
from alhambra.testing import play_random_game
from alhambra.tournament import play_game

from .helpers import EXAMPLE_CAMPS, ID, example, put_camps


def check_end(state: GameState, events: list[Event]) -> None:
    """Three scoring rounds listing the camps' points (the last as the camps stand), and every camp legal."""
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert [e.round for e in rounds] == [1, 2, 3]
    assert rounds[-1].extra[ID] == tuple(camp_points(state, s) for s in range(state.config.players))
    check_camps(state)


def check_camps(state: GameState) -> None:
    """Every placed camp obeys the camp rules with the Alhambra as it stands."""
    tab = tables(state.components)
    for seat, row in enumerate(camps_state(state).placed):
        camps = camps_of(state, seat)
        for c in row:
            q = geo.pos(c.x, c.y)
            others = {p: t for p, t in camps.items() if p != q}
            assert camp_problem(state.players[seat].city, state.walls, others, tab, BASTIONS[c.camp], q) is None, (seat, c)


def camps_weighted(action: object) -> float:
    """Random play that builds camps whenever it can (and redesigns rarely)."""
    text = str(action)
    return 60.0 if text.startswith("camp place") else 1.0 if text.startswith(("redesign", "camp")) else 10.0


@pytest.mark.parametrize(("players", "modules", "seed"), [(3, (), 11), (2, ("change", "squares", "vizier"), 12)])
def test_random_games_with_the_camps(players: int, modules: tuple[str, ...], seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=seed, try_every_action=False, prefer=camps_weighted)
    check_end(game.state, game.events)
    assert sum(1 for e in game.events if isinstance(e, CampPlaced)) > 0


def test_a_game_stopped_by_the_turn_limit() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID,), turn_limit=40), seed=3, try_every_action=False)
    assert game.state.outcome == "truncated" and isinstance(game.events[-1], GameEnded)
    assert MODULE.bot_values(game.state) is None


# ---------------------------------------------------------------------------------- bots
def test_bot_values_count_the_lines_for_the_rounds_left() -> None:
    state = example()
    got = MODULE.bot_values(state)
    assert got is not None and got[1] == got[2] == 0 and got[0] >= 10
    fewer = example()
    fewer.mods[ID] = type(camps_state(fewer))(((), (), ()))
    for code in EXAMPLE_CAMPS.values():
        fewer.bag.append(fewer.components.tile_ids[code])
    put_camps(fewer, 0, {(-1, 1): "L4e"})
    low = MODULE.bot_values(fewer)
    assert low is not None and 0 < low[0] < got[0]
    assert seat_values(state)[0] > seat_values(fewer)[0]


def test_greedy_builds_camps() -> None:
    result = play_game(GameConfig(players=2, modules=(ID,)), ["greedy", "greedy"], seed=5, game=0)
    assert result.outcome == "finished" and result.fallbacks == 0
    state, events = replay(GameRecord.from_json(result.record))
    check_end(state, events)
    assert any(isinstance(e, CampPlaced) for e in events)


def test_mcts_plays_with_the_camps() -> None:
    config = GameConfig(players=3, modules=(ID,), turn_limit=40)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0
    state, _ = replay(GameRecord.from_json(result.record))
    check_camps(state)
