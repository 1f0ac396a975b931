"""Whole games: random legal actions (every action applies, states round-trip, cards and thieves
are conserved, replays are exact) and the random, greedy and MCTS bots."""

from __future__ import annotations

import logging
import random
from collections import Counter

import pytest

from alhambra import GameConfig, new_game
from alhambra.bots import GreedyBot, MctsBot, MctsSettings, RandomBot
from alhambra.engine import apply_unchecked
from alhambra.events import GameEnded, RoundScored, ScoringCardDrawn
from alhambra.modules.thieves import ThievesState, check_thieves
from alhambra.modules.thieves.module import ThiefPlayed
from alhambra.record import GameRecord
from alhambra.testing import check_conservation, play_random_game
from alhambra.tournament import play_game


def thief_count(actions: Counter[str]) -> int:
    """Thieves played, from ``play_random_game``'s action counts (keyed ``thief b4``...)."""
    return sum(k for a, k in actions.items() if a.split()[0] == "thief")


def replay_checking_thieves(record: GameRecord) -> None:
    """Replay a record and check the thieves (and every card and tile) after every action."""
    state, _ = new_game(record.config, record.seed)
    check_thieves(state)
    for action in record.actions:
        apply_unchecked(state, action)
        check_thieves(state)
        check_conservation(state)


@pytest.mark.parametrize(
    ("players", "modules", "seed"),
    [
        (2, ("thieves",), 102),
        (3, ("thieves",), 103),
        (4, ("currency_exchange", "thieves", "vizier"), 104),
        (6, ("thieves",), 106),
    ],
    ids=["2p", "3p", "4p-with-vizier-and-exchange", "6p"],
)
def test_random_games_with_thieves_finish(players: int, modules: tuple[str, ...], seed: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=modules), seed=seed)
    assert game.state.outcome == "finished"
    assert isinstance(game.events[-1], GameEnded)
    thieves_played = thief_count(game.actions)
    assert thieves_played > 0 and game.actions["pass"] > 0
    if "vizier" in modules:
        assert game.actions["vizier buy"] > 0
    value = game.state.mods["thieves"]
    assert isinstance(value, ThievesState)
    assert len(value.played) == thieves_played
    replay_checking_thieves(game.record)


def test_every_legal_action_applies_in_a_short_game() -> None:
    game = play_random_game(GameConfig(players=3, modules=("thieves", "vizier"), turn_limit=30), seed=7)
    assert game.state.outcome == "truncated" and thief_count(game.actions) > 0


def test_a_scoring_card_drawn_between_turns_in_a_random_game() -> None:
    """Some seed draws a scoring card while a thief's card is replaced: it is scored before the next turn."""
    for seed in (207, 211, 247):  # the seeds of range(200, 260) where this happens
        game = play_random_game(GameConfig(players=3, modules=("thieves",)), seed=seed, try_every_action=False)
        evs = game.events
        for i, e in enumerate(evs):
            if isinstance(e, ScoringCardDrawn) and any(isinstance(x, ThiefPlayed) for x in evs[max(0, i - 3) : i]):
                rest = evs[i:]
                scored = next(j for j, x in enumerate(rest) if isinstance(x, RoundScored))
                started = next(j for j, x in enumerate(rest) if type(x).__name__ == "TurnStarted")
                assert scored < started
                return
    pytest.fail("no scoring card was drawn by a thief's refill")  # pragma: no cover


def test_bots_play_whole_games_and_use_thieves(caplog: pytest.LogCaptureFixture) -> None:
    """Random, greedy and MCTS bots finish games with the thieves without a single fallback, and play thieves."""
    used: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING, logger="alhambra.bots"):
        for config, bots in (
            (GameConfig(players=2, modules=("thieves",)), ["greedy", "mcts:easy@iterations=12+seconds=none"]),
            (GameConfig(players=3, modules=("thieves", "vizier")), ["random", "greedy", "mcts:easy@iterations=8+seconds=none"]),
        ):
            result = play_game(config, bots, 5, 0)
            assert result.outcome == "finished" and result.fallbacks == 0
            record = GameRecord.from_json(result.record)
            for action in record.actions:
                used[str(action).split()[0]] += 1
            replay_checking_thieves(record)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert used["thief"] > 0 and used["pass"] > 0


def test_bot_classes_choose_thieves() -> None:
    """Each bot class picks a thief when it is offered (the greedy one for a good card)."""
    from alhambra.bots import observe
    from alhambra.engine import legal_actions

    from .helpers import end_turn as finish, fresh, set_display, set_thieves, window

    state = fresh(3)
    order = [(state.current + 1 + i) % 3 for i in range(3)]
    set_thieves(state, {order[1]: "y"})
    state, events = finish(state)
    set_display(state, ("b1", "g1", "o1", "y9"))
    seat = window(state).seat
    assert {str(a) for a in legal_actions(state)} == {"pass", "thief y9"}
    obs = observe(state, seat, events)
    bot = GreedyBot()
    assert str(bot.choose(obs, bot.budget, random.Random(1))) == "thief y9"
    for other in (RandomBot(), MctsBot("m", MctsSettings(iterations=10, seconds=None))):
        assert str(other.choose(obs, other.budget, random.Random(1))) in obs.legal


def test_no_window_waits_with_a_round_to_score() -> None:
    """A scoring card drawn by a thief's refill is scored at once, before anybody is asked again
    (docs/rules-notes.md): whenever the window between turns waits for a seat, no round is left
    to score, so the bots' sampled states never miss one."""
    from alhambra.events import ScoringCardDrawn
    from alhambra.state import BetweenTurns

    game = play_random_game(GameConfig(players=3, modules=("thieves",)), seed=211, try_every_action=False)
    state, _ = new_game(game.record.config, game.record.seed)
    in_window = 0
    for action in game.record.actions:
        if isinstance(state.pending[-1], BetweenTurns):
            assert state.scoring_queue == []
        was_window = isinstance(state.pending[-1], BetweenTurns)
        events = apply_unchecked(state, action)
        if was_window and any(isinstance(e, ScoringCardDrawn) for e in events):
            in_window += 1
            assert state.scoring_queue == []
    assert in_window > 0
