"""Whole games with the invaders (random legal actions, every step checked: conservation, JSON
round trips, actions by kind, exact replays), the slice's JSON form, the bot values and the bots."""

from __future__ import annotations

import pytest

from alhambra import GameConfig, GameRecord, replay
from alhambra.bots.greedy import seat_values
from alhambra.errors import NotationError
from alhambra.events import Event, GameEnded, RoundScored
from alhambra.hooks import Module
from alhambra.modules.invaders import MODULE, Invaders, InvadersState, InvasionRevealed, InvasionScouted, invaders
from alhambra.modules.invaders.module import LATER_ROUND_WEIGHT
from alhambra.serialize import state_from_json, state_to_json
from alhambra.state import GameState
from alhambra.testing import build_tiles as build, play_random_game
from alhambra.tournament import play_game

from .helpers import ID, fresh, set_top


def check_end(state: GameState, events: list[Event]) -> list[InvasionRevealed]:
    """Three invasions, each directly after its scoring round, from three different directions;
    the final scores are the last invasion's."""
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    invasions = [e for e in events if isinstance(e, InvasionRevealed)]
    assert [e.round for e in invasions] == [1, 2, 3]
    assert len({e.direction for e in invasions}) == 3
    rounds = [e for e in events if isinstance(e, RoundScored)]
    for r, inv in zip(rounds, invasions, strict=True):
        assert events.index(inv) > events.index(r)
        assert all(0 <= lost <= max(score, 0) for lost, score in zip(inv.lost, r.scores, strict=True))
    assert invaders(state).revealed == tuple(e.direction for e in invasions)
    assert state.score_history[-1] == tuple(state.scores)
    return invasions


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_invaders(players: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=800 + players, try_every_action=players <= 3)
    invasions = check_end(game.state, game.events)
    assert sum(sum(e.lost) for e in invasions) > 0


def test_a_random_game_with_the_face_up_variation() -> None:
    config = GameConfig(players=3, modules=(ID,), options=((ID, "face_up", True),))
    game = play_random_game(config, seed=41, try_every_action=False)
    check_end(game.state, game.events)
    assert not any(isinstance(e, InvasionScouted) for e in game.events)


@pytest.mark.parametrize(
    ("players", "modules"),
    [
        (3, ("vizier", "medina")),
        (2, ("new_score_cards", "bazaars")),
        (4, ("building_sites", "vizier")),
    ],
)
def test_random_games_with_the_modules_it_touches(players: int, modules: tuple[str, ...]) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=900 + players, try_every_action=False)
    check_end(game.state, game.events)


def test_random_games_scout_some_time() -> None:
    looks = 0
    for seed in range(4):
        game = play_random_game(GameConfig(players=4, modules=(ID,)), seed=60 + seed, try_every_action=False)
        looks += sum(isinstance(e, InvasionScouted) for e in game.events)
    assert looks > 0


def test_a_game_stopped_by_the_turn_limit_has_only_the_invasions_of_the_rounds_played() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID,), turn_limit=80), seed=3, try_every_action=False)
    assert game.state.outcome == "truncated"
    rounds = [e.round for e in game.events if isinstance(e, RoundScored)]
    assert [e.round for e in game.events if isinstance(e, InvasionRevealed)] == rounds
    assert len(rounds) < 3
    assert MODULE.bot_values(game.state) is None
    assert MODULE.view(game.state, 0)["next"] is None


# ---------------------------------------------------------------------------------- JSON
def test_the_slice_survives_a_json_round_trip() -> None:
    state = fresh()
    set_top(state, "east", known=[2])
    state.mods[ID] = InvadersState(("north",), "east", (False, False, True), ("tower",), ("garden", "arcades"), ((2, "chambers"),))
    back = state_from_json(state_to_json(state))
    assert invaders(back) == invaders(state)


@pytest.mark.parametrize(
    "junk",
    [
        None,
        [],
        {"revealed": []},
        {"revealed": ["up"], "top": None, "known": [], "scouts": [], "pile": [], "taken": []},
        {"revealed": ["north"], "top": "north", "known": [], "scouts": [], "pile": [], "taken": []},
        {"revealed": ["north", "north"], "top": None, "known": [], "scouts": [], "pile": [], "taken": []},
        {"revealed": [], "top": None, "known": [], "scouts": ["tower"], "pile": ["tower"], "taken": []},
        {"revealed": [], "top": None, "known": [], "scouts": ["fountain"], "pile": [], "taken": []},
        {"revealed": [], "top": None, "known": [], "scouts": [], "pile": [], "taken": [[0, "tower", 1]]},
        {"revealed": [], "top": None, "known": [], "scouts": [], "pile": [], "taken": [["x", "tower"]]},
        {"revealed": ["north", "east", "south", "west"], "top": None, "known": [], "scouts": [], "pile": [], "taken": []},
    ],
)
def test_a_junk_slice_is_a_notation_error(junk: object) -> None:
    with pytest.raises(NotationError):
        MODULE.slice_from_json(junk)


def test_no_notation_of_its_own() -> None:
    """No action, pending or notation item: the scouts go with the core's purchases."""
    config = GameConfig(players=3, modules=(ID,))
    for hook in ("turn_actions", "pending_actions", "interrupt_actions", "perform", "offers", "notation_items"):
        assert getattr(type(MODULE), hook) is getattr(Module, hook), hook
    assert MODULE.notation_items(config) == []
    game = play_random_game(config, seed=12, try_every_action=False)
    assert not [k for k in game.actions if ID in k or "scout" in k]


# ---------------------------------------------------------------------------------- bots
def values(state: GameState) -> list[float]:
    got = MODULE.bot_values(state)
    assert got is not None
    return got


def test_bot_values_a_more_exposed_alhambra_is_worth_less() -> None:
    state = fresh()
    build(state, 0, {(1, 0): "A9", (-1, 0): "C10"})  # no walls: 3 north, 3 south, 1 east, 1 west
    build(state, 1, {(1, 0): "S3esw"})  # 2 north, 0 east, 1 south, 1 west
    got = values(state)
    assert got[0] < got[1] < 0 and got[2] < 0
    # seat 2 (a lone fountain: 1 side each way): round 1 in full, rounds 2 and 3 in part
    assert got[2] == pytest.approx(-(1 + LATER_ROUND_WEIGHT * (2 + 3 + 2)))


def test_bot_values_use_the_top_card_when_the_state_holds_it() -> None:
    state = fresh()
    build(state, 0, {(1, 0): "S3esw"})  # 2 north, 0 east
    set_top(state, "east", known=[0])
    east = values(state)[0]
    set_top(state, "north", known=[0])
    north = values(state)[0]
    assert east > north  # the next invasion from the east costs nothing now


def test_greedy_values_include_the_invasions(monkeypatch: pytest.MonkeyPatch) -> None:
    state = fresh()
    build(state, 1, {(1, 0): "A9", (-1, 0): "C10", (0, 1): "G10"})
    extra = values(state)
    with_them = seat_values(state)
    monkeypatch.setattr(Invaders, "bot_values", lambda self, state: None)
    without = seat_values(state)
    assert [a - b for a, b in zip(with_them, without, strict=True)] == pytest.approx(extra)
    assert extra[1] < extra[0] < 0


@pytest.mark.parametrize("bots", [["greedy", "random"], ["random", "greedy"]])
def test_greedy_and_random_finish_games(bots: list[str]) -> None:
    result = play_game(GameConfig(players=2, modules=(ID,)), bots, seed=7, game=0)
    assert result.outcome == "finished" and result.fallbacks == 0
    state, events = replay(GameRecord.from_json(result.record))
    check_end(state, events)


def test_mcts_plays_with_the_invaders() -> None:
    config = GameConfig(players=3, modules=(ID, "vizier"), turn_limit=40)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0
