"""The research APIs with ``game=granada``: OpenSpiel's ``python_alhambra(game=granada)``, the
token encoding, observation channels sized by the ruleset, PettingZoo and Gymnasium."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy", reason="the research APIs need numpy")

from alhambra.research.encoding import codec_for  # noqa: E402
from alhambra.research.observation import ObservationEncoder  # noqa: E402
from alhambra.state import GameConfig  # noqa: E402

GRANADA = GameConfig(players=2, game="granada")


def test_vocabulary_has_the_turn_keyword_and_both_faces_only_in_granada() -> None:
    alh = codec_for(GameConfig(players=2))
    gra = codec_for(GRANADA)
    assert "turn" not in alh.keywords and "turn" in gra.keywords
    assert len(alh.tile_codes) == 54 and len(gra.tile_codes) == 108
    assert gra.grammars["turn"] == (("tile", "cards"),)


def test_observation_channels_are_sized_by_the_ruleset() -> None:
    alh = ObservationEncoder.for_config(GameConfig(players=2), codec_for(GameConfig(players=2)))
    gra = ObservationEncoder.for_config(GRANADA, codec_for(GRANADA))
    g = 2 * alh.grid + 1

    def size(enc: ObservationEncoder, name: str) -> int:
        start, end = enc.sections[name]
        return end - start

    assert size(alh, "alhambras") == 2 * 12 * g * g and size(gra, "alhambras") == 2 * 15 * g * g
    assert size(alh, "seats") == 2 * 17 and size(gra, "seats") == 2 * 23
    assert size(alh, "neutral") == 8 and size(gra, "neutral") == 11
    assert size(gra, "market") == 4 * (15 + 108)


def test_granada_observation_marks_the_kind_of_a_built_tile() -> None:
    from alhambra import city as geo
    from alhambra.engine import new_game
    from alhambra.view import view

    state, _ = new_game(GRANADA, 4)
    comp = state.components
    school = comp.tile_ids["S12"]
    if comp.physical(school) in state.bag:
        state.bag.remove(comp.physical(school))
    state.players[0].city[geo.pos(1, 0)] = school  # east of the fountain
    enc = ObservationEncoder.for_config(GRANADA, codec_for(GRANADA))
    obs = enc.encode(view(state, 0))
    g = 2 * enc.grid + 1
    plane = g * g
    a0 = enc.sections["alhambras"][0]
    at = a0 + (enc.grid) * g + enc.grid + 1
    kind = comp.kinds.index("school")
    assert obs[at] == 1.0 and obs[at + plane * (2 + kind)] == 1.0
    s0 = enc.sections["seats"][0]
    assert obs[s0 + 3 + kind] > 0


@pytest.mark.parametrize(("players", "turn_limit"), [(2, None), (3, 60)])
def test_openspiel_random_sim_test_granada(players: int, turn_limit: int | None) -> None:
    """A whole 2-player game, and the start of a 3-player one (every observer is checked at
    every step: a whole 3-player game took minutes)."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    import alhambra.openspiel  # noqa: F401 - registers the game

    limit = "" if turn_limit is None else f",turn_limit={turn_limit}"
    game = pyspiel.load_game(f"python_alhambra(game=granada,players={players}{limit})")
    assert game.config.game == "granada"
    assert game.max_chance_outcomes() == 36 + 2 + 54, "money codes, scoring cards, each tile once (by its front)"
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_pettingzoo_api_test_granada() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from alhambra.pettingzoo import AlhambraAEC

    env = AlhambraAEC(players=2, game="granada", turn_limit=60, render_mode="ansi")
    assert env.config.game == "granada"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env, num_cycles=600)


def test_gymnasium_granada_episode_against_greedy() -> None:
    pytest.importorskip("gymnasium")
    import alhambra.gymnasium as agym

    e = agym.AlhambraEnv(players=2, game="granada", opponents="greedy", turn_limit=80)
    obs, info = e.reset(seed=3)
    e.action_space.seed(3)
    done = False
    steps = 0
    while not done:
        assert e.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = e.step(int(e.action_space.sample(info["action_mask"])))
        assert not info["illegal"]
        done = terminated or truncated
        steps += 1
    assert e.game is not None and e.game.state.config.game == "granada"
    assert -1.0 <= reward <= 1.0 and steps > 10
