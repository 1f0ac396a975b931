"""Steps per second of the research environments: ``python -m alhambra.research.bench``.

Plays whole games with uniformly random legal tokens and reports, per environment, the tokens
(sub-decisions) per second including everything an agent loop does: the legal-token mask, the
observation tensor and the step. Options: ``--players N`` (default 4), ``--games N`` (default 3),
``--seed S``, ``--only NAME`` (repeatable; see :data:`BENCHES`), ``--core auto|python|native``
(the engine of the token game, PettingZoo and Gymnasium; OpenSpiel always uses the Python engine).
Steps of the OpenSpiel benchmarks include chance nodes.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from collections.abc import Callable

from ..state import GameConfig
from .encoding import codec_for
from .session import TokenGame

__all__ = ["BENCHES", "main"]

CORE = ["auto"]
"""The ``core`` the token game and the environments are made with (set by ``--core``)."""


def bench_tokens(players: int, games: int, seed: int) -> tuple[int, float]:
    """The bare token game: legal tokens and one step (no observation)."""
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        game = TokenGame(GameConfig(players=players), seed + g, core=CORE[0])
        rng = random.Random(seed + g)
        while not game.is_over:
            legal = game.legal_tokens()
            game.step(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def bench_pettingzoo(players: int, games: int, seed: int) -> tuple[int, float]:
    """The AEC loop: ``last()`` (observation and mask) and ``step`` for every token."""
    from ..pettingzoo import env

    e = env(players=players, core=CORE[0])
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        e.reset(seed=seed + g)
        rng = random.Random(seed + g)
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start


def _bench_gym(opponents: str) -> Callable[[int, int, int], tuple[int, float]]:
    def bench(players: int, games: int, seed: int) -> tuple[int, float]:
        from ..gymnasium import AlhambraEnv

        e = AlhambraEnv(players=players, opponents=opponents, core=CORE[0])
        steps = 0
        start = time.perf_counter()
        for g in range(games):
            _, info = e.reset(seed=seed + g)
            rng = random.Random(seed + g)
            done = False
            while not done:
                legal = info["action_mask"].nonzero()[0]
                _, _, terminated, truncated, info = e.step(int(legal[int(rng.random() * len(legal))]))
                done = terminated or truncated
                steps += 1
        return steps, time.perf_counter() - start

    bench.__doc__ = f"The single-agent loop against {opponents} opponents (agent tokens only; bot time included)."
    return bench


def _bench_openspiel(observe: bool) -> Callable[[int, int, int], tuple[int, float]]:
    def bench(players: int, games: int, seed: int) -> tuple[int, float]:
        return _openspiel_games(players, games, seed, observe)

    bench.__doc__ = "OpenSpiel states: legal actions or chance outcomes, apply_action (chance included)" + (
        ", and the acting player's observation tensor" if observe else ""
    )
    return bench


def _openspiel_games(players: int, games: int, seed: int, observe: bool) -> tuple[int, float]:
    import pyspiel

    from .. import openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game(f"python_alhambra(players={players})")
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                if observe:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


BENCHES: dict[str, Callable[[int, int, int], tuple[int, float]]] = {
    "tokens": bench_tokens,
    "pettingzoo": bench_pettingzoo,
    "gymnasium-random": _bench_gym("random"),
    "gymnasium-greedy": _bench_gym("greedy"),
    "openspiel": _bench_openspiel(False),
    "openspiel-obs": _bench_openspiel(True),
}
"""Every benchmark by name: a function (players, games, seed) -> (steps, seconds)."""

_NEEDS = {
    "pettingzoo": "pettingzoo",
    "gymnasium-random": "gymnasium",
    "gymnasium-greedy": "gymnasium",
    "openspiel": "pyspiel",
    "openspiel-obs": "pyspiel",
}


def main(argv: list[str] | None = None) -> None:
    """Run the benchmarks and print steps/s."""
    parser = argparse.ArgumentParser(prog="python -m alhambra.research.bench", description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", action="append", choices=sorted(BENCHES))
    parser.add_argument("--core", default="auto", choices=["auto", "python", "native"])
    args = parser.parse_args(argv)
    CORE[0] = args.core
    codec = codec_for(GameConfig(players=args.players))
    print(f"{args.players} players, {args.games} games each, {codec.num_tokens} tokens, core {args.core}")
    print(f"{'environment':<18} {'steps':>8} {'seconds':>8} {'steps/s':>9}")
    for name, bench in BENCHES.items():
        if args.only and name not in args.only:
            continue
        need = _NEEDS.get(name)
        if need is not None and importlib.util.find_spec(need) is None:
            print(f"{name:<18} skipped: {need} is not installed")
            continue
        steps, seconds = bench(args.players, args.games, args.seed)
        print(f"{name:<18} {steps:>8} {seconds:>8.2f} {steps / seconds:>9.0f}")


if __name__ == "__main__":
    main()
