"""A person plays a complete 2-player game against a bot in Debian's Chromium, through real
clicks on the browser table (Playwright), with screenshots at the start, at a scoring round and
at the end (in artifacts/screenshots/). The browser console must stay free of errors."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from .server_helpers import ServerProcess

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("ALHAMBRA_ARTIFACTS", Path(__file__).resolve().parent.parent / "artifacts")) / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium (scripts/test installs it with apt-get)"
)


def _phase(page: Any) -> str:
    return str(page.get_attribute("body", "data-phase"))


def _version(page: Any) -> str:
    return str(page.get_attribute("body", "data-version"))


def _wait_change(page: Any, version: str, timeout: float = 15.0, confirm: bool = True) -> None:
    """Wait until the table moved past ``version`` (or, with ``confirm``, until the table asks to
    confirm the end of the turn)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if _version(page) != version or (confirm and page.locator("#btn-confirm").count()):
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"the table did not react (still version {version})")


def _click(page: Any, selector: str) -> None:
    try:
        page.locator(selector).first.click(timeout=5000)
    except Exception:
        _dump(page, f"click {selector}")
        raise


def _dump(page: Any, why: str) -> None:
    page.screenshot(path=str(ARTIFACTS / "failure.png"))
    print("FAILURE", why, "phase", _phase(page), "version", _version(page))
    print(page.locator("#action-panel").inner_text())


def _my_move(page: Any, rng: random.Random) -> None:
    """One step of the person's turn, by clicking like a person would."""
    version = _version(page)
    if page.locator(".modal-back").count():
        return  # a scoring round popped up: the main loop looks at it first
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
    if page.locator("#btn-end").count() and rng.random() < 0.5:
        _click(page, "#btn-end")
        _wait_change(page, version)
        return
    affordable = page.locator(".market-square.affordable")
    if affordable.count() and rng.random() < 0.75:
        affordable.nth(rng.randrange(affordable.count())).click(timeout=5000)
        exact = page.locator(".pay-option.exact")
        (exact if exact.count() else page.locator(".pay-option")).first.click(timeout=5000)
        _click(page, "#btn-buy")
        _wait_change(page, version)
        return
    cards = page.locator(".display-card.takeable")
    if cards.count():
        cards.nth(rng.randrange(cards.count())).click(timeout=5000)
        if page.locator("#btn-take").count():
            _click(page, "#btn-take")
            _wait_change(page, version)
            return
        _click(page, "#btn-clear")
        return
    if page.locator("#btn-end").count():
        _click(page, "#btn-end")
        _wait_change(page, version)
        return
    if page.locator(".removable").count():  # nothing else to do: redesign
        _click(page, ".removable")
        _click(page, "#btn-remove")
        _wait_change(page, version)
        return
    _dump(page, "no move")
    raise AssertionError("the table offers no move although it is my turn")


def test_a_person_plays_a_whole_game_against_a_bot(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path / "browser.sqlite3", bot_delay=0.0)
    problems: list[str] = []
    rng = random.Random(4)
    shots: dict[str, Path] = {}
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            # the lobby: create a table with me and a bot
            page.goto(server.url + "/")
            page.locator(".seat-row").nth(0).locator(".seat-name").fill("Ada <b>&</b>")
            page.locator(".seat-row").nth(1).locator(".seat-bot").select_option("random")
            _click(page, "#btn-create")
            _click(page, ".play-link")
            page.wait_for_selector("#btn-join")
            _click(page, "#btn-join")
            page.wait_for_selector("body[data-phase='my-turn'], body[data-phase='their-turn']")
            assert page.locator(".badge").first.inner_text() == "You: Ada <b>&</b>"  # names are text, never markup
            page.wait_for_selector("body[data-phase='my-turn']")
            shots["start"] = ARTIFACTS / "table-start.png"
            page.screenshot(path=str(shots["start"]), full_page=True)
            moves = 0
            deadline = time.monotonic() + 200
            while _phase(page) != "over":
                assert time.monotonic() < deadline, "the game took too long"
                if page.locator("#round-modal").count():
                    if "round" not in shots:
                        shots["round"] = ARTIFACTS / "table-scoring-round.png"
                        page.screenshot(path=str(shots["round"]))
                        assert page.locator("#round-modal .round-table tbody tr").count() == 3  # two seats and Dirk
                    _click(page, "#btn-close-modal")
                    continue
                if _phase(page) == "my-turn":
                    _my_move(page, rng)
                    moves += 1
                else:
                    page.wait_for_timeout(15)
            page.wait_for_selector("#summary-modal")
            assert page.locator("#summary-modal .chart path").count() == 2  # one score line per seat
            shots["end"] = ARTIFACTS / "table-end.png"
            page.screenshot(path=str(shots["end"]))
            _click(page, "#btn-close-modal")
            page.screenshot(path=str(ARTIFACTS / "table-end-board.png"), full_page=True)
            # the log keeps the whole game, however long: three scoring rounds, the end, and turn 1
            assert page.locator(".log-list li.highlight").count() == 4
            assert page.locator(".log-list li.turn-head").first.inner_text().startswith("Turn 1 ")
            browser.close()
        final = server.http.get("/api/tables?which=finished").json()
        assert len(final) == 0  # private tables are never listed
    finally:
        server.stop()
    assert moves > 20
    assert set(shots) == {"start", "round", "end"}
    for p in shots.values():
        assert p.stat().st_size > 10_000
    assert problems == []
