"""Granada in Debian's Chromium (Playwright), played as people do, like the Alhambra games of
tests/test_server_browser_keyboard.py (with the same players from
:mod:`alhambra.testing_browser`):

* a complete 2-player game against a bot by keyboard alone: Granada chosen in the lobby, the
  join dialog, every move (tiles turned over by keyboard too), the scoring dialogs, the end
  screen with round 3's nine kinds and the longest moat, and the replay viewer;
* a complete game by touch at a 390 x 844 phone viewport, through the end screen: the top bar
  stays one line whatever it says (the status shrinks, the settings are a gear);
* the tiles' walls and moats stay inside a lone tile (checked pixel by pixel).

Screenshots go to artifacts/screenshots (docs/images with ``ALHAMBRA_DOC_IMAGES=1``).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

pytestmark = tb.needs_chromium

RAW = re.compile(r"\b[ABLOHMPSR]\d{1,2}[nesw]{0,4}\b|\b[bgoy]\d{1,2}\b|\bturn [A-Z]\d|-?\d+,-?\d+")
"""Granada's notation, which a player never reads: tile and card codes, turning, coordinates."""

ONE_LINE_JS = """() => {
  const parts = [...document.querySelectorAll(".topbar > *, .top-info > *")].filter((e) => e.getClientRects().length)
    .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0);
  const bar = document.querySelector(".topbar").getBoundingClientRect();
  return { rows: Math.max(...parts.map((r) => r.top)) < Math.min(...parts.map((r) => r.bottom)),
           height: bar.height, right: Math.max(...parts.map((r) => r.right)), width: window.innerWidth };
}"""
"""The top bar's parts all share one line (each overlaps every other vertically) and stay in the window."""


def _one_line_top_bar(page: Any) -> None:
    got = page.evaluate(ONE_LINE_JS)
    assert got["rows"] and got["height"] < 50, f"the top bar wraps: {got} ({page.locator('.topbar').inner_text()!r})"
    assert got["right"] <= got["width"], got
    status = page.locator("#status-line")
    assert status.get_attribute("title") == status.inner_text()  # the whole status, also when cut short


def test_a_whole_granada_game_by_keyboard(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "granada-kb.sqlite3", problems, seed=21) as (server, page):
        tb.create_by_keyboard(page, server.url, 2, game="Granada")
        assert page.locator(".brand > span").inner_text() == "Granada"
        player = tb.KeyboardPlayer(page, random.Random(21), RAW, turn_over=0.5)
        rounds = player.play(300)
        assert rounds == 2  # rounds 1 and 2 pop up; round 3 is on the end screen
        tb.check_end_screen(page, 2, True, "granada-keyboard-end.png", RAW, kinds=9, wall="moat")
        assert page.locator(".city-svg .moat").count() > 0
        tb.replay_by_keyboard(page, 3)  # two players and Dirk
    print("seen:", dict(player.seen), "presses:", sorted(player.presses)[-5:])
    assert player.moves > 20
    assert player.seen["turned a tile over"] >= 1
    assert player.seen["cleared a placement"] == 1
    assert max(player.presses) <= 15, sorted(player.presses)[-5:]
    assert problems == []


def test_a_whole_granada_game_by_touch_on_a_phone(tmp_path: Path) -> None:
    problems: list[str] = []
    db = tmp_path / "granada-phone.sqlite3"
    with tb.served_page(db, problems, seed=22, bot_delay=0.3, viewport=(390, 844), phone=True) as (server, page):
        tb.create_by_touch(page, server.url, "granada", "Alexandra")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        _one_line_top_bar(page)
        page.screenshot(path=str(tb.doc_image("granada-phone.png")))
        # the longest status: the bot is playing
        page.locator(".display-card.takeable").first.tap()
        page.locator("#btn-take").tap()
        tb.wait_for(page, lambda: tb.phase(page) == "their-turn", "the bot's turn", failure="phone-failure")
        assert "is playing" in page.locator("#status-line").inner_text()
        _one_line_top_bar(page)
        player = tb.TouchPlayer(page, random.Random(22))
        rounds = player.play(300, lambda _: _one_line_top_bar(page))
        page.wait_for_selector("#summary-modal .round-table[data-round='3']")
        summary = page.locator("#summary-modal")
        assert page.evaluate(tb.NO_SIDEWAYS, "#summary-modal")
        assert summary.locator(".round-table tbody tr[data-kind]").count() == 9
        assert "Longest moat" in summary.locator(".round-table").inner_text()
        assert not RAW.search(summary.inner_text())
        page.screenshot(path=str(tb.doc_image("granada-phone-end.png")))
        page.locator("#btn-close-modal").tap()
        _one_line_top_bar(page)
    assert rounds == 2
    assert player.moves > 20
    assert problems == []


WALL_PIXELS_JS = """async ([code, catalogue]) => {
  const art = await import("/static/art.js");
  const n = 400;  // 4 pixels a unit of the 100-unit tile
  const svg = art.tileSVG(code, catalogue, n);
  const img = new Image();
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(svg));
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = n;
  canvas.height = n;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0, n, n);
  const data = ctx.getImageData(0, 0, n, n).data;
  let outside = 0, inside = 0;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      // the tile's outline: 2 to 98 with corners of radius 6, its stroke and a pixel around it
      const ux = ((x + 0.5) * 100) / n, uy = ((y + 0.5) * 100) / n;
      const cx = Math.min(Math.max(ux, 8), 92), cy = Math.min(Math.max(uy, 8), 92);
      const painted = data[(y * n + x) * 4 + 3] > 0;
      if (Math.hypot(ux - cx, uy - cy) > 7.25) outside += painted; else inside += painted;
    }
  }
  return { outside, inside };
}"""
"""Draws one tile on a canvas: the painted pixels outside the tile's outline and inside it."""


def test_walls_and_moats_stay_inside_a_lone_tile(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "art.sqlite3", problems) as (server, page):
        page.goto(server.url + "/")
        for code, catalogue in (("G8nesw", None), ("S4nesw", {"wall_name": "moat"}), ("P2nw", {"wall_name": "moat"})):
            got = page.evaluate(WALL_PIXELS_JS, [code, catalogue])
            assert got["inside"] > 100 * 100, got  # the tile is drawn
            assert got["outside"] == 0, f"{code}: its walls stick out of the tile ({got['outside']} pixels)"
    assert problems == []
