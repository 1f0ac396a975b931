"""Whole games with the medinas (random legal actions, every step checked: conservation, JSON
round trips, actions by kind, exact replays) and the bots' valuation and use of medinas."""

from __future__ import annotations

import pytest

from alhambra import GameConfig, GameRecord, apply, parse_action, replay, view
from alhambra.bots.greedy import seat_values
from alhambra.events import BuildingBought, Event, GameEnded, RoundScored
from alhambra.modules.medina import MODULE, round_penalties
from alhambra.modules.medina.module import LATER_ROUND_WEIGHT
from alhambra.modules.vizier import VizierUsed
from alhambra.state import GameState
from alhambra.testing import play_random_game, set_hand
from alhambra.tournament import play_game

from .helpers import ID, MEDINAS, build_row, fresh, reserve


def medinas_bought(events: list[Event], seat: int | None = None) -> list[str]:
    return [e.tile for e in events if isinstance(e, BuildingBought) and e.tile in MEDINAS and seat in (None, e.seat)]


def check_end(state: GameState, events: list[Event]) -> None:
    """Every scoring round lists the medina penalties (the final one as the Alhambras stand)."""
    assert state.outcome == "finished" and isinstance(events[-1], GameEnded)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert [e.round for e in rounds] == [1, 2, 3]
    assert all(len(e.extra[ID]) == state.config.players + (state.neutral is not None) for e in rounds)
    assert rounds[-1].extra[ID] == tuple(round_penalties(state, 3))
    assert all(min(e.extra[ID]) < 0 for e in rounds), "somebody always has the fewest"


def built_anywhere(state: GameState) -> int:
    codes = state.components.tile_code
    return sum(1 for p in state.players for t in p.city.values() if codes[t] in MEDINAS)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_medinas(players: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID,)), seed=500 + players, try_every_action=players <= 3)
    check_end(game.state, game.events)
    assert medinas_bought(game.events)
    assert built_anywhere(game.state) > 0


@pytest.mark.parametrize(
    ("players", "modules"),
    [
        (3, ("vizier", "bazaars")),
        (2, ("treasure_chamber", "street_traders")),
        (4, ("power_of_the_sultan", "change")),
        (3, ("building_sites", "bonus_cards", "currency_exchange")),
    ],
)
def test_random_games_with_the_modules_it_touches(players: int, modules: tuple[str, ...]) -> None:
    game = play_random_game(GameConfig(players=players, modules=(ID, *modules)), seed=600 + players, try_every_action=False)
    check_end(game.state, game.events)
    assert medinas_bought(game.events)


def test_a_game_stopped_by_the_turn_limit_scores_only_the_rounds_played() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID,), turn_limit=80), seed=3, try_every_action=False)
    assert game.state.outcome == "truncated" and isinstance(game.events[-1], GameEnded)
    rounds = [e for e in game.events if isinstance(e, RoundScored)]
    assert [e.round for e in rounds] == [1, 2]  # no final scoring, so no third medina penalty
    assert all(len(e.extra[ID]) == 3 and min(e.extra[ID]) < 0 for e in rounds)
    assert game.state.scores == list(rounds[-1].scores)
    assert view(game.state, None)["module_views"][ID]["next"] is None
    assert MODULE.bot_values(game.state) is None


def test_a_vizier_buys_a_medina_in_some_random_game() -> None:
    config = GameConfig(players=3, modules=(ID, "vizier"))
    for seed in range(8):
        game = play_random_game(config, seed=700 + seed, try_every_action=False)
        if any(isinstance(e, VizierUsed) and e.tile in MEDINAS for e in game.events):
            check_end(game.state, game.events)
            return
    pytest.fail("no vizier bought a medina in 8 games")  # pragma: no cover


# ---------------------------------------------------------------------------------- bots
def values(state: GameState) -> list[float]:
    got = MODULE.bot_values(state)
    assert got is not None
    return got


def test_bot_values_fewer_medinas_are_worth_less() -> None:
    state = fresh(players=3, seed=9)
    a, b, c = range(3)
    build_row(state, a, ["M2sw", "M6e"])
    build_row(state, b, ["M9n"])
    got = values(state)
    assert got[c] < got[b] < got[a] <= 0
    # round 1 in full (c: 4), rounds 2 and 3 at today's standing in part (c: 8, 12; b: 3, 6)
    assert got[c] == pytest.approx(-4 - LATER_ROUND_WEIGHT * (8 + 12))
    assert got[b] == pytest.approx(-LATER_ROUND_WEIGHT * (3 + 6))
    assert got[a] == pytest.approx(-LATER_ROUND_WEIGHT * 3)


def test_bot_values_count_a_waiting_medina_and_half_of_a_reserve_one() -> None:
    state = fresh(players=3, seed=9, market=("M5nw", "S5sw", "A6sw", "C7sw"))
    s = state.current
    before = values(state)[s]
    set_hand(state, s, ["b5"])
    state, _ = apply(state, parse_action("buy 1 b5"), s)
    waiting = values(state)[s]
    assert waiting > before  # counts as built
    other = (s + 1) % 3
    half = values(state)[other]
    reserve(state, other, ["M10"])
    assert values(state)[other] == half  # half a medina ranks as none
    build_row(state, other, ["M3es"])
    one = values(state)[other]
    reserve(state, other, ["M9n"])
    assert values(state)[other] == one  # 1.5 ranks as 1 (its dearest goes up: 9)


def test_greedy_values_include_the_penalties() -> None:
    state = fresh(players=3, seed=9)
    s = state.current
    base = seat_values(state)[s]
    build_row(state, (s + 1) % 3, ["M2sw"])
    build_row(state, (s + 2) % 3, ["M3es"])
    assert seat_values(state)[s] < base - 3  # now the only one without a medina


def test_no_bot_values_after_the_last_scoring() -> None:
    game = play_random_game(GameConfig(players=2, modules=(ID,)), seed=11, try_every_action=False)
    assert MODULE.bot_values(game.state) is None


def test_greedy_buys_and_builds_medinas() -> None:
    bought = 0
    for seed in (7, 8):
        result = play_game(GameConfig(players=2, modules=(ID,)), ["greedy", "random"], seed=seed, game=0)
        assert result.outcome == "finished" and result.fallbacks == 0
        state, events = replay(GameRecord.from_json(result.record))
        check_end(state, events)
        bought += len(medinas_bought(events, result.seats[0]))
    assert bought > 0


def test_mcts_plays_with_the_medinas() -> None:
    config = GameConfig(players=3, modules=(ID, "vizier"), turn_limit=24)
    result = play_game(config, ["mcts:easy@iterations=12+seconds=none", "greedy", "random"], seed=3, game=0)
    assert result.outcome == "truncated" and result.fallbacks == 0
