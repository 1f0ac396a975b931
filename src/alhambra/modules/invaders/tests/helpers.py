"""Situations for the invaders tests, built by moving real tiles and cards (never inventing them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from alhambra import GameConfig, new_game
from alhambra.modules.invaders.module import MODULE_ID, invaders
from alhambra.state import GameState
from alhambra.testing import fresh_game, set_hand, set_market

ID = MODULE_ID
MARKET = ("P4es", "S5sw", "A6sw", "C7sw")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow."""


def fresh(
    players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), market: Sequence[str] = MARKET, face_up: bool = False
) -> GameState:
    """A new game with the invaders (and ``modules``; ``face_up``: the variation), the market
    ``market`` and every hand empty."""
    if not face_up:
        return fresh_game(players, seed, (ID, *modules), market=market)
    state, _ = new_game(GameConfig(players=players, modules=(ID, *modules), options=((ID, "face_up", True),)), seed)
    for sq, code in enumerate(market, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    return state


def set_scouts(state: GameState, scouts: Sequence[str]) -> None:
    """The face-up scouts are ``scouts`` (the others go to the pile)."""
    sl = invaders(state)
    every = list(sl.scouts) + list(sl.pile)
    assert set(scouts) <= set(every)
    state.mods[ID] = replace(sl, scouts=tuple(scouts), pile=tuple(k for k in every if k not in scouts))


def set_top(state: GameState, direction: str | None, known: Sequence[int] = ()) -> None:
    """The top invasion card is ``direction`` (None: not drawn yet), looked at by ``known``."""
    sl = invaders(state)
    assert direction is None or direction in sl.left()
    n = state.config.players
    state.mods[ID] = replace(sl, top=direction, known=tuple(s in known for s in range(n)))
