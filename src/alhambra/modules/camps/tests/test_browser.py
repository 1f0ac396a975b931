"""The camps in the browser: one person plays both seats of a 2-player table in Debian's Chromium
(two pages, one per seat) by clicks only, on a fixed deal with three camps on the market. A seat
buys a camp whenever it can and builds it by clicking one of the faded camps the plug-in draws on
its Alhambra (or puts it on the reserve board when no place fits yet, and later builds it from
there the same way); otherwise it plays core moves. Checked along the way: camps on the market,
waiting and built are drawn with the plug-in's art, a built camp shows its lines and points, the
seat badges count the camps, no button and no log line shows a camp's code or the notation, and
the console stays free of errors. Screenshots (desktop and a 390 x 844 phone) go to
artifacts/screenshots/camps-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "camps"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"\bL\d+[nesw]+\b|camp (place|build|remove|exchange)")
"""A camp's tile code or the camps' notation, which no button and no log line may show."""
WANTED = ("bought", "built")
PLAY_SECONDS = 40.0
SEED = 2
"""Game seed of every table: the market starts with three camps (and a pavilion with walls north and west)."""
NAMES = ("Ada", "Bo")

pytestmark = tb.needs_chromium


class _Player(tb.ClickPlayer):
    module = ID
    raw = RAW
    wanted = WANTED

    def build_camp(self, page: Any) -> bool:
        """Click one of the faded camps on the page's Alhambra (a legal camp place); False when none is drawn."""
        picks = page.locator(".city.mine .board-overlay.camp-pick")
        if not picks.count():
            choose = page.locator("#action-panel .camp-choose")
            if choose.count():
                self.tap(page, "#action-panel .camp-choose")
                picks = page.locator(".city.mine .board-overlay.camp-pick")
        if not picks.count():
            return False
        if "built" not in self.seen:
            self.shot(page, "places")
        before = tb.version(page)
        picks.nth(self.rng.randrange(picks.count())).click(timeout=5000)
        self.wait_change(page, before)
        self.saw("built")
        return True

    def turn(self, page: Any) -> None:
        """Build a camp from the reserve board when the plug-in offers a place, else buy a camp
        from the market when one is affordable, else a core move."""
        if self.build_camp(page):
            return
        camps = page.locator(".market-square.affordable:has(svg.camp-tile)")
        if camps.count():
            camps.first.click(timeout=5000)
            self.pay_and_buy(page)
            self.saw("bought")
            return
        self.core_turn(page, end=0.3, buy=0.95)

    def place(self, page: Any) -> None:
        """A waiting camp (drawn with the plug-in's art) goes to a faded camp on the Alhambra,
        else to the reserve board; other tiles as the core's placement."""
        waiting = page.locator(".waiting-tile:has(svg.camp-tile)")
        if not waiting.count():
            super().place(page)
            return
        if self.build_camp(page):
            return
        if not page.locator(".waiting-tile.selected:has(svg.camp-tile)").count():
            waiting.first.click(timeout=5000)
        self.click(page, "#btn-reserve")


def test_both_seats_buy_and_build_camps(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), NAMES, constant_seed=SEED) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .camp-seats", timeout=10000)
            assert p.locator(".market svg.camp-tile").count() == 3  # the deal's three camps in the plug-in's art
        player = _Player(pages, random.Random(5))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(200)
        built = page.locator(".board-overlay.camp-placed-item")
        assert built.count() >= 1  # a built camp on an Alhambra, with its lines and points
        assert built.first.locator(".camp-points").count() >= 1
        badges = page.locator(f".score-track .seat-badge[data-module='{ID}']")
        assert badges.count() >= 1 and re.fullmatch(r"\d camps? \+\d+", badges.first.inner_text().strip())
        player.shot(page, "table")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(300)
        player.shot(page, "phone")
        page.set_viewport_size({"width": 1400, "height": 1000})
        log = page.locator(".log-list").inner_text()
        assert re.search(r"camp \d+ \(bastions? [a-z, ]+\)", log), log[-500:]
        assert not RAW.search(log), "the log names camps by their codes"
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
