"""A person plays a complete 2-player game of Granada against a bot in Debian's Chromium, by
clicks on the browser table (Playwright): the lobby's game choice (modules that do not support
Granada are switched off, its assumptions are shown), the black marker beside the market, the
coloured mark of each market tile's back, turning a bought tile over (the player picks the
cards), the nine kinds' art, moats drawn as water, the per-kind ranked awards of the scoring
breakdown, the end screen and the replay. The log never shows notation; the browser console
stays clean.

``ALHAMBRA_DOC_IMAGES=1`` saves the picture of the table as docs/images/granada-table.png."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS

from .server_helpers import ServerProcess

pytestmark = tb.needs_chromium

NINE_KINDS = {"arena", "bathhouse", "library", "hostel", "hospital", "market", "park", "school", "residential"}
NOTATION = re.compile(r"\b[ABLOHMPSR]\d{1,2}[nesw]*\b|\b[bgoy]\d{1,2}\b|\bturn [A-Z]\d")
"""Tile codes, card codes and the turn-over action's notation: never in the log."""

BACK_NAME = re.compile(r"its other side: (Arena|Bath house|Library|Hostel|Hospital|Market|Park|School|Residential area) \d+ \(")

_KINDS_SHOWN_JS = """() => [...document.querySelectorAll("main svg .tile")].map((g) =>
  [...g.classList].find((c) => c.startsWith("kind-"))).filter(Boolean).map((c) => c.slice(5))"""


class _Granada:
    """The person's moves, and what the table showed on the way."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.kinds: set[str] = set()
        self.turned = 0
        self.marker_faces: set[str] = set()
        self.shot_taken = False
        self.reserved_turned = False

    def look(self) -> None:
        """Note the kinds drawn and the marker's face."""
        self.kinds.update(self.page.evaluate(_KINDS_SHOWN_JS))
        face = self.page.get_attribute("#market-marker", "data-face")
        assert face in ("even", "odd")
        self.marker_faces.add(face)

    def turn_over(self, version: str) -> None:
        """Turn the selected waiting tile over, picking the hand's cards of one way to pay."""
        page = self.page
        offer = page.locator(".turn-offer")
        assert "Or turn it over" in offer.inner_text() and "for 3 of one currency" in offer.inner_text()
        assert page.locator("#btn-turn").inner_text() == "Turn over (3)"
        page.locator("#btn-turn").click(timeout=5000)
        assert page.locator("#action-panel .buy strong").inner_text().startswith("Turn ")
        action = str(page.locator(".pay-option").first.get_attribute("data-action"))
        while page.locator(".hand-card.selected").count():  # a single way to pay comes preselected
            page.locator(".hand-card.selected").first.click(timeout=5000)
        assert not page.locator("#btn-buy").count()
        for code in action.split()[2].split("+"):
            page.locator(f".hand-card[data-code='{code}']:not(.selected)").first.click(timeout=5000)
        assert page.locator("#btn-buy").inner_text() == "Pay and turn over"
        tb.press(page, "#btn-buy", version)
        self.turned += 1
        # the new face waits to be built, marked as turned over; the log tells it in words
        page.wait_for_selector(".waiting-tile .turned-mark")
        assert "to turn" in page.locator(".log-list").inner_text()

    def reserve_turned(self, version: str) -> None:
        """Put the waiting tile on the reserve board on its other face (free)."""
        page = self.page
        button = page.locator("#btn-reserve-turned")
        title = str(button.get_attribute("title"))
        m = re.fullmatch(r"Put it on the reserve board as (.+) \(free\)", title)
        assert m, title
        tb.press(page, "#btn-reserve-turned", version)
        if page.locator("#btn-confirm").count():
            before = tb.version(page)
            tb.click(page, "#btn-confirm")
            tb.wait_change(page, before, confirm=False)
        page.wait_for_function("() => document.querySelector('.log-list').innerText.includes('on the reserve board')")
        assert f"Ada puts {m.group(1)} on the reserve board." in page.locator(".log-list").inner_text()
        assert page.locator(f".city.mine .reserve [aria-label*='{m.group(1)}']").count() >= 1
        self.reserved_turned = True

    def move(self) -> None:
        """One step of the person's turn: Granada's own moves while placing (turning the tile
        over, putting it on the reserve board turned), else the core's (never ending a turn
        that may go on)."""
        page = self.page
        if page.locator(".modal-back").count():
            return
        self.look()
        if tb.pending(page) == "PlaceTiles" and not page.locator("#btn-confirm").count():
            version = tb.version(page)
            if not page.locator(".waiting-tile.selected").count():
                tb.click(page, ".waiting-tile")
            if page.locator("#btn-turn").count() and (self.turned == 0 or self.rng.random() < 0.3):
                if not self.shot_taken:
                    page.screenshot(path=str(ARTIFACTS / "granada-turn-offer.png"), full_page=True)
                self.turn_over(version)
                return
            if self.turned and not self.reserved_turned and page.locator("#btn-reserve-turned").count():
                self.reserve_turned(version)
                return
        tb.click_core_move(page, self.rng, end=0.0, buy=0.8, failure="granada-failure")


def _lobby(page: Any, server: ServerProcess) -> None:
    """Choose Granada in the lobby and create a table with a bot."""
    page.goto(server.url + "/")
    page.wait_for_selector("#game-choice")
    assert page.locator("#game-choice option").all_inner_texts() == ["Alhambra", "Granada"]
    assert page.locator("#game-info").inner_text() == ""  # Alhambra rests on no assumption
    page.locator(".module[data-module='vizier'] .module-pick input").check()
    page.locator("#game-choice").select_option("granada")
    # no module supports Granada: each is switched off and says why
    vizier = page.locator(".module[data-module='vizier']")
    assert vizier.locator(".module-pick input").is_disabled() and not vizier.locator(".module-pick input").is_checked()
    assert vizier.locator(".module-unavailable").inner_text() == "Not available in Granada"
    assert page.locator(".module.unavailable").count() == page.locator(".module").count()
    # Granada's assumptions, as GET /api/games gives them
    granada = next(g for g in server.http.get("/api/games").json() if g["id"] == "granada")
    info = page.locator("#game-info")
    assert "9 building kinds" in info.inner_text() and info.locator(".assumed-mark").count() == 1
    info.locator("summary").click()
    shown = info.locator(".component-assumptions li").all_inner_texts()
    assert shown == granada["assumptions"] and len(shown) >= 4
    page.locator(".seat-row").nth(0).locator(".seat-name").fill("Ada")
    page.locator(".seat-row").nth(1).locator(".seat-bot").select_option("random")
    tb.click(page, "#btn-create", "granada-failure")
    tb.click(page, ".play-link", "granada-failure")
    page.wait_for_selector("#btn-join")
    tb.click(page, "#btn-join", "granada-failure")
    page.wait_for_selector("body[data-phase='my-turn'], body[data-phase='their-turn']")


def _market(page: Any) -> None:
    """The marker beside the market, and each market tile with its back's mark and name."""
    marker = page.locator("#market-marker")
    assert marker.is_visible() and "Refill:" in marker.inner_text()
    assert "black marker" in str(marker.get_attribute("title"))
    # read in one go: the bots keep playing, and the market may be redrawn between two reads
    squares = page.eval_on_selector_all(
        ".market-square:has(svg .tile)",
        "(els) => els.map((e) => ({marks: e.querySelectorAll('.back-mark').length, title: e.getAttribute('title') || ''}))",
    )
    assert len(squares) >= 1
    for sq in squares:
        assert sq["marks"] == 1, sq
        assert "its other side: " in sq["title"]
        assert BACK_NAME.search(sq["title"])


def _scoring(page: Any, table: str) -> None:
    """A Granada scoring breakdown: nine kinds with T and ranked awards, the longest moat."""
    rt = page.locator(f"{table} .round-table.multiples")
    assert rt.count() == 1
    assert rt.locator("tbody tr[data-kind]").count() == 9
    assert {str(rt.locator("tbody tr[data-kind]").nth(i).get_attribute("data-kind")) for i in range(9)} == NINE_KINDS
    assert rt.locator(".rt-total-t").count() == 9
    assert rt.locator(".rt-wall th").inner_text() == "Longest moat"
    rnd = int(str(rt.get_attribute("data-round")))
    awards = set(rt.locator(".rt-award").all_inner_texts())
    assert awards and awards <= {["T", "2T", "3T"][i] for i in range(rnd)}, (rnd, awards)
    # every award is its multiple of the kind's T, and first places carry "1st"
    for i in range(rt.locator(".rt-award").count()):
        cell = rt.locator("td:has(.rt-award)").nth(i)
        title = str(cell.get_attribute("title"))
        m = re.search(r"(\d)?T = (\d+) points", title)
        assert m, title
        row = cell.locator("xpath=..")
        t = int(re.sub(r"\D", "", row.locator(".rt-total-t").inner_text()))
        assert int(m.group(2)) == int(m.group(1) or 1) * t
        assert cell.locator(".rt-points").inner_text() == f"+{m.group(2)}"


def test_a_person_plays_a_whole_granada_game_against_a_bot(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path / "granada.sqlite3", bot_delay=0.0, seed=15)
    problems: list[str] = []
    rounds_seen = 0
    try:
        with sync_api.sync_playwright() as pw:
            browser = tb.launch(pw)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            tb.watch(page, problems)
            _lobby(page, server)
            assert page.title().endswith("· Granada")
            _market(page)
            game = _Granada(page, random.Random(15))

            def move() -> None:
                game.move()
                if game.turned and not game.shot_taken and tb.pending(page) == "ChooseAction":
                    page.screenshot(path=str(tb.doc_image("granada-table.png")))
                    game.shot_taken = True

            rounds_seen = tb.play_page(page, move, 300, on_round=lambda: _scoring(page, "#round-modal"))
            page.wait_for_selector("#summary-modal")
            # the end screen: the winner, the ranking with Dirk, the last round's Granada breakdown
            summary = page.locator("#summary-modal")
            assert re.search(r"wins!|Shared win", summary.locator(".winner").inner_text())
            assert summary.locator(".ranking li").count() == 3
            _scoring(page, "#summary-modal")
            page.screenshot(path=str(ARTIFACTS / "granada-end.png"))
            tb.click(page, "#btn-close-modal", "granada-failure")
            game.look()
            # the cities: moats drawn as water (never as walls), tiles built turned over marked
            assert page.locator(".city-svg .moat").count() > 0
            assert page.locator(".city-svg .wall:not(.moat)").count() == 0
            assert page.locator(".city.mine .city-svg .turned-mark").count() >= 1
            assert "moat" in page.locator(".city.mine .city-meta").inner_text()
            log = page.locator(".log-list").inner_text()
            assert "to turn" in log and "black marker turns" in log
            assert not NOTATION.search(log), NOTATION.search(log)
            page.screenshot(path=str(ARTIFACTS / "granada-end-board.png"), full_page=True)
            # the replay: the same art, marks and words
            tb.click(page, "#btn-summary", "granada-failure")
            tb.click(page, "#btn-summary-replay", "granada-failure")
            page.wait_for_selector("#replay-stage .r-city")
            assert page.locator("header .brand > span").last.inner_text() == "Granada" and page.title().endswith("· Granada")
            page.keyboard.press("End")
            page.wait_for_selector("#replay-stage .r-city svg .turned-mark")
            assert page.locator("#replay-stage .r-city svg .moat").count() > 0
            assert page.locator("#replay-stage .r-city svg .wall:not(.moat)").count() == 0
            assert "moat" in page.locator("#replay-stage .r-city h3").first.inner_text()
            moves = page.locator("#move-list").inner_text()
            assert " to turn " in moves and "black marker turns" in moves
            assert not NOTATION.search(moves), NOTATION.search(moves)
            browser.close()
    finally:
        server.stop()
    assert game.turned >= 1 and game.reserved_turned
    assert rounds_seen >= 2  # the first two rounds pop up during the game (the third is on the end screen)
    assert game.kinds >= NINE_KINDS, NINE_KINDS - game.kinds
    assert game.kinds <= NINE_KINDS | {"fountain"}
    assert game.marker_faces == {"even", "odd"}
    assert problems == []


def test_a_spectator_watches_a_granada_table_of_bots(tmp_path: Path) -> None:
    """A spectator (no seat) sees the same Granada table: marker, backs' marks, moats, words."""
    sync_api = pytest.importorskip("playwright.sync_api")
    server = ServerProcess(tmp_path / "granada-bots.sqlite3", bot_delay=0.05, seed=5)
    problems: list[str] = []
    try:
        r = server.http.post(
            "/api/tables", json={"seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}], "game": "granada"}
        )
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        with sync_api.sync_playwright() as pw:
            browser = tb.launch(pw)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            tb.watch(page, problems)
            page.goto(f"{server.url}/table/{tid}")
            page.wait_for_selector(".market-square svg .tile")
            assert page.locator(".badge", has_text="Spectator").count() == 1
            assert page.locator(".brand > span").inner_text() == "Granada"
            _market(page)
            # the game goes on by itself (it plays while watched): cities grow, moats as water
            page.wait_for_function("() => document.querySelectorAll('.city-svg .moat').length > 2", timeout=60_000)
            assert page.locator(".city-svg .wall:not(.moat)").count() == 0
            kinds = set(page.evaluate(_KINDS_SHOWN_JS))
            assert kinds <= NINE_KINDS | {"fountain"} and len(kinds - {"fountain"}) >= 3
            assert not page.locator("#btn-turn").count()  # a spectator is offered no move
            log = page.locator(".log-list").inner_text()
            assert not NOTATION.search(log), NOTATION.search(log)
            browser.close()
    finally:
        server.stop()
    assert problems == []
