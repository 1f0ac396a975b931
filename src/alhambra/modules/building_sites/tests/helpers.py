"""Situations for the Building Sites tests (every card, tile and site tile stays in exactly one place)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from alhambra import GameConfig, apply, city as geo, legal_actions, new_game, parse_action
from alhambra.actions import TakeMoney
from alhambra.components import CURRENCY_LETTERS
from alhambra.events import Event
from alhambra.modules.building_sites import MODULE_ID, Site, SitesState, check_sites, components, sites_slice
from alhambra.state import ChooseAction, GameState
from alhambra.testing import check_conservation, set_hand, set_market

ID = MODULE_ID
MARKET = ("P4es", "S5sw", "A6sw", "C7sw")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow; prices 4, 5, 6, 7."""


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), turn_limit: int | None = None) -> GameState:
    """A new game with this module (and ``modules``): the market of :data:`MARKET` and every hand empty."""
    state, _ = new_game(GameConfig(players=players, modules=(ID, *modules), turn_limit=turn_limit), seed)
    ids = state.components.tile_ids
    for code in MARKET:  # (2 players) a market tile dealt to the neutral player trades places with a bag tile
        if state.neutral is not None and ids[code] in state.neutral:
            i = state.neutral.index(ids[code])
            state.neutral[i] = next(t for t in state.bag if state.components.tiles[t].code not in MARKET)
            state.bag.remove(state.neutral[i])
            state.bag.append(ids[code])
    for sq, code in enumerate(MARKET, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    return state


def seat_to_act(state: GameState) -> int:
    seat = state.to_act
    assert seat is not None
    return seat


def act(state: GameState, notation: str) -> tuple[GameState, list[Event]]:
    """Apply ``notation`` for the seat to act (checked like a player's move), then check the invariants."""
    after, events = apply(state, parse_action(notation), seat_to_act(state))
    check_conservation(after)
    check_sites(after)
    return after, events


def legal(state: GameState) -> list[str]:
    return [str(a) for a in legal_actions(state)]


def set_stack(state: GameState, letters: str) -> None:
    """Make the stack of a fresh game hold exactly these site tiles (currency letters): the
    others leave the game as if completed earlier (sites of seat 0 on made-up tiles ``goneN``,
    so every site tile is still in exactly one place)."""
    sl = sites_slice(state)
    assert not sl.sites and not sl.drawn and not sl.completed, "set_stack needs a fresh stack"
    want = sorted(CURRENCY_LETTERS.index(ch) for ch in letters)
    rest = list(components().site_tiles)
    for c in want:
        rest.remove(c)
    completed = tuple(Site(i + 1, 0, f"gone{i + 1}", c) for i, c in enumerate(rest))
    state.mods[ID] = SitesState(tuple(want), (), (), completed)


def hand(state: GameState, seat: int, codes: Sequence[str]) -> None:
    set_hand(state, seat, codes)


def build_at(state: GameState, seat: int, code: str, x: int, y: int) -> None:
    """Move tile ``code`` from the bag or the market into ``seat``'s Alhambra at ``x``, ``y`` (no rule check)."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
    elif t in state.market:
        sq = state.market.index(t)
        state.market[sq] = state.bag.pop()
    else:
        raise KeyError(f"{code} is neither in the bag nor on the market")
    state.players[seat].build(geo.pos(x, y), t)


def give_site(state: GameState, seat: int, code: str, letter: str, where: str = "alhambra", x: int = 1, y: int = 0) -> None:
    """A site of ``seat`` on tile ``code`` (from the bag or the market) with a ``letter`` site
    tile from the stack, in the Alhambra at ``x``, ``y`` or on the reserve board."""
    t = state.components.tile_ids[code]
    if where == "alhambra":
        build_at(state, seat, code, x, y)
    else:
        if t in state.bag:
            state.bag.remove(t)
        else:
            sq = state.market.index(t)
            state.market[sq] = state.bag.pop()
        state.players[seat].reserve.append(t)
    sl = sites_slice(state)
    stack = list(sl.stack)
    stack.remove(CURRENCY_LETTERS.index(letter))
    site = Site(sl.next_number(), seat, code, CURRENCY_LETTERS.index(letter))
    state.mods[ID] = replace(sl, stack=tuple(stack), sites=(*sl.sites, site))


def end_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """The seat to act takes the first single card of the display (which ends its action phase)."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, take, top.seat)


def place_all(state: GameState, target: str = "reserve") -> tuple[GameState, list[Event]]:
    """Place every waiting tile of the seat to act on its reserve board (or give them away)."""
    events: list[Event] = []
    while True:
        acts = [a for a in legal(state) if a.startswith("place ") and a.endswith(f" {target}")]
        if not acts:
            return state, events
        state, evs = act(state, acts[0])
        events += evs


def event_types(events: Sequence[Event]) -> list[str]:
    return [type(e).__name__ for e in events]
