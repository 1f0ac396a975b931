"""The Medina in the browser: one person plays both seats of a 2-player table in Debian's
Chromium (two pages, one per seat), by clicks only, until the first scoring round: every medina
on the market that a seat can pay is bought (the market square, the table's payment picker) and
built in the Alhambra (a click on a free place); otherwise the seats take money, so that the
scoring card comes soon. Checked along the way: medinas are drawn with the plug-in's art (on
the market, waiting to be placed, in the Alhambra), the panel shows each participant's medinas
(the players and Dirk) and what each would lose now, the seat badges count the medinas built,
the scoring breakdown has a row "Medina" with the penalties of the rules (computed here from the
standing the panel showed before the round), no button shows a tile code, the log names
medinas by their names, and the console stays free of errors. Screenshots (desktop and a
390 x 844 phone) go to artifacts/screenshots/medina-*.png."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb
from alhambra.modules.medina.module import penalties

ID = "medina"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"\bM(?:[2-9]|10)[nesw]*\b")
"""A medina's tile code, which no button and no log line may show (the plug-in names them)."""
WANTED = ("bought", "placed", "scored")
PLAY_SECONDS = 50.0
NAMES = ("Ada", "Bo")

pytestmark = tb.needs_chromium

SEED = int(os.environ.get("ALHAMBRA_MEDINA_SEED", "0"))
"""The seed of the table's game (every ``secrets.randbits`` draw of the server is this number,
see :class:`ServerProcess`), so that the clicks play the same game every time: with seed 0 two
medinas lie on the market at the start, Bo (who begins) can pay either, and the first scoring
card lies 13 cards deep. Another seed plays another game; the test holds for many (set the
variable to try)."""


def _minus(text: str) -> int:
    """A number the panel writes with a true minus sign ("−3") or none ("0")."""
    return int(text.strip().replace("\u2212", "-"))


class _Player(tb.ClickPlayer):
    """Both seats, one page each: the moves are clicks like a person's; ``seen`` counts what
    was done and checked; ``standing`` is the medina standing the panel showed last."""

    module = ID
    raw = RAW
    wanted = WANTED

    def __init__(self, pages: list[Any], rng: random.Random) -> None:
        super().__init__(pages, rng)
        self.standing: list[tuple[int, int, int, int]] = []
        """Per participant of the panel: (seat, medinas built, the dearest, loss if scored now)."""
        self.rounds: list[int] = []
        """The scoring rounds whose Medina row was checked."""

    def read_panel(self, page: Any) -> list[tuple[int, int, int, int]]:
        """The panel's standing rows: (seat, built, dearest or 0, what the next round takes now)."""
        rows = []
        for row in page.locator(f"{PANEL} .md-standing tr.md-row").all():
            dearest = row.locator(".md-dearest").inner_text().strip()
            rows.append(
                (
                    int(str(row.get_attribute("data-seat"))),
                    int(row.locator(".md-count").inner_text()),
                    0 if dearest == "–" else int(dearest),
                    _minus(row.locator(".md-now").inner_text()),
                )
            )
        return rows

    def check_round(self, page: Any) -> None:
        """A round's breakdown is open: its Medina row holds the rules' penalties for the
        standing the panel showed before the move that ended the round (players, then Dirk)."""
        modal = page.locator("#round-modal")
        rnd = int(str(modal.locator("table.round-table").get_attribute("data-round")))
        if rnd in self.rounds:
            return
        head = modal.locator(f"th[data-module='{ID}']")
        assert head.inner_text() == "Medina"
        title = str(head.get_attribute("title"))
        assert title.startswith(f"Medina, scoring round {rnd}: the fewest medinas lose") and "dearer medina" in title, title
        cells = [int(t) for t in modal.locator(f"td[data-module='{ID}']").all_inner_texts()]
        counts = [c for _, c, _, _ in self.standing]
        dearest = [d for _, _, d, _ in self.standing]
        assert len(cells) == 3 == len(self.standing), (cells, self.standing)  # Ada, Bo and Dirk
        assert cells == penalties(counts, dearest, rnd), (cells, self.standing)
        assert cells == [now for _, _, _, now in self.standing]  # as the panel foretold
        assert sum(cells) < 0  # somebody always loses points
        if not self.rounds:
            self.shot(page, "scoring")
        self.rounds.append(rnd)
        self.saw("scored")

    def move(self, page: Any) -> None:
        if page.locator("#round-modal").count():
            self.check_round(page)
        else:
            self.standing = self.read_panel(page)
        super().move(page)

    def turn(self, page: Any) -> None:
        """Buy a medina when a market square with one is affordable, else take money."""
        medinas = page.locator(".market-square.affordable:has(svg.medina-tile)")
        if medinas.count():
            square = medinas.nth(self.rng.randrange(medinas.count()))
            assert re.fullmatch(r"Medina \d+", str(square.locator("svg.medina-tile").get_attribute("aria-label")).split(" (")[0])
            square.click(timeout=5000)
            assert page.locator("#action-panel").inner_text().count("Medina ") >= 1  # the payment names the medina
            if "payment" not in self.seen:
                self.shot(page, "payment")
                self.saw("payment")
            self.pay_and_buy(page)
            self.saw("bought")
            return
        if self.take_random(page):
            return
        self.core_turn(page, end=0.6, buy=0.85)

    def place(self, page: Any) -> None:
        """Build a waiting medina (drawn with the plug-in's art) on a free place of the Alhambra."""
        waiting = page.locator(".waiting-tile:has(svg.medina-tile)")
        if not waiting.count():
            super().place(page)
            return
        if not page.locator(".waiting-tile.selected:has(svg.medina-tile)").count():
            waiting.first.click(timeout=5000)
        spots = page.locator(".city.mine .spot")
        assert spots.count() >= 1  # a medina fits beside the fountain at least
        version = tb.version(page)
        spots.nth(self.rng.randrange(spots.count())).click(timeout=5000)
        self.wait_change(page, version)
        self.saw("placed")


HOOKS_JS = """async (catalogue) => {
  let plugin = null;
  const art = await import("/static/art.js");
  window.Alhambra = { apiVersion: 1, art, registerModule: (id, p) => { plugin = p; } };
  await import("/modules/medina/ui/ui.js");
  const state = {
    participants: [{ seat: 0, medinas: ["M3es", "M8s"] }, { seat: 1, medinas: [] }, { seat: -1, medinas: ["M2sw"] }],
    penalties: [[3], [6, 3], [9, 6, 3]], without_medina: [1, 2, 3], next: 2, now: [0, -8, -3],
  };
  const ctx = { id: "medina", state, art, catalogue, svg: art.svgEl, h: art.h, me: 0,
    seatName: (s) => ["Ada", "Bo"][s], seatColor: () => "#888" };
  const tiles = {};
  for (const code of Object.keys(catalogue.tiles).filter((c) => catalogue.tiles[c].module === "medina")) {
    const s = plugin.tileArt(ctx, code, 100);
    tiles[code] = { name: plugin.tileName(ctx, code), label: s.getAttribute("aria-label"), cls: s.getAttribute("class"),
      walls: [...s.querySelectorAll("path.wall")].map((w) => w.getAttribute("data-side")).join(""),
      base: [...art.tileSVG("G8ne", catalogue, 100).querySelectorAll("path.wall")].map((w) => w.getAttribute("d")),
      bands: [...s.querySelectorAll("path.wall")].map((w) => w.getAttribute("d")),
      texts: [...s.querySelectorAll("text")].map((t) => t.textContent) };
  }
  const panel = plugin.panel(ctx);
  const rows = [...panel.querySelectorAll("tr.md-row")].map((r) => [...r.children].map((c) => c.textContent));
  const marked = [...panel.querySelectorAll(".md-penalties tbody td.md-next")].map((c) => c.textContent);
  const badge = (s) => { const b = plugin.seatBadges(ctx, s); return b ? { text: b.text, title: b.title } : null; };
  const over = { ...ctx, state: { ...state, next: null, now: null } };
  const overPanel = plugin.panel(over);
  const ended = { cells: [...overPanel.querySelectorAll("tr.md-row")].map((r) => r.children.length),
    marked: overPanel.querySelectorAll(".md-next").length, help: overPanel.querySelector(".md-help").textContent,
    badge: plugin.seatBadges(over, 1).title };
  return {
    tiles, rows, marked, ended, badges: [badge(0), badge(1), badge(-1), badge(5)],
    other: plugin.tileArt(ctx, "G8ne", 100), otherName: plugin.tileName(ctx, "G8ne"),
    scoring: plugin.scoring(ctx, { round: 3, extra: { medina: [-3, -11, 0] } }), none: plugin.scoring(ctx, { round: 1, extra: {} }),
  };
}"""


def _check_hooks(page: Any, url: str) -> None:
    """The plug-in's hooks on their own (in the browser): the art and name of the nine medinas
    (price, walls as the base tiles draw them), the panel's rows and penalty table, the badges,
    the scoring row."""
    page.goto(url + "/api/health")
    catalogue = page.evaluate("async () => (await fetch('/api/catalogue?players=2&modules=medina')).json()")
    got = page.evaluate(HOOKS_JS, catalogue)
    assert len(got["tiles"]) == 9
    for code, tile in got["tiles"].items():
        parts = re.fullmatch(r"M(\d+)([nesw]*)", code)
        assert parts, code
        price, walls = parts.groups()
        assert tile["name"] == f"Medina {price}" and tile["label"].startswith(f"Medina {price} ("), tile
        assert "medina-tile" in tile["cls"] and price in tile["texts"], tile
        assert sorted(tile["walls"]) == sorted(walls), (code, tile["walls"])
        assert set(tile["bands"]) <= set(tile["base"]), "a medina's wall is drawn like a base tile's"
    assert got["tiles"]["M10"]["label"] == "Medina 10 (no walls)"
    assert got["tiles"]["M5nw"]["label"] == "Medina 5 (walls north, west)"
    assert got["other"] is None and got["otherName"] is None
    # Ada: 2 built, the dearest 8, safe; Bo none: loses 6 + 2; Dirk 1 (2): loses 3
    assert [r[1:] for r in got["rows"]] == [["2", "8", "0"], ["0", "–", "\u22128"], ["1", "2", "\u22123"]], got["rows"]
    assert [r[0] for r in got["rows"]] == ["Ada", "Bo", "Dirk"]
    assert got["marked"] == ["\u22126", "\u22123", "–", "\u22122"]  # round 2's column
    assert [b["text"] if b else None for b in got["badges"]] == ["2", "0", "1", None]
    assert got["badges"][1]["title"] == "Medinas: Bo: no medina built; would lose 8 points if scoring round 2 were scored now."
    # after the third round: no "now" column, nothing marked, no loss foretold
    assert got["ended"] == {
        "cells": [3, 3, 3],
        "marked": 0,
        "help": "All three scoring rounds are over.",
        "badge": "Medinas: Bo: no medina built.",
    }
    assert got["scoring"][0]["label"] == "Medina" and got["scoring"][0]["values"] == [-3, -11, 0]
    assert "9, the 2nd fewest 6, the 3rd fewest 3" in got["scoring"][0]["title"]
    assert got["none"] is None


def test_both_seats_buy_and_build_medinas_until_a_scoring_round(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), NAMES, constant_seed=SEED) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .md-standing", timeout=10000)
            assert p.locator(f"{PANEL} tr.md-row").count() == 3  # Ada, Bo and Dirk
            assert p.locator(f"{PANEL} tr.md-row.dirk .md-name").inner_text() == "Dirk"
            assert p.locator(".market-square svg.medina-tile").count() >= 1  # the plug-in's art on the market
        player = _Player(pages, random.Random(7))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(200)
        # built medinas: in the Alhambras with the plug-in's art, counted in the panel and the badges
        standing = player.read_panel(page)
        built = sum(c for s, c, _, _ in standing if s >= 0)
        assert built >= 1 and page.locator(".city g[data-tile] svg.medina-tile").count() >= built
        for seat, count, _, _ in standing:
            if seat >= 0:
                badge = page.locator(f".score-track li[data-seat='{seat}'] .seat-badge[data-module='{ID}']")
                assert badge.inner_text() == str(count) and "medina" in str(badge.get_attribute("title"))
        player.shot(page, "table")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(300)
        player.shot(page, "phone")
        page.set_viewport_size({"width": 1400, "height": 1000})
        log = page.locator(".log-list").inner_text()
        assert re.search(r"buys Medina \d+", log), log[-500:]
        assert not RAW.search(log), "the log names medinas by their codes"
        hooks = page.context.browser.new_page()
        _check_hooks(hooks, page.url.split("/table/")[0])
        hooks.close()
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
