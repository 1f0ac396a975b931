"""The camps with the modules their rules name: change (p. 18), building sites (p. 30),
watchtowers (p. 29)."""

from __future__ import annotations

import pytest

from alhambra import apply, city as geo
from alhambra.components import CURRENCY_LETTERS
from alhambra.engine import set_walls
from alhambra.errors import IllegalPlacement
from alhambra.modules.camps import MODULE, arrow_points, camp_points, camps_of
from alhambra.modules.camps.module import BASTIONS, camp_problem, tables
from alhambra.modules.watchtowers import TowersState, towers
from alhambra.modules.watchtowers.module import SHORT
from alhambra.state import GameState
from alhambra.testing import build_tiles, check_conservation, set_hand

from .helpers import act, fresh, legal, put_camps


def test_change_for_an_overpaid_camp() -> None:
    """ "Players also receive change if they pay too much ... to buy a camp.\""""
    state = fresh(modules=("change",), market=("L3n",))
    seat = state.current
    cur = CURRENCY_LETTERS[state.market_currency[0]]
    set_hand(state, seat, [f"{cur}5"])  # 2 too much for the camp of price 3
    _, events = act(state, f"buy 1 {cur}5")
    change = [e for e in events if type(e).__name__ == "ChangeGiven"]
    assert len(change) == 1 and change[0].overpaid == 2  # type: ignore[attr-defined]


def test_a_camp_is_never_set_up_as_a_building_site() -> None:
    """ "Camps and bazaars cannot be set up as a building site.\""""
    state = fresh(modules=("building_sites",), market=("L3n", "P8"))
    seat = state.current
    cur = CURRENCY_LETTERS[state.market_currency[0]]
    cur2 = CURRENCY_LETTERS[state.market_currency[1]]
    set_hand(state, seat, [f"{cur}9", f"{cur2}9"])
    moves = legal(state)
    assert not any(m.startswith("buy site1 ") for m in moves)
    assert any(m.startswith("buy site2 ") for m in moves)


def put_tower(state: GameState, seat: int, code: str, x: int, y: int, half: str) -> int:
    """Take ``code`` from the watchtowers' supply and stand it at x, y in ``half`` (no checks)."""
    sl = towers(state)
    supply = tuple(tuple(c for c in s if c != code) for s in sl.supply)
    placed = list(sl.placed)
    placed[seat] = (*placed[seat], (x, y, code, half))
    state.mods["watchtowers"] = TowersState(supply, tuple(placed))
    t = state.components.tile_ids[code]
    state.players[seat].city[geo.pos(x, y)] = t
    set_walls(state, t, 15 ^ SHORT[half])
    check_conservation(state)
    return t


def test_camps_and_watchtowers_never_touch_and_a_watchtower_breaks_a_line() -> None:
    """ "A Watchtower cannot be purchased in combination with ... camps. Camps cannot be attached
    to watchtower tiles.\""""
    state = fresh(modules=("watchtowers",), market=("L3n", "P8"))
    seat = state.current
    cur = CURRENCY_LETTERS[state.market_currency[0]]
    set_hand(state, seat, [f"{cur}9", f"{cur}8"])
    moves = legal(state)
    assert not any(m.startswith("buy tw1 ") for m in moves)  # no watchtower with the camp
    # a watchtower (south-west half) at 1,0, between the fountain and S8s
    build_tiles(state, seat, {(0, 1): "P3sw", (1, 1): "S8s"})
    tower = put_tower(state, seat, "Wp1", 1, 0, "sw")
    tab = tables(state.components)
    cells = state.players[seat].city
    # a camp below S8s whose north bastion would face the wall: fine; a camp next to the
    # watchtower (east of it, at 2,0) is refused whatever its bastions
    assert camp_problem(cells, state.walls, {}, tab, BASTIONS["L3n"], geo.pos(1, 2)) is None
    assert camp_problem(cells, state.walls, {}, tab, BASTIONS["L6w"], geo.pos(2, 0)) == "watchtower"
    # the line of a camp stops at a watchtower: from 1,2 north, S8s then the watchtower
    put_camps(state, seat, {(1, 2): "L3n"})
    assert arrow_points(cells, tab, geo.pos(1, 2), 1) == 1 and camp_points(state, seat) == 1
    # and a watchtower may not be built next to a camp
    assert camps_of(state, seat)
    reason = MODULE.placement_problem(state, seat, tower, geo.pos(2, 2))
    assert reason is not None and "watchtower" in reason


def test_a_magical_building_turned_next_to_a_camp_shows_a_wall_to_its_bastion() -> None:
    """A magical building may be turned any way: next to a camp only the turns with a city wall
    against the bastion are allowed (the camps' rule sees the turn being tried)."""
    from alhambra.components import NORTH, WEST
    from alhambra.modules.magical_buildings.module import build_spots, magic_code

    state = fresh(modules=("magical_buildings",))
    seat = state.current
    build_tiles(state, seat, {(-1, 0): "P6n"})  # west of the fountain, a wall to the north
    put_camps(state, seat, {(-1, -1): "L9es"})  # south bastion on P6n's wall, east bastion facing 0,-1
    assert camp_problem(state.players[seat].city, state.walls, {}, tables(state.components), BASTIONS["L9es"], geo.pos(-1, -1)) is None
    tile = state.components.tile_ids[magic_code("arcades", 11)]  # printed walls north and east
    at = {m for q, m in build_spots(state, seat, tile) if q == geo.pos(0, -1)}
    assert at == {NORTH | WEST}  # turned: west against the bastion, the south open to the fountain


def test_a_trader_tile_never_stands_on_a_camp() -> None:
    """Street traders (p. 19): "The trader tile may be placed in any empty space"; a camp's place
    (p. 15: camps are placed in the player's Alhambra) is not empty. A camp built where the trader
    tile stands sets it aside, and it is put back on an empty place at the end of the turn."""
    from alhambra.modules.street_traders import StreetTraderPlacement, TraderPlace, trader_spots, traders
    from alhambra.modules.street_traders.tests.support import buy, set_trader, started

    state = started(modules=("street_traders", "camps"))
    seat = state.current
    build_tiles(state, seat, {(0, -1): "P6n"})  # a city wall to the north: a camp's place above it
    set_trader(state, seat, at=(0, -2))
    check_conservation(state)
    state = buy(state, "L5s")
    assert "camp place L5s 0,-2" in legal(state)
    state, _ = act(state, "camp place L5s 0,-2")
    while not (isinstance(state.pending[-1], StreetTraderPlacement) and state.pending[-1].seat == seat):
        state, _ = act(state, next(m for m in legal(state) if m.startswith("take ") or m in ("pass", "end")))
    spots = trader_spots(state, seat)
    assert (0, -2) not in spots and (0, 1) in spots
    assert "trader place 0,-2" not in legal(state)
    with pytest.raises(IllegalPlacement, match="already holds"):
        apply(state, TraderPlace((0, -2)), seat)
    state, _ = act(state, "trader place 0,1")
    assert traders(state).seats[seat].at == (0, 1) and camps_of(state, seat) == {geo.pos(0, -2): state.components.tile_ids["L5s"]}
