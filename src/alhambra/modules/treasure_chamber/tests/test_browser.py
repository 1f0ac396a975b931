"""The treasure chamber in the browser: one person plays both seats of a 2-player table in
Debian's Chromium (two pages, one per seat), by clicks only, until the module's controls were
used: rooms bought through the panel (the first by keyboard) and the table's payment picker,
chests put into a chosen building by a click on the highlighted building of the Alhambra and
by a button reached with the keyboard. Along the way: the chamber panel, the badges and the
chests on the buildings are drawn, no button shows raw notation, the log names no room by its
item word and the console stays free of errors. Screenshots go to
artifacts/screenshots/treasure_chamber-*.png."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "treasure_chamber"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"\bchest put\b|\broom\d\b|-?\d+,-?\d+")
"""The module's notation, which must never be a button's text nor appear in the log."""
WANTED = ("bought", "bought by keyboard", "put by click", "put by keyboard", "warned")
"""Seen at least once each; "warned": a room with no free building of its colours was bought
after the warning (issue 28; the first room, bought early, has no home: 3 of 5 rooms in a run)."""
PLAY_SECONDS = 70.0
NAMES = ("Ada", "Bo")

pytestmark = tb.needs_chromium

SEED = int(os.environ.get("ALHAMBRA_CHAMBER_SEED", "5"))
"""The seed of the table's game. The server draws it at random; the test fixes it (every
``secrets.randbits`` draw of the server is this number, see :class:`ServerProcess`) so that its
clicks play the same game every time. Another seed plays another game; the test holds for most
(set the variable to try)."""


class _Player(tb.ClickPlayer):
    """Both seats, one page each: the moves are clicks like a person's; ``seen`` counts the
    module's controls used."""

    module = "treasure_chamber"
    raw = RAW
    wanted = WANTED

    def done(self) -> bool:
        return super().done() and self.seen["bought"] >= 3

    # ----- one move of the page whose turn it is
    def decide(self, page: Any, decision: str) -> bool:
        if decision == "TreasureChestPlacement":
            self.put(page)
            return True
        return False

    def put(self, page: Any) -> None:
        picks = page.locator(".board-overlay.tc-pick")
        buttons = page.locator("button.tc-put")
        assert picks.count() >= 2 and picks.count() == buttons.count(), "every building to choose is highlighted and has a button"
        assert page.locator(f"{PANEL} .tc-transit").count() == 1 and page.locator(".tc-decision svg.tc-chest-art").count() >= 1
        kinds = {str(b.get_attribute("data-kind")) for b in buttons.all()}
        assert kinds and "" not in kinds
        # each building is named with its place in words, as everywhere on the table
        for text in buttons.all_inner_texts():
            assert re.fullmatch(r"Into .+, (on the fountain|.+ of the fountain)", text.strip()), text
        version = tb.version(page)
        if not self.seen.get("put by click"):
            self.shot(page, "placement")
            picks.nth(self.rng.randrange(picks.count())).click(timeout=5000)
            self.saw("put by click")
        else:
            buttons.nth(self.rng.randrange(buttons.count())).focus()
            page.keyboard.press("Enter")
            self.saw("put by keyboard")
        self.wait_change(page, version)

    def built(self, page: Any) -> dict[str, int]:
        """This seat's buildings per kind letter (P, S, A, C, G, T)."""
        name = NAMES[self.pages.index(page)]
        built: dict[str, int] = {}
        for code in page.locator(f".city-svg[aria-label='Alhambra of {name}'] g[data-tile]").evaluate_all(
            "els => els.map(e => e.dataset.tile)"
        ):
            built[code[0]] = built.get(code[0], 0) + 1
        return built

    def good_rooms(self, page: Any) -> list[Any]:
        """The buyable rooms with a chest of a colour of which this seat has more buildings than
        the room has chests (so that the chest's building is to be chosen)."""
        built = self.built(page)
        out = []
        for room in page.locator(f"{PANEL} button.tc-buy").all():
            kinds = str(room.get_attribute("data-kinds")).split()
            if any(built.get(k[0].upper(), 0) > kinds.count(k) for k in kinds):
                out.append(room)
        return out

    def turn(self, page: Any) -> None:
        rng = self.rng
        rooms = page.locator(f"{PANEL} button.tc-buy")
        good = self.good_rooms(page) if rooms.count() else []
        # buy the first room early (by keyboard), later a room whose chests leave a choice of
        # buildings; otherwise mostly build, so that there are buildings to put chests into
        if rooms.count() and (not self.seen.get("bought") or (good and rng.random() < 0.7) or rng.random() < 0.05):
            room = good[rng.randrange(len(good))] if good else rooms.nth(rng.randrange(rooms.count()))
            homeless = not any(self.built(page).get(k[0].upper(), 0) for k in str(room.get_attribute("data-kinds")).split())
            if self.seen.get("bought"):
                room.click(timeout=5000)
            else:
                room.focus()
                page.keyboard.press("Enter")
                self.saw("bought by keyboard")
            assert page.locator(".buy").inner_text().startswith("Buy the 4 treasure chests of room")
            if homeless:  # no building of any of its colours: the player is warned before paying
                assert "Careful: you have no free building for any of these chests" in page.locator(".buy").inner_text()
                self.saw("warned")
            assert page.locator(f"{PANEL} button.tc-buy.selected").count() == 1
            assert page.locator("button.tc-buy-button.selected").count() == 1
            page.locator(".pay-option").first.click(timeout=5000)
            if not self.seen.get("bought"):
                self.shot(page, "payment")
            assert page.locator("#btn-buy").inner_text() == "Buy the chests"
            self.click(page, "#btn-buy")  # ends the turn: confirmed
            self.saw("bought")
            return
        self.core_turn(page, end=0.6, buy=0.85)


def test_both_seats_play_the_treasure_chamber_by_clicks(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    # two person seats, the module ticked
    with tb.served_table(tmp_path, problems, (ID,), NAMES, constant_seed=SEED) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .tc-panel", timeout=10000)
            assert p.locator(f"{PANEL} svg.tc-room-art").count() == 3
            assert p.locator(f"{PANEL} .tc-room-art .tc-chest").count() == 12  # 4 chests in each room
            assert p.locator(f"{PANEL} .tc-stand").count() == 3  # both players and Dirk
            assert "30 in the bag" in p.locator(f"{PANEL} .tc-bagline").inner_text()
        player = _Player(pages, random.Random(7))
        player.play(PLAY_SECONDS)
        # the state at a glance: the chests on the buildings, the badges, the standing, the log
        page = pages[0]
        page.wait_for_timeout(300)
        on_board = page.locator(".board-overlay.tc-home-item").count()
        counts = [int(t) for t in page.locator(f"{PANEL} .tc-stand-count").all_inner_texts()]
        assert on_board == sum(counts[:2]) and on_board >= 2, (on_board, counts)
        assert page.locator(f".score-track .seat-badge[data-module='{ID}']").count() == sum(1 for c in counts[:2] if c)
        player.shot(page, "table")
        log = page.locator(".log-list").inner_text()
        assert "buys the treasure chests of room" in log and "puts" in log and "into buildings" in log
        assert "is refilled from the bag" in log
        assert not RAW.search(log), "the log names rooms by their item words"
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
