"""Exchange cards played by clicks in Debian's Chromium (Playwright), against a second person
seat played through the API: an exchange card face up is drawn with its art (two coins, two
currency names, no code) and taken by clicking it; in the hand it is drawn the same and is
picked, like money, to pay for a market tile in either of its currencies. No button and no log
line shows a card code; the console stays clean. Screenshots:
artifacts/screenshots/currency_exchange-*.png."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb
from alhambra.testing_browser import ARTIFACTS

pytestmark = tb.needs_chromium

EXCHANGE = re.compile(r"\bx[bgoy]{2}\b")
"""An exchange card's code: never shown to the player."""
FAILURE = "currency_exchange-failure"


def _keep_exchange_cards(seat: int, legal: list[str]) -> list[str]:
    """Moves played through the API: the first seat takes exchange cards when it can and never
    spends them (the browser does)."""
    if seat != 0:
        return legal
    takes = [a for a in legal if a.startswith("take ") and EXCHANGE.search(a)]
    return takes or [a for a in legal if not EXCHANGE.search(a)]


def test_exchange_cards_are_taken_and_spent_by_clicks(tmp_path: Path) -> None:
    problems: list[str] = []
    with tb.served_page(tmp_path / "db.sqlite3", problems, seed=7) as (server, page):
        tid, tokens = tb.joined_table(server.http, ["Ann", "Ben"], ["currency_exchange"])
        rng = random.Random(7)

        def can_take(seat: int, m: dict[str, Any]) -> bool:
            return seat == 0 and any(a.startswith("take ") and EXCHANGE.search(a) for a in m["view"]["legal_actions"])

        msg = tb.play_until(server.http, tid, tokens, can_take, rng, _keep_exchange_cards)
        card = next(EXCHANGE.findall(a)[0] for a in msg["view"]["legal_actions"] if a.startswith("take ") and EXCHANGE.search(a))
        page.goto(f"{server.url}/table/{tid}#seat={tokens[0]}")
        tb.wait_my_turn(page, msg["version"])
        face_up = page.locator(f".display-card[data-code='{card}']")
        assert face_up.locator(".exchange-card").count() == 1  # its own art, not a blank card
        label = str(face_up.get_attribute("aria-label"))
        assert "exchange card" in label and "⇄" in label and not EXCHANGE.search(label), label
        face_up.click(timeout=5000)
        page.screenshot(path=str(ARTIFACTS / "currency_exchange-take.png"), full_page=True)
        tb.act(page, "#btn-take", FAILURE)
        held = page.locator(f".hand-card[data-code='{card}']")
        held.first.wait_for()
        assert held.first.locator(".exchange-card").count() == 1
        assert not EXCHANGE.search(str(held.first.get_attribute("aria-label")))

        def can_spend(seat: int, m: dict[str, Any]) -> bool:
            return seat == 0 and any(a.startswith("buy ") and card in a.split()[2].split("+") for a in m["view"]["legal_actions"])

        msg = tb.play_until(server.http, tid, tokens, can_spend, rng, _keep_exchange_cards)
        buy = next(a for a in msg["view"]["legal_actions"] if a.startswith("buy ") and card in a.split()[2].split("+"))
        square, cards = int(buy.split()[1]), buy.split()[2].split("+")
        tb.wait_my_turn(page, msg["version"])
        tb.click(page, f".market-square[data-square='{square}']", FAILURE)
        # pick the payment in the hand, the exchange card among it (unless it is the only way to pay)
        if page.locator(".hand-card.selected").count():
            tb.click(page, "#btn-clear", FAILURE)
            tb.click(page, f".market-square[data-square='{square}']", FAILURE)
            for code in cards:
                if page.locator(f".hand-card[data-code='{code}'][aria-pressed='true']").count() < cards.count(code):
                    page.locator(f".hand-card[data-code='{code}'][aria-pressed='false']").first.click(timeout=5000)
        else:
            for code in cards:
                page.locator(f".hand-card[data-code='{code}'][aria-pressed='false']").first.click(timeout=5000)
        assert page.locator(f".hand-card[data-code='{card}'][aria-pressed='true']").count() == 1
        page.screenshot(path=str(ARTIFACTS / "currency_exchange-payment.png"), full_page=True)
        tb.check_buttons(page, EXCHANGE)
        tb.act(page, "#btn-buy", FAILURE)
        assert page.locator(f".hand-card[data-code='{card}']").count() == 0  # spent
        log = page.locator(".log-list").inner_text()
        assert "exchange card" in log
        assert not EXCHANGE.search(log), "the log names an exchange card by its code"
        assert not problems, problems
