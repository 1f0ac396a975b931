"""Situations for the falconers tests, built by moving real tiles and cards (never inventing them)."""

from __future__ import annotations

from collections.abc import Mapping

from alhambra import apply, legal_actions, parse_action
from alhambra import city as geo
from alhambra.actions import TakeMoney
from alhambra.events import Event, RoundScored
from alhambra.modules.falconers.module import MODULE_ID
from alhambra.state import ChooseAction, GameState
from alhambra.testing import check_conservation, fresh_game

ID = MODULE_ID
CORNER = {(1, 0): "G11", (0, 1): "T12", (1, 1): "A9"}
"""Three wall-free tiles around the fountain's south-east corner: with the fountain they make
the intersection ``0,0`` (garden, tower, arcades; the fountain gives no colour)."""


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = ()) -> GameState:
    """A new game with the falconers (and ``modules``), every hand empty."""
    return fresh_game(players, seed, (ID, *modules))


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


def act(state: GameState, notation: str, seat: int | None = None) -> tuple[GameState, list[Event]]:
    """Apply ``notation`` for ``seat`` (default: the seat to act), then check conservation."""
    who = state.to_act if seat is None else seat
    assert who is not None
    after, events = apply(state, parse_action(notation), who)
    check_conservation(after)
    return after, events


def legal(state: GameState) -> list[str]:
    """The legal actions as notation."""
    return [str(a) for a in legal_actions(state)]


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
