"""Situations for the change tests (every card and tile stays in exactly one place; coins are
moved between the bag and the seats, never invented)."""

from __future__ import annotations

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra.actions import Action, PlaceBuilding, TakeMoney
from alhambra.events import Event
from alhambra.modules.change import ChangeState, change_slice, currency_of_token
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import set_hand, set_market

MARKET = ("G10", "S5sw", "A6sw", "C7sw")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow."""


def fresh(players: int = 3, seed: int = 3, modules: tuple[str, ...] = ("change",), turn_limit: int | None = None) -> GameState:
    """A new game with the market of :data:`MARKET` and every hand empty."""
    state, _ = new_game(GameConfig(players=players, modules=modules, turn_limit=turn_limit), seed)
    ids = state.components.tile_ids
    for code in MARKET:  # (2 players) a market tile dealt to the neutral player changes places with one from the bag
        if state.neutral is not None and ids[code] in state.neutral:
            other = next(t for t in state.bag if state.components.tile_code[t] not in MARKET)
            state.bag[state.bag.index(other)] = ids[code]
            state.neutral[state.neutral.index(ids[code])] = other
    for sq, code in enumerate(MARKET, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    return state


def give_coins(state: GameState, seat: int, *tokens: str) -> None:
    """Move coins of these tokens from the bag to ``seat``."""
    for token in tokens:
        sl = change_slice(state)
        c = currency_of_token(token)
        bag = list(sl.bag)
        mine = list(sl.coins[seat])
        assert bag[c] > 0, f"no {token} coin left in the bag"
        bag[c] -= 1
        mine[c] += 1
        state.mods["change"] = sl.with_seat(seat, tuple(mine), tuple(bag))


def empty_bag(state: GameState, keep: tuple[int, ...] = (0, 0, 0, 0)) -> None:
    """Give every coin of the bag but ``keep`` (per currency) to the last seat."""
    sl = change_slice(state)
    last = state.config.players - 1
    moved = tuple(b - k for b, k in zip(sl.bag, keep, strict=True))
    mine = tuple(m + k for m, k in zip(sl.coins[last], moved, strict=True))
    state.mods["change"] = sl.with_seat(last, mine, keep)


def coins(state: GameState, seat: int) -> tuple[int, ...]:
    """The coins in front of ``seat`` per currency."""
    return change_slice(state).coins[seat]


def bag(state: GameState) -> tuple[int, ...]:
    return change_slice(state).bag


def set_slice(state: GameState, value: ChangeState) -> None:
    state.mods["change"] = value


def finish_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single card of the display (if it still must act) and
    puts every waiting tile on the reserve board; other decisions of the seat are declined."""
    seat = state.current
    events: list[Event] = []
    while state.to_act == seat and state.outcome is None:
        top = state.pending[-1]
        action: Action
        if isinstance(top, ChooseAction):
            action = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
        elif isinstance(top, PlaceTiles):
            action = PlaceBuilding(top.tiles[0], "reserve")
        else:
            action = legal_actions(state)[-1]
        state, evs = apply(state, action, seat)
        events += evs
    return state, events
