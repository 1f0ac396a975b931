"""The Invaders in the browser: one person plays both seats of a 2-player table in Debian's
Chromium (two pages, one per seat), by clicks only, until the first scoring round. A seat buys
a building of a face-up scout's kind whenever the table's payment picker offers an exact way to
pay for it (else it takes money or plays a core move), so that a scout is taken. Checked along
the way: the panel shows the four invasion cards face down and the two face-up scouts (their
kinds' names); a scouted look shows its direction only on the buyer's page (the top card face
up, "you scouted", the badge "scouted: <direction>") while the other page sees only that the
buyer looked; after the scoring round the panel shows the invasion turned up, and the round's
breakdown has the row "Invasion from the <direction>" whose cells are the points the
``InvasionRevealed`` event took (read from the table's public event log, checked against the
rules: one point per open side, never below 0); the Alhambras carry the open-side notches; the
console stays free of errors. The plug-in's hooks are also checked on their own, on a crafted
view (the secret top card, the log lines, the scoring row, the board's notches). Screenshots
(desktop and a 390 x 844 phone) go to artifacts/screenshots/invaders-*.png."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "invaders"
PANEL = f".module-panel[data-module='{ID}']"
KINDS = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
DIRECTIONS = ("north", "east", "south", "west")
WANTED = ("scored",)
PLAY_SECONDS = 45.0
NAMES = ("Ada", "Bo")

pytestmark = tb.needs_chromium

SEED = int(os.environ.get("ALHAMBRA_INVADERS_SEED", "0"))
"""The seed of the table's game (every ``secrets.randbits`` draw of the server is this number),
so that the clicks play the same game every time: with seed 0 a seat can buy a building of a
face-up scout's kind exactly before the first scoring round. Another seed plays another game."""


def _panel_scouts(page: Any) -> list[str]:
    """The kinds of the face-up scouts the panel shows."""
    got: list[str] = page.locator(f"{PANEL} .inv-scout-slot").evaluate_all("els => els.map(e => e.dataset.kind)")
    return got


def _public_events(page: Any) -> list[dict[str, Any]]:
    """The table's public event log, read from the server's API on the page."""
    tid = re.search(r"/table/([^/?#]+)", page.url)
    assert tid, page.url
    got: list[dict[str, Any]] = page.evaluate(f"async () => (await (await fetch('/api/tables/{tid.group(1)}/view')).json()).events")
    return got


class _Player(tb.ClickPlayer):
    """Both seats, one page each, by clicks; ``scout`` is (seat, kind, direction) of the first
    look seen on the buyer's page; ``scores`` the totals of the last round's breakdown."""

    module = ID
    wanted = WANTED

    def __init__(self, pages: list[Any], rng: random.Random) -> None:
        super().__init__(pages, rng)
        self.scout: tuple[int, str, str] | None = None
        self.rounds: list[int] = []

    # ----- the scouts
    def try_scout(self, page: Any) -> bool:
        """Buy an affordable market tile of a face-up scout's kind when the payment picker
        offers an exact way to pay (then check the look on both pages); False when none."""
        kinds = set(_panel_scouts(page))
        squares = page.locator(".market-square.affordable")
        for i in range(squares.count()):
            square = squares.nth(i)
            kind = str(square.get_attribute("title")).split(" ")[0].lower()
            if kind not in kinds:
                continue
            square.click(timeout=5000)
            exact = page.locator(".pay-option.exact")
            if not exact.count():
                square.click(timeout=5000)  # deselect: no exact payment
                continue
            seat = self.seat(page)
            exact.first.click(timeout=5000)
            self.click(page, "#btn-buy")
            self.saw("bought a scout's kind")
            self.check_look(page, seat, kind)
            return True
        return False

    def check_look(self, page: Any, seat: int, kind: str) -> None:
        """After an exact purchase of a scout's kind: the buyer's page shows the top card face up
        with its direction, the other page only that the buyer looked."""
        page.wait_for_selector(f"{PANEL} .inv-slot.top.shown", timeout=5000)
        shown = page.locator(f"{PANEL} .inv-slot.top.shown")
        direction = str(shown.get_attribute("data-direction"))
        assert direction in DIRECTIONS
        assert shown.locator("figcaption").inner_text() == "you scouted"
        assert kind not in _panel_scouts(page)  # the scout was taken
        badge = page.locator(f".score-track li[data-seat='{seat}'] .seat-badge[data-module='{ID}']")
        assert badge.inner_text() == f"scouted: {direction}"
        log = page.locator(".log-list").inner_text()
        looked = f"{NAMES[seat]} takes the {kind.capitalize()} scout and looks at the next invasion card"
        assert f"{looked}: the invaders come from the {direction}." in log
        other = self.pages[1 - self.pages.index(page)]
        other.wait_for_function(f"() => document.querySelectorAll(\"{PANEL} .inv-looker[data-seat='{seat}']\").length === 1", timeout=5000)
        if other.locator(f"{PANEL} .inv-looker[data-seat='{1 - seat}']").count():
            # the other seat looked at the same card earlier: it sees the same direction
            assert other.locator(f"{PANEL} .inv-slot.top.shown").get_attribute("data-direction") == direction
        else:
            assert other.locator(f"{PANEL} .inv-slot.shown").count() == 0  # the card stays face down for the other seat
            assert other.locator(f"{PANEL} .inv-slot.top.hidden").count() == 1
            self.saw("secret kept")
        other_badge = other.locator(f".score-track li[data-seat='{seat}'] .seat-badge[data-module='{ID}']")
        assert other_badge.inner_text() == "scouted"
        other_log = other.locator(".log-list").inner_text()
        assert f"{NAMES[seat]} takes the {kind.capitalize()} scout and looks at the next invasion card in secret." in other_log
        if self.scout is None:
            self.scout = (seat, kind, direction)
            self.shot(page, "scouted")
            self.shot(other, "scouted-other")
            self.part(page, ".city.mine", "scouted-board")
        self.saw("scouted")

    def part(self, page: Any, selector: str, name: str) -> None:
        """A screenshot ``<module>-<name>.png`` of one element (listed in ``shots``)."""
        path = tb.ARTIFACTS / f"{self.module}-{name}.png"
        page.locator(selector).first.screenshot(path=str(path))
        self.shots.append(path)

    # ----- the round
    def check_round(self, page: Any) -> None:
        """A round's breakdown is open: its invasion row holds the points the round's
        ``InvasionRevealed`` event took, and those follow the rules from the breakdown's totals
        (the scores after the invasion, which they include): one point per open side, never
        below 0."""
        modal = page.locator("#round-modal")
        rnd = int(str(modal.locator("table.round-table").get_attribute("data-round")))
        if rnd in self.rounds:
            return
        events = _public_events(page)
        at = next(i for i, e in enumerate(events) if e["type"] == "RoundScored" and e["round"] == rnd)
        inv = events[at + 1]
        assert inv["type"] == "InvasionRevealed" and inv["round"] == rnd, inv
        head = modal.locator(f"th[data-module='{ID}']")
        assert head.inner_text() == f"Invasion from the {inv['direction']}"
        assert "included in" in str(head.get_attribute("title"))
        cells = [int(t.replace("\u2212", "-")) for t in modal.locator(f"td[data-module='{ID}']").all_inner_texts() if t.strip()]
        assert cells == [-v for v in inv["lost"]], (cells, inv)
        totals = [int(t) for t in modal.locator("tr.rt-total td").all_inner_texts()][: len(NAMES)]
        scored = next(e for e in events if e["type"] == "RoundScored" and e["round"] == rnd)
        assert totals == [t - v for t, v in zip(scored["scores"], inv["lost"], strict=True)], (totals, scored, inv)
        gains = [int(t.replace("\u2212", "-")) for t in modal.locator("tr.rt-round td").all_inner_texts()][: len(NAMES)]
        assert gains == [p - v for p, v in zip(scored["points"], inv["lost"], strict=True)], (gains, scored, inv)
        if rnd == 1:
            before = scored["scores"]
            assert inv["lost"] == [min(s, t) for s, t in zip(inv["sides"], before, strict=True)], (inv, before)
            assert sum(inv["sides"]) >= 1  # two small Alhambras always have an open side somewhere
        if self.scout is not None and rnd == 1:
            assert inv["direction"] == self.scout[2], "the invasion came from where the scout looked"
        # the panel: the card turned up for round 1, its direction
        revealed = page.locator(f"{PANEL} .inv-slot.revealed[data-round='{rnd}']")
        assert revealed.get_attribute("data-direction") == inv["direction"]
        if not self.rounds:
            self.shot(page, "scoring")
        self.rounds.append(rnd)
        self.saw("scored")

    def move(self, page: Any) -> None:
        if page.locator("#round-modal").count():
            self.check_round(page)
        super().move(page)

    def turn(self, page: Any) -> None:
        """Scout when an exact purchase of a scout's kind is possible, else take money, else a core move."""
        if self.try_scout(page):
            return
        if self.take_random(page):
            return
        self.core_turn(page, end=0.6, buy=0.85)


HOOKS_JS = """async (catalogue) => {
  let plugin = null;
  const art = await import("/static/art.js");
  window.Alhambra = { apiVersion: 1, art, registerModule: (id, p) => { plugin = p; } };
  await import("/modules/invaders/ui/ui.js");
  const base = {
    face_up: false, revealed: ["east"], left: 3, top: null, known: [false, true], scouts: ["garden", "tower"], scouts_left: 0,
    pile: [], taken: [[1, "seraglio"]], exposure: [{ north: 2, east: 1, south: 3, west: 0 }, { north: 1, east: 1, south: 1, west: 1 }],
    points: { main: [1, 2, 3], beside: [0, 0, 1] }, next: 2,
  };
  const seats = [
    { seat: 0, alhambra: [{ x: 0, y: 0, tile: "F" }, { x: 1, y: 0, tile: "G8sw" }] },
    { seat: 1, alhambra: [{ x: 0, y: 0, tile: "F" }] },
  ];
  const events = [
    { type: "RoundScored", round: 1, points: [5, 3], extra: {} },
    { type: "InvasionRevealed", round: 1, direction: "east", sides: [2, 1], lost: [2, 0] },
  ];
  const make = (me, state) => ({ id: "invaders", state, art, catalogue, svg: art.svgEl, h: art.h, me, events,
    view: { seats }, seatName: (s) => ["Ada", "Bo"][s], seatColor: () => "#888" });
  const seen = (ctx) => {
    const p = plugin.panel(ctx);
    const all = (sel, f) => [...p.querySelectorAll(sel)].map(f);
    return { text: p.textContent, shown: all(".inv-slot.shown", (e) => e.dataset.direction),
      backs: p.querySelectorAll(".inv-back").length, faces: all(".inv-card", (e) => e.dataset.direction),
      scouts: all(".inv-scout", (e) => e.dataset.kind), lookers: all(".inv-looker", (e) => e.textContent),
      seats: all(".inv-seat", (e) => e.dataset.seat), now: all(".inv-now", (e) => e.textContent),
      known: all(".inv-num.known", (e) => e.dataset.direction),
      marks: all(".inv-num", (e) => `${e.dataset.direction}:${e.classList[1]}`).join(" ") };
  };
  const badge = (ctx, s) => { const b = plugin.seatBadges(ctx, s); return b ? b.text : null; };
  const strength = (n) => (n.classList.contains("strong") ? "strong" : "light");
  const notches = (ctx, seat) => (plugin.boardOverlay(ctx, seat) || []).map((it) =>
    [it.x, it.y, [...it.node.querySelectorAll(".inv-notch")].map((n) => `${n.dataset.direction}:${strength(n)}`).join(" ")]);
  const looked = { ...base, top: "south" };  // Bo's own view: Bo looked, the card is south
  const a = make(0, base), b = make(1, looked), up = make(0, { ...base, face_up: true, top: "west", known: [false, false], scouts: [] });
  const over = make(0, { ...base, revealed: ["east", "north", "west"], left: 1, next: null, known: [false, false] });
  return {
    ada: seen(a), bo: seen(b), third: seen(make(1, { ...looked, next: 3 })), up: seen(up), over: seen(over),
    badges: [badge(a, 0), badge(a, 1), badge(b, 1), badge(up, 0)],
    notchesUnknown: notches(a, 0), notchesKnown: notches(b, 0), notchesThird: notches(make(1, { ...looked, next: 3 }), 0),
    notchesOver: plugin.boardOverlay(over, 0),
    log: [
      plugin.describeEvent(a, { type: "InvasionScouted", seat: 1, kind: "seraglio", direction: "" }),
      plugin.describeEvent(b, { type: "InvasionScouted", seat: 1, kind: "seraglio", direction: "south" }),
      plugin.describeEvent(a, { type: "ScoutsTurnedUp", kinds: ["garden", "tower"], removed: ["pavilion"] }),
      plugin.describeEvent(a, { type: "InvasionCardShown", direction: "west" }),
      plugin.describeEvent(a, events[1]),
      plugin.describeEvent(a, { type: "GameStarted" }),
    ],
    scoring: plugin.scoring(a, events[0]), noScoring: plugin.scoring(a, { type: "RoundScored", round: 2 }),
  };
}"""


def _check_hooks(page: Any, url: str) -> None:
    """The plug-in's hooks on a crafted view: Bo looked (the top card is south), Ada did not."""
    page.goto(url + "/api/health")
    catalogue = page.evaluate("async () => (await fetch('/api/catalogue?players=2&modules=invaders')).json()")
    got = page.evaluate(HOOKS_JS, catalogue)
    ada, bo = got["ada"], got["bo"]
    # Ada's page: round 1's card (east) face up, three backs, no direction of the next card
    assert ada["faces"] == ["east"] and ada["backs"] == 3 and ada["shown"] == []
    assert "you scouted" not in ada["text"]
    assert ada["lookers"] == ["Bo"] and ada["scouts"] == ["garden", "tower"]
    assert ada["seats"] == ["0", "1"] and ada["known"] == []
    # open sides after round 2 (2 per side) from north, south or west: Ada 4..6 -> 0..6, Bo 2
    assert ada["now"] == ["0 to \u22126", "\u22122"], ada["now"]
    assert "Buy a Garden tile with exact money to scout" in ada["text"]
    # Bo's page: the top card face up, marked, Bo's row first, the south marked on the compasses
    assert bo["shown"] == ["south"] and bo["faces"] == ["east", "south"] and bo["backs"] == 2
    assert "you scouted" in bo["text"] and bo["lookers"] == ["you"]
    assert bo["seats"] == ["1", "0"] and bo["known"] == ["south", "south"]
    assert bo["now"] == ["\u22122", "\u22126"]
    assert bo["marks"].startswith("north:past east:past south:known west:past")  # Bo's own compass first
    # before round 3 the neighbours of the known direction cost points too: Bo 3 + 1 + 1, Ada 9 + 1 + 0
    assert got["third"]["marks"].startswith("north:past east:open south:known west:open")
    assert got["third"]["now"] == ["\u22125", "\u221210"]
    assert "1 point per open side facing either neighbouring direction" in got["third"]["text"]
    # the variation: the card face up for everybody, no scouts; after round 3: nothing to come
    assert got["up"]["shown"] == ["west"] and "face up" in got["up"]["text"] and got["up"]["scouts"] == []
    assert "All three invasions are over." in got["over"]["text"] and got["over"]["now"] == []
    assert got["badges"] == [None, "scouted", "scouted: south", None]
    # the fountain (0,0) with a garden east of it (walls south, west): open sides
    assert got["notchesUnknown"] == [[0, 0, "north:light south:light west:light"], [1, 0, "north:light"]]  # east came already
    assert got["notchesKnown"] == [[0, 0, "south:strong"]]
    assert got["notchesThird"] == [[0, 0, "south:strong west:light"], [1, 0, "east:light"]]
    assert got["notchesOver"] is None
    assert got["log"] == [
        "Bo takes the Seraglio scout and looks at the next invasion card in secret.",
        "Bo takes the Seraglio scout and looks at the next invasion card: the invaders come from the south.",
        "The Pavilion scout leaves the game. Scouts turned up: Garden and Tower"
        " (buy a building of such a kind with exact money to look at the next invasion card).",
        "The next invasion card lies face up: the invaders will come from the west.",
        "Invasion from the east after scoring round 1: Ada loses 2 points (2 open sides), Bo loses nothing (1 open side).",
        None,
    ]
    [row] = got["scoring"]
    assert row["label"] == "Invasion from the east" and row["values"] == [-2, 0]
    assert "1 point per open side facing the attack" in row["title"]
    assert got["noScoring"] is None


def test_a_person_plays_to_the_first_invasion(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), NAMES, constant_seed=SEED) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .inv-cards", timeout=10000)
            assert p.locator(f"{PANEL} .inv-back").count() == 4  # four invasion cards face down
            scouts = _panel_scouts(p)
            assert len(scouts) == 2 and set(scouts) <= set(KINDS), scouts
            names = p.locator(f"{PANEL} .inv-scout-slot figcaption").all_inner_texts()
            assert names == [f"Buy {'an' if k[0] in 'aeiou' else 'a'} {k.capitalize()} tile with exact money to scout" for k in scouts]
            assert p.locator(f"{PANEL} .inv-seat").count() == 2
        assert _panel_scouts(pages[0]) == _panel_scouts(pages[1])
        # the fountain alone: open on all four sides, marked lightly while the direction is unknown
        assert pages[0].locator(f".city g.board-overlay[data-module='{ID}'] .inv-notch.light").count() >= 4
        player = _Player(pages, random.Random(5))
        player.play(PLAY_SECONDS)
        page = pages[0]
        assert player.seen["scored"] >= 1, player.seen
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(200)
        player.shot(page, "table")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(300)
        player.shot(page, "phone")
        player.part(page, PANEL, "phone-panel")
        page.set_viewport_size({"width": 1400, "height": 1000})
        log = page.locator(".log-list").inner_text()
        assert re.search(r"Invasion from the (north|east|south|west) after scoring round 1: Ada ", log), log[-600:]
        hooks = page.context.browser.new_page()
        tb.watch(hooks, problems, "hooks: ")
        _check_hooks(hooks, page.url.split("/table/")[0])
        hooks.close()
    print("seen:", player.seen, "scout:", player.scout, f"in {time.monotonic() - started:.1f} s")
    assert player.scout is not None, "with this seed a scout's kind is bought exactly before the first round"
    assert player.seen["secret kept"] >= 1, player.seen
    assert problems == []
    player.check_shots()
