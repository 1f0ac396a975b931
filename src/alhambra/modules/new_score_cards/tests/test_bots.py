"""The bots with new score cards: the greedy evaluation follows the drawn cards; random, greedy
and MCTS play whole games."""

from __future__ import annotations

from alhambra import GameConfig, GameRecord, replay
from alhambra.bots.greedy import seat_values
from alhambra.events import RoundScored
from alhambra.modules.new_score_cards import ScoreCardsState, card, points
from alhambra.scoring import majority_awards
from alhambra.tournament import play_game

from .helpers import ID, game, three_cities

TOWER_LAST = (9, 11, 12)
"""Cards with the tower in row 6 (it scores most)."""
TOWER_FIRST = (16, 17, 18)
"""Cards with the tower in row 1 (it scores least)."""


def test_the_card_rows_the_test_relies_on() -> None:
    assert all(card(n).row("tower") == 6 for n in TOWER_LAST)
    assert all(card(n).row("tower") == 1 for n in TOWER_FIRST)


def test_greedy_values_follow_the_cards() -> None:
    state = game(cards=TOWER_LAST)
    three_cities(state)  # seats 0 and 1 share the tower majority (2 each), seat 2 has 1 tower
    high = seat_values(state)
    state.mods[ID] = ScoreCardsState(TOWER_FIRST)
    low = seat_values(state)
    assert high != low
    # the two tower leaders gain more over seat 2 when towers score most
    assert high[0] - high[2] > low[0] - low[2]
    assert high[1] - high[2] > low[1] - low[2]
    state.mods[ID] = ScoreCardsState(TOWER_LAST)
    assert seat_values(state) == high  # the memo keys on the cards


def test_greedy_and_random_play_a_whole_game() -> None:
    result = play_game(GameConfig(players=2, modules=(ID,)), ["greedy", "random"], seed=7, game=0)
    assert result.outcome == "finished" and result.fallbacks == 0
    state, events = replay(GameRecord.from_json(result.record))
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert [r.round for r in rounds] == [1, 2, 3]
    numbers = state.mods[ID].cards
    for r in rounds:
        for kind, counts in r.counts.items():
            assert r.kinds[kind] == tuple(majority_awards(list(counts), points(numbers[r.round - 1], r.round, kind)))


def test_mcts_plays_with_new_score_cards() -> None:
    config = GameConfig(players=3, modules=(ID,), turn_limit=24)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0
