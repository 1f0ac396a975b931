"""The bots on the native core play exactly as on the Python engine.

The native evaluation (native/bots.pxi) rounds as bots/greedy.py rounds, so the native search
(bots/native_search.py) grows the same tree as the Python search: for the same seed and the same
iteration count every root action gets the same visits and the same mean reward, so the same
move is chosen. benchmarks/compare_native_moves.py checks many more positions.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from alhambra.bots import LEVELS, TUNED_WEIGHTS, make_bot, mcts as mcts_mod, native_search
from alhambra.bots.base import Budget, EventLog, Observation, observe
from alhambra.bots.greedy import DEFAULT_WEIGHTS, evaluate, greedy_action, seat_values
from alhambra.bots.tracker import Sampler
from alhambra.engine import apply, apply_unchecked, new_game
from alhambra.native import NATIVE_ENV
from alhambra.policies import POLICIES
from alhambra.state import GameConfig, GameState

if os.environ.get(NATIVE_ENV) == "0":
    pytest.skip(f"{NATIVE_ENV}=0: the native core is switched off", allow_module_level=True)

from alhambra.native.game import NativeGame, encode


def _positions(players: int, seed: int, every: int, count: int, policy: str = "kinds") -> list[Observation]:
    """Observations of the seat to act at every ``every``-th decision with a choice of a random game."""
    state, events = new_game(GameConfig(players=players), seed)
    log = EventLog()
    log.extend(events)
    rng = random.Random(seed)
    out: list[Observation] = []
    step = 0
    while not state.is_over and len(out) < count:
        seat = state.to_act
        assert seat is not None
        obs = observe(state, seat, tuple(log.for_seat(seat)))
        if len(obs.legal) > 1:
            step += 1
            if step % every == 0:
                out.append(obs)
        state, got = apply(state, POLICIES[policy](state, rng))
        log.extend(got)
    return out


Stats = tuple[dict[str, tuple[int, float]], int]


def _search(obs: Observation, level: str, iterations: int, core: str, seed: int, **changes: object) -> Stats:
    settings = replace(LEVELS[level], iterations=iterations, seconds=None, core=core, **changes)  # type: ignore[arg-type]
    return mcts_mod.search(Sampler(obs), settings, random.Random(seed), settings.weights)


def test_the_native_evaluation_is_float_exact() -> None:
    for players, seed in ((2, 3), (3, 4), (5, 5)):
        state, _ = new_game(GameConfig(players=players), seed)
        rng = random.Random(seed)
        ev = {w: native_search.evaluator(state.components, w) for w in (DEFAULT_WEIGHTS, TUNED_WEIGHTS)}
        checked = 0
        while not state.is_over:
            if state.turn % 2 == 0:
                native = NativeGame.from_state(state).core
                for w, e in ev.items():
                    assert native.seat_values(e) == seat_values(state, w), f"{players} players, seed {seed}, turn {state.turn}"
                    seat = state.to_act
                    assert seat is not None
                    assert native.evaluate(seat, e) == evaluate(state, seat, w)
                checked += 1
            apply_unchecked(state, greedy_action(state, rng) if state.turn % 3 else POLICIES["kinds"](state, rng), events=False)
        assert checked > 10


@pytest.mark.parametrize(
    ("players", "level", "iterations", "changes"),
    [
        (2, "normal", 150, {}),
        (2, "hard", 120, {}),
        (3, "normal", 100, {}),
        (4, "hard", 80, {}),
        (2, "easy", 60, {"rollout_plies": 2}),
        (3, "easy", 60, {"reward": "rank", "rollout_plies": 1}),
    ],
)
def test_the_native_search_chooses_the_moves_of_the_python_search(
    players: int, level: str, iterations: int, changes: dict[str, object]
) -> None:
    positions = _positions(players, 40 + players, 9, 3)
    assert len(positions) == 3
    for i, obs in enumerate(positions):
        python = _search(obs, level, iterations, "python", i, **changes)
        native = _search(obs, level, iterations, "auto", i, **changes)
        assert python[1] == native[1] == iterations
        assert native[0] == python[0], f"position {i}: the root statistics differ"


@pytest.mark.parametrize(("players", "iterations"), [(2, 200), (3, 120), (4, 100)])
def test_the_native_learned_search_chooses_the_moves_of_the_python_search(players: int, iterations: int) -> None:
    """mcts:learned: the native leaves read the network's native twin (the same features bit for
    bit, a forward pass within float32 rounding of numpy's), so the tree is the same: every root
    action gets the same visits, the mean rewards agree to 1e-6, the same move is chosen."""
    positions = _positions(players, 40 + players, 9, 3)
    assert len(positions) == 3
    for i, obs in enumerate(positions):
        python, p_its = _search(obs, "learned", iterations, "python", i)
        native, n_its = _search(obs, "learned", iterations, "auto", i)
        assert p_its == n_its == iterations
        assert {a: v for a, (v, _) in native.items()} == {a: v for a, (v, _) in python.items()}, f"position {i}: visits differ"
        assert all(native[a][1] == pytest.approx(python[a][1], abs=1e-6) for a in python)
        assert max(native, key=lambda a: native[a]) == max(python, key=lambda a: python[a])
        # and the network did play a part: without it the same search differs
        assert _search(obs, "hard", iterations, "auto", i)[0] != native


def test_the_native_search_is_used_where_the_core_covers_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = native_search.search

    def counting(*args: object, **kw: object) -> Stats:
        calls.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(native_search, "search", counting)
    obs = _positions(2, 9, 4, 1)[0]
    bot = make_bot("mcts:easy")
    bot.choose(obs, Budget(iterations=20, seconds=None), random.Random(1))
    assert calls == [1]
    make_bot("mcts:easy@core=python").choose(obs, Budget(iterations=20, seconds=None), random.Random(1))
    assert calls == [1]
    # a game with a module is searched on the Python engine
    state, events = new_game(GameConfig(players=2, modules=("vizier",)), 3)
    log = EventLog()
    log.extend(events)
    seat = state.to_act
    assert seat is not None
    mod_obs = observe(state, seat, tuple(log.for_seat(seat)))
    assert not native_search.covers(Sampler(mod_obs))
    make_bot("mcts:easy").choose(mod_obs, Budget(iterations=10, seconds=None), random.Random(1))
    assert calls == [1]


def test_an_alhambra_beyond_the_native_grid_is_searched_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    from alhambra.native import NativeLimit

    def outgrown(state: GameState) -> NativeGame:
        raise NativeLimit("too wide")

    monkeypatch.setattr(native_search.NativeGame, "from_state", staticmethod(outgrown))
    obs = _positions(2, 9, 4, 1)[0]
    stats, its = _search(obs, "easy", 15, "auto", 0)
    assert its == 15 and stats == _search(obs, "easy", 15, "python", 0)[0]


def test_actions_of_the_native_search_are_engine_actions() -> None:
    obs = _positions(3, 12, 5, 1)[0]
    stats, _ = _search(obs, "easy", 30, "auto", 2)
    assert set(stats) <= set(obs.legal)
    native = NativeGame.from_state(Sampler(obs).base())
    assert all(encode(native.rules, a) in native.legal_ids("minimal") for a in native.legal_actions("minimal"))


def test_the_levels_spend_the_native_speed_on_more_iterations() -> None:
    """A level's own iterations become ``native_iterations`` on the native core (the time
    budget stays); a budget or spec with other iterations is kept as given, and so is the level
    on the Python engine or in a game with modules."""
    obs = _positions(2, 9, 4, 1)[0]
    assert LEVELS["easy"].native_iterations == 4 * (LEVELS["easy"].iterations or 0)
    level = replace(LEVELS["easy"], seconds=None, native_iterations=60, iterations=20)
    bot = mcts_mod.MctsBot("m", level)
    bot.choose(obs, bot.budget, random.Random(1))
    assert bot.last_iterations == 60
    bot.choose(obs, Budget(iterations=30, seconds=None), random.Random(1))
    assert bot.last_iterations == 30
    python = mcts_mod.MctsBot("m", replace(level, core="python"))
    python.choose(obs, python.budget, random.Random(1))
    assert python.last_iterations == 20
    spec = make_bot("mcts:easy@iterations=25+seconds=none")
    assert isinstance(spec, mcts_mod.MctsBot) and spec.settings.native_iterations is None
    spec.choose(obs, spec.budget, random.Random(1))
    assert spec.last_iterations == 25


def test_the_native_sampler_draws_what_the_python_sampler_draws() -> None:
    """native/sample.pxi makes the same generator calls as Sampler.hidden: the same seed, draw
    pile and bag, and the generator left in the same state (early positions place the special
    cards in the draw pile; late ones may follow a reshuffle)."""
    from alhambra.native import core_module

    checked = 0
    for players, seed in ((2, 8), (5, 9)):
        for obs in _positions(players, seed, 6, 12):
            sampler = Sampler(obs)
            base = NativeGame.from_state(sampler.base()).core
            plan = sampler.hidden_plan()
            for i in range(3):
                want_rng, got_rng = random.Random(i), random.Random(i)
                seed_, deck, bag = sampler.hidden(want_rng)
                got = core_module().sample_game(base, got_rng, *plan).to_state()
                assert (got.seed, got.deck, got.bag) == (seed_, deck, bag)
                assert got_rng.random() == want_rng.random()
                checked += 1
    assert checked == 72
