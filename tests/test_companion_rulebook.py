"""Every worked scoring example of the rulebooks, scored through ``alhambra score TABLE.json``:
the base game, the 2-player rules (the neutral player Dirk), Granada, and the modules whose
sections have a scoring example (street traders, invaders, bazaars, medina, bonus cards) or a
scoring table (falconers, treasure chamber, new score cards, building sites)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from alhambra.modules.new_score_cards.module import card, points
from alhambra.modules.street_traders.module import COLOUR_OF
from tests.cli_helpers import invoke

_KIND_OF = {colour: kind for kind, colour in COLOUR_OF.items()}


def score(tmp_path: Path, doc: dict[str, Any], code: int = 0) -> dict[str, Any]:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc))
    r = invoke("score", "--json", str(path))
    assert r.exit_code == code, r.output
    out: dict[str, Any] = json.loads(r.stdout)
    return out


def kind_points(out: dict[str, Any], kind: str) -> list[int]:
    return [s["kinds"][kind]["points"] for s in out["seats"]]


def players(*counts: dict[str, int], wall: int = 0) -> list[dict[str, Any]]:
    return [{"name": f"P{i + 1}", "buildings": c, "wall": wall} for i, c in enumerate(counts)]


# ------------------------------------------------------------------------------ the base game
def test_first_scoring_the_most_chambers_gets_4(tmp_path: Path) -> None:
    out = score(tmp_path, {"round": 1, "players": players({"chambers": 3}, {"chambers": 2}, {"chambers": 1})})
    assert kind_points(out, "chambers") == [4, 0, 0]
    assert out["seats"][0]["kinds"]["chambers"]["place"] == 1


def test_second_scoring_towers_13_and_6(tmp_path: Path) -> None:
    out = score(tmp_path, {"round": 2, "players": players({"tower": 5}, {"tower": 3}, {"tower": 1})})
    assert kind_points(out, "tower") == [13, 6, 0]


def test_kim_and_nina_tie_on_four_towers_and_get_9_each(tmp_path: Path) -> None:
    doc = {
        "round": 2,
        "players": [
            {"name": "Kim", "buildings": {"tower": 4}},
            {"name": "Nina", "buildings": {"tower": 4}},
            {"name": "Ali", "buildings": {"tower": 1}},
        ],
    }
    out = score(tmp_path, doc)
    assert kind_points(out, "tower") == [9, 9, 0]
    assert out["seats"][0]["kinds"]["tower"]["tied_with"] == ["Nina"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    text = invoke("score", str(path)).stdout
    assert "Tower: 4 buildings, 1st, tied with Nina: 9" in text


def test_third_scoring_pavilions_16_8_1(tmp_path: Path) -> None:
    out = score(tmp_path, {"round": 3, "players": players({"pavilion": 3}, {"pavilion": 2}, {"pavilion": 1})})
    assert kind_points(out, "pavilion") == [16, 8, 1]


def test_a_wall_worth_8_points_from_the_tiles(tmp_path: Path) -> None:
    tiles = [
        {"x": 0, "y": 0, "kind": "fountain"},
        {"x": -1, "y": -1, "kind": "chambers", "price": 8, "walls": "NW"},
        {"x": 0, "y": -1, "kind": "arcades", "price": 8, "walls": "N"},
        {"x": 1, "y": -1, "kind": "seraglio", "price": 4, "walls": "NE"},
        {"x": -1, "y": 0, "kind": "pavilion", "price": 3, "walls": "SW"},
        {"x": 1, "y": 0, "kind": "garden", "price": 9, "walls": "E"},
        {"x": 0, "y": 1, "kind": "chambers", "price": 6, "walls": "ES"},
        {"x": 1, "y": 1, "kind": "seraglio", "price": 5, "walls": "SW"},
    ]
    out = score(tmp_path, {"round": 1, "players": [{"name": "A", "tiles": tiles}, *players({}, {})]})
    a = out["seats"][0]
    assert a["wall"] == 8
    assert a["round_points"] == 8 + sum(k["points"] for k in a["kinds"].values())
    assert out["unchecked"] == ["P1", "P2"]


# ------------------------------------------------------------------------------ 2 players: Dirk
def test_dirk_takes_his_place_in_the_majorities_but_scores_no_wall(tmp_path: Path) -> None:
    doc = {"round": 1, "players": players({"garden": 2}, {"garden": 1}, wall=3), "neutral": {"buildings": {"garden": 3, "tower": 1}}}
    out = score(tmp_path, doc)
    assert [s["name"] for s in out["seats"]] == ["P1", "P2", "Dirk"]
    assert kind_points(out, "garden") == [0, 0, 5]  # Dirk has the most gardens
    assert kind_points(out, "tower") == [0, 0, 6]
    assert out["seats"][2]["wall"] == 0 and out["seats"][2]["round_points"] == 11
    assert [s["round_points"] for s in out["seats"][:2]] == [3, 3]


def test_two_players_need_dirk(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"round": 1, "players": players({}, {})}))
    r = invoke("score", str(path))
    assert r.exit_code == 2 and "neutral player" in r.stderr


# ------------------------------------------------------------------------------ Granada
def granada(rnd: int, *rows: tuple[int, int]) -> dict[str, Any]:
    return {
        "game": "granada",
        "round": rnd,
        "players": [
            {"name": f"P{i + 1}", "buildings": {"school": c}, "dearest": {"school": d} if c else {}} for i, (c, d) in enumerate(rows)
        ],
    }


def test_granada_first_scoring_yellow_3_of_7_schools_gains_7(tmp_path: Path) -> None:
    out = score(tmp_path, granada(1, (3, 9), (2, 12), (2, 8)))
    assert kind_points(out, "school") == [7, 0, 0]


def test_granada_second_scoring_blue_18_green_9(tmp_path: Path) -> None:
    out = score(tmp_path, granada(2, (4, 9), (3, 12), (2, 8)))
    assert kind_points(out, "school") == [18, 9, 0]


def test_granada_third_scoring_the_dearer_school_breaks_the_tie(tmp_path: Path) -> None:
    out = score(tmp_path, granada(3, (4, 9), (4, 12), (2, 8)))
    assert kind_points(out, "school") == [20, 30, 10]
    assert out["seats"][1]["kinds"]["school"]["place"] == 1


def test_granada_counts_need_the_dearest_building(tmp_path: Path) -> None:
    doc = granada(1, (3, 9), (2, 12), (2, 8))
    del doc["players"][0]["dearest"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    r = invoke("score", str(path))
    assert r.exit_code == 2 and "dearest" in r.stderr


def test_granada_text_says_moat_and_city(tmp_path: Path) -> None:
    doc = granada(1, (3, 9), (2, 12), (2, 8))
    doc["players"][0] = {"name": "P1", "tiles": [{"x": 0, "y": 0, "kind": "fountain"}]}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    r = invoke("score", str(path))
    assert r.exit_code == 0, r.output
    assert "longest moat" in r.stdout and "Every city given by tiles" in r.stdout
    assert "wall" not in r.stdout and "Alhambra" not in r.stdout


# ------------------------------------------------------------------------------ modules
def test_street_traders_3_red_2_white_2_green_1_blue_score_17(tmp_path: Path) -> None:
    citizens = {_KIND_OF["red"]: 3, _KIND_OF["white"]: 2, _KIND_OF["green"]: 2, _KIND_OF["blue"]: 1}
    ps = players({}, {}, {})
    ps[0]["modules"] = {"street_traders": citizens}
    out = score(tmp_path, {"round": 1, "modules": ["street_traders"], "players": ps})
    assert out["seats"][0]["modules"]["street_traders"]["points"] == 17
    assert out["seats"][0]["round_points"] == 17


def test_invaders_3_open_sides_cost_3_after_round_1_and_12_after_round_3(tmp_path: Path) -> None:
    sides = {"north": 3, "east": 2, "south": 1, "west": 1}
    for rnd, loss in ((1, 3), (3, 12)):
        ps = players({"tower": 1}, {}, {})
        ps[0]["modules"] = {"invaders": sides}
        ps[0]["score"] = 40
        out = score(tmp_path, {"round": rnd, "modules": ["invaders"], "table": {"invaders": {"direction": "north"}}, "players": ps})
        a = out["seats"][0]
        assert a["after"]["invaders"]["points"] == -loss
        assert a["total"] == 40 + a["kinds"]["tower"]["points"] - loss


def test_invaders_never_take_a_score_below_zero(tmp_path: Path) -> None:
    ps = players({}, {}, {})
    ps[0]["modules"] = {"invaders": {"north": 5}}
    ps[0]["score"] = 2
    out = score(tmp_path, {"round": 1, "modules": ["invaders"], "table": {"invaders": {"direction": "north"}}, "players": ps})
    assert out["seats"][0]["total"] == 0 and out["seats"][0]["after"]["invaders"]["points"] == -2


def test_bazaar_4_buildings_times_3_colours_is_12_in_the_final_scoring_only(tmp_path: Path) -> None:
    ps = players({}, {}, {})
    ps[0]["modules"] = {"bazaars": {"neighbours": [4], "kinds": [3]}}
    out = score(tmp_path, {"round": 3, "modules": ["bazaars"], "players": ps})
    assert out["seats"][0]["modules"]["bazaars"]["points"] == 12
    out = score(tmp_path, {"round": 2, "modules": ["bazaars"], "players": ps})
    assert "bazaars" not in out["seats"][0]["modules"]


def medina_table(rows: list[tuple[int, int]]) -> dict[str, Any]:
    ps = players(*({} for _ in rows))
    for p, (c, d) in zip(ps, rows, strict=True):
        p["modules"] = {"medina": {"medinas": c, "dearest": d}}
    return {"round": 3, "modules": ["medina"], "players": ps}


def test_medina_c_fewest_loses_9_a_with_the_dearer_loses_3_b_6(tmp_path: Path) -> None:
    out = score(tmp_path, medina_table([(3, 8), (3, 7), (2, 6), (4, 9)]))
    assert [s["modules"]["medina"]["points"] for s in out["seats"]] == [-3, -6, -9, 0]


def test_medina_two_without_split_and_lose_the_extra_points(tmp_path: Path) -> None:
    out = score(tmp_path, medina_table([(0, 0), (0, 0), (2, 5), (3, 8)]))
    assert [s["modules"]["medina"]["points"] for s in out["seats"]] == [-11, -11, -3, 0]


def test_bonus_card_garden_10_and_its_card_make_two_gardens(tmp_path: Path) -> None:
    ps = players({"garden": 1}, {"garden": 1}, {})
    ps[0]["modules"] = {"bonus_cards": {"garden": 1}}
    out = score(tmp_path, {"round": 1, "modules": ["bonus_cards"], "players": ps})
    assert out["seats"][0]["kinds"]["garden"]["count"] == 2
    assert kind_points(out, "garden") == [5, 0, 0]
    assert "bonus cards: 1 more garden" in out["seats"][0]["notes"]


def test_a_building_under_a_site_does_not_count(tmp_path: Path) -> None:
    ps = players({"garden": 2}, {"garden": 1}, {})
    ps[0]["modules"] = {"building_sites": {"garden": 2}}
    out = score(tmp_path, {"round": 1, "modules": ["building_sites"], "players": ps})
    assert [s["kinds"]["garden"]["count"] for s in out["seats"]] == [0, 1, 0]
    assert kind_points(out, "garden") == [0, 5, 0]


def test_falcons_2_6_12_20_30_per_type(tmp_path: Path) -> None:
    ps = players({}, {}, {})
    ps[0]["modules"] = {"falconers": {"black": 1, "brown": 2, "white": 3}}
    ps[1]["modules"] = {"falconers": {"black": 4}}
    ps[2]["modules"] = {"falconers": {"brown": 5}}
    out = score(tmp_path, {"round": 2, "modules": ["falconers"], "players": ps})
    assert [s["modules"]["falconers"]["points"] for s in out["seats"]] == [2 + 6 + 12, 20, 30]


def test_treasure_chests_majority(tmp_path: Path) -> None:
    ps = players({}, {}, {})
    for p, c in zip(ps, (5, 3, 1), strict=True):
        p["modules"] = {"treasure_chamber": {"chests": c}}
    rows = [
        [
            s["modules"]["treasure_chamber"]["points"]
            for s in score(tmp_path, {"round": r, "modules": ["treasure_chamber"], "players": ps})["seats"]
        ]
        for r in (1, 2, 3)
    ]
    assert rows == [[7, 0, 0], [14, 7, 0], [22, 14, 7]]


def test_new_score_cards_replace_the_table(tmp_path: Path) -> None:
    cards = [1, 2, 3]
    kind = card(2).kinds[0]
    out = score(
        tmp_path,
        {
            "round": 2,
            "modules": ["new_score_cards"],
            "table": {"new_score_cards": {"cards": cards}},
            "players": players({kind: 3}, {kind: 2}, {}),
        },
    )
    assert kind_points(out, kind) == [*points(2, 2, kind)[:2], 0]
