"""City walls in the browser: one person plays both seats of a 2-player table in Debian's
Chromium by clicks only; when a city-wall card lies open a seat builds it with the plug-in's
buttons (grouped by card, one per tile that can take it), else it plays core moves. Checked: the
panel shows the open cards in the plug-in's art, no button shows the notation, the log tells the
wall built, and the console stays free of errors. Screenshots go to
artifacts/screenshots/city_walls-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "city_walls"
RAW = re.compile(r"\bcw[nesw]{1,2}\b|wall build")
WANTED = ("built",)
PLAY_SECONDS = 90.0

pytestmark = tb.needs_chromium


class _Player(tb.ClickPlayer):
    module = ID
    raw = RAW
    wanted = WANTED

    def turn(self, page: Any) -> None:
        """Build a city wall when the plug-in offers one, else a core move."""
        builds = page.locator("#action-panel .cw-controls button.cw-build")
        if builds.count():
            assert not RAW.search(page.locator("#action-panel .cw-controls").inner_text())
            self.shot(page, "build")
            before = tb.version(page)
            builds.nth(self.rng.randrange(builds.count())).click(timeout=5000)
            self.wait_change(page, before)
            self.saw("built")
            return
        self.core_turn(page, end=0.3, buy=0.6)


def test_both_seats_build_city_walls(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), ("Ada", "Bo")) as pages:
        for p in pages:
            p.wait_for_selector(f".module-panel[data-module='{ID}'] .cw-panel", timeout=10000)
        player = _Player(pages, random.Random(4))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(300)
        player.shot(page, "table")
        log = page.locator(".log-list").inner_text()
        assert re.search(r"builds a city wall \((north|east|south|west)", log), log[-500:]
        assert not RAW.search(log), "the log names city-wall cards by their codes"
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    assert player.seen.get("built", 0) >= 1, player.seen
    assert problems == []
    player.check_shots()
