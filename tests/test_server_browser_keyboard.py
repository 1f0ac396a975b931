"""The browser table played as players do, in Debian's Chromium (Playwright):

* a complete 2-player game against a bot by keyboard alone (no mouse): the lobby, the join
  dialog, every move, the scoring pop-ups and the end screen with its round-3 breakdown;
* a complete 4-player game with the modules vizier and currency_exchange by keyboard alone;
* a complete game by touch at a 390 x 844 phone viewport;
* the lobby at 1280 px (the bot rows fit) and a network failure told in words.

Focus must survive every redraw (the table redraws on every update), so a move never starts
again from the top of the page: :func:`alhambra.testing_browser.tab_to` counts the presses.
Screenshots for the docs go to docs/images with ``ALHAMBRA_DOC_IMAGES=1`` (see docs/server.md),
else to artifacts/screenshots.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS

from .server_helpers import ServerProcess

pytestmark = tb.needs_chromium

RAW = re.compile(r"\b[PSACGT]\d{1,2}[nesw]{0,4}\b|\b[bgoy]\d\b|\bx[bgoy]{2}\b|\bvizier (buy|pass|wake)\b|-?\d+,-?\d+")
"""Notation that a player must never read: tile and card codes, module notation, coordinates."""


def _no_raw_codes(page: Any) -> None:
    """No visible text of the table (buttons, the action panel, the log) shows notation."""
    texts = [
        *page.locator("button:visible").all_inner_texts(),
        page.locator("#action-panel").inner_text(),
        page.locator(".log-list").inner_text(),
    ]
    bad = [t for t in texts if RAW.search(t)]
    assert not bad, f"raw notation reaches the player: {bad[:3]}"


def _wait_for(page: Any, cond: Any, what: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            tb.dump(page, what, "keyboard-failure")
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(15)


class KeyboardPlayer:
    """Plays the person's seat with the keyboard only, keeping count of the Tab presses."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.presses: list[int] = []
        self.moves = 0
        self.focus_checks = 0

    def tab(self, selector: str) -> None:
        self.presses.append(tb.tab_to(self.page, selector))

    def enter(self, selector: str) -> None:
        """Tab to ``selector`` and press Enter on it."""
        self.tab(selector)
        tb.key(self.page, "Enter", selector)

    def act(self, selector: str) -> None:
        """Enter on ``selector`` and wait for the table to move on (or to ask for a confirmation)."""
        before = tb.version(self.page)
        self.enter(selector)
        tb.wait_change(self.page, before, failure="keyboard-failure")

    def keeps_focus(self, selector: str) -> None:
        """After a selection redrew the page, the focus is still on the control chosen."""
        page = self.page
        assert page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector), (
            f"focus lost after a redraw: on {tb.focused(page)}, expected {selector}"
        )
        self.focus_checks += 1

    def modal(self) -> bool:
        """A scoring pop-up: focus is inside it and stays there on Tab; Enter closes it and the
        focus goes back into the table."""
        page = self.page
        if not page.locator("#round-modal").count():
            return False
        _wait_for(page, lambda: bool(page.evaluate("!!document.activeElement.closest('.modal')")), "focus in the round dialog")
        for _ in range(3):
            page.keyboard.press("Tab")
            assert page.evaluate("!!document.activeElement.closest('.modal')"), "Tab left the dialog"
        self.enter("#btn-close-modal")
        _wait_for(page, lambda: not page.locator("#round-modal").count(), "the round dialog to close")
        assert tb.focused(page) != "body", "the focus was not returned after the dialog"
        return True

    def move(self) -> None:
        """One step of my turn."""
        page, rng = self.page, self.rng
        self.moves += 1
        if page.locator("#btn-confirm").count():
            before = tb.version(page)
            tb.key(page, "Enter", "#btn-confirm")  # choose() put the focus on it
            tb.wait_change(page, before, confirm=False, failure="keyboard-failure")
            return
        pending = tb.pending(page)
        if pending == "PlaceTiles":
            spots = page.locator(".spot")
            if spots.count():
                n = rng.randrange(spots.count())
                x, y = spots.nth(n).get_attribute("data-x"), spots.nth(n).get_attribute("data-y")
                self.act(f".spot[data-x='{x}'][data-y='{y}']")
            else:
                self.act("#btn-reserve")
            return
        if pending not in ("ChooseAction", None, "None", ""):
            # a decision between turns (the vizier's offer...): pass it by keyboard
            self.act(".pass-button")
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.8:
            sq = affordable.nth(rng.randrange(affordable.count())).get_attribute("data-square")
            sel = f".market-square[data-square='{sq}']"
            self.enter(sel)
            page.wait_for_selector(".pay-option")
            self.keeps_focus(sel)
            if not page.locator("#btn-buy").count():
                exact = page.locator(".pay-option.exact")
                self.enter(".pay-option.exact" if exact.count() else ".pay-option")
                page.wait_for_selector("#btn-buy")
            self.act("#btn-buy")
            return
        cards = page.locator(".display-card.takeable")
        if cards.count():
            slot = cards.nth(rng.randrange(cards.count())).get_attribute("data-slot")
            sel = f".display-card[data-slot='{slot}']"
            self.enter(sel)
            page.wait_for_selector("#btn-take, #btn-clear")
            self.keeps_focus(sel)
            if page.locator("#btn-take").count():
                text = page.locator("#btn-take").inner_text()
                self.act("#btn-take")
                if text == "Take and end turn":  # one confirmation: the turn is over at once
                    assert not page.locator("#btn-confirm").count()
                return
            self.enter("#btn-clear")
            return
        if page.locator("#btn-end").count():
            self.act("#btn-end")
            return
        if page.locator(".removable").count():
            self.enter(".removable")
            self.act("#btn-remove")
            return
        tb.dump(page, "no move", "keyboard-failure")
        raise AssertionError("no move offered although it is my turn")

    def play(self, limit: float) -> int:
        """Play until the game is over; the number of scoring pop-ups seen."""
        page = self.page
        rounds = 0
        deadline = time.monotonic() + limit
        while tb.phase(page) != "over":
            assert time.monotonic() < deadline, "the game took too long"
            if self.modal():
                rounds += 1
                continue
            if tb.phase(page) == "my-turn":
                self.move()
                if self.moves % 7 == 1:
                    _no_raw_codes(page)
            else:
                page.wait_for_timeout(15)
        return rounds


def _create_by_keyboard(page: Any, url: str, players: int, modules: tuple[str, ...] = ()) -> None:
    """The lobby by keyboard: the number of players, Beginner bots, modules, create, play, join."""
    page.goto(url + "/")
    page.wait_for_selector("#btn-create")
    if players != 2:
        tb.tab_to(page, "#seat-count")
        page.keyboard.type(str(players))  # a focused select picks the option starting with it
    for i in range(1, players):
        tb.tab_to(page, f".seat-row:nth-child({i + 1}) .seat-bot")
        page.keyboard.type("Beginner")
    for m in modules:
        tb.tab_to(page, f".module[data-module='{m}'] input[type='checkbox']")
        page.keyboard.press("Space")
    assert page.locator(".seat-bot:visible").evaluate_all("els => els.map((e) => e.value)") == ["random"] * (players - 1)
    tb.tab_to(page, "#btn-create")
    page.keyboard.press("Enter")
    page.wait_for_selector(".play-link")
    tb.tab_to(page, ".play-link")
    page.keyboard.press("Enter")
    # the join dialog takes the focus itself and keeps it
    page.wait_for_selector("#join-name")
    _wait_for(page, lambda: tb.focused(page).startswith("input#join-name"), "focus in the join dialog")
    for _ in range(4):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('.modal')"), "Tab left the join dialog"
    tb.tab_to(page, "#join-name")
    page.keyboard.type("Ada")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-phase='my-turn'], body[data-phase='their-turn']")


def _check_end_screen(page: Any, players: int, neutral: bool, image: str) -> None:
    """The end screen: focus inside, the round-3 breakdown, the hand-out, every round on demand."""
    page.wait_for_selector("#summary-modal")
    _wait_for(page, lambda: bool(page.evaluate("!!document.activeElement.closest('#summary-modal')")), "focus in the summary")
    summary = page.locator("#summary-modal")
    assert summary.locator(".round-table[data-round='3']").count() == 1, "the end screen hides round 3"
    table = summary.locator(".round-table")
    assert table.locator("thead .rt-seat").count() == players + (1 if neutral else 0)
    assert table.locator("tbody tr[data-kind]").count() == 6  # every kind: count, place, points
    assert "Longest wall" in table.inner_text()
    assert summary.locator(".hand-out").count() == 1
    hand_out = summary.locator(".hand-out").inner_text()
    assert "went to" in hand_out or "stayed" in hand_out or "empty" in hand_out
    assert summary.locator(".chart path").count() == players + (1 if neutral else 0)  # Dirk's line too
    page.screenshot(path=str(tb.doc_image(image)))
    tb.tab_to(page, "#summary-modal [data-key='summary-round-1']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#summary-modal .round-table[data-round='1']")
    assert tb.focused(page).startswith("button"), "focus lost when switching rounds"
    assert "round-1" in str(page.evaluate("document.activeElement.dataset.key"))
    _no_raw_codes(page)
    tb.key(page, "Escape")
    _wait_for(page, lambda: not page.locator("#summary-modal").count(), "the summary to close")


def test_a_whole_game_by_keyboard_against_a_bot(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    with ServerProcess(tmp_path / "kb.sqlite3", seed=5) as server, sync_api.sync_playwright() as pw:
        browser = tb.launch(pw)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        tb.watch(page, problems)
        _create_by_keyboard(page, server.url, 2)
        page.wait_for_selector("body[data-phase='my-turn']")
        # the whole table fits a laptop screen
        assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.title().startswith("▶ Your turn")
        page.screenshot(path=str(tb.doc_image("table-desktop.png")))
        player = KeyboardPlayer(page, random.Random(5))
        # the first focus shot: a market square chosen by keyboard, its payment offered
        sq = page.locator(".market-square.affordable")
        if sq.count():
            player.enter(".market-square.affordable")
            page.wait_for_selector(".pay-option")
            page.screenshot(path=str(tb.doc_image("table-keyboard-focus.png")))
            player.enter("#btn-clear")
        rounds = player.play(240)
        assert rounds == 2  # rounds 1 and 2 pop up; round 3 is on the end screen
        _check_end_screen(page, 2, True, "table-end-round3.png")
        browser.close()
    assert player.moves > 20
    assert player.focus_checks > 10
    # focus is never lost: each control is a few presses from the last one, never the whole page
    assert max(player.presses) <= 25, sorted(player.presses)[-5:]
    assert problems == []
