"""Playing a 2-player table with change (and the exchange certificates) by clicks, both seats,
for the browser tests of both modules: :class:`Player` makes the move of the page whose turn it
is, like a person would, and counts the modules' controls it used (``seen``); the table is set
up with :func:`alhambra.testing_browser.open_table`. Needs Playwright pages (typed ``Any``)."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from alhambra import testing_browser as tb

CHANGE = ".module-panel[data-module='change']"
CERTS = ".module-panel[data-module='exchange_certificates']"
RAW = re.compile(r"\bcertificate (store|decline)\b|\bc[bgoyr]\b")
"""The modules' notation and tokens, which must never be a button's text nor appear in the log."""


def codes(action: str) -> list[str]:
    """The payment of ``buy SQUARE CARDS``."""
    return action.split()[2].split("+")


class Player(tb.ClickPlayer):
    """Both seats, one page each: the moves are clicks like a person's; ``seen`` counts the
    modules' controls used."""

    raw = RAW

    def __init__(self, pages: list[Any], rng: random.Random, wanted: tuple[str, ...], prefix: str) -> None:
        super().__init__(pages, rng)
        self.module = prefix
        """Screenshots are named ``<prefix>-payment.png`` and ``<prefix>-decision.png``."""
        self.wanted = wanted

    def click(self, page: Any, selector: str, confirm: bool = True) -> None:
        """Click ``selector`` and wait for the table to react (:func:`~alhambra.testing_browser.press`);
        with ``confirm``, a blind draw's confirmation is clicked."""
        version = tb.version(page)
        tb.press(page, selector, version)
        if not confirm:
            tb.wait_change(page, version, confirm=False, failure=f"{self.module}-failure")
        elif tb.version(page) == version and page.locator("#btn-confirm").count():  # a blind draw from the bag: confirmed
            try:
                page.locator("#btn-confirm").first.click(timeout=5000)
            except PlaywrightTimeout:  # the page was redrawn meanwhile (a live update): the move loop looks again
                if tb.version(page) == version and page.locator("#btn-confirm").count():
                    self.dump(page, "the confirmation did not take a click")
                    raise
                return
            tb.wait_change(page, version, confirm=False, failure=f"{self.module}-failure")

    # ----- one move of the page whose turn it is
    def decide(self, page: Any, decision: str) -> bool:
        if decision == "StoreChoice":
            self.store_choice(page)
            return True
        return False

    def store_choice(self, page: Any) -> None:
        box = page.locator(".cert-decision")
        assert box.count() == 1 and box.locator("svg.cert-board").count() == 1
        text = box.locator(".cert-question p").inner_text()
        assert text.startswith("You overpaid by"), text
        decline = page.locator("#btn-cert-decline")
        coins = "coin" in decline.inner_text()
        stores = page.locator("button.cert-store")
        if not self.seen.get("decision shot"):
            self.shot(page, "decision")
            self.saw("decision shot")
        if coins and (self.seen.get("stored") and not self.seen.get("declined for change")):
            before = page.locator(f"{CHANGE} .change-bag-count").inner_text()
            self.click(page, "#btn-cert-decline")
            assert page.locator(f"{CHANGE} .change-bag-count").inner_text() != before  # coins left the bag
            self.saw("declined for change")
            return
        if stores.count() and (not self.seen.get("stored by keyboard") or self.rng.random() < 0.6):
            version = tb.version(page)
            if not self.seen.get("stored by keyboard"):
                stores.nth(self.rng.randrange(stores.count())).focus()
                page.keyboard.press("Enter")
                tb.wait_change(page, version)
                self.saw("stored by keyboard")
            else:
                self.click(page, "button.cert-store")
            self.saw("stored")
            return
        self.click(page, "#btn-cert-decline")

    def pay_by_picking(self, page: Any, action: str) -> None:
        """Pick the cards and the money outside the hand of ``action`` one by one, then buy."""
        assert page.locator(".buy").count() == 1, "the payment picker is open"
        for _ in range(12):  # a single way to pay comes picked: put it back, to pick it by hand
            if not page.locator(".hand-card.selected").count():
                break
            page.locator(".hand-card.selected").first.click(timeout=5000)
        for code in codes(action):
            if page.locator(f".money-source[data-token='{code}']").count():
                chip = page.locator(f".money-source[data-token='{code}']:not(.selected)").first
                assert chip.is_enabled(), f"the {code} chip cannot be picked"
                chip.click(timeout=5000)
            else:
                page.locator(f".hand-card[data-code='{code}']:not(.selected)").first.click(timeout=5000)
        assert page.locator(".money-source.selected").count() >= 1
        assert page.locator("#btn-buy").count() == 1, page.locator(".pay-sum").inner_text()
        credit = "cr" in codes(action)
        if not self.seen.get("payment shot") and (credit or "paid with credit" not in self.wanted):
            self.shot(page, "payment")  # the credit's payment when the credit is wanted
            self.saw("payment shot")
        if credit:
            self.saw("paid with credit")
        if any(c in ("cb", "cg", "co", "cy") for c in codes(action)):
            self.saw("paid with coins")
        self.click(page, "#btn-buy")

    def turn(self, page: Any) -> None:
        rng = self.rng
        squares = page.locator(".market-square.affordable")
        options: list[tuple[int, str, int]] = []  # (square, action, overpay)
        for i in range(squares.count()):
            squares.nth(i).click(timeout=5000)
            for b in page.locator(".pay-option").all():
                action = str(b.get_attribute("data-action"))
                over = b.inner_text().strip().split()[-1]
                options.append((i, action, 0 if over == "exact" else int(over)))
        held = sorted((o for o in options if any(c in ("cb", "cg", "co", "cy", "cr") for c in codes(o[1]))), key=lambda o: o[2])
        wanted = [o for o in held if "cr" in codes(o[1]) and not self.seen.get("paid with credit")] or [
            o for o in held if not self.seen.get("paid with coins") and "cr" not in codes(o[1])
        ]
        pick = wanted[0] if wanted else (held[0] if held and rng.random() < 0.5 else None)
        if pick is not None:
            squares.nth(pick[0]).click(timeout=5000)
            if page.locator(".buy").count() == 0:  # the click closed the square's dialog: open it again
                squares.nth(pick[0]).click(timeout=5000)
            self.pay_by_picking(page, pick[1])
            return
        over = [o for o in options if o[2] >= 2]
        if over and rng.random() < 0.85:
            big = [o for o in over if o[2] >= 7] if not self.seen.get("coins at once") else []
            square, action, paid_over = (big or over)[rng.randrange(len(big or over))]
            squares.nth(square).click(timeout=5000)
            if page.locator(".buy").count() == 0:
                squares.nth(square).click(timeout=5000)
            page.locator(f".pay-option[data-action='{action}']").click(timeout=5000)
            before = page.locator(f"{CHANGE} .change-bag-count").inner_text()
            self.click(page, "#btn-buy")
            if paid_over >= 7 and page.locator(f"{CHANGE} .change-bag-count").inner_text() != before:
                self.saw("coins at once")
            return
        if page.locator("#btn-clear").count():
            page.locator("#btn-clear").click(timeout=5000)
        if self.take_random(page):
            return
        self.end_turn_or_fail(page)
