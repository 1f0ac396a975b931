"""The falconers with the modules they touch: diamonds and master-builder cards pay, coins,
credit and caravanserai markers do not; a master builder's redesign returns a falcon; building
sites, bazaars and medinas are tiles without a colour; the vizier never buys a falcon."""

from __future__ import annotations

from dataclasses import replace

import pytest

from alhambra import legal_actions
from alhambra.engine import money_of, purchase_options
from alhambra.errors import IllegalAction
from alhambra.hooks import modules_of
from alhambra.modules.building_sites.tests.helpers import give_site
from alhambra.modules.falconers import BuyFalcon, FalconReturned, FalconsFinished, falcons, placements
from alhambra.modules.falconers.module import data
from alhambra.state import GameState
from alhambra.testing import build_tiles as build, set_hand

from .helpers import CORNER, act, fresh


def money_sources(state: GameState, seat: int) -> list[object]:
    return [src for m in modules_of(state.config) for src in m.money_sources(state, seat)]


def buys(state: GameState) -> list[str]:
    return [str(a) for a in legal_actions(state) if isinstance(a, BuyFalcon)]


def test_a_diamond_pays_for_a_falcon() -> None:
    state = fresh(modules=("diamonds",))
    seat = state.current
    build(state, seat, CORNER)
    set_hand(state, seat, ["d5"])
    assert "falcon Fw5 0,0 d5" in buys(state)
    state, _ = act(state, "falcon Fw5 0,0 d5")
    assert state.components.card_code[state.discard[-1]] == "d5"
    assert [f.code for f in falcons(state).placed[seat]] == ["Fw5"]


def test_a_master_builder_card_pays_and_leaves_the_game() -> None:
    state = fresh(modules=("master_builders",))
    seat = state.current
    build(state, seat, CORNER)
    set_hand(state, seat, ["mg3"])
    state, events = act(state, "falcon Fw5 0,0 mg3")
    assert not any(state.components.card_code[c] == "mg3" for c in state.discard)
    removed = state.mods["master_builders"].removed
    assert any(state.components.card_code[c] == "mg3" for c in removed)
    assert FalconsFinished(seat) in events


def test_a_master_builders_redesign_returns_a_falcon() -> None:
    state = fresh(modules=("master_builders",))
    seat = state.current
    build(state, seat, CORNER)
    set_hand(state, seat, ["b5", "mo3"])
    state, _ = act(state, "falcon Fw5 0,0 b5")  # the falcon turn closes: no spot left
    assert state.to_act == seat, "the master builder is offered at the end of the turn"
    assert "builder remove mo3 A9" in [str(a) for a in legal_actions(state)]
    state, events = act(state, "builder remove mo3 A9")
    assert FalconReturned(seat, "Fw5") in events
    assert falcons(state).placed[seat] == () and "Fw5" in falcons(state).supply()


@pytest.mark.parametrize("module", ["change", "exchange_certificates", "caravanserai"])
def test_money_outside_the_hand_does_not_pay(module: str) -> None:
    state = fresh(modules=(module,))
    seat = state.current
    build(state, seat, CORNER)
    sl = state.mods[module]
    if module == "change":
        coins = [list(c) for c in sl.coins]
        bag = list(sl.bag)
        bag[0] -= 2
        coins[seat][0] += 2
        state.mods[module] = replace(sl, bag=tuple(bag), coins=tuple(map(tuple, coins)))
    elif module == "caravanserai":
        state.mods[module] = sl.with_card(1, owner=seat, spot=5)  # a marker at the top of the column
    else:
        credit = list(sl.credit)
        credit[seat] = (0, 4)
        state.mods[module] = replace(sl, credit=tuple(credit))
    assert not state.players[seat].hand
    if module == "caravanserai":
        assert money_sources(state, seat), "the marker is money outside the hand"
    else:
        assert money_of(state, seat, 0) > 0
    assert buys(state) == []
    set_hand(state, seat, ["y2"])
    assert buys(state) and all(b.endswith(" y2") for b in buys(state))


def test_a_building_site_gives_no_colour_until_complete() -> None:
    state = fresh(modules=("building_sites",))
    seat = state.current
    build(state, seat, {(0, 1): "T12", (1, 1): "A9"})
    give_site(state, seat, "G11", "b", x=1, y=0)  # a garden under a building site
    set_hand(state, seat, ["b5"])
    assert "Fw5" not in {code for code, _ in placements(state, seat)}
    with pytest.raises(IllegalAction, match="needs a garden building"):
        act(state, "falcon Fw5 0,0 b5")
    at = next(f.code for f in data().falcons if set(f.kinds) == {"arcades", "tower"})
    state, _ = act(state, f"falcon {at} 0,0 b5")  # the site still is one of the four tiles
    assert [f.code for f in falcons(state).placed[seat]] == [at]


@pytest.mark.parametrize(("module", "tile"), [("bazaars", None), ("medina", "M10")])
def test_bazaars_and_medinas_are_tiles_without_colour(module: str, tile: str | None) -> None:
    state = fresh(modules=(module,))
    seat = state.current
    if tile is None:
        tile = next(state.components.tile_code[t] for t in state.bag if state.components.tiles[t].kind == "bazaar")
    build(state, seat, {(1, 0): "G11", (0, 1): "T12", (1, 1): tile})
    set_hand(state, seat, ["b5", "b6"])
    assert {code for code, _ in placements(state, seat)} == {"Fw5"}  # garden and tower only
    build(state, seat, {(2, 0): "C11", (2, 1): "T11"})  # intersection 1,0: garden, chambers, module tile, tower
    assert "falcon Fw5 1,0 b5" in buys(state)
    state, _ = act(state, "falcon Fw5 0,0 b5")
    assert [(f.code, f.x, f.y) for f in falcons(state).placed[seat]] == [("Fw5", 0, 0)]


def test_the_vizier_never_buys_a_falcon() -> None:
    state = fresh(modules=("vizier",))
    seat = state.current
    other = (seat + 1) % 3
    build(state, other, CORNER)
    set_hand(state, other, ["b5", "g5", "o5", "y5"])
    codes = {f.code for f in data().falcons}
    offers = purchase_options(state, other, out_of_turn=True)
    assert offers and not any(getattr(a, "item", None) in codes for a in offers)
    assert not any(isinstance(a, BuyFalcon) for a in legal_actions(state))  # nor on another seat's turn
