"""Bots: players that see only what their seat may see.

``make_bot("mcts:normal")`` builds a bot from a spec ``NAME[:LEVEL]``; see :data:`LEVELS` and
``docs/bots.md`` for what each difficulty level means.
"""

from __future__ import annotations

from dataclasses import replace

from .base import Bot, Budget, EventLog, Observation, fallback_action, observe
from .greedy import DEFAULT_WEIGHTS, TUNED_WEIGHTS, GreedyBot, Weights
from .mcts import MctsBot, MctsSettings
from .random import RandomBot

__all__ = [
    "BOT_NAMES",
    "DEFAULT_WEIGHTS",
    "LEVELS",
    "TUNED_WEIGHTS",
    "Bot",
    "Budget",
    "EventLog",
    "GreedyBot",
    "MctsBot",
    "MctsSettings",
    "Observation",
    "RandomBot",
    "Weights",
    "fallback_action",
    "make_bot",
    "observe",
    "parse_spec",
]

LEVELS: dict[str, MctsSettings] = {
    "easy": MctsSettings(iterations=100, seconds=0.25, opponent_pw_c=0.3, native_iterations=400),
    "normal": MctsSettings(iterations=1000, seconds=1.0, opponent_pw_c=0.3, native_iterations=4000),
    "hard": MctsSettings(iterations=3000, seconds=4.0, opponent_pw_c=0.3, weights=TUNED_WEIGHTS, native_iterations=12000),
    "learned": MctsSettings(
        iterations=3000,
        seconds=4.0,
        opponent_pw_c=0.3,
        weights=TUNED_WEIGHTS,
        native_iterations=12000,
        value_net="shipped",
        net_weight=0.25,
    ),
}
"""The settings of each MCTS difficulty level (iterations and seconds: whichever ends first;
``opponent_pw_c`` acts only with 3 or more players; ``hard`` evaluates positions with the
tuned weights; ``learned`` is ``hard`` with the shipped value network mixed into every leaf,
in the games the network covers: :mod:`alhambra.bots.value_net`). On the native core (games
without modules) the same time budgets buy four times the iterations (``native_iterations``:
the native search runs about 4x the Python engine's iterations per second,
benchmarks/compare_native_moves.py)."""

BOT_NAMES = ("random", "greedy", "mcts")


def parse_spec(spec: str) -> tuple[str, str | None, dict[str, str]]:
    """Split ``NAME[:LEVEL][,key=value...]``-free specs like ``mcts:normal`` or
    ``mcts:hard@workers=2`` into name, level and options."""
    text = spec.strip().lower()
    opts: dict[str, str] = {}
    if "@" in text:
        text, rest = text.split("@", 1)
        for part in rest.split("+"):
            if "=" not in part:
                raise ValueError(f"bad bot option {part!r} in {spec!r} (write key=value)")
            k, v = part.split("=", 1)
            opts[k.strip()] = v.strip()
    name, _, level = text.partition(":")
    return name, level or None, opts


_INT_OPTS = {"iterations", "native_iterations", "workers", "rollout_plies"}
_FLOAT_OPTS = {"seconds", "c_ucb", "bias", "pw_c", "pw_alpha", "opponent_pw_c", "temperature", "temperature_early", "net_weight"}
_CHOICE_OPTS = {"reward": ("rank", "win"), "core": ("auto", "python", "native")}


def make_bot(spec: str, workers: int | None = None) -> Bot:
    """A bot from its spec: ``random``, ``greedy``, ``mcts`` (= ``mcts:normal``), ``mcts:easy``,
    ``mcts:normal``, ``mcts:hard``, ``mcts:learned``, optionally with settings after ``@``
    (``mcts:normal@seconds=0.5+iterations=800``). ``workers`` sets the MCTS worker processes."""
    name, level, opts = parse_spec(spec)
    if name == "random":
        if level or opts:
            raise ValueError(f"the random bot has no level or options: {spec!r}")
        return RandomBot(spec)
    if name == "greedy":
        if level or opts:
            raise ValueError(f"the greedy bot has no level or options: {spec!r}")
        return GreedyBot(spec)
    if name == "mcts":
        lvl = level or "normal"
        if lvl not in LEVELS:
            raise ValueError(f"unknown level {lvl!r} for {spec!r} (choose from {', '.join(LEVELS)})")
        settings = LEVELS[lvl]
        changes: dict[str, object] = {}
        for k, v in opts.items():
            try:
                if k in _INT_OPTS:
                    changes[k] = None if v == "none" else int(v)
                elif k in _FLOAT_OPTS:
                    changes[k] = None if v == "none" else float(v)
                elif k in _CHOICE_OPTS:
                    if v not in _CHOICE_OPTS[k]:
                        raise ValueError(f"choose from {', '.join(_CHOICE_OPTS[k])}")
                    changes[k] = v
                else:
                    raise ValueError(f"unknown mcts option {k!r}")
            except ValueError as e:
                raise ValueError(f"bad option {k}={v} in {spec!r}: {e}") from None
        if "iterations" in changes and "native_iterations" not in changes:
            changes["native_iterations"] = None  # the iterations asked for, on either core
        if workers is not None:
            changes["workers"] = workers
        settings = replace(settings, **changes)  # type: ignore[arg-type]
        return MctsBot(spec, settings)
    raise ValueError(f"unknown bot {spec!r} (choose from {', '.join(BOT_NAMES)})")
