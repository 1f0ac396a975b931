"""The bonus cards in the browser: one person plays both seats of a 2-player table (two pages in
Debian's Chromium, Playwright) by clicks only, until the module's controls were used: a bonus card
played on the own turn (a free move: the turn goes on), the question before a scoring round
answered (a card played or a pass), and the scoring breakdown's column of counted cards. The
panel (own cards face up, the other seat's as backs), the seat badges and the log are checked; no
button shows raw notation; the console stays free of errors.

The server runs with a fixed seed for its new tables (its ``secrets.randbits`` is replaced in the
server process), so the deal and the tile bag are the same every run; the moves are chosen by a
seeded random generator, leaning towards the tiles pictured on the seat's own bonus cards. The
game's state is read from the API only to choose what to click."""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS, ServerProcess

TABLE_SEED = 5
"""The server's first ``secrets.randbits`` draws come from ``random.Random(TABLE_SEED)``."""
MOVE_SEED = 3
BUDGET = 80.0
"""Seconds of play at most (the test stops as soon as every control was used)."""

RAW_NOTATION = re.compile(r"\bbonus (play|pass)\b|\bbc[psacgt]\d+\b")
"""The module's notation and card codes: never a button's text."""

pytestmark = tb.needs_chromium


def _confirm(page: Any, version: str, button: str, keyboard: bool = False) -> None:
    """After a click: when the table asks to confirm a move that cannot be taken back, check the
    button's wording and confirm (by a click, or with the keyboard: the button has the focus);
    then wait for the move to arrive."""
    tb.wait_change(page, version)
    if page.locator("#btn-confirm").count():
        assert page.locator("#btn-confirm").inner_text() == button
        if keyboard:
            assert page.evaluate("document.activeElement && document.activeElement.id") == "btn-confirm"
            page.keyboard.press("Enter")
        else:
            page.locator("#btn-confirm").click(timeout=5000)
        tb.wait_change(page, version, confirm=False)


class _Player(tb.PagePlayer):
    """One seat's page and its clicks (no button shows bonus card notation, not even in its label)."""

    raw = RAW_NOTATION
    labels = True

    def __init__(self, page: Any, server: ServerProcess, table: str, token: str, rng: random.Random, seen: Counter[str]) -> None:
        super().__init__(page, rng, seen)
        self.server, self.table, self.token = server, table, token

    def view(self) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.token}"}
        msg: dict[str, Any] = self.server.http.get(f"/api/tables/{self.table}/view", headers=headers).json()
        return msg

    def move(self) -> None:
        page = self.page
        if page.locator(".modal-back").count():
            self.scoring_modal()
            return
        self.check_buttons()
        version = tb.version(page)
        if page.locator("#btn-confirm").count():
            page.locator("#btn-confirm").click(timeout=5000)
            tb.wait_change(page, version, confirm=False)
            return
        pending = page.get_attribute("body", "data-pending")
        if pending == "BonusOffer":
            self.answer_offer()
        elif pending == "PlaceTiles":
            self.place()
        elif pending == "ChooseAction":
            self.turn()
        else:
            raise AssertionError(f"unexpected decision {pending}")

    def scoring_modal(self) -> None:
        page = self.page
        if page.locator("#round-modal").count():
            head = page.locator("#round-modal th[data-module='bonus_cards']")
            assert head.inner_text() == "Bonus cards counted"
            cells = page.locator("#round-modal td[data-module='bonus_cards']").all_inner_texts()
            assert all(c == "—" or c.startswith("+1 ") for c in cells[:2]), cells
            self.saw("scoring column")
            if any(c.startswith("+1 ") for c in cells):
                self.saw("counted in scoring")
                if self.seen["counted in scoring"] == 1:
                    page.screenshot(path=str(ARTIFACTS / "bonus_cards-scoring.png"))
        page.locator("#btn-close-modal").click(timeout=5000)

    def answer_offer(self) -> None:
        page = self.page
        text = page.locator("#action-panel").inner_text()
        assert "is about to be counted" in text, text
        assert page.locator("#btn-bonus-pass").count() == 1
        self.saw("offer")
        plays = page.locator(".bc-play")
        version = tb.version(page)
        if plays.count():
            tile = plays.first.get_attribute("data-tile")
            if "offer play" not in self.seen:
                page.screenshot(path=str(ARTIFACTS / "bonus_cards-offer.png"), full_page=True)
            plays.first.click(timeout=5000)
            assert "cannot be taken back" in page.locator(".staged").inner_text()
            _confirm(page, version, "Play the card")
            page.wait_for_selector(f".bc-seat.mine .bc-card.played[data-tile='{tile}']", timeout=5000)
            self.saw("offer play")
            return
        page.locator("#btn-bonus-pass").focus()  # by keyboard: a real, focusable button
        page.keyboard.press("Enter")
        _confirm(page, version, "Pass", keyboard=True)
        self.saw("offer pass")

    def place(self) -> None:
        page = self.page
        version = tb.version(page)
        if not page.locator(".waiting-tile.selected").count():
            page.locator(".waiting-tile").first.click(timeout=5000)
        spots = page.locator(".spot")
        if spots.count():
            spots.nth(self.rng.randrange(spots.count())).click(timeout=5000)
        else:
            page.locator("#btn-reserve").click(timeout=5000)
        tb.wait_change(page, version)

    def turn(self) -> None:
        page, rng = self.page, self.rng
        version = tb.version(page)
        plays = page.locator(".bc-play")
        if plays.count() and "free play" not in self.seen:  # later cards are kept for the question before scoring
            tile = plays.first.get_attribute("data-tile")
            before = page.locator(".bc-seat.mine .bc-card.played").count()
            plays.first.click(timeout=5000)
            staged = page.locator(".staged").inner_text()
            assert "your turn goes on" in staged, staged
            _confirm(page, version, "Play the card")
            # a free move: the badge and the panel show the card face up, the turn goes on
            assert page.locator(".bc-seat.mine .bc-card.played").count() == before + 1
            assert page.get_attribute("body", "data-pending") == "ChooseAction" and tb.phase(page) == "my-turn"
            me = page.get_attribute(".score-track li.me", "data-seat")
            assert page.locator(f".city[data-seat='{me}'] .bc-badge.bc-played").count() == before + 1
            if "free play" not in self.seen:
                page.screenshot(path=str(ARTIFACTS / "bonus_cards-free-play.png"), full_page=True)
            assert tile is not None
            self.saw("free play")
            return
        msg = self.view()
        v = msg["view"]
        wanted = set(v["module_views"]["bonus_cards"]["hand"])
        squares = [sq for sq in v["market"] if sq["tile"] in wanted]
        legal = v["legal_actions"]
        for sq in squares:  # buy a tile pictured on one of my bonus cards
            if any(a.startswith(f"buy {sq['square']} ") for a in legal):
                page.locator(f".market-square[data-square='{sq['square']}']").click(timeout=5000)
                exact = page.locator(".pay-option.exact")
                if not page.locator("#btn-buy").count():
                    (exact if exact.count() else page.locator(".pay-option")).first.click(timeout=5000)
                page.locator("#btn-buy").click(timeout=5000)
                tb.wait_change(page, version)
                self.saw("bought a bonus tile")
                return
        for sq in squares:  # or save up in its currency
            cards = page.locator(f".display-card.takeable[data-code^='{sq['currency'][0]}']")
            if cards.count():
                cards.first.click(timeout=5000)
                if page.locator("#btn-take").count():
                    page.locator("#btn-take").click(timeout=5000)
                    tb.wait_change(page, version)
                    return
                page.locator("#btn-clear").click(timeout=5000)
        if page.locator("#btn-end").count() and rng.random() < 0.5:
            page.locator("#btn-end").click(timeout=5000)
            tb.wait_change(page, version)
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.6:
            affordable.nth(rng.randrange(affordable.count())).click(timeout=5000)
            exact = page.locator(".pay-option.exact")
            if not page.locator("#btn-buy").count():
                (exact if exact.count() else page.locator(".pay-option")).first.click(timeout=5000)
            page.locator("#btn-buy").click(timeout=5000)
            tb.wait_change(page, version)
            return
        cards = page.locator(".display-card.takeable")
        if cards.count():
            cards.nth(rng.randrange(cards.count())).click(timeout=5000)
            if page.locator("#btn-take").count():
                page.locator("#btn-take").click(timeout=5000)
                tb.wait_change(page, version)
                return
            page.locator("#btn-clear").click(timeout=5000)
        if page.locator("#btn-end").count():
            page.locator("#btn-end").click(timeout=5000)
            tb.wait_change(page, version)
            return
        if page.locator(".removable").count():
            page.locator(".removable").first.click(timeout=5000)
            page.locator("#btn-remove").click(timeout=5000)
            tb.wait_change(page, version)
            return
        page.screenshot(path=str(ARTIFACTS / "bonus_cards-failure.png"), full_page=True)
        raise AssertionError(f"the table offers no move although it is my turn: {page.locator('#action-panel').inner_text()}")


def _done(seen: dict[str, int]) -> bool:
    return all(k in seen for k in ("free play", "offer", "counted in scoring")) and ("offer play" in seen or seen.get("offer pass", 0) >= 2)


def test_a_person_plays_bonus_cards_in_both_seats(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob("bonus_cards-*.png"):
        old.unlink()
    server = ServerProcess(tmp_path / "bonus.sqlite3", seed=TABLE_SEED)
    problems: list[str] = []
    seen: Counter[str] = Counter()
    rng = random.Random(MOVE_SEED)
    try:
        r = server.http.post(
            "/api/tables", json={"seats": [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}], "modules": ["bonus_cards"]}
        )
        assert r.status_code == 201, r.text
        created = r.json()
        table = created["table"]["id"]
        with sync_api.sync_playwright() as pw:
            browser = tb.launch(pw)
            players = []
            for seat in created["seats"]:
                page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
                tb.watch(page, problems)
                page.goto(seat["invite_url"])
                page.wait_for_selector("#btn-join")
                page.locator("#btn-join").click()
                players.append(_Player(page, server, table, seat["token"], rng, seen))
            for p in players:
                p.page.wait_for_selector("body[data-phase='my-turn'], body[data-phase='their-turn']")
            # the module is drawn: own cards face up, the other seat's as backs, the cards set aside
            first = players[0].page
            first.wait_for_selector(".module-panel[data-module='bonus_cards'] .bc-seat.mine")
            assert first.locator(".bc-seat.mine .bc-card.in-hand .bonus-card").count() == 3
            assert first.locator(".bc-seat:not(.mine) .bc-card.secret .bonus-back").count() == 3
            assert "4 cards set aside" in first.locator(".bc-aside").inner_text()
            assert first.locator(".score-track .bc-badge.bc-hand").all_inner_texts() == ["3 bonus cards", "3 bonus cards"]
            assert first.locator(".city .bc-badge.bc-hand").count() == 2
            deadline = time.monotonic() + BUDGET
            while not _done(seen) and time.monotonic() < deadline:
                acted = False
                for p in players:
                    if p.page.locator(".modal-back").count() or (tb.phase(p.page) == "my-turn"):
                        p.move()
                        acted = True
                if all(tb.phase(p.page) == "over" for p in players):
                    break
                if not acted:
                    players[0].page.wait_for_timeout(15)
            page = players[0].page
            if page.locator("#summary-modal").count():  # the last round's breakdown is in the side panel
                page.locator("#btn-close-modal").click(timeout=5000)
                page.locator(".rounds details summary").last.click(timeout=5000)
                cells = page.locator(".rounds details[open] td[data-module='bonus_cards']").all_inner_texts()
                assert cells and all(c == "—" or c.startswith("+1 ") for c in cells[:2]), cells
                if any(c.startswith("+1 ") for c in cells):
                    seen["counted in scoring"] = seen.get("counted in scoring", 0) + 1
            if page.locator("#round-modal").count():
                page.locator("#btn-close-modal").click(timeout=5000)
            log = page.locator(".log-list").inner_text()
            page.screenshot(path=str(ARTIFACTS / "bonus_cards-table.png"), full_page=True)
            browser.close()
    finally:
        server.stop()
    print("seen:", seen)
    assert seen.get("free play", 0) >= 1, seen
    assert seen.get("offer", 0) >= 1, seen
    assert seen.get("counted in scoring", 0) >= 1, seen
    assert "plays the bonus card" in log and "one more" in log
    if "offer pass" in seen:
        assert "plays no bonus card before scoring round" in log
    assert not RAW_NOTATION.search(log), "the log shows bonus card notation"
    assert problems == []
