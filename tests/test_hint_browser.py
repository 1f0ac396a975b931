"""What a hint shows on the table, for every kind of move it can suggest (Playwright, Debian's
Chromium).

The hint's answer is given by the test (the page's request to ``/hint`` is answered with a
chosen legal move), so each kind of move is checked, not only what the bot happens to like:
taking money, buying (the square and the payment chosen), building, removing and exchanging
from the reserve, placing a bought tile on a spot or on the reserve board, placing a
*different* waiting tile than the one selected, turning a tile over (Granada), a module's
move (waking the vizier), a module's move offered on a market square (the vizier's purchase
between turns: the square, its payment and its button), passing between turns and ending a
turn (a position where it is legal, stored for the server to load). Each time the board itself must show the move:
the tile it needs is selected and the spot, the target or the button of exactly that move is
marked, never only the sentence. The positions come from a game played through the API.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from alhambra import testing_browser as tb
from alhambra.engine import legal_actions
from alhambra.serialize import state_from_json, state_to_json

from .server_helpers import ServerProcess, auth, client, create

pytestmark = tb.needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("hint") / "db.sqlite3", seed=5) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with tb.chromium() as b:
        yield b


class HintedTable:
    """A page of the seat to act at a table that allows hints, whose hint requests are answered
    with the move the test chooses (:meth:`hint`)."""

    def __init__(self, server: ServerProcess, browser: Any, table_id: str, token: str) -> None:
        self.action = ""
        self.problems: list[str] = []
        self.page = browser.new_page(viewport={"width": 1400, "height": 1000})
        tb.watch(self.page, self.problems)
        self.page.route(re.compile(r".*/api/tables/[^/]+/hint\?.*"), self._answer)
        self.page.goto(f"{server.url}/table/{table_id}#seat={token}")
        self.page.wait_for_selector("body[data-phase='my-turn']", timeout=15000)

    def _answer(self, route: Any) -> None:
        version = int(parse_qs(urlparse(route.request.url).query)["version"][0])
        body = {"version": version, "action": self.action, "text": "You make the suggested move", "bot": "test"}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    def hint(self, action: str) -> None:
        """Ask for a hint answered with ``action`` and wait until the table shows it."""
        self.action = action
        self.page.locator("#btn-hint").click(timeout=5000)
        self.page.wait_for_selector("body[data-hint='shown']", timeout=10000)
        assert self.page.locator("#hint-text").inner_text() == "Hint: You make the suggested move."

    def marked(self, selector: str) -> int:
        """How many elements of ``selector`` the hint marks."""
        return int(self.page.locator(f"{selector}.hint-target").count())

    def marked_move(self, selector: str) -> list[str]:
        """The moves (data-action) of the marked elements of ``selector``."""
        return [str(a) for a in self.page.locator(f"{selector}.hint-target").evaluate_all("(els) => els.map((e) => e.dataset.action)")]

    def close(self) -> None:
        assert not self.problems, self.problems
        self.page.close()


def table_at(
    server: ServerProcess,
    until: Callable[[int, dict[str, Any]], bool],
    rng: random.Random,
    modules: tuple[str, ...] = (),
    buy: str = "buy ",
    game: str = "alhambra",
) -> tuple[str, str, list[str]]:
    """A 2-person table of ``game`` that allows hints, with ``modules``, played through the API
    (choosing the moves starting with ``buy`` whenever possible) until ``until(seat, message)``:
    the table id, the token of the seat to act, its legal moves."""
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
    body = {"seats": seats, "hints": True, "modules": list(modules), "game": game}
    # The server deals each table from its seeded sequence, which depends on the tables the other
    # tests (on this worker) made before: a deal that ends before the wanted situation is replaced
    # by another table.
    for attempt in range(TABLES):
        r = server.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        tokens = [s["token"] for s in r.json()["seats"]]
        for tok in tokens:
            assert server.http.post(f"/api/tables/{tid}/join", json={}, headers={"Authorization": f"Bearer {tok}"}).status_code == 200
        try:
            msg = tb.play_until(server.http, tid, tokens, until, rng, prefer=lambda seat, legal: [a for a in legal if a.startswith(buy)])
        except AssertionError:
            if attempt == TABLES - 1:
                raise
            continue
        return tid, tokens[msg["view"]["to_act"]], list(msg["view"]["legal_actions"])
    raise AssertionError("unreachable")


TABLES = 5
"""Deals :func:`table_at` tries before it gives up."""


def first(legal: list[str], prefix: str) -> str:
    """The first of the moves ``legal`` that starts with ``prefix``."""
    return next(a for a in legal if a.startswith(prefix))


REDESIGN_AND_MONEY = ("take ", "buy ", "redesign build ", "redesign remove ", "redesign exchange ")


def test_every_kind_of_turn_action_hinted_shows_on_the_board(server: ServerProcess, browser: Any) -> None:
    def until(seat: int, msg: dict[str, Any]) -> bool:
        return all(any(a.startswith(k) for a in msg["view"]["legal_actions"]) for k in REDESIGN_AND_MONEY)

    tid, token, legal = table_at(server, until, random.Random(1))
    t = HintedTable(server, browser, tid, token)
    page = t.page

    take = max((a for a in legal if a.startswith("take ")), key=lambda a: a.count("+"))
    t.hint(take)
    for code in take.split()[1].split("+"):
        assert t.marked(f".display-card.selected[data-code='{code}']"), f"{code} of {take} is not picked and marked"
    assert t.marked_move("#btn-take") == [take]

    buy = first(legal, "buy ")
    square = buy.split()[1]
    t.hint(buy)
    assert t.marked(f".market-square.selected[data-square='{square}']") == 1
    assert t.marked_move(".pay-option") == [buy], "the payment of the hint is not marked"
    assert t.marked_move("#btn-buy") == [buy], "the payment of the hint is not chosen"
    assert page.locator(".hand-card.selected").count() == len(buy.split()[2].split("+"))

    build = first(legal, "redesign build ")
    tile = build.split()[2]
    t.hint(build)
    assert t.marked(f".reserve-tile.selected[data-tile='{tile}']") == 1
    assert t.marked_move(".city.mine .spot") == [build], "the spot of the hinted redesign is not marked"

    exchange = first(legal, "redesign exchange ")
    t.hint(exchange)
    assert t.marked(f".reserve-tile.selected[data-tile='{exchange.split()[2]}']") == 1
    assert t.marked_move(".city.mine .exchange-target") == [exchange]
    assert t.marked(".city.mine .spot") == 0

    remove = first(legal, "redesign remove ")
    t.hint(remove)
    assert t.marked(f".city.mine g[data-tile='{remove.split()[2]}']") == 1
    assert t.marked_move("#btn-remove") == [remove]
    t.close()


def test_a_hinted_placement_selects_its_tile_and_marks_its_spot(server: ServerProcess, browser: Any) -> None:
    """At the end of the game three awarded tiles wait: the hint places another one than the
    one selected (its spot, not the same place of the selected tile), then one on the reserve."""

    def until(seat: int, msg: dict[str, Any]) -> bool:
        pending = msg["view"]["pending"]
        return bool(pending["type"] == "PlaceTiles" and len(set(pending["tiles"])) >= 2)

    tid, token, legal = table_at(server, until, random.Random(1))
    t = HintedTable(server, browser, tid, token)
    page = t.page
    selected = str(page.locator(".waiting-tile.selected").get_attribute("data-tile"))
    other = next(a for a in legal if a.startswith("place ") and a.split()[1] != selected and not a.endswith((" reserve", " neutral")))
    tile = other.split()[1]
    t.hint(other)
    assert t.marked(f".waiting-tile.selected[data-tile='{tile}']") == 1, f"{tile} is not the selected waiting tile"
    assert page.locator(".waiting-tile.selected").count() == 1
    assert t.marked_move(".city.mine .spot") == [other]

    # after clearing the selection, a hint to the reserve board selects the tile again
    page.locator("#btn-clear").click(timeout=5000)
    assert page.locator(".city.mine .spot").count() == 0
    reserve = f"place {selected} reserve"
    assert reserve in legal
    t.hint(reserve)
    assert t.marked(f".waiting-tile.selected[data-tile='{selected}']") == 1
    assert t.marked_move("#btn-reserve") == [reserve]
    assert t.marked(".city.mine .spot") == 0
    t.close()


def test_a_hinted_module_move_marks_its_control(server: ServerProcess, browser: Any) -> None:
    """A module's move is marked by its own control (data-action), else by its module's
    controls: waking the vizier."""

    def until(seat: int, msg: dict[str, Any]) -> bool:
        return "vizier wake" in msg["view"]["legal_actions"]

    tid, token, _ = table_at(server, until, random.Random(2), ("vizier",), buy="vizier buy ")
    t = HintedTable(server, browser, tid, token)
    t.page.locator(".display-card.takeable").first.click(timeout=5000)  # something else selected
    assert t.page.locator(".display-card.selected").count() == 1
    t.hint("vizier wake")
    assert t.marked(".module-controls[data-module='vizier']") == 1
    assert t.page.locator(".display-card.selected").count() == 0, "the cards picked before the hint are still picked"
    t.close()


def test_a_hinted_thief_marks_the_card_it_steals_and_its_button(server: ServerProcess, browser: Any) -> None:
    """Between turns with a thief in hand: a hinted steal marks the face-up card it takes (the
    card the thieves' plug-in offers) and the steal button, not the other cards."""

    def steal(seat: int, msg: dict[str, Any]) -> bool:
        return any(a.startswith("thief ") for a in msg["view"]["legal_actions"])

    tid, token, legal = table_at(server, steal, random.Random(6), ("thieves",), buy="take ")
    t = HintedTable(server, browser, tid, token)
    move = first(legal, "thief ")
    code = move.split()[1]
    t.hint(move)
    slots = t.page.eval_on_selector_all(".display-card.hint-target", "(els) => els.map((e) => [e.dataset.code, e.dataset.module])")
    assert slots and all(c == code and m == "thieves" for c, m in slots), slots
    assert t.marked_move(".thief-steal") == [move]
    t.hint("pass")
    assert t.marked(".display-card") == 0
    t.close()


def test_a_hinted_vizier_purchase_marks_its_square_and_pass_its_button(server: ServerProcess, browser: Any) -> None:
    """Between turns with the vizier awake: a hinted out-of-turn purchase picks and marks its
    market square, its payment and the "Use vizier" button (not the vizier's panel); a hinted
    pass marks Pass and clears that selection."""

    def offer(seat: int, msg: dict[str, Any]) -> bool:
        legal = msg["view"]["legal_actions"]
        return "pass" in legal and sum(a.startswith("vizier buy ") for a in legal) >= 2

    tid, token, legal = table_at(server, offer, random.Random(4), ("vizier",), buy="take ")
    t = HintedTable(server, browser, tid, token)
    page = t.page
    buys = [a for a in legal if a.startswith("vizier buy ")]
    buy = buys[-1]  # not the first way to pay: the payment must be the hinted one
    square = buy.split()[2]
    t.hint(buy)
    assert t.marked(f".market-square.selected[data-module='vizier'][data-square='{square}']") == 1
    assert t.marked(".market-square") == 1
    assert t.marked_move(".pay-option") == [buy], "the payment of the hint is not marked"
    assert t.marked_move("#btn-buy") == [buy], "the payment of the hint is not chosen"
    assert page.locator("#btn-buy").inner_text() == "Use vizier"
    assert page.locator(".hand-card.selected").count() == len(buy.split()[3].split("+"))
    assert t.marked(".module-controls") == 0, "the vizier's panel is marked instead of its square"

    t.hint("pass")
    assert t.marked_move("#btn-pass") == ["pass"]
    assert page.locator(".market-square.selected").count() == 0, "the purchase picked before is still picked"
    assert t.marked(".market-square") == 0
    t.close()


def test_a_hinted_end_of_turn_marks_end_turn(tmp_path: Path, browser: Any) -> None:
    """End turn is legal only when a player has no move at all (engine ``_stuck``), which play
    through the API does not reach: the stored position of a new table is made so (the seat to
    act holds no card, every other money card is in the other hand, the display and the deck are
    empty, the Alhambra is only the fountain) before a server loads it."""
    db = tmp_path / "db.sqlite3"
    with client(db) as c:
        data = create(c, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}], hints=True)
        tid, tokens = data["table"]["id"], [s["token"] for s in data["seats"]]
        for tok in tokens:
            assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
    with sqlite3.connect(db) as conn:
        (raw,) = conn.execute("SELECT snapshot_json FROM game_tables WHERE id = ?", (tid,)).fetchone()
        state = state_from_json(json.loads(raw))
        me, other = state.players[state.current], state.players[1 - state.current]
        other.hand += me.hand + [c for c in state.display if c >= 0] + state.deck
        me.hand, state.display, state.deck = [], [-1] * len(state.display), []
        assert [str(a) for a in legal_actions(state)] == ["end"]
        conn.execute("UPDATE game_tables SET snapshot_json = ? WHERE id = ?", (json.dumps(state_to_json(state)), tid))
    with ServerProcess(db) as srv:
        t = HintedTable(srv, browser, tid, tokens[state.current])
        assert t.page.locator("#btn-end").count() == 1
        t.hint("end")
        assert t.marked_move("#btn-end") == ["end"]
        t.close()


def test_a_hinted_turn_over_shows_on_the_board(server: ServerProcess, browser: Any) -> None:
    """Granada: turning a waiting tile over selects the tile and marks Turn over and the cards
    to pay with (after the selection was cleared)."""

    def can_turn(seat: int, msg: dict[str, Any]) -> bool:
        return any(a.startswith("turn ") for a in msg["view"]["legal_actions"])

    tid, token, legal = table_at(server, can_turn, random.Random(3), game="granada")
    t = HintedTable(server, browser, tid, token)
    t.page.locator("#btn-clear").click(timeout=5000)
    turn = first(legal, "turn ")
    tile, cards = turn.split()[1], turn.split()[2].split("+")
    t.hint(turn)
    assert t.marked(f".waiting-tile.selected[data-tile='{tile}']") == 1
    assert t.marked("#btn-turn") == 1
    for code in cards:
        assert t.marked(f".hand-card[data-code='{code}']"), f"{code} of {turn} is not marked"
    t.close()


def _stuck_in_reserve(seat: int, msg: dict[str, Any]) -> str | None:
    """A reserve tile of the seat to act that no move can build or exchange, on a turn where it
    may redesign (a turn action is open)."""
    legal = msg["view"]["legal_actions"]
    if not any(a.startswith("take ") for a in legal):
        return None
    me = next(s for s in msg["view"]["seats"] if s["seat"] == seat)
    usable = {a.split()[2] for a in legal if a.startswith(("redesign build ", "redesign exchange "))}
    return next((t for t in me["reserve"] if t not in usable), None)


def _refilled_last_turn(msg: dict[str, Any]) -> bool:
    """The turn before (or this one) refilled a market square: the table tags it "new"."""
    events = msg["events"]
    starts = [i for i, e in enumerate(events) if e["type"] == "TurnStarted"]
    return any(e["type"] == "MarketRefilled" and e["squares"] for e in events[starts[-2] if len(starts) >= 2 else 0 :])


NEW_TAGS = """() => [...document.querySelectorAll('.market-square.recent')].map((sq) => {
  const r = sq.getBoundingClientRect(), cs = getComputedStyle(sq), a = getComputedStyle(sq, '::after');
  const m = new DOMMatrix(a.transform === 'none' ? undefined : a.transform);
  const sum = (keys) => (a.boxSizing === 'border-box' ? 0 : keys.reduce((n, k) => n + parseFloat(a[k]), 0));
  const tag = {
    x: r.left + parseFloat(cs.borderLeftWidth) + parseFloat(a.left) + m.e,
    y: r.top + parseFloat(cs.borderTopWidth) + parseFloat(a.top) + m.f,
    width: parseFloat(a.width) + sum(['paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth']),
    height: parseFloat(a.height) + sum(['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth']),
  };
  const b = sq.querySelector('.cur-band').getBoundingClientRect();
  return { content: a.content, tag, band: { x: b.left, y: b.top, width: b.width, height: b.height } };
})"""
"""Each "new" market square: its tag's box (the ``::after``, from its computed position) and
its currency band's."""


def test_a_reserve_tile_with_no_place_says_why(tmp_path: Path, browser: Any) -> None:
    """Issue 28: a reserve tile that cannot be built anywhere is not silently unclickable: it
    says why (its label, and a notice when clicked); and the "new" tag of a refilled market
    square leaves its currency band readable. The deal is fixed (game seed 8) and the moves are
    steered (buy when possible, else often put a bought tile on the reserve board): the
    situation comes after 43 actions."""
    rng = random.Random(4)

    def steer(seat: int, legal: list[str]) -> list[str]:
        buys = [a for a in legal if a.startswith("buy ")]
        if buys:
            return buys
        reserve = [a for a in legal if a.startswith("place ") and a.endswith(" reserve")]
        return reserve if reserve and rng.random() < 0.6 else []

    with ServerProcess(tmp_path / "db.sqlite3", constant_seed=8) as srv:
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
        r = srv.http.post("/api/tables", json={"seats": seats})
        tid, tokens = r.json()["table"]["id"], [s["token"] for s in r.json()["seats"]]
        for tok in tokens:
            assert srv.http.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
        msg = tb.play_until(
            srv.http, tid, tokens, lambda seat, m: _stuck_in_reserve(seat, m) is not None and _refilled_last_turn(m), rng, prefer=steer
        )
        tile = _stuck_in_reserve(msg["view"]["to_act"], msg)
        problems: list[str] = []
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        tb.watch(page, problems)
        page.goto(f"{srv.url}/table/{tid}#seat={tokens[msg['view']['to_act']]}")
        page.wait_for_selector("body[data-phase='my-turn']", timeout=15000)
        stuck = page.locator(f".city.mine .reserve-tile.blocked[data-tile='{tile}']")
        label = stuck.get_attribute("aria-label")
        assert label is not None and "cannot be built now" in label and "no free place" in label, label
        assert stuck.get_attribute("aria-disabled") == "true"
        assert stuck.is_visible()
        stuck.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled; a person just clicks
        assert page.locator(".toast").inner_text() == label
        assert page.locator(".reserve-tile.selected").count() == 0  # nothing to build was chosen
        tags = page.evaluate(NEW_TAGS)
        assert tags, "no market square is tagged new after a refill"
        for t in tags:
            assert t["content"] == '"new"' and t["tag"]["height"] > 5, t
            assert not _overlap(t["tag"], t["band"]), f"the new tag covers the currency: {t}"
        page.close()
    assert problems == []


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
    )
