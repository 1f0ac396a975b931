"""engine.services.give_cards: cards a module puts into a hand, as the bots' tracker and the
research observation read them; the per-seat counts of module views in the observation."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from alhambra.bots.base import observe
from alhambra.bots.tracker import Sampler, Tracker
from alhambra.engine import new_game
from alhambra.engine.services import give_cards
from alhambra.events import CardsReceived, Event
from alhambra.research.encoding import codec_for
from alhambra.research.observation import ObservationEncoder, PublicHands
from alhambra.state import GameConfig, GameState
from alhambra.testing import check_conservation
from alhambra.view import view


def _game() -> tuple[GameState, list[Event]]:
    return new_game(GameConfig(players=3), 11)


def _from_deck(state: GameState, k: int) -> list[int]:
    return [state.deck.pop() for _ in range(k)]


def test_a_public_gift_is_known_to_everybody() -> None:
    state, events = _game()
    cards = _from_deck(state, 2)
    codes = [state.components.card_code[c] for c in cards]
    before = list(state.players[1].hand)
    give_cards(state, 1, cards, events, "sample")
    assert state.players[1].hand == before + cards
    check_conservation(state)
    gift = events[-1]
    assert gift == CardsReceived(1, tuple(codes), 2, "sample") and gift.seen_by(0) is gift
    assert gift.describe() == f"player 2 receives {'+'.join(codes)}"
    tracker = Tracker()
    tracker.update(observe(state, 0, events).events)
    assert tracker.hands[1] == Counter(state.components.card_code[c] for c in state.players[1].hand)
    hands = PublicHands(3)
    hands.update(events)
    assert hands.hands[1] == dict(Counter(state.components.card_code[c] for c in state.players[1].hand))


def test_a_secret_gift_shows_its_count_only_and_the_sampler_draws_it() -> None:
    state, events = _game()
    cards = _from_deck(state, 2)
    give_cards(state, 1, cards, events, "sample", secret=True)
    gift = events[-1]
    assert isinstance(gift, CardsReceived)
    assert gift.seen_by(1) is gift and gift.seen_by(0) == CardsReceived(1, (), 2, "sample", True)
    assert gift.seen_by(None).describe() == "player 2 receives 2 cards in secret"
    obs = observe(state, 0, events)
    tracker = Tracker()
    tracker.update(obs.events)
    known = Counter(state.components.card_code[c] for c in state.players[1].hand[:-2])
    assert tracker.hands[1] == known  # the starting money only
    hands = PublicHands(3)
    hands.update(events)  # raw events: read as the table sees them, so nothing leaks
    assert hands.hands[1] == dict(known)
    sampler = Sampler(obs, tracker)
    for k in range(3):
        sample = sampler.sample(random.Random(k))
        assert len(sample.players[1].hand) == len(state.players[1].hand)
        check_conservation(sample)


def test_giving_nothing_says_nothing() -> None:
    state, events = _game()
    n = len(events)
    give_cards(state, 0, [], events, "sample")
    assert len(events) == n


def test_module_view_counts_per_seat_reach_the_observation() -> None:
    config = GameConfig(players=3, modules=("thieves",))
    state, _ = new_game(config, 4)
    encoder = ObservationEncoder.for_config(config, codec_for(config))
    assert encoder.module_counts == (("thieves", "counts", 12),)
    lo, hi = encoder.sections["module_counts"]
    assert hi - lo == 3
    v = view(state, 1)
    counts = v["module_views"]["thieves"]["counts"]
    got = encoder.encode(v)[lo:hi]
    # seats relative to the viewer: block 0 is seat 1
    assert [round(float(x) * 12) for x in got] == [counts[1], counts[2], counts[0]]
    plain = ObservationEncoder.for_config(GameConfig(players=3), codec_for(GameConfig(players=3)))
    assert plain.sections["module_counts"][1] == plain.sections["module_counts"][0]


def test_the_sampler_at_a_setup_decision_counts_money_shuffled_in_at_setup(caplog: pytest.LogCaptureFixture) -> None:
    """The street traders' choice comes before the deal; the diamonds are already in the draw
    pile then: the sampler finds as many unseen cards as the pile holds, diamonds among them."""
    import logging

    from alhambra.state import STAGE_SETUP

    state, events = new_game(GameConfig(players=3, modules=("diamonds", "street_traders")), 4)
    assert state.stage == STAGE_SETUP and any(state.components.cards[c].module == "diamonds" for c in state.deck)
    seat = state.to_act
    assert seat is not None
    with caplog.at_level(logging.WARNING, logger="alhambra.bots"):
        sample = Sampler(observe(state, seat, events)).sample(random.Random(1))
    assert not [r for r in caplog.records if "unseen" in r.getMessage()]
    assert len(sample.deck) == len(state.deck)
    comp = state.components
    assert sorted(comp.card_code[c] for c in sample.deck) == sorted(comp.card_code[c] for c in state.deck)
