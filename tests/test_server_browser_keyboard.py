"""The browser table played as players do, in Debian's Chromium (Playwright):

* a complete 2-player game against a bot by keyboard alone (no mouse): the lobby, the join
  dialog, every move, the scoring pop-ups, the end screen with its round-3 breakdown and the
  replay viewer;
* a complete 4-player game with the modules vizier and currency_exchange by keyboard alone;
* a complete game by touch at a 390 x 844 phone viewport, ending in the replay viewer;
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
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS

from .server_helpers import ServerProcess

pytestmark = tb.needs_chromium

RAW = re.compile(r"\b[PSACGT]\d{1,2}[nesw]{0,4}\b|\b[bgoy]\d\b|\bx[bgoy]{2}\b|\bvizier (buy|pass|wake)\b|-?\d+,-?\d+")
"""Notation that a player must never read: tile and card codes, module notation, coordinates."""

NO_SIDEWAYS = "(s) => { const m = document.querySelector(s); return m.scrollWidth <= m.clientWidth; }"
"""True when the element ``s`` has nothing hidden behind a sideways scroll."""


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


class DialogOpened(Exception):
    """A scoring dialog opened while the player was tabbing to a control of the table."""


class KeyboardPlayer:
    """Plays the person's seat with the keyboard only, keeping count of the Tab presses."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.presses: list[int] = []
        self.moves = 0
        self.focus_checks = 0
        self.seen: Counter[str] = Counter()

    def tab(self, selector: str) -> None:
        try:
            self.presses.append(tb.tab_to(self.page, selector))
        except AssertionError:
            # a bot's move scored a round meanwhile: its dialog took the focus (as it should);
            # the person closes it first and then looks at the table again
            dialog = self.page.locator("#round-modal")
            if dialog.count() and not dialog.locator(selector).count():
                raise DialogOpened from None
            raise

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
            # "cannot be taken back" is never shown beside an Undo button
            assert not page.locator("#btn-undo").count()
            before = tb.version(page)
            tb.key(page, "Enter", "#btn-confirm")  # choose() put the focus on it
            tb.wait_change(page, before, confirm=False, failure="keyboard-failure")
            return
        pending = tb.pending(page)
        if pending == "PlaceTiles":
            if not self.seen["cleared a placement"]:
                # Clear selection works while placing: the tile and its spots are dropped
                self.enter("#btn-clear")
                page.wait_for_function("!document.querySelector('.waiting-tile.selected') && !document.querySelector('.spot')")
                self.enter(".waiting-tile")
                page.wait_for_selector(".waiting-tile.selected")
                self.seen["cleared a placement"] += 1
            spots = page.locator(".spot")
            if spots.count():
                n = rng.randrange(spots.count())
                x, y = spots.nth(n).get_attribute("data-x"), spots.nth(n).get_attribute("data-y")
                self.act(f".spot[data-x='{x}'][data-y='{y}']")
            else:
                self.act("#btn-reserve")
            return
        if pending not in ("ChooseAction", None, "None", ""):
            # a decision between turns: the vizier's offer (a market square to pick) or pass
            offer = page.locator(".market-square.affordable[data-module]")
            if offer.count() and rng.random() < 0.7:
                sq = offer.nth(rng.randrange(offer.count())).get_attribute("data-square")
                self.enter(f".market-square[data-square='{sq}']")
                page.wait_for_selector(".pay-option, #btn-buy")
                if not page.locator("#btn-buy").count():
                    self.enter(".pay-option.exact" if page.locator(".pay-option.exact").count() else ".pay-option")
                    page.wait_for_selector("#btn-buy")
                self.seen["module offer used"] += 1
                self.act("#btn-buy")
                return
            self.seen["passed between turns"] += 1
            self.act(".pass-button")
            return
        wake = page.locator("#btn-vizier-wake")
        if wake.count() and rng.random() < 0.3:
            self.seen["woke the vizier"] += 1
            self.act("#btn-vizier-wake")
            return
        exchange = page.locator(".display-card.takeable[data-code^='x']")
        if exchange.count() and rng.random() < 0.7:
            slot = exchange.first.get_attribute("data-slot")
            self.enter(f".display-card[data-slot='{slot}']")
            self.seen["took an exchange card"] += 1
            self.act("#btn-take")
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
                if page.locator(".city .recent, .market-square.recent, .display-card.recent").count():
                    self.seen["last turn marked"] += 1
                try:
                    self.move()
                except DialogOpened:
                    self.seen["dialog opened while moving"] += 1
                    continue
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
        # tooltips on the market squares and the cards, in words
        assert "square" in str(page.get_attribute(".market-square >> nth=0", "title"))
        assert not RAW.search(str(page.get_attribute(".display-card >> nth=0", "title")))
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
        _replay_by_keyboard(page, 3)  # two players and Dirk
        browser.close()
    print("moves:", player.moves, "most Tab presses for one control:", sorted(player.presses)[-5:])
    assert player.moves > 20
    assert player.focus_checks > 10
    assert player.seen["cleared a placement"] == 1
    assert player.seen["last turn marked"] > 10
    # focus is never lost: each control is a few presses from the last one, never the whole page
    assert max(player.presses) <= 15, sorted(player.presses)[-5:]
    assert problems == []


def _replay_by_keyboard(page: Any, cities: int) -> None:
    """The replay viewer, from the end screen, by keyboard: step 0 shows every Alhambra, End
    goes to the last step."""
    tb.tab_to(page, "#btn-summary")
    page.keyboard.press("Enter")
    tb.tab_to(page, "#btn-summary-replay")
    page.keyboard.press("Enter")
    page.wait_for_selector("#replay-stage .r-city")
    assert page.locator(".r-city").count() == cities
    assert page.locator("#step-no").inner_text().startswith("Step 0 of ")
    page.keyboard.press("ArrowRight")
    _wait_for(page, lambda: page.locator("#step-no").inner_text().startswith("Step 1 of "), "one step forward")
    page.keyboard.press("End")
    _wait_for(page, lambda: "Game over" in page.locator("#replay-now").inner_text(), "the replay's last step")


def test_a_four_player_game_with_modules_by_keyboard(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    with ServerProcess(tmp_path / "kb4.sqlite3", seed=8) as server, sync_api.sync_playwright() as pw:
        browser = tb.launch(pw)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        tb.watch(page, problems)
        _create_by_keyboard(page, server.url, 4, ("vizier", "currency_exchange"))
        page.wait_for_selector(".module-panel[data-module='currency_exchange']")
        assert page.locator(".city").count() == 4
        player = KeyboardPlayer(page, random.Random(8))
        page.wait_for_selector("body[data-phase='my-turn']")
        # four Alhambras on a laptop screen without scrolling, the others smaller than mine
        assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
        mine = page.locator(".city.mine .city-svg").bounding_box()
        other = page.locator(".city:not(.mine) .city-svg").first.bounding_box()
        assert other["width"] * other["height"] < mine["width"] * mine["height"] / 2
        page.screenshot(path=str(tb.doc_image("table-desktop-4-players.png")))
        rounds = player.play(420)
        assert rounds == 2
        _check_end_screen(page, 4, False, "table-end-4-players.png")
        _replay_by_keyboard(page, 4)
        assert page.locator(".r-badges .seat-badge[data-module='vizier']").count() == 4  # the module's parts too
        browser.close()
    print("seen:", dict(player.seen), "presses:", sorted(player.presses)[-5:])
    assert player.moves > 20
    assert player.seen["passed between turns"] + player.seen["module offer used"] >= 1
    assert max(player.presses) <= 20, sorted(player.presses)[-5:]
    assert problems == []


class TouchPlayer:
    """Plays the person's seat by tapping, on a phone-sized page."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.moves = 0

    def tap(self, selector: str, wait: bool = True) -> None:
        before = tb.version(self.page)
        try:
            self.page.locator(selector).first.tap(timeout=5000)
        except Exception:
            tb.dump(self.page, f"tap {selector}", "phone-failure")
            raise
        if wait:  # after a confirmation, wait for the new version itself
            tb.wait_change(self.page, before, confirm=selector != "#btn-confirm", failure="phone-failure")

    def move(self) -> None:
        page, rng = self.page, self.rng
        self.moves += 1
        if page.locator("#btn-confirm").count():
            self.tap("#btn-confirm")
            return
        if tb.pending(page) == "PlaceTiles":
            spots = page.locator(".spot")
            if spots.count():
                n = rng.randrange(spots.count())
                before = tb.version(page)
                spots.nth(n).tap(timeout=5000)
                tb.wait_change(page, before, failure="phone-failure")
            else:
                self.tap("#btn-reserve")
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.8:
            affordable.nth(rng.randrange(affordable.count())).tap(timeout=5000)
            if not page.locator("#btn-buy").count():
                exact = page.locator(".pay-option.exact")
                (exact if exact.count() else page.locator(".pay-option")).first.tap(timeout=5000)
            # the decision bar stays in sight above the market while paying
            assert page.locator("#btn-buy").is_visible()
            self.tap("#btn-buy")
            return
        cards = page.locator(".display-card.takeable")
        if cards.count():
            cards.nth(rng.randrange(cards.count())).tap(timeout=5000)
            if page.locator("#btn-take").count():
                self.tap("#btn-take")
                return
            self.tap("#btn-clear", wait=False)
            return
        if page.locator("#btn-end").count():
            self.tap("#btn-end")
            return
        self.tap(".removable", wait=False)
        self.tap("#btn-remove")


def test_a_whole_game_by_touch_on_a_phone(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    with ServerProcess(tmp_path / "phone.sqlite3", seed=13) as server, sync_api.sync_playwright() as pw:
        browser = tb.launch(pw)
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        page.add_init_script("localStorage.setItem('alhambra.sound', '1')")  # the turn chime is on
        tb.watch(page, problems)
        page.goto(server.url + "/")
        page.locator(".seat-row").nth(1).locator(".seat-bot").select_option("random")
        page.locator("#btn-create").tap()
        page.locator(".play-link").tap()
        page.locator("#btn-join").tap()
        page.wait_for_selector("body[data-phase='my-turn']")
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
        player = TouchPlayer(page, random.Random(13))
        rounds = 0
        deadline = time.monotonic() + 240
        while tb.phase(page) != "over":
            assert time.monotonic() < deadline, "the game took too long"
            if page.locator("#round-modal").count():
                rounds += 1
                if rounds == 1:
                    # the breakdown reads on a phone: no sideways scroll in the dialog
                    assert page.evaluate(NO_SIDEWAYS, "#round-modal")
                page.locator("#btn-close-modal").tap()
                continue
            if tb.phase(page) == "my-turn":
                player.move()
            else:
                page.wait_for_timeout(15)
        page.wait_for_selector("#summary-modal .round-table[data-round='3']")
        assert page.evaluate(NO_SIDEWAYS, "#summary-modal")
        page.screenshot(path=str(tb.doc_image("table-phone-end.png")))
        page.locator("#summary-modal [data-key='summary-round-2']").tap()
        page.wait_for_selector("#summary-modal .round-table[data-round='2']")
        chimes = int(page.get_attribute("body", "data-chimes") or 0)
        page.locator("#btn-summary-replay").tap()
        page.wait_for_selector("#replay-stage .r-city")
        page.locator("#btn-forward").tap()
        assert page.locator("#step-no").inner_text().startswith("Step 1 of ")
        browser.close()
    assert rounds == 2
    assert player.moves > 20
    assert chimes >= 5  # a chime each time the turn came back (the first one, on load, is quiet)
    assert problems == []


def test_the_lobby_at_1280_px_and_a_network_failure(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    problems: list[str] = []
    with ServerProcess(tmp_path / "lobby.sqlite3") as server, sync_api.sync_playwright() as pw:
        browser = tb.launch(pw)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        tb.watch(page, problems)
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
        browser.close()
    # the aborted request is the only console message: Chromium reports the failed load
    assert all("net::ERR_INTERNET_DISCONNECTED" in p for p in problems), problems
