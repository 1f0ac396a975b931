"""Granada at the browser table (Debian's Chromium): a spectator watches a table of bots play
Granada; the market shows the nine kinds' art with the coloured mark of each tile's back, the
cities show moats, labels are sentences, and the console stays free of errors."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from alhambra import testing_browser as tb
from alhambra.rulesets import ruleset

from .server_helpers import ServerProcess

pytestmark = tb.needs_chromium


def test_a_spectator_sees_granada_drawn(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    server = ServerProcess(tmp_path / "granada.sqlite3", bot_delay=0.05, seed=5)
    problems: list[str] = []
    kinds = set(ruleset("granada").kinds)
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
            page.wait_for_selector(".market-square .tile")

            def drawn_kinds(selector: str) -> set[str]:
                classes: list[str] = page.eval_on_selector_all(selector, "els => els.map(e => e.getAttribute('class'))")
                return {c.split("kind-")[1].split()[0] for c in classes if "kind-" in c}

            assert drawn_kinds(".market-square .tile") <= kinds and drawn_kinds(".market-square .tile")
            labels: list[str] = page.eval_on_selector_all(
                ".market-square svg[aria-label]", "els => els.map(e => e.getAttribute('aria-label'))"
            )
            assert labels and all("the other side is" in t for t in labels), labels
            assert not any(t[:1].isupper() and t.split()[0][1:2].isdigit() for t in labels), "no raw tile codes"
            marker = page.locator("#market-marker").inner_text()
            assert re.search(r"black marker shows the (even|odd) side", marker), marker
            # the game goes on by itself: cities grow, with moats drawn as water
            page.wait_for_function("document.querySelectorAll('.city-svg .moat').length > 0", timeout=60_000)
            seen = drawn_kinds(".city-svg .tile")
            assert seen <= kinds | {"fountain"} and len(seen - {"fountain"}) >= 3
            page.screenshot(path=str(tmp_path / "granada.png"), full_page=True)
            browser.close()
    finally:
        server.stop()
    assert not problems, problems


TURN_NOTATION = re.compile(r"\bturn [A-Z]\d+[nesw]* [bgoy]\d")
"""Granada's turn-over notation, which must never be a button's text."""


def test_a_person_plays_a_whole_granada_game_turning_tiles_over(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from .test_server_browser import _my_move

    server = ServerProcess(tmp_path / "granada-person.sqlite3", bot_delay=0.0, seed=7)
    problems: list[str] = []
    rng = random.Random(7)
    turned = 0
    moves = 0
    try:
        with sync_api.sync_playwright() as pw:
            browser = tb.launch(pw)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            tb.watch(page, problems)
            # the lobby: choose Granada (its assumptions are shown), me and a greedy bot
            page.goto(server.url + "/")
            page.locator("#game-choice").select_option("granada")
            note = page.locator(".game-note")
            note.locator("summary").click()
            assert "ASSUMPTION (tile pairing)" in note.inner_text()
            page.locator(".seat-row").nth(0).locator(".seat-name").fill("Ada")
            page.locator(".seat-row").nth(1).locator(".seat-bot").select_option("greedy")
            tb.click(page, "#btn-create")
            tb.click(page, ".play-link")
            page.wait_for_selector("#btn-join")
            tb.click(page, "#btn-join")
            tid = page.url.split("/table/")[1].split("#")[0]
            deadline = time.monotonic() + 300
            while tb.phase(page) != "over":
                assert time.monotonic() < deadline, "the game took too long"
                if page.locator("#round-modal").count():
                    assert page.locator("#round-modal .round-table thead th").count() >= 9 + 4  # the nine kinds
                    tb.click(page, "#btn-close-modal")
                    continue
                if tb.phase(page) != "my-turn":
                    page.wait_for_timeout(15)
                    continue
                raw = [t for t in page.locator("button").all_inner_texts() if TURN_NOTATION.search(t)]
                assert not raw, f"buttons show raw notation: {raw}"
                turns = page.locator(".other-move", has_text="Turn ")
                if tb.pending(page) == "PlaceTiles" and turns.count() and rng.random() < 0.6:
                    version = tb.version(page)
                    assert re.match(r"Turn [A-Z][a-z ]+ \d+ over to [A-Z][a-z ]+ \d+ and build it, paying ", turns.first.inner_text())
                    turns.nth(rng.randrange(turns.count())).click(timeout=5000)
                    tb.wait_change(page, version)
                    turned += 1
                    continue
                _my_move(page, rng)
                moves += 1
            page.wait_for_selector("#summary-modal")
            page.screenshot(path=str(tmp_path / "granada-end.png"))
            browser.close()
        record = server.http.get(f"/api/tables/{tid}/record").json()
        assert record["config"]["game"] == "granada"
        assert sum(1 for a in record["actions"] if a.startswith("turn ")) >= turned > 0
    finally:
        server.stop()
    assert moves > 20
    assert problems == []
