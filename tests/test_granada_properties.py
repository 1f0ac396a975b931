"""Property tests over random games of Granada: every tile and card accounted for, faces never
turned once placed, replays exact, JSON round trip, views leak nothing, and both faces of every
market tile as the view and catalogue show them."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from alhambra.engine import apply, apply_unchecked, legal_actions, new_game
from alhambra.state import GameConfig, GameState
from alhambra.testing import check_conservation, play_random_game
from alhambra.view import catalogue, view

from .test_properties import assert_end_view_hides_nothing_else, hidden_variant, walk_keys

PLAYERS = st.integers(2, 6)
SEEDS = st.integers(0, 2**31 - 1)


def placed_faces(state: GameState) -> dict[int, int]:
    """Physical tile -> the face it shows, for every tile in a city, a reserve or the neutral player's."""
    comp = state.components
    out: dict[int, int] = {}
    for p in state.players:
        for t in [*p.city.values(), *p.reserve]:
            out[comp.physical(t)] = t
    for t in state.neutral or ():
        out[comp.physical(t)] = t
    return out


def check_market_faces(state: GameState, cat: dict[str, dict[str, object]], viewer: int | None) -> None:
    v = view(state, viewer)
    for sq in v["market"]:
        code = sq["tile"]
        if code is None:
            assert sq["back"] is None
            continue
        front, back = cat[code], cat[sq["back"]]
        assert front["back"] == sq["back"] and back["back"] == code, "the faces are each other's back"
        assert front["kind"] != back["kind"] and front["walls"] == back["walls"]
        even, odd = sorted((front, back), key=lambda t: int(str(t["price"])))
        assert int(str(odd["price"])) == int(str(even["price"])) + 1 and int(str(even["price"])) % 2 == 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS)
def test_random_granada_games_keep_every_invariant(players: int, seed: int, choice_seed: int) -> None:
    config = GameConfig(players=players, game="granada")
    cat = catalogue(config)["tiles"]
    state, _ = new_game(config, seed)
    rng = random.Random(choice_seed)
    seen: dict[int, int] = {}
    turned = 0
    while not state.is_over:
        check_conservation(state)
        faces = placed_faces(state)
        for phys, face in faces.items():
            assert seen.setdefault(phys, face) == face, "a tile placed in a city or reserve was turned"
        check_market_faces(state, cat, state.to_act)
        acts = legal_actions(state)
        # prefer turning over now and then so it is exercised
        turns = [a for a in acts if a.keyword == "turn"]
        action = rng.choice(turns) if turns and rng.random() < 0.5 else rng.choice(acts)
        turned += action.keyword == "turn"
        state, _ = apply(state, action)
    check_conservation(state)
    assert state.outcome == "finished"
    assert len(state.turned) == turned
    for t in state.turned:
        assert t in placed_faces(state).values(), "a turned tile was built"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=SEEDS)
def test_random_granada_games_replay_exactly_and_survive_json(players: int, seed: int) -> None:
    # play_random_game checks the JSON round trip of every state, the record's replay with
    # apply and with apply_unchecked (with and without events), conservation and the views
    game = play_random_game(GameConfig(players=players, game="granada"), seed, try_every_action=False)
    assert game.state.outcome == "finished"
    assert json.loads(json.dumps(game.record.to_json()))["config"]["game"] == "granada"


@settings(max_examples=20, deadline=None)
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS)
def test_granada_views_leak_nothing(players: int, seed: int, choice_seed: int) -> None:
    state, _ = new_game(GameConfig(players=players, game="granada"), seed)
    rng = random.Random(choice_seed)
    checked = 0
    while not state.is_over:
        if rng.random() < 0.05:
            for viewer in [*range(players), None]:
                other = hidden_variant(state, -1 if viewer is None else viewer, rng)
                mine = view(state, viewer)
                assert json.dumps(mine, sort_keys=True) == json.dumps(view(other, viewer), sort_keys=True)
                assert not {"seed", "deck", "bag"} & set(walk_keys(mine))
                checked += 1
        apply_unchecked(state, rng.choice(legal_actions(state)))
    assert_end_view_hides_nothing_else(state, view(state, 0), view(hidden_variant(state, 0, rng), 0))
