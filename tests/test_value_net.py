"""The learned value network at play time (numpy only): what it reads, the shipped weights,
the mcts:learned level, and self-play data through the research API."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from alhambra.bots import LEVELS, MctsBot, make_bot, observe
from alhambra.bots.base import Budget, EventLog
from alhambra.bots.levels import BOT_LEVELS, spec_of_level
from alhambra.bots.tree import leaf_net, mix
from alhambra.bots.value_net import SECTIONS, ValueNet, feature_map, hands_of, load
from alhambra.engine import apply, legal_actions, new_game
from alhambra.learning.selfplay import play_games, win_shares
from alhambra.research import PublicHands
from alhambra.state import GameConfig


def _midgame(players: int, seed: int, moves: int = 30, core_events: bool = True) -> tuple:
    state, events = new_game(GameConfig(players=players), seed)
    log = EventLog()
    log.extend(events)
    rng = random.Random(seed)
    bot = make_bot("greedy")
    for _ in range(moves):
        seat = state.to_act
        action = bot.choose(observe(state, seat, tuple(log.for_seat(seat))), bot.budget, rng)
        state, events = apply(state, action, seat)
        log.extend(events)
    return state, log


@pytest.mark.parametrize("players", [2, 4])
def test_hands_it_reads_are_the_public_hands(players: int) -> None:
    """The hands the network reads equal what the table reconstructs from public events."""
    state, log = _midgame(players, 5, 40)
    public = PublicHands(players)
    public.update(log.events)
    assert hands_of(state) == public.hands


def test_features_ignore_the_hidden_order_of_deck_and_bag() -> None:
    state, _ = _midgame(3, 8)
    fmap = feature_map(state.config)
    before = fmap.of_state(state, 1)
    other = state.copy()
    random.Random(1).shuffle(other.deck)
    random.Random(2).shuffle(other.bag)
    assert other.deck != state.deck and other.bag != state.bag
    assert np.array_equal(fmap.of_state(other, 1), before)
    # but it does see what the seat sees: another seat's view differs (own seat, own hand)
    assert not np.array_equal(fmap.of_state(state, 0), before)
    sec = fmap.encoder.sections
    assert fmap.size == sum(sec[s][1] - sec[s][0] for s in SECTIONS)
    assert before.min() >= 0.0 and before.max() <= 1.0


def test_shipped_weights_small_documented_and_covering_the_base_game() -> None:
    ref = resources.files("alhambra.bots") / "weights" / "value.npz"
    with resources.as_file(ref) as path:
        assert Path(path).stat().st_size <= 5 * 1024 * 1024
    net = load()
    for n in (2, 3, 4):
        assert net.covers(GameConfig(players=n))
        assert net.layers[n][0][0].shape[0] == feature_map(GameConfig(players=n)).size
    assert not net.covers(GameConfig(players=2, modules=("bazaars",)))
    assert not net.covers(GameConfig(players=5))
    meta = net.meta
    assert meta["command"].startswith("alhambra train")
    assert len(meta["commit"].split("+")[0]) == 40
    assert meta["config"]["players"] == [2, 3, 4] and all(meta["positions"][str(n)] > 0 for n in (2, 3, 4))
    assert meta["sections"] == list(SECTIONS)


def test_win_probs_are_chances_in_absolute_seat_order() -> None:
    state, _ = _midgame(4, 3)
    net = load()
    for seat in range(4):
        p = net.win_probs(state, seat)
        assert len(p) == 4 and all(0.0 <= x <= 1.0 for x in p) and abs(sum(p) - 1.0) < 1e-5
    # relative order: the viewer's block comes first, so seat 2's view puts seat 2 at index 0
    rel = net.forward(4, feature_map(state.config).of_state(state, 2))
    assert net.win_probs(state, 2)[2] == pytest.approx(float(rel[0]))
    batch = np.stack([feature_map(state.config).of_state(state, s) for s in range(4)])
    assert net.forward(4, batch).shape == (4, 4)


def test_a_bad_weights_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "w.npz"
    bad.write_text("not a zip")
    with pytest.raises(ValueError, match="cannot read value network weights"):
        ValueNet.from_file(bad)
    odd = tmp_path / "odd.npz"
    np.savez(odd, junk=np.zeros(3))
    with pytest.raises(ValueError, match="unexpected array 'junk'"):
        ValueNet.from_file(odd)


def test_learned_level_is_listed_last_and_uses_the_net() -> None:
    assert list(BOT_LEVELS)[-1] == "mcts:learned" and spec_of_level("learned") == "mcts:learned"
    bot = make_bot("mcts:learned@net_weight=0.25")
    assert isinstance(bot, MctsBot) and bot.settings.value_net == "shipped" and bot.settings.net_weight == 0.25
    settings = LEVELS["learned"]
    assert replace(settings, value_net=None, net_weight=0.5) == LEVELS["hard"] and settings.net_weight == 0.25
    assert leaf_net(settings, GameConfig(players=2)) is load()
    assert leaf_net(settings, GameConfig(players=2, modules=("bazaars",))) is None  # falls back to mcts:hard's leaves
    assert leaf_net(replace(settings, net_weight=0.0), GameConfig(players=2)) is None
    assert mix([1.0, 0.0], [0.2, 0.8], 0.25) == pytest.approx([0.8, 0.2])


@pytest.mark.parametrize("core", ["auto", "python"])
def test_learned_bot_plays_legal_moves_and_its_leaves_change_the_search(core: str) -> None:
    state, log = _midgame(2, 11, 12)
    obs = observe(state, state.to_act, tuple(log.for_seat(state.to_act)))
    legal = {str(a) for a in legal_actions(state)}
    stats = {}
    for spec in ("mcts:learned", "mcts:hard"):
        bot = make_bot(f"{spec}@iterations=60+seconds=none+core={core}")
        assert isinstance(bot, MctsBot)
        action = bot.choose(obs, Budget(60, None), random.Random(4))
        assert str(action) in legal and bot.last_iterations == 60
        from alhambra.bots.mcts import search
        from alhambra.bots.tracker import Sampler

        stats[spec], _ = search(Sampler(obs), replace(bot.settings, iterations=60, seconds=None), random.Random(4), bot.weights)
    assert stats["mcts:learned"] != stats["mcts:hard"]  # same seed and budget: only the leaves differ


def test_selfplay_records_views_and_outcomes_through_the_token_game() -> None:
    config = GameConfig(players=3)
    batch = play_games(config, [1, 2], epsilon=0.1, sample_rate=0.2)
    assert batch.x.shape[1] == feature_map(config).size and len(batch.x) % 3 == 0 and len(batch.x) > 0
    assert np.allclose(batch.y.sum(axis=1), 1.0)
    assert set(batch.game.tolist()) == {1, 2}
    # seeded: reproducible, also when two processes play the games (the same batch, in seed order)
    again = play_games(config, [1, 2], epsilon=0.1, sample_rate=0.2, workers=2)
    assert np.array_equal(again.x, batch.x) and np.array_equal(again.y, batch.y) and np.array_equal(again.game, batch.game)
    assert np.array_equal(again.hand, batch.hand)
    assert win_shares([10, 12, 12]) == [0.0, 0.5, 0.5]


def test_shipped_meta_is_json_readable() -> None:
    assert json.loads(json.dumps(load().meta))["round"] >= 1


def _residual(players: int, last_scale: float, seed: int = 3) -> ValueNet:
    """The shipped network's layers as a residual network, its last layer scaled by ``last_scale``."""
    shipped = load()
    layers = {p: [(w.copy(), b.copy()) for w, b in stack] for p, stack in shipped.layers.items()}
    w, b = layers[players][-1]
    rng = np.random.default_rng(seed)
    layers[players][-1] = ((w * last_scale).astype(np.float32), (rng.normal(size=b.shape) * last_scale).astype(np.float32))
    return ValueNet(layers, {**shipped.meta, "mode": "residual"})


@pytest.mark.parametrize("players", [2, 3])
def test_a_residual_network_with_no_correction_gives_the_hand_made_rewards(players: int) -> None:
    """A residual network whose last layer is zero says nothing: its chances are the hand-made
    rewards normalised (with two players the rewards themselves); a correction moves them."""
    state, _ = _midgame(players, 11, 24)
    net = _residual(players, 0.0)
    assert net.residual and not ValueNet(load().layers, {}).residual
    hand = [0.6, 0.3, 0.05][:players] if players == 3 else [0.7, 0.3]
    got = net.chances(hand, state, 1)
    assert got == pytest.approx([h / sum(hand) for h in hand], abs=1e-6)
    moved = _residual(players, 1.0).chances(hand, state, 1)
    assert sum(moved) == pytest.approx(1.0, abs=1e-6) and moved != pytest.approx(got, abs=1e-3)
    # the correction is the same whoever's turn it is read from: logits are in the viewer's order
    base = np.log(np.asarray([hand[(1 + r) % players] for r in range(players)], np.float32))
    logits = _residual(players, 1.0).logits(players, feature_map(state.config).of_state(state, 1)) + base
    want = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    assert moved == pytest.approx([float(want[(s - 1) % players]) for s in range(players)], abs=1e-6)


def test_a_weights_file_with_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown value network mode 'policy'"):
        ValueNet(load().layers, {"mode": "policy"})


def test_selfplay_with_a_search_records_the_hand_made_rewards() -> None:
    """Self-play moves chosen by a small mcts:hard search; every recorded position keeps the
    hand-made leaf rewards of mcts:hard (soft wins: each in [0, 1], with two players summing to 1)."""
    config = GameConfig(players=2, turn_limit=30)
    batch = play_games(config, [4], epsilon=0.0, sample_rate=0.5, search=8)
    assert len(batch.x) > 0 and batch.hand.shape == batch.y.shape
    assert np.allclose(batch.hand.sum(axis=1), 1.0, atol=1e-6) and (batch.hand > 0).all()
    # viewer first: the two rows of a position hold the same two rewards, swapped
    assert np.allclose(batch.hand[0], batch.hand[1][::-1])
    # what the mover's search made of each position: both seats' chances, summing to 1
    known = ~np.isnan(batch.q).any(axis=1)
    assert known.mean() > 0.5 and np.allclose(batch.q[known].sum(axis=1), 1.0, atol=1e-6)
    assert ((batch.q[known] >= 0.0) & (batch.q[known] <= 1.0)).all()
    again = play_games(config, [4], epsilon=0.0, sample_rate=0.5, search=8)
    assert np.array_equal(again.x, batch.x) and np.array_equal(again.hand, batch.hand)
    assert np.array_equal(again.q, batch.q, equal_nan=True)
    # with more players, or greedy moves, there is no search value
    assert np.isnan(play_games(GameConfig(players=3, turn_limit=20), [4], 0.0, 0.5, search=4).q).all()
    assert np.isnan(play_games(config, [4], 0.0, 0.5).q).all()
