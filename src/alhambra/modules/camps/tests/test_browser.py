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

import re
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


def _market(page: Any) -> None:
    assert page.locator(".market svg.camp-tile").count() == 3  # the deal's three camps in the plug-in's art


def _built(page: Any, player: tb.ClickPlayer) -> None:
    built = page.locator(".board-overlay.camp-placed-item")
    assert built.count() >= 1  # a built camp on an Alhambra, with its lines and points
    assert built.first.locator(".camp-points").count() >= 1
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    player.shot(page, "phone")
    page.set_viewport_size({"width": 1400, "height": 1000})


def test_both_seats_buy_and_build_camps(tmp_path: Path) -> None:
    tb.play_module_table(
        tmp_path,
        _Player,
        seed=SEED,
        ready=f"{PANEL} .camp-seats",
        before=_market,
        after=_built,
        badge=re.compile(r"\d camps? \+\d+"),
        log=re.compile(r"camp \d+ \(bastions? [a-z, ]+\)"),
        seconds=PLAY_SECONDS,
        names=NAMES,
    )
