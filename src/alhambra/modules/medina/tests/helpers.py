"""Situations for the medina tests, built by moving real tiles and cards (never inventing them)."""

from __future__ import annotations

from collections.abc import Sequence

from alhambra.events import RoundScored
from alhambra.modules.medina.module import MODULE_ID
from alhambra.state import GameState
from alhambra.testing import build_tiles as build, fresh_game, score_next_round as score_round, take_tile

ID = MODULE_ID
MEDINAS = ("M2sw", "M3es", "M4ne", "M5nw", "M6e", "M7w", "M8s", "M9n", "M10")
"""The nine medina codes, cheapest first (price 2 to 10)."""
MARKET = ("P4es", "S5sw", "A6sw", "C7sw")
"""The market of :func:`fresh`: squares 1-4 take blue, green, orange, yellow."""


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), market: Sequence[str] = MARKET) -> GameState:
    """A new game with the medinas (and ``modules``), the market ``market``, every hand empty and
    (2 players) a neutral player without any medina (his medinas change places with bag tiles)."""
    state = fresh_game(players, seed, (ID, *modules), market=market)
    if state.neutral is not None:
        ids = state.components.tile_ids
        for i, t in enumerate(state.neutral):
            if state.components.tile_code[t] in MEDINAS:
                other = next(b for b in state.bag if state.components.tile_code[b] not in MEDINAS)
                state.bag[state.bag.index(other)] = t
                state.neutral[i] = other
        assert not any(state.components.tile_code[t] in MEDINAS for t in state.neutral)
        assert all(ids[c] not in state.neutral for c in market)
    return state


def build_row(state: GameState, seat: int, codes: Sequence[str]) -> None:
    """Build ``codes`` east of ``seat``'s fountain, one after the other (no rule checked)."""
    build(state, seat, {(i + 1, 0): c for i, c in enumerate(codes)})


def reserve(state: GameState, seat: int, codes: Sequence[str]) -> None:
    """Put these tiles on ``seat``'s reserve board."""
    for code in codes:
        state.players[seat].reserve.append(take_tile(state, code))


def give_neutral(state: GameState, codes: Sequence[str]) -> None:
    """The neutral player's tiles are exactly ``codes`` (his old ones go back into the bag)."""
    assert state.neutral is not None
    old, state.neutral = state.neutral, []
    state.bag[0:0] = old
    state.neutral = [take_tile(state, c) for c in codes]


def score_next_round(state: GameState) -> tuple[GameState, RoundScored]:
    """Draw a scoring card at the end of the current seat's turn: the next round is scored
    (:func:`alhambra.testing.score_next_round`); returns the new state and its ``RoundScored``."""
    state, events = score_round(state)
    return state, next(e for e in events if isinstance(e, RoundScored))


def medina_codes(state: GameState, ids: Sequence[int]) -> list[str]:
    """The medinas among these tile ids (codes, in the order given)."""
    return [state.components.tile_code[t] for t in ids if state.components.tile_code[t] in MEDINAS]
