"""Guild seals: the guide's example module (docs/writing-a-module.md), tested as the guide says."""

from __future__ import annotations

import json

import pytest

from alhambra.actions import Action, parse_action
from alhambra.bots.base import observe
from alhambra.bots.tracker import Tracker
from alhambra.engine import apply, legal_actions, new_game
from alhambra.errors import IllegalAction, NotationError
from alhambra.events import CardsReceived
from alhambra.serialize import state_from_json, state_to_json
from alhambra.state import GameConfig, GameState
from alhambra.testing import check_conservation, check_encoded_game, play_random_game, set_hand
from alhambra.tournament import play_game
from alhambra.view import view

from . import MODULE, SealsState, SealUse
from .module import SealUsed

CONFIG = GameConfig(players=3, modules=("guild_seals",))


def game(seed: int = 1) -> GameState:
    state, _ = new_game(CONFIG, seed)
    return state


def test_one_seal_lies_in_each_of_piles_2_to_5() -> None:
    state = game()
    code = state.components.card_code
    assert sorted(code[c] for c in state.deck + state.display if code[c].startswith("gs")) == ["gs1", "gs2", "gs3", "gs4"]
    assert MODULE.state_type is SealsState and SealsState.of(state) == SealsState(((),) * 3)
    check_conservation(state)


def test_a_seal_is_an_action_that_draws_a_card_the_bots_know() -> None:
    state, history = new_game(CONFIG, 1)
    seat = state.current
    set_hand(state, seat, ["gs2"])
    assert SealUse("gs2") in legal_actions(state)
    top = state.deck[-1]
    state, events = apply(state, SealUse("gs2"), seat)
    assert SealUsed(seat, "gs2") in events
    assert state.players[seat].hand == [top] and SealsState.of(state).used[seat] == ("gs2",)
    assert CardsReceived(seat, (state.components.card_code[top],), 1, "guild_seals") in events
    tracker = Tracker()
    tracker.update(observe(state, (seat + 1) % 3, history + events).events)
    assert tracker.hands[seat][state.components.card_code[top]] == 1
    assert state.current != seat  # a whole action: the turn is over
    check_conservation(state)


def test_no_seal_no_use() -> None:
    state = game()
    set_hand(state, state.current, ["gs2"])
    with pytest.raises(IllegalAction, match="no seal gs1"):
        apply(state, SealUse("gs1"), state.current)


@pytest.mark.parametrize(
    ("bad", "message"),
    [("seal use", "usage: seal use CARD"), ("seal use b3", "'b3' is no guild seal"), ("seal use gs1 gs2", "usage: seal use CARD")],
)
def test_notation(bad: str, message: str) -> None:
    a: Action = SealUse("gs3")
    assert str(a) == "seal use gs3" and parse_action(str(a)) == a and Action.from_dict(a.to_dict()) == a
    assert parse_action("Seal Use GS3") == a
    with pytest.raises(NotationError, match=message):
        parse_action(bad)


def test_json_view_and_rebuild_come_by_default() -> None:
    state = game()
    state.mods["guild_seals"] = SealsState((("gs1",), (), ("gs3", "gs4")))
    assert json.loads(json.dumps(state_to_json(state))) == state_to_json(state_from_json(state_to_json(state)))
    v = view(state, 0)["module_views"]["guild_seals"]
    assert v == {"used": [["gs1"], [], ["gs3", "gs4"]]} == view(state, None)["module_views"]["guild_seals"]
    assert MODULE.slice_from_view(v, CONFIG) == SealsState.of(state)
    assert MODULE.round_points(state, 1) == [1, 0, 2]


def test_random_whole_games_alone_and_with_the_vizier() -> None:
    def seals_first(a: Action) -> float:  # take and use every seal the game offers
        return 100.0 if " gs" in f" {a}" else 10.0

    for config in (
        GameConfig(players=3, modules=("guild_seals",), turn_limit=40),
        GameConfig(players=2, modules=("guild_seals", "vizier"), turn_limit=80),
    ):
        played = play_random_game(config, 3, prefer=seals_first)
        assert played.actions["seal use"] > 0
    listed = check_encoded_game(GameConfig(players=2, modules=("guild_seals",), turn_limit=60), 5, prefer=lambda a: " gs" in f" {a}")
    assert any(isinstance(a, SealUse) for a in listed)


def test_bots_finish_a_game() -> None:
    result = play_game(GameConfig(players=2, modules=("guild_seals",), turn_limit=20), ["greedy", "random"], 5, 0)
    assert result.outcome in ("finished", "truncated") and result.fallbacks == 0
