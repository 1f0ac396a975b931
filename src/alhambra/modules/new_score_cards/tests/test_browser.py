"""New score cards in the browser: a person (by clicks) plays a 2-player table with the module
against a bot in Debian's Chromium (Playwright) through the first scoring round.

Checked: the lobby's module picker lists the module with its description; the plug-in's panel
(the "points indicator") shows the three score cards exactly as the module's view says (slot,
building kinds from the top row to the bottom row, the points of each row for its round) with
the round scored next highlighted and, after the first scoring, round 1 faded and marked as
scored; the first round's scoring breakdown shows, for the counts it shows, the points of the
round's score card (not the base game's table), the same as the RoundScored event; a phone
(390 px) shows the three cards without a sideways scroll; the console stays free of errors.
Screenshots go to artifacts/screenshots/new_score_cards-*.png."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb
from alhambra.components import SCORING_POINTS
from alhambra.modules.new_score_cards.module import MODULE_ID
from alhambra.scoring import majority_awards

PANEL = f".module-panel[data-module='{MODULE_ID}']"
PLAY_SECONDS = 45.0
"""Play at most this long to reach the first scoring round."""
SEP = "\u2009·\u2009"
"""Between the points of the 1st, 2nd and 3rd place on a card's row."""

SEED = int(os.environ.get("ALHAMBRA_NSC_SEED", "6"))
"""The seed of the table's game (every ``secrets.randbits`` draw of the server is this number,
see :class:`~alhambra.testing_browser.ServerProcess`), so the clicks play the same game every
run; other seeds play other games with other cards (set the variable to try)."""

pytestmark = tb.needs_chromium


def _public(page: Any) -> dict[str, Any]:
    """The table's public message (view and events) through the API, from the page's address."""
    m = re.match(r"(https?://[^/]+)/table/([A-Za-z0-9]+)", page.url)
    assert m, page.url
    r = page.request.get(f"{m.group(1)}/api/tables/{m.group(2)}/view")
    assert r.ok, r.status
    got: dict[str, Any] = r.json()
    return got


def _expected_status(round_no: int, nxt: int | None) -> str:
    """``next``, ``scored`` or ``later`` for a slot, from the view's round scored next."""
    if nxt is None or round_no < nxt:
        return "scored"
    return "next" if round_no == nxt else "later"


def _check_panel(page: Any, state: dict[str, Any]) -> None:
    """The panel draws the three cards of the view ``state`` (``module_views.new_score_cards``):
    in slot order, each card's kinds top to bottom with their names and points, its status."""
    cards = page.locator(f"{PANEL} .nsc-card")
    assert cards.count() == 3 == len(state["cards"])
    for i, slot in enumerate(state["cards"]):
        card = cards.nth(i)
        status = _expected_status(slot["round"], state["next"])
        assert card.get_attribute("data-round") == str(slot["round"]) == str(i + 1)
        assert card.get_attribute("data-status") == status
        assert status in str(card.get_attribute("class")).split()
        rows = card.locator("g.nsc-row")
        assert [rows.nth(j).get_attribute("data-kind") for j in range(rows.count())] == slot["kinds"]
        assert rows.locator(".nsc-kind").all_text_contents() == [k.capitalize() for k in slot["kinds"]]
        shown = rows.locator(".nsc-points").all_text_contents()
        assert shown == [SEP.join(str(p) for p in slot["points"][k]) for k in slot["kinds"]]
        assert all(len(slot["points"][k]) == slot["round"] for k in slot["kinds"])  # round r pays r places
        ordinal = ("1st", "2nd", "3rd")[i]
        svg = card.locator("svg.nsc-card-art")
        label = str(svg.get_attribute("aria-label"))
        assert label.startswith(f"Score card of the {ordinal} scoring (")
        assert f"row 1 {slot['kinds'][0].capitalize()}: {slot['points'][slot['kinds'][0]][0]} point" in label
        assert svg.locator("text").first.text_content() == ordinal  # the slot at the top of the card
        caption = card.locator(".nsc-status").inner_text().strip()
        assert caption == {"next": "Next", "scored": "✓ Scored", "later": ""}[status]
        opacity = float(svg.evaluate("(e) => getComputedStyle(e).opacity"))
        assert (opacity < 0.6) == (status == "scored"), (status, opacity)  # the plug-in's style sheet is loaded
    nxt = page.locator(f"{PANEL} .nsc-card.next")
    assert nxt.count() == (1 if state["next"] else 0)
    if state["next"]:
        assert nxt.get_attribute("aria-current") == "step"
        assert nxt.evaluate("(e) => getComputedStyle(e).boxShadow") != "none"  # highlighted


HOOKS_JS = """async (views) => {
  let plugin = null;
  const art = await import("/static/art.js");
  window.Alhambra = { apiVersion: 1, art, registerModule: (id, p) => { plugin = p; } };
  await import("/modules/new_score_cards/ui/ui.js");
  const panel = (state) => plugin.panel({ id: "new_score_cards", state, art, h: art.h, svg: art.svgEl });
  const out = views.map((state) => {
    const node = panel(state);
    return [...node.querySelectorAll(".nsc-card")].map((li) => ({
      status: li.dataset.status, caption: li.querySelector(".nsc-status").textContent,
      swatches: [...li.querySelectorAll(".nsc-swatch")].map((r) => r.getAttribute("fill")),
    }));
  });
  return { out, none: panel(null), colours: art.KIND_COLORS, hooks: Object.keys(plugin).sort() };
}"""


def _check_hooks(page: Any, url: str, state: dict[str, Any]) -> None:
    """The panel on its own (in the browser) for the states the game did not reach: before the
    last scoring (round 3 next) and after the game (nothing next); no panel without a state."""
    page.goto(url + "/api/health")
    later = {**state, "next": 3}
    over = {**state, "next": None}
    got = page.evaluate(HOOKS_JS, [later, over])
    assert got["none"] is None and got["hooks"] == ["panel", "summary"]
    assert [c["status"] for c in got["out"][0]] == ["scored", "scored", "next"]
    assert [c["caption"] for c in got["out"][0]] == ["✓ Scored", "✓ Scored", "Next"]
    assert [c["status"] for c in got["out"][1]] == ["scored"] * 3
    for slot, card in zip(state["cards"], got["out"][1], strict=True):
        assert card["swatches"] == [got["colours"][k] for k in slot["kinds"]]  # the kinds' colours, top to bottom


class _Person(tb.ClickPlayer):
    """The person's seat, by clicks; checks the first scoring round's breakdown when it pops up."""

    module = MODULE_ID

    def __init__(self, pages: list[Any], rng: random.Random) -> None:
        super().__init__(pages, rng)
        self.rounds: list[dict[str, Any]] = []
        """The scoring rounds seen in the pop-up: per kind the counts and points shown."""

    def done(self) -> bool:
        return bool(self.rounds)

    def look(self, page: Any) -> None:
        """A scoring round's pop-up: read its breakdown (counts and points per kind and seat, Dirk
        last), take a screenshot, close it."""
        modal = page.locator("#round-modal")
        if not modal.count():
            return
        table = modal.locator("table.round-table")
        shown: dict[str, Any] = {"round": int(str(table.get_attribute("data-round")))}
        for row in table.locator("tbody tr[data-kind]").all():
            kind = str(row.get_attribute("data-kind"))
            counts: list[int] = []
            points: list[int] = []
            for cell in row.locator("td").all():
                counts.append(int(cell.locator(".rt-count").inner_text()))
                pts = cell.locator(".rt-points")
                points.append(int(pts.inner_text().lstrip("+")) if pts.count() else 0)
            shown[kind] = (counts, points)
        self.rounds.append(shown)
        if len(self.rounds) == 1:
            self.shot(page, "scoring")
        page.locator("#btn-close-modal").click(timeout=5000)

    def move(self, page: Any) -> None:
        self.look(page)
        super().move(page)

    def turn(self, page: Any) -> None:
        # take money more often than the default, so the first scoring card comes up soon
        self.core_turn(page, end=0.5, buy=0.6)

    def play_to_scoring(self, seconds: float) -> None:
        """Play until the first scoring round was seen (its pop-up also pops up on the bot's turn)."""
        page = self.pages[0]
        deadline = time.monotonic() + seconds
        idle = time.monotonic()
        while not self.done() and time.monotonic() < deadline:
            self.look(page)
            if self.done():
                break
            if tb.phase(page) == "my-turn":
                self.move(page)
                idle = time.monotonic()
            elif tb.phase(page) == "over":
                break
            elif time.monotonic() - idle > 20:
                self.dump(page, "the bot does not move")
                raise AssertionError("nobody moves")
            else:
                page.wait_for_timeout(20)


def test_the_points_indicator_and_the_first_scoring_by_clicks(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (MODULE_ID,), ("Ada",), count=1, bots=("random",), constant_seed=SEED) as pages:
        page = pages[0]
        page.wait_for_selector(f"{PANEL} .nsc-card", timeout=10000)
        msg = _public(page)
        state = msg["view"]["module_views"][MODULE_ID]
        assert state["next"] == 1 and [s["round"] for s in state["cards"]] == [1, 2, 3]
        _check_panel(page, state)
        page.locator(PANEL).screenshot(path=str(tb.ARTIFACTS / f"{MODULE_ID}-panel.png"))

        # a phone: the three cards side by side, nothing behind a sideways scroll
        phone = page.context.browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        tb.watch(phone, problems, "phone ")
        phone.goto(page.url.split("#")[0])  # a spectator's page of the table
        phone.wait_for_selector(f"{PANEL} .nsc-card", timeout=10000)
        _check_panel(phone, state)
        boxes = [phone.locator(f"{PANEL} .nsc-card").nth(i).bounding_box() for i in range(3)]
        assert all(b is not None and b["width"] >= 95 for b in boxes), boxes  # readable, not squeezed
        assert len({round(b["y"]) for b in boxes if b}) == 1  # side by side
        assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        phone.locator(PANEL).screenshot(path=str(tb.ARTIFACTS / f"{MODULE_ID}-phone.png"))
        phone.close()

        person = _Person(pages, random.Random(5))
        person.play_to_scoring(started + PLAY_SECONDS - time.monotonic())
        assert person.rounds, f"no scoring round in {PLAY_SECONDS} s"

        # the first round's breakdown: the card's points for the counts shown, as the event says
        msg = _public(page)
        event = next(e for e in msg["events"] if e["type"] == "RoundScored" and e["round"] == 1)
        shown = person.rounds[0]
        assert shown["round"] == 1
        card = state["cards"][0]
        differs = 0
        assert set(shown) - {"round"} == set(event["counts"]) == set(card["kinds"])
        for kind in card["kinds"]:
            counts, points = shown[kind]
            assert counts == event["counts"][kind], kind
            assert points == majority_awards(counts, card["points"][kind]) == event["kinds"][kind], (kind, counts, points)
            differs += points != majority_awards(counts, SCORING_POINTS[kind][0])
        assert differs >= 1, "this game's first scoring cannot tell the card from the base table"

        # after the first scoring: round 1 faded and marked scored, round 2 next
        page.wait_for_selector(f"{PANEL} .nsc-card[data-round='1'].scored", timeout=10000)
        state = _public(page)["view"]["module_views"][MODULE_ID]
        assert state["next"] == 2
        _check_panel(page, state)
        person.shot(page, "table")

        # the lobby's module picker lists the module with its description
        page.goto(page.url.split("/table/")[0] + "/")
        entry = page.locator(f".module[data-module='{MODULE_ID}']")
        entry.wait_for(timeout=10000)
        text = entry.inner_text()  # the name and the one-line summary show; the description folds out under "More"
        assert "New score cards" in text and "Three score cards rank the building kinds" in text, text
        assert "Three of eighteen score cards" in (entry.text_content() or "")
        _check_hooks(page, page.url.rstrip("/"), state)
    print("seen:", person.seen, "rounds:", len(person.rounds), f"in {time.monotonic() - started:.1f} s")
    person.check_shots()
    assert problems == [], problems
