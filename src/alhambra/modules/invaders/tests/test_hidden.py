"""Hidden information: the top invasion card shows only to the seats that looked at it (views,
events, legal actions), the bots' sampler keeps it for them and leaves it undrawn for the
others, and in explicit-chance mode (OpenSpiel) the draws are chance nodes, the look a secret one."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, view
from alhambra.actions import BuyBuilding
from alhambra.bots import EventLog, observe
from alhambra.bots.tracker import Sampler
from alhambra.chance import chance_outcomes
from alhambra.modules.invaders import DIRECTIONS, InvasionScouted, invaders
from alhambra.modules.invaders.module import data
from alhambra.state import GameState
from alhambra.testing import check_conservation, explicit_setup, set_hand
from alhambra.view import view_events

from .helpers import ID, fresh, set_scouts, set_top


def test_only_the_buyer_sees_the_direction_in_views_and_events() -> None:
    state = fresh()
    set_scouts(state, ["pavilion", "garden"])
    seat = state.current
    set_hand(state, seat, ["b4"])
    state, events = apply(state, BuyBuilding(1, ("b4",)), seat)
    top = invaders(state).top
    assert top in DIRECTIONS
    mine = [e for e in view_events(events, seat) if e["type"] == "InvasionScouted"]
    assert len(mine) == 1 and mine[0]["direction"] == top and top in mine[0]["text"]
    for viewer in [(seat + 1) % 3, (seat + 2) % 3, None]:
        seen = [e for e in view_events(events, viewer) if e["type"] == "InvasionScouted"]
        assert len(seen) == 1 and seen[0]["direction"] == "" and seen[0]["seat"] == seat and seen[0]["kind"] == "pavilion"
        assert not any(d in seen[0]["text"] for d in DIRECTIONS)
        mv = view(state, viewer)["module_views"][ID]
        assert mv["top"] is None and mv["known"] == [s == seat for s in range(3)]
    assert view(state, seat)["module_views"][ID]["top"] == top
    assert InvasionScouted.reveals  # the server never takes such a move back


@pytest.mark.parametrize("knower", [0, 1])
def test_states_differing_only_in_an_unseen_top_card_look_the_same(knower: int) -> None:
    state = fresh(players=3, seed=6)
    a, b = state.copy(), state.copy()
    set_top(a, "north", known=[knower])
    set_top(b, "south", known=[knower])
    for viewer in [s for s in range(3) if s != knower] + [None]:
        assert json.dumps(view(a, viewer), sort_keys=True) == json.dumps(view(b, viewer), sort_keys=True)
    assert view(a, knower)["module_views"][ID]["top"] == "north"
    assert view(b, knower)["module_views"][ID]["top"] == "south"
    assert legal_actions(a) == legal_actions(b)


def _play_until(config: GameConfig, seed: int, stop: Callable[[GameState], bool]) -> tuple[GameState, EventLog]:
    """Random actions (buying preferred) until ``stop(state)`` holds; the log of every event."""
    state, events = new_game(config, seed)
    log = EventLog()
    log.extend(events)
    rng = random.Random(seed)
    while not stop(state):
        acts = legal_actions(state)
        buys = [a for a in acts if str(a).startswith("buy")]
        a = rng.choice(buys if buys and rng.random() < 0.8 else acts)
        state, evs = apply(state, a, state.to_act)
        log.extend(evs)
        assert not state.is_over, "the game ended before the situation came up"
    return state, log


def _knower_and_other_to_act(state: GameState) -> bool:
    sl = invaders(state)
    return sl.top is not None and any(sl.known) and not all(sl.known) and state.to_act is not None


def test_the_sampler_keeps_the_card_for_the_seat_that_looked_and_leaves_it_undrawn_for_the_others() -> None:
    config = GameConfig(players=3, modules=(ID,))
    for seed in range(20):
        try:
            state, log = _play_until(config, seed, _knower_and_other_to_act)
        except AssertionError:
            continue
        break
    else:  # pragma: no cover - the seeds give one
        pytest.fail("nobody scouted in 20 games")
    sl = invaders(state)
    for seat in range(3):
        obs = observe(state, seat, log.for_seat(seat))
        sampler = Sampler(obs)
        for k in range(5):
            sample = sampler.sample(random.Random(k))
            check_conservation(sample)
            got = invaders(sample)
            assert got.top == (sl.top if sl.known[seat] else None)
            assert (got.revealed, got.known, got.scouts, got.pile, got.taken) == (sl.revealed, sl.known, sl.scouts, sl.pile, sl.taken)
            if seat == state.to_act:
                assert {str(a) for a in legal_actions(sample)} == set(obs.legal)


def test_the_draws_are_chance_nodes_and_the_look_a_secret_one() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra")
    import alhambra.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game(f"python_alhambra(players=2,modules={ID})")
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        names = [state.action_to_string(seat, a) for a in legal]
        buys = [a for a, n in zip(legal, names, strict=True) if n.startswith("buy")]
        state.apply_action(rng.choice(buys if buys and rng.random() < 0.8 else legal))
    # each seat's own action tokens show only in its own string; the rest line up
    lines = [[ln for ln in state.information_state_string(s).splitlines()[1:] if not ln.startswith(f"p{s} ")] for s in (0, 1)]
    assert len(lines[0]) == len(lines[1])
    secret = 0
    scouted = 0
    for mine, theirs in zip(*lines, strict=True):
        if mine == theirs:  # public: the scouts turned up, the invasions (drawn or known), the events
            assert not mine.startswith("chance (secret")
            continue
        for s, own, other in ((0, mine, theirs), (1, theirs, mine)):
            if other == f"chance (secret to p{s})":  # seat s looked at a card nobody had drawn yet
                assert own.startswith(f"chance {ID}:") and own.split(":")[1] in DIRECTIONS
                secret += 1
                break
            if own.startswith(f"seen InvasionScouted(seat={s},"):
                assert "direction=''" not in own and other == own.split(", direction=")[0] + ", direction='')"
                scouted += 1
                break
        else:
            pytest.fail(f"the seats' information states differ in {mine!r} / {theirs!r}")
    assert secret > 0 and scouted >= secret, "nobody scouted in this game"
    invaded = [ln for ln in lines[0] if ln.startswith("seen InvasionRevealed(")]
    assert len(invaded) == 3


def test_explicit_setup_draws_the_two_scouts_as_public_chance_nodes() -> None:
    config = GameConfig(players=3, modules=(ID,))
    state, draws, decided = explicit_setup(config, lambda outs: outs[-1][0])
    scout_draws = [d for d in draws if d.kind == "module"]
    assert [d.draw.pool for d in scout_draws if d.draw] == [tuple(data().scouts), tuple(k for k in data().scouts if k != "tower")]
    assert all(d.draw is not None and d.draw.secret_to is None and d.draw.module == ID for d in scout_draws)
    outs = chance_outcomes(scout_draws[0].state, "module", scout_draws[0].draw)
    assert [c for c, _ in outs] == [f"{ID}:{k}" for k in sorted(data().scouts)]
    assert [p for _, p in outs] == pytest.approx([1 / 6] * 6)
    assert decided[2] == [f"{ID}:tower", f"{ID}:seraglio"]
    assert invaders(state).scouts == ("tower", "seraglio") and invaders(state).top is None


def test_explicit_setup_of_the_variation_draws_the_first_invasion_card() -> None:
    config = GameConfig(players=3, modules=(ID,), options=((ID, "face_up", True),))
    state, draws, decided = explicit_setup(config, lambda outs: outs[0][0])
    module_draws = [d.draw for d in draws if d.kind == "module"]
    assert [d.pool for d in module_draws if d] == [tuple(DIRECTIONS)]
    assert decided[2] == [f"{ID}:east"] and invaders(state).top == "east"
