"""The value network on the native core (native/value.pxi, bots/native_value.py) reads and
answers what the numpy network (bots/value_net.py) reads and answers.

The features are compared with ``np.array_equal``, bit for bit: the native code writes each
float32 with the operations the encoder uses (a quotient computed in double and rounded once to
float32; a count as a float32 sum of equal float32 steps, as numpy's ``out[i] += step`` sums
them), so there is no rounding to forgive. The forward pass is compared within 1e-5: numpy's
float32 matrix products (BLAS) add in an order of their own, the native pass adds in double.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from alhambra.native import NATIVE_ENV
from alhambra.state import GameConfig

if os.environ.get(NATIVE_ENV) == "0":
    pytest.skip(f"{NATIVE_ENV}=0: the native core is switched off", allow_module_level=True)

from alhambra.bots import LEVELS, native_search
from alhambra.bots.native_value import native_features, native_net
from alhambra.bots.tree import _BAG_START, mix
from alhambra.bots.value_net import feature_map, load
from alhambra.native import core_module
from alhambra.native.game import NativeGame, decode

A_TAKE = 0


def _games(config: GameConfig, seeds: range, every: int, hoard: float) -> list[tuple[NativeGame, int]]:
    """Positions of random native games (every ``every``-th action and the last), with the
    number of the action; ``hoard``: the chance to take money whenever that is legal, so hands
    grow large."""
    out: list[tuple[NativeGame, int]] = []
    for seed in seeds:
        game = NativeGame.new(config, seed)
        rng = random.Random(seed)
        step = 0
        while True:
            if step % every == 0 or game.is_over:
                out.append((game.copy(), step))
            if game.is_over:
                break
            ids = game.legal_ids()
            takes = [a for a in ids if a & 7 == A_TAKE]
            game.apply_id(rng.choice(takes) if takes and rng.random() < hoard else rng.choice(ids))
            step += 1
    return out


CASES = [
    (GameConfig(players=2), range(1, 11), 3, 0.7),
    (GameConfig(players=2, turn_limit=40), range(6, 8), 1, 0.9),
    (GameConfig(players=3), range(10, 18), 3, 0.6),
    (GameConfig(players=4), range(20, 26), 3, 0.8),
]


@pytest.mark.parametrize(("config", "seeds", "every", "hoard"), CASES, ids=["2p", "2p-limit", "3p", "4p"])
def test_native_features_equal_the_python_features(config: GameConfig, seeds: range, every: int, hoard: float) -> None:
    fmap = feature_map(config)
    native = native_features(config)
    assert native.size == fmap.size and native.n == config.players
    out = np.empty(fmap.size, np.float32)
    seen = dict.fromkeys(("final", "over", "neutral", "reserve", "waiting", "big hand"), 0)
    checked = 0
    for game, step in _games(config, seeds, every, hoard):
        state = game.state()
        for seat in range(config.players):
            native.features(game.core, seat, out)
            want = fmap.of_state(state, seat)
            assert np.array_equal(out, want), (
                f"seed list {seeds}, action {step}, seat {seat}: differ at {np.flatnonzero(out != want).tolist()}"
            )
            checked += 1
        seen["final"] += state.stage == "final_distribution"
        seen["over"] += state.outcome is not None
        seen["neutral"] += bool(state.neutral)
        seen["reserve"] += any(p.reserve for p in state.players)
        seen["waiting"] += bool(state.pending and getattr(state.pending[-1], "tiles", None))
        seen["big hand"] += max(len(p.hand) for p in state.players) >= 15
    assert checked > 100
    assert seen["over"] == len(seeds) and seen["reserve"] and seen["waiting"] and seen["big hand"]
    assert bool(seen["neutral"]) == (config.players == 2)
    if config.turn_limit is None:
        assert seen["final"]
    else:  # a game cut short by the turn limit: its turn scale and outcome
        assert all(g.state().outcome == "truncated" for g, _ in _games(config, seeds, 10_000, hoard) if g.is_over)


def test_final_distribution_and_every_stage_are_read_alike() -> None:
    """Positions of the final distribution (the market's tiles handed out) read alike: taken
    action by action near the end of games, where the short-stride sampling may miss them."""
    config = GameConfig(players=3)
    fmap = feature_map(config)
    native = native_features(config)
    out = np.empty(fmap.size, np.float32)
    stages = set()
    for game, _ in _games(config, range(30, 33), 1, 0.5):
        state = game.state()
        if state.bag and state.outcome is None:
            continue  # only the end of each game, every action
        stages.add(state.stage)
        for seat in range(3):
            native.features(game.core, seat, out)
            assert np.array_equal(out, fmap.of_state(state, seat))
    assert {"final_distribution", "over"} <= stages


@pytest.mark.parametrize("players", [2, 3, 4])
def test_native_forward_pass_equals_the_numpy_network(players: int) -> None:
    config = GameConfig(players=players)
    net = load()
    core = native_net(net, config)
    fmap = feature_map(config)
    rng = np.random.default_rng(players)
    worst = 0.0
    games = _games(config, range(40 + players, 42 + players), 7, 0.5)
    for game, _ in games:
        state = game.state()
        for seat in range(players):
            x = fmap.of_state(state, seat)
            got = np.array(core.forward(x))
            want = net.forward(players, x).astype(np.float64)
            worst = max(worst, float(np.abs(got - want).max()))
            probs = core.win_probs(game.core, seat)
            assert len(probs) == players and abs(sum(probs) - 1.0) < 1e-9
            worst = max(worst, float(np.abs(np.array(probs) - np.array(net.win_probs(state, seat))).max()))
    # dense inputs too (every feature non-zero: the forward pass is no feature-map shortcut)
    for _ in range(20):
        x = rng.random(fmap.size, dtype=np.float32)
        worst = max(worst, float(np.abs(np.array(core.forward(x)) - net.forward(players, x)).max()))
    assert worst < 1e-5


def test_learned_rewards_mix_the_network_in_as_tree_mix_does() -> None:
    """The native leaf rewards of mcts:learned: tree.mix of the hand-made rewards and the
    network's chances as the searching seat sees the game (the same arithmetic, so equal to the
    last bit given the network's answer); a finished game's rewards are its result, unmixed."""
    config = GameConfig(players=3)
    net = load()
    twin = native_net(net, config)
    settings = LEVELS["learned"]
    games = _games(config, range(50, 52), 9, 0.5)
    ev = native_search.evaluator(games[0][0].state().components, settings.weights)
    hand = core_module().Rewarder(ev, True, settings.temperature, settings.temperature_early, _BAG_START)
    for seat in range(3):
        learned = core_module().LearnedRewarder(hand, twin, seat, settings.net_weight)
        for game, _ in games:
            values = game.core.seat_values(ev)
            got = learned(game.core, values)
            if game.is_over:
                assert got == hand(game.core, values) and sorted(got)[-1] > 0.0
                continue
            assert got == mix(hand(game.core, values), twin.win_probs(game.core, seat), settings.net_weight)
            want = mix(hand(game.core, values), net.win_probs(game.state(), seat), settings.net_weight)
            assert got == pytest.approx(want, abs=1e-6)
    with pytest.raises(ValueError, match="seat must be 0-2"):
        core_module().LearnedRewarder(hand, twin, 3, 0.25)


def test_native_value_refuses_what_it_cannot_read() -> None:
    net = load()
    core = native_net(net, GameConfig(players=2))
    assert native_net(net, GameConfig(players=2, turn_limit=50)) is core  # cached per player count
    with pytest.raises(ValueError, match="does not cover"):
        native_net(net, GameConfig(players=5))
    with pytest.raises(ValueError, match="does not cover"):
        native_net(net, GameConfig(players=2, modules=("bazaars",)))
    three = NativeGame.new(GameConfig(players=3), 1)
    with pytest.raises(ValueError, match="a game of 3 players, a network of 2"):
        core.win_probs(three.core, 0)
    two = NativeGame.new(GameConfig(players=2), 1)
    with pytest.raises(ValueError, match="seat must be 0-1"):
        core.win_probs(two.core, 2)
    with pytest.raises(ValueError, match="x must hold"):
        core.forward(np.zeros(10, np.float32))
    with pytest.raises(ValueError, match="out must hold"):
        native_features(GameConfig(players=2)).features(two.core, 0, np.zeros(10, np.float32))
    assert str(decode(two.rules, two.legal_ids()[0]))  # the game itself is untouched and playable


def test_residual_rewards_correct_the_hand_made_ones_as_the_numpy_network_does() -> None:
    """A residual network on the native core: the leaf rewards are tree.mix of the hand-made
    rewards and ``ValueNet.chances`` (the softmax of the network's logits plus the logarithms
    of the hand-made rewards), within float32 rounding of numpy's."""
    from alhambra.bots.value_net import ValueNet

    config = GameConfig(players=2)
    shipped = load()
    layers = {p: [(w.copy(), b.copy()) for w, b in stack] for p, stack in shipped.layers.items()}
    net = ValueNet(layers, {**shipped.meta, "mode": "residual"})
    twin = native_net(net, config)
    settings = LEVELS["learned"]
    games = _games(config, range(60, 63), 7, 0.5)
    ev = native_search.evaluator(games[0][0].state().components, settings.weights)
    hand = core_module().Rewarder(ev, True, settings.temperature, settings.temperature_early, _BAG_START)
    plain = core_module().LearnedRewarder(hand, twin, 0, 1.0)
    checked = 0
    for seat in range(2):
        learned = core_module().LearnedRewarder(hand, twin, seat, 0.75, True)
        for game, _ in games:
            values = game.core.seat_values(ev)
            got = learned(game.core, values)
            h = hand(game.core, values)
            if game.is_over:
                assert got == h
                continue
            want = mix(h, net.chances(h, game.state(), seat), 0.75)
            assert got == pytest.approx(want, abs=1e-6)
            checked += 1
            if seat == 0 and 0.05 < h[0] < 0.95:  # the correction differs from the network alone
                assert plain(game.core, values) != pytest.approx(net.chances(h, game.state(), 0), abs=1e-4)
    assert checked > 10
