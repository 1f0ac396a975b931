"""Street traders in the browser: two people play a 2-player table with the module in Debian's
Chromium (one page per seat), by clicks only (Playwright): the secret choice of three colours, the trader tile
put on a highlighted place of the Alhambra (by mouse and by keyboard), buildings built where it
stands, citizens moved in, new ones taken from the supply, exchanges. The trader tiles, the
citizens on the buildings and the supply panel must be drawn, the other player's choice must stay
hidden until the reveal, no button may show the module's notation, the console must stay clean.
Screenshots: artifacts/screenshots/street_traders-*.png. Bounded to about a minute and a half."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import ClassVar

import pytest

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS, ServerProcess

RAW = re.compile(r"\btrader (choose|place|move|take|exchange|skip)\b|\b-?\d+,-?\d+\b")
"""The module's notation (and bare cells), never a button's text."""
BUDGET = 60.0
"""Seconds of play before the test stops (it finishes earlier when the game ends)."""

pytestmark = tb.needs_chromium


class _Game(tb.PagePlayer):
    """The person's clicks, and what was seen on the way."""

    raw = RAW

    taken: ClassVar[set[str]] = set()
    """The screenshots taken (by either player's page)."""

    def shot(self, name: str, full: bool = True) -> None:
        if name not in self.taken:
            self.taken.add(name)
            self.page.screenshot(path=str(ARTIFACTS / f"street_traders-{name}.png"), full_page=full)
            self.saw(name)

    def click(self, selector: str) -> None:
        """Click and wait for the table to move on. The table redraws on every update: a click
        that landed while its button was being replaced has still done its work when the
        version moved on."""
        version = tb.version(self.page)
        try:
            self.page.locator(selector).first.click(timeout=5000)
        except Exception:
            if tb.version(self.page) == version:
                raise
        tb.wait_change(self.page, version, confirm=selector != "#btn-confirm")

    def move(self) -> None:
        page, rng = self.page, self.rng
        if page.locator(".modal-back").count():
            return
        self.check_buttons()
        if page.locator("#btn-confirm").count():
            self.click("#btn-confirm")
            return
        pending = tb.pending(page)
        panel = page.locator("#action-panel")
        if pending == "StreetTraderChoice":
            # the other seat's choice stays hidden: face-down figures once chosen, never a colour
            other = page.locator(".st-seat:not(.me)")
            assert other.locator(".st-citizen:not(.st-hidden)").count() == 0
            if "in secret" in other.inner_text():
                assert other.locator(".st-hidden").count() == 3
                self.saw("hidden")
            for kind in rng.sample(["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"], 3):
                page.locator(f".st-choose[data-kind='{kind}']").click(timeout=5000)
            assert page.locator(".st-choose[aria-pressed='true']").count() == 3
            assert page.locator(".st-choose:disabled").count() == 3  # three at most
            if "hidden" in self.seen:
                self.shot("choice", full=False)
            self.click("#btn-trader-choose")
            self.saw("choose")
            return
        if pending == "StreetTraderPlacement":
            places = page.locator(".city.mine .board-overlay.st-place")
            assert places.count() > 0 and "highlighted places" in panel.inner_text()
            target = places.nth(rng.randrange(places.count()))
            version = tb.version(page)
            if "place by keyboard" not in self.seen:  # the places are focusable: Enter picks one
                target.focus()
                page.keyboard.press("Enter")
                self.saw("place by keyboard")
            else:
                target.click(timeout=5000)
            tb.wait_change(page, version)
            self.saw("place")
            return
        if pending == "StreetTraderArrival":
            if page.locator(".board-overlay.st-home").count():
                self.shot("board")
            if page.locator("#btn-trader-move").count():
                if rng.random() < 0.9:
                    self.click("#btn-trader-move")
                    self.saw("move")
                else:
                    self.click("#btn-trader-skip")
                    self.saw("skip")
                return
            if page.locator(".st-give").count() and rng.random() < 0.8:
                page.locator(".st-give").nth(rng.randrange(page.locator(".st-give").count())).click(timeout=5000)
                takes = page.locator(".st-take-new:not([disabled])")
                takes.nth(rng.randrange(takes.count())).click(timeout=5000)
                assert "Exchange the" in page.locator("#btn-trader-exchange").inner_text()
                self.click("#btn-trader-exchange")
                self.saw("exchange")
                return
            self.click("#btn-trader-skip")
            self.saw("skip")
            return
        if pending == "StreetTraderRestock":
            takes = page.locator(".st-take")
            assert takes.count() > 0
            version = tb.version(page)
            takes.nth(rng.randrange(takes.count())).click(timeout=5000)
            tb.wait_change(page, version)
            self.saw("take")
            return
        if pending == "PlaceTiles":
            self.place_tile()
            return
        if pending == "ChooseAction":
            self.turn()
            return
        if page.locator(".pass-button").count():
            self.click(".pass-button")
            return
        raise AssertionError(f"no control for the decision {pending}: {panel.inner_text()}")

    def place_tile(self) -> None:
        """Place the bought tile, where the trader stands whenever the tile fits there."""
        page, rng = self.page, self.rng
        if not page.locator(".waiting-tile.selected").count():
            page.locator(".waiting-tile").first.click(timeout=5000)
        trader = page.locator(".city.mine .board-overlay.st-trader-tile")
        if trader.count():
            x, y = trader.get_attribute("data-x"), trader.get_attribute("data-y")
            spot = page.locator(f".city.mine .spot[data-x='{x}'][data-y='{y}']")
            if spot.count():
                self.click(f".city.mine .spot[data-x='{x}'][data-y='{y}']")
                self.saw("built on the trader")
                return
        spots = page.locator(".city.mine .spot")
        version = tb.version(page)
        if spots.count():
            spots.nth(rng.randrange(spots.count())).click(timeout=5000)
        else:
            page.locator("#btn-reserve").click(timeout=5000)
        tb.wait_change(page, version)

    def turn(self) -> None:
        """A turn action: buy what can be bought (mostly), else take money, else end the turn."""
        tb.click_core_move(self.page, self.rng, end=0.4, buy=0.85)


def test_two_people_play_street_traders_by_clicks(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path / "street_traders.sqlite3")
    problems: list[str] = []
    rng = random.Random(7)
    started = time.monotonic()
    games: list[_Game] = []
    try:
        with sync_api.sync_playwright() as pw:
            browser = tb.launch(pw)
            pages = [browser.new_page(viewport={"width": 1400, "height": 1000}) for _ in range(2)]
            for i, page in enumerate(pages):
                tb.watch(page, problems, prefix=f"seat {i + 1} ")
            tb.open_table(pages, server.url, ("street_traders",), ("Ada", "Ben"))
            for page in pages:
                page.wait_for_selector(".module-panel[data-module='street_traders'] .st-supply")
                # the panel: six supply colours and a trader row per seat; badges on both seats
                assert page.locator(".st-supply-item").count() == 6
                assert page.locator(".st-seat").count() == 2
                assert page.locator(".score-track .seat-badge[data-module='street_traders']").count() == 2
            games = [_Game(page, rng) for page in pages]
            while tb.phase(pages[0]) != "over" and time.monotonic() - started < BUDGET:
                acted = False
                for page, game in zip(pages, games, strict=True):
                    if page.locator("#round-modal").count():
                        head = page.locator("#round-modal th[data-module='street_traders']")
                        assert head.count() == 1 and head.inner_text() == "Citizens"
                        cells = page.locator("#round-modal td[data-module='street_traders']").all_inner_texts()
                        assert len(cells) == 3 and all(c.isdigit() for c in cells[:2]) and cells[2] == "", cells  # two seats, Dirk
                        game.saw("scoring round")
                        page.locator("#btn-close-modal").click()
                        acted = True
                        continue
                    if tb.phase(page) != "my-turn":
                        continue
                    try:
                        game.move()
                    except Exception:
                        tb.dump(page, "a move failed", "street_traders-failure")
                        raise
                    acted = True
                if not acted:
                    pages[0].wait_for_timeout(15)
            page = pages[0]
            if "board" not in _Game.taken:
                page.screenshot(path=str(ARTIFACTS / "street_traders-board.png"), full_page=True)
            page.wait_for_timeout(300)  # the other page's last update
            for page in pages:
                # both trader tiles are on the boards (unless set aside just now); nothing is face down any more
                assert page.locator(".board-overlay.st-trader-tile[data-module='street_traders']").count() >= 1
                assert page.locator(".st-seat .st-hidden").count() == 0
                # every citizen in a building is drawn on its tile and in the panel, on both pages
                on_boards = page.locator(".board-overlay.st-home").count()
                assert on_boards == page.locator(".st-seat .st-home-figures svg").count()
                assert on_boards == pages[0].locator(".board-overlay.st-home").count()
                log = page.locator(".log-list").inner_text()
                assert "The trader tiles are revealed" in log and not re.search(r"\btrader (choose|place|move|take|exchange|skip)\b", log)
            browser.close()
    finally:
        server.stop()
    seen: dict[str, int] = {}
    for g in games:
        for k, v in g.seen.items():
            seen[k] = seen.get(k, 0) + v
    print("seen:", seen, f"in {time.monotonic() - started:.1f} s")
    assert seen.get("choose") == 2 and seen.get("hidden") == 1, seen  # the second to choose saw the first's choice face down
    assert seen.get("place by keyboard") == 2, seen
    assert seen.get("place", 0) >= 4, seen  # at the start and after buildings on the trader's place
    assert seen.get("built on the trader", 0) >= 2, seen
    assert seen.get("move", 0) + seen.get("exchange", 0) >= 2, seen
    assert problems == [], problems
