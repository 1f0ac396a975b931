"""The PettingZoo AEC environment and the single-agent Gymnasium environment."""

from __future__ import annotations

import sys
import warnings

import pytest

np = pytest.importorskip("numpy", reason="the RL environments need numpy (pip install 'alhambra[rl]')")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install 'alhambra[rl]')")
gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is not installed (pip install 'alhambra[rl]')")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import seed_test  # noqa: E402

import alhambra.gymnasium as agym  # noqa: E402
from alhambra.errors import IllegalAction  # noqa: E402
from alhambra.pettingzoo import AlhambraAEC, env  # noqa: E402

from .research_helpers import ModuleSet, module_sets, pettingzoo_api_test  # noqa: E402


# ---------------------------------------------------------------------------------- PettingZoo
def test_pettingzoo_api_test_plays_whole_games() -> None:
    # the play test runs a whole game, through the terminal steps
    assert pettingzoo_api_test((), players=2, turn_limit=None, num_cycles=1500) == 1


@pytest.mark.parametrize("case", module_sets(), ids=str)
def test_pettingzoo_api_test_with_modules(case: ModuleSet) -> None:
    """Each module alone and all modules together (short games; whole games with every module: test_all_modules.py)."""
    assert pettingzoo_api_test(case.modules, players=3, turn_limit=case.turn_limit) == 1


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=3, modules=("vizier",)), num_cycles=300)


def _random_episode(e: AlhambraAEC, seed: int) -> tuple[list[int], dict[str, float], str]:
    e.reset(seed=seed)
    for i, agent in enumerate(e.possible_agents):
        e.action_space(agent).seed(seed + i)
    actions: list[int] = []
    total = dict.fromkeys(e.possible_agents, 0.0)
    outcome = ""
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            outcome = "terminated" if terminated else "truncated"
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        a = int(e.action_space(agent).sample(mask))
        actions.append(a)
        e.step(a)
    return actions, total, outcome


def test_pettingzoo_full_episode_rewards_and_reproducibility() -> None:
    e = env(players=3)
    actions, total, outcome = _random_episode(e, 7)
    assert outcome == "terminated"
    assert e.agents == []
    assert sum(total.values()) == pytest.approx(0.0)
    assert max(total.values()) > 0
    again, total_again, _ = _random_episode(env(players=3), 7)
    assert again == actions and total_again == total
    other, _, _ = _random_episode(env(players=3), 8)
    assert other != actions


def test_pettingzoo_turn_limit_truncates() -> None:
    e = env(players=2, turn_limit=5)
    _, total, outcome = _random_episode(e, 1)
    assert outcome == "truncated"
    assert sum(total.values()) == pytest.approx(0.0)


def test_pettingzoo_observation_and_mask_belong_to_the_seat() -> None:
    e = env(players=3)
    e.reset(seed=3)
    game = e.game
    assert game is not None
    acting = e.agent_selection
    assert acting == f"player_{game.to_act}"
    for agent in e.agents:
        obs = e.observe(agent)
        assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
        assert e.observation_space(agent).contains(obs)
        assert obs["action_mask"].any() == (agent == acting)
    legal = set(np.flatnonzero(e.observe(acting)["action_mask"]).tolist())
    illegal = next(t for t in range(e.codec.num_tokens) if t not in legal)
    with pytest.raises(IllegalAction):
        e.step(illegal)


def test_pettingzoo_render_ansi() -> None:
    e = env(players=2, render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert isinstance(text, str)
    assert "market" in text and "player 1" in text and "player 2" in text
    first = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    assert e.codec.names[first] == "take"
    e.step(first)
    assert "[chosen: take]" in (e.render() or "")
    quiet = env(players=2)
    quiet.reset(seed=2)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


# ---------------------------------------------------------------------------------- Gymnasium
def test_module_named_gymnasium_imports_the_real_package() -> None:
    assert agym.gymnasium is sys.modules["gymnasium"]
    assert agym.gymnasium.__name__ == "gymnasium" and hasattr(agym.gymnasium, "Env")
    assert issubclass(agym.AlhambraEnv, gymnasium.Env)


@pytest.mark.parametrize("opponents", ["greedy", "random"])
def test_gymnasium_check_env(opponents: str) -> None:
    e = gymnasium.make(agym.ENV_ID, players=3, opponents=opponents, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(e.unwrapped)


def _episode(e: agym.AlhambraEnv, seed: int) -> tuple[list[int], float, bool, bool, int]:
    obs, info = e.reset(seed=seed)
    e.action_space.seed(seed)
    actions: list[int] = []
    reward = 0.0
    terminated = truncated = False
    while not (terminated or truncated):
        assert e.observation_space.contains(obs)
        mask = info["action_mask"]
        assert mask.any()
        a = int(e.action_space.sample(mask))
        actions.append(a)
        obs, reward, terminated, truncated, info = e.step(a)
        assert not info["illegal"]
    return actions, reward, terminated, truncated, info["seat"]


def test_gymnasium_full_episode_against_bots_is_reproducible() -> None:
    e = agym.AlhambraEnv(players=3, seat="random", opponents=["greedy", "random"])
    actions, reward, terminated, truncated, seat = _episode(e, 5)
    game = e.game
    assert game is not None and game.state.outcome == "finished"
    assert terminated and not truncated
    assert reward == game.returns()[seat]
    assert -1.0 <= reward <= 1.0
    again = _episode(agym.AlhambraEnv(players=3, seat="random", opponents=["greedy", "random"]), 5)
    assert again == (actions, reward, terminated, truncated, seat)


def test_gymnasium_illegal_actions() -> None:
    e = agym.AlhambraEnv(players=2, opponents="kinds")
    _, info = e.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError):
        e.step(illegal)
    soft = agym.AlhambraEnv(players=2, opponents="kinds", illegal="ignore", illegal_reward=-0.1)
    obs0, info0 = soft.reset(seed=1)
    obs1, reward, terminated, _, info1 = soft.step(illegal)
    assert (reward, terminated, info1["illegal"]) == (-0.1, False, True)
    assert np.array_equal(obs0, obs1) and np.array_equal(info0["action_mask"], info1["action_mask"])
    assert np.array_equal(soft.action_masks(), info1["action_mask"].astype(bool))


def test_gymnasium_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat"):
        agym.AlhambraEnv(players=2, seat=2)
    with pytest.raises(ValueError, match="opponent"):
        agym.AlhambraEnv(players=3, opponents=["greedy"])
    with pytest.raises(ValueError, match="illegal"):
        agym.AlhambraEnv(players=2, illegal="sometimes")
    with pytest.raises(ValueError):
        agym.AlhambraEnv(players=2, opponents="no-such-bot")


def test_training_example_runs() -> None:
    import runpy
    from pathlib import Path

    example = runpy.run_path(str(Path(__file__).parent.parent / "examples" / "reinforce.py"))
    results = example["train"](2, "random", seed=3)
    assert len(results) == 2 and all(-1.0 <= r <= 1.0 for r in results)


def test_gymnasium_opponents_read_the_events_as_their_own_seat_sees_them() -> None:
    """An opponent bot gets its own private events in full (a street trader's secret citizens),
    the other seats' redacted, as the tournament runner and the server give them."""
    from alhambra.view import view_events

    e = agym.AlhambraEnv(players=3, seat=0, opponents="kinds", modules=("street_traders",))
    real = e._opponents
    seen: list[tuple[int, list[dict[str, object]], list[dict[str, object]]]] = []

    def recording(index: int) -> agym.Opponent:
        def play(state, seat, events, rng):  # type: ignore[no-untyped-def]
            game = e.game
            assert game is not None
            seen.append((seat, list(events), view_events(game.events, seat)))
            return real[index](state, seat, events, rng)

        return play

    e._opponents = [recording(0), recording(1)]
    _, info = e.reset(seed=3)
    for _ in range(30):
        if not info["action_mask"].any():
            break
        _, _, terminated, truncated, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
    assert seen
    for _seat, got, expected in seen:
        assert got == expected
    # the private setup choices read differently for their owner than for a spectator
    game = e.game
    assert game is not None
    assert any(view_events(game.events, seat) != view_events(game.events, None) for seat in (1, 2))
