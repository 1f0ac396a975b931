"""The replay viewer and the hint button in Debian's Chromium (Playwright).

A finished game is opened from its end screen ("Watch the replay"), stepped through with the
buttons and the keys (the boards change, the move list says what happened in sentences), then
replayed from a record file (and a bad file is refused in words), and looked at on a phone. At a
table that allows hints, the hint button highlights the suggested move on the table with a
sentence. With ``ALHAMBRA_DOC_IMAGES=1`` the screenshots of docs/server.md are saved to
docs/images/ (replay-desktop.png, replay-phone.png, hint.png).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from alhambra import testing_browser as tb

from .replay_helpers import finished_game
from .server_helpers import ServerProcess

pytestmark = tb.needs_chromium

DOC_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
RAW = re.compile(r"\b[PSACGT]\d+[nesw]*\b|\b[bgoy]\d+\b|\b-?\d+,-?\d+\b")
"""Tile codes, card codes and coordinates: notation, never shown to people."""


def doc_image(page: Any, name: str) -> None:
    """Save a screenshot for the docs when ALHAMBRA_DOC_IMAGES=1."""
    if os.environ.get("ALHAMBRA_DOC_IMAGES") == "1":
        DOC_IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOC_IMAGES / name))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("replay") / "db.sqlite3"
    with ServerProcess(db, bot_delay=0.0, seed=16, extra_args=("--hint-seconds", "0.5")) as srv:
        yield srv


@pytest.fixture(scope="module")
def finished(server: ServerProcess) -> str:
    """A finished game of three players with names."""
    return finished_game(server.http, ["Ann", "Ben", "Cy"], seed=16)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with tb.chromium() as b:
        yield b


def step(page: Any) -> int:
    """The step the viewer shows (body[data-step])."""
    return int(page.get_attribute("body", "data-step"))


def until(page: Any, script: str, timeout: float = 20.0) -> None:
    """Poll the JavaScript expression ``script`` until it is true (the page's
    Content-Security-Policy forbids the eval that ``wait_for_function`` polls with)."""
    waited = 0.0
    while not page.evaluate(script):
        if waited > timeout:
            raise AssertionError(f"not reached in {timeout} s: {script}")
        page.wait_for_timeout(50)
        waited += 0.05


def tiles_on_boards(page: Any) -> int:
    return int(page.locator("#replay-stage .r-city svg [data-tile]").count())


def test_the_replay_opens_from_the_end_screen_and_steps_with_buttons_and_keys(server: ServerProcess, finished: str, browser: Any) -> None:
    total = len(server.http.get(f"/api/tables/{finished}/record").json()["actions"])
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    problems: list[str] = []
    tb.watch(page, problems)
    page.goto(f"{server.url}/table/{finished}")
    page.wait_for_selector("#summary-modal #btn-summary-replay")
    page.click("#btn-summary-replay")
    page.wait_for_url(f"**/replay/{finished}")
    page.wait_for_selector("#replay-stage .r-city")
    assert step(page) == 0
    start_tiles = tiles_on_boards(page)
    assert start_tiles == 3  # three fountains
    # each board's header is one line, however long the name (a bot's "Beginner bot 2 · 0 points · wall 0")
    for head in page.locator(".r-city h3 .r-head").all():
        assert head.bounding_box()["height"] < 34, head.inner_text()
    assert page.locator("#step-no").inner_text() == f"Step 0 of {total}"
    page.click("#btn-forward")
    assert step(page) == 1
    first = page.locator("#replay-now").inner_text()
    assert first.startswith("Turn 1 · Ann ") or first.startswith("Turn 1 · Ben ") or first.startswith("Turn 1 · Cy "), first
    page.click("#btn-back")
    assert step(page) == 0
    page.locator("body").press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step(page) == 2
    page.keyboard.press("End")
    assert step(page) == total
    assert tiles_on_boards(page) > start_tiles, "the boards are built up by the end"
    assert re.search(r"Game over: .+ wins? with \d+ points", page.locator("#replay-now").inner_text())
    page.keyboard.press("ArrowLeft")
    assert step(page) == total - 1
    page.keyboard.press("Home")
    assert step(page) == 0
    page.click("#btn-last")
    assert step(page) == total
    page.click("#btn-first")
    assert step(page) == 0
    # space plays until paused again
    page.keyboard.press(" ")
    until(page, "Number(document.body.dataset.step) >= 2")
    page.keyboard.press(" ")
    paused = step(page)
    page.wait_for_timeout(1200)
    assert step(page) == paused
    # a move in the list jumps there; it is marked as the current one
    page.locator("#move-list button[data-step='5']").click()
    assert step(page) == 5
    assert page.locator("#move-list button[aria-current='step']").get_attribute("data-step") == "5"
    moves = page.locator("#move-list").inner_text()
    assert not RAW.search(moves), RAW.search(moves)
    assert page.locator("#move-list code.notation").count() == 0  # only with the table's "Show notation" setting
    assert "Ann" in moves and " buys " in moves
    page.keyboard.press("End")
    doc_image(page, "replay-desktop.png")
    assert not problems, problems
    page.close()


def test_a_record_file_replays_and_a_bad_file_is_refused_in_words(
    server: ServerProcess, finished: str, browser: Any, tmp_path: Path
) -> None:
    record = server.http.get(f"/api/tables/{finished}/record").json()
    good = tmp_path / "friday.json"
    good.write_text(json.dumps(record))
    bad = tmp_path / "notes.json"
    bad.write_text("my notes about the game")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    problems: list[str] = []
    tb.watch(page, problems)
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(bad))
    until(page, "document.getElementById('replay-error').textContent.includes('not JSON')")
    page.set_input_files("#record-file", str(good))
    page.wait_for_selector("#replay-stage .r-city")
    assert "Replay: friday" in page.locator(".topbar").inner_text()
    assert "Player 1" in page.locator("#r-scores").inner_text()  # a record file holds no names
    before = page.locator("#replay-stage .r-left").inner_html()
    page.click("#btn-last")
    assert step(page) == len(record["actions"])
    assert page.locator("#replay-stage .r-left").inner_html() != before
    # the console shows the 422 of the bad file as a failed request; nothing else
    assert all("422" in p for p in problems), problems
    page.close()


def test_the_replay_on_a_phone(server: ServerProcess, finished: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    problems: list[str] = []
    tb.watch(page, problems)
    page.goto(f"{server.url}/replay/{finished}")
    page.wait_for_selector("#replay-stage .r-city")
    for sel in ("#btn-first", "#btn-back", "#btn-play", "#btn-forward", "#btn-last"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, sel
    for _ in range(30):
        page.locator("#btn-forward").tap()
    assert step(page) == 30
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide"
    doc_image(page, "replay-phone.png")
    # with the table's "Show notation" setting, each move shows the record's notation too
    page.evaluate("localStorage.setItem('alhambra.notation', '1')")
    page.reload()
    page.wait_for_selector("#replay-stage .r-city")
    assert page.locator("#move-list code.notation").count() == page.locator("#move-list button").count() - 1
    page.evaluate("localStorage.removeItem('alhambra.notation')")
    assert not problems, problems
    page.close()


def test_the_hint_button_highlights_the_suggested_move(server: ServerProcess, browser: Any) -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random", "name": "Ben"}]
    r = server.http.post("/api/tables", json={"seats": seats, "hints": True})
    assert r.status_code == 201, r.text
    tid, token = r.json()["table"]["id"], r.json()["seats"][0]["token"]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    problems: list[str] = []
    tb.watch(page, problems)
    page.goto(f"{server.url}/table/{tid}#seat={token}")
    page.click("#btn-join")
    until(page, "document.body.dataset.phase === 'my-turn'")
    page.click("#btn-hint")
    until(page, "document.body.dataset.hint === 'shown'", timeout=40)
    text = page.locator("#hint-text").inner_text()
    assert text.startswith("Hint: You "), text
    assert not RAW.search(text), text
    assert page.locator(".hint-target").count() >= 1
    doc_image(page, "hint.png")
    # a table without hints has no hint button
    r = server.http.post("/api/tables", json={"seats": seats})
    other, token2 = r.json()["table"]["id"], r.json()["seats"][0]["token"]
    page.goto(f"{server.url}/table/{other}#seat={token2}")
    page.click("#btn-join")
    until(page, "document.body.dataset.phase === 'my-turn'")
    assert page.locator("#btn-hint").count() == 0
    assert not problems, problems
    page.close()


def test_a_replay_with_modules_draws_their_parts(server: ServerProcess, browser: Any) -> None:
    """The plug-ins draw in the replay too: the vizier badges, the exchange cards' art (where a
    hand or the display holds one), and no card is shown by its code."""
    tid = finished_game(server.http, ["Ann", "Ben"], ("vizier", "currency_exchange"), seed=3)
    rep = server.http.get(f"/api/tables/{tid}/replay").json()
    exchange = {c for c, f in rep["catalogue"]["cards"].items() if f["module"] == "currency_exchange"}
    holding = [i for i, f in enumerate(rep["frames"]) if exchange & set(f["display"]) or any(exchange & set(s["hand"]) for s in f["seats"])]
    assert holding, "no exchange card was ever face up or held"
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    problems: list[str] = []
    tb.watch(page, problems)
    page.goto(f"{server.url}/replay/{tid}")
    page.wait_for_selector("#replay-stage .r-city")
    assert page.locator(".r-badges .seat-badge[data-module='vizier']").count() == 2
    page.locator(f"#move-list button[data-step='{holding[0]}']").click()
    assert step(page) == holding[0]
    assert page.locator("#replay-stage .exchange-card").count() >= 1
    stage = page.locator("#replay-stage").inner_text() + page.locator("#move-list").inner_text()
    assert not re.search(r"\bx[bgoy]{2}\b", stage)
    assert not problems, problems
    page.close()


def test_the_lobby_lists_finished_games_with_their_replay(server: ServerProcess, browser: Any) -> None:
    tid = finished_game(server.http, ["Dee", "Eve"], seed=5, public=True)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    problems: list[str] = []
    tb.watch(page, problems)
    page.goto(server.url)
    link = page.locator(f"#finished-tables a.replay-link[href='/replay/{tid}']")
    link.wait_for()
    assert link.inner_text() == "Watch the replay"
    link.click()
    page.wait_for_url(f"**/replay/{tid}")
    page.wait_for_selector("#replay-stage .r-city")
    assert "Dee" in page.locator("#r-scores").inner_text()
    page.goto(server.url)
    page.click("#replay-file-link")
    page.wait_for_selector("#record-file")
    assert not problems, problems
    page.close()
