"""Every module at once: random whole games with all the modules the rules allow together.

Each module's own folder tests it alone and with the modules it touches; this file plays them
all together (hypothesis draws the player count, the deal and the choices) and checks the
invariants at every step: every card, tile and piece in exactly one place, JSON round trips,
views that do not change when only hidden facts change, and exact replays.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from alhambra import GameConfig, GameRecord, apply, legal_actions, new_game, replay, state_from_json, state_to_json, view
from alhambra.actions import Action
from alhambra.hooks import available_modules, load_module
from alhambra.state import GameState
from alhambra.testing import check_conservation


def all_modules(players: int) -> tuple[str, ...]:
    """Every installed module that accepts this player count (``check_config``)."""
    out = []
    for mid in available_modules():
        try:
            load_module(mid).check_config(GameConfig(players=players, modules=(mid,)))
        except Exception:
            continue
        out.append(mid)
    return tuple(out)


def shuffled_hidden(state: GameState, rng: random.Random) -> GameState:
    """The same game with the hidden orders (draw pile, bag) and the seed changed."""
    other = state.copy()
    other.seed = state.seed + 1
    rng.shuffle(other.deck)
    rng.shuffle(other.bag)
    return other


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), choice_seed=st.integers(0, 10**6))
def test_random_games_with_every_module(players: int, seed: int, choice_seed: int) -> None:
    mods = all_modules(players)
    assert len(mods) >= 8
    config = GameConfig(players=players, modules=mods)
    state, _ = new_game(config, seed)
    rng = random.Random(choice_seed)
    actions: list[Action] = []
    used: set[str] = set()
    while not state.is_over:
        assert len(actions) < 10000  # a safety net: random games with every module often take 3000-4700 actions
        acts = legal_actions(state)
        assert acts and len(set(acts)) == len(acts)
        if rng.random() < 0.05:
            data = state_to_json(state)
            rebuilt = state_from_json(json.loads(json.dumps(data)))
            assert state_to_json(rebuilt) == data
            assert legal_actions(rebuilt) == acts
            other = shuffled_hidden(state, rng)
            for viewer in [*range(players), None]:
                assert json.dumps(view(state, viewer)) == json.dumps(view(other, viewer))
        action = rng.choice(acts)
        if action.module is not None:
            used.add(action.module)
        state, _ = apply(state, action, state.to_act)
        actions.append(action)
        check_conservation(state)
    assert state.outcome == "finished"
    again, _ = replay(GameRecord.from_json(json.loads(json.dumps(GameRecord(config, seed, actions).to_json()))))
    assert state_to_json(again) == state_to_json(state)
    assert used, "the modules' own actions came up"


def test_modules_all_names_every_available_module() -> None:
    """``--modules all`` (and OpenSpiel's ``modules=all``) stands for every available module."""
    from alhambra.hooks import parse_module_ids

    assert parse_module_ids("all") == tuple(available_modules())
    both = parse_module_ids("vizier,all")
    assert sorted(both) == sorted(available_modules()) and both[0] == "vizier"  # no module twice
    assert parse_module_ids("vizier+thieves") == ("vizier", "thieves")
    state, _ = new_game(GameConfig(players=3, modules=parse_module_ids("all")), 1)
    assert set(state.config.modules) == set(available_modules())
