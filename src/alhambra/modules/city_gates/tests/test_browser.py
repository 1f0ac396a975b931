"""City gates in the browser (Debian's Chromium, Playwright), on a short fixed position: a
2-player table dealt with game seed 31 is steered through the API (the first seat takes the
city-gate card when it lies open, both seats buy and build what they can: 48 moves, about a
second) until the first seat must place a tile that only a gate can join. Then, by clicks only:
the panel says to click a faded gate, the faded arch on the double wall is clicked, the move is
confirmed, and the gate stands on the Alhambra as a wooden arch; the log tells it, no control and
no log line shows notation, and the console stays free of errors. With magical buildings (game
seed 3, 55 moves), a magical building that only a gate joins is turned and built through it in
one move: the arch, then the turn. Screenshots: artifacts/screenshots/city_gates-*.png."""

from __future__ import annotations

import random
import re
from pathlib import Path

from alhambra import GameConfig, legal_actions, testing_browser as tb
from alhambra.actions import Action, BuyBuilding
from alhambra.modules.city_gates import GatePlace, GateTurn, TakeGate
from alhambra.state import GameState, PlaceTiles
from alhambra.testing_browser import ARTIFACTS

ID = "city_gates"
SEED = 31
"""Game seed of the table (the server's constant seed): the gate is needed after 48 moves."""
RAW = re.compile(r"\bgt\d\b|gate (take|place|build|turn)")
FAILURE = "city_gates-failure"

pytestmark = tb.needs_chromium


def _steer(state: GameState, rng: random.Random) -> Action:
    """The moves played through the API: take the gate card, else buy, else build, else take money."""
    legal = legal_actions(state)
    for wanted in (lambda a: isinstance(a, TakeGate), lambda a: a.keyword == "buy"):
        pool = [a for a in legal if wanted(a)]
        if pool:
            return rng.choice(pool)
    places = [a for a in legal if a.keyword == "place" and isinstance(getattr(a, "target", None), tuple)]
    takes = [a for a in legal if a.keyword == "take"]
    return rng.choice(places or takes or legal)


def test_a_tile_is_built_through_a_city_gate_by_clicking_the_double_wall(tmp_path: Path) -> None:
    problems: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with tb.chromium() as browser, tb.ServerProcess(tmp_path / "db.sqlite3", constant_seed=SEED) as server:
        tid, tokens = tb.joined_table(server.http, ["Ann", "Ben"], [ID])
        rng = random.Random(SEED)

        def gates(state: GameState) -> list[GatePlace]:
            return [a for a in legal_actions(state) if isinstance(a, GatePlace)]

        config = GameConfig(players=2, modules=(ID,))
        state, ver = tb.steer_table(server.http, tid, tokens, config, SEED, lambda s: _steer(s, rng), lambda s: bool(gates(s)))
        seat, gate = state.to_act, gates(state)[0]
        mine = server.http.get(f"/api/tables/{tid}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        assert str(gate) in mine["view"]["legal_actions"], "the server's game is not the one steered here"
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        tb.watch(page, problems)
        try:
            page.goto(f"{server.url}/table/{tid}#seat={tokens[seat]}")
            tb.wait_my_turn(page, ver)
            panel = page.locator("#action-panel .gate-controls-panel")
            assert panel.count() == 1 and "faded gate" in panel.inner_text()
            assert page.locator(".module-panel[data-module='city_gates'] .gate-panel").count() == 1
            assert re.search(r"\d gates?", page.locator(f".seat-badge[data-module='{ID}']").first.inner_text())
            picks = page.locator(".city.mine .board-overlay.gate-pick")
            assert picks.count() >= 1
            tb.check_buttons(page, RAW)
            assert not RAW.search(page.locator("#action-panel").inner_text())
            x, y = gate.target
            wall = page.locator(f".city.mine .board-overlay.gate-pick[data-x='{x}'][data-y='{y}']:has(svg[data-side='{gate.side}'])")
            assert wall.count() == 1, (x, y, gate.side, picks.count())
            label = str(wall.get_attribute("aria-label"))
            assert "through a city gate" in label and not RAW.search(label), label
            page.screenshot(path=str(ARTIFACTS / "city_gates-pick.png"), full_page=True)
            before = tb.version(page)
            wall.click(timeout=5000)
            tb.wait_moved(page, before, failure=FAILURE)
            page.wait_for_selector(f".city.mine .board-overlay.gate-item[data-x='{x}'][data-y='{y}']", timeout=10000)
            assert page.locator(f".city.mine [data-tile='{gate.tile}'][data-x='{x}'][data-y='{y}']").count() == 1
            assert page.locator(".city.mine .board-overlay.gate-pick").count() == 0
            log = page.locator(".log-list").inner_text()
            assert "through a city gate" in log and not RAW.search(log), log[-500:]
            page.screenshot(path=str(ARTIFACTS / "city_gates-built.png"), full_page=True)
        finally:
            page.close()
    assert problems == []


TURN_SEED = 3
"""With magical buildings: after 55 moves a magical building waits that only a gate joins."""


def _steer_magic(state: GameState, rng: random.Random) -> Action:
    """Take the gate card, else buy a magical building, else buy, else build, else take money."""
    legal = legal_actions(state)
    tiles = state.components.tiles
    buys = [a for a in legal if isinstance(a, BuyBuilding)]
    for pool in (
        [a for a in legal if isinstance(a, TakeGate)],
        [a for a in buys if tiles[state.market[a.square - 1]].module == "magical_buildings"],
        buys,
        [a for a in legal if a.keyword in ("place", "magic place") and isinstance(getattr(a, "target", None), tuple)],
        [a for a in legal if a.keyword == "take"],
    ):
        if pool:
            return rng.choice(pool)
    return rng.choice(legal)


def test_a_magical_building_is_turned_and_built_through_a_gate_by_clicks(tmp_path: Path) -> None:
    """One move for both (the rulebook): the arch on the double wall is clicked, then (when the
    tile could be turned several ways there) the turn; the magical building stands turned."""
    modules = (ID, "magical_buildings")
    problems: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with tb.chromium() as browser, tb.ServerProcess(tmp_path / "db.sqlite3", constant_seed=TURN_SEED) as server:
        tid, tokens = tb.joined_table(server.http, ["Ann", "Ben"], list(modules))
        rng = random.Random(TURN_SEED)

        def turns(state: GameState) -> list[GateTurn]:
            waiting = bool(state.pending) and isinstance(state.pending[-1], PlaceTiles)
            return [a for a in legal_actions(state) if isinstance(a, GateTurn)] if waiting else []

        config = GameConfig(players=2, modules=modules)
        state, ver = tb.steer_table(server.http, tid, tokens, config, TURN_SEED, lambda s: _steer_magic(s, rng), lambda s: bool(turns(s)))
        seat, gate = state.to_act, turns(state)[0]
        assert seat is not None
        same_wall = [a for a in turns(state) if (a.tile, a.target, a.side) == (gate.tile, gate.target, gate.side)]
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        tb.watch(page, problems)
        try:
            page.goto(f"{server.url}/table/{tid}#seat={tokens[seat]}")
            tb.wait_my_turn(page, ver)
            page.wait_for_selector("#action-panel .gate-controls-panel", timeout=10000)
            tiles = page.locator("#action-panel .gate-tiles button.gate-tile")
            if tiles.count():
                page.locator(f"#action-panel .gate-tiles button.gate-tile[data-tile='{gate.tile}']").click(timeout=5000)
            x, y = gate.target
            wall = page.locator(f".city.mine .board-overlay.gate-pick[data-x='{x}'][data-y='{y}']:has(svg[data-side='{gate.side}'])")
            assert wall.count() == 1
            tb.check_buttons(page, RAW)
            before = tb.version(page)
            wall.click(timeout=5000)
            if len(same_wall) > 1:
                choice = page.locator(f"#action-panel .gate-turns button.gate-turn[data-walls='{gate.walls}']")
                choice.wait_for(timeout=5000)
                assert page.locator("#action-panel .gate-turns button.gate-turn").count() == len(same_wall)
                assert not RAW.search(page.locator("#action-panel").inner_text())
                choice.click(timeout=5000)
            tb.wait_moved(page, before, failure=FAILURE)
            page.wait_for_selector(f".city.mine .board-overlay.gate-item[data-x='{x}'][data-y='{y}']", timeout=10000)
            assert page.locator(".city.mine svg.magic-tile").count() >= 1
            log = page.locator(".log-list").inner_text()
            assert re.search(r"turned to show walls [a-z ]+ through a city gate", log) and not RAW.search(log), log[-500:]
            page.screenshot(path=str(ARTIFACTS / "city_gates-turned.png"), full_page=True)
        finally:
            page.close()
    assert problems == []
