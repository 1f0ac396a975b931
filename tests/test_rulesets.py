"""Rulesets as data: Alhambra is exactly the base game's facts; Granada's tile set keeps the rules'
constraints; configurations name their game."""

from __future__ import annotations

from collections import Counter

import pytest

from alhambra.components import BASE_TILES, KIND_LETTERS, KINDS, SCORING_POINTS
from alhambra.engine import build_components, new_game
from alhambra.errors import ConfigError
from alhambra.rulesets import game_ids, multiples_awards, ruleset
from alhambra.state import GameConfig


def test_alhambra_ruleset_is_the_base_game() -> None:
    rs = ruleset("alhambra")
    assert rs.kinds == KINDS
    assert "".join(rs.kind_letters[k] for k in KINDS) == KIND_LETTERS
    assert rs.tiles == BASE_TILES
    assert rs.backs == () and not rs.two_sided
    assert rs.points == SCORING_POINTS
    assert (rs.scoring, rs.refill, rs.turn_over_cost, rs.wall_name) == ("table", "plain", 0, "wall")
    assert rs.assumptions == () and rs.readings == ()
    assert ruleset() is rs


def test_alhambra_components_are_unchanged() -> None:
    comp = build_components(GameConfig(players=3))
    assert comp.tiles[3:] == BASE_TILES
    assert comp.twins == () and set(comp.tile_twin) == {-1}
    assert comp.kinds == KINDS
    assert all(comp.physical(t) == t for t in range(len(comp.tiles)))


def test_granada_tiles_keep_the_rules_constraints() -> None:
    rs = ruleset("granada")
    assert len(rs.kinds) == 9 and len(rs.tiles) == 54 and len(rs.backs) == 54
    faces: Counter[tuple[str, int]] = Counter()
    for front, back in zip(rs.tiles, rs.backs, strict=True):
        assert front.price % 2 == 0 and 2 <= front.price <= 12
        assert back.price == front.price + 1
        assert back.kind != front.kind
        assert back.walls == front.walls
        faces[(front.kind, front.price)] += 1
        faces[(back.kind, back.price)] += 1
    # each kind has exactly one face at each price 2-13
    assert faces == Counter({(k, p): 1 for k in rs.kinds for p in range(2, 14)})
    for even in range(2, 13, 2):
        pair = [i for i, t in enumerate(rs.tiles) if t.price == even]
        assert len(pair) == 9
        assert sorted(rs.tiles[i].kind for i in pair) == sorted(rs.kinds)
        assert sorted(rs.backs[i].kind for i in pair) == sorted(rs.kinds)


def test_granada_moats_follow_alhambras_walls_by_price_rank() -> None:
    rs = ruleset("granada")
    assert Counter(t.walls for t in rs.tiles) == Counter(t.walls for t in BASE_TILES)
    ranked = sorted(BASE_TILES, key=lambda t: (t.price, t.code))
    for g, even in enumerate(range(2, 13, 2)):
        mine = Counter(t.walls for t in rs.tiles if t.price == even)
        assert mine == Counter(t.walls for t in ranked[9 * g : 9 * g + 9])


def test_every_assumption_and_reading_is_in_the_games_readme() -> None:
    rs = ruleset("granada")
    assert len(rs.assumptions) >= 4 and len(rs.readings) >= 4
    for sentence in rs.assumptions + rs.readings:
        assert sentence in rs.readme
    assert game_ids() == ("alhambra", "granada")


def test_config_names_its_game_and_serializes_it_only_when_not_alhambra() -> None:
    assert "game" not in GameConfig(players=3).to_dict()
    cfg = GameConfig(players=3, game="granada")
    assert cfg.to_dict()["game"] == "granada"
    assert GameConfig.from_dict(cfg.to_dict()) == cfg
    with pytest.raises(ConfigError, match="unknown game 'carcassonne'"):
        GameConfig(players=3, game="carcassonne")
    with pytest.raises(ConfigError, match="unknown game"):
        GameConfig.from_dict({"players": 3, "game": "chess"})


def test_granada_components_pair_the_faces() -> None:
    comp = build_components(GameConfig(players=2, game="granada"))
    assert len(comp.tiles) == 2 + 108 and len(comp.twins) == 54
    for front, back in comp.twins:
        assert comp.twin(front) == back and comp.twin(back) == front
        assert comp.physical(back) == front == comp.physical(front)
    state, _ = new_game(GameConfig(players=2, game="granada"), 3)
    assert all(comp.physical(t) == t for t in state.bag), "the bag holds each tile once, by its front"


def test_multiples_awards_rank_by_count_then_dearest() -> None:
    assert multiples_awards([3, 2, 2], [9, 12, 8], 1) == [7, 0, 0]
    assert multiples_awards([0, 0], [0, 0], 3) == [0, 0]
    assert multiples_awards([2, 2, 1], [5, 7, 13], 2) == [5, 10, 0]
    assert multiples_awards([2, 2], [7, 7], 2) == [6, 6], "a full tie (impossible with real tiles) shares the places"
