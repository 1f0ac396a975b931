"""A master-builder card given up for another module's redesign, by clicks (Debian's Chromium,
Playwright), on a short fixed position: a 2-player table with master builders and magical
buildings dealt with game seed 11, where the first seat buys a magical building and puts it on
its reserve board (2 moves through the API). At the end of that turn the master builders' choice
offers "give it up for another kind of redesign": clicked (and confirmed), the reserve tile is
then built by clicks on the Alhambra: a starred place of the magical buildings' plug-in (and a
turn button when it turns several ways there). Checked: no control shows notation,
the built tile shows its turned walls, the log tells both steps, the console stays clean."""

from __future__ import annotations

import random
import re
from pathlib import Path

from alhambra import GameConfig, legal_actions, testing_browser as tb
from alhambra.actions import Action, BuyBuilding
from alhambra.state import GameState
from alhambra.testing_browser import ARTIFACTS

MODULES = ("master_builders", "magical_buildings")
SEED = 11
"""Game seed of the table (the server's constant seed): a magical building to buy at once."""
RAW = re.compile(r"\bbuilder (use|build|remove|exchange|skip)\b|\bm[bgoy]3\b|\bX[psacgt]\d+\b|magic (build|exchange)")
FAILURE = "master_builders-use-failure"

pytestmark = tb.needs_chromium


def _choose(state: GameState, rng: random.Random) -> Action:
    """Buy a magical building, put it on the reserve board."""
    legal = legal_actions(state)
    tiles = state.components.tiles
    buy = [a for a in legal if isinstance(a, BuyBuilding) and tiles[state.market[a.square - 1]].module == "magical_buildings"]
    reserve = [a for a in legal if a.keyword == "place" and getattr(a, "target", None) == "reserve"]
    return rng.choice(buy or reserve or legal)


def test_a_card_is_given_up_for_a_magical_building_built_turned(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    problems: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with tb.chromium() as browser, tb.ServerProcess(tmp_path / "db.sqlite3", constant_seed=SEED) as server:
        tid, tokens = tb.joined_table(server.http, ["Ann", "Ben"], list(MODULES))
        config = GameConfig(players=2, modules=MODULES)

        def use(state: GameState) -> bool:
            return any(a.keyword == "builder use" for a in legal_actions(state))

        state, ver = tb.steer_table(server.http, tid, tokens, config, SEED, lambda s: _choose(s, rng), use)
        seat = state.to_act
        assert seat is not None
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        tb.watch(page, problems)
        try:
            page.goto(f"{server.url}/table/{tid}#seat={tokens[seat]}")
            tb.wait_my_turn(page, ver)
            page.wait_for_selector(".mb-controls", timeout=10000)
            if page.locator(".mb-card-button").count() > 1:
                page.locator(".mb-card-button").first.click(timeout=5000)
            button = page.locator(".mb-controls .mb-use-button")
            assert button.count() == 1 and "another kind of redesign" in button.inner_text()
            tb.check_buttons(page, RAW)
            page.screenshot(path=str(ARTIFACTS / "master_builders-use.png"), full_page=True)
            tb.act(page, ".mb-controls .mb-use-button", FAILURE)
            # the magical building is built by clicks on the Alhambra: a starred place (then its turn)
            mark = page.locator(".city.mine .board-overlay.magic-pick:not(.magic-exchange)").first
            mark.wait_for(timeout=10000)
            x, y = mark.get_attribute("data-x"), mark.get_attribute("data-y")
            assert not RAW.search(page.locator("#action-panel").inner_text())
            page.screenshot(path=str(ARTIFACTS / "master_builders-use-redesign.png"), full_page=True)
            single = mark.get_attribute("data-action")  # the one move of a place with one turn
            before = tb.version(page)
            mark.click(timeout=5000)
            if single:
                walls = single.split()[-1]
            else:
                turn = page.locator("#action-panel .magic-controls button.magic-turn").first
                turn.wait_for(timeout=5000)
                walls = str(turn.get_attribute("data-walls"))
                turn.click(timeout=5000)
            tb.wait_moved(page, before, failure=FAILURE)
            built = page.locator(f".city[data-seat='{seat}'] [data-x='{x}'][data-y='{y}'] svg.magic-tile")
            built.wait_for(timeout=10000)
            assert built.get_attribute("data-walls") == walls
            log = page.locator(".log-list").inner_text()
            assert "for an extra redesign" in log and re.search(r"turns the magical \w+", log), log[-600:]
            assert not RAW.search(log)
        finally:
            page.close()
    assert problems == []
