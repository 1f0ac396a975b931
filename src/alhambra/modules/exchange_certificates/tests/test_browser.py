"""Change and the exchange certificates in the browser: one person plays both seats of a
2-player table in Debian's Chromium (two pages, one per seat), by clicks only, until every
control of the certificates was used: an overpayment is stored on the certificate with a token
(once by keyboard), another is declined for the coins of change, and the credit (and coins) are
picked one by one under the hand ("Outside your hand", the table's generic money picker) to pay
for buildings. Along the way: the panels and seat badges draw both modules' state, no button
shows raw notation, the log names no coin or credit by its token and the console stays free of
errors. Screenshots: artifacts/screenshots/exchange_certificates-decision.png and
exchange_certificates-payment.png."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from alhambra import testing_browser as tb
from alhambra.modules.change.tests.browser_player import CERTS, CHANGE, RAW, Player

WANTED = ("stored", "stored by keyboard", "declined for change", "paid with coins", "paid with credit")
PLAY_SECONDS = 75.0

pytestmark = tb.needs_chromium

SEED = int(os.environ.get("ALHAMBRA_CERTIFICATES_SEED", "5"))
"""The seed of the table's game (every ``secrets.randbits`` draw of the server is this number),
so that the clicks play the same game every run; other seeds play other games (set the
variable to try one)."""


def test_both_seats_play_change_and_exchange_certificates_by_clicks(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    # two person seats, the module ticked
    with tb.served_table(tmp_path, problems, ("change", "exchange_certificates"), constant_seed=SEED) as pages:
        for p in pages:
            p.wait_for_selector(f"{CERTS} .cert-panel", timeout=10000)
            assert "24 coins" in p.locator(f"{CHANGE} .change-bag-count").inner_text()
            assert p.locator(f"{CERTS} .cert-boards li").count() == 2
            assert p.locator(f"{CERTS} .cert-centre svg.cert-token-icon").count() == 4  # 1 token of each colour with 2 players
        player = Player(pages, random.Random(11), WANTED, "exchange_certificates")
        player.play(PLAY_SECONDS)
        # the state at a glance: the credit in the panel and the badges agree; the log reads
        page = pages[0]
        page.wait_for_timeout(300)
        boards = page.locator(f"{CERTS} .cert-boards li .cert-credit").count()
        assert page.locator(".score-track .seat-badge[data-module='exchange_certificates']").count() == boards
        log = page.locator(".log-list").inner_text()
        assert "stores a credit of" in log and "does not store the" in log
        assert not RAW.search(log), "the log names coins or the credit by their tokens"
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
