"""Whole games with the watchtowers (random legal actions, every step checked: conservation, JSON
round trips, actions by kind, exact replays), every watchtower standing legally at the end, the
bots' use of them, and the research encoding of their actions."""

from __future__ import annotations

import json

import pytest

from alhambra import GameConfig, GameRecord, city as geo, replay
from alhambra.engine import wall_points
from alhambra.events import Event, GameEnded, RoundScored
from alhambra.modules.watchtowers import COLOUR, MODULE, PlaceTower, ReturnTower, TowerPlaced, towers
from alhambra.modules.watchtowers.module import beyond, tower_wall_points
from alhambra.state import GameState
from alhambra.testing import play_random_game
from alhambra.tournament import play_game

ID = "watchtowers"


def check_end(state: GameState, events: list[Event]) -> None:
    """Three rounds; the last one's walls with the watchtowers; every watchtower legal."""
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert [e.round for e in rounds] == [1, 2, 3]
    assert list(rounds[-1].walls) == [wall_points(state, s, 3) for s in range(state.config.players)]
    comp = state.components
    for seat, row in enumerate(towers(state).placed):
        city = state.players[seat].city
        assert geo.validate_layout(city, state.walls, geo.ORIGIN) == []
        for x, y, code, half in row:
            q = geo.pos(x, y)
            assert city[q] == comp.tile_ids[code]
            assert not any(b in city for b in beyond(q, half))
        if row:
            assert wall_points(state, seat, 3) == tower_wall_points(state, seat)


def towers_weighted(action: object) -> float:
    text = str(action)
    return 40.0 if text.startswith(("buy tw", "watchtower place")) else 1.0 if text.startswith("redesign") else 10.0


@pytest.mark.parametrize(("players", "modules", "seed"), [(3, (), 5), (2, ("camps", "building_sites", "exchange_certificates"), 6)])
def test_random_games_with_the_watchtowers(players: int, modules: tuple[str, ...], seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=seed, try_every_action=False, prefer=towers_weighted)
    check_end(game.state, game.events)
    assert sum(1 for e in game.events if isinstance(e, TowerPlaced)) > 0


def test_greedy_buys_and_places_watchtowers() -> None:
    result = play_game(GameConfig(players=2, modules=(ID,)), ["greedy", "greedy"], seed=5, game=0)
    assert result.outcome == "finished" and result.fallbacks == 0
    state, events = replay(GameRecord.from_json(result.record))
    check_end(state, events)
    values = MODULE.bot_values(state)
    assert values is None  # the game is over


def test_every_watchtower_action_encodes_and_decodes() -> None:
    pytest.importorskip("numpy", reason="the research tools need numpy")
    from alhambra.research.encoding import codec_for
    from alhambra.testing import check_encoded_game

    config = GameConfig(players=3, modules=(ID,))
    listed = check_encoded_game(config, 31, prefer=lambda a: isinstance(a, PlaceTower) or str(a).startswith("buy tw"))
    assert any(isinstance(a, PlaceTower) for a in listed)
    codec = codec_for(config)
    for a in (PlaceTower("Wg1", (2, -1), "sw"), ReturnTower(next(iter(COLOUR)))):
        assert codec.decode(codec.encode(a)) == a


def test_the_companion_scores_the_walls_with_the_watchtowers() -> None:
    from alhambra.companion import parse_table, score_table
    from alhambra.companion.export import export_table

    game = play_random_game(GameConfig(players=3, modules=(ID,)), seed=5, try_every_action=False, prefer=towers_weighted)
    state = game.state
    assert any(towers(state).placed)
    doc = export_table(state, 3, tuple(state.score_history[1]))
    seats = score_table(parse_table(doc)).seats
    assert [s.wall for s in seats[:3]] == [wall_points(state, s, 3) for s in range(3)]
    # the Alhambras as tiles, watchtowers included, and no wall entered: read from the tiles
    doc = json.loads(json.dumps(export_table(state, 3, tuple(state.score_history[1]), tiles=True)))
    for p in doc["players"]:
        assert "tiles" in p
        p.pop("modules", None)
    result = score_table(parse_table(doc))
    assert result.valid, result.problems
    assert [s.wall for s in result.seats[:3]] == [wall_points(state, s, 3) for s in range(3)]
