"""The Vizier's favour played by clicks in Debian's Chromium (Playwright), against a second
person seat played through the API: the badge on every player shows whose vizier is awake; the
offer between turns is taken by clicking a highlighted market square and picking the cards in
the hand ("Use vizier"), never a notation button; the badge then says asleep, and "Wake the
vizier" wakes it on the seat's turn. The console stays clean. Screenshots:
artifacts/screenshots/vizier-*.png."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS

pytestmark = tb.needs_chromium

RAW = re.compile(r"\bvizier (buy|pass|wake)\b|\b[bgoy]\d+\b|\b[PSACGT]\d+[nesw]*\b")
"""Notation: the vizier's actions, card and tile codes."""


def _no_vizier(seat: int, legal: list[str]) -> list[str]:
    """Moves played through the API leave the vizier alone (the browser uses it)."""
    return [a for a in legal if not a.startswith("vizier")]


def _badge(page: Any, seat: int) -> str:
    return str(page.locator(f".score-track li[data-seat='{seat}'] .seat-badge[data-module='vizier']").inner_text()).strip()


def test_the_vizier_is_used_and_woken_by_clicks(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "db.sqlite3", problems, seed=4) as (server, page):
        tid, tokens = tb.joined_table(server.http, ["Ann", "Ben"], ["vizier"])
        rng = random.Random(4)
        offer = tb.play_until(
            server.http,
            tid,
            tokens,
            lambda seat, m: seat == 0 and any(a.startswith("vizier buy") for a in m["view"]["legal_actions"]),
            rng,
            _no_vizier,
        )
        buy = next(a for a in offer["view"]["legal_actions"] if a.startswith("vizier buy"))
        square, cards = int(buy.split()[2]), buy.split()[3].split("+")
        page.goto(f"{server.url}/table/{tid}#seat={tokens[0]}")
        tb.wait_my_turn(page)
        # whose vizier is awake: a badge on the score track and on every Alhambra
        assert _badge(page, 0) == "Vizier awake"
        assert page.locator(".city .seat-badge[data-module='vizier']").count() == 2
        assert page.locator(".vizier-offer").count() == 1
        tb.check_buttons(page, RAW)
        page.screenshot(path=str(ARTIFACTS / "vizier-offer.png"), full_page=True)
        # a tile you click, the cards you pick
        tb.click(page, f".market-square.affordable[data-module='vizier'][data-square='{square}']", "vizier-failure")
        if not page.locator("#btn-buy").count():  # the only way to pay is picked already
            for code in cards:
                page.locator(f".hand-card[data-code='{code}'][aria-pressed='false']").first.click(timeout=5000)
        assert page.locator("#btn-buy").inner_text() == "Use vizier"
        tb.check_buttons(page, RAW)
        page.screenshot(path=str(ARTIFACTS / "vizier-payment.png"), full_page=True)
        tb.act(page, "#btn-buy", "vizier-failure")
        page.wait_for_selector(".score-track li[data-seat='0'] .vizier-asleep")
        assert _badge(page, 0) == "Vizier asleep"
        log = page.locator(".log-list").inner_text()
        # the square by its currency, as everywhere else on the table (issue 28), never its number
        assert re.search(r"uses the vizier: buys .+ from the (denar|dirham|ducat|florin) square for", log), log
        assert not re.search(r"\bsquare \d", log), log
        # asleep: on the seat's turn, a button wakes it (the turn's action)
        asleep = lambda seat, m: seat == 0 and "vizier wake" in m["view"]["legal_actions"]  # noqa: E731
        tb.play_until(server.http, tid, tokens, asleep, rng, _no_vizier)
        tb.wait_my_turn(page)
        page.wait_for_selector("#btn-vizier-wake")
        tb.check_buttons(page, RAW)
        tb.act(page, "#btn-vizier-wake", "vizier-failure")
        page.wait_for_selector(".score-track li[data-seat='0'] .vizier-awake")
        assert _badge(page, 0) == "Vizier awake"
        log = page.locator(".log-list").inner_text()
        assert "Ann wakes the vizier" in log
        assert not re.search(r"\bvizier (buy|pass|wake)\b", log)
        assert not problems, problems
