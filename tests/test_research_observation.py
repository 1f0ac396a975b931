"""Observation tensors come from views only: hidden facts never change them."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import (  # noqa: E402
    GameConfig,
    city as geo,
    new_game,
    view,
)
from alhambra.engine import apply_unchecked  # noqa: E402
from alhambra.policies import kind_random  # noqa: E402
from alhambra.research.encoding import TokenKind, codec_for  # noqa: E402
from alhambra.research.observation import ObservationEncoder, PublicHands, render_view  # noqa: E402
from alhambra.research.session import TokenGame  # noqa: E402
from alhambra.state import GameState  # noqa: E402


def encoder(config: GameConfig) -> ObservationEncoder:
    return ObservationEncoder.for_config(config, codec_for(config))


def test_sections_tile_the_tensor() -> None:
    enc = encoder(GameConfig(players=3, modules=("vizier",)))
    spans = sorted(enc.sections.values())
    assert spans[0][0] == 0
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert end == start
    assert spans[-1][1] == enc.info_size
    assert enc.sections["hands"] == (enc.size, enc.info_size)
    assert enc.sections["modules"][1] - enc.sections["modules"][0] == 3  # the vizier's awake flags


def _hide_and_shuffle(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state that differs from ``state`` only in what ``seat`` cannot see: the deck and bag
    order, and which cards other seats hold (same counts)."""
    other = state.copy()
    rng.shuffle(other.deck)
    rng.shuffle(other.bag)
    money = [c for c in other.deck if other.components.cards[c].kind == "money"]
    for s, p in enumerate(other.players):
        if s == seat or not money:
            continue
        for i in range(len(p.hand)):
            if not money:
                break
            if other.components.cards[p.hand[i]].kind == "money":
                j = other.deck.index(money.pop())
                p.hand[i], other.deck[j] = other.deck[j], p.hand[i]
    return other


@pytest.mark.parametrize("players", [2, 4])
def test_hidden_facts_do_not_change_the_observation(players: int) -> None:
    config = GameConfig(players=players, modules=("currency_exchange",))
    enc = encoder(config)
    state, _ = new_game(config, 3)
    rng = random.Random(3)
    compared = 0
    differed = 0
    for step in range(400):
        if state.is_over:
            break
        if step % 20 == 0:
            for seat in range(players):
                twin = _hide_and_shuffle(state, seat, rng)
                if twin.players[(seat + 1) % players].hand != state.players[(seat + 1) % players].hand:
                    differed += 1
                a = enc.encode(view(state, seat))
                b = enc.encode(view(twin, seat))
                assert np.array_equal(a, b)
                compared += 1
            # the seat's own hand does change its observation
            mine = state.copy()
            seat = 0
            if mine.players[seat].hand and mine.deck:
                mine.players[seat].hand[0], mine.deck[0] = mine.deck[0], mine.players[seat].hand[0]
                if mine.components.cards[mine.players[seat].hand[0]].code != state.components.cards[state.players[seat].hand[0]].code:
                    assert not np.array_equal(enc.encode(view(mine, seat)), enc.encode(view(state, seat)))
        apply_unchecked(state, kind_random(state, rng))
    assert compared >= 20
    assert differed >= compared // 2  # the twins really hold other cards


def test_values_are_bounded_and_informative() -> None:
    config = GameConfig(players=3, modules=("vizier",))
    enc = encoder(config)
    game = TokenGame(config, 8)
    rng = random.Random(8)
    seen_prefix = False
    while not game.is_over:
        if rng.random() < 0.05:
            for seat in (None, 0, 1, 2):
                obs = enc.encode(game.view(seat), game.prefix)
                assert obs.dtype == np.float32 and obs.shape == (enc.size,)
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                assert obs.any()
            if game.prefix:
                seen_prefix = True
                start, end = enc.sections["prefix"]
                assert enc.encode(game.view(0), game.prefix)[start:end].any()
                assert not enc.encode(game.view(0), ())[start:end].any()
        game.step(rng.choice(game.legal_tokens()))
    assert seen_prefix
    final = enc.encode(game.view(0))
    assert final[enc.sections["progress"][0] + 6] == 1.0  # finished
    assert not enc.encode(None).any()


def test_alhambra_grid_and_relative_seats() -> None:
    config = GameConfig(players=3)
    enc = encoder(config)
    game = TokenGame(config, 2)
    rng = random.Random(2)
    while not game.is_over and len(game.state.players[1].city) < 4:
        game.step(rng.choice(game.legal_tokens()))
    g = 2 * enc.grid + 1
    start, end = enc.sections["alhambras"]
    for viewer in range(3):
        grids = enc.encode(game.view(viewer))[start:end].reshape(3, 12, g, g)
        for seat in range(3):
            occupied = {(x - enc.grid, y - enc.grid) for y, x in zip(*np.nonzero(grids[(seat - viewer) % 3, 0]), strict=True)}
            assert occupied == {geo.xy(q) for q in game.state.players[seat].city}
            # fountain channel at the centre
            assert grids[(seat - viewer) % 3, 1, enc.grid, enc.grid] == 1.0


def test_public_hands_match_the_real_hands() -> None:
    for players, modules in [(2, ("vizier",)), (4, ("currency_exchange", "vizier"))]:
        config = GameConfig(players=players, modules=modules)
        state, events = new_game(config, 21)
        hands = PublicHands(players)
        hands.update(events)
        rng = random.Random(21)
        steps = 0
        while not state.is_over:
            hands.update(apply_unchecked(state, kind_random(state, rng)))
            steps += 1
            if steps % 10 == 0 or state.is_over:
                for s, p in enumerate(state.players):
                    assert hands.hands[s] == dict(Counter(state.card_code(c) for c in p.hand))
        copy = hands.copy()
        copy.hands[0]["b1"] = 99
        assert hands.hands[0].get("b1") != 99


def test_information_state_part_holds_every_hand() -> None:
    config = GameConfig(players=2)
    enc = encoder(config)
    state, events = new_game(config, 5)
    hands = PublicHands(2)
    hands.update(events)
    info = enc.encode(view(state, 0), (), hands.hands)
    assert info.shape == (enc.info_size,)
    assert np.array_equal(info[: enc.size], enc.encode(view(state, 0)))
    start, _ = enc.sections["hands"]
    h = len(enc.codec.card_codes)
    other = info[start + h : start + 2 * h]  # seat 1, relative to viewer 0
    for code, k in hands.hands[1].items():
        assert other[enc.codec.card_codes.index(code)] == pytest.approx(min(1.0, k / 3))


def test_prefix_section_spells_the_partial_decision() -> None:
    config = GameConfig(players=2)
    codec = codec_for(config)
    enc = encoder(config)
    state, _ = new_game(config, 1)
    prefix = (codec.token(TokenKind.KEYWORD, "buy"), codec.token(TokenKind.SQUARE, 3), codec.token(TokenKind.CARD, "o4"))
    part = enc.encode(view(state, 0), prefix)[slice(*enc.sections["prefix"])]
    k = len(codec.keywords)
    assert part[codec.keywords.index("buy")] == 1.0
    assert part[k + 2] == 1.0  # square 3
    assert part[k + 4 + codec.card_codes.index("o4")] == pytest.approx(1 / 9)
    assert part.sum() == pytest.approx(2 + 1 / 9)


def test_render_view_shows_the_public_table_only() -> None:
    config = GameConfig(players=2)
    state, _ = new_game(config, 6)
    text = render_view(view(state, None), "buy | square 1")
    assert "market" in text and "display" in text and "[chosen: buy | square 1]" in text
    for p in state.players:
        assert f"{len(p.hand)} cards" in text
    mine = render_view(view(state, 0))
    assert " ".join(view(state, 0)["seats"][0]["hand"]) in mine
