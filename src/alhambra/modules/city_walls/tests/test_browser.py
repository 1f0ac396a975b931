"""City walls in the browser (Debian's Chromium, Playwright), on a short fixed position: a
2-player table dealt with game seed 26 is played through the API (money taken: 9 moves, well
under a second) until a city-wall card lies open on a seat's turn. Then, by clicks only, as a
tile is placed: the panel shows the open card in the plug-in's art, the card is picked in the
controls, its segments show faded on exactly the tiles of the Alhambra the server's legal
actions offer (no button for those), one of them is clicked and the move confirmed. Checked: the
tile shows the new segments, no control and no log line shows notation, the log tells the wall
built, the panel counts it, and the console stays free of errors. Screenshots:
artifacts/screenshots/city_walls-*.png."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from alhambra import GameConfig, legal_actions, testing_browser as tb
from alhambra.actions import Action
from alhambra.state import GameState
from alhambra.testing_browser import ARTIFACTS

ID = "city_walls"
SEED = 26
"""Game seed of the table (the server's constant seed): a city-wall card lies open after 9 moves."""
RAW = re.compile(r"\bcw[nesw]{1,2}\b|wall build")
FAILURE = "city_walls-failure"
PANEL = f".module-panel[data-module='{ID}']"

pytestmark = tb.needs_chromium


def _walls(state: GameState) -> list[Action]:
    return [a for a in legal_actions(state) if a.keyword == "wall build"]


def _place(mark: Any) -> tuple[int, int]:
    """The place (x, y) of a mark on the Alhambra (its ``data-x``, ``data-y``)."""
    return int(str(mark.get_attribute("data-x"))), int(str(mark.get_attribute("data-y")))


def test_a_city_wall_is_built_by_clicks(tmp_path: Path) -> None:
    rng = random.Random(SEED)

    def choose(state: GameState) -> Action:
        legal = legal_actions(state)
        takes = [a for a in legal if a.keyword == "take"]
        places = [a for a in legal if a.keyword == "place" and isinstance(getattr(a, "target", None), tuple)]
        return rng.choice(takes or places or legal)

    problems: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with tb.chromium() as browser, tb.ServerProcess(tmp_path / "db.sqlite3", constant_seed=SEED) as server:
        tid, tokens = tb.joined_table(server.http, ["Ann", "Ben"], [ID])
        config = GameConfig(players=2, modules=(ID,))
        state, ver = tb.steer_table(server.http, tid, tokens, config, SEED, choose, lambda s: bool(_walls(s)))
        seat = state.to_act
        assert seat is not None
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        tb.watch(page, problems)
        try:
            page.goto(f"{server.url}/table/{tid}#seat={tokens[seat]}")
            tb.wait_my_turn(page, ver)
            page.wait_for_selector(f"{PANEL} .cw-panel svg.citywall-card", timeout=10000)
            mine = server.http.get(f"/api/tables/{tid}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
            city = {c["tile"]: (c["x"], c["y"]) for c in mine["view"]["seats"][seat]["alhambra"]}
            offered: dict[str, dict[tuple[int, int], str]] = {}
            for a in mine["actions"]:
                if a["keyword"] == "wall build":
                    card, tile = (x["value"] for x in a["args"])
                    cell = city.get("F" if tile == "fountain" else tile)
                    if cell is not None:
                        offered.setdefault(card, {})[cell] = a["notation"]
            assert offered, "no city wall can be built on the Alhambra"
            assert page.locator(".city.mine .board-overlay.cw-pick").count() == 0  # nothing before a card is picked
            card, places = next(iter(offered.items()))
            controls = page.locator("#action-panel .cw-controls")
            assert controls.locator("svg.citywall-card").count() >= 1 and not RAW.search(controls.inner_text())
            page.locator(f"#action-panel .cw-controls button.cw-card[data-card='{card}']").click(timeout=5000)
            picks = page.locator(".city.mine .board-overlay.cw-pick")
            picks.first.wait_for(timeout=5000)
            shown = {_place(e): e.get_attribute("data-action") for e in picks.all()}
            assert shown == places, (shown, places)  # the legal actions, no more, no fewer
            assert page.locator("#action-panel .cw-controls button.cw-build").count() == sum(
                1 for a in mine["actions"] if a["keyword"] == "wall build" and a["args"][0]["value"] == card
            ) - len(places)  # buttons only for tiles off the Alhambra
            tb.check_buttons(page, RAW)
            (x, y), _ = next(iter(places.items()))
            mark = page.locator(f".city.mine .board-overlay.cw-pick[data-x='{x}'][data-y='{y}']")
            label = str(mark.get_attribute("aria-label"))
            assert label.startswith("Build a city wall") and not RAW.search(label), label
            page.screenshot(path=str(ARTIFACTS / "city_walls-build.png"), full_page=True)
            page.locator(".city.mine .city-frame").screenshot(path=str(ARTIFACTS / "city_walls-board.png"))
            tile = next(t for t, c in city.items() if c == (x, y))
            before = tb.version(page)
            mark.click(timeout=5000)
            tb.wait_moved(page, before, failure=FAILURE)
            after = server.http.get(f"/api/tables/{tid}/view").json()["view"]
            key = f"F{seat + 1}" if tile == "F" else tile
            added = set(card[2:])
            assert added <= set(after["walls"][key]), (key, after["walls"].get(key))
            drawn = page.locator(f".city.mine [data-x='{x}'][data-y='{y}'] .wall").evaluate_all("(ws) => ws.map((w) => w.dataset.side)")
            assert added <= set(drawn), drawn  # the tile shows its new segments
            page.wait_for_selector(f"{PANEL} .cw-panel", timeout=10000)
            assert "1 city walls built" in page.locator(f"{PANEL} .cw-panel").inner_text()
            log = page.locator(".log-list").inner_text()
            assert re.search(r"builds a city wall \((north|east|south|west)", log), log[-500:]
            assert not RAW.search(log), "the log names city-wall cards by their codes"
            page.screenshot(path=str(ARTIFACTS / "city_walls-table.png"), full_page=True)
        finally:
            page.close()
    assert problems == []
