"""The Bazaars in the browser: a person plays a 2-player table against a bot (with the vizier) in
Debian's Chromium, by clicks and keys only (Playwright). The person buys every bazaar they can pay
exactly, on their turn (the bazaars beside the market, or the buttons of the action panel, by
keyboard too) and between turns with the vizier, and places the bought bazaars in the Alhambra.
Checked: the plug-in's art and panel are drawn, its controls appear and are used, no button shows
a bazaar's notation, the log names bazaars, the final scoring has a bazaar column (when the game
ends within the time bound), and the browser console stays free of errors. Screenshots go to
artifacts/screenshots/bazaars-*.png."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS, ServerProcess

PLAY_SECONDS = 65.0
"""Stop playing after this long, or once the controls were used enough (a whole game rarely fits)."""

SEED = int(os.environ.get("ALHAMBRA_BAZAARS_SEED", "4"))
"""The server's random bits (game seed, bot's choices) come from this seed, so the game is the
same every run (bazaars come out early); without it a test run could see none in time."""
FAILURE = "bazaars-failure"
"""The screenshot taken when a click or a wait fails."""

RAW_NOTATION = re.compile(r"\bZ[bgoy]\d\b|\bbuy Z|\bplace Z")
"""The module's notation, never a button's text (the plug-in gives proper controls)."""

pytestmark = tb.needs_chromium


class _Game(tb.ClickPlayer):
    """The person's moves by clicks, and what was seen and used."""

    module = "bazaars"
    raw = RAW_NOTATION

    def __init__(self, page: Any, rng: random.Random) -> None:
        super().__init__([page], rng)
        self.page = page
        self.final_round = False
        """True once a round's scoring showed the bazaar column."""

    def done(self) -> bool:
        """The bazaar controls were used enough: two purchases (one by the keyboard, one by a click
        beside the market), one placement."""
        s = self.seen
        return s["bought"] + s["vizier bought"] >= 2 and s["placed"] >= 1 and "keyboard" in s and "clicked" in s

    def look(self, page: Any) -> None:
        """Before a move: a round's scoring with a bazaar column, the bazaars beside the market."""
        if page.locator("#round-modal th[data-module='bazaars']").count():
            self.final_round = True
            assert page.locator("#round-modal th[data-module='bazaars']").inner_text() == "Bazaars"
            page.screenshot(path=str(ARTIFACTS / "bazaars-final-scoring.png"))
        panel = page.locator(".module-panel[data-module='bazaars']")
        if panel.locator(".bz-offer").count():
            self.saw("beside the market")
            if "beside shot" not in self.seen and panel.locator(".bz-offer.buyable").count():
                page.screenshot(path=str(ARTIFACTS / "bazaars-table.png"), full_page=True)
                self.saw("beside shot")

    def buy_bazaar(self, vizier: bool) -> None:
        """Buy a highlighted bazaar: from the panel beside the market by a click, or (the first
        time) from the action panel's buttons by the keyboard; pick the exact payment; confirm."""
        page = self.page
        version = tb.version(page)
        assert page.locator(".bz-controls .bz-buy").count() == page.locator(".bz-offer.buyable").count()  # the action panel offers them too
        offers = page.locator(".bz-offer.buyable")
        pick = self.rng.randrange(offers.count())
        keyboard = "keyboard" not in self.seen
        if keyboard:  # the action panel lists the same bazaars, in the same order
            page.locator(".bz-controls .bz-buy").nth(pick).focus()
            page.keyboard.press("Enter")
            self.saw("keyboard")
        else:
            offers.nth(pick).click(timeout=5000)
            self.saw("clicked")
        tile = page.locator(".bz-offer.selected").get_attribute("data-tile")
        assert tile and re.fullmatch(r"Z[bgoy]\d", tile), tile
        assert page.locator(f".bz-buy.selected[data-tile='{tile}']").count() == 1
        assert "Bazaar (" in page.locator("#action-panel .buy").inner_text()
        if not page.locator("#btn-buy").count():
            page.locator(".pay-option.exact").first.click(timeout=5000)
        button = page.locator("#btn-buy")
        assert button.inner_text() == ("Use vizier" if vizier else "Buy the bazaar")
        if "payment" not in self.seen:
            page.screenshot(path=str(ARTIFACTS / "bazaars-payment.png"), full_page=True)
            self.saw("payment")
        if keyboard:
            button.focus()
            page.keyboard.press("Enter")
        else:
            button.click(timeout=5000)
        tb.wait_change(page, version, failure=FAILURE)
        if page.locator("#btn-confirm").count():  # the vizier's purchase ends the window between turns
            assert "Use the vizier: buy Bazaar (" in page.locator("#action-panel").inner_text()
            self.click(page, "#btn-confirm", confirm=False)
        self.saw("vizier bought" if vizier else "bought")
        self.saw(f"tile {tile}")

    def place(self, page: Any) -> None:
        """Place a bought bazaar first (with its art), else the waiting tile."""
        waiting = page.locator(".waiting-tile[data-tile^='Z']")
        bazaar = waiting.count() > 0
        if bazaar:
            assert waiting.first.locator("svg.bazaar-tile").count() == 1  # the plug-in's art
            if page.locator(".waiting-tile.selected[data-tile^='Z']").count() == 0:
                waiting.first.click(timeout=5000)
        super().place(page)
        if bazaar:
            self.saw("placed")

    def move(self, page: Any) -> None:
        self.look(page)
        super().move(page)

    def decide(self, page: Any, decision: str) -> bool:
        if decision != "BetweenTurns":
            return False
        rng = self.rng
        buyable = page.locator(".bz-offer.buyable").count()
        if buyable:
            assert page.locator(".bz-offer.buyable[data-vizier='1']").count() == buyable
            self.buy_bazaar(vizier=True)
            return True
        offer = page.locator(".market-square.affordable[data-module='vizier']")
        if offer.count() and rng.random() < 0.2:
            offer.nth(rng.randrange(offer.count())).click(timeout=5000)
            if not page.locator("#btn-buy").count():
                page.locator(".pay-option.exact").first.click(timeout=5000)
            self.click(page, "#btn-buy")
        else:
            self.click(page, ".pass-button")
        return True

    def turn(self, page: Any) -> None:
        rng = self.rng
        if page.locator(".bz-offer.buyable").count():
            self.buy_bazaar(vizier=False)
            return
        if page.locator("#btn-vizier-wake").count() and rng.random() < 0.5:  # to buy bazaars between turns
            self.click(page, "#btn-vizier-wake")
            return
        if page.locator("#btn-end").count() and rng.random() < 0.5:
            self.click(page, "#btn-end")
            return
        affordable = page.locator(".market-square.affordable")
        if affordable.count() and rng.random() < 0.5:
            affordable.nth(rng.randrange(affordable.count())).click(timeout=5000)
            self.pay_and_buy(page)
            return
        cards = page.locator(".display-card.takeable")
        if cards.count():
            self.take(page, cards.nth(rng.randrange(cards.count())))
            return
        if page.locator("#btn-end").count():
            self.click(page, "#btn-end")
            return
        if page.locator(".removable").count():
            self.tap(page, ".removable")
            self.click(page, "#btn-remove")
            return
        self.no_move(page)


HOOKS_JS = """async () => {
  let plugin = null;
  const art = await import("/static/art.js");
  window.Alhambra = { apiVersion: 1, art, registerModule: (id, p) => { plugin = p; } };
  await import("/modules/bazaars/ui/ui.js");
  const facts = {
    Zg1: { currency: "green", kinds: ["seraglio", "arcades", "garden"] },
    Zg2: { currency: "green", kinds: ["pavilion", "chambers", "tower"] },
    Zb1: { currency: "blue", kinds: ["pavilion", "arcades", "garden"] },
    Zb2: { currency: "blue", kinds: ["seraglio", "chambers", "tower"] },
    Zo1: { currency: "orange", kinds: ["pavilion", "arcades", "tower"] },
    Zo2: { currency: "orange", kinds: ["seraglio", "chambers", "garden"] },
    Zy1: { currency: "yellow", kinds: ["pavilion", "chambers", "garden"] },
    Zy2: { currency: "yellow", kinds: ["seraglio", "arcades", "tower"] },
  };
  const built = [[{ tile: "Zy2", x: 0, y: 1, matching: 4, kinds: ["seraglio", "tower"], points: 8 }], []];
  const state = { bazaars: facts, beside_market: [], built, points: [8, 0] };
  // the server's structured form of the moves described below (what msg.actions carries)
  const moves = [
    { notation: "buy Zg1 g3+g2", keyword: "buy", args: [{ type: "item", value: "Zg1" }, { type: "cards", value: ["g3", "g2"] }] },
    { notation: "vizier buy Zo2 o7", keyword: "vizier buy", args: [{ type: "item", value: "Zo2" }, { type: "cards", value: ["o7"] }] },
    { notation: "buy 1 b3", keyword: "buy", args: [{ type: "square", value: 1 }, { type: "cards", value: ["b3"] }] },
  ];
  const move = (n) => moves.find((m) => m.notation === n) || null;
  const argsOf = (n, ...kws) => { const m = move(n); return m && kws.includes(m.keyword) ? m.args.map((a) => a.value) : null; };
  const ctx = { id: "bazaars", state, art, svg: art.svgEl, h: (t) => document.createElement(t), legal: [], myTurn: false,
    moves, move, argsOf,
    seatName: (s) => `Seat ${s + 1}`, cardName: (c) => c };
  const tiles = {};
  for (const code of Object.keys(facts)) {
    const s = plugin.tileArt(ctx, code, 100);
    const fills = [...s.querySelectorAll("*")].map((e) => e.getAttribute("fill")).filter(Boolean);
    tiles[code] = { label: s.getAttribute("aria-label"), fills, name: plugin.tileName(ctx, code) };
  }
  return {
    tiles, colours: art.KIND_COLORS, coins: art.CURRENCY_COLORS, other: plugin.tileArt(ctx, "G8", 100),
    final: plugin.scoring(ctx, { round: 3, extra: { bazaars: [8, 0] } }), early: plugin.scoring(ctx, { round: 1, extra: {} }),
    buy: plugin.describeAction(ctx, "buy Zg1 g3+g2"),
    vizier: plugin.describeAction(ctx, "vizier buy Zo2 o7"),
    core: plugin.describeAction(ctx, "buy 1 b3"),
    badge: plugin.seatBadges(ctx, 0).text, noBadge: plugin.seatBadges(ctx, 1),
  };
}"""


def _check_hooks(page: Any, url: str) -> None:
    """The plug-in's hooks on their own (in the browser): the art of all eight bazaars shows the
    coin of its currency and its three colours, the names, sentences and the final scoring column."""
    page.goto(url + "/api/health")
    got = page.evaluate(HOOKS_JS)
    for code, tile in got["tiles"].items():
        currency = {"b": "blue", "g": "green", "o": "orange", "y": "yellow"}[code[1]]
        assert got["coins"][currency] in tile["fills"], code
        assert tile["label"].startswith("Bazaar (") and tile["name"] in tile["label"], tile
        assert sum(1 for colour in got["colours"].values() if colour in tile["fills"]) >= 3, code
    assert got["tiles"]["Zy2"]["label"].endswith("scores 8 now")
    assert got["tiles"]["Zg1"]["name"] == "Bazaar (dirham: Seraglio, Arcades, Garden)"
    assert got["other"] is None
    assert got["final"] == [{"label": "Bazaars", "values": [8, 0], "title": got["final"][0]["title"]}]
    assert got["early"] is None
    assert got["buy"] == "Buy Bazaar (dirham: Seraglio, Arcades, Garden) for g3 + g2"
    assert got["vizier"] == "Use the vizier: buy Bazaar (ducat: Seraglio, Chambers, Garden) for o7"
    assert got["core"] is None
    assert got["badge"] == "Bazaars 8" and got["noBadge"] is None


def test_a_person_buys_and_places_bazaars_by_clicks(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path / "bazaars.sqlite3", seed=SEED)
    problems: list[str] = []
    rng = random.Random(7)
    started = time.monotonic()
    try:
        with sync_api.sync_playwright() as pw:
            browser = tb.launch(pw)
            [page] = tb.new_pages(browser, 1, problems)
            tb.open_table([page], server.url, ("bazaars", "vizier"), ("Ada",), bots=("random",))
            # the plug-in is loaded: its panel with both seats' bazaar points
            panel = page.locator(".module-panel[data-module='bazaars']")
            panel.wait_for()
            assert panel.locator(".bz-points li").count() == 2
            game = _Game(page, rng)
            game.play(started + PLAY_SECONDS - time.monotonic())  # game.look() checks the scorings as they come
            game.look(page)  # the last scoring, if the game ended
            over = tb.phase(page) == "over"
            if game.seen.get("placed"):
                page.screenshot(path=str(ARTIFACTS / "bazaars-table.png"), full_page=True)
            # bazaars are drawn with the plug-in's art (beside the market, in Alhambras, with Dirk...)
            assert page.locator("svg.bazaar-tile").count() >= 1
            assert page.locator("svg.bazaar-tile[aria-label^='Bazaar (']").count() == page.locator("svg.bazaar-tile").count()
            log = page.locator(".log-list").inner_text()
            assert "laid out beside the market" in log
            assert not re.search(r"\bZ[bgoy]\d\b", log), "the log names bazaars by their codes"
            if game.seen.get("bought"):
                assert "Ada buys Bazaar (" in log
            if game.seen.get("placed"):
                mine = page.locator(".city.mine g[data-tile^='Z'] svg.bazaar-tile")
                assert mine.count() >= 1  # a placed bazaar in my Alhambra, with its points now
                assert page.locator(".score-track li.me .seat-badge.bazaar-badge").count() == 1
            if over:
                assert game.final_round, "the final scoring showed no bazaar column"
            _check_hooks(browser.new_page(), server.url)
            browser.close()
    finally:
        server.stop()
    print("seen:", game.seen, "in", round(time.monotonic() - started, 1), "s")
    assert game.seen.get("beside the market", 0) >= 1, game.seen
    assert game.seen.get("bought", 0) + game.seen.get("vizier bought", 0) >= 2, game.seen
    assert game.seen.get("placed", 0) >= 1, game.seen
    assert "keyboard" in game.seen and "clicked" in game.seen, game.seen
    assert problems == [], problems
