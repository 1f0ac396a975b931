"""The browser table played as players do, in Debian's Chromium (Playwright):

* a complete 2-player game against a bot by keyboard alone (no mouse): the lobby, the join
  dialog, every move, the scoring pop-ups, the end screen with its round-3 breakdown and the
  replay viewer;
* a complete 4-player game with the modules vizier and currency_exchange by keyboard alone;
* a complete game by touch at a 390 x 844 phone viewport, ending in the replay viewer;
* the lobby at 1280 px (the bot rows fit) and a network failure told in words.

Focus must survive every redraw (the table redraws on every update), so a move never starts
again from the top of the page: :func:`alhambra.testing_browser.tab_to` counts the presses.
The players (:class:`~alhambra.testing_browser.KeyboardPlayer`, ``TouchPlayer``) and the lobby,
end screen and replay steps are shared with the Granada games (tests/test_granada_browser_play.py).
Screenshots for the docs go to docs/images with ``ALHAMBRA_DOC_IMAGES=1`` (see docs/server.md),
else to artifacts/screenshots.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

pytestmark = tb.needs_chromium

RAW = re.compile(r"\b[PSACGT]\d{1,2}[nesw]{0,4}\b|\b[bgoy]\d\b|\bx[bgoy]{2}\b|\bvizier (buy|pass|wake)\b|-?\d+,-?\d+")
"""Notation that a player must never read: tile and card codes, module notation, coordinates."""


def _no_sideways(page: Any, selector: str) -> None:
    """The element ``selector`` has nothing hidden behind a sideways scroll."""
    assert page.evaluate(tb.NO_SIDEWAYS, selector), f"{selector} scrolls sideways"


def test_a_whole_game_by_keyboard_against_a_bot(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "kb.sqlite3", problems, seed=5) as (server, page):
        tb.create_by_keyboard(page, server.url, 2)
        page.wait_for_selector("body[data-phase='my-turn']")
        # the whole table fits a laptop screen
        assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.title().startswith("▶ Your turn")
        # tooltips on the market squares and the cards, in words
        assert "square" in str(page.get_attribute(".market-square >> nth=0", "title"))
        assert not RAW.search(str(page.get_attribute(".display-card >> nth=0", "title")))
        page.screenshot(path=str(tb.doc_image("table-desktop.png")))
        player = tb.KeyboardPlayer(page, random.Random(5), RAW)
        # the first focus shot: a market square chosen by keyboard, its payment offered
        sq = page.locator(".market-square.affordable")
        if sq.count():
            player.enter(".market-square.affordable")
            page.wait_for_selector(".pay-option")
            page.screenshot(path=str(tb.doc_image("table-keyboard-focus.png")))
            player.enter("#btn-clear")
        rounds = player.play(240)
        assert rounds == 2  # rounds 1 and 2 pop up; round 3 is on the end screen
        tb.check_end_screen(page, 2, True, "table-end-round3.png", RAW)
        # every round stays on demand in the side panel; notation only with the setting
        assert page.locator(".rounds details").count() == 3
        assert page.locator(".log-list .notation").count() == 0
        tb.tab_to(page, "#settings-toggle")
        page.keyboard.press("Enter")
        tb.tab_to(page, "#set-notation")
        page.keyboard.press("Space")
        page.wait_for_selector(".log-list .notation")
        assert tb.focused(page).startswith("input#set-notation")
        assert re.search(r"places [PSACGT]\d+", page.locator(".log-list").inner_text())
        tb.replay_by_keyboard(page, 3)  # two players and Dirk
    print("moves:", player.moves, "most Tab presses for one control:", sorted(player.presses)[-5:])
    assert player.moves > 20
    assert player.focus_checks > 10
    assert player.seen["cleared a placement"] == 1
    assert player.seen["last turn marked"] > 10
    # focus is never lost: each control is a few presses from the last one, never the whole page
    assert max(player.presses) <= 15, sorted(player.presses)[-5:]
    assert problems == []


def test_a_four_player_game_with_modules_by_keyboard(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "kb4.sqlite3", problems, seed=8) as (server, page):
        tb.create_by_keyboard(page, server.url, 4, ("vizier", "currency_exchange"))
        page.wait_for_selector(".module-panel[data-module='currency_exchange']")
        assert page.locator(".city").count() == 4
        player = tb.KeyboardPlayer(page, random.Random(8), RAW)
        page.wait_for_selector("body[data-phase='my-turn']")
        # four Alhambras on a laptop screen without scrolling, the others smaller than mine
        assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
        mine = page.locator(".city.mine .city-svg").bounding_box()
        other = page.locator(".city:not(.mine) .city-svg").first.bounding_box()
        assert other["width"] * other["height"] < mine["width"] * mine["height"] / 2
        page.screenshot(path=str(tb.doc_image("table-desktop-4-players.png")))
        rounds = player.play(420)
        assert rounds == 2
        tb.check_end_screen(page, 4, False, "table-end-4-players.png", RAW)
        tb.replay_by_keyboard(page, 4)
        assert page.locator(".r-badges .seat-badge[data-module='vizier']").count() == 4  # the module's parts too
    print("seen:", dict(player.seen), "presses:", sorted(player.presses)[-5:])
    assert player.moves > 20
    assert player.seen["passed between turns"] + player.seen["module offer used"] >= 1
    assert max(player.presses) <= 20, sorted(player.presses)[-5:]
    assert problems == []


def test_a_whole_game_by_touch_on_a_phone(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "phone.sqlite3", problems, seed=13, viewport=(390, 844), phone=True) as (server, page):
        page.add_init_script("localStorage.setItem('alhambra.sound', '1')")  # the turn chime is on
        tb.create_by_touch(page, server.url)
        # laid out around what you act on: the decision, then the market and money, then the hand
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        box = {sel: page.locator(sel).bounding_box() for sel in ("#action-panel", ".supply", ".hand", ".city.mine")}
        assert box["#action-panel"]["y"] < box[".supply"]["y"] < box[".hand"]["y"] < box[".city.mine"]["y"]
        assert box[".hand"]["y"] - (box[".supply"]["y"] + box[".supply"]["height"]) < 30
        assert box[".hand"]["y"] < 844, "the hand is below the first screen"
        page.screenshot(path=str(tb.doc_image("table-phone.png")))
        # the network fails during a move: the player reads it in words, and nothing changed
        before = tb.version(page)
        page.route("**/actions", lambda route: route.abort("internetdisconnected"))
        page.locator(".display-card.takeable").first.tap()
        page.locator("#btn-take").tap()
        toast = page.locator(".toast.error")
        toast.wait_for()
        assert "cannot be reached" in toast.inner_text() and "Failed to fetch" not in toast.inner_text()
        assert tb.version(page) == before
        page.unroute("**/actions")
        problems[:] = [p for p in problems if "ERR_INTERNET_DISCONNECTED" not in p]
        player = tb.TouchPlayer(page, random.Random(13))
        # the breakdown reads on a phone: no sideways scroll in the dialog
        rounds = player.play(240, lambda _: _no_sideways(page, "#round-modal"))
        page.wait_for_selector("#summary-modal .round-table[data-round='3']")
        _no_sideways(page, "#summary-modal")
        page.screenshot(path=str(tb.doc_image("table-phone-end.png")))
        page.locator("#summary-modal [data-key='summary-round-2']").tap()
        page.wait_for_selector("#summary-modal .round-table[data-round='2']")
        chimes = int(page.get_attribute("body", "data-chimes") or 0)
        page.locator("#btn-summary-replay").tap()
        page.wait_for_selector("#replay-stage .r-city")
        page.locator("#btn-forward").tap()
        assert page.locator("#step-no").inner_text().startswith("Step 1 of ")
    assert rounds == 2
    assert player.moves > 20
    assert player.back_to_top >= 5
    assert chimes >= 5  # a chime each time the turn came back (the first one, on load, is quiet)
    assert problems == []


def test_the_lobby_at_1280_px_and_a_network_failure(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "lobby.sqlite3", problems) as (server, page):
        page.goto(server.url + "/")
        page.locator("#seat-count").select_option("6")
        for i in range(1, 6):
            page.locator(".seat-row").nth(i).locator(".seat-bot").select_option("mcts:hard")
        # every bot row fits its panel: no control sticks out on the right
        form = page.locator(".create-form").bounding_box()
        right = form["x"] + form["width"]
        for row in page.locator(".seat-row").all():
            for control in row.locator("select:visible, input").all():
                b = control.bounding_box()
                assert b["x"] + b["width"] <= right + 0.5, control.evaluate("e => e.outerHTML.slice(0, 80)")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(tb.doc_image("lobby-desktop.png")), full_page=True)
        # the network goes away: the player reads what happened, in words
        page.route("**/api/tables", lambda route: route.abort("internetdisconnected"))
        page.locator("#btn-create").click()
        err = page.locator(".created .error")
        err.wait_for()
        text = err.inner_text()
        assert "cannot be reached" in text and "Failed to fetch" not in text
    # the aborted request is the only console message: Chromium reports the failed load
    assert all("net::ERR_INTERNET_DISCONNECTED" in p for p in problems), problems
