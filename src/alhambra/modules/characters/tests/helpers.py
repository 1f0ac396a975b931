"""Situations for the characters tests, built by moving real cards (never inventing them)."""

from __future__ import annotations

from dataclasses import replace

from alhambra import apply, legal_actions, parse_action
from alhambra.events import Event
from alhambra.modules.characters import auction as auctions
from alhambra.modules.characters.components import MODULE_ID, card_ids
from alhambra.modules.characters.module import MODULE
from alhambra.modules.characters.state import CharactersState, chars
from alhambra.state import GameState
from alhambra.testing import check_conservation, fresh_game

ID = MODULE_ID


def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (), market: tuple[str, ...] = ()) -> GameState:
    """A new game with the characters (and ``modules``), every hand empty."""
    return fresh_game(players, seed, (ID, *modules), market)


def _card_from_deck(state: GameState) -> int:
    """A character card out of the draw pile (it joins the module's cards)."""
    c = next(c for c in reversed(state.deck) if c in card_ids(state))
    state.deck.remove(c)
    sl = chars(state)
    state.mods[ID] = replace(sl, cards=tuple(sorted((*sl.cards, c))))
    return c


def give(state: GameState, seat: int, key: str) -> None:
    """``seat`` owns the character ``key`` (a card from the draw pile turned up for it)."""
    sl = chars(state)
    assert key in sl.unseen(), f"{key} has been seen already"
    _card_from_deck(state)
    sl = chars(state)
    owned = list(sl.owned)
    owned[seat] = (*owned[seat], key)
    state.mods[ID] = replace(sl, owned=tuple(owned))


def auction(state: GameState, key: str) -> None:
    """``key`` comes up from the draw pile now (between actions): its auction starts."""
    _card_from_deck(state)
    sl = chars(state)
    state.mods[ID] = replace(sl, queue=(*sl.queue, key))
    auctions.start_next(state)
    top = state.pending[-1]
    MODULE.resume(state, top, [])


def act(state: GameState, text: str) -> tuple[GameState, list[Event]]:
    """Apply ``text`` for the seat to act; it must be listed among the legal actions."""
    a = parse_action(text)
    assert a in legal_actions(state), f"{text} is not legal: {[str(x) for x in legal_actions(state)][:30]}"
    seat = state.to_act
    assert seat is not None
    state, events = apply(state, a, seat)
    check_conservation(state)
    return state, events


def legal(state: GameState) -> list[str]:
    """The legal actions' notation."""
    return [str(a) for a in legal_actions(state)]


__all__ = ["ID", "CharactersState", "act", "auction", "chars", "fresh", "give", "legal"]
