"""Situations for the treasure chamber tests (every card, tile and chest stays in exactly one place)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from alhambra import GameConfig, apply, city as geo, new_game
from alhambra.actions import TakeMoney
from alhambra.components import KINDS
from alhambra.engine import legal_actions
from alhambra.events import Event
from alhambra.modules.treasure_chamber import CHESTS, ChamberState, TreasureChestPlacement, chamber, sort_chests
from alhambra.state import ChooseAction, GameState
from alhambra.testing import set_hand, set_market

ID = "treasure_chamber"
MARKET = ("P4es", "S5sw", "A6sw", "C7sw")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow."""


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), rooms: Sequence[Sequence[str]] | None = None) -> GameState:
    """A new game with this module (and ``modules``): the market of :data:`MARKET`, every hand
    empty, the neutral player (2 players) without tiles, and (with ``rooms``) the rooms holding
    those chests (kinds)."""
    state, _ = new_game(GameConfig(players=players, modules=(ID, *modules)), seed)
    if state.neutral is not None:  # the neutral player starts without tiles (see give_neutral)
        state.bag[0:0] = state.neutral
        state.neutral = []
    for sq, code in enumerate(MARKET, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    if rooms is not None:
        set_rooms(state, rooms)
    return state


def set_rooms(state: GameState, rooms: Sequence[Sequence[str]]) -> None:
    """Put ``rooms`` (kinds per room; empty: an empty room) into the chamber, the rest into the bag."""
    sl = chamber(state)
    sl = sl.with_bag([k for r in sl.rooms for k in r])
    for r in rooms:
        sl = sl.with_bag(r, -1)
    assert min(sl.bag) >= 0, "not enough chests of a colour"
    state.mods[ID] = replace(sl, rooms=tuple(sort_chests(r) for r in rooms))


def drain_bag(state: GameState, keep: Sequence[str]) -> Counter[str]:
    """Leave exactly ``keep`` (kinds) in the bag; returns the chests taken out (set aside by the
    test: pass them to :func:`check_chests` as ``aside``)."""
    sl = chamber(state)
    want = Counter(keep)
    bag = tuple(want[k] for k in KINDS)
    assert all(b <= a for a, b in zip(sl.bag, bag, strict=True)), "the bag lacks a kept chest"
    state.mods[ID] = replace(sl, bag=bag)
    return Counter({k: a - b for k, a, b in zip(KINDS, sl.bag, bag, strict=True) if a > b})


def build(state: GameState, seat: int, code: str, xy: tuple[int, int]) -> None:
    """Put ``code`` (taken from the bag or the market) into ``seat``'s Alhambra at ``xy`` (no rule check)."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
    else:
        state.market[state.market.index(t)] = state.bag.pop()
    state.players[seat].city[geo.pos(*xy)] = t


def give_neutral(state: GameState, codes: Sequence[str]) -> None:
    """The neutral player's tiles are exactly ``codes`` (his old ones go back into the bag)."""
    assert state.neutral is not None
    state.bag[0:0] = state.neutral
    state.neutral = []
    for code in codes:
        t = state.components.tile_ids[code]
        if t in state.market:
            state.market[state.market.index(t)] = state.bag.pop()
        else:
            state.bag.remove(t)
        state.neutral.append(t)


def give_chests(state: GameState, seat: int, codes: Sequence[str]) -> None:
    """Chests (of the tiles' colours, taken from the bag) into ``seat``'s tiles ``codes`` (-1: the neutral player's)."""
    sl = chamber(state)
    comp = state.components
    kinds = [comp.tiles[comp.tile_ids[c]].kind for c in codes]
    sl = sl.with_bag(kinds, -1)
    home = sl.neutral if seat < 0 else sl.homes[seat]
    state.mods[ID] = sl.with_home(seat, (*home, *codes))


def chests_everywhere(state: GameState) -> Counter[str]:
    """Every chest of the game by colour: rooms, bag, buildings, bought, being placed."""
    sl = chamber(state)
    comp = state.components
    out: Counter[str] = Counter()
    for r in sl.rooms:
        out.update(r)
    out.update({k: n for k, n in zip(KINDS, sl.bag, strict=True)})
    for homes in (*sl.homes, sl.neutral):
        out.update(comp.tiles[comp.tile_ids[c]].kind for c in homes)
    out.update(sl.bought)
    for p in state.pending:
        if isinstance(p, TreasureChestPlacement):
            out.update(p.chests)
    return out


def check_chests(state: GameState, aside: Counter[str] | None = None) -> None:
    """Assert that all 42 chests are in exactly one place (``aside``: set aside by a test), each
    chest-holding tile stands in its owner's Alhambra (or the neutral player's tiles) and holds
    one chest of its colour."""
    got = chests_everywhere(state) + (aside or Counter())
    assert got == Counter(CHESTS), f"chests: {dict(got)} != {CHESTS}"
    sl = chamber(state)
    comp = state.components
    for s, homes in enumerate(sl.homes):
        assert len(set(homes)) == len(homes)
        city = set(state.players[s].city.values())
        assert all(comp.tile_ids[c] in city and comp.tiles[comp.tile_ids[c]].kind in KINDS for c in homes)
    assert set(sl.neutral) <= {comp.tiles[t].code for t in state.neutral or ()}


def end_turn_by_taking(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single display card, which ends the turn."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, take, top.seat)


def with_hand(state: GameState, seat: int, codes: Sequence[str]) -> GameState:
    """A copy where ``seat`` holds exactly ``codes``."""
    state = state.copy()
    set_hand(state, seat, list(codes))
    return state


def slice_of(state: GameState) -> ChamberState:
    return chamber(state)
