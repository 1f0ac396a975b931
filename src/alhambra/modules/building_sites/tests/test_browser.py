"""Building Sites in the browser: one person plays both seats of a 2-player table in Debian's
Chromium (two pages, one per seat), by clicks only, until every decision of the module was taken
through its plug-in: building sites set up on market squares through the table's payment picker
(the first by keyboard), a drawn site tile kept (shown big; the first by keyboard), a site
completed with one of the listed ways to pay. Along the way: the panel, the badges and the sites
on the Alhambras are drawn, the other seat never sees a site's currency, no button shows raw
notation, the log names no item by its code and the console stays free of errors. Screenshots go
to artifacts/screenshots/building_sites-*.png."""

from __future__ import annotations

import os
import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "building_sites"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"\bsite keep\b|\bbuy (site|fin)\d|\bfin\d\b|\bsite[1-4]\b")
"""The module's notation, which must never be a button's text nor appear in the log."""
WANTED = ("setup", "kept", "completed")
PLAY_SECONDS = 75.0

pytestmark = tb.needs_chromium

SEED = int(os.environ.get("ALHAMBRA_SITES_SEED", "5"))
"""The seed of the table's game (every ``secrets.randbits`` draw of the server is this number,
see :class:`ServerProcess`), so the clicks play the same game every time."""


class _Player(tb.ClickPlayer):
    """Both seats, one page each: the moves are clicks like a person's; ``seen`` counts the
    module's controls used."""

    module = "building_sites"
    raw = RAW
    wanted = WANTED

    def done(self) -> bool:
        return super().done() and self.seen["setup"] >= 2

    def hand_by_currency(self, page: Any) -> Counter[str]:
        """The value of the hand per currency letter (read from the hand's cards)."""
        out: Counter[str] = Counter()
        for code in page.locator(".hand-card").evaluate_all("els => els.map(e => e.dataset.code)"):
            m = re.fullmatch(r"([bgoy])(\d)", str(code))
            if m:
                out[m.group(1)] += int(m.group(2))
        return out

    # ----- one move of the page whose turn it is
    def decide(self, page: Any, decision: str) -> bool:
        if decision == "SiteChoice":
            self.keep(page)
            return True
        return False

    def keep(self, page: Any) -> None:
        keeps = page.locator("button.site-keep")
        assert keeps.count() in (1, 2)
        big = page.locator("button.site-keep svg.site-back")
        assert big.count() == keeps.count() and float(str(big.first.get_attribute("width"))) >= 48, "the drawn site tiles are shown big"
        assert page.locator(f"{PANEL} .site-choosing").count() == 1
        if not self.seen["kept"]:
            self.shot(page, "choice")
        # keep the currency the hand holds most of (so the site can be completed soon)
        money = self.hand_by_currency(page)
        names = {"blue": "b", "green": "g", "orange": "o", "yellow": "y"}
        options = [str(keeps.nth(i).get_attribute("data-currency")) for i in range(keeps.count())]
        best = max(options, key=lambda c: money[names[c]])
        selector = f"button.site-keep[data-currency='{best}']"
        version = tb.version(page)
        if not self.seen["kept"]:  # by keyboard
            page.locator(selector).focus()
            page.keyboard.press("Enter")
            self.wait_change(page, version)
        else:
            self.click(page, selector)
        self.seen["kept"] += 1
        me = self.seat(page)
        mine = page.locator(f"{PANEL} .site-seat[data-seat='{me}'] .site-item[data-currency='{best}']")
        assert mine.count() >= 1, "the panel shows the kept site tile to its owner"

    def turn(self, page: Any) -> None:
        rng = self.rng
        complete = page.locator("button.site-complete")
        if complete.count():
            exact = page.locator("button.site-complete.exact")
            if not self.seen["completed"]:
                self.shot(page, "complete")
            self.click(page, "button.site-complete.exact" if exact.count() else "button.site-complete")
            self.seen["completed"] += 1
            return
        setups = page.locator("button.site-setup")
        if setups.count() and self.seen["setup"] < 4 and rng.random() < 0.7:
            if self.seen["setup"]:
                setups.nth(rng.randrange(setups.count())).click(timeout=5000)
            else:  # by keyboard
                setups.first.focus()
                page.keyboard.press("Enter")
            assert page.locator(".buy").inner_text().startswith("Set up a building site on")
            assert page.locator("button.site-setup.selected").count() == 1
            page.locator(".pay-option").first.click(timeout=5000)
            self.click(page, "#btn-buy")  # reveals the drawn site tiles: confirmed like every final move
            self.seen["setup"] += 1
            page.wait_for_selector("body[data-pending='SiteChoice'], body[data-pending='PlaceTiles']", timeout=5000)
            return
        if page.locator("#btn-end").count() and rng.random() < 0.6:
            self.click(page, "#btn-end")
            return
        cards = page.locator(".display-card.takeable")
        squares = page.locator(".market-square.affordable")
        # with a site waiting for money, mostly take money
        if cards.count() and ((self.seen["setup"] and not self.seen["completed"]) or not squares.count() or rng.random() < 0.5):
            cards.nth(rng.randrange(cards.count())).click(timeout=5000)
            self.click(page, "#btn-take")
            return
        if squares.count():
            squares.nth(rng.randrange(squares.count())).click(timeout=5000)
            if page.locator(".buy").count():
                self.pay_and_buy(page)
                return
        self.end_turn_or_fail(page)


def test_both_seats_play_building_sites_by_clicks(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    # two person seats, the module ticked
    with tb.served_table(tmp_path, problems, (ID,), constant_seed=SEED) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .site-panel", timeout=10000)
            assert "8 of 8 site tiles in the stack" in p.locator(f"{PANEL} .site-stack").inner_text()
            assert p.locator(f"{PANEL} .site-seat").count() == 2
        player = _Player(pages, random.Random(11))
        player.play(PLAY_SECONDS)
        for p in pages:
            p.wait_for_timeout(200)
        # the state at a glance, and no leak: each page sees its own sites' currencies only
        for me, page in enumerate(pages):
            other = 1 - me
            own = page.locator(f"{PANEL} .site-seat[data-seat='{me}'] .site-item")
            theirs = page.locator(f"{PANEL} .site-seat[data-seat='{other}'] .site-item")
            for i in range(theirs.count()):
                item = theirs.nth(i)
                if "revealed" not in item.inner_text() and "choosing" not in item.inner_text():
                    assert item.get_attribute("data-currency") == "", "another player's site currency shows"
            for i in range(own.count()):
                if "choosing" not in own.nth(i).inner_text():
                    assert own.nth(i).get_attribute("data-currency") != ""
            total = own.count() + theirs.count()
            badges = page.locator(f".score-track .seat-badge[data-module='{ID}']").count()
            assert (total == 0) == (badges == 0)
        board = pages[0].locator(".board-overlay.site-mark").count() + pages[1].locator(".board-overlay.site-mark").count()
        if any(pages[0].locator(f"{PANEL} .site-item.where-alhambra").all()):
            assert board > 0, "a site in an Alhambra is drawn on the board"
        log = pages[0].locator(".log-list").inner_text()
        assert "sets up a building site on" in log
        assert not RAW.search(log), "the log names the module's items by their codes"
        assert not re.search(r"\b(Pavilion|Seraglio|Arcades|Chambers|Garden|Tower) 0\b", log), "a log line names no real tile"
        if player.seen["completed"]:
            assert "completes" in log
        player.shot(pages[0], "table")
    print("seen:", dict(player.seen), f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen[w] >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
