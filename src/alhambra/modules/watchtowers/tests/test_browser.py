"""The watchtowers in the browser: one person plays both seats of a 2-player table in Debian's
Chromium (two pages, one per seat) by clicks only, on a fixed deal where a pavilion with a
watchtower is affordable at once. A seat buys a building with a watchtower whenever the plug-in
offers it (its button opens the table's payment picker), places the building, then the
watchtower: a gold place on its Alhambra, then a half; otherwise it plays core moves. Checked
along the way: watchtowers are drawn with the plug-in's art in their half, the places beyond a
long edge are marked "keep free", the seat badges count them, no button and no log line shows a
watchtower's code or the notation, and the console stays free of errors. Screenshots go to
artifacts/screenshots/watchtowers-*.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "watchtowers"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"\bW[psacgt]\d\b|watchtower (place|return)|\btw[1-4]\b")
WANTED = ("bought", "placed")
PLAY_SECONDS = 40.0
SEED = 2
"""Game seed of every table: a pavilion with a wall to the east on the dirham square, affordable with a watchtower."""
NAMES = ("Ada", "Bo")

pytestmark = tb.needs_chromium


class _Player(tb.ClickPlayer):
    module = ID
    raw = RAW
    wanted = WANTED

    def turn(self, page: Any) -> None:
        """Buy a building with a watchtower when offered, else a core move."""
        buy = page.locator("#action-panel .wt-buy")
        if buy.count():
            buy.first.click(timeout=5000)
            self.pay_and_buy(page)
            self.saw("bought")
            return
        self.core_turn(page, end=0.3, buy=0.9)

    def place(self, page: Any) -> None:
        """The building first (the core's placement), then the watchtower: a gold place and a half."""
        picks = page.locator(".city.mine .board-overlay.wt-pick")
        if picks.count():
            if "placed" not in self.seen:
                self.shot(page, "places")
            self.tap(page, f".city.mine .board-overlay.wt-pick >> nth={self.rng.randrange(picks.count())}")
            halves = page.locator("#action-panel .wt-half")
            assert halves.count() >= 1
            before = tb.version(page)
            halves.nth(self.rng.randrange(halves.count())).click(timeout=5000)
            self.wait_change(page, before)
            self.saw("placed")
            return
        back = page.locator("#action-panel .wt-return button")
        if back.count():
            self.click(page, "#action-panel .wt-return button")
            return
        other = page.locator(".waiting-tile:not(:has(svg.wt-tile))")
        if other.count():
            if not page.locator(".waiting-tile.selected:not(:has(svg.wt-tile))").count():
                other.first.click(timeout=5000)
            spots = page.locator(".city.mine .spot")
            before = tb.version(page)
            if spots.count():
                spots.nth(self.rng.randrange(spots.count())).click(timeout=5000)
            else:
                page.locator("#btn-reserve").click(timeout=5000)
            self.wait_change(page, before)
            return
        super().place(page)


def _supply(page: Any) -> None:
    assert page.locator(f"{PANEL} .wt-supply").count() == 6


def _placed(page: Any, player: tb.ClickPlayer) -> None:
    assert page.locator(".city svg.wt-tile").count() >= 1  # a placed watchtower in the plug-in's art
    assert page.locator(".board-overlay.wt-free-item").count() >= 2  # the two places beyond its long edge


def test_both_seats_buy_and_place_watchtowers(tmp_path: Path) -> None:
    tb.play_module_table(
        tmp_path,
        _Player,
        seed=SEED,
        ready=f"{PANEL} .wt-supplies",
        before=_supply,
        after=_placed,
        badge=re.compile(r"\d+ watchtowers?"),
        log=re.compile(r"watchtower in the (north|south)-(east|west) half"),
        seconds=PLAY_SECONDS,
        names=NAMES,
    )
