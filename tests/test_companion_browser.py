"""The "Score a real game" page in Chromium (Playwright).

* Its scoring (score-core.js and the modules' ui/companion.js) agrees with the Python scoring
  on tables exported from random engine games with modules, Granada and 2 players.
* An evening on a phone (390x844, touch): four players, five modules, three rounds entered
  with taps, the running total, saved to a file and loaded again, offline once loaded.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, testing_browser as tb
from alhambra.companion import parse_table, score_table
from alhambra.companion.export import export_table
from alhambra.events import RoundScored

pytestmark = tb.needs_chromium


def _tables() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    configs = [
        GameConfig(
            players=4, modules=("bazaars", "falconers", "invaders", "medina", "new_score_cards", "street_traders", "treasure_chamber")
        ),
        GameConfig(players=2, modules=("bonus_cards", "building_sites", "medina", "treasure_chamber")),
        GameConfig(players=3, modules=("bonus_cards", "invaders", "street_traders")),
        GameConfig(players=2, modules=("art_of_the_moors", "squares")),
        GameConfig(players=3, modules=("camps", "watchtowers")),
        GameConfig(players=3, modules=("characters", "watchtowers")),  # the City Watch (round 3) scored on the page as in Python
        GameConfig(players=2, game="granada"),
        GameConfig(players=5, game="granada"),
    ]
    for k, config in enumerate(configs):
        state, _ = new_game(config, 100 + k)
        rng = random.Random(k)
        while not state.is_over:
            acts = legal_actions(state)
            action = rng.choices(acts, [1.0 if str(a).startswith("redesign") else 10.0 for a in acts])[0]
            before = tuple(state.scores)
            state, events = apply(state, action)
            rounds = [e for e in events if isinstance(e, RoundScored)]
            if len(rounds) == 1:
                neutral = None
                if state.neutral is not None:
                    got = {state.components.tile_ids[c] for e in events if type(e).__name__ == "NeutralTilesReceived" for c in e.tiles}
                    neutral = [t for t in state.neutral if t not in got]
                out.append(json.loads(json.dumps(export_table(state, rounds[0].round, before, neutral))))
    return out


def _numbers(seats: list[dict[str, Any]]) -> list[Any]:
    return [
        (
            s["name"],
            {k: (v["count"], v["place"], v["points"], v["tied_with"]) for k, v in s["kinds"].items()},
            s["wall"],
            {m: v["points"] for m, v in s["modules"].items()},
            {m: v["points"] for m, v in s["after"].items()},
            s["round_points"],
            s["total"],
        )
        for s in seats
    ]


def test_the_page_scores_as_the_engine_does(tmp_path: Path) -> None:
    tables = _tables()
    assert len(tables) >= 12
    problems: list[str] = []
    with tb.served_page(tmp_path / "s.sqlite3", problems) as (server, page):
        page.goto(server.url + "/score")
        page.wait_for_selector("body[data-phase=ready]")
        for doc in tables:
            want = score_table(parse_table(doc)).to_json()["seats"]
            got = page.evaluate("(doc) => window.companionScore(doc).seats", doc)
            assert _numbers(got) == _numbers(want), doc
    assert problems == []


MODULES = ("falconers", "invaders", "medina", "street_traders", "treasure_chamber")


def _step(page: Any, label: str, times: int) -> None:
    for _ in range(times):
        page.get_by_role("button", name=f"{label}: one more", exact=True).click()


def _open(page: Any, name: str) -> None:
    det = page.locator("details.player", has=page.locator("summary", has_text=name))
    if det.get_attribute("open") is None:
        det.locator("summary").click()


DEAREST = "price of the dearest medina"

# what the four players enter per round: buildings, wall, and module counts
ENTRIES: dict[int, dict[str, dict[str, int]]] = {
    1: {
        "Ann": {"Pavilion": 1, "Tower": 1, "wall": 2, "white falcons": 1, "medinas built": 1, DEAREST: 3},
        "Bob": {"Pavilion": 2, "wall": 1, "treasure chests": 2},
        "Cy": {"Garden": 2, "wall": 3, "open sides facing north": 2},
        "Di": {"Tower": 1, "Garden": 1, "red citizens (seraglio)": 1},
    },
    2: {
        "Ann": {
            "Pavilion": 2,
            "Tower": 3,
            "wall": 5,
            "white falcons": 1,
            "black falcons": 1,
            "medinas built": 1,
            DEAREST: 3,
        },
        "Bob": {"Pavilion": 3, "Seraglio": 2, "wall": 4, "treasure chests": 4},
        "Cy": {"Garden": 4, "Tower": 1, "wall": 6, "open sides facing north": 3},
        "Di": {"Tower": 3, "Garden": 2, "red citizens (seraglio)": 2, "blue citizens (pavilion)": 1},
    },
    3: {
        "Ann": {
            "Pavilion": 3,
            "Tower": 4,
            "wall": 9,
            "white falcons": 2,
            "black falcons": 1,
            "medinas built": 2,
            DEAREST: 7,
        },
        "Bob": {"Pavilion": 4, "Seraglio": 3, "Arcades": 2, "wall": 6, "treasure chests": 6},
        "Cy": {"Garden": 6, "Tower": 2, "Chambers": 3, "wall": 10, "open sides facing north": 3},
        "Di": {"Tower": 4, "Garden": 3, "Chambers": 3, "red citizens (seraglio)": 3, "blue citizens (pavilion)": 2},
    },
}


def _table_doc(rnd: int, before: list[int]) -> dict[str, Any]:
    names = ["Ann", "Bob", "Cy", "Di"]
    kinds = {
        "Pavilion": "pavilion",
        "Seraglio": "seraglio",
        "Arcades": "arcades",
        "Chambers": "chambers",
        "Garden": "garden",
        "Tower": "tower",
    }
    mod_of = {
        "white falcons": ("falconers", "white"), "black falcons": ("falconers", "black"),
        "medinas built": ("medina", "medinas"), DEAREST: ("medina", "dearest"),
        "treasure chests": ("treasure_chamber", "chests"), "open sides facing north": ("invaders", "north"),
        "red citizens (seraglio)": ("street_traders", "seraglio"), "blue citizens (pavilion)": ("street_traders", "pavilion"),
    }  # fmt: skip
    players = []
    for i, n in enumerate(names):
        p: dict[str, Any] = {"name": n, "score": before[i], "buildings": {}, "wall": 0, "modules": {}}
        for label, v in ENTRIES[rnd][n].items():
            if label in kinds:
                p["buildings"][kinds[label]] = v
            elif label == "wall":
                p["wall"] = v
            else:
                m, key = mod_of[label]
                p["modules"].setdefault(m, {})[key] = v
        players.append(p)
    return {"round": rnd, "modules": list(MODULES), "table": {"invaders": {"direction": "north"}}, "players": players}


def test_an_evening_of_three_rounds_on_a_phone(tmp_path: Path) -> None:
    # what the page must show: the Python scoring of the same entries, round after round
    want: list[list[int]] = []
    before = [0, 0, 0, 0]
    for rnd in (1, 2, 3):
        res = score_table(parse_table(_table_doc(rnd, before)))
        before = [s.total for s in res.seats]
        want.append(before)
    problems: list[str] = []
    with tb.served_page(tmp_path / "s.sqlite3", problems, viewport=(390, 844), phone=True) as (server, page):
        page.goto(server.url + "/")
        page.get_by_role("link", name="Score a real game (played with the box)").wait_for(timeout=20_000)
        page.get_by_role("link", name="Score a real game (played with the box)").tap()
        page.wait_for_selector("body[data-phase=ready]")
        page.get_by_role("combobox", name="Players").select_option("4")
        for i, n in enumerate(["Ann", "Bob", "Cy", "Di"]):
            box = page.get_by_role("textbox", name=f"Name of player {i + 1}")
            box.fill(n)
            box.press("Tab")
        for m in MODULES:
            page.locator(f".mods input[value={m}]").tap()
        for rnd in (1, 2, 3):
            page.get_by_role("tab", name=f"Round {rnd}").tap()
            page.get_by_role("combobox", name="Table: invasion from").select_option("north")
            for name, entries in ENTRIES[rnd].items():
                _open(page, name)
                for label, value in entries.items():
                    field = f"{name}: longest wall" if label == "wall" else f"{name}: {label}"
                    box = page.get_by_role("spinbutton", name=field, exact=True)
                    have = int(box.input_value() or 0)
                    _step(page, field, value - have)
            totals = [int(page.locator(f"#results td[data-total='{n}']").inner_text()) for n in ["Ann", "Bob", "Cy", "Di"]]
            assert totals == want[rnd - 1], (rnd, totals, want)
            if rnd == 2:  # the reasons: places, ties, module lines
                page.locator("#reasons summary").tap()
                text = page.locator("#reasons").inner_text()
                assert "Tower: 3 buildings, 1st, tied with Di: 9" in text and "Treasure Chamber: 4 chests: +14" in text, text
            if rnd == 1:  # rounds not entered yet are not in the running total
                assert page.locator("#standings tbody tr").first.inner_text().split()[2:4] == ["–", "–"]
            if rnd == 2:
                page.locator("#results").scroll_into_view_if_needed()
                page.screenshot(path=str(tb.doc_image("score-night-phone-round2.png")), full_page=False)
        final = [int(page.locator(f"#standings td[data-final='{n}']").inner_text()) for n in ["Ann", "Bob", "Cy", "Di"]]
        assert final == want[2]
        winner = ["Ann", "Bob", "Cy", "Di"][want[2].index(max(want[2]))]
        assert page.locator("#leader").inner_text() == f"Winner: {winner} with {max(want[2])}"
        page.locator("#standings").scroll_into_view_if_needed()
        page.screenshot(path=str(tb.doc_image("score-night-phone-total.png")), full_page=False)
        # the page fits the phone: nothing wider than the screen but the breakdown's own scroller
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # save as a file, start a new evening, load the file: the same totals
        with page.expect_download() as dl:
            page.get_by_role("button", name="Save as a file").tap()
        saved = tmp_path / "evening.json"
        dl.value.save_as(saved)
        assert json.loads(saved.read_text())["names"] == ["Ann", "Bob", "Cy", "Di"]
        page.get_by_role("button", name="New evening").tap()
        assert int(page.locator("#standings td[data-final='Player 1']").inner_text()) == 0
        page.locator("#load-file").set_input_files(str(saved))
        page.locator("#standings td[data-final='Ann']").wait_for()
        assert [int(page.locator(f"#standings td[data-final='{n}']").inner_text()) for n in ["Ann", "Bob", "Cy", "Di"]] == want[2]
        # offline once loaded: the service worker serves the page and the rules
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()
        page.wait_for_selector("body[data-phase=ready]")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
        page.context.set_offline(True)
        try:
            page.reload()
            page.wait_for_selector("body[data-phase=ready]", timeout=20_000)
            assert [int(page.locator(f"#standings td[data-final='{n}']").inner_text()) for n in ["Ann", "Bob", "Cy", "Di"]] == want[2]
            page.get_by_role("tab", name="Round 3").tap()
            _open(page, "Di")
            _step(page, "Di: Tower", 1)  # Di now has 5 towers: still scored offline
            assert int(page.locator("#results td[data-total='Di']").inner_text()) != want[2][3]
        finally:
            page.context.set_offline(False)
    assert [p for p in problems if "Failed to load resource" not in p] == []


@pytest.mark.parametrize("viewport", [(1280, 800)])
def test_the_page_on_a_desktop_with_granada(tmp_path: Path, viewport: tuple[int, int]) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "s.sqlite3", problems, viewport=viewport) as (server, page):
        page.goto(server.url + "/score")
        page.wait_for_selector("body[data-phase=ready]")
        page.get_by_role("combobox", name="Game").select_option("granada")
        page.get_by_role("combobox", name="Players").select_option("3")
        assert page.locator(".mods input").count() == 0  # no module plays with Granada
        _step(page, "Player 1: School", 3)
        _step(page, "Player 1: dearest School", 9)
        _open(page, "Player 2")
        _step(page, "Player 2: School", 2)
        _step(page, "Player 2: dearest School", 12)
        _step(page, "Player 1: longest moat", 2)
        assert int(page.locator("#results td[data-total='Player 1']").inner_text()) == 5 + 2  # T = 5 schools
        assert "moat" in page.locator("#results").inner_text() and "wall" not in page.locator("#results").inner_text()
        page.screenshot(path=str(tb.doc_image("score-night-granada.png")))
    assert problems == []


def test_an_alhambra_laid_out_tile_by_tile_on_a_phone(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "s.sqlite3", problems, viewport=(390, 844), phone=True) as (server, page):
        page.goto(server.url + "/score")
        page.wait_for_selector("body[data-phase=ready]")
        page.get_by_role("combobox", name="Players").select_option("3")
        page.get_by_role("button", name="Lay out the tiles instead").first.tap()

        def lay(x: int, y: int, kind: str, price: int, walls: str) -> None:
            page.get_by_role("button", name=f"Player 1: empty place at {x},{y}").tap()
            page.get_by_role("combobox", name="Player 1: kind").select_option(kind)
            _step(page, "Player 1: price", price - 2)
            for side in walls:
                page.get_by_role("button", name=f"Player 1: wall {side}").tap()
            page.get_by_role("button", name="Lay the tile").tap()
            page.get_by_role("button", name=f"Player 1: {kind.capitalize()} {price}", exact=False).first.wait_for()

        lay(1, 0, "tower", 12, "")
        lay(-1, 0, "tower", 11, "N")
        lay(0, -1, "pavilion", 6, "N")
        text = page.locator(".tiles").inner_text()
        assert "3 tiles: 1 Pavilion, 2 Tower; longest wall 1" in text, text
        assert int(page.locator("#results td[data-total='Player 1']").inner_text()) == 1 + 6 + 1  # pavilion, tower, wall
        # a tile that breaks a rule is reported
        lay(2, -2, "garden", 10, "N")
        page.locator(".tile-problems").wait_for()
        assert "must be joined" in page.locator(".tile-problems").inner_text()
        page.screenshot(path=str(tb.doc_image("score-night-tiles.png")))
        # round 2 starts from round 1's Alhambra
        page.get_by_role("tab", name="Round 2").tap()
        assert page.locator(".tiles").count() == 0
        page.get_by_role("button", name="Start from round 1").tap()
        page.get_by_role("button", name="Player 1: Tower 12 at 1,0").wait_for()
        assert page.locator("#results td[data-total='Player 1']").inner_text() != "0"
        # offline the grid still counts the buildings; the wall waits for the network
        page.context.set_offline(True)
        try:
            page.get_by_role("button", name="Player 1: empty place at 0,1").tap()
            page.get_by_role("combobox", name="Player 1: kind").select_option("garden")
            _step(page, "Player 1: price", 8)
            page.get_by_role("button", name="Lay the tile").tap()
            page.get_by_text("Offline: the buildings are counted").wait_for()
            assert "Garden" in page.locator("#results").inner_text()
            garden = page.locator("#results tbody tr", has=page.locator("th", has_text="Garden"))
            assert garden.locator("td").first.inner_text() == "2 → 12"  # 2 gardens, 1st in round 2
        finally:
            page.context.set_offline(False)
        page.get_by_text("Offline: the buildings are counted").wait_for(state="detached", timeout=20_000)
    assert [p for p in problems if "Failed to load resource" not in p] == []


def test_two_players_and_dirk(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "s.sqlite3", problems, viewport=(390, 844), phone=True) as (server, page):
        page.goto(server.url + "/score")
        page.wait_for_selector("body[data-phase=ready]")
        page.get_by_role("combobox", name="Players").select_option("2")
        _step(page, "Player 1: Garden", 2)
        _open(page, "Dirk (neutral)")
        _step(page, "Dirk (neutral): Garden", 3)
        assert page.get_by_role("spinbutton", name="Dirk (neutral): longest wall").count() == 0  # he has no Alhambra
        garden = page.locator("#results tbody tr", has=page.locator("th", has_text="Garden"))
        assert [c.inner_text() for c in garden.locator("td").all()] == ["2 → 0", "–", "3 → 5"]
        assert page.locator("#results th", has_text="Dirk").count() == 1
    assert problems == []
