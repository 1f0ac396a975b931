"""Situations for the medina tests, built by moving real tiles and cards (never inventing them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from alhambra import apply, legal_actions
from alhambra import city as geo
from alhambra.actions import TakeMoney
from alhambra.events import Event, RoundScored
from alhambra.modules.medina.module import MODULE_ID
from alhambra.state import ChooseAction, GameState
from alhambra.testing import fresh_game

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


def take_tile(state: GameState, code: str) -> int:
    """Take ``code`` out of the bag, a market square (refilled from the bag) or the neutral
    player's tiles (replaced from the bag); return its id."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
    elif t in state.market:
        state.market[state.market.index(t)] = state.bag.pop()
    elif state.neutral is not None and t in state.neutral:
        state.neutral[state.neutral.index(t)] = state.bag.pop()
    else:
        raise KeyError(f"{code} is not in the bag, on the market or with the neutral player")
    return t


def build(state: GameState, seat: int, layout: Mapping[tuple[int, int], str]) -> None:
    """Put these tiles (codes) into ``seat``'s Alhambra (in place, no building rule checked)."""
    city = state.players[seat].city
    for (x, y), code in layout.items():
        assert geo.pos(x, y) not in city
        city[geo.pos(x, y)] = take_tile(state, code)


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


def scoring_card_next(state: GameState) -> None:
    """The next card drawn from the draw pile is the lower scoring card still in it."""
    cards = state.components.cards
    c = min((c for c in state.deck if cards[c].kind == "scoring"), key=lambda c: cards[c].value)
    state.deck.remove(c)
    state.deck.append(c)


def take_first(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single card of the display (its turn ends)."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, take, top.seat)


def score_next_round(state: GameState) -> tuple[GameState, RoundScored]:
    """Draw a scoring card at the end of the current seat's turn: the next round is scored."""
    scoring_card_next(state)
    state, events = take_first(state)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert len(rounds) == 1
    return state, rounds[0]


def medina_codes(state: GameState, ids: Sequence[int]) -> list[str]:
    """The medinas among these tile ids (codes, in the order given)."""
    return [state.components.tile_code[t] for t in ids if state.components.tile_code[t] in MEDINAS]
