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
PANEL = ".module-panel[data-module='diamonds']"

pytestmark = tb.needs_chromium


class _Game(tb.ClickPlayer):
    """The person's moves, by clicks, and what the module's controls were used for."""

    module = "diamonds"
    raw = RAW_NOTATION
    wanted = ("paid by keyboard", "paid by hand", "paid by panel", "took a diamond")
    to_reserve = 0.3

    def __init__(self, page: Any, rng: random.Random) -> None:
        super().__init__([page], rng)
        self.page = page

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
        self.click(page, "#btn-buy")
        self.saw(how)

    def pay_by_hand(self) -> bool:
        """At a market square, pick diamonds in the hand until they pay; True if it worked."""
        page = self.page
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
            self.tap(page, "#btn-clear")
            return False
        assert page.locator(".hand-card.selected").count() == page.locator(".hand-card.selected[data-code^='d']").count()
        self.click(page, "#btn-buy")
        self.saw("paid by hand")
        return True

    # ---------------------------------------------------------------------- a turn
    def move(self, page: Any) -> None:
        if not page.locator(".modal-back").count():
            self.check_hand()
        super().move(page)

    def turn(self, page: Any) -> None:
        rng = self.rng
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
                self.click(page, "#btn-take")
                self.saw("took a diamond")
                return
            self.tap(page, "#btn-clear")
        if page.locator("#btn-end").count():
            self.click(page, "#btn-end")
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.5:
            affordable.nth(rng.randrange(affordable.count())).click(timeout=5000)
            ways = page.locator(".pay-option").filter(has_not=page.locator(".diamond-card"))  # keep the diamonds
            if ways.count():
                exact = ways.filter(has=page.locator("em", has_text="exact"))
                (exact if exact.count() else ways).first.click(timeout=5000)
                self.click(page, "#btn-buy")
                return
            self.tap(page, "#btn-clear")
        cards = page.locator(".display-card.takeable")
        if cards.count():
            self.take(page, cards.nth(rng.randrange(cards.count())))
            return
        self.no_move(page)


def test_a_person_pays_with_diamonds_against_a_bot(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path / "diamonds.sqlite3", seed=5)
    problems: list[str] = []
    started = time.monotonic()
    try:
        with sync_api.sync_playwright() as pw:
            browser = tb.launch(pw)
            [page] = tb.new_pages(browser, 1, problems)
            tb.open_table([page], server.url, ("diamonds",), bots=("random",))
            game = _Game(page, random.Random(5))
            # the module's state is drawn: the ten cards with their art
            page.wait_for_selector(f"{PANEL} .dm-card")
            assert page.locator(f"{PANEL} .dm-card").count() == 10
            assert page.locator(f"{PANEL} .dm-card .diamond-card").count() == 10
            assert "values 3, 4, 5, 5, 6, 6, 7, 7, 8, 9" in page.locator(PANEL).inner_text()
            page.screenshot(path=str(ARTIFACTS / "diamonds-start.png"), full_page=True)
            game.play(started + BUDGET - time.monotonic())
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
