"""The native core agrees with the Python engine move by move (alhambra.native.check).

The extension is built by the project's install; these tests fail (they do not skip) when it is
missing, unless ALHAMBRA_NATIVE=0 switches it off on purpose, so a rule change in the Python
engine without its native twin turns CI red.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from alhambra.actions import BuyBuilding, EndTurn, TakeMoney
from alhambra.engine import apply_unchecked, flow as engine_flow, legal_actions, new_game
from alhambra.errors import ConfigError, IllegalAction
from alhambra.native import NATIVE_ENV, available, supports, unavailable_reason
from alhambra.policies import POLICIES
from alhambra.state import GameConfig

if os.environ.get(NATIVE_ENV) == "0":
    pytest.skip(f"{NATIVE_ENV}=0: the native core is switched off", allow_module_level=True)

from alhambra.native.check import check_game, compare_states
from alhambra.native.game import NativeGame, decode, encode

GAMES_PER_BATCH = 25
"""Random games per test below: 5 player counts x 8 batches x 25 = 1,000 checked games."""


def test_native_core_is_built() -> None:
    assert available(), f"the native core is missing: {unavailable_reason()}"


@pytest.mark.parametrize("batch", range(8))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_agree_move_by_move(players: int, batch: int) -> None:
    config = GameConfig(players=players)
    policy = "uniform" if batch % 2 else "kinds"
    total = 0
    for i in range(GAMES_PER_BATCH):
        seed = 1000 * batch + i
        result = check_game(config, seed, policy, round_trip_every=11)
        assert result.agree, f"{players} players, seed {seed}: {result.disagreements}"
        total += result.actions
    assert total > GAMES_PER_BATCH * 50  # whole games were played


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_games_agree(players: int) -> None:
    """Games a strong player plays (large Alhambras, few reserve tiles) agree too."""
    from alhambra.bots.greedy import greedy_action

    result = check_game(GameConfig(players=players), 77 + players, greedy_action, round_trip_every=3)
    assert result.agree, result.disagreements
    assert result.actions > 100


def test_turn_limit_and_large_seeds_agree() -> None:
    for seed in (2**40 + 7, -3, 123456789):
        assert check_game(GameConfig(players=3, turn_limit=9), seed).agree
    state = NativeGame.new(GameConfig(players=3, turn_limit=9), 5)
    state.playout(1)
    assert state.state().outcome == "truncated" and state.state().turn == 9


def test_a_rule_changed_in_python_alone_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # the neutral player gets 6 tiles after the first scoring round; pretend a fix made it 5
    monkeypatch.setattr(engine_flow, "NEUTRAL_AFTER_FIRST_SCORING", 5)
    results = [check_game(GameConfig(players=2), seed) for seed in range(3)]
    assert not all(r.agree for r in results)
    assert any("neutral" in d.lower() or "bag" in d for r in results for d in r.disagreements)


def test_compare_states_names_the_difference() -> None:
    a, _ = new_game(GameConfig(players=3), 4)
    b = NativeGame.new(GameConfig(players=3), 4).state()
    assert compare_states(a, b) == []
    b.players[1].hand.pop()
    b.scores[0] = 7
    diff = compare_states(a, b)
    assert any(d.startswith("scores") for d in diff) and any(d.startswith("seat 1 hand") for d in diff)


def test_actions_round_trip_through_ids() -> None:
    game = NativeGame.new(GameConfig(players=2), 11)
    rng = random.Random(3)
    seen = 0
    while not game.is_over and seen < 400:
        for a in game.legal_ids():
            assert encode(game.rules, decode(game.rules, a)) == a
        game.apply_id(rng.choice(game.legal_ids()))
        seen += 1
    assert seen > 50


def test_checked_apply_refuses_illegal_actions() -> None:
    game = NativeGame.new(GameConfig(players=4), 2)
    with pytest.raises(IllegalAction):
        game.apply(BuyBuilding(1, ("b9", "b9", "b9", "b9")))
    with pytest.raises(IllegalAction):
        game.apply(EndTurn())
    take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    game.apply(take)
    state, _ = new_game(GameConfig(players=4), 2)
    apply_unchecked(state, take)
    assert compare_states(state, game.state()) == []
    assert game.legal_actions() == legal_actions(state)


def test_copies_are_independent() -> None:
    game = NativeGame.new(GameConfig(players=5), 8)
    twin = game.copy()
    game.playout(4)
    assert game.is_over and not twin.is_over
    assert twin.state().turn == 1


def test_modules_and_granada_are_not_native() -> None:
    assert supports(GameConfig(players=3))
    assert not supports(GameConfig(players=3, modules=("vizier",)))
    assert not supports(GameConfig(players=3, game="granada"))
    with pytest.raises(ConfigError):
        NativeGame.new(GameConfig(players=3, modules=("vizier",)), 1)
    state, _ = new_game(GameConfig(players=3, modules=("vizier",)), 1)
    with pytest.raises(ValueError):
        NativeGame.from_state(state)


def test_switched_off_core_warns_once_and_python_plays_on() -> None:
    code = (
        "import warnings; warnings.simplefilter('always')\n"
        "from alhambra import native\n"
        "assert not native.available(), native.unavailable_reason()\n"
        "native.warn_once(); native.warn_once()\n"
        "print(native.unavailable_reason())\n"
    )
    env = {**os.environ, NATIVE_ENV: "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert "ALHAMBRA_NATIVE=0" in out.stdout
    assert out.stderr.count("native core unavailable") == 1


def test_bench_core_native_prints_both_engines_and_agrees() -> None:
    from tests.cli_helpers import invoke

    result = invoke("bench", "--core", "native", "--games", "2", "--players", "3", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["agree"] is True
    assert figures["native_games"] == 20 and figures["games"] == 2
    assert figures["native_games_per_s"] > 0 and figures["python_games_per_s"] > 0
    assert figures["games_speedup"] == pytest.approx(figures["native_games_per_s"] / figures["python_games_per_s"])
    table = invoke("bench", "--core", "native", "--games", "1")
    assert "native core" in table.stdout and "speed-up" in table.stdout
    bad = invoke("bench", "--core", "native", "--modules", "vizier")
    assert bad.exit_code != 0 and "Python engine" in bad.stderr
    assert invoke("bench", "--core", "rust").exit_code != 0


# ---------------------------------------------------------------------- the research APIs
def test_token_game_on_the_native_core_matches_the_python_engine() -> None:
    import numpy as np

    from alhambra.research.observation import ObservationEncoder
    from alhambra.research.session import TokenGame

    config = GameConfig(players=3, turn_limit=40)
    py = TokenGame(config, 21, core="python")
    nat = TokenGame(config, 21, core="native")
    assert py.native is None and nat.native is not None
    assert nat.events == py.events  # the deal's events
    encoder = ObservationEncoder.for_config(config, py.codec)
    rng = random.Random(5)
    steps = 0
    while not py.is_over:
        assert nat.to_act == py.to_act
        legal = py.legal_tokens()
        assert nat.legal_tokens() == legal
        if steps % 5 == 0:
            seat = py.to_act
            assert nat.view(seat) == py.view(seat)
            assert np.array_equal(encoder.encode(nat.view(seat), nat.prefix), encoder.encode(py.view(seat), py.prefix))
        token = legal[rng.randrange(len(legal))]
        a, got = py.step(token)
        b, events = nat.step(token)
        assert a == b and events == got
        steps += 1
    assert nat.is_over and nat.returns() == py.returns() and nat.state.outcome == "truncated"
    assert nat.events == py.events
    assert steps > 100


def test_cores_are_chosen_by_configuration() -> None:
    from alhambra.research.session import TokenGame, use_native

    assert use_native(GameConfig(players=4), "auto")
    assert not use_native(GameConfig(players=4), "python")
    assert not use_native(GameConfig(players=4, modules=("vizier",)), "auto")
    assert not use_native(GameConfig(players=2, game="granada"), "auto")
    with pytest.raises(ValueError, match="Python engine"):
        use_native(GameConfig(players=4, modules=("vizier",)), "native")
    with pytest.raises(ValueError):
        use_native(GameConfig(players=4), "rust")
    granada = TokenGame(GameConfig(players=2, game="granada"), 1)
    assert granada.native is None and granada.events  # the Python engine, with its events


def test_pettingzoo_and_gymnasium_play_the_same_games_on_both_cores() -> None:
    from alhambra.gymnasium import AlhambraEnv
    from alhambra.pettingzoo import env

    def aec_run(core: str) -> list[tuple[bytes, bytes, float]]:
        e = env(players=2, turn_limit=30, core=core)
        e.reset(seed=3)
        rng = random.Random(3)
        out = []
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
            if terminated or truncated:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
        return out

    native_run = aec_run("native")
    assert native_run == aec_run("python") and len(native_run) > 50

    def gym_run(core: str) -> list[tuple[bytes, float]]:
        e = AlhambraEnv(players=3, opponents="uniform", turn_limit=30, core=core)
        obs, info = e.reset(seed=4)
        rng = random.Random(4)
        out = [(obs.tobytes(), 0.0)]
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            obs, r, term, trunc, info = e.step(int(legal[rng.randrange(len(legal))]))
            out.append((obs.tobytes(), r))
            done = term or trunc
        return out

    assert gym_run("native") == gym_run("python")
    assert AlhambraEnv(players=2, opponents="greedy").core == "auto"  # bots read the native core's events too


def test_gymnasium_with_bot_opponents_plays_the_same_game_on_both_cores() -> None:
    """Opponent bots read the events: on the native core they read the same ones and play the
    same moves, so the agent sees the same observations and action masks."""
    from alhambra.gymnasium import AlhambraEnv

    def run(core: str) -> list[tuple[bytes, bytes, float]]:
        e = AlhambraEnv(players=3, opponents=["greedy", "random"], turn_limit=18, core=core)
        obs, info = e.reset(seed=7)
        assert (e.game is not None) and ((e.game.native is not None) == (core == "native"))
        rng = random.Random(7)
        out = [(obs.tobytes(), info["action_mask"].tobytes(), 0.0)]
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            obs, r, term, trunc, info = e.step(int(legal[rng.randrange(len(legal))]))
            out.append((obs.tobytes(), info["action_mask"].tobytes(), r))
            done = term or trunc
        assert e.game is not None
        out.append((repr(e.game.events).encode(), b"", 0.0))
        return out

    native_run = run("native")
    assert native_run == run("python") and len(native_run) > 25


def test_bench_core_native_without_the_core_measures_python_and_says_so() -> None:
    env = {**os.environ, NATIVE_ENV: "0"}
    cmd = [sys.executable, "-m", "alhambra", "bench", "--core", "native", "--games", "1", "--players", "2", "--json"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    figures = json.loads(out.stdout)
    assert figures["unchecked_games_per_s"] > 0 and "native_games_per_s" not in figures
    assert out.stderr.count("native core unavailable") == 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    seed=st.integers(-(2**63), 2**63),
    policy=st.sampled_from(["kinds", "uniform"]),
    turn_limit=st.one_of(st.none(), st.integers(1, 60)),
)
def test_any_seed_agrees(players: int, seed: int, policy: str, turn_limit: int | None) -> None:
    result = check_game(GameConfig(players=players, turn_limit=turn_limit), seed, policy, round_trip_every=5)
    assert result.agree, result.disagreements


def test_an_alhambra_beyond_the_grid_hands_the_game_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    from alhambra import city
    from alhambra.native import NativeLimit
    from alhambra.research.session import TokenGame

    state, _ = new_game(GameConfig(players=2), 3)
    state.players[0].city[city.pos(29, 0)] = 5  # no rule check here: only the grid's reach
    with pytest.raises(NativeLimit):
        NativeGame.from_state(state)

    config = GameConfig(players=2, turn_limit=12)
    py = TokenGame(config, 8, core="python")
    nat = TokenGame(config, 8, core="native")
    calls = [0]
    real = NativeGame.legal_actions

    def outgrown(self: NativeGame, payments: str = "all") -> list[object]:
        calls[0] += 1
        if calls[0] > 8:
            raise NativeLimit("simulated")
        return real(self, payments)

    monkeypatch.setattr(NativeGame, "legal_actions", outgrown)
    rng = random.Random(2)
    while not py.is_over:
        legal = py.legal_tokens()
        assert nat.legal_tokens() == legal
        token = legal[rng.randrange(len(legal))]
        py.step(token)
        nat.step(token)
    assert calls[0] > 8 and nat.native is None and nat.is_over  # it went on with the Python engine
    assert compare_states(py.state, nat.state) == []


def test_a_player_with_no_action_ends_the_turn_in_both_engines() -> None:
    """Every money card in the hands of the others, the display and the piles empty, nothing to
    redesign: the only action is ``end`` (rare in random play); then the game goes on to its end."""
    from alhambra.native.check import check_from

    state, _ = new_game(GameConfig(players=3), 12)
    seat = state.to_act
    assert seat is not None
    others = [s for s in range(3) if s != seat]
    money = state.players[seat].hand + [c for c in state.display if c >= 0] + state.deck + state.discard
    scoring = [c for c in money if not state.components.card_is_money[c]]
    money = [c for c in money if state.components.card_is_money[c]]
    for i, c in enumerate(money):
        state.players[others[i % 2]].hand.append(c)
    state.players[seat].hand = []
    state.display = [-1] * 4
    state.deck = []
    state.discard = []
    state.removed = scoring
    assert legal_actions(state) == [EndTurn()]
    native = NativeGame.from_state(state)
    assert native.legal_actions() == [EndTurn()]
    result = check_from(state, native, "kinds", random.Random(1), round_trip_every=3)
    assert result.agree, result.disagreements
    assert state.is_over and result.actions > 10


def test_an_event_changed_in_python_alone_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from alhambra.engine import perform
    from alhambra.events import MoneyTaken

    monkeypatch.setattr(perform, "MoneyTaken", lambda seat, cards: MoneyTaken(seat, (*reversed(cards), "x1")))
    result = check_game(GameConfig(players=3), 4)
    assert not result.agree and "events" in result.disagreements[0]
    assert check_game(GameConfig(players=3), 4, events=False).agree


def test_native_events_are_the_engines_events() -> None:
    """Each step's events (every kind the base game has) and the deal's events are equal."""
    seen: set[str] = set()
    for seed in range(6):
        config = GameConfig(players=2 + seed % 3)
        state, dealt = new_game(config, seed)
        native = NativeGame.new(config, seed)
        assert native.setup_events() == dealt
        rng = random.Random(seed)
        while not state.is_over:
            action = POLICIES["uniform" if seed % 2 else "kinds"](state, rng)
            events = apply_unchecked(state, action)
            assert native.apply_events(action) == events
            seen.update(type(e).__name__ for e in events)
    assert {"RoundScored", "MarketTileAwarded", "GameEnded", "AlhambraRedesigned", "NeutralTilesReceived", "DeckReshuffled"} <= seen


@pytest.mark.parametrize("players", [2, 3, 5])
def test_explicit_chance_games_agree(players: int) -> None:
    """Explicit chance (OpenSpiel's mode): the same draws needed, with the same outcomes and
    probabilities, and the same states, legal actions and events."""
    from alhambra.native.check import check_chance_game

    result = check_chance_game(GameConfig(players=players), players, "uniform" if players % 2 else "kinds")
    assert result.agree, result.disagreements
    assert result.actions > 100
