"""Notation, JSON, views and what the bots' sampler rebuilds, with falcons in play."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from alhambra import NotationError, apply, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import Action, grammars_of
from alhambra.bots.base import observe
from alhambra.bots.tracker import Sampler, Tracker
from alhambra.events import Event, event_from_dict
from alhambra.modules.falconers import (
    MODULE,
    BuyFalcon,
    FalconBought,
    FalconReturned,
    FalconsDone,
    FalconsFinished,
    FalconsState,
    FalconTurn,
    falcons,
)
from alhambra.state import GameConfig, GameState
from alhambra.testing import build_tiles as build, check_conservation, set_hand
from alhambra.tournament import play_game

from .helpers import CORNER, ID, act, fresh


def turn_open() -> tuple[GameState, int, list[Event]]:
    """The current seat bought Fw5 at 0,0 and may buy more (the falcon turn is open)."""
    state = fresh()
    seat = state.current
    build(state, seat, {**CORNER, (2, 0): "T11", (2, 1): "G10"})
    set_hand(state, seat, ["b5", "g7"])
    state, events = act(state, "falcon Fw5 0,0 b5")
    assert state.pending[-1] == FalconTurn(seat)
    return state, seat, events


@pytest.mark.parametrize(
    "action", [BuyFalcon("Fw5", (0, -1), "b5"), BuyFalcon("Fk1", (-2, 3), "d9"), BuyFalcon("Fr3", (1, 1), "mg3"), FalconsDone()]
)
def test_notation_and_json_round_trips(action: Action) -> None:
    assert parse_action(str(action)) == action
    assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_the_written_form_and_the_grammar() -> None:
    assert str(BuyFalcon("Fw5", (0, -1), "b5")) == "falcon Fw5 0,-1 b5"
    assert str(FalconsDone()) == "falcon done"
    assert grammars_of("falcon") == (("item", "cell", "card"),)
    assert grammars_of("falcon done") == ((),)


@pytest.mark.parametrize(
    "text", ["falcon Fw5 0,0", "falcon Fw5 0,0 b5+b6", "falcon Fw5 north b5", "falcon Fw5 0,0 b5 y2", "falcon done now"]
)
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_events_describe_and_round_trip() -> None:
    for e in (FalconBought(1, "Fw5", 0, -1, ("b5",)), FalconReturned(2, "Fk3"), FalconsFinished(0)):
        assert event_from_dict(json.loads(json.dumps(e.to_dict()))) == e
    assert FalconBought(1, "Fw5", 0, -1, ("b5",)).describe() == (
        "player 2 buys a white falcon (garden, tower) for b5 and places it at the corner south-east of the place 0,-1"
    )
    assert "black falcon" in FalconReturned(2, "Fk3").describe()
    assert FalconsFinished(0).describe() == "player 1 buys no more falcons"


def test_a_state_with_the_falcon_turn_open_round_trips() -> None:
    state, seat, _ = turn_open()
    back = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert state_to_json(back) == state_to_json(state)
    assert falcons(back) == falcons(state)
    assert back.pending[-1] == FalconTurn(seat)
    assert legal_actions(back) == legal_actions(state)


@pytest.mark.parametrize(
    "junk",
    [
        {},
        {"placed": 3},
        {"placed": [[{"falcon": "Fw5", "x": 0}]]},
        {"placed": [[{"falcon": "Zz1", "x": 0, "y": 0, "tiles": ["F", "A9", "G11", "T12"]}]]},
        {"placed": [[{"falcon": "Fw5", "x": 0, "y": 0, "tiles": ["F"]}]]},
        {
            "placed": [
                [{"falcon": "Fw5", "x": 0, "y": 0, "tiles": ["F", "A9", "G11", "T12"]}],
                [{"falcon": "Fw5", "x": 1, "y": 0, "tiles": ["F", "A9", "G11", "T12"]}],
            ]
        },
        {"placed": [[{"falcon": "Fw5", "x": "a", "y": 0, "tiles": ["F", "A9", "G11", "T12"]}]]},
    ],
)
def test_a_junk_slice_is_a_notation_error(junk: object) -> None:
    with pytest.raises(NotationError):
        FalconsState.from_dict(junk)


def test_the_view_is_public_and_the_same_for_every_viewer() -> None:
    state, seat, _ = turn_open()
    views = [view(state, v)["module_views"][ID] for v in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    v = views[0]
    assert v["placed"][seat] == [
        {"falcon": "Fw5", "type": "white", "kinds": ["garden", "tower"], "x": 0, "y": 0, "tiles": ["F", "G11", "T12", "A9"]}
    ]
    assert len(v["supply"]) == 14 and "Fw5" not in {f["falcon"] for f in v["supply"]}
    assert v["points_now"][seat] == 2 and sum(v["points_now"]) == 2
    assert v["points"] == [0, 2, 6, 12, 20, 30] and v["types"] == ["black", "brown", "white"]
    assert MODULE.slice_from_view(v, state.config) == falcons(state)
    assert MODULE.slice_from_json(MODULE.slice_to_json(falcons(state))) == falcons(state)
    assert view(state, None)["pending"] is not None  # the falcon turn shows who decides


def test_a_greedy_game_logs_no_fallback() -> None:
    result = play_game(GameConfig(players=2, modules=(ID,)), ["greedy", "random"], seed=3, game=4)
    assert result.outcome == "finished"
    assert result.fallbacks == 0, "the bots' card tracker lost track of a card paid for a falcon"


def test_samples_keep_every_falcon_and_every_component() -> None:
    config = GameConfig(players=3, modules=(ID,))
    state, history = new_game(config, 5)
    rng = random.Random(5)
    bought = 0
    while not state.is_over and bought < 3:
        acts = legal_actions(state)
        falcon = [a for a in acts if isinstance(a, BuyFalcon)]
        seat = state.to_act
        assert seat is not None
        state, evs = apply(state, falcon[0] if falcon else rng.choice(acts), seat)
        history += evs
        bought += bool(falcon)
    assert bought == 3
    viewer = state.to_act
    assert viewer is not None
    obs = observe(state, viewer, history)
    code = state.components.card_code
    for k in range(5):
        sample = Sampler(obs).sample(random.Random(k))
        check_conservation(sample)
        assert falcons(sample) == falcons(state)
        for s in range(3):  # every hand by face: the tracker saw the cards paid for falcons
            assert sorted(code[c] for c in sample.players[s].hand) == sorted(code[c] for c in state.players[s].hand)
    tracker = Tracker()
    tracker.update(obs.events)
    for s in range(3):
        assert +tracker.hands[s] == Counter(code[c] for c in state.players[s].hand)
