"""A person plays a 2-player table with the master-builder cards against a bot in Debian's
Chromium, by clicks only (Playwright): the cards are drawn with their own art in the hand and the
panel, the badges count them, and at the end of the person's turns the module's choice is
answered through its controls (skip, by keyboard; give up a card for a redesign: move a tile to
the reserve board, build a reserve tile or exchange it). No button shows raw notation, the log
names the cards, the console stays clean. Bounded: it stops after enough turns (about a minute).
Screenshots: artifacts/screenshots/master_builders-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS, ServerProcess

RAW_NOTATION = re.compile(r"\bbuilder (build|remove|exchange|skip)\b|\bm[bgoy]3\b")
"""Master-builder notation that must never be a button's text nor appear in the log."""
BUDGET = 60.0
"""Seconds of play before the test stops (the whole test stays well under 90 s)."""

pytestmark = tb.needs_chromium


class _Game(tb.ClickPlayer):
    """The person's moves, by clicks, and what the module's controls were used for."""

    module = "master_builders"
    raw = RAW_NOTATION
    to_reserve = 0.3

    def __init__(self, page: Any, rng: random.Random) -> None:
        super().__init__([page], rng)
        self.page = page
        self.choices = 0

    def done(self) -> bool:
        return bool(self.seen["skip"]) and all(self.seen[k] for k in ("remove", "build", "exchange"))

    def held(self) -> int:
        """My master-builder cards as the panel draws them."""
        return int(self.page.locator(".module-panel[data-module='master_builders'] .mb-seat.me .mb-card").count())

    # ---------------------------------------------------------------------- the module's choice
    def choice(self, page: Any) -> None:
        self.choices += 1
        assert page.locator(".mb-controls").count() == 1
        assert page.locator("#btn-builder-skip").inner_text().startswith("Skip")
        faces = page.locator(".mb-card-button")
        assert faces.count() >= 1
        if "choice shown" not in self.seen:
            page.screenshot(path=str(ARTIFACTS / "master_builders-choice.png"), full_page=True)
        self.saw("choice shown")
        if self.choices == 1 or (self.held() == 1 and self.rng.random() < 0.3):
            # skip, by keyboard
            page.locator("#btn-builder-skip").focus()
            page.keyboard.press("Enter")
            page.wait_for_selector("#btn-confirm")
            assert "no extra redesign" in page.locator("#action-panel").inner_text()
            self.click(page, "#btn-confirm", confirm=False)
            self.saw("skip")
            return
        before = self.held()
        if faces.count() > 1:  # two currencies: pick the card first
            assert page.locator(".mb-board").count() == 0
            faces.nth(self.rng.randrange(faces.count())).click(timeout=5000)
            assert page.locator(".mb-card-button.selected").count() == 1
            self.saw("picked a card")
        assert page.locator(".mb-board").count() == 1
        reserve = page.locator(".mb-reserve .reserve-tile")
        removable = page.locator(".mb-board .mb-removable")
        # each form of redesign once if possible, then at random
        if reserve.count() and (not removable.count() or ("remove" in self.seen and self.rng.random() < 0.8)):
            reserve.nth(self.rng.randrange(reserve.count())).click(timeout=5000)
            assert page.locator(".mb-reserve .reserve-tile.selected").count() == 1
            spots = page.locator(".mb-board .mb-spot")
            swaps = page.locator(".mb-board .mb-exchange")
            assert spots.count() + swaps.count() > 0
            if "reserve picked" not in self.seen:
                page.screenshot(path=str(ARTIFACTS / "master_builders-redesign.png"), full_page=True)
            self.saw("reserve picked")
            if swaps.count() and (not spots.count() or "exchange" not in self.seen or self.rng.random() < 0.4):
                swaps.nth(self.rng.randrange(swaps.count())).click(timeout=5000)
                what = "exchange"
            else:
                spot = spots.nth(self.rng.randrange(spots.count()))
                if "build by keyboard" not in self.seen:
                    spot.focus()
                    page.keyboard.press("Enter")
                    self.saw("build by keyboard")
                else:
                    spot.click(timeout=5000)
                what = "build"
        else:
            assert removable.count(), "no redesign offered"
            removable.nth(self.rng.randrange(removable.count())).click(timeout=5000)
            what = "remove"
        page.wait_for_selector("#btn-confirm")
        staged = page.locator("#action-panel .staged").inner_text()
        assert staged.startswith("Give up ") and "(master builder)" in staged, staged
        self.click(page, "#btn-confirm", confirm=False)
        cards = ".module-panel[data-module='master_builders'] .mb-seat.me .mb-card"
        page.wait_for_function(
            f'() => document.querySelectorAll("{cards}").length === {before - 1}',
            timeout=5000,
        )
        assert "for an extra redesign" in page.locator(".log-list").inner_text()
        self.saw(what)

    # ---------------------------------------------------------------------- a turn
    def decide(self, page: Any, decision: str) -> bool:
        if decision == "MasterBuildersChoice":
            self.choice(page)
            return True
        return False

    def turn(self, page: Any) -> None:
        rng = self.rng
        # a master-builder card on the display: take it (it is money)
        card = page.locator(".display-card.takeable[data-code^='m']")
        if card.count():
            card.first.click(timeout=5000)
            assert "(master builder)" in page.locator("#action-panel").inner_text()
            if page.locator("#btn-take").count():
                self.click(page, "#btn-take")
                self.saw("took one")
                return
            self.tap(page, "#btn-clear")
        if page.locator("#btn-end").count():
            self.click(page, "#btn-end")
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.8:
            affordable.nth(rng.randrange(affordable.count())).click(timeout=5000)
            mb = page.locator(".pay-option").filter(has=page.locator(".mb-card"))
            if mb.count():  # a way to pay with a master-builder card: its card in the hand is selectable
                assert page.locator(".hand-card[data-code^='m']:not([disabled])").count() >= 1
                self.saw("payable with one")
            # pay without them when possible: they are kept for the extra redesigns
            plain = page.locator(".pay-option").filter(has_not=page.locator(".mb-card"))
            ways = plain if plain.count() else page.locator(".pay-option")
            exact = ways.filter(has=page.locator("em", has_text="exact"))
            (exact if exact.count() else ways).first.click(timeout=5000)
            self.click(page, "#btn-buy")
            return
        cards = page.locator(".display-card.takeable")
        if cards.count():
            self.take(page, cards.nth(rng.randrange(cards.count())))
            return
        self.no_move(page)


def test_a_person_uses_master_builders_against_a_bot(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path / "master_builders.sqlite3")
    problems: list[str] = []
    started = time.monotonic()
    try:
        with sync_api.sync_playwright() as pw:
            browser = tb.launch(pw)
            [page] = tb.new_pages(browser, 1, problems)
            tb.open_table([page], server.url, ("master_builders",), bots=("random",))
            game = _Game(page, random.Random(7))
            # the module's state is drawn: two cards each, mine face up (with the emblem), the bot's face down
            mb_panel = ".module-panel[data-module='master_builders']"
            page.wait_for_selector(f"{mb_panel} .mb-seat")
            assert page.locator(f"{mb_panel} .mb-seat").count() == 2
            assert page.locator(f"{mb_panel} .mb-seat.me .mb-card").count() == 2
            bot_row = page.locator(f"{mb_panel} .mb-seat:not(.me)")
            bot_held = int(bot_row.locator(".mb-count").inner_text().split()[0]) if "in hand" in bot_row.inner_text() else 0
            assert bot_row.locator(".mb-back, .mb-card").count() == bot_held  # the bot's secret ones as backs
            assert page.locator(".hand-card[data-code^='m'] .mb-card").count() == 2  # money in the hand, with its art
            assert page.locator(".hand-card[data-code^='m'] .mb-emblem").count() == 2
            mine = page.locator(".score-track li.me .seat-badge[data-module='master_builders']")
            assert mine.inner_text() == "2 master builders (2 secret)"
            page.screenshot(path=str(ARTIFACTS / "master_builders-start.png"), full_page=True)
            game.play(started + BUDGET - time.monotonic())
            tb.check_buttons(page, RAW_NOTATION)
            page.screenshot(path=str(ARTIFACTS / "master_builders-later.png"), full_page=True)
            log = page.locator(".log-list").inner_text()
            assert not RAW_NOTATION.search(log), "the log names master-builder cards or moves by their notation"
            assert "for an extra redesign" in log
            assert page.locator(f"{mb_panel} .mb-out .mb-card").count() >= 1  # the spent cards, face up
            browser.close()
    finally:
        server.stop()
    print("seen:", game.seen, "in", round(time.monotonic() - started, 1), "s")
    assert game.seen.get("choice shown", 0) >= 3, game.seen
    assert game.seen.get("skip", 0) >= 1, game.seen
    assert sum(game.seen.get(k, 0) for k in ("remove", "build", "exchange")) >= 2, game.seen
    assert problems == [], problems
