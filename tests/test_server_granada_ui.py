"""What the browser table needs from the server to draw Granada: each module's games, the
catalogue's scoring rule, and the replay narrator's words for moats, kinds and turning over."""

from __future__ import annotations

from typing import Any

from alhambra.server.replay import Narrator
from alhambra.state import GameConfig


def test_modules_list_their_games(c: Any) -> None:
    mods = c.get("/api/modules").json()
    assert mods and all(m["games"] for m in mods)
    # no Big Box module declares Granada yet: the lobby switches every one off for it
    assert all("alhambra" in m["games"] and "granada" not in m["games"] for m in mods)


def test_the_catalogue_names_the_scoring_rule(c: Any) -> None:
    assert c.get("/api/catalogue", params={"game": "granada"}).json()["scoring"] == "multiples_of_total"
    assert c.get("/api/catalogue").json()["scoring"] == "table"


def test_the_narrator_says_moats_kind_names_and_turning_over() -> None:
    granada = Narrator(GameConfig(players=2, game="granada"), ["Ada", "Bo"])
    assert granada.tile("S2nsw") == "School 2 (moats north, south, west)"
    assert granada.tile("L8") == "Library 8 (no moats)"
    assert granada.tile("R3nsw") == "Residential area 3 (moats north, south, west)"
    assert granada.tile("B2sw") == "Bath house 2 (moats south, west)"
    turned = {"type": "TileTurnedOver", "seat": 0, "tile": "S2nsw", "face": "R3nsw", "payment": ["b2", "b1"], "text": "x"}
    assert granada.event(turned) == (
        "Ada pays 2 denar and 1 denar to turn School 2 (moats north, south, west) over: "
        "it is built as Residential area 3 (moats north, south, west)"
    )
    assert granada.event({"type": "MarkerSwitched", "face": "odd", "text": "x"}) == "The black marker turns to the odd side"
    alhambra = Narrator(GameConfig(players=2), ["Ada", "Bo"])
    assert alhambra.tile("G8sw") == "Garden 8 (walls south, west)"
    assert alhambra.tile("P8") == "Pavilion 8 (no walls)"
