"""The thieves in the browser: a person plays a 2-player table with the thieves against a random
bot in Debian's Chromium, by clicks only (Playwright). The panel draws the person's thieves face
up, the bot's as backs with a count, the played ones and those removed at setup; between turns the
cards the person's thieves may steal are highlighted in the money display, a click (or Enter on
the focused card, or a button of the action panel) asks "Steal the blue 4 with a blue thief" and
Confirm plays it; the table's Pass declines. No button shows raw notation, the console stays
clean. Screenshots: artifacts/screenshots/thieves-*.png."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[5]
ARTIFACTS = Path(os.environ.get("ALHAMBRA_ARTIFACTS", ROOT / "artifacts")) / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
RAW_NOTATION = re.compile(r"\bthief [a-z]+\d+\b")
"""The module's notation (``thief b4``), never a button's text."""

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium (scripts/test installs it with apt-get)"
)


class _Server:
    """``alhambra serve`` on a free loopback port, stopped by :meth:`stop`."""

    def __init__(self, db_file: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.log = open(db_file.with_suffix(".log"), "ab")  # noqa: SIM115 - kept open for the process's lifetime
        cmd = [sys.executable, "-m", "alhambra", "serve", "--port", str(port), "--database-url", f"sqlite:///{db_file}", "--bot-delay", "0"]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        end = time.monotonic() + 30
        while True:
            assert self.proc.poll() is None, "the server exited"
            try:
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()


def _version(page: Any) -> str:
    return str(page.get_attribute("body", "data-version"))


def _phase(page: Any) -> str:
    return str(page.get_attribute("body", "data-phase"))


def _wait_change(page: Any, version: str, confirm: bool = True) -> None:
    """Until the table moved past ``version`` (or, with ``confirm``, asks for a confirmation)."""
    end = time.monotonic() + 15
    while time.monotonic() < end:
        if _version(page) != version or (confirm and page.locator("#btn-confirm").count()):
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"the table did not react (still version {version})")


def _click(page: Any, selector: str) -> None:
    page.locator(selector).first.click(timeout=5000)


class _Game:
    """The person's moves and what was seen."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.seen: dict[str, int] = {}

    def saw(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    def my_thieves(self) -> int:
        return int(self.page.locator(".module-panel[data-module='thieves'] .th-mine .thief-card").count())

    def check_buttons(self) -> None:
        texts = self.page.locator("button").all_inner_texts()
        bad = [t for t in texts if RAW_NOTATION.search(t)]
        assert not bad, f"buttons show raw notation: {bad}"
        assert self.page.locator(".other-move").count() == 0, "a thieves action was left without a proper control"

    def between_turns(self) -> None:
        """Asked between turns: steal a highlighted card (the first offer is declined) or pass."""
        page = self.page
        version = _version(page)
        offered = page.locator(".display-card.offered[data-module='thieves']")
        assert page.locator(".pass-button").count() == 1
        if not offered.count():
            self.saw("asked without a match")
            _click(page, ".pass-button")
            _wait_change(page, version)
            return
        self.saw("offer")
        buttons = page.locator(".thief-steal")
        assert buttons.count() >= 1, "the action panel lists the cards to steal"
        codes = {str(offered.nth(i).get_attribute("data-code")) for i in range(offered.count())}
        assert codes == {str(buttons.nth(i).get_attribute("data-code")) for i in range(buttons.count())}
        mine = set(page.locator(".th-mine .thief-card").evaluate_all("els => els.map(e => e.dataset.currency)"))
        labels = "els => els.map(e => e.getAttribute('aria-label'))"
        names = set(page.locator(".display-card.offered[data-module='thieves'] svg").evaluate_all(labels))
        assert names and all(any(f"({c})" in name for c in mine) for name in names), (names, mine)  # "4 denar (blue)"
        if self.seen["offer"] == 1:
            page.screenshot(path=str(ARTIFACTS / "thieves-offer.png"), full_page=True)
            _click(page, ".pass-button")  # decline the first offer
            _wait_change(page, version)
            self.saw("passed an offer")
            return
        before = self.my_thieves()
        how = ("click", "keyboard", "button")[self.seen.get("stolen", 0) % 3]
        if how == "click":
            offered.nth(self.rng.randrange(offered.count())).click(timeout=5000)
        elif how == "keyboard":
            offered.first.focus()
            page.keyboard.press("Enter")
        else:
            buttons.nth(self.rng.randrange(buttons.count())).click(timeout=5000)
        page.wait_for_selector("#btn-confirm")
        staged = page.locator(".staged").inner_text()
        assert re.fullmatch(r"Steal the (blue|green|orange|yellow) \d+ with an? \1 thief\. It cannot be taken back\.", staged), staged
        assert page.locator("#btn-confirm").inner_text() == "Confirm"
        self.check_buttons()
        _click(page, "#btn-confirm")
        _wait_change(page, version, confirm=False)
        page.wait_for_function(f"document.querySelectorAll('.th-mine .thief-card').length === {before - 1}", timeout=5000)
        self.saw("stolen")
        self.saw(f"stolen by {how}")

    def my_turn(self) -> None:
        """A plain turn: buy (and place) or take one card."""
        page, rng = self.page, self.rng
        version = _version(page)
        if page.locator("#btn-confirm").count():
            _click(page, "#btn-confirm")
            _wait_change(page, version, confirm=False)
            return
        pending = page.get_attribute("body", "data-pending")
        if pending == "PlaceTiles":
            if not page.locator(".waiting-tile.selected").count():
                _click(page, ".waiting-tile")
            spots = page.locator(".spot")
            if spots.count():
                spots.nth(rng.randrange(spots.count())).click(timeout=5000)
            else:
                _click(page, "#btn-reserve")
            _wait_change(page, version)
            return
        if page.locator("#btn-end").count():
            _click(page, "#btn-end")
            _wait_change(page, version)
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.5:
            affordable.nth(rng.randrange(affordable.count())).click(timeout=5000)
            exact = page.locator(".pay-option.exact")
            (exact if exact.count() else page.locator(".pay-option")).first.click(timeout=5000)
            _click(page, "#btn-buy")
            _wait_change(page, version)
            return
        cards = page.locator(".display-card.takeable")
        cards.nth(rng.randrange(cards.count())).click(timeout=5000)
        _click(page, "#btn-take")
        _wait_change(page, version)

    def move(self) -> None:
        self.check_buttons()
        if self.page.locator("#btn-confirm").count() or self.page.get_attribute("body", "data-pending") != "BetweenTurns":
            self.my_turn()
        else:
            self.between_turns()


def test_a_person_steals_with_thieves_against_a_bot(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = _Server(tmp_path / "thieves.sqlite3")
    problems: list[str] = []
    game: _Game | None = None
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.goto(server.url + "/")
            page.locator(".module[data-module='thieves'] input[type='checkbox']").check()
            page.locator(".seat-row").nth(0).locator(".seat-name").fill("Ada")
            page.locator(".seat-row").nth(1).locator(".seat-bot").select_option("random")
            _click(page, "#btn-create")
            _click(page, ".play-link")
            page.wait_for_selector("#btn-join")
            _click(page, "#btn-join")
            page.wait_for_selector(".module-panel[data-module='thieves'] .th-seats li")
            game = _Game(page, random.Random(7))
            # the state at a glance: my 4 thieves face up, the bot's as backs, 4 set aside, badges
            panel = page.locator(".module-panel[data-module='thieves']")
            assert game.my_thieves() == 4
            assert panel.locator(".th-seats li").count() == 2
            # the bot may already have played a thief between turns: backs and played ones make 4
            bot_row = panel.locator(".th-seats li[data-seat='1']")
            assert bot_row.locator(".thief-fan .thief-back").count() + bot_row.locator(".th-played .th-card").count() == 4
            assert "4 removed face down at setup" in panel.locator(".th-aside").inner_text()
            badges = page.locator(".score-track .seat-badge[data-module='thieves']").all_inner_texts()
            assert badges[0].strip() == "4 thieves" and re.fullmatch(r"[0-4] thie(f|ves)", badges[1].strip()), badges
            deadline = time.monotonic() + 75
            while _phase(page) != "over" and game.seen.get("stolen", 0) < 4:
                assert time.monotonic() < deadline, f"too slow: {game.seen}"
                if page.locator("#round-modal").count():
                    _click(page, "#btn-close-modal")
                    continue
                if _phase(page) == "my-turn":
                    game.move()
                else:
                    page.wait_for_timeout(15)
            page.wait_for_timeout(300)
            if page.locator("#round-modal").count():
                _click(page, "#btn-close-modal")
            # what was stolen is drawn: my played thieves face up in my row, the badge counts down
            mine_left = game.my_thieves()
            assert panel.locator(".th-seats li[data-seat='0'] .th-played .thief-card").count() == 4 - mine_left
            badge = page.locator(".score-track li[data-seat='0'] .seat-badge[data-module='thieves']").inner_text()
            assert badge.strip().startswith(str(mine_left))
            log = page.locator(".log-list").inner_text()
            assert re.search(r"Ada's (blue|green|orange|yellow) thief steals \d+ \w+ from the display", log), log[-800:]
            assert re.search(r"Ada plays an? (blue|green|orange|yellow) thief \(\w+\)", log)
            assert not RAW_NOTATION.search(log), "the log shows thieves notation"
            panel.screenshot(path=str(ARTIFACTS / "thieves-panel.png"))
            page.screenshot(path=str(ARTIFACTS / "thieves-played.png"), full_page=True)
            browser.close()
    finally:
        server.stop()
    assert game is not None
    print("seen:", game.seen)
    assert game.seen.get("passed an offer") == 1, game.seen
    assert game.seen.get("stolen", 0) >= 3, game.seen
    assert all(game.seen.get(f"stolen by {how}", 0) for how in ("click", "keyboard", "button")), game.seen
    assert problems == []
