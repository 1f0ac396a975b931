"""All 26 modules at once at the browser table (issue 26), at 1280 x 800: the lobby lists every
module with its one-line summary and lets all 26 be ticked; a table with all of them, a few
turns into the game (played through the API), opens for the first seat, which makes its move
by clicks; the page has no layout problem: nothing hidden behind a sideways scroll, every
module's panel inside the window and apart from the others, and no console error. The panels
are usable at a glance: each folded to its title and a one-line summary except those offering
the viewer a move (open, first, in sight), the pane under 2,200 px (it was about 7,400), and a
panel opened by a click stays open across redraws. The pictures are
docs/images/table-all-modules.png and, the panels' pane unrolled,
docs/images/table-all-modules-panels.png (with ALHAMBRA_DOC_IMAGES=1)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb
from alhambra.hooks import available_modules

pytestmark = tb.needs_chromium

WIDTH, HEIGHT = 1280, 800
ACTIONS = 60
"""Random legal actions played through the API before the browser joins."""

_BOXES = """() => [...document.querySelectorAll('.module-panel')]
    .filter((e) => e.offsetParent !== null)
    .map((e) => { const r = e.getBoundingClientRect();
                  return [e.dataset.module, r.left, r.top, r.right, r.bottom]; })"""
_NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def _overlap(a: list[Any], b: list[Any]) -> bool:
    """Two boxes (id, left, top, right, bottom) share more than a pixel of area."""
    return min(a[3], b[3]) - max(a[1], b[1]) > 1 and min(a[4], b[4]) - max(a[2], b[2]) > 1


def _check_layout(page: Any) -> int:
    """No sideways scroll; every visible module panel within the window's width and apart from
    the others. Returns how many panels are shown."""
    assert page.evaluate(_NO_SIDEWAYS), "the table scrolls sideways"
    boxes = page.evaluate(_BOXES)
    for box in boxes:
        assert box[1] >= 0 and box[3] <= WIDTH + 0.5, f"the {box[0]} panel leaves the window: {box}"
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not _overlap(a, b), f"the {a[0]} and {b[0]} panels overlap"
    return len(boxes)


_PANELS = """() => { const pane = document.querySelector('.col-right-panels'); const box = pane.getBoundingClientRect();
    return { height: pane.scrollHeight, top: box.top, bottom: box.bottom,
             panels: [...pane.querySelectorAll('.module-panel')].map((e) => { const r = e.getBoundingClientRect();
               return { id: e.dataset.module, open: e.open, acting: e.classList.contains('acting'), top: r.top, bottom: r.bottom,
                        line: e.querySelector('.module-summary-line').textContent }; }) }; }"""
_UNROLL = """() => { const s = new CSSStyleSheet();
    s.replaceSync(`.col-right-panels, .table-grid > section, .table-grid, body[data-page="table"] #app
                   { max-height: none !important; height: auto !important; overflow: visible !important; }`);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }"""
PANE_HEIGHT = 2200
"""The pane of the hand and the module panels, in px: with all 26 folded to a line each it is
about a quarter of the ~7,400 px the open panels took."""


def _check_panels_at_a_glance(page: Any) -> None:
    """With all 26 modules the panels are folded to their title and a one-line summary, except
    those offering the viewer a move (open, first, inside the pane without scrolling); the pane
    stays short; a click on a folded panel's title opens it and it stays open across a redraw."""
    got = page.evaluate(_PANELS)
    panels = got["panels"]
    assert len(panels) >= 20, len(panels)
    assert got["height"] < PANE_HEIGHT, f"the panels' pane is {got['height']} px tall"
    for p in panels:
        assert p["open"] == p["acting"], f"the {p['id']} panel is {'open' if p['open'] else 'folded'}"
        assert p["line"].strip() and "\n" not in p["line"] and "null" not in p["line"] and "undefined" not in p["line"], p
    acting = [p for p in panels if p["acting"]]
    assert panels[: len(acting)] == acting, "the panels offering a move come first"
    if acting:
        first = acting[0]
        assert first["top"] >= got["top"] - 1 and first["top"] < got["bottom"], f"the {first['id']} panel is out of sight: {first} in {got}"
    folded = next(p["id"] for p in panels if not p["open"])
    page.locator(f".module-panel[data-module='{folded}'] > summary").click()
    assert page.locator(f".module-panel[data-module='{folded}']").get_attribute("open") is not None
    panel = f".module-panel[data-module='{folded}']"
    page.evaluate(f"() => {{ document.querySelector(\"{panel}\").dataset.old = '1'; }}")
    page.keyboard.press("Escape")  # the table redraws (a new panel element)
    reopened = page.locator(f"{panel}[open]:not([data-old])")
    tb.wait_for(page, lambda: reopened.count() == 1, "the panel to stay open", failure="all-modules-failure")
    page.locator(f".module-panel[data-module='{folded}'] > summary").click()  # folded again for the picture
    page.evaluate("() => document.activeElement && document.activeElement.blur()")


def test_a_table_with_all_26_modules_plays_without_a_layout_problem(tmp_path: Path) -> None:
    modules = available_modules()
    assert len(modules) == 26
    problems: list[str] = []
    with tb.served_page(tmp_path / "db.sqlite3", problems, seed=7, viewport=(WIDTH, HEIGHT)) as (server, page):
        page.goto(server.url + "/")
        page.wait_for_selector(".module[data-module='watchtowers']")
        assert sorted(page.eval_on_selector_all(".module", "(ms) => ms.map((m) => m.dataset.module)")) == sorted(modules)
        for mid in modules:
            line = page.locator(f".module[data-module='{mid}'] .module-summary").inner_text().strip()
            assert line and "\n" not in line, f"{mid}: no one-line summary in the lobby"
            page.locator(f".module[data-module='{mid}'] .module-pick input[type='checkbox']").check()
        assert page.locator(".module-unavailable:not(:empty)").count() == 0  # every combination is allowed
        assert page.evaluate(_NO_SIDEWAYS), "the lobby scrolls sideways"

        tid, tokens = tb.joined_table(server.http, ["Ann", "Ben"], list(modules))
        rng = random.Random(7)
        seen = [0]

        def turn_of_ann(seat: int, m: dict[str, Any]) -> bool:
            seen[0] += 1
            legal = m["view"]["legal_actions"]
            return seen[0] > ACTIONS and seat == 0 and any(a.startswith("take ") for a in legal)

        def buy_first(seat: int, legal: list[str]) -> list[str]:
            return [a for a in legal if a.startswith(("buy ", "place "))]

        msg = tb.play_until(server.http, tid, tokens, turn_of_ann, rng, buy_first)
        page.goto(f"{server.url}/table/{tid}#seat={tokens[0]}")
        tb.wait_my_turn(page, msg["version"])
        before = tb.version(page)
        tb.click_core_move(page, rng, end=0.0, buy=0.0)  # takes a face-up card by clicks
        tb.wait_change(page, before)
        tb.wait_for(page, lambda: not page.locator(".toast").count(), "the notice to fade", failure="all-modules-failure")
        shown = _check_layout(page)
        assert shown >= 10, f"only {shown} module panels are shown"
        _check_panels_at_a_glance(page)
        page.screenshot(path=str(tb.doc_image("table-all-modules.png")))
        # the whole pane of the hand and the 25 panels, unrolled: every module's line at a glance
        page.evaluate(_UNROLL)
        page.locator(".col-right-panels").screenshot(path=str(tb.doc_image("table-all-modules-panels.png")))
        page.goto(server.url + "/")
        page.wait_for_selector(".module[data-module='watchtowers']")
        page.screenshot(path=str(tb.ARTIFACTS / "lobby-all-modules.png"))
    assert not problems, problems
