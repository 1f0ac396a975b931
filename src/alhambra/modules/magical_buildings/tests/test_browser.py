"""Magical buildings in the browser: one person plays both seats of a 2-player table in Debian's
Chromium by clicks only. A seat buys a magical building whenever it can (the market shows it in
the plug-in's art), and builds a waiting one with the plug-in's turn buttons (one per place and
turn, each showing the tile turned); other moves are the core's. Checked: no button shows the
notation, a built magical building is drawn with its turned walls, the log names the turn, and
the console stays free of errors. Screenshots go to artifacts/screenshots/magical_buildings-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "magical_buildings"
RAW = re.compile(r"\bX[psacgt]\d+\b|magic (place|build|exchange)")
WANTED = ("bought", "turned")
PLAY_SECONDS = 90.0

pytestmark = tb.needs_chromium


class _Player(tb.ClickPlayer):
    module = ID
    raw = RAW
    wanted = WANTED

    def turn(self, page: Any) -> None:
        """Buy a magical building when one is affordable, else a core move."""
        magic = page.locator(".market-square.affordable:has(svg.magic-tile)")
        if magic.count():
            magic.first.click(timeout=5000)
            self.pay_and_buy(page)
            self.saw("bought")
            return
        self.core_turn(page, end=0.3, buy=0.5)

    def place(self, page: Any) -> None:
        """Build a waiting magical building with a turn button, else the core's placement."""
        turns = page.locator("#action-panel .magic-controls button.magic-turn")
        if not turns.count():
            super().place(page)
            return
        button = turns.nth(self.rng.randrange(turns.count()))
        assert re.fullmatch(r"[NESW]{1,3}", button.locator(".magic-walls").inner_text().strip())
        assert not RAW.search(page.locator("#action-panel .magic-controls").inner_text())
        assert button.locator("svg.magic-tile").count() == 1  # the tile drawn turned that way
        if "turned" not in self.seen:
            self.shot(page, "turn")
        before = tb.version(page)
        button.click(timeout=5000)
        self.wait_change(page, before)
        self.saw("turned")


def test_both_seats_buy_and_turn_magical_buildings(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), ("Ada", "Bo")) as pages:
        for p in pages:
            p.wait_for_selector(f".module-panel[data-module='{ID}'] .magic-tiles", timeout=10000)
            assert p.locator(f".module-panel[data-module='{ID}'] svg.magic-tile").count() == 6
        player = _Player(pages, random.Random(3))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(200)
        page.wait_for_timeout(500)
        built = page.locator(".city svg.magic-tile")
        if not built.count():
            tb.dump(page, "no magical building drawn", f"{ID}-failure")
        assert built.count() >= 1, (player.seen, page.locator(".city").count(), page.locator("svg.magic-tile").count())
        assert re.fullmatch(r"[nesw]{1,3}", str(built.first.get_attribute("data-walls")))
        player.shot(page, "table")
        log = page.locator(".log-list").inner_text()
        assert re.search(r"turns the magical (pavilion|seraglio|arcades|chambers|garden|tower)", log), log[-500:]
        assert not RAW.search(log), "the log names magical buildings by their codes"
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
