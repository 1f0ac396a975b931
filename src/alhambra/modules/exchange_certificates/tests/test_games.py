"""Whole games with the exchange certificates: random legal actions (every step checked:
conservation, JSON round trips, actions by kind, exact replays, and every currency token in one
place), the bots, and the research token encoding."""

from __future__ import annotations

import random

import pytest

from alhambra import GameConfig, GameRecord, apply, new_game, parse_action, replay
from alhambra.actions import Action
from alhambra.bots.greedy import greedy_action
from alhambra.engine import apply_unchecked, legal_actions
from alhambra.modules.change import check_coins
from alhambra.modules.exchange_certificates import CreditStored, StoreChoice, check_tokens
from alhambra.testing import RandomGame, play_random_game, set_hand, set_market
from alhambra.tournament import action_owners, play_game

from .helpers import credit, fresh, store


def uses_credit(action: Action) -> bool:
    return "cr" in getattr(action, "payment", ())


def likes_credit(action: Action) -> float:
    """Random play that overpays, stores and spends credit often."""
    text = str(action)
    if uses_credit(action):
        return 80.0
    if text.startswith("certificate"):
        return 10.0
    if text.startswith("buy"):
        return 30.0
    return 1.0 if text.startswith("redesign") else 10.0


def check_game(game: RandomGame) -> None:
    assert game.state.outcome == "finished"
    config = game.record.config
    state, _ = new_game(config, game.record.seed)
    for a in game.record.actions:
        apply_unchecked(state, a)
        check_tokens(state)
        if "change" in config.modules:
            check_coins(state)
    assert game.actions["certificate store"] > 0
    assert any(uses_credit(a) for a in game.record.actions)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_games_with_the_certificates(players: int) -> None:
    game = play_random_game(
        GameConfig(players=players, modules=("exchange_certificates",)),
        seed=900 + players,
        prefer=likes_credit,
        try_every_action=players == 2,
    )
    check_game(game)


def test_random_games_with_change_the_vizier_and_exchange_cards() -> None:
    config = GameConfig(players=4, modules=("change", "currency_exchange", "exchange_certificates", "vizier"))
    game = play_random_game(config, seed=1004, prefer=likes_credit, try_every_action=False)
    check_game(game)
    assert game.actions["vizier buy"] > 0


# ---------------------------------------------------------------------------------- bots
def test_the_greedy_bot_stores_an_overpayment() -> None:
    state = fresh()
    seat = state.current
    set_hand(state, seat, ["y9"])
    state, _ = apply(state, parse_action("buy 4 y9"), seat)
    assert isinstance(state.pending[-1], StoreChoice)
    choice = greedy_action(state, random.Random(1))
    assert str(choice).startswith("certificate store")


def test_the_greedy_bot_stores_in_the_colour_that_buys_a_tile() -> None:
    state = fresh()
    seat = state.current
    set_market(state, 2, "G9e")  # too dear for a green credit of 5
    set_hand(state, seat, ["y9", "o3"])  # with 5 orange more, the orange 6 arcade is affordable
    state, _ = apply(state, parse_action("buy 4 y9"), seat)
    choice = greedy_action(state, random.Random(1))
    assert str(choice) == "certificate store o"


def test_the_greedy_bot_spends_a_credit() -> None:
    state = fresh()
    seat = state.current
    store(state, seat, 0, 4)
    set_hand(state, seat, ["b8"])  # only 8 + 4 pays the 12 tower exactly
    choice = greedy_action(state, random.Random(1))
    assert str(choice) == "buy 1 cr+b8"
    after, _ = apply(state, choice, seat)
    assert credit(after, seat) == (-1, 0)


def test_greedy_bots_store_and_spend_credit_in_a_whole_game() -> None:
    config = GameConfig(players=2, modules=("exchange_certificates",))
    result = play_game(config, ["greedy", "random"], seed=5, game=0)
    assert result.outcome == "finished" and result.fallbacks == 0
    record = GameRecord.from_json(result.record)
    _, events = replay(record)
    greedy_seat = result.seats[0]
    assert any(isinstance(e, CreditStored) and e.seat == greedy_seat for e in events)
    assert result.module_use[0]["exchange_certificates"][1] > 0
    owner = action_owners(config)
    assert owner(parse_action("certificate decline")) is None  # declining is no use of the module
    assert owner(parse_action("buy 1 cr+b8")) == "exchange_certificates"


def test_mcts_plays_with_the_certificates_and_change() -> None:
    config = GameConfig(players=3, modules=("change", "exchange_certificates"), turn_limit=20)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0


# ---------------------------------------------------------------------------------- research encoding
def test_the_token_encoding_spells_every_action_of_the_modules() -> None:
    pytest.importorskip("numpy")
    from alhambra.research.encoding import codec_for

    config = GameConfig(players=3, modules=("change", "exchange_certificates", "vizier"))
    codec = codec_for(config)
    for token in ("cb", "cg", "co", "cy", "cr"):
        assert token in codec.card_codes
    for text in (
        "certificate store b",
        "certificate store y",
        "certificate decline",
        "buy 1 cb+cb+b8",
        "buy 2 cr+cg+g3",
        "vizier buy 3 cr+co",
    ):
        a = parse_action(text)
        tokens = codec.encode(a)
        assert codec.decode(tokens) == a
    # and every legal action of some states of a random game
    rng = random.Random(2)
    state, _ = new_game(config, 2)
    seen = 0
    while not state.is_over and seen < 400:
        acts = legal_actions(state)
        tree = codec.tree(acts)
        assert sorted(map(str, tree.actions())) == sorted(map(str, acts))
        apply_unchecked(state, rng.choice(acts))
        seen += 1
