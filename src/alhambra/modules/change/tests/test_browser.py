"""Change in the browser: one person plays both seats of a 2-player table in Debian's Chromium
(two pages, one per seat), by clicks only, until buildings overpaid by 2 or more gave coins from
the bag (the blind draw confirmed) and coins were picked one by one under the hand ("Outside your
hand", the table's generic money picker) to pay for a building. Along the way: the panel (the bag,
every player's coins) and the seat badges agree, no button shows raw notation, the log names no
coin by its token and the console stays free of errors. Screenshot:
artifacts/screenshots/change-payment.png."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from alhambra import testing_browser as tb

from .browser_player import CHANGE, RAW, Player

WANTED = ("coins at once", "paid with coins")
PLAY_SECONDS = 60.0

pytestmark = tb.needs_chromium

SEED = int(os.environ.get("ALHAMBRA_CHANGE_SEED", "5"))
"""The seed of the table's game (every ``secrets.randbits`` draw of the server is this number),
so that the clicks play the same game every run; other seeds play other games."""


def test_both_seats_play_change_by_clicks(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    # two person seats, the module ticked
    with tb.served_table(tmp_path, problems, ("change",), constant_seed=SEED) as pages:
        for p in pages:
            p.wait_for_selector(f"{CHANGE} .change-panel", timeout=10000)
            assert "24 coins" in p.locator(f"{CHANGE} .change-bag-count").inner_text()
            assert p.locator(f"{CHANGE} .change-seats li").count() == 2
        player = Player(pages, random.Random(11), WANTED, "change")
        player.play(PLAY_SECONDS)
        # the state at a glance: the coins in the panel, the badges and the hand agree
        page = pages[0]
        page.wait_for_timeout(300)
        rows = page.locator(f"{CHANGE} .change-seats li").all()
        with_coins = [li for li in rows if li.locator(".change-count").count()]
        assert page.locator(".score-track .seat-badge[data-module='change']").count() == len(with_coins)
        mine = page.locator(f"{CHANGE} .change-seats li.me .change-count span").all_inner_texts()
        assert sum(int(t.lstrip("×")) for t in mine) == page.locator(".money-source").count()
        held = page.locator(".money-source svg.change-coin-art")
        assert held.count() == page.locator(".money-source").count()  # drawn by the plug-in, not the generic coin
        log = page.locator(".log-list").inner_text()
        assert "of change from the bag" in log and "coin" in log
        assert not RAW.search(log), "the log names coins by their tokens"
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
