"""Magical buildings in the browser (Debian's Chromium, Playwright), on a short fixed position: a
2-player table dealt with game seed 2, where the first seat can buy a magical building at once.
By clicks only: the panel shows the six magical buildings in the plug-in's art, the market
square with the magical building is clicked and paid, and the waiting building is built with a
turn button (one per place and turn, each drawing the tile turned that way). Checked: no control
shows notation, the built tile is drawn with its turned walls, the log names the turn, and the
console stays free of errors. Screenshots: artifacts/screenshots/magical_buildings-*.png."""

from __future__ import annotations

import re
from pathlib import Path

from alhambra import GameConfig, legal_actions, new_game, testing_browser as tb
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
            turns = page.locator("#action-panel .magic-controls button.magic-turn")
            page.wait_for_selector("#action-panel .magic-controls button.magic-turn", timeout=10000)
            assert turns.count() >= 2
            controls = page.locator("#action-panel .magic-controls")
            assert not RAW.search(controls.inner_text())
            tb.check_buttons(page, RAW)
            button = turns.first
            walls = str(button.get_attribute("data-walls"))
            assert re.fullmatch(r"[nesw]{1,3}", walls) and button.locator(".magic-walls").inner_text().strip() == walls.upper()
            assert button.locator("svg.magic-tile").count() == 1  # the tile drawn turned that way
            page.screenshot(path=str(ARTIFACTS / "magical_buildings-turn.png"), full_page=True)
            tb.act(page, "#action-panel .magic-controls button.magic-turn", FAILURE)
            built = page.locator(".city.mine svg.magic-tile")
            built.first.wait_for(timeout=10000)
            assert built.first.get_attribute("data-walls") == walls
            log = page.locator(".log-list").inner_text()
            assert re.search(r"turns the magical (pavilion|seraglio|arcades|chambers|garden|tower)", log), log[-500:]
            assert not RAW.search(log), "the log names magical buildings by their codes"
            page.screenshot(path=str(ARTIFACTS / "magical_buildings-table.png"), full_page=True)
        finally:
            page.close()
    assert problems == []
