"""Whole games with the characters (random legal actions, every step checked: conservation, JSON
round trips, actions by kind, exact replays, views), and the bots bidding with sense."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from alhambra import GameConfig
from alhambra.bots.greedy import greedy_action
from alhambra.events import GameEnded, RoundScored
from alhambra.modules.characters.events import CharacterWon
from alhambra.modules.characters.state import Auction
from alhambra.testing import play_random_game, set_hand
from alhambra.tournament import play_game

from .helpers import ID, auction, chars, fresh


def _check_end(game: object) -> None:
    state = game.state  # type: ignore[attr-defined]
    events = game.events  # type: ignore[attr-defined]
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    assert [e.round for e in events if isinstance(e, RoundScored)] == [1, 2, 3]
    sl = chars(state)
    owned = [k for o in sl.owned for k in o]
    assert len(owned) + len(sl.out) + len(sl.known) <= 6 + 1  # at most six come up (+1 swapped in)
    assert len(sl.cards) == 10 or len(state.deck) + len(state.discard) > 0


@pytest.mark.parametrize(("players", "every"), [(2, True), (5, False)])
def test_random_games_with_the_characters(players: int, every: bool) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=500 + players, try_every_action=every)
    _check_end(game)
    assert game.actions["character pass"] + game.actions["character bid"] > 0


@pytest.mark.parametrize(
    ("players", "modules"),
    [
        (3, ("vizier", "diamonds", "change", "thieves")),
        (4, ("master_builders", "power_of_the_sultan", "caravanserai", "invaders", "bazaars")),
    ],
)
def test_random_games_with_the_modules_it_touches(players: int, modules: tuple[str, ...]) -> None:
    config = GameConfig(players=players, modules=(ID, *modules), turn_limit=35)
    game = play_random_game(config, seed=616 + players, try_every_action=False)  # deals that bring characters up early
    assert game.state.outcome in ("finished", "truncated")
    assert game.actions["character pass"] + game.actions["character bid"] > 0


def test_greedy_opens_low_and_stops_above_the_cards_worth() -> None:
    state = fresh(3)
    first = state.current
    set_hand(state, first, ["b9", "b8", "b7", "b6"])
    auction(state, "wise_man")
    rng = random.Random(1)
    assert str(greedy_action(state, rng)) == "character bid 1"  # the lowest raise, not a random bid
    top = state.pending[-1]
    assert isinstance(top, Auction)
    other = (first + 1) % 3
    state.pending[-1] = replace(top, high=25, leader=other)  # far above what the Wise Man is worth
    assert str(greedy_action(state, rng)) == "character pass"


def test_mcts_plays_with_the_characters() -> None:
    config = GameConfig(players=3, modules=(ID,), turn_limit=30)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_property_auctions_are_paid_and_characters_owned_once(players: int, seed: int) -> None:
    """Whatever random play does: every won character was paid with at least its bid, in one
    currency; no character is owned twice or owned and out; the neutral player never bids."""
    game = play_random_game(GameConfig(players=players, modules=(ID,), turn_limit=30), seed=seed, try_every_action=False)
    comp = game.state.components
    value = {c.code: (c.value, c.currency) for c in comp.cards if c.is_money}
    for e in game.events:
        if isinstance(e, CharacterWon):
            paid = [value[c] for c in e.payment]
            assert sum(v for v, _ in paid) >= e.bid and len({cur for _, cur in paid}) == 1
            assert 0 <= e.seat < players
    sl = chars(game.state)
    owned = [k for o in sl.owned for k in o]
    assert len(owned) == len(set(owned)) and not set(owned) & set(sl.out)
