"""The squares in the browser: one person plays both seats of a 2-player table in Debian's
Chromium (two pages, one per seat), by clicks only: on its turn a seat takes an open square with
the plug-in's button (its confirmation names the square) or plays a core move, and builds each
waiting square in its Alhambra with a click on a free place. Checked along the way: the panel
shows the six piles with their open squares in the plug-in's art, squares waiting and built are
drawn with that art, the seat badges count the squares, no button shows the notation, the log
names squares by their names, and the console stays free of errors. Screenshots (desktop and a
390 x 844 phone) go to artifacts/screenshots/squares-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "squares"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"\bQ[psacgt]\d\b|square take")
"""A square's tile code or the take notation, which no button and no log line may show."""
WANTED = ("taken", "placed")
PLAY_SECONDS = 50.0
NAMES = ("Ada", "Bo")

pytestmark = tb.needs_chromium


class _Player(tb.ClickPlayer):
    module = ID
    raw = RAW
    wanted = WANTED

    def turn(self, page: Any) -> None:
        """Take an open square when the plug-in offers one (mostly), else a core move."""
        buttons = page.locator("#action-panel .sq-controls button")
        if buttons.count() and self.rng.random() < 0.7:
            assert buttons.count() <= 6
            button = buttons.nth(self.rng.randrange(buttons.count()))
            assert re.fullmatch(r"Take the (pavilion|seraglio|arcades|chambers|garden|tower) square", button.inner_text().strip())
            if "taken" not in self.seen:
                self.shot(page, "take")
            before = tb.version(page)
            button.click(timeout=5000)
            self.wait_change(page, before)
            self.saw("taken")
            return
        if self.take_random(page):
            return
        self.core_turn(page)

    def place(self, page: Any) -> None:
        """Build a waiting square (drawn with the plug-in's art) on a free place, else the core's placement."""
        waiting = page.locator(".waiting-tile:has(svg.square-tile)")
        if not waiting.count():
            super().place(page)
            return
        if not page.locator(".waiting-tile.selected:has(svg.square-tile)").count():
            waiting.first.click(timeout=5000)
        spots = page.locator(".city.mine .spot")
        before = tb.version(page)
        if spots.count():
            spots.nth(self.rng.randrange(spots.count())).click(timeout=5000)
            self.saw("placed")
        else:
            page.locator("#btn-reserve").click(timeout=5000)
        self.wait_change(page, before)


def test_both_seats_take_and_build_squares(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), NAMES) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .sq-piles", timeout=10000)
            assert p.locator(f"{PANEL} .sq-pile").count() == 6
            assert p.locator(f"{PANEL} svg.square-tile").count() == 6  # the open squares in the plug-in's art
        player = _Player(pages, random.Random(5))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(200)
        assert page.locator(".city g[data-tile] svg.square-tile").count() >= 1  # built squares in the plug-in's art
        badges = page.locator(f".score-track .seat-badge[data-module='{ID}']")
        assert badges.count() >= 1 and re.fullmatch(r"[123]/3( \+\d)?", badges.first.inner_text().strip())
        player.shot(page, "table")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(300)
        player.shot(page, "phone")
        page.set_viewport_size({"width": 1400, "height": 1000})
        log = page.locator(".log-list").inner_text()
        assert re.search(r"takes the (Pavilion|Seraglio|Arcades|Chambers|Garden|Tower) square", log), log[-500:]
        assert not RAW.search(log), "the log names squares by their codes"
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
