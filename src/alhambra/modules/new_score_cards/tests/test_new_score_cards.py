"""New score cards: the data, the setup draw (seeded and as chance nodes), the scoring of the
three rounds with the drawn cards, persistence and views."""

from __future__ import annotations

import json
import random

import pytest

from alhambra import GameConfig, new_game, state_from_json, state_to_json, view
from alhambra.chance import chance_outcomes
from alhambra.components import KINDS, SCORING_POINTS
from alhambra.engine import _score_round, kind_points
from alhambra.errors import NotationError
from alhambra.events import Event
from alhambra.hooks import available_modules, load_module
from alhambra.modules.new_score_cards import MODULE, ScoreCardsState, card, cards, points, score_cards
from alhambra.scoring import majority_awards
from alhambra.testing import check_conservation, explicit_setup

from .helpers import ID, LETTERS, ORDERS, build, game, scored, scoring_card_next, set_neutral, take_first, three_cities

# ---------------------------------------------------------------------------------- the data


def test_eighteen_cards_numbered_1_to_18_each_an_order_of_the_six_kinds() -> None:
    got = cards()
    assert [c.number for c in got] == list(range(1, 19))
    for c in got:
        assert sorted(c.kinds) == sorted(KINDS) and len(c.kinds) == 6
    assert len({c.kinds for c in got}) == 18  # each card a different order


def test_the_cards_are_the_facts_file_literally() -> None:
    for number, order in ORDERS.items():
        assert card(number).kinds == tuple(LETTERS[ch] for ch in order.split()), number
    with pytest.raises(KeyError):
        card(0)
    with pytest.raises(KeyError):
        card(19)


def test_the_points_rule_row_k_scores_k_then_7_plus_k_then_15_plus_k() -> None:
    for c in cards():
        for row, kind in enumerate(c.kinds, 1):
            assert c.row(kind) == row
            assert points(c.number, 1, kind) == (row,)
            assert points(c.number, 2, kind) == (7 + row, row)
            assert points(c.number, 3, kind) == (15 + row, 7 + row, row)


def test_row_1_scores_like_the_base_pavilion_row_and_row_6_like_the_tower_row() -> None:
    # no card has the base order (pavilion, seraglio, arcades, chambers, garden, tower) ...
    assert all(c.kinds != tuple(KINDS) for c in cards())
    # ... but its first and last rows score like the base table's
    card1 = card(1)  # pavilion on top, garden at the bottom
    assert [points(1, r, card1.kinds[0]) for r in (1, 2, 3)] == list(SCORING_POINTS["pavilion"])
    assert [points(1, r, card1.kinds[5]) for r in (1, 2, 3)] == list(SCORING_POINTS["tower"])
    assert [points(1, r, "pavilion") for r in (1, 2, 3)] == [(1,), (8, 1), (16, 8, 1)]
    assert [points(1, r, "garden") for r in (1, 2, 3)] == [(6,), (13, 6), (21, 13, 6)]


# ---------------------------------------------------------------------------------- setup


def test_setup_draws_three_different_public_cards() -> None:
    state, _ = new_game(GameConfig(players=3, modules=(ID,)), 4)
    sl = score_cards(state)
    assert len(sl.cards) == 3 and len(set(sl.cards)) == 3 and all(1 <= n <= 18 for n in sl.cards)
    check_conservation(state)  # the module adds no card or tile to the game
    assert len(state.components.cards) == len(new_game(GameConfig(players=3), 4)[0].components.cards)


def test_the_seed_decides_the_cards() -> None:
    config = GameConfig(players=4, modules=(ID,))
    drawn = [score_cards(new_game(config, seed)[0]).cards for seed in range(12)]
    assert drawn == [score_cards(new_game(config, seed)[0]).cards for seed in range(12)]  # deterministic
    assert len(set(drawn)) >= 10  # different seeds, different cards


def test_the_three_draws_are_chance_nodes_in_explicit_chance_mode() -> None:
    rng = random.Random(5)
    config = GameConfig(players=3, modules=(ID,))
    state, draws, decided = explicit_setup(config, lambda outs: rng.choice([c for c, _ in outs]))
    mine = [e for e in draws if e.kind == "module"]
    assert len(mine) == 3
    sizes = []
    for e in mine:
        assert e.draw is not None and e.draw.module == ID and e.draw.secret_to is None  # open cards
        outs = chance_outcomes(e.state, "module", e.draw)
        sizes.append(len(outs))
        assert all(code.startswith(f"{ID}:") for code, _ in outs)
        assert sum(p for _, p in outs) == pytest.approx(1.0)
        assert all(p == pytest.approx(1 / len(outs)) for _, p in outs)
    assert sizes == [18, 17, 16]  # without putting a drawn card back
    assert score_cards(state).cards == tuple(int(code.removeprefix(f"{ID}:")) for code in decided[2])
    assert MODULE.chance_items(config) == [str(n) for n in range(1, 19)]
    # the first draw offers every card, the later ones every card not yet drawn
    first = {code for code, _ in chance_outcomes(mine[0].state, "module", mine[0].draw)}
    assert first == {f"{ID}:{n}" for n in range(1, 19)}
    third = {code for code, _ in chance_outcomes(mine[2].state, "module", mine[2].draw)}
    assert third == first - set(decided[2][:2])


# ---------------------------------------------------------------------------------- scoring


def test_the_three_rounds_score_with_their_cards() -> None:
    state = game(cards=(5, 12, 18))  # 5: S A C T G P, 12: C G S A P T, 18: T P S C A G
    three_cities(state)
    base = game(cards=None, modules=())
    three_cities(base)

    scoring_card_next(state, "S1")
    state, events = take_first(state)
    r1 = scored(events)
    assert r1.round == 1 and r1.counts["tower"] == (2, 2, 1)
    assert r1.kinds["tower"] == (2, 2, 0)  # row 4 of card 5: 4, split between the two firsts
    assert r1.kinds["garden"] == (0, 0, 5)  # row 5
    assert r1.kinds["chambers"] == (0, 3, 0)  # row 3
    assert r1.kinds["pavilion"] == (0, 0, 0)

    scoring_card_next(state, "S2")
    state, events = take_first(state)
    r2 = scored(events)
    assert r2.round == 2
    assert r2.kinds["tower"] == (9, 9, 0)  # row 6 of card 12: (13 + 6) // 2 each; no 3rd place
    assert r2.kinds["garden"] == (2, 0, 9)  # row 2: 9 and 2
    assert r2.kinds["chambers"] == (0, 8, 0)  # row 1: 8

    events3: list[Event] = []
    _score_round(state, 3, events3)
    r3 = scored(events3)
    assert r3.kinds["tower"] == (12, 12, 1)  # row 1 of card 18: (16 + 8) // 2 each, 1 for the 3rd
    assert r3.kinds["garden"] == (13, 0, 21)  # row 6: 21 and 13
    assert r3.kinds["chambers"] == (0, 19, 0)  # row 4: 19

    for rnd, r, number in ((1, r1, 5), (2, r2, 12), (3, r3, 18)):
        for kind in KINDS:
            assert r.kinds[kind] == tuple(majority_awards(list(r.counts[kind]), points(number, rnd, kind)))
            assert kind_points(state, rnd, kind) == points(number, rnd, kind)

    # the same cities without the module score with the base table
    for rnd, r in ((1, r1), (2, r2), (3, r3)):
        got: list[Event] = []
        _score_round(base, rnd, got)
        b = scored(got)
        assert b.counts == r.counts
        for kind in KINDS:
            assert b.kinds[kind] == tuple(majority_awards(list(b.counts[kind]), SCORING_POINTS[kind][rnd - 1]))
        assert b.kinds != r.kinds
        if rnd == 1:
            assert b.kinds["tower"] == (3, 3, 0) and b.kinds["chambers"] == (0, 4, 0)


def test_the_neutral_player_is_scored_with_the_cards() -> None:
    state = game(players=2, seed=3, cards=(5, 12, 18))
    set_neutral(state, ["T11n", "T9ne", "T12", "G10", "G11", "P8"])
    build(state, 0, ["T13e", "T11", "T9es", "G12s"])
    build(state, 1, ["C10", "G9e"])
    scoring_card_next(state, "S1")
    state, events = take_first(state)
    r1 = scored(events)
    assert r1.counts["tower"] == (3, 0, 3) and r1.counts["garden"] == (1, 1, 2)
    assert r1.kinds["tower"] == (2, 0, 2)  # the seat and Dirk tie for first: 4 // 2 each
    assert r1.kinds["garden"] == (0, 0, 5)  # Dirk first alone: row 5 of card 5
    assert r1.kinds["pavilion"] == (0, 0, 6)  # row 6
    assert r1.kinds["chambers"] == (0, 3, 0)
    assert r1.neutral_points == 2 + 5 + 6
    assert state.neutral_score == 13


# ---------------------------------------------------------------------------------- JSON and views


def test_state_json_round_trip() -> None:
    state = game(cards=(18, 1, 7))
    data = state_to_json(state)
    back = state_from_json(json.loads(json.dumps(data)))
    assert score_cards(back) == ScoreCardsState((18, 1, 7))
    assert state_to_json(back) == data
    assert data["mods"][ID] == {"cards": [18, 1, 7]}
    data["mods"][ID] = {"cards": [18, 18, 7]}
    with pytest.raises(NotationError, match=r"bad new score cards: \[18, 18, 7\] \(three different cards 1-18\)"):
        state_from_json(data)


@pytest.mark.parametrize(
    "junk",
    [
        None,
        [],
        {"cards": "1,2,3"},
        {"cards": [1, 2]},
        {"cards": [1, 2, 2]},
        {"cards": [0, 1, 2]},
        {"cards": [1, 2, 19]},
        {"cards": [1, 2, True]},
        {"cards": [1, 2, "3"]},
        {"cards": [1, 2, 3], "x": 1},
    ],
)
def test_junk_slices_are_refused_with_a_readable_message(junk: object) -> None:
    with pytest.raises(NotationError, match="new score cards"):
        ScoreCardsState.from_dict(junk)
    with pytest.raises(NotationError, match="new score cards"):
        MODULE.slice_from_json(junk)


def test_the_view_is_public_and_rebuilds_the_slice() -> None:
    state = game(cards=(3, 9, 16))
    views = [view(state, v)["module_views"][ID] for v in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    v = views[0]
    assert v["next"] == 1
    assert [s["round"] for s in v["cards"]] == [1, 2, 3] and [s["card"] for s in v["cards"]] == [3, 9, 16]
    assert v["cards"][0]["kinds"] == list(card(3).kinds)
    assert v["cards"][2]["points"]["tower"] == [16, 8, 1]  # card 16: tower on top
    assert v["cards"][1]["points"]["tower"] == [13, 6]  # card 9: tower at the bottom
    assert MODULE.slice_from_view(json.loads(json.dumps(v)), state.config) == score_cards(state)
    # the core view lists the points per round and kind too, the same for everybody
    core = view(state, 1)["kind_points"]
    assert core == view(state, None)["kind_points"]
    assert core[0]["pavilion"] == [1] and core[1]["arcades"] == [8, 1] and core[2]["tower"] == [16, 8, 1]


def test_next_follows_the_rounds_scored() -> None:
    state = game(cards=(3, 9, 16))
    three_cities(state)
    scoring_card_next(state, "S1")
    state, _ = take_first(state)
    assert view(state, 0)["module_views"][ID]["next"] == 2


# ---------------------------------------------------------------------------------- the core without the module


def test_without_the_module_the_engine_reads_the_base_table() -> None:
    state, _ = new_game(GameConfig(players=3), 2)
    for rnd in (1, 2, 3):
        for kind in KINDS:
            assert kind_points(state, rnd, kind) == SCORING_POINTS[kind][rnd - 1]
    assert "kind_points" not in view(state, 0)
    other, _ = new_game(GameConfig(players=3, modules=("vizier",)), 2)
    assert kind_points(other, 3, "tower") == (21, 13, 6) and "kind_points" not in view(other, None)


def test_granada_has_no_table_and_refuses_the_module() -> None:
    state, _ = new_game(GameConfig(players=3, game="granada"), 2)
    assert kind_points(state, 2, state.components.kinds[0]) == ()
    assert MODULE.games == ("alhambra",)
    from alhambra.errors import ConfigError

    with pytest.raises(ConfigError, match=ID):
        new_game(GameConfig(players=3, game="granada", modules=(ID,)), 2)


def test_the_module_is_listed() -> None:
    assert ID in available_modules()
    assert load_module(ID) is MODULE
    assert MODULE.component_assumptions == ()
    assert len(MODULE.assumptions) == 2


def test_the_setup_announces_the_three_cards_in_the_log() -> None:
    from alhambra.modules.new_score_cards import ScoreCardsDrawn
    from alhambra.view import view_events

    state, events = new_game(GameConfig(players=3, modules=(ID,)), 3)
    drawn = [e for e in events if isinstance(e, ScoreCardsDrawn)]
    assert len(drawn) == 1 and drawn[0].cards == score_cards(state).cards
    assert [type(e).__name__ for e in events].index("ScoreCardsDrawn") == 1  # right after GameStarted
    text = drawn[0].describe()
    for slot, number in zip(("1st", "2nd", "3rd"), drawn[0].cards, strict=True):
        assert f"{slot} scoring: card {number} ({', '.join(card(number).kinds)})" in text
    assert Event.from_dict(json.loads(json.dumps(drawn[0].to_dict()))) == drawn[0]
    assert view_events(drawn, 0) == view_events(drawn, None)  # public
    _, plain = new_game(GameConfig(players=3), 3)
    assert not any(isinstance(e, ScoreCardsDrawn) for e in plain)
