"""Magical buildings in the browser (Debian's Chromium, Playwright), on a short fixed position: a
2-player table dealt with game seed 2, where the first seat can buy a magical building at once.
By clicks only: the panel shows the six magical buildings in the plug-in's art, the market
square with the magical building is clicked and paid, and the waiting building is built by
clicking the place on the Alhambra, like a base tile: a starred mark stands on exactly the places
the server's legal actions offer; where it can be turned several ways, the click chooses the
place and one turn button per way (each drawing the tile turned that way) finishes the move.
Checked: no control shows notation, the built tile stands at the clicked place with the walls
chosen, the log names the turn, and the console stays free of errors. Screenshots:
artifacts/screenshots/magical_buildings-*.png."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from alhambra import GameConfig, apply, legal_actions, new_game, testing_browser as tb
from alhambra.actions import BuyBuilding
from alhambra.testing_browser import ARTIFACTS

ID = "magical_buildings"
SEED = 2
"""Game seed of the table (the server's constant seed): a magical building is affordable at once
(paid with more than its price, so the actions end and it waits to be placed)."""
RAW = re.compile(r"\bX[psacgt]\d+\b|magic (place|build|exchange)")
FAILURE = "magical_buildings-failure"
PANEL = f".module-panel[data-module='{ID}']"

pytestmark = tb.needs_chromium


def test_a_magical_building_is_bought_and_built_turned_by_clicks(tmp_path: Path) -> None:
    state, _ = new_game(GameConfig(players=2, modules=(ID,)), SEED)
    tiles = state.components.tiles
    buys = [a for a in legal_actions(state) if isinstance(a, BuyBuilding)]
    magic = {a.square for a in buys if tiles[state.market[a.square - 1]].module == ID}
    assert magic, "the deal changed: no magical building is affordable at once"
    problems: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with tb.chromium() as browser, tb.ServerProcess(tmp_path / "db.sqlite3", constant_seed=SEED) as server:
        tid, tokens = tb.joined_table(server.http, ["Ann", "Ben"], [ID])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        tb.watch(page, problems)
        try:
            seat = state.to_act
            assert seat is not None
            page.goto(f"{server.url}/table/{tid}#seat={tokens[seat]}")
            tb.wait_my_turn(page)
            page.wait_for_selector(f"{PANEL} .magic-tiles", timeout=10000)
            assert page.locator(f"{PANEL} svg.magic-tile").count() == 6
            square = page.locator(".market-square.affordable:has(svg.magic-tile)")
            assert square.count() >= 1
            square.first.click(timeout=5000)
            page.locator(".pay-option:not(.exact)").first.click(timeout=5000)  # overpaid: the tile is placed at once
            tb.act(page, "#btn-buy", FAILURE)
            picks = page.locator(".city.mine .board-overlay.magic-pick")
            picks.first.wait_for(timeout=10000)
            mine = server.http.get(f"/api/tables/{tid}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
            offered: dict[tuple[int, int], list[str]] = {}
            for a in mine["actions"]:
                if a["keyword"] == "magic place":
                    cell = next(x["value"] for x in a["args"] if x["type"] == "cell")
                    offered.setdefault((cell["x"], cell["y"]), []).append(a["notation"])
            assert offered, "no magic place among the legal actions"
            shown = {(int(str(e.get_attribute("data-x"))), int(str(e.get_attribute("data-y")))) for e in picks.all()}
            assert shown == set(offered), (shown, offered)  # the legal actions, no more, no fewer
            assert page.locator("#action-panel .magic-controls button.magic-turn").count() == 0  # no list of every place
            controls = page.locator("#action-panel .magic-controls")
            assert "starred place" in controls.inner_text() and not RAW.search(controls.inner_text())
            tb.check_buttons(page, RAW)
            # a place where it turns several ways: the click chooses the place, a turn button the way
            (x, y), ways = max(offered.items(), key=lambda kv: len(kv[1]))
            assert len(ways) >= 2, offered
            mark = page.locator(f".city.mine .board-overlay.magic-pick[data-x='{x}'][data-y='{y}']")
            assert "choose how it is turned" in str(mark.get_attribute("aria-label"))
            page.screenshot(path=str(ARTIFACTS / "magical_buildings-places.png"), full_page=True)
            mark.click(timeout=5000)
            turns = page.locator("#action-panel .magic-controls button.magic-turn")
            turns.first.wait_for(timeout=5000)
            assert turns.count() == len(ways)
            assert page.locator(f".city.mine .board-overlay.magic-pick[data-x='{x}'][data-y='{y}'] .magic-pick-mark.chosen").count() == 1
            # the tile stays picked while its place is chosen: pressed, and its other moves offered
            assert page.locator("#action-panel .waiting-tile[aria-pressed='true']").count() == 1
            assert page.locator("#btn-reserve").is_visible()
            button = turns.last
            walls = str(button.get_attribute("data-walls"))
            assert re.fullmatch(r"[nesw]{1,3}", walls) and button.locator(".magic-walls").inner_text().strip() == walls.upper()
            assert button.locator("svg.magic-tile").count() == 1  # the tile drawn turned that way
            assert not RAW.search(page.locator("#action-panel").inner_text())
            page.screenshot(path=str(ARTIFACTS / "magical_buildings-turn.png"), full_page=True)
            before = tb.version(page)
            button.click(timeout=5000)
            tb.wait_moved(page, before, failure=FAILURE)
            built = page.locator(f".city.mine [data-x='{x}'][data-y='{y}'] svg.magic-tile")
            built.wait_for(timeout=10000)
            assert built.get_attribute("data-walls") == walls
            assert page.locator(".city.mine .board-overlay.magic-pick").count() == 0
            log = page.locator(".log-list").inner_text()
            assert re.search(r"turns the magical (pavilion|seraglio|arcades|chambers|garden|tower)", log), log[-500:]
            assert not RAW.search(log), "the log names magical buildings by their codes"
            page.screenshot(path=str(ARTIFACTS / "magical_buildings-table.png"), full_page=True)
        finally:
            page.close()
    assert problems == []


def test_a_hint_to_build_a_magical_building_marks_its_place_and_its_turn(tmp_path: Path) -> None:
    """A hint that names a magical building's move (the plug-in's ``showHint`` hook): the place
    is chosen on the Alhambra (its mark solid) and the turn button that makes the move is the
    one marked, not merely the module's controls. The hint's answer is given by the test (the
    page's request to /hint is answered with the move)."""
    state, _ = new_game(GameConfig(players=2, modules=(ID,)), SEED)
    tiles = state.components.tiles
    buy = None
    for a in legal_actions(state):
        if isinstance(a, BuyBuilding) and tiles[state.market[a.square - 1]].module == ID:
            after, _ = apply(state, a)
            if any(str(x).startswith("magic place ") for x in legal_actions(after)):
                buy = str(a)
                break
    assert buy, "the deal changed: no magical building is bought and waits to be placed"
    problems: list[str] = []
    with tb.chromium() as browser, tb.ServerProcess(tmp_path / "db.sqlite3", constant_seed=SEED) as server:
        tid, tokens = tb.joined_table(server.http, ["Ann", "Ben"], [ID], hints=True)
        seat = state.to_act
        assert seat is not None
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        msg = server.http.get(f"/api/tables/{tid}/view", headers=auth).json()
        r = server.http.post(f"/api/tables/{tid}/actions", json={"action": buy, "version": msg["version"]}, headers=auth)
        assert r.status_code == 200, r.text
        legal = server.http.get(f"/api/tables/{tid}/view", headers=auth).json()["view"]["legal_actions"]
        places: dict[str, list[str]] = {}
        for a in legal:
            if a.startswith("magic place "):
                places.setdefault(a.split()[3], []).append(a)  # magic place TILE X,Y WALLS
        action = max(places.values(), key=len)[-1]  # where it turns the most ways
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        tb.watch(page, problems)

        def answer(route: Any) -> None:  # the hint names ``action`` for the version asked about
            version = int(parse_qs(urlparse(route.request.url).query)["version"][0])
            body = {"version": version, "action": action, "text": "You make the suggested move", "bot": "test"}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

        page.route(re.compile(r".*/api/tables/[^/]+/hint\?.*"), answer)
        try:
            page.goto(f"{server.url}/table/{tid}#seat={tokens[seat]}")
            tb.wait_my_turn(page)
            page.locator("#btn-hint").click(timeout=5000)
            page.wait_for_selector("body[data-hint='shown']", timeout=10000)
            marked = page.locator("#action-panel .magic-controls button.magic-turn.hint-target")
            assert [marked.nth(i).get_attribute("data-action") for i in range(marked.count())] == [action]
            x, y = action.split()[3].split(",")
            assert page.locator(f".city.mine .board-overlay.magic-pick[data-x='{x}'][data-y='{y}'] .magic-pick-mark.chosen").count() == 1
            assert len(places[action.split()[3]]) >= 2, places  # a place where the click alone does not make the move
            assert page.locator(".module-controls[data-module='magical_buildings'].hint-target").count() == 0
            assert not problems, problems
        finally:
            page.close()
