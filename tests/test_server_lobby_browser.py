"""The lobby's "Take a seat" at a public table (Chromium through Playwright): a small form in
place of the browser's name prompt, Cancel gives the button back, a refused join is told beside
the form, and a join with a name lands on the table in the claimed seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from alhambra import testing_browser as tb

from .server_helpers import ServerProcess

pytestmark = tb.needs_chromium


def test_a_stranger_takes_an_open_seat_from_the_lobby(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    problems: list[str] = []
    with ServerProcess(tmp_path / "lobby.sqlite3") as server, sync_api.sync_playwright() as pw:
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "open": True}]
        r = server.http.post("/api/tables", json={"seats": seats, "public": True, "name": "Open game"})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        browser = tb.launch(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            other = browser.new_page(viewport={"width": 1280, "height": 800})  # a second stranger, a moment late
            for p, who in ((page, ""), (other, "other: ")):
                tb.watch(p, problems, who)
                p.on("dialog", lambda d: problems.append(f"a browser dialog was opened: {d.message}"))
                p.goto(server.url + "/")
                p.get_by_role("button", name="Take a seat").wait_for()
            page.get_by_role("button", name="Take a seat").click()
            assert page.evaluate("document.activeElement.classList.contains('claim-name')")
            page.get_by_role("button", name="Cancel").click()
            assert page.locator(".claim-form").count() == 0
            assert page.evaluate("document.activeElement.classList.contains('take-seat')")
            page.get_by_role("button", name="Take a seat").click()
            page.get_by_role("textbox", name="Your name").fill("Zoe")
            page.get_by_role("button", name="Join", exact=True).click()
            page.wait_for_url(f"**/table/{tid}#seat=*")
            info = server.http.get(f"/api/tables/{tid}").json()
            assert [s["name"] for s in info["seats"]] == ["Ann", "Zoe"] and info["seats"][1]["joined"]
            # the other stranger's lobby still offers the seat: the refusal is told beside the form
            other.get_by_role("button", name="Take a seat").click()
            other.get_by_role("button", name="Join", exact=True).click()
            error = other.locator(".claim-error")
            error.filter(has_text="seat").wait_for(timeout=10_000)
            assert other.url == server.url + "/"
            assert "no seat" in error.inner_text().lower() or "taken" in error.inner_text().lower(), error.inner_text()
            # Chromium logs every refused request itself; that one is expected
            problems[:] = [p for p in problems if not p.startswith("other: console error: Failed to load resource") or "409" not in p]
        finally:
            browser.close()
    assert problems == []
