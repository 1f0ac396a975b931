"""Whole games with random legal actions: every action applies, states round-trip, cards are
conserved at every step, replays match; with the module alone and with the vizier and the
currency exchange cards."""

from __future__ import annotations

import random

import pytest

from alhambra import GameConfig, apply, legal_actions
from alhambra.chance import ChanceNeeded, chance_outcomes, decide
from alhambra.events import TurnStarted
from alhambra.modules.bonus_cards import MODULE, BonusCardPlayed, BonusCardReturned, BonusPassed, BonusState, bonus_state
from alhambra.modules.bonus_cards.module import CARD_CODES
from alhambra.policies import kind_random
from alhambra.testing import check_conservation, explicit_setup, play_random_game

MOD = "bonus_cards"


def _prefer(action: object) -> float:
    text = str(action)
    if text.startswith("bonus play"):
        return 50.0
    return 1.0 if text.startswith("redesign") else 10.0


@pytest.mark.parametrize(("players", "seed"), [(2, 2), (3, 2), (6, 1)])
def test_random_games_with_bonus_cards_finish(players: int, seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(MOD,)), seed, prefer=_prefer)
    assert game.state.outcome == "finished"
    assert game.actions["bonus play"] > 0 and game.actions["bonus pass"] > 0
    assert isinstance(game.state.mods[MOD], BonusState)
    assert any(isinstance(e, BonusCardPlayed) for e in game.events)
    # the research bound on the module's actions per turn holds
    bound = MODULE.max_actions_between_turns(game.state.config)
    per_turn = [0]
    for e in game.events:
        if isinstance(e, TurnStarted):
            per_turn.append(0)
        elif isinstance(e, BonusCardPlayed | BonusPassed):
            per_turn[-1] += 1
    assert 0 < max(per_turn) <= bound


def test_random_games_return_cards_to_the_hand() -> None:
    game = play_random_game(GameConfig(players=2, modules=(MOD,)), 1, prefer=_prefer)
    assert sum(isinstance(e, BonusCardReturned) for e in game.events) > 0


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_with_the_vizier_and_exchange_cards(players: int) -> None:
    config = GameConfig(players=players, modules=(MOD, "currency_exchange", "vizier"))
    game = play_random_game(config, 1, prefer=_prefer)
    assert game.state.outcome == "finished"
    assert game.actions["bonus play"] > 0 and game.actions["vizier buy"] > 0


def test_a_turn_limited_game_is_truncated() -> None:
    game = play_random_game(GameConfig(players=3, modules=(MOD,), turn_limit=30), 9, prefer=_prefer)
    assert game.state.outcome == "truncated"
    assert game.state.turn == 30


def test_an_explicit_chance_game_with_bonus_cards() -> None:
    """Every draw decided from outside, the secret deal of the bonus cards too (a chance node
    per card, each shown to its seat alone)."""
    rng = random.Random(3)
    config = GameConfig(players=3, modules=(MOD,))
    state, draws, decided = explicit_setup(config, lambda outs: rng.choice([c for c, _ in outs]))
    secret = [e.draw.secret_to for e in draws if e.draw is not None]
    assert sorted(len(h) for h in bonus_state(state).hands) == [3, 3, 3]
    assert secret == [0, 0, 0, 1, 1, 1, 2, 2, 2]  # each card shown to its seat alone
    assert sorted(c.removeprefix(f"{MOD}:") for c in decided[2]) == sorted(CARD_CODES[c] for h in bonus_state(state).hands for c in h)
    steps = 0
    while not state.is_over and steps < 3000:
        steps += 1
        action = kind_random(state, rng)
        base = state
        while True:
            try:
                state, _ = apply(base, action)
                break
            except ChanceNeeded as e:
                outs = chance_outcomes(e.state, e.kind, e.draw)
                base = base.copy()
                decide(base, e.kind, rng.choice([c for c, _ in outs]))
        check_conservation(state)
    assert state.is_over and state.rounds_scored == 3
    assert legal_actions(state) == []
