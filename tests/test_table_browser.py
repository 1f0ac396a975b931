"""The browser table after a playtest (Chromium through Playwright): the end screen opens at its
top with "Play again" and "Back to the lobby", and the rematch seats the same players and bots;
with seven modules at 1280 x 800 the log has a pane of its own and a tall decision panel never
pushes the Alhambra out of its panel; the lobby offers no variant of a module the chosen game
cannot have and names the bot levels in full. Screenshots of the end screen, the rematch and
the log go to docs/images with ``ALHAMBRA_DOC_IMAGES=1``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

from .server_helpers import auth, play_random

pytestmark = tb.needs_chromium

SEVEN = ["vizier", "currency_exchange", "treasure_chamber", "thieves", "bazaars", "invaders", "diamonds"]


def _inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 1
        and inner["y"] >= outer["y"] - 1
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    )


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
    )


def test_the_end_screen_opens_at_its_top_and_plays_again(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "end.sqlite3", problems, seed=21) as (server, page):
        r = server.http.post(
            "/api/tables", json={"seats": [{"kind": "person", "name": "Ada"}, {"kind": "bot", "bot": "random"}], "modules": SEVEN[:4]}
        )
        assert r.status_code == 201, r.text
        tid, tok = r.json()["table"]["id"], r.json()["seats"][0]["token"]
        # the game is played through the API (quickly), then the page opens on its end
        assert server.http.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
        play_random(server.http, tid, [tok, None], random.Random(2))
        page.goto(f"{server.url}/table/{tid}#seat={tok}")
        page.wait_for_selector("#summary-modal #btn-rematch", timeout=20_000)
        modal = page.locator("#summary-modal")
        # opened at its top: the title, the winner and the ranking's head are in sight
        assert modal.evaluate("m => m.scrollTop") == 0
        box = modal.bounding_box()
        for sel in ("#modal-title", ".winner", ".ranking li >> nth=0"):
            b = page.locator(f"#summary-modal {sel}").bounding_box()
            assert b["y"] >= box["y"] - 1 and b["y"] + b["height"] <= box["y"] + box["height"], sel
        # and its buttons stay in sight at its bottom
        assert _inside(page.locator("#btn-rematch").bounding_box(), box)
        # Dirk is ranked by his points among the players
        points = [int(t.rsplit("—", 1)[1].split()[0]) for t in page.locator("#summary-modal .ranking li").all_inner_texts()]
        assert points == sorted(points, reverse=True) and len(points) == 3
        assert page.locator("#summary-modal #btn-lobby").get_attribute("href") == "/"
        assert page.locator("#btn-rematch").inner_text() == "Play again"
        page.screenshot(path=str(tb.doc_image("table-end-screen.png")))
        tb.click(page, "#btn-rematch")
        page.wait_for_url(lambda url: f"/table/{tid}" not in url and "#seat=" in url, timeout=15_000)
        page.wait_for_selector("body[data-phase='my-turn'], body[data-phase='their-turn']")
        new = page.url.split("/table/")[1].split("#")[0]
        info = server.http.get(f"/api/tables/{new}").json()
        assert [(s["kind"], s["name"]) for s in info["seats"]] == [("person", "Ada"), ("bot", "Beginner bot")]
        assert info["modules"] == sorted(SEVEN[:4]) or set(info["modules"]) == set(SEVEN[:4])
        assert page.locator(".city[data-seat]").count() == 2 and page.locator(".badge").first.inner_text() == "You: Ada"
        page.screenshot(path=str(tb.doc_image("table-rematch.png")))
        # the old table's end screen now offers to join the rematch
        page.goto(f"{server.url}/table/{tid}#seat={tok}")
        page.wait_for_selector("#summary-modal #btn-rematch:not([data-rematch=''])")
        assert page.locator("#summary-modal #btn-rematch").inner_text() == "Join the rematch"
    assert problems == []


def test_seven_modules_at_1280_px_the_log_has_its_pane_and_the_board_stays_in_its_panel(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "seven.sqlite3", problems, seed=9, bot_delay=0.05) as (server, page):
        seats = [{"kind": "person", "name": "Ada"}] + [{"kind": "bot", "bot": "random"}] * 3
        r = server.http.post("/api/tables", json={"seats": seats, "modules": SEVEN})
        assert r.status_code == 201, r.text
        tid, tok = r.json()["table"]["id"], r.json()["seats"][0]["token"]
        page.goto(f"{server.url}/table/{tid}#seat={tok}")
        tb.click(page, "#btn-join")
        page.wait_for_selector(".module-panel")
        # a few turns, so that the log has something of the bots
        end = 40
        while server.http.get(f"/api/tables/{tid}/view").json()["view"]["turn"] < 3 and end:
            msg = server.http.get(f"/api/tables/{tid}/view", headers=auth(tok)).json()
            if msg["view"]["to_act"] == 0 and msg["view"]["legal_actions"]:
                legal = [a for a in msg["view"]["legal_actions"] if not a.startswith("redesign")]
                server.http.post(
                    f"/api/tables/{tid}/actions",
                    json={"action": random.Random(end).choice(legal), "version": msg["version"]},
                    headers=auth(tok),
                )
                end -= 1
            page.wait_for_timeout(100)
        page.wait_for_selector(".log-list li.turn-head >> nth=2")
        # measured on Ada's turn: the bots wait for her, so the page stops re-rendering
        page.wait_for_selector('body[data-phase="my-turn"]', timeout=20000)
        # the log has its own pane in the first screen, however many module panels there are
        log = tb.box(page, ".col-right .log")
        assert log["y"] + 150 <= 800 and log["height"] >= 150, log
        assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
        panels = page.locator(".col-right-panels")
        assert panels.evaluate("e => e.scrollHeight > e.clientHeight"), "seven panels fit without scrolling?"
        assert _inside(page.locator(".col-right-panels").bounding_box(), page.locator(".col-right").bounding_box())
        page.screenshot(path=str(tb.doc_image("table-log.png")))
        # a tall decision panel (Granada's turn-over offer, a treasure room's payment): the panel
        # scrolls inside, the Alhambra stays in its own panel with readable tiles
        page.evaluate(
            """() => { const s = new CSSStyleSheet();
              s.replaceSync("#action-panel::after { content: ''; display: block; height: 900px; }");
              document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }"""
        )
        page.wait_for_timeout(50)
        mine = page.locator(".city.mine").bounding_box()
        svg = page.locator(".city.mine .city-svg").bounding_box()
        assert _inside(svg, mine), (svg, mine)
        assert svg["height"] >= 200, svg
        for other in page.locator(".city:not(.mine)").all():
            assert not _overlap(svg, other.bounding_box())
        assert not _overlap(mine, page.locator("#action-panel").bounding_box())
        # no confirmation of this table ever reads "null"
        assert "null" not in page.locator("#app").inner_text()
        # every Alhambra at a glance: one dialog, each board fitted whole and large
        tb.click(page, "#btn-boards")
        page.wait_for_selector("#boards-modal")
        boards = page.locator("#boards-modal .overview-board[data-seat]")
        assert boards.count() == 4
        for b in boards.all():
            box = b.locator(".overview-svg").bounding_box()
            assert box["height"] >= 200 and box["width"] >= 250, box
        page.keyboard.press("Escape")
        page.wait_for_selector("#boards-modal", state="detached")
    assert problems == []


def test_the_lobby_offers_only_what_the_game_can_have(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "lobby.sqlite3", problems) as (server, page):
        page.goto(server.url + "/")
        page.wait_for_selector(".module[data-module='invaders'] [data-option]")
        options = page.locator(".module[data-module='invaders'] [data-option]")
        assert all(o.is_enabled() for o in options.all())
        page.locator("#game-choice").select_option("granada")
        assert all(o.is_disabled() for o in options.all()), "the invaders' variant stays enabled in Granada"
        page.locator("#game-choice").select_option("alhambra")
        assert all(o.is_enabled() for o in options.all())
        # the bot levels by their full names (what each one means is the tooltip)
        bots = server.http.get("/api/bots").json()
        texts = page.locator(".seat-row >> nth=1").locator(".seat-bot option").all_inner_texts()
        assert texts == [b["label"] for b in bots]
        assert page.locator(".seat-row >> nth=1").locator(".seat-bot").get_attribute("title").startswith("Easy")
    assert problems == []


def _take_a_card(page: Any) -> None:
    """Take a face-up card on my turn (the first takeable one), confirming when asked."""
    page.wait_for_selector("body[data-phase='my-turn'] .display-card.takeable", timeout=20_000)
    before = tb.version(page)
    page.locator(".display-card.takeable").first.click(timeout=5000)
    page.locator("#btn-take").click(timeout=5000)
    tb.wait_moved(page, before)


def test_what_arrives_moves_in_briefly_and_never_under_reduced_motion(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "motion.sqlite3", problems, seed=4, bot_delay=2.0) as (server, page):
        seats = [{"kind": "person", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
        r = server.http.post("/api/tables", json={"seats": seats})
        tid, tok = r.json()["table"]["id"], r.json()["seats"][0]["token"]
        assert server.http.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
        page.goto(f"{server.url}/table/{tid}#seat={tok}")
        page.wait_for_selector("body[data-phase]")
        assert page.locator(".arrive").count() == 0  # nothing moves on load
        _take_a_card(page)
        # the card taken moves into the hand (or the refilled money into the display), once
        page.wait_for_selector(".card-art.arrive", timeout=10_000)
        names = page.evaluate("[...document.querySelectorAll('.arrive')].map(e => getComputedStyle(e).animationName)")
        assert "arrive" in names, names
        assert page.evaluate("getComputedStyle(document.querySelector('.card-art.arrive')).animationDuration") == "0.35s"
        # a click ends the motion at once
        page.mouse.click(5, 795)
        assert page.evaluate("document.getAnimations().filter(a => a.animationName === 'arrive' && a.playState === 'running').length") == 0
        # under prefers-reduced-motion nothing moves
        page.emulate_media(reduced_motion="reduce")
        page.reload()
        page.wait_for_selector("body[data-phase]")
        _take_a_card(page)
        page.wait_for_timeout(200)
        assert page.evaluate("document.getAnimations().length") == 0
        assert page.locator(".arrive").count() == 0
    assert problems == []
