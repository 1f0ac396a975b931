"""Power of Sultan in the browser: one person plays both seats of a 2-player table in Debian's
Chromium (two pages, one per seat), by clicks only, until every decision of the module was
taken through its plug-in: sultan cards bought beside the market through the table's payment
picker, a mark kept, an extra tile revealed and one of its kinds marked, a drawn tile taken
for free (shown big) and placed, a later one let go (some of it by keyboard). Along the way: the panel and the seat badges draw the module's
state, no button shows raw notation, the log names no card by its code and the console stays
free of errors. Screenshots go to artifacts/screenshots/power_of_the_sultan-*.png."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

PANEL = ".module-panel[data-module='power_of_the_sultan']"
RAW = re.compile(r"\bsultan (keep|reveal|mark|claim|decline)\b|\bsu[bgoy]\d\b")
"""The module's notation, which must never be a button's text nor appear in the log."""
WANTED = ("bought", "kept", "revealed", "marked", "claimed", "placed claimed tile", "declined")
PLAY_SECONDS = 70.0

pytestmark = tb.needs_chromium

SEED = int(os.environ.get("ALHAMBRA_SULTAN_SEED", "3"))
"""The seed of the table's game. The server draws it at random; the test fixes it (every
``secrets.randbits`` draw of the server is this number, see :class:`ServerProcess`) so that its
clicks play the same game every time, one where a drawn tile can be claimed early. Another seed
plays another game; the test holds for most (set the variable to try)."""


class _Player(tb.ClickPlayer):
    """Both seats, one page each: the moves are clicks like a person's; ``seen`` counts the
    module's controls used."""

    module = "power_of_the_sultan"
    raw = RAW
    wanted = WANTED

    def __init__(self, pages: list[Any], rng: random.Random) -> None:
        super().__init__(pages, rng)
        self.claimed_by: Any = None

    def done(self) -> bool:
        return super().done() and self.seen["bought"] >= 2

    # ----- one move of the page whose turn it is
    def decide(self, page: Any, decision: str) -> bool:
        if decision == "SultanClaimOffer":
            self.claim_offer(page)
        elif decision == "SultanRemarkOffer":
            assert page.locator(".sultan-decision svg.sultan-card").count() == 1
            if not self.seen.get("revealed") or (self.seen.get("kept") and self.rng.random() < 0.5):
                self.click(page, "#btn-sultan-reveal")  # reveals a tile: confirmed like every final move
                self.saw("revealed")
            else:  # by keyboard
                version = tb.version(page)
                page.locator("#btn-sultan-keep").focus()
                page.keyboard.press("Enter")
                self.wait_change(page, version)
                self.saw("kept")
        elif decision == "SultanMarkChoice":
            marks = page.locator("button.sultan-mark")
            assert marks.count() in (1, 2) and page.locator(".sultan-decision svg.sultan-extra").count() == 1
            kind = str(marks.nth(self.rng.randrange(marks.count())).get_attribute("data-kind"))
            self.click(page, f"button.sultan-mark[data-kind='{kind}']")
            self.saw("marked")
            me = page.locator(f"{PANEL} .sultan-owners li").nth(self.seat(page))
            assert me.locator(f".sultan-owned[data-kind='{kind}']").count() >= 1
        else:
            return False
        return True

    def claim_offer(self, page: Any) -> None:
        big = page.locator(".sultan-claim .sultan-big-tile svg")
        assert big.count() == 1 and float(str(big.get_attribute("width"))) >= 100, "the drawn tile is shown big"
        assert page.locator(f"{PANEL} .sultan-held").count() == 1
        if not self.seen.get("claimed"):
            self.shot(page, "claim")
        if self.seen.get("claimed"):  # the first tile is taken, the next one let go
            self.click(page, "#btn-sultan-decline")
            self.saw("declined")
            return
        self.click(page, "#btn-sultan-claim")
        self.saw("claimed")
        self.claimed_by = page
        page.wait_for_selector("body[data-pending='PlaceTiles']", timeout=5000)

    def place(self, page: Any) -> None:
        if self.claimed_by is page:  # the panel says where the tile comes from
            assert "with your sultan card: place it now" in page.locator(f"{PANEL} .sultan-placing").inner_text()
        super().place(page)
        if self.claimed_by is page:
            self.saw("placed claimed tile")
            self.claimed_by = None

    def turn(self, page: Any) -> None:
        buy = page.locator(f"{PANEL} button.sultan-buy")
        if buy.count():  # a sultan card beside the market can be paid: buy it (the first one by keyboard)
            if self.seen.get("bought"):
                buy.first.click(timeout=5000)
            else:
                buy.first.focus()
                page.keyboard.press("Enter")
            assert page.locator(".buy").inner_text().startswith("Buy the sultan card marked")
            assert page.locator(f"{PANEL} button.sultan-buy.selected").count() == 1
            exact = page.locator(".pay-option.exact")
            (exact if exact.count() else page.locator(".pay-option")).first.click(timeout=5000)
            if self.seen["bought"] == 0:
                self.shot(page, "payment")  # the picker with the way to pay picked
            self.click(page, "#btn-buy")
            self.saw("bought")
            page.wait_for_selector("body[data-pending='SultanRemarkOffer']", timeout=5000)
            return
        self.core_turn(page, end=0.6, buy=0.8)  # buying tiles makes the market draw new ones


def test_both_seats_play_the_power_of_sultan_by_clicks(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    # two person seats, the module ticked
    with tb.served_table(tmp_path, problems, ("power_of_the_sultan",), constant_seed=SEED) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .sultan-panel", timeout=10000)
            assert p.locator(f"{PANEL} .sultan-owners li").count() == 2
            assert p.locator(f"{PANEL} .sultan-extras svg.sultan-extra").count() == 1
        player = _Player(pages, random.Random(7))
        player.play(PLAY_SECONDS)
        # the state at a glance: cards in front of the players (with their cubes), badges, the log
        page = pages[0]
        page.wait_for_timeout(200)
        owned = page.locator(f"{PANEL} .sultan-owned svg.sultan-card").count()
        used = page.locator(f"{PANEL} .sultan-used svg.sultan-card").count()
        assert owned + used >= player.seen.get("bought", 0)
        assert page.locator(".score-track .seat-badge[data-module='power_of_the_sultan']").count() == len(
            [li for li in page.locator(f"{PANEL} .sultan-owners li").all() if li.locator(".sultan-owned").count()]
        )
        if player.seen.get("claimed"):
            assert used >= 1
        log = page.locator(".log-list").inner_text()
        assert "comes up from the money pile and is laid beside the market" in log
        if player.seen.get("bought"):
            assert "buys the sultan card marked" in log
        if player.seen.get("claimed"):
            assert "for free with the sultan card" in log
        assert not RAW.search(log), "the log names sultan cards by their codes"
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
