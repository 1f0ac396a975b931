"""The research APIs with the medinas: a medina (no building kind) encodes sanely in the
observation (present, no kind, its price and walls, its own tile one-hot; all in [0, 1]), and
every legal action with medinas maps to exactly one token sequence."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig, view  # noqa: E402
from alhambra.research.encoding import codec_for  # noqa: E402
from alhambra.research.observation import ObservationEncoder  # noqa: E402
from alhambra.testing import check_encoded_game  # noqa: E402

from .helpers import ID, MEDINAS, build_row, fresh  # noqa: E402


def encoder(config: GameConfig) -> ObservationEncoder:
    return ObservationEncoder.for_config(config, codec_for(config))


def test_a_medina_on_the_market_has_no_kind_but_its_price_walls_and_code() -> None:
    state = fresh(players=3, seed=2, market=("P4es", "M10", "A6sw", "M5nw"))
    enc = encoder(state.config)
    obs = enc.encode(view(state, state.current, with_legal_actions=False))
    assert obs.dtype == np.float32 and obs.min() >= 0.0 and obs.max() <= 1.0
    m0, m1 = enc.sections["market"]
    nk = len(state.components.kinds)
    sq = 6 + nk
    blocks = obs[m0 : m0 + 4 * sq].reshape(4, sq)
    onehots = obs[m0 + 4 * sq : m1].reshape(4, -1)
    for i, (code, price, walls) in enumerate([("P4es", 4, 2), ("M10", 10, 0), ("A6sw", 6, 2), ("M5nw", 5, 2)]):
        assert blocks[i, 0] == 1.0  # a tile is there
        kinds = blocks[i, 1 : 1 + nk]
        assert kinds.sum() == (0.0 if code in MEDINAS else 1.0)  # a medina is none of the kinds
        assert blocks[i, 1 + nk] == pytest.approx(price / 13)
        assert blocks[i, 2 + nk :].sum() == walls
        assert onehots[i].sum() == 1.0
    assert int(np.argmax(onehots[1])) != int(np.argmax(onehots[3]))  # each medina has its own code


def test_built_medinas_count_in_no_kind_of_the_seats_section() -> None:
    config = GameConfig(players=3, modules=(ID,))
    enc = encoder(config)
    state = fresh(players=3, seed=2)
    before = enc.encode(view(state, 0, with_legal_actions=False))
    build_row(state, 0, ["M2sw", "M3es"])
    after = enc.encode(view(state, 0, with_legal_actions=False))
    nk = len(state.components.kinds)
    s0 = enc.sections["seats"][0]
    kinds = slice(s0 + 3, s0 + 3 + nk)  # the viewer's Alhambra kinds
    assert (after[kinds] == before[kinds]).all()
    assert after[s0 + 3 + 2 * nk] > before[s0 + 3 + 2 * nk]  # the Alhambra grew
    assert after.min() >= 0.0 and after.max() <= 1.0


@pytest.mark.parametrize("players", [2, 4])
def test_every_action_with_medinas_encodes_and_decodes(players: int) -> None:
    config = GameConfig(players=players, modules=(ID, "vizier"))
    listed = check_encoded_game(config, 40 + players)
    assert any(str(a).startswith("place M") for a in listed)
