"""Whole games with Caravanserai: random players (every step checked), other modules, bots, replays."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, view
from alhambra.bots.base import observe
from alhambra.bots.tracker import Sampler
from alhambra.events import GameEnded
from alhambra.hooks import available_modules, load_module
from alhambra.modules.caravanserai import CaravanseraiMarkerSpent, CaravanseraiMove, cara_slice
from alhambra.testing import check_conservation, play_random_game
from alhambra.tournament import play_game

from .helpers import ID


def _prefer(action: object) -> float:
    """Random players that buy caravanserai cards whenever they can (so the cards come into play)."""
    text = str(action)
    if text.startswith("buy cara"):
        return 200.0
    return 1.0 if text.startswith("redesign") else 10.0


def _used(game: object) -> None:
    actions: Counter[str] = game.actions  # type: ignore[attr-defined]
    assert actions["cara move"] > 0 and actions["cara stay"] > 0
    texts = [str(a) for a in game.record.actions]  # type: ignore[attr-defined]
    assert any(t.startswith("buy cara") for t in texts)
    assert any(isinstance(e, CaravanseraiMarkerSpent) for e in game.events)  # type: ignore[attr-defined]
    sl = cara_slice(game.state)  # type: ignore[attr-defined]
    assert sl.spent == ()
    assert all(sum(1 for o in sl.owners if o == s) <= 2 for s in range(game.state.config.players))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 3), (4, 4), (6, 6)])
def test_random_games_with_the_module_alone(players: int, seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=seed, prefer=_prefer)
    assert game.state.outcome == "finished" and isinstance(game.events[-1], GameEnded)
    _used(game)


@pytest.mark.parametrize(("players", "seed"), [(2, 12), (4, 13)])
def test_random_games_with_vizier_and_currency_exchange(players: int, seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, "vizier", "currency_exchange")), seed=seed, prefer=_prefer)
    assert game.state.outcome == "finished"
    _used(game)
    assert game.actions["vizier buy"] > 0
    # the vizier paid with a marker in these games, and never bought a card; markers paid with exchange cards
    texts = [str(a) for a in game.record.actions]
    assert any(t.startswith("vizier buy") and t.split()[-1].startswith("k") for t in texts)
    assert not any(t.startswith("vizier buy cara") for t in texts)
    assert any(t.startswith("buy") and "+x" in t and t.split()[-1].startswith("k") for t in texts)


def _every_module(players: int) -> tuple[str, ...]:
    out = []
    for mid in available_modules():
        try:
            load_module(mid).check_config(GameConfig(players=players, modules=(mid,)))
        except Exception:
            continue
        out.append(mid)
    return tuple(out)


@pytest.mark.parametrize(("players", "seed"), [(3, 21)])
def test_a_random_game_with_every_module(players: int, seed: int) -> None:
    config = GameConfig(players=players, modules=_every_module(players))
    assert ID in config.modules and "vizier" in config.modules
    game = play_random_game(config, seed=seed, prefer=_prefer, try_every_action=False, check_every=10)
    assert game.state.outcome == "finished"
    assert game.actions["cara move"] > 0


def test_turn_limited_game_is_truncated() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID, "vizier"), turn_limit=25), seed=5, try_every_action=False)
    assert game.state.outcome == "truncated"


def test_views_never_depend_on_hidden_facts() -> None:
    """Everything of the module is public: views are the same with another deck, bag and seed."""
    config = GameConfig(players=3, modules=(ID,))
    game = play_random_game(config, seed=3, try_every_action=False, prefer=_prefer)
    state, _ = new_game(config, 3)
    rng = random.Random(1)
    for i, action in enumerate(game.record.actions):
        if i % 25 == 0:
            other = state.copy()
            other.seed += 1
            rng.shuffle(other.deck)
            rng.shuffle(other.bag)
            for viewer in (None, 0, 1, 2):
                assert json.dumps(view(state, viewer)) == json.dumps(view(other, viewer))
        state, _ = apply(state, action)


@pytest.mark.parametrize("bots", [("greedy", "greedy"), ("mcts:easy@iterations=12", "greedy", "random")])
def test_bots_play_whole_games_and_use_the_caravanserai(bots: tuple[str, ...]) -> None:
    config = GameConfig(players=len(bots), modules=(ID,), turn_limit=1000)
    result = play_game(config, list(bots), 5, 0)
    assert result.outcome == "finished"
    assert result.fallbacks == 0  # no bot fell back to a random action or met a sampler mismatch
    actions = [str(a) for a in result.record["actions"]]
    assert any(a.startswith("buy cara") for a in actions)
    assert any(a.startswith("cara move") for a in actions)


def test_the_greedy_bot_pays_with_markers() -> None:
    config = GameConfig(players=2, modules=(ID,), turn_limit=1000)
    paid = 0
    for seed in (1, 2):
        result = play_game(config, ["greedy", "greedy"], seed, 0)
        paid += sum(1 for a in result.record["actions"] if any(w.startswith("k") for w in str(a).split()[-1].split("+")))
    assert paid > 0


def test_the_bots_sampler_rebuilds_the_cards_consistently() -> None:
    config = GameConfig(players=3, modules=(ID,))
    game = play_random_game(config, seed=3, try_every_action=False, prefer=_prefer)
    state, events = new_game(config, 3)
    moves = 0
    for checked, action in enumerate(game.record.actions):
        top = state.pending[-1]
        if isinstance(top, CaravanseraiMove) or (any(o >= 0 for o in cara_slice(state).owners) and checked % 7 == 0 and checked < 20):
            sampler = Sampler(observe(state, top.seat, events))
            for k in range(2):
                sample = sampler.sample(random.Random(k))
                check_conservation(sample)
                assert cara_slice(sample) == cara_slice(state)
                assert sorted(map(str, legal_actions(sample))) == sorted(map(str, legal_actions(state)))
            moves += isinstance(top, CaravanseraiMove)
        state, more = apply(state, action)
        events += more
        if moves >= 5:
            break
    assert moves >= 5
