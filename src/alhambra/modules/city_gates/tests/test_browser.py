"""City gates in the browser: one person plays both seats of a 2-player table in Debian's
Chromium by clicks only; a seat takes the open city-gate card with the plug-in's button and,
holding one, builds a tile through a gate whenever the plug-in offers it; else core moves.
Checked: no button shows the notation, the log tells the card taken, a gate built shows as an
arch on the Alhambra, and the console stays free of errors. Screenshots go to
artifacts/screenshots/city_gates-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "city_gates"
RAW = re.compile(r"\bgt\d\b|gate (take|place|build)")
WANTED = ("taken",)
PLAY_SECONDS = 90.0

pytestmark = tb.needs_chromium


class _Player(tb.ClickPlayer):
    module = ID
    raw = RAW
    wanted = WANTED

    def _gate_button(self, page: Any, what: str) -> bool:
        buttons = page.locator("#action-panel .gate-controls button.gate-button")
        for i in range(buttons.count()):
            b = buttons.nth(i)
            if (b.get_attribute("data-action") or "").startswith(what):
                before = tb.version(page)
                b.click(timeout=5000)
                self.wait_change(page, before)
                return True
        return False

    def turn(self, page: Any) -> None:
        if self._gate_button(page, "gate take"):
            self.saw("taken")
            return
        if self._gate_button(page, "gate build"):
            self.saw("gate")
            return
        self.core_turn(page, end=0.3, buy=0.7)

    def place(self, page: Any) -> None:
        if self._gate_button(page, "gate place"):
            self.saw("gate")
            self.shot(page, "gate")
            return
        super().place(page)


def test_both_seats_take_city_gate_cards(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), ("Ada", "Bo")) as pages:
        player = _Player(pages, random.Random(6))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(300)
        player.shot(page, "table")
        log = page.locator(".log-list").inner_text()
        assert re.search(r"takes the city-gate card", log), log[-500:]
        assert not RAW.search(log), "the log shows city-gate notation"
        if player.seen.get("gate"):
            assert page.locator(".board-overlay.gate-item").count() >= 1
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    assert player.seen.get("taken", 0) >= 1, player.seen
    assert problems == []
    player.check_shots()
