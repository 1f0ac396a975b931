"""City walls in the browser (Debian's Chromium, Playwright), on a short fixed position: a
2-player table dealt with game seed 26 is played through the API (money taken: 9 moves, well
under a second) until a city-wall card lies open on a seat's turn. Then, by clicks only: the
panel shows the open card in the plug-in's art, the controls group the builds by card (one
button per tile that can take it, named by the tile), one is clicked and confirmed. Checked: no
control and no log line shows notation, the log tells the wall built, the panel counts it, and
the console stays free of errors. Screenshots: artifacts/screenshots/city_walls-*.png."""

from __future__ import annotations

import random
import re
from pathlib import Path

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
            builds = page.locator("#action-panel .cw-controls button.cw-build")
            assert builds.count() == len(_walls(state))
            controls = page.locator("#action-panel .cw-controls")
            assert controls.locator("svg.citywall-card").count() >= 1 and not RAW.search(controls.inner_text())
            tb.check_buttons(page, RAW)
            page.screenshot(path=str(ARTIFACTS / "city_walls-build.png"), full_page=True)
            tb.act(page, "#action-panel .cw-controls button.cw-build", FAILURE)
            page.wait_for_selector(f"{PANEL} .cw-panel", timeout=10000)
            assert "1 city walls built" in page.locator(f"{PANEL} .cw-panel").inner_text()
            log = page.locator(".log-list").inner_text()
            assert re.search(r"builds a city wall \((north|east|south|west)", log), log[-500:]
            assert not RAW.search(log), "the log names city-wall cards by their codes"
            page.screenshot(path=str(ARTIFACTS / "city_walls-table.png"), full_page=True)
        finally:
            page.close()
    assert problems == []
