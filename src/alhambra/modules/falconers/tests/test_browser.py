"""The Falconers in the browser: one person plays both seats of a 2-player table in Debian's
Chromium (two pages, one per seat), by clicks only. The seats build compactly (each bought tile
on the free spot with the most neighbours) so that four tiles soon meet; a seat buys a falcon as
soon as the controls offer one: the first time falcon first, then the gold ring of an
intersection on the board, then the cheapest money card; later the intersection first. Checked:
the falcon is drawn on that intersection of the buyer's Alhambra (on both pages) and in the
panel, the supply lost it, the log says it in words; ``falcon done`` by its button; after a
scoring round with a falcon in play, the breakdown's Falconers row equals the ``RoundScored``
event's extra. No button shows the notation; the console stays free of errors. Screenshots
(desktop and a 390 x 844 phone) go to artifacts/screenshots/falconers-*.png."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "falconers"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"\bfalcon (done|F[krw]\d)\b|\bF[krw]\d\b")
"""The module's notation, which no button may show."""
WANTED = ("bought", "done", "scored")
PLAY_SECONDS = 75.0
NAMES = ("Ada", "Bo")

pytestmark = tb.needs_chromium

SEED = int(os.environ.get("ALHAMBRA_FALCONERS_SEED", "3"))
"""The seed of the table's game (every ``secrets.randbits`` draw of the server is this number),
so that the clicks play the same game every time. Another seed plays another game."""


def _public_events(page: Any) -> list[dict[str, Any]]:
    """The table's public event log, read from the server's API on the page."""
    tid = re.search(r"/table/([^/?#]+)", page.url)
    assert tid, page.url
    got: list[dict[str, Any]] = page.evaluate(f"async () => (await (await fetch('/api/tables/{tid.group(1)}/view')).json()).events")
    return got


def _xy(el: Any) -> tuple[int, int]:
    return int(str(el.get_attribute("data-x"))), int(str(el.get_attribute("data-y")))


class _Player(tb.ClickPlayer):
    """Both seats, one page each, by clicks; ``bought`` lists (seat, falcon, x, y) of the falcons
    bought by clicks."""

    module = ID
    raw = RAW
    wanted = WANTED

    def __init__(self, pages: list[Any], rng: random.Random) -> None:
        super().__init__(pages, rng)
        self.bought: list[tuple[int, str, int, int]] = []
        self.rounds: list[int] = []

    def done(self) -> bool:
        return super().done() and self.seen["bought"] >= 2

    # ----- compact building: four tiles must meet
    def place(self, page: Any) -> None:
        if not page.locator(".waiting-tile.selected").count():
            page.locator(".waiting-tile").first.click(timeout=5000)
        spots = page.locator(".city.mine .spot")
        if not spots.count():
            self.click(page, "#btn-reserve")
            return
        built = {_xy(t) for t in page.locator(".city.mine g[data-tile]").all()}
        best: list[int] = []
        score = -1
        for i, s in enumerate(spots.all()):
            x, y = _xy(s)
            n = sum((x + dx, y + dy) in built for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            if n > score:
                best, score = [i], n
            elif n == score:
                best.append(i)
        before = tb.version(page)
        spots.nth(self.rng.choice(best)).click(timeout=5000)
        self.wait_change(page, before)

    # ----- the falcons
    def buy_falcon(self, page: Any) -> None:
        """Buy and place a falcon by clicks: the falcon then the intersection (the first time),
        else the intersection then the falcon; then the cheapest card. Check where it is drawn."""
        seat = self.seat(page)
        controls = page.locator(f".module-controls[data-module='{ID}']")
        falcon_first = not self.seen["bought"]
        if falcon_first:
            buttons = controls.locator("button.fal-falcon")
            buttons.nth(self.rng.randrange(buttons.count())).click(timeout=5000)
            assert controls.locator("button.fal-falcon.selected").count() == 1
            code = str(controls.locator("button.fal-falcon.selected").get_attribute("data-falcon"))
            picks = page.locator(".city.mine .board-overlay.fal-pick")
            assert picks.count() >= 1 and picks.locator(f".fal-token[data-falcon='{code}']").count() == picks.count()
            self.shot(page, "choose")
            pick = picks.nth(self.rng.randrange(picks.count()))
            x, y = _xy(pick)
            pick.click(timeout=5000)
        else:
            picks = page.locator(".city.mine .board-overlay.fal-pick")
            pick = picks.nth(self.rng.randrange(picks.count()))
            x, y = _xy(pick)
            pick.click(timeout=5000)
            assert page.locator(".city.mine .board-overlay.fal-pick.selected").count() == 1
            buttons = controls.locator("button.fal-falcon")
            buttons.nth(self.rng.randrange(buttons.count())).click(timeout=5000)
            code = str(controls.locator("button.fal-falcon.selected").get_attribute("data-falcon"))
        cards = controls.locator("button.fal-card")
        assert cards.count() >= 1
        names = controls.locator("button.fal-card > span").all_inner_texts()
        values = [int(n.split()[0]) for n in names]
        assert values == sorted(values), values  # the cheapest first
        label = str(cards.first.get_attribute("aria-label"))
        assert label.startswith("Buy the ") and " falcon (" in label and " meet" in label, label
        card_name = names[0]
        if falcon_first:
            self.shot(page, "pay")
        before = tb.version(page)
        cards.first.click(timeout=5000)
        self.wait_change(page, before)
        self.bought.append((seat, code, x, y))
        self.saw("bought")
        self.check_placed(seat, code, x, y, card_name)

    def check_placed(self, seat: int, code: str, x: int, y: int, card_name: str) -> None:
        """The falcon stands on its intersection of the buyer's Alhambra (both pages) and in the panel."""
        for page in self.pages:
            page.wait_for_function(
                f"() => document.querySelectorAll(\"{PANEL} .fal-seat[data-seat='{seat}'] .fal-token[data-falcon='{code}']\").length === 1",
                timeout=5000,
            )
            city = page.locator(f".city-svg[aria-label='Alhambra of {NAMES[seat]}']")
            here = city.locator(f"g.board-overlay.fal-placed-item[data-x='{x}'][data-y='{y}']")
            assert here.locator(f".fal-token[data-falcon='{code}']").count() == 1
            assert here.locator(".fal-placed").get_attribute("transform") == "translate(100 100)"  # the south-east corner
            assert page.locator(f"{PANEL} .fal-supply[data-falcon='{code}']").count() == 0
            log = page.locator(".log-list").inner_text()
            assert f"{NAMES[seat]} buys the " in log and f"for {card_name} and places it where " in log, log[-400:]
        if len(self.bought) == 1:
            self.shot(self.pages[seat], "bought")

    def decide(self, page: Any, decision: str) -> bool:
        if decision != "FalconTurn":
            return False
        done = page.locator("button.fal-done")
        assert done.count() == 1
        if not self.seen["done"]:
            self.shot(page, "falcon-turn")
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(200)
            self.shot(page, "phone-falcon-turn")
            page.set_viewport_size({"width": 1400, "height": 1000})
        self.click(page, "button.fal-done")
        self.saw("done")
        return True

    def turn(self, page: Any) -> None:
        if page.locator(f".module-controls[data-module='{ID}'] button.fal-falcon").count():
            # the first falcon at once; then, until "Done" was asked, with two intersections free
            # and a few cards in hand, so that more falcons may follow (else build on)
            rings = page.locator(".city.mine .board-overlay.fal-pick").count()
            cards = page.locator(".panel.hand .hand-card").count()
            if not self.seen["bought"] or self.seen["done"] or (rings >= 2 and cards >= 3):
                self.buy_falcon(page)
                return
            if rings >= 2 and self.take_random(page):
                return
        self.core_turn(page, end=0.2, buy=0.95)

    # ----- the scoring round
    def move(self, page: Any) -> None:
        if page.locator("#round-modal").count():
            self.check_round(page)
        super().move(page)

    def check_round(self, page: Any) -> None:
        """The breakdown's Falconers row is the round's ``RoundScored`` extra."""
        modal = page.locator("#round-modal")
        rnd = int(str(modal.locator("table.round-table").get_attribute("data-round")))
        if rnd in self.rounds:
            return
        self.rounds.append(rnd)
        scored = next(e for e in _public_events(page) if e["type"] == "RoundScored" and e["round"] == rnd)
        extra = scored["extra"][ID]
        assert modal.locator(f"th[data-module='{ID}']").inner_text() == "Falconers"
        cells = [int(t.replace("+", "")) for t in modal.locator(f"td[data-module='{ID}']").all_inner_texts() if t.strip()]
        assert cells == extra, (cells, extra)
        if any(extra):
            # what the panel said before the round: the bought falcons score
            for seat, value in enumerate(extra):
                assert value == 0 or any(b[0] == seat for b in self.bought), (seat, extra, self.bought)
            self.shot(page, "scoring")
            self.saw("scored")


HOOKS_JS = """async ([catalogue, garden, tower]) => {
  let plugin = null;
  const art = await import("/static/art.js");
  window.Alhambra = { apiVersion: 1, art, registerModule: (id, p) => { plugin = p; } };
  await import("/modules/falconers/ui/ui.js");
  const fw5 = { falcon: "Fw5", type: "white", kinds: ["garden", "tower"] };
  const fk1 = { falcon: "Fk1", type: "black", kinds: ["pavilion", "seraglio"] };
  const state = { supply: [fk1], placed: [[{ ...fw5, x: 0, y: 0, tiles: ["F", garden, tower, garden] }], []],
    points_now: [2, 0], points: [0, 2, 6, 12, 20, 30], types: ["black", "brown", "white"] };
  const cells = [[0, 0, "F"], [1, 0, garden], [0, 1, tower], [1, 1, garden]].map(([x, y, tile]) => ({ x, y, tile }));
  const seats = [{ seat: 0, alhambra: cells },
    { seat: 1, alhambra: [{ x: 0, y: 0, tile: "F" }] }];
  // the server's structured form of the moves described below (what msg.actions carries)
  const moves = [
    { notation: "falcon Fk1 0,0 g3", keyword: "falcon",
      args: [{ type: "item", value: "Fk1" }, { type: "cell", value: { x: 0, y: 0 } }, { type: "card", value: "g3" }] },
    { notation: "falcon done", keyword: "falcon done", args: [] },
    { notation: "take b3", keyword: "take", args: [{ type: "cards", value: ["b3"] }] },
  ];
  const move = (n) => moves.find((m) => m.notation === n) || null;
  const argsOf = (n, ...kws) => { const m = move(n); return m && kws.includes(m.keyword) ? m.args.map((a) => a.value) : null; };
  const ctx = { id: "falconers", state, art, catalogue, svg: art.svgEl, h: art.h, me: 0, myTurn: false, legal: [], events: [],
    moves, move, argsOf,
    view: { seats }, seatName: (s) => ["Ada", "Bo"][s], seatColor: () => "#888", select() {}, selection: null,
    cardName: (c) => `${c.slice(1)} ${art.CURRENCY_NAMES[art.CURRENCY_LETTER[c[0]]]}`, tileName: (c) => art.tileLabel(c, catalogue) };
  const items = plugin.boardOverlay(ctx, 0);
  return {
    bought: plugin.describeEvent(ctx, { type: "FalconBought", seat: 0, falcon: "Fw5", x: 0, y: 0, payment: ["b2"] }),
    gone: plugin.describeEvent(ctx, { type: "FalconBought", seat: 1, falcon: "Fk1", x: 3, y: -1, payment: ["y7"] }),
    returned: plugin.describeEvent(ctx, { type: "FalconReturned", seat: 1, falcon: "Fk1" }),
    finished: plugin.describeEvent(ctx, { type: "FalconsFinished", seat: 1 }),
    other: plugin.describeEvent(ctx, { type: "GameStarted" }),
    buy: plugin.describeAction(ctx, "falcon Fk1 0,0 g3"),
    done: plugin.describeAction(ctx, "falcon done"),
    core: plugin.describeAction(ctx, "take b3"),
    scoring: plugin.scoring(ctx, { type: "RoundScored", round: 1, extra: { falconers: [6, 0] } }),
    board: items.map((it) => [it.x, it.y, it.node.getAttribute("transform"), it.node.querySelector(".fal-token").dataset.falcon]),
    halves: [...items[0].node.querySelectorAll(".fal-half")].map((e) => e.dataset.kind),
    badge: plugin.seatBadges(ctx, 0).text, noBadge: plugin.seatBadges(ctx, 1),
  };
}"""


def _check_hooks(page: Any, url: str) -> None:
    """The plug-in's texts and board items on a crafted view: Ada's white falcon stands where the
    fountain, a garden, a tower and a garden meet; Bo's black falcon went back to the supply."""
    page.goto(url + "/api/health")
    catalogue = page.evaluate("async () => (await fetch('/api/catalogue?players=2&modules=falconers')).json()")
    garden = next(c for c, t in catalogue["tiles"].items() if t["kind"] == "garden" and not t.get("module"))
    tower = next(c for c, t in catalogue["tiles"].items() if t["kind"] == "tower" and not t.get("module"))
    g, t = (f"{catalogue['tiles'][c]['kind'].capitalize()} {catalogue['tiles'][c]['price']}" for c in (garden, tower))
    got = page.evaluate(HOOKS_JS, [catalogue, garden, tower])
    assert got["bought"] == f"Ada buys the white falcon (garden, tower) for 2 denar and places it where the fountain, {g}, {t} and {g} meet"
    assert got["gone"] == (
        "Bo buys the black falcon (pavilion, seraglio) for 7 florin and places it"
        " at the south-east corner of the place 1 north and 3 east of the fountain"
    )
    assert got["returned"] == "A tile under Bo's black falcon (pavilion, seraglio) was moved: the falcon goes back to the supply"
    assert got["finished"] == "Bo buys no more falcons" and got["other"] is None
    assert got["buy"] == f"Buy the black falcon (pavilion, seraglio) for 3 dirham and place it where the fountain, {g}, {t} and {g} meet"
    assert got["done"] == "Buy no more falcons" and got["core"] is None
    [row] = got["scoring"]
    assert row["label"] == "Falconers" and row["values"] == ["+6", "0"]
    assert got["board"] == [[0, 0, "translate(100 100)", "Fw5"]]  # on the corner south-east of the fountain
    assert got["halves"] == ["garden", "tower"]
    assert got["badge"] == "1 falcon" and got["noBadge"] is None


def test_a_person_buys_and_places_falcons_by_clicks(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), NAMES, constant_seed=SEED) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .fal-panel", timeout=10000)
            assert p.locator(f"{PANEL} .fal-supply").count() == 15
            assert p.locator(f"{PANEL} .fal-supply-row").count() == 3
            assert p.locator(f"{PANEL} .fal-seat").count() == 2
            assert p.locator(f"{PANEL} table.fal-points").inner_text().split() == "Falcons of a type 1 2 3 4 5 Points 2 6 12 20 30".split()
            title = str(p.locator(f"{PANEL} .fal-supply[data-falcon='Fw5']").get_attribute("title"))
            assert title == "white falcon: green (garden) and purple (tower)", title
        player = _Player(pages, random.Random(11))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(200)
        player.shot(page, "table")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(300)
        player.shot(page, "phone")
        page.locator(PANEL).screenshot(path=str(tb.ARTIFACTS / f"{ID}-phone-panel.png"))
        page.set_viewport_size({"width": 1400, "height": 1000})
        hooks = page.context.browser.new_page()
        tb.watch(hooks, problems, "hooks: ")
        _check_hooks(hooks, page.url.split("/table/")[0])
        hooks.close()
    print("seen:", player.seen, "bought:", player.bought, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen[w] >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()
