"""The characters in the browser: one person plays both seats of a 2-player table in Debian's
Chromium (two pages, one per seat), by clicks only. The deal (game seed 900) brings a character
up after eleven money cards: both seats then bid with the plug-in's stepper or pass, the winner
pays in the table's payment picker, and every ability's question is answered with the plug-in's
buttons. Checked along the way: the panel shows the auction (the card in the plug-in's art, the
highest bid), no button shows the notation, the log names characters by their names, the owner's
badge appears, and the console stays free of errors. Screenshots go to
artifacts/screenshots/characters-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from alhambra import testing_browser as tb

ID = "characters"
PANEL = f".module-panel[data-module='{ID}']"
RAW = re.compile(r"\bcharacter (bid|pass|pay|keep|swap|dancer|beggar|go|patron|change|miser|skip|wise|build|remove|exchange|redesign)\b")
"""The module's notation, which no button and no log line may show."""
WANTED = ("auction", "won")
PLAY_SECONDS = 120.0
NAMES = ("Ada", "Bo")
MINE = {"Auction", "CharacterPayment", "EntertainerChoice", "TurnStart", "MiserChoice", "MasterBuilderChoice", "WiseChoice"}

pytestmark = tb.needs_chromium


class _Player(tb.ClickPlayer):
    module = ID
    raw = RAW
    wanted = WANTED

    def decide(self, page: Any, decision: str) -> bool:
        """The auction (bid with the stepper or pass), the payment picker, every ability's buttons."""
        if decision not in MINE:
            return False
        if decision == "Auction":
            if "auction" not in self.seen:
                page.wait_for_selector(f"{PANEL} .ch-auction svg.character-card", timeout=5000)
                self.shot(page, "auction")
            self.saw("auction")
            bid = page.locator("#action-panel .ch-bid button.primary")
            before = tb.version(page)
            if bid.count() and self.rng.random() < 0.6:
                bid.click(timeout=5000)
            else:
                page.locator("#action-panel .ch-bid button[data-action='character pass']").click(timeout=5000)
            self.wait_change(page, before)
            return True
        if decision == "CharacterPayment":
            page.locator("#action-panel .ch-actions button.primary").click(timeout=5000)
            self.shot(page, "pay")
            self.pay_and_buy(page)
            self.saw("won")
            return True
        buttons = page.locator("#action-panel .ch-actions button")
        assert buttons.count(), f"no control for {decision}"
        before = tb.version(page)
        buttons.nth(self.rng.randrange(buttons.count())).click(timeout=5000)
        if page.locator("#btn-confirm").count():
            page.locator("#btn-confirm").click(timeout=5000)
        self.wait_change(page, before)
        return True

    def turn(self, page: Any) -> None:
        """Mostly take money (characters come up from the money pile), else a core move."""
        if self.rng.random() < 0.7 and self.take_random(page):
            return
        self.core_turn(page)


def test_both_seats_bid_for_a_character_and_the_winner_pays(tmp_path: Path) -> None:
    problems: list[str] = []
    started = time.monotonic()
    with tb.served_table(tmp_path, problems, (ID,), NAMES, constant_seed=900) as pages:
        for p in pages:
            p.wait_for_selector(f"{PANEL} .ch-seats", timeout=10000)
        player = _Player(pages, random.Random(7))
        player.play(PLAY_SECONDS)
        page = pages[0]
        if page.locator("#btn-close-modal").count():
            page.locator("#btn-close-modal").click(timeout=5000)
        page.wait_for_timeout(300)
        player.shot(page, "table")
        assert page.locator(f"{PANEL} .ch-owned svg.character-card").count() >= 1
        assert page.locator(f".score-track .seat-badge[data-module='{ID}']").count() >= 1
        log = page.locator(".log-list").inner_text()
        assert re.search(
            r"takes the (Rich Patron|Miser|Master Builder|Trader|Travelling Entertainer|Wise Man|Dancer|Moneychanger|Beggar|City Watch)",
            log,
        ), log[-500:]
        assert not RAW.search(log)
    print("seen:", player.seen, f"in {time.monotonic() - started:.1f} s")
    for w in WANTED:
        assert player.seen.get(w, 0) >= 1, (w, player.seen)
    assert problems == []
    player.check_shots()


# ---------------------------------------------------------------------------------- the Master Builder
MASON_SEED = 22
"""Game seed (the server's constant seed) of the Master Builder's game: with characters and
magical buildings, steered by :func:`_steer_mason`, the second seat wins the Master Builder's
auction, puts a bought magical garden on its reserve board and, at the end of its turn after 38
moves, is asked for the Master Builder's extra redesign, which only the magical building's own
redesign (``magic build``) can use: ``character redesign`` is offered."""
MAGIC_RAW = re.compile(r"\bX[psacgt]\d+\b|magic (place|build|exchange)")


def _steer_mason(state: Any) -> Any:
    """The moves played through the API (deterministic): bid the least for the Master Builder and
    pass on every other character, pay with the first way, buy a magical building and put it on
    the reserve board, skip the other abilities, else take the most money cards."""
    from alhambra import legal_actions
    from alhambra.actions import BuyBuilding, PlaceBuilding, TakeMoney
    from alhambra.modules.characters.state import Auction, CharacterPayment
    from alhambra.state import PlaceTiles

    legal = legal_actions(state)
    top = state.pending[-1] if state.pending else None
    comp = state.components

    def magical(code: str) -> bool:
        return bool(comp.tiles[comp.tile_ids[code]].module == "magical_buildings")

    if isinstance(top, Auction):
        bids = [a for a in legal if a.keyword == "character bid"]
        if top.character == "master_builder" and bids:
            return min(bids, key=str)
        return next(a for a in legal if str(a) == "character pass")
    if isinstance(top, CharacterPayment):
        return legal[0]
    places = [a for a in legal if isinstance(a, PlaceBuilding)]
    if isinstance(top, PlaceTiles):
        magic = [a for a in places if a.target == "reserve" and magical(a.tile)]
        spots = [a for a in places if isinstance(a.target, tuple)]
        return (magic or spots or legal)[0]
    own = [a for a in legal if a.keyword.startswith("character")]
    if own:
        return next((a for a in own if str(a) in ("character skip", "character keep", "character go")), own[0])
    buys = [a for a in legal if isinstance(a, BuyBuilding) and magical(comp.tile_code[state.market[a.square - 1]])]
    takes = [a for a in legal if isinstance(a, TakeMoney)]
    return buys[0] if buys else max(takes, key=lambda a: len(a.cards)) if takes else legal[0]


def test_the_master_builder_redesigns_with_a_magical_building_by_clicks(tmp_path: Path) -> None:
    """The Master Builder's owner, asked at the end of its turn, clicks "another kind of
    redesign" (``character redesign``), then the starred place on its Alhambra where the
    magical building from its reserve board goes (and its turn, if it turns several ways
    there): the tile stands there turned, the reserve board is empty, the Master Builder is used
    for the round, the turn passes, and neither controls nor log show notation."""
    from alhambra import GameConfig, legal_actions
    from alhambra.modules.characters.actions import MasonUse
    from alhambra.modules.characters.state import MasterBuilderChoice

    modules = (ID, "magical_buildings")
    problems: list[str] = []
    tb.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with tb.chromium() as browser, tb.ServerProcess(tmp_path / "db.sqlite3", constant_seed=MASON_SEED) as server:
        tid, tokens = tb.joined_table(server.http, list(NAMES), list(modules))

        def asked(state: Any) -> bool:
            top = state.pending[-1] if state.pending else None
            return isinstance(top, MasterBuilderChoice) and MasonUse() in legal_actions(state)

        config = GameConfig(players=2, modules=modules)
        state, ver = tb.steer_table(server.http, tid, tokens, config, MASON_SEED, _steer_mason, asked)
        seat = state.pending[-1].seat
        comp = state.components
        reserve = [comp.tile_code[t] for t in state.players[seat].reserve if comp.tiles[t].module == "magical_buildings"]
        assert len(reserve) == 1, reserve
        magic = reserve[0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        tb.watch(page, problems)
        try:
            page.goto(f"{server.url}/table/{tid}#seat={tokens[seat]}")
            tb.wait_my_turn(page, ver)
            assert page.locator(f"{PANEL} .ch-seat[data-seat='{seat}'] svg.character-card[data-character='master_builder']").count() == 1
            use = page.locator("#action-panel .ch-actions button[data-action='character redesign']")
            assert use.count() == 1 and "Master Builder" in use.inner_text(), page.locator("#action-panel").inner_text()
            assert page.locator("#action-panel .ch-actions button[data-action='character skip']").count() == 1
            tb.check_buttons(page, RAW)
            page.screenshot(path=str(tb.ARTIFACTS / "characters-master-builder.png"), full_page=True)
            before = tb.version(page)
            use.click(timeout=5000)
            tb.wait_moved(page, before, failure="characters-failure")
            # the redesign owed: the magical building's places, from the server's legal actions
            msg = server.http.get(f"/api/tables/{tid}/view", headers=auth).json()
            assert msg["view"]["pending"]["type"] == "MasonRedesign"
            offered: dict[tuple[int, int], list[str]] = {}
            for a in msg["actions"]:
                assert a["keyword"] in ("magic build", "magic exchange"), a["notation"]
                if a["keyword"] == "magic build":
                    cell = next(x["value"] for x in a["args"] if x["type"] == "cell")
                    offered.setdefault((cell["x"], cell["y"]), []).append(a["notation"])
            picks = page.locator(".city.mine .board-overlay.magic-pick")
            picks.first.wait_for(timeout=10000)
            builds = [e for e in picks.all() if "magic-exchange" not in str(e.get_attribute("class"))]
            shown = {(int(str(e.get_attribute("data-x"))), int(str(e.get_attribute("data-y")))) for e in builds}
            assert shown == set(offered), (shown, offered)
            assert page.locator(f".city.mine .reserve-tile[data-tile='{magic}']").count() == 1
            assert not MAGIC_RAW.search(page.locator("#action-panel").inner_text())
            tb.check_buttons(page, MAGIC_RAW)
            page.screenshot(path=str(tb.ARTIFACTS / "characters-master-builder-redesign.png"), full_page=True)
            (x, y), ways = sorted(offered.items())[0]
            before = tb.version(page)
            page.locator(f".city.mine .board-overlay.magic-pick[data-x='{x}'][data-y='{y}']").click(timeout=5000)
            if len(ways) > 1:
                page.locator("#action-panel .magic-controls button.magic-turn").first.click(timeout=5000)
            tb.wait_moved(page, before, failure="characters-failure")
            page.locator(f".city.mine [data-tile='{magic}'][data-x='{x}'][data-y='{y}']").wait_for(timeout=10000)
            view = server.http.get(f"/api/tables/{tid}/view", headers=auth).json()["view"]
            me = view["seats"][seat]
            assert {"tile": magic, "x": x, "y": y} in [{k: c[k] for k in ("tile", "x", "y")} for c in me["alhambra"]]
            assert magic not in me["reserve"]
            walls = view["walls"][magic]
            assert any(w.endswith(f" {walls}") for w in ways), (walls, ways)  # turned as clicked
            assert view["to_act"] != seat  # the redesign ended the turn
            assert page.locator(f".city.mine [data-x='{x}'][data-y='{y}'] svg.magic-tile").get_attribute("data-walls") == walls
            log = page.locator(".log-list").inner_text()
            assert "uses the Master Builder" in log and re.search(r"turns the magical garden", log), log[-600:]
            assert not RAW.search(log) and not MAGIC_RAW.search(log)
            page.screenshot(path=str(tb.ARTIFACTS / "characters-master-builder-done.png"), full_page=True)
        finally:
            page.close()
    assert problems == []
