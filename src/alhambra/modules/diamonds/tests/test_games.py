"""Random whole games with diamonds: alone (2, 3 and 6 players), with the vizier and the exchange
cards, and with the other modules of the Big Box that deal in money and purchases; every step
checked (conservation, JSON round trips, legal actions by kind), replays exact, views that do not
change when only hidden facts change, and the bots' use of diamonds."""

from __future__ import annotations

import json
import random

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, view
from alhambra.actions import Action
from alhambra.bots import EventLog, make_bot, observe
from alhambra.events import BuildingBought, ItemBought
from alhambra.modules.diamonds import CARD_CODES
from alhambra.testing import RandomGame, play_random_game

ID = "diamonds"


def pays_in_diamonds(action: Action) -> bool:
    payment = getattr(action, "payment", None)
    return isinstance(payment, tuple) and any(c in CARD_CODES for c in payment)


def prefer(action: Action) -> float:
    """Random play that likes paying in diamonds (so they are spent often) and avoids redesigns."""
    if pays_in_diamonds(action):
        return 40.0
    return 1.0 if str(action).startswith("redesign") else 10.0


def diamond_payments(game: RandomGame) -> int:
    return sum(1 for e in game.events if isinstance(e, BuildingBought | ItemBought) and any(c in CARD_CODES for c in e.payment))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (6, 3)])
def test_random_games_alone(players: int, seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed, prefer=prefer)
    assert game.state.outcome == "finished"
    assert diamond_payments(game) >= 2
    # no diamond payment ever mixes currencies
    for e in game.events:
        if isinstance(e, BuildingBought) and any(c in CARD_CODES for c in e.payment):
            assert all(c in CARD_CODES for c in e.payment), e


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_with_the_vizier_and_exchange_cards(players: int) -> None:
    config = GameConfig(players=players, modules=(ID, "currency_exchange", "vizier"))
    game = play_random_game(config, 5 + players, prefer=prefer)
    assert game.state.outcome == "finished"
    assert diamond_payments(game) >= 1
    assert game.actions["vizier buy"] > 0


def test_random_game_with_the_other_purchase_modules() -> None:
    config = GameConfig(
        players=4, modules=(ID, "bazaars", "currency_exchange", "master_builders", "power_of_the_sultan", "thieves", "vizier")
    )
    game = play_random_game(config, 11, prefer=prefer)
    assert game.state.outcome == "finished"
    assert diamond_payments(game) >= 1


def test_views_do_not_change_with_hidden_facts() -> None:
    state, _ = new_game(GameConfig(players=3, modules=(ID,)), 8)
    rng = random.Random(8)
    for _ in range(120):
        if state.is_over:
            break
        other = state.copy()
        rng.shuffle(other.deck)
        rng.shuffle(other.bag)
        for viewer in (0, 1, 2, None):
            assert json.dumps(view(state, viewer)) == json.dumps(view(other, viewer))
        state, _ = apply(state, rng.choice(legal_actions(state)))


def test_the_greedy_bot_pays_in_diamonds() -> None:
    """A short 2-player game of the greedy bot against itself: diamonds are spent on buildings."""
    state, events = new_game(GameConfig(players=2, modules=(ID,)), 3)
    bots = [make_bot("greedy"), make_bot("greedy")]
    rng = random.Random(3)
    history = EventLog()
    history.extend(events)
    used = 0
    for _ in range(160):
        if state.is_over:
            break
        seat = state.to_act
        assert seat is not None
        action = bots[seat].choose(observe(state, seat, tuple(history.for_seat(seat))), bots[seat].budget, rng)
        used += pays_in_diamonds(action)
        state, evs = apply(state, action, seat)
        history.extend(evs)
    assert used >= 1


def test_the_mcts_bot_samples_and_plays_with_diamonds() -> None:
    """The MCTS bot's sampler rebuilds hands with diamonds from the public history (no module
    slice to sample) and plays legal moves."""
    state, events = new_game(GameConfig(players=2, modules=(ID,)), 6)
    bot = make_bot("mcts:easy")
    rng = random.Random(6)
    history = EventLog()
    history.extend(events)
    for _ in range(6):
        seat = state.to_act
        assert seat is not None
        action = bot.choose(observe(state, seat, tuple(history.for_seat(seat))), bot.budget, rng)
        assert action in legal_actions(state)
        state, evs = apply(state, action, seat)
        history.extend(evs)


def test_tournaments_count_a_diamond_payment_as_using_the_module() -> None:
    from alhambra import parse_action
    from alhambra.tournament import action_owners

    owner = action_owners(GameConfig(players=2, modules=(ID,)))
    assert owner(parse_action("buy 2 d4+d5")) == ID
    assert owner(parse_action("buy 2 b4+b5")) is None
    assert owner(parse_action("take d3")) is None  # taking diamonds is taking money
