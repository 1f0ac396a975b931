"""Helpers for the street traders tests: games past the setup choices, purchases placed where
the trader stands, and the citizens' own conservation check."""

from __future__ import annotations

from collections.abc import Mapping

from alhambra import GameConfig, apply, city as geo, new_game
from alhambra.actions import BuyBuilding, PlaceBuilding
from alhambra.components import KINDS
from alhambra.events import Event
from alhambra.modules.street_traders import (
    StreetTraderChoice,
    StreetTraderPlacement,
    TraderChoose,
    TraderPlace,
    TraderSeat,
    traders,
)
from alhambra.modules.street_traders.module import CITIZENS_PER_COLOUR, ON_TRADER
from alhambra.state import ChooseAction, GameState
from alhambra.testing import set_hand, set_market

ID = "street_traders"
DEFAULT_CHOICE = ("pavilion", "seraglio", "arcades")


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (ID,), turn_limit: int | None = None) -> GameState:
    """A new game waiting for the first secret choice."""
    state, _ = new_game(GameConfig(players=players, modules=modules, turn_limit=turn_limit), seed)
    return state


def started(
    players: int = 3,
    seed: int = 1,
    modules: tuple[str, ...] = (ID,),
    choices: Mapping[int, tuple[str, ...]] | None = None,
    spots: Mapping[int, tuple[int, int]] | None = None,
    turn_limit: int | None = None,
) -> GameState:
    """A game past the setup: every seat chose (``choices``, default pavilion, seraglio, arcades)
    and put its trader tile (``spots``, default east of the fountain, 1,0)."""
    state = fresh(players, seed, modules, turn_limit)
    choices = choices or {}
    spots = spots or {}
    while isinstance(state.pending[-1], StreetTraderChoice):
        s = state.pending[-1].seat
        state, _ = apply(state, TraderChoose(choices.get(s, DEFAULT_CHOICE)), s)
    while isinstance(state.pending[-1], StreetTraderPlacement):
        s = state.pending[-1].seat
        state, _ = apply(state, TraderPlace(spots.get(s, (1, 0))), s)
    assert isinstance(state.pending[-1], ChooseAction)
    return state


def buy(state: GameState, code: str) -> GameState:
    """The current seat buys ``code`` from market square 1 (blue) with blue 9 + 8 (an
    overpayment: the action phase ends and the tile waits to be placed)."""
    state = state.copy()
    set_market(state, 1, code)
    set_hand(state, state.current, ["b9", "b8"])
    state, _ = apply(state, BuyBuilding(1, ("b9", "b8")), state.current)
    return state


def buy_and_place(state: GameState, code: str, xy: tuple[int, int]) -> tuple[GameState, list[Event]]:
    """The current seat buys ``code`` and builds it at ``xy``."""
    state = buy(state, code)
    return apply(state, PlaceBuilding(code, xy), state.current)


def build(state: GameState, seat: int, code: str, xy: tuple[int, int]) -> None:
    """Put ``code`` (taken from the bag or the market) into ``seat``'s Alhambra at ``xy`` (in place, no rule check)."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
    else:
        state.market[state.market.index(t)] = state.bag.pop()
    state.players[seat].build(geo.pos(*xy), t)


def set_trader(state: GameState, seat: int, **changes: object) -> None:
    """Change one seat's trader (in place): ``citizens``, ``at``, ``homes``; the supply takes or
    gives the difference, so the citizens stay conserved."""
    sl = traders(state)
    old = sl.seats[seat]
    new = TraderSeat(
        tuple(changes.get("citizens", old.citizens)),  # type: ignore[arg-type]
        changes.get("at", old.at),  # type: ignore[arg-type]
        tuple(changes.get("homes", old.homes)),  # type: ignore[arg-type]
    )
    sl = sl.with_seat(seat, new)
    comp = state.components
    for k in KINDS:
        before = old.citizens.count(k) + sum(1 for h in old.homes if comp.tiles[comp.tile_ids[h]].kind == k)
        after = new.citizens.count(k) + sum(1 for h in new.homes if comp.tiles[comp.tile_ids[h]].kind == k)
        sl = sl.with_supply(k, before - after)
    state.mods[ID] = sl


def check_citizens(state: GameState) -> None:
    """Every citizen is in exactly one place (supply, a trader tile or a building; before the
    reveal every seat holds one of each colour), a citizen lives only in a building of its
    colour that stands in its owner's Alhambra, and no trader tile stands on a tile."""
    sl = traders(state)
    comp = state.components
    n = state.config.players
    assert len(sl.seats) == n and len(sl.supply) == len(KINDS)
    for i, k in enumerate(KINDS):
        total = sl.supply[i] + sum(1 for ts in sl.seats for h in ts.homes if comp.tiles[comp.tile_ids[h]].kind == k)
        total += n if not sl.revealed else sum(ts.citizens.count(k) for ts in sl.seats)
        assert total == CITIZENS_PER_COLOUR, f"{k}: {total} citizens"
        assert sl.supply[i] >= 0
    for s, ts in enumerate(sl.seats):
        assert len(ts.citizens) <= ON_TRADER
        if not sl.revealed:
            assert len(ts.citizens) in (0, ON_TRADER) and len(set(ts.citizens)) == len(ts.citizens)
        city = state.players[s].city
        in_city = {comp.tiles[t].code for t in city.values()}
        assert set(ts.homes) <= in_city and len(set(ts.homes)) == len(ts.homes)
        assert all(comp.tiles[comp.tile_ids[h]].kind in KINDS for h in ts.homes)
        if ts.at is not None:
            assert geo.pos(*ts.at) not in city
