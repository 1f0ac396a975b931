"""Granada at the browser table (Debian's Chromium): a spectator watches a table of bots play
Granada; the market shows the nine kinds' art with the coloured mark of each tile's back, the
cities show moats, labels are sentences, and the console stays free of errors."""

from __future__ import annotations

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
            # the game goes on by itself: cities grow, with moats drawn as water
            page.wait_for_function("document.querySelectorAll('.city-svg .moat').length > 0", timeout=60_000)
            seen = drawn_kinds(".city-svg .tile")
            assert seen <= kinds | {"fountain"} and len(seen - {"fountain"}) >= 3
            page.screenshot(path=str(tmp_path / "granada.png"), full_page=True)
            browser.close()
    finally:
        server.stop()
    assert not problems, problems
