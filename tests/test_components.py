"""Component facts: the 54 building tiles, the money deck, scoring tables and game configuration."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from alhambra.components import (
    BASE_TILES,
    CURRENCIES,
    EAST,
    FOUNTAIN,
    KINDS,
    NORTH,
    SCORING_CARDS,
    SCORING_POINTS,
    SIDES,
    SOUTH,
    WEST,
    ComponentSet,
    base_money_cards,
    letters_to_walls,
    money_code,
    parse_tile_code,
    tile_code,
    walls_to_letters,
)
from alhambra.engine import build_components
from alhambra.errors import ConfigError
from alhambra.state import GameConfig
from alhambra.view import catalogue

DATA = Path("/work/shared/data")


def test_there_are_54_building_tiles_with_unique_codes() -> None:
    assert len(BASE_TILES) == 54
    codes = [t.code for t in BASE_TILES]
    assert len(set(codes)) == 54
    # identity is kind + price + walls: three different 8-price gardens exist
    assert {c for c in codes if c.startswith("G8")} == {"G8sw", "G8ne", "G8nw"}


@pytest.mark.parametrize(
    ("kind", "count", "low", "high"),
    [
        ("pavilion", 7, 2, 8),
        ("seraglio", 7, 3, 9),
        ("arcades", 9, 4, 10),
        ("chambers", 9, 5, 11),
        ("garden", 11, 6, 12),
        ("tower", 11, 7, 13),
    ],
)
def test_tiles_per_kind_and_price_range(kind: str, count: int, low: int, high: int) -> None:
    tiles = [t for t in BASE_TILES if t.kind == kind]
    assert len(tiles) == count
    prices = [t.price for t in tiles]
    assert min(prices) == low
    assert max(prices) == high
    # every price of the printed range occurs at least once
    assert set(prices) == set(range(low, high + 1))


def test_wall_segments_80_total_20_per_side() -> None:
    per_side = {side: sum(1 for t in BASE_TILES if t.walls & side) for side in SIDES}
    assert per_side == {NORTH: 20, EAST: 20, SOUTH: 20, WEST: 20}
    assert sum(per_side.values()) == 80


def test_tiles_by_number_of_walls() -> None:
    by_count = Counter(bin(t.walls).count("1") for t in BASE_TILES)
    assert by_count == {0: 10, 1: 16, 2: 20, 3: 8}
    assert all(t.walls != 15 for t in BASE_TILES), "no tile is walled on all four sides"


@pytest.mark.skipif(not (DATA / "base-building-tiles.csv").exists(), reason="shared component data not available")
def test_tiles_match_the_component_list() -> None:
    rows = list(csv.DictReader((DATA / "base-building-tiles.csv").open()))
    expected = Counter()
    for r in rows:
        walls = (
            (NORTH if r["wall_north"] == "1" else 0)
            | (EAST if r["wall_east"] == "1" else 0)
            | (SOUTH if r["wall_south"] == "1" else 0)
            | (WEST if r["wall_west"] == "1" else 0)
        )
        expected[(r["kind"], int(r["price"]), walls)] += 1
    assert Counter((t.kind, t.price, t.walls) for t in BASE_TILES) == expected


def test_tile_codes_parse_and_normalise() -> None:
    t = parse_tile_code("G8ws")
    assert (t.code, t.kind, t.price, t.walls) == ("G8sw", "garden", 8, SOUTH | WEST)
    assert parse_tile_code("T13e").walls == EAST
    assert parse_tile_code("A10").walls == 0
    assert parse_tile_code("F") == FOUNTAIN
    assert tile_code("tower", 9, NORTH | EAST) == "T9ne"
    for t in BASE_TILES:
        assert parse_tile_code(t.code) == t
        assert tile_code(t.kind, t.price, t.walls) == t.code
    for bad in ["", "X3", "G", "Gn", "G8q"]:
        with pytest.raises(ValueError):
            parse_tile_code(bad)


def test_wall_letters() -> None:
    assert walls_to_letters(NORTH | SOUTH | WEST) == "nsw"
    assert walls_to_letters(0) == ""
    assert letters_to_walls("WsN") == NORTH | SOUTH | WEST
    with pytest.raises(ValueError):
        letters_to_walls("nx")


def test_money_cards_108_in_four_currencies() -> None:
    cards = base_money_cards(3)
    assert len(cards) == 108
    assert all(c.is_money for c in cards)
    counts = Counter((c.currency, c.value) for c in cards)
    assert set(counts) == {(cur, v) for cur in range(4) for v in range(1, 10)}
    assert set(counts.values()) == {3}
    assert len(CURRENCIES) == 4
    assert {c.code for c in cards} == {money_code(cur, v) for cur in range(4) for v in range(1, 10)}
    assert money_code(0, 9) == "b9" and money_code(3, 1) == "y1"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_money_cards_do_not_depend_on_player_count_above_two(players: int) -> None:
    assert len(base_money_cards(players)) == 108


def test_two_players_use_72_money_cards() -> None:
    cards = base_money_cards(2)
    assert len(cards) == 72
    assert set(Counter((c.currency, c.value) for c in cards).values()) == {2}


def test_scoring_cards() -> None:
    assert [(c.code, c.kind, c.value) for c in SCORING_CARDS] == [("S1", "scoring", 1), ("S2", "scoring", 2)]
    assert not any(c.is_money for c in SCORING_CARDS)


def test_scoring_table_matches_the_reserve_board() -> None:
    # kind: round 1 first; round 2 first, second; round 3 first, second, third
    table = {
        "pavilion": (1, 8, 1, 16, 8, 1),
        "seraglio": (2, 9, 2, 17, 9, 2),
        "arcades": (3, 10, 3, 18, 10, 3),
        "chambers": (4, 11, 4, 19, 11, 4),
        "garden": (5, 12, 5, 20, 12, 5),
        "tower": (6, 13, 6, 21, 13, 6),
    }
    assert tuple(SCORING_POINTS) == KINDS
    for kind, (a, b, c, d, e, f) in table.items():
        assert SCORING_POINTS[kind] == ((a,), (b, c), (d, e, f))


@pytest.mark.skipif(not (DATA / "scoring-base.csv").exists(), reason="shared component data not available")
def test_scoring_table_matches_the_data_file() -> None:
    for r in csv.DictReader((DATA / "scoring-base.csv").open()):
        assert SCORING_POINTS[r["kind"]] == (
            (int(r["round1_first"]),),
            (int(r["round2_first"]), int(r["round2_second"])),
            (int(r["round3_first"]), int(r["round3_second"]), int(r["round3_third"])),
        )


@pytest.mark.parametrize("players", [2, 3, 6])
def test_component_set_of_a_game(players: int) -> None:
    comp = build_components(GameConfig(players=players))
    assert len(comp.tiles) == players + 54
    assert comp.fountains == tuple(range(players))
    assert all(comp.tiles[f] == FOUNTAIN for f in comp.fountains)
    assert len(comp.tile_ids) == 54 and "F" not in comp.tile_ids
    for code, tid in comp.tile_ids.items():
        assert comp.tiles[tid].code == code
        assert comp.tile_walls[tid] == comp.tiles[tid].walls
        assert comp.tile_price[tid] == comp.tiles[tid].price
    money = 72 if players == 2 else 108
    assert len(comp.cards) == money + 2
    assert sum(comp.card_is_money) == money
    by_code = comp.card_ids_by_code()
    assert len(by_code["b5"]) == (2 if players == 2 else 3)
    assert len(by_code["S1"]) == 1 and len(by_code["S2"]) == 1
    assert sorted(i for ids in by_code.values() for i in ids) == list(range(len(comp.cards)))
    for i, c in enumerate(comp.cards):
        assert comp.card_value[i] == c.value and comp.card_currency[i] == c.currency


def test_component_set_rejects_duplicate_tiles() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        ComponentSet((FOUNTAIN, BASE_TILES[0], BASE_TILES[0]), (), (0,))


def test_catalogue_lists_every_tile_and_card_type() -> None:
    cat = catalogue(GameConfig(players=3))
    assert set(cat["tiles"]) == {t.code for t in BASE_TILES} | {"F"}
    assert cat["tiles"]["G8sw"] == {"kind": "garden", "price": 8, "walls": "sw", "module": None}
    assert len(cat["cards"]) == 36 + 2
    assert cat["cards"]["o7"] == {"kind": "money", "currency": "orange", "value": 7, "module": None}
    assert [c["name"] for c in cat["currencies"]] == ["denar", "dirham", "ducat", "florin"]
    assert cat["money_tokens"] == {}  # no module money outside the hand


@pytest.mark.parametrize("players", [0, 1, 7, "3", 3.0])
def test_config_rejects_bad_player_counts(players: object) -> None:
    with pytest.raises(ConfigError):
        GameConfig(players=players)  # type: ignore[arg-type]


def test_config_checks_modules_and_turn_limit() -> None:
    with pytest.raises(ConfigError):
        GameConfig(players=3, modules=("vizier", "vizier"))
    for bad in (0, -3, 2.5):
        with pytest.raises(ConfigError):
            GameConfig(players=3, turn_limit=bad)  # type: ignore[arg-type]
    cfg = GameConfig(players=5, modules=("b", "a"), turn_limit=40)
    assert cfg.modules == ("a", "b")
    assert GameConfig.from_dict(cfg.to_dict()) == cfg
    assert cfg.to_dict() == {"players": 5, "modules": ["a", "b"], "turn_limit": 40}


@pytest.mark.parametrize("junk", [[], {"players": 3, "colour": "red"}, {"players": 3, "modules": "vizier"}, {"modules": [1]}])
def test_config_from_dict_rejects_junk(junk: object) -> None:
    with pytest.raises(ConfigError):
        GameConfig.from_dict(junk)  # type: ignore[arg-type]
