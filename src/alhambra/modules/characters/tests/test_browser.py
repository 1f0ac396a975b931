"""The characters in the browser: one person plays both seats of a 2-player table in Debian's
Chromium (two pages, one per seat), by clicks only. The deal (game seed 900) brings a character
up after eleven money cards: both seats then bid with the plug-in's stepper or pass, the winner
pays in the table's payment picker, and every ability's question is answered with the plug-in's
buttons. Checked along the way: the panel shows the auction (the card in the plug-in's art, the
highest bid), no button shows the notation, the log names characters by their names, the owner's
badge appears, and the console stays free of errors. Screenshots go to
artifacts/screenshots/characters-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "characters"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"\bcharacter (bid|pass|pay|keep|swap|dancer|beggar|go|patron|change|miser|skip|wise|build|remove|exchange|redesign)\b")
"""The module's notation, which no button and no log line may show."""
WANTED = ("auction", "won")
PLAY_SECONDS = 120.0
NAMES = ("Ada", "Bo")
MINE = {"Auction", "CharacterPayment", "EntertainerChoice", "TurnStart", "MiserChoice", "MasterBuilderChoice", "WiseChoice"}

pytestmark = tb.needs_chromium


class _Player(tb.ClickPlayer):
    module = ID
    raw = RAW
    wanted = WANTED

    def decide(self, page: Any, decision: str) -> bool:
        """The auction (bid with the stepper or pass), the payment picker, every ability's buttons."""
        if decision not in MINE:
            return False
        if decision == "Auction":
            if "auction" not in self.seen:
                page.wait_for_selector(f"{PANEL} .ch-auction svg.character-card", timeout=5000)
                self.shot(page, "auction")
            self.saw("auction")
            bid = page.locator("#action-panel .ch-bid button.primary")
            before = tb.version(page)
            if bid.count() and self.rng.random() < 0.6:
                bid.click(timeout=5000)
            else:
                page.locator("#action-panel .ch-bid button[data-action='character pass']").click(timeout=5000)
            self.wait_change(page, before)
            return True
        if decision == "CharacterPayment":
            page.locator("#action-panel .ch-actions button.primary").click(timeout=5000)
            self.shot(page, "pay")
            self.pay_and_buy(page)
            self.saw("won")
            return True
        buttons = page.locator("#action-panel .ch-actions button")
        assert buttons.count(), f"no control for {decision}"
        before = tb.version(page)
        buttons.nth(self.rng.randrange(buttons.count())).click(timeout=5000)
        if page.locator("#btn-confirm").count():
            page.locator("#btn-confirm").click(timeout=5000)
        self.wait_change(page, before)
        return True

    def turn(self, page: Any) -> None:
        """Mostly take money (characters come up from the money pile), else a core move."""
        if self.rng.random() < 0.7 and self.take_random(page):
            return
        self.core_turn(page)


def test_both_seats_bid_for_a_character_and_the_winner_pays(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), NAMES, constant_seed=900) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .ch-seats", timeout=10000)
        player = _Player(pages, random.Random(7))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(300)
        player.shot(page, "table")
        assert page.locator(f"{PANEL} .ch-owned svg.character-card").count() >= 1
        assert page.locator(f".score-track .seat-badge[data-module='{ID}']").count() >= 1
        log = page.locator(".log-list").inner_text()
        assert re.search(
            r"takes the (Rich Patron|Miser|Master Builder|Trader|Travelling Entertainer|Wise Man|Dancer|Moneychanger|Beggar|City Watch)",
            log,
        ), log[-500:]
        assert not RAW.search(log)
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
