"""The art of the moors in the browser: one person plays both seats of a 2-player table in
Debian's Chromium (two pages, one per seat), by clicks only: the seats buy market tiles when they
can (so that pairs of a price come soon), build them, and develop culture with the plug-in's
button whenever it is offered. Checked along the way: the panel shows every player's counters in
the plug-in's art, the develop button says what it adds and turns the gilded corner on, the seat
badges give the culture points, no button shows the notation, the log describes the counters in
words, and the console stays free of errors. Screenshots (desktop and a 390 x 844 phone) go to
artifacts/screenshots/art_of_the_moors-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "art_of_the_moors"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"culture develop")
"""The notation, which no button and no log line may show."""
WANTED = ("counter", "developed")
PLAY_SECONDS = 120.0
NAMES = ("Ada", "Bo")

pytestmark = tb.needs_chromium


class _Player(tb.ClickPlayer):
    module = ID
    raw = RAW
    wanted = WANTED

    def turn(self, page: Any) -> None:
        """Develop culture when offered, else buy (mostly) or take money."""
        if page.locator(f"{PANEL} svg.moors-counter").count():
            self.saw("counter")
        button = page.locator("#btn-culture")
        if button.count():
            text = page.locator("#action-panel .moors-controls").inner_text()
            assert re.search(r"\(\+\d+ a round\)", text), text
            if "developed" not in self.seen:
                self.shot(page, "develop")
            before = tb.version(page)
            button.click(timeout=5000)
            self.wait_change(page, before)
            self.saw("developed")
            return
        self.core_turn(page, end=0.9, buy=0.95)


def test_both_seats_earn_counters_and_develop_culture(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), NAMES) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .moors-rows", timeout=10000)
            assert p.locator(f"{PANEL} .moors-row").count() == 2  # Ada and Bo; Dirk gets no counters
        player = _Player(pages, random.Random(3))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(200)
        assert page.locator(f"{PANEL} svg.moors-counter").count() >= 1
        assert page.locator(f"{PANEL} svg.moors-counter .moors-gem").count() >= 1
        badges = page.locator(f".score-track .seat-badge[data-module='{ID}']")
        assert badges.count() >= 1 and re.fullmatch(r"\d+", badges.first.inner_text().strip())
        player.shot(page, "table")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(300)
        player.shot(page, "phone")
        page.set_viewport_size({"width": 1400, "height": 1000})
        log = page.locator(".log-list").inner_text()
        assert re.search(r"takes the culture counter for buildings costing (\d+|12/13)", log), log[-500:]
        assert "develops culture" in log
        assert not RAW.search(log)
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
