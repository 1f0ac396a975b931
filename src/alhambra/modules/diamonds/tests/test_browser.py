"""A person plays a 2-player table with diamonds against a bot in Debian's Chromium, by clicks
only (Playwright): the ten diamond cards are drawn with their own art in the panel, the display
and the hand (their own hand group, "diamond"); diamonds face up are taken like money; the
panel's "Pay ... with diamonds" buttons (by mouse and by keyboard) open the payment picker with
the diamond payments only, and diamonds picked in the hand pay at a market square too. No button
shows raw notation, the log names the cards, the console stays clean. Bounded: it stops once
every control was used a few times (about a minute at most).
Screenshots: artifacts/screenshots/diamonds-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS, ServerProcess

RAW_NOTATION = re.compile(r"\bd[3-9]\b")
"""A diamond card's code: never a button's text nor in the log."""
BUDGET = 70.0
"""Seconds of play before the test stops (the whole test stays under 90 s)."""
FAILURE = "diamonds-failure"
"""The screenshot taken when a click or a wait fails."""
PANEL = ".module-panel[data-module='diamonds']"

pytestmark = tb.needs_chromium


class _Game:
    """The person's moves, by clicks, and what the module's controls were used for."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.seen: dict[str, int] = {}

    def saw(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    def wait_change(self, version: str, confirm: bool = True) -> None:
        tb.wait_change(self.page, version, confirm=confirm, failure=FAILURE)

    def click(self, selector: str) -> None:
        tb.click(self.page, selector, FAILURE)

    def my_diamonds(self) -> int:
        return int(self.page.locator(".hand-group[data-currency='diamond'] .hand-card").count())

    def check_hand(self) -> None:
        """My diamonds are in their own hand group, drawn with their art; none elsewhere."""
        page = self.page
        held = page.locator(".hand-card[data-code^='d']").count()
        assert self.my_diamonds() == held
        if held:
            assert page.locator(".hand-group[data-currency='diamond'] .diamond-card").count() == held
            head = page.locator(".hand-group[data-currency='diamond'] .hand-head").inner_text()
            assert head.startswith("diamond"), head
            assert page.locator(".score-track li.me .seat-badge[data-module='diamonds']").inner_text().endswith("in diamonds")
            self.saw("diamonds in hand")

    # ---------------------------------------------------------------------- paying with diamonds
    def pay_by_panel(self) -> None:
        """A panel button opens the picker with diamond payments only; pay the first (exact first)."""
        page = self.page
        version = tb.version(page)
        buttons = page.locator(f"{PANEL} .dm-pay")
        button = buttons.nth(self.rng.randrange(buttons.count()))
        assert button.inner_text().startswith("Pay ") and button.inner_text().endswith(" with diamonds")
        if "paid by keyboard" not in self.seen:
            button.focus()
            page.keyboard.press("Enter")
            how = "paid by keyboard"
        else:
            button.click(timeout=5000)
            how = "paid by panel"
        page.wait_for_selector(".buy[data-module='diamonds']")
        options = page.locator(".pay-option")
        assert options.count() >= 1
        assert options.count() == page.locator(".pay-option").filter(has=page.locator(".diamond-card")).count()
        assert page.locator(".pay-option .pay-cards svg:not(.diamond-card)").count() == 0  # diamonds only
        assert "with diamonds" in page.locator(".buy strong").inner_text()
        if "picker" not in self.seen:
            page.screenshot(path=str(ARTIFACTS / "diamonds-pay.png"), full_page=True)
        self.saw("picker")
        exact = options.filter(has=page.locator("em", has_text="exact"))
        (exact if exact.count() else options).first.click(timeout=5000)
        assert page.locator(".hand-card.selected[data-code^='d']").count() >= 1
        self.click("#btn-buy")
        self.wait_change(version)
        self.saw(how)

    def pay_by_hand(self) -> bool:
        """At a market square, pick diamonds in the hand until they pay; True if it worked."""
        page = self.page
        version = tb.version(page)
        squares = page.locator(f"{PANEL} .dm-pay")
        sq = squares.nth(self.rng.randrange(squares.count())).get_attribute("data-square")
        page.locator(f".market-square[data-square='{sq}']").click(timeout=5000)
        page.wait_for_selector(".buy")
        way = page.locator(".pay-option").filter(has=page.locator(".diamond-card")).first
        aria = way.get_attribute("aria-label") or ""
        values = [int(v) for v in re.findall(r"diamond (\d)", aria)]
        assert values, aria
        while page.locator(".hand-card.selected").count():  # a single way to pay comes preselected
            page.locator(".hand-card.selected").first.click(timeout=5000)
        assert not page.locator("#btn-buy").count()
        for v in values:
            free = page.locator(f".hand-group[data-currency='diamond'] .hand-card:not(.selected)[data-code='d{v}']")
            free.first.click(timeout=5000)
        if not page.locator("#btn-buy").count():
            self.click("#btn-clear")
            return False
        assert page.locator(".hand-card.selected").count() == page.locator(".hand-card.selected[data-code^='d']").count()
        self.click("#btn-buy")
        self.wait_change(version)
        self.saw("paid by hand")
        return True

    # ---------------------------------------------------------------------- a turn
    def move(self) -> None:
        page, rng = self.page, self.rng
        version = tb.version(page)
        if page.locator(".modal-back").count():
            return
        tb.check_buttons(page, RAW_NOTATION)
        self.check_hand()
        if page.locator("#btn-confirm").count():
            self.click("#btn-confirm")
            self.wait_change(version, confirm=False)
            return
        pending = tb.pending(page)
        if pending == "PlaceTiles":
            if not page.locator(".waiting-tile.selected").count():
                self.click(".waiting-tile")
            spots = page.locator(".city.mine .spot")
            to_reserve = page.locator("#btn-reserve")
            if to_reserve.count() and (not spots.count() or rng.random() < 0.3):
                to_reserve.click(timeout=5000)
            else:
                spots.nth(rng.randrange(spots.count())).click(timeout=5000)
            self.wait_change(version)
            return
        if pending != "ChooseAction":
            tb.dump(page, f"unexpected decision {pending}", FAILURE)
            raise AssertionError(f"no control for the decision {pending}")
        if page.locator(f"{PANEL} .dm-pay").count():
            paid = self.seen.get("paid by panel", 0) + self.seen.get("paid by keyboard", 0)
            if "paid by hand" not in self.seen and paid >= 1 and self.pay_by_hand():
                return
            self.pay_by_panel()
            return
        # a diamond face up: take it (it is money)
        card = page.locator(".display-card.takeable[data-code^='d']")
        if card.count():
            card.first.click(timeout=5000)
            assert "diamond" in page.locator("#action-panel").inner_text()
            if page.locator("#btn-take").count():
                self.click("#btn-take")
                self.wait_change(version)
                self.saw("took a diamond")
                return
            self.click("#btn-clear")
        if page.locator("#btn-end").count():
            self.click("#btn-end")
            self.wait_change(version)
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.5:
            affordable.nth(rng.randrange(affordable.count())).click(timeout=5000)
            ways = page.locator(".pay-option").filter(has_not=page.locator(".diamond-card"))  # keep the diamonds
            if ways.count():
                exact = ways.filter(has=page.locator("em", has_text="exact"))
                (exact if exact.count() else ways).first.click(timeout=5000)
                self.click("#btn-buy")
                self.wait_change(version)
                return
            self.click("#btn-clear")
        cards = page.locator(".display-card.takeable")
        if cards.count():
            cards.nth(rng.randrange(cards.count())).click(timeout=5000)
            if page.locator("#btn-take").count():
                self.click("#btn-take")
                self.wait_change(version)
                return
            self.click("#btn-clear")
            return
        tb.dump(page, "no move", FAILURE)
        raise AssertionError("the table offers no move although it is my turn")


def test_a_person_pays_with_diamonds_against_a_bot(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path / "diamonds.sqlite3", seed=5)
    problems: list[str] = []
    started = time.monotonic()
    try:
        with sync_api.sync_playwright() as pw:
            browser = tb.launch(pw)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            tb.watch(page, problems)
            page.goto(server.url + "/")
            page.wait_for_selector(".module[data-module='diamonds']")
            page.locator(".module[data-module='diamonds'] input[type='checkbox']").check()
            page.locator(".seat-row").nth(1).locator(".seat-bot").select_option("random")
            page.locator("#btn-create").click()
            page.locator(".play-link").first.click()
            page.locator("#btn-join").click()
            page.wait_for_selector("body[data-phase='my-turn'], body[data-phase='their-turn']")
            game = _Game(page, random.Random(5))
            # the module's state is drawn: the ten cards with their art
            page.wait_for_selector(f"{PANEL} .dm-card")
            assert page.locator(f"{PANEL} .dm-card").count() == 10
            assert page.locator(f"{PANEL} .dm-card .diamond-card").count() == 10
            assert "values 3, 4, 5, 5, 6, 6, 7, 7, 8, 9" in page.locator(PANEL).inner_text()
            page.screenshot(path=str(ARTIFACTS / "diamonds-start.png"), full_page=True)
            deadline = started + BUDGET
            while tb.phase(page) != "over" and time.monotonic() < deadline:
                if (
                    game.seen.get("paid by keyboard")
                    and game.seen.get("paid by hand")
                    and game.seen.get("paid by panel", 0) >= 1
                    and game.seen.get("took a diamond")
                ):
                    break
                if page.locator("#round-modal").count():
                    page.locator("#btn-close-modal").click()
                    continue
                if tb.phase(page) == "my-turn":
                    game.move()
                else:
                    page.wait_for_timeout(15)
            tb.check_buttons(page, RAW_NOTATION)
            page.screenshot(path=str(ARTIFACTS / "diamonds-later.png"), full_page=True)
            log = page.locator(".log-list").inner_text()
            assert not RAW_NOTATION.search(log), "the log names diamond cards by their codes"
            assert "diamond " in log
            assert page.locator(f"{PANEL} .dm-card.spent").count() >= 1  # spent diamonds, faded
            browser.close()
    finally:
        server.stop()
    print("seen:", game.seen, "in", round(time.monotonic() - started, 1), "s")
    assert game.seen.get("took a diamond", 0) >= 1, game.seen
    assert game.seen.get("picker", 0) >= 2, game.seen
    assert game.seen.get("paid by keyboard", 0) >= 1, game.seen
    assert game.seen.get("paid by hand", 0) >= 1, game.seen
    assert game.seen.get("diamonds in hand", 0) >= 1, game.seen
    assert problems == [], problems
