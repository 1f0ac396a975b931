"""Whole games with Power of Sultan: random players (every step checked), bots, replays."""

from __future__ import annotations

from collections import Counter

import pytest

from alhambra import GameConfig
from alhambra.events import GameEnded
from alhambra.modules.power_of_the_sultan import SultanTileClaimed, SultanTileOffered, sultan_slice
from alhambra.testing import play_random_game
from alhambra.tournament import play_game

from .helpers import ID


def _used(actions: Counter[str]) -> None:
    for word in ("sultan keep", "sultan claim", "sultan decline"):
        assert actions[word] > 0, word
    assert actions["sultan reveal"] == actions["sultan mark"]


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 3), (4, 4), (6, 6)])
def test_random_games_with_the_module_alone(players: int, seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=seed)
    assert game.state.outcome == "finished" and isinstance(game.events[-1], GameEnded)
    _used(game.actions)
    texts = [str(a) for a in game.record.actions]
    assert any(t.startswith("buy su") for t in texts)
    sl = sultan_slice(game.state)
    assert len(sl.beside) + sum(len(o) for o in sl.owned) + len(sl.used) <= 8
    assert sl.held is None


@pytest.mark.parametrize(("players", "seed"), [(2, 12), (3, 13)])
def test_random_games_with_vizier_and_currency_exchange(players: int, seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, "vizier", "currency_exchange")), seed=seed)
    assert game.state.outcome == "finished"
    _used(game.actions)
    assert game.actions["vizier buy"] > 0


def test_turn_limited_game_is_truncated() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID, "vizier"), turn_limit=25), seed=5, try_every_action=False)
    assert game.state.outcome == "truncated"


@pytest.mark.parametrize("bots", [("greedy", "greedy"), ("mcts:easy@iterations=12", "greedy", "random")])
def test_bots_play_whole_games_and_use_the_sultan_cards(bots: tuple[str, ...]) -> None:
    config = GameConfig(players=len(bots), modules=(ID,), turn_limit=1000)
    result = play_game(config, list(bots), 5, 0)
    assert result.outcome == "finished"
    assert result.fallbacks == 0  # no bot fell back to a random action or met a sampler mismatch
    actions = [str(a) for a in result.record["actions"]]
    assert any(a.startswith("buy su") for a in actions)
    assert any(a == "sultan claim" for a in actions)


def test_claims_happen_in_random_games_with_two_players() -> None:
    game = play_random_game(GameConfig(players=2, modules=(ID,)), seed=21, try_every_action=False)
    offered = [e for e in game.events if isinstance(e, SultanTileOffered)]
    claimed = [e for e in game.events if isinstance(e, SultanTileClaimed)]
    assert offered and claimed


def test_the_bots_sampler_rebuilds_the_sultan_cards_consistently() -> None:
    import random

    from alhambra import apply, legal_actions, new_game
    from alhambra.bots.base import observe
    from alhambra.bots.tracker import Sampler
    from alhambra.modules.power_of_the_sultan import SultanClaimOffer
    from alhambra.testing import check_conservation

    config = GameConfig(players=3, modules=(ID,))
    game = play_random_game(config, seed=3, try_every_action=False)
    state, events = new_game(config, 3)
    checked = claims = 0
    for action in game.record.actions:
        top = state.pending[-1]
        sl = sultan_slice(state)
        if isinstance(top, SultanClaimOffer) or (sl.beside and checked < 3):
            seat = top.seat
            sampler = Sampler(observe(state, seat, events))
            for k in range(3):
                sample = sampler.sample(random.Random(k))
                check_conservation(sample)
                assert sultan_slice(sample) == sl
                assert sorted(map(str, legal_actions(sample))) == sorted(map(str, legal_actions(state)))
            checked += 1
            claims += isinstance(top, SultanClaimOffer)
        state, more = apply(state, action)
        events += more
    assert checked >= 3 and claims >= 1
