"""The research front ends see the score cards: the observation's ``kind_points`` section
(present only when a module replaces the scoring table) and the token encoding."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig, view  # noqa: E402
from alhambra.components import KINDS  # noqa: E402
from alhambra.modules.new_score_cards import ScoreCardsState, points  # noqa: E402
from alhambra.research.encoding import codec_for  # noqa: E402
from alhambra.research.observation import ObservationEncoder, render_view  # noqa: E402

from .helpers import ID, game  # noqa: E402


def encoder(config: GameConfig) -> ObservationEncoder:
    return ObservationEncoder.for_config(config, codec_for(config))


def test_the_observation_holds_the_points_of_every_round_kind_and_place() -> None:
    state = game(players=3, cards=(5, 12, 18))
    enc = encoder(state.config)
    start, end = enc.sections["kind_points"]
    assert end - start == 6 * len(KINDS)
    for viewer in (None, 0, 1, 2):
        got = enc.encode(view(state, viewer))[start:end].reshape(len(KINDS), 6)
        for k, kind in enumerate(KINDS):
            want = [*points(5, 1, kind), *points(12, 2, kind), *points(18, 3, kind)]
            assert np.allclose(got[k] * 21, want)
    assert enc.encode(view(state, 0)).max() <= 1.0
    other = state.copy()
    other.mods[ID] = ScoreCardsState((18, 12, 5))
    assert not np.array_equal(enc.encode(view(other, 0))[start:end], enc.encode(view(state, 0))[start:end])


def test_other_games_have_no_kind_points_and_keep_their_tensor() -> None:
    for config in (GameConfig(players=3), GameConfig(players=4, modules=("vizier",))):
        enc = encoder(config)
        start, end = enc.sections["kind_points"]
        assert start == end  # an empty section: every other entry keeps its place
    for players in (2, 3, 4):
        base = encoder(GameConfig(players=players))
        mine = encoder(GameConfig(players=players, modules=(ID,)))
        assert mine.size == base.size + 6 * len(KINDS)  # the module adds no token, only the section
        for name, (a, b) in base.sections.items():
            if name != "kind_points":
                assert mine.sections[name][1] - mine.sections[name][0] == b - a, name


def test_render_view_prints_the_points() -> None:
    state = game(players=2, cards=(1, 2, 3))
    text = render_view(view(state, 0))
    assert "points round 1: pavilion 1  chambers 2" not in text  # kinds in the game's order
    assert "points round 1: pavilion 1  seraglio 4  arcades 5  chambers 2  garden 6  tower 3" in text
    assert "points round 3: pavilion 16/8/1" in text
