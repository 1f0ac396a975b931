"""Whole games with master builders (random legal actions, other modules, bots) and the bots'
sampler: every action applies, cards are conserved, states round-trip, replays are exact."""

from __future__ import annotations

import random

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra.bots import make_bot, observe
from alhambra.bots.base import EventLog
from alhambra.bots.tracker import Sampler, Tracker
from alhambra.chance import NOBODY, ChanceNeeded, chance_outcomes, decide
from alhambra.engine import draw_card
from alhambra.events import GameEnded
from alhambra.modules.master_builders import MODULE, MasterBuildersRevealed, MasterBuildersState, card_ids
from alhambra.state import GameState
from alhambra.testing import check_conservation, explicit_setup, play_random_game

from .situations import MB, slice_of

BUILDER_USES = ("builder build", "builder remove", "builder exchange")


@pytest.mark.parametrize("players, seed", [(2, 11), (3, 12), (4, 13), (6, 14)])
def test_random_games_with_master_builders_finish(players: int, seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(MB,)), seed=seed, try_every_action=players == 3)
    assert game.state.outcome == "finished"
    assert isinstance(game.events[-1], GameEnded)
    assert sum(game.actions[k] for k in BUILDER_USES) > 0 and game.actions["builder skip"] > 0
    assert any(isinstance(e, MasterBuildersRevealed) for e in game.events)
    sl = slice_of(game.state)
    assert isinstance(sl, MasterBuildersState) and sl.removed


def test_random_games_with_the_vizier_and_currency_exchange() -> None:
    game = play_random_game(GameConfig(players=4, modules=("currency_exchange", MB, "vizier")), seed=21, try_every_action=False)
    assert game.state.outcome == "finished"
    assert sum(game.actions[k] for k in BUILDER_USES) > 0
    assert game.actions["vizier buy"] > 0


def test_turn_limited_game_is_truncated() -> None:
    game = play_random_game(GameConfig(players=2, modules=(MB,), turn_limit=15), seed=3, try_every_action=False)
    assert game.state.outcome == "truncated" and game.state.turn == 15


def _play(state: GameState, history: EventLog, bots: list[str], steps: int, rng: random.Random) -> tuple[GameState, list[str]]:
    players = [make_bot(spec) for spec in bots]
    chosen: list[str] = []
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act
        assert seat is not None
        obs = observe(state, seat, tuple(history.for_seat(seat)))
        action = players[seat].choose(obs, players[seat].budget, rng)
        chosen.append(str(action))
        state, events = apply(state, action, seat)
        history.extend(events)
    return state, chosen


def test_greedy_bots_play_a_whole_game_and_use_the_cards(caplog: pytest.LogCaptureFixture) -> None:
    state, events = new_game(GameConfig(players=3, modules=(MB,)), 5)
    history = EventLog()
    history.extend(events)
    with caplog.at_level("WARNING", logger="alhambra.bots"):
        state, chosen = _play(state, history, ["greedy"] * 3, 1000, random.Random(1))
    assert state.outcome == "finished"
    assert any(c.startswith(BUILDER_USES) for c in chosen) and "builder skip" in chosen
    assert any(c.startswith("buy") and "m" in c.split()[2] for c in chosen)  # they pay with them too
    assert not caplog.records  # no sampler or tracker complaint, no fallback


def test_mcts_bots_play_a_few_turns(caplog: pytest.LogCaptureFixture) -> None:
    state, events = new_game(GameConfig(players=2, modules=(MB,)), 8)
    history = EventLog()
    history.extend(events)
    with caplog.at_level("WARNING", logger="alhambra.bots"):
        state, chosen = _play(state, history, ["mcts:easy@iterations=30", "mcts:easy@iterations=30"], 12, random.Random(2))
    assert len(chosen) == 12
    assert not caplog.records


@pytest.mark.parametrize("players, seed", [(2, 31), (4, 32), (6, 33)])
def test_sampled_states_hide_master_builders_consistently(players: int, seed: int, caplog: pytest.LogCaptureFixture) -> None:
    """After some play, every seat's samples keep every card in one place, give every other seat
    as many secret cards as it has (master-builder cards the viewer has not seen), and set aside
    as many cards as the game did; the secret cards differ between samples."""
    state, events = new_game(GameConfig(players=players, modules=(MB,)), seed)
    history = EventLog()
    history.extend(events)
    state, _ = _play(state, history, ["random"] * players, 40, random.Random(seed))
    truth = slice_of(state)
    mb = set(card_ids(state))
    with caplog.at_level("WARNING", logger="alhambra.bots"):
        for viewer in range(players):
            obs = observe(state, viewer, tuple(history.for_seat(viewer)))
            sampler = Sampler(obs, Tracker())
            faces: set[tuple[str, ...]] = set()
            for k in range(8):
                s = sampler.sample(random.Random(k))
                check_conservation(s)
                sl = slice_of(s)
                assert len(sl.set_aside) == len(truth.set_aside)
                assert [s.card_code(c) for c in sl.removed] == [state.card_code(c) for c in truth.removed]
                for o in range(players):
                    assert len(sl.secret[o]) == len(truth.secret[o])
                    assert all(c in mb and c in s.players[o].hand for c in sl.secret[o])
                    assert len(s.players[o].hand) == len(state.players[o].hand)
                    if o == viewer:
                        assert sorted(map(s.card_code, s.players[o].hand)) == sorted(map(state.card_code, state.players[o].hand))
                faces.add(tuple(sorted(s.card_code(c) for o in range(players) if o != viewer for c in sl.secret[o])))
            if any(truth.secret[o] for o in range(players) if o != viewer):
                assert len(faces) > 1
    assert not caplog.records


@pytest.mark.parametrize("players", [2, 3])
def test_samples_before_the_deal_give_the_others_only_master_builder_cards(players: int, caplog: pytest.LogCaptureFixture) -> None:
    """A setup choice (the street traders' start square) comes after the secret deal and before
    the starting money: the other seats' hidden cards are master-builder cards, the draw pile holds
    exactly the money (and diamonds) of the view, and the cards waiting for the deal stay out of
    it, so that the deal can still shuffle them in. (The sampler was short of the others' cards.)"""
    config = GameConfig(players=players, modules=(MB, "diamonds", "street_traders"))
    state, events = new_game(config, 5)
    assert state.stage == "setup" and state.to_act is not None
    mb = set(card_ids(state))
    with caplog.at_level("WARNING", logger="alhambra.bots"):
        obs = observe(state, state.to_act, events)
        sampler = Sampler(obs, Tracker())
        others: set[tuple[str, ...]] = set()
        for k in range(6):
            s = sampler.sample(random.Random(k))
            check_conservation(s)
            assert len(s.deck) == len(state.deck) and not mb & set(s.deck)
            for o in range(players):
                assert len(s.players[o].hand) == len(state.players[o].hand) == 2
                assert set(s.players[o].hand) <= mb
            others.add(tuple(sorted(s.card_code(c) for o in range(players) if o != obs.seat for c in s.players[o].hand)))
            s, _ = apply(s, legal_actions(s)[0])  # the setup goes on to the deal in the sample
            check_conservation(s)
    assert len(others) > 1
    assert not caplog.records


def test_bot_values_count_cards_held() -> None:
    state, _ = new_game(GameConfig(players=3, modules=(MB,)), 2)
    values = MODULE.bot_values(state)
    assert values is not None and len(values) == 3 and all(v > 0 for v in values)


def test_an_explicit_chance_game_with_master_builders() -> None:
    """Every draw decided from outside (the OpenSpiel mode), the secret deal too: two cards per
    seat, each shown to its seat alone, then the cards set aside, shown to nobody."""
    rng = random.Random(3)
    config = GameConfig(players=3, modules=(MB,))
    state, draws, decided = explicit_setup(config, lambda outs: rng.choice([c for c, _ in outs]))
    secret = [e.draw.secret_to for e in draws if e.draw is not None]
    sl = slice_of(state)
    assert [len(s) for s in sl.secret] == [2, 2, 2]
    aside = len(sl.set_aside)
    assert aside > 0 and secret == [0, 0, 1, 1, 2, 2] + [NOBODY] * aside
    code_of = state.components.card_code
    drawn = [c.removeprefix(f"{MB}:") for c in decided[2]]
    for s, ids in enumerate(sl.secret):  # each seat holds the cards drawn for it
        assert sorted(code_of[c] for c in ids) == sorted(drawn[2 * s : 2 * s + 2])
        assert set(ids) <= set(state.players[s].hand)
    assert sorted(code_of[c] for c in sl.set_aside) == sorted(drawn[6:])
    used = 0
    for _ in range(3000):
        if state.is_over:
            break
        acts = legal_actions(state)
        action = rng.choices(acts, [1.0 if str(a).startswith("redesign") else 10.0 for a in acts])[0]
        used += str(action).startswith(BUILDER_USES)
        base = state
        while True:
            try:
                state, _ = apply(base, action)
                break
            except ChanceNeeded as e:
                outs = chance_outcomes(e.state, e.kind, e.draw)
                base = base.copy()
                decide(base, e.kind, rng.choices([c for c, _ in outs], [p for _, p in outs])[0])
        check_conservation(state)
    assert state.is_over and state.rounds_scored == 3
    assert used > 0


def test_explicit_chance_draws_master_builder_cards_only_from_piles_three_and_five() -> None:
    """The pile model tracks the master-builder cards like special cards (they lie in piles 3
    and 5 only): no chance of one in piles 1, 2 and 4, and in pile 3 a chance of ``k / r`` for
    the ``k`` cards of its ``r``; the money shuffled in stays plain money."""
    rng = random.Random(5)
    config = GameConfig(players=3, modules=(MB,))
    state, _, _ = explicit_setup(config, lambda outs: rng.choice([c for c, _ in outs]))
    assert state.piles is not None
    codes = {state.components.card_code[c] for c in card_ids(state)}
    per_pile = [sum(n for k, n in classes if k in codes) for _, classes in state.piles]
    assert per_pile[0] == per_pile[1] == per_pile[3] == 0 and per_pile[2] == 3 and per_pile[4] >= 1
    for pile in range(5):
        while state.piles[pile][0] > 0:
            slots, classes = state.piles[pile]
            outs = dict(chance_outcomes(state, "card"))
            assert sum(outs.values()) == pytest.approx(1.0)
            chance_mb = sum(p for c, p in outs.items() if c in codes)
            expected = sum(n for k, n in classes if k in codes) / slots
            assert chance_mb == pytest.approx(expected), (pile, chance_mb, expected)
            # draw plain money while there is some, so the master builders stay in the pile to the end
            pick = min(outs, key=lambda c: (c in codes, c.startswith("S")))
            decide(state, "card", pick)
            while True:  # a scoring card drawn is set aside and another card is drawn
                trial = state.copy()
                try:
                    draw_card(trial, [])
                    break
                except ChanceNeeded as e:
                    more = dict(chance_outcomes(e.state, "card"))
                    decide(state, "card", min(more, key=lambda c: (c in codes, c.startswith("S"))))
            state = trial
