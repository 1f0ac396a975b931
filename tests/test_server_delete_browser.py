"""The lobby's "Delete this table" button (Chromium through Playwright): the creator deletes a
table that has not started, a player who has its invitation link open is told, and the console
stays clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from alhambra import testing_browser as tb

from .server_helpers import ServerProcess

pytestmark = tb.needs_chromium


def test_the_creator_deletes_a_new_table_from_the_lobby(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    problems: list[str] = []
    with ServerProcess(tmp_path / "delete.sqlite3") as server, sync_api.sync_playwright() as pw:
        browser = tb.launch(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            tb.watch(page, problems)
            page.goto(server.url + "/")
            page.locator(".seat-row").nth(1).locator(".seat-bot").select_option("random")
            tb.click(page, "#btn-create")
            page.wait_for_selector(".play-link")
            link = page.locator(".play-link").first.get_attribute("href")
            assert link is not None
            table_id = link.split("/table/")[1].split("#")[0]
            assert server.http.get(f"/api/tables/{table_id}").json()["status"] == "waiting"
            invited = browser.new_page(viewport={"width": 1280, "height": 800})  # a player has the link open
            tb.watch(invited, problems, "invited: ")
            invited.goto(link)
            invited.wait_for_selector("#btn-join")
            button = page.get_by_role("button", name="Delete this table")
            assert button.is_visible()
            button.click()
            page.get_by_text("The table was deleted").wait_for(timeout=10_000)
            assert server.http.get(f"/api/tables/{table_id}").status_code == 404
            assert page.locator(".play-link").count() == 0
            invited.get_by_text("this table was deleted").wait_for(timeout=10_000)  # told at once, no reconnecting
            assert invited.locator("#btn-join").count() == 0
        finally:
            browser.close()
    assert problems == []
