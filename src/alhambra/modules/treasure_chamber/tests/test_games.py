"""Whole games with the treasure chamber: random players (every step checked), bots, replays, views."""

from __future__ import annotations

import json
import random

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, view
from alhambra.actions import Action
from alhambra.events import Event, GameEnded
from alhambra.modules.treasure_chamber import ChamberRefilled, ChestsPlaced, TreasureChestPlacement, chamber
from alhambra.testing import RandomGame, check_conservation, play_random_game
from alhambra.tournament import play_game

from .helpers import ID, check_chests


def prefer(action: Action) -> float:
    """Random players buy a room now and then (each payment is an action of its own, so rooms
    would crowd out everything else), redesign rarely and otherwise choose evenly."""
    text = str(action)
    if text.startswith("buy room"):
        return 0.5
    return 1.0 if text.startswith("redesign") else 10.0


def _replay_checking_chests(game: RandomGame) -> list[Event]:
    """Play the record again, checking all 42 chests and the public views at every step."""
    config = game.record.config
    state, events = new_game(config, game.record.seed)
    for action in game.record.actions:
        check_chests(state)
        views = {json.dumps(view(state, v)["module_views"][ID]) for v in (None, *range(config.players))}
        assert len(views) == 1  # everything of the module is public
        state, more = apply(state, action)
        events += more
    check_chests(state)
    return events


def _check_used(game: RandomGame, events: list[Event]) -> None:
    assert game.state.outcome == "finished" and isinstance(game.events[-1], GameEnded)
    assert any(str(a).startswith("buy room") for a in game.record.actions)
    assert any(isinstance(e, ChestsPlaced) for e in events) and any(isinstance(e, ChamberRefilled) for e in events)


@pytest.mark.parametrize(("players", "seed", "every"), [(2, 11, False), (3, 3, True), (4, 4, False), (6, 6, False)])
def test_random_games_with_the_module_alone(players: int, seed: int, every: bool) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=seed, prefer=prefer, try_every_action=every)
    events = _replay_checking_chests(game)
    _check_used(game, events)
    if players <= 3:
        assert game.actions["chest put"] > 0


@pytest.mark.parametrize(("players", "seed", "every"), [(2, 12, True), (3, 13, False)])
def test_random_games_with_vizier_and_currency_exchange(players: int, seed: int, every: bool) -> None:
    config = GameConfig(players=players, modules=(ID, "vizier", "currency_exchange"))
    game = play_random_game(config, seed=seed, prefer=prefer, try_every_action=every)
    events = _replay_checking_chests(game)
    _check_used(game, events)
    assert game.actions["vizier buy"] > 0


def test_random_games_with_the_other_modules_of_the_box_that_exist() -> None:
    """With every other installed module that plays with 3 players (the issue-14 modules among
    them once they exist): the chests still add up and the game ends."""
    from alhambra.hooks import available_modules, load_module

    mods = []
    for mid in available_modules():
        try:
            load_module(mid).check_config(GameConfig(players=3, modules=(mid,)))
        except Exception:
            continue
        mods.append(mid)
    config = GameConfig(players=3, modules=tuple(mods))
    assert ID in config.modules
    game = play_random_game(config, seed=31, prefer=prefer, try_every_action=False, check_every=10)
    _replay_checking_chests(game)
    assert game.state.outcome == "finished"


def test_turn_limited_game_is_truncated() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID, "vizier"), turn_limit=25), seed=5, prefer=prefer, try_every_action=False)
    assert game.state.outcome == "truncated"
    check_chests(game.state)


@pytest.mark.parametrize("bots", [("greedy", "greedy"), ("mcts:easy@iterations=12", "greedy", "random")])
def test_bots_play_whole_games_and_buy_chests(bots: tuple[str, ...]) -> None:
    config = GameConfig(players=len(bots), modules=(ID,), turn_limit=1000)
    result = play_game(config, list(bots), 5, 0)
    assert result.outcome == "finished"
    assert result.fallbacks == 0  # no bot fell back to a random action or met a sampler mismatch
    actions = [str(a) for a in result.record["actions"]]
    assert any(a.startswith("buy room") for a in actions)


def test_the_bots_sampler_rebuilds_the_chamber_exactly() -> None:
    from alhambra.bots.base import observe
    from alhambra.bots.tracker import Sampler

    config = GameConfig(players=3, modules=(ID,))
    game = play_random_game(config, seed=3, prefer=prefer, try_every_action=False)
    state, events = new_game(config, 3)
    checked = placing = 0
    for i, action in enumerate(game.record.actions):
        top = state.pending[-1]
        if isinstance(top, TreasureChestPlacement) or i % 60 == 0:
            sampler = Sampler(observe(state, top.seat, events))
            for k in range(2):
                sample = sampler.sample(random.Random(k))
                check_conservation(sample)
                check_chests(sample)
                assert chamber(sample) == chamber(state)
                assert sorted(map(str, legal_actions(sample))) == sorted(map(str, legal_actions(state)))
            checked += 1
            placing += isinstance(top, TreasureChestPlacement)
        state, more = apply(state, action)
        events += more
    assert checked >= 3 and placing >= 1


def test_the_research_token_encoding_spells_the_chamber_actions() -> None:
    pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")
    from alhambra import parse_action
    from alhambra.research.encoding import ActionCodec

    config = GameConfig(players=3, modules=(ID,))
    codec = ActionCodec(config)
    assert {"room1", "room2", "room3"} <= set(codec.items) and "chest put" in codec.keywords

    def names(text: str) -> list[str]:
        return [codec.names[t] for t in codec.encode(parse_action(text))]

    assert names("buy room2 b5+g3") == ["buy", "item room2", "card b5", "card g3", "done"]
    assert names("chest put 1,-2") == ["chest put", "cell 1,-2"]
    sample = [parse_action(t) for t in ("buy room1 y9", "buy room3 b2+g3+o3", "chest put 0,1", "chest put -2,3", "buy 2 g3")]
    for a in sample:
        assert codec.decode(codec.encode(a)) == a
    # every action of a random game encodes and decodes
    game = play_random_game(config, seed=7, prefer=prefer, try_every_action=False)
    assert any(str(a).startswith("buy room") for a in game.record.actions)
    for a in game.record.actions:
        assert codec.decode(codec.encode(a)) == a
