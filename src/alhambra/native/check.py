"""The agreement check: play games in the Python engine and on the native core side by side and
compare, after every action, the full state, the legal actions (every payments mode) and the
events the action caused (and the deal's events).

A disagreement is a rule the two engines play differently: a rule change in the Python engine
without its native twin shows up here (and in ``tests/test_native.py``, which runs this check
over random games in CI). ``benchmarks/native_agreement.py`` runs it over many games.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..actions import Action
from ..chance import ChanceNeeded, chance_outcomes, decide
from ..engine import PAYMENTS, apply_unchecked, legal_actions, new_game
from ..events import Event
from ..policies import POLICIES
from ..state import GameConfig, GameState
from .game import NativeGame, encode

__all__ = ["CheckResult", "check_chance_game", "check_from", "check_game", "compare_states", "deal_explicit"]

_FIELDS = (
    "config",
    "seed",
    "deck",
    "display",
    "discard",
    "market",
    "bag",
    "scores",
    "neutral",
    "neutral_score",
    "removed",
    "current",
    "turn",
    "stage",
    "pending",
    "scoring_queue",
    "rounds_scored",
    "reshuffles",
    "outcome",
    "market_exhausted",
    "score_history",
    "flow",
    "mods",
    "market_currency",
    "decided",
    "piles",
    "draws",
    "market_face",
    "turned",
)


def compare_states(python: GameState, native: GameState) -> list[str]:
    """Every difference between two states of one game (empty when they are equal)."""
    out: list[str] = []
    for name in _FIELDS:
        a, b = getattr(python, name), getattr(native, name)
        if a != b:
            out.append(f"{name}: python {a!r} != native {b!r}")
    if len(python.players) != len(native.players):
        out.append("players: different numbers of seats")
        return out
    for s, (p, q) in enumerate(zip(python.players, native.players, strict=True)):
        for name in ("hand", "city", "reserve"):
            a, b = getattr(p, name), getattr(q, name)
            if a != b:
                out.append(f"seat {s} {name}: python {a!r} != native {b!r}")
    return out


@dataclass
class CheckResult:
    """What one checked game found."""

    config: GameConfig
    seed: int
    actions: int = 0
    disagreements: list[str] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        """True when the engines agreed after every action."""
        return not self.disagreements


Policy = Callable[[GameState, random.Random], Action]


def check_game(
    config: GameConfig, seed: int, policy: str | Policy = "kinds", *, round_trip_every: int = 7, events: bool = True
) -> CheckResult:
    """Play game ``seed`` of ``config`` with ``policy`` (a random policy's name or a function of
    the state and a ``random.Random(seed)``, e.g. the greedy bot's choice) in both engines, comparing the state and the legal actions (all,
    exact and minimal payments) after every action; every ``round_trip_every``-th state also
    goes Python -> native -> Python. With ``events`` each action's events (and the deal's) are
    compared too. Stops at the first disagreement."""
    state, dealt = new_game(config, seed)
    native = NativeGame.new(config, seed)
    if events and native.setup_events() != dealt:
        result = CheckResult(config, seed)
        result.disagreements.append(f"the deal's events differ: python {dealt!r} != native {native.setup_events()!r}")
        return result
    return check_from(state, native, policy, random.Random(seed), round_trip_every=round_trip_every, events=events)


def check_from(
    state: GameState, native: NativeGame, policy: str | Policy, rng: random.Random, *, round_trip_every: int = 7, events: bool = True
) -> CheckResult:
    """:func:`check_game` from a given position: ``state`` (changed in place) and its native
    twin ``native`` (``NativeGame.from_state(state)``, say) play on to the end."""
    result = CheckResult(state.config, state.seed)
    choose = POLICIES[policy] if isinstance(policy, str) else policy
    while True:
        diff = compare_states(state, native.state())
        if diff:
            result.disagreements += [f"after {result.actions} actions: {d}" for d in diff]
            return result
        if round_trip_every and result.actions % round_trip_every == 0:
            back = NativeGame.from_state(state).state()
            diff = compare_states(state, back)
            if diff:
                result.disagreements += [f"round trip after {result.actions} actions: {d}" for d in diff]
                return result
        if state.is_over:
            if not native.is_over:
                result.disagreements.append("the Python game is over, the native one is not")
            return result
        for mode in PAYMENTS:
            want_actions = legal_actions(state, payments=mode)
            got_actions = native.legal_actions(mode)
            if want_actions != got_actions:
                want = [str(a) for a in want_actions]
                got = [str(a) for a in got_actions]
                missing = [a for a in want if a not in got][:5]
                extra = [a for a in got if a not in want][:5]
                result.disagreements.append(
                    f"after {result.actions} actions, legal actions ({mode}) differ: "
                    f"python {len(want)}, native {len(got)}; missing {missing}, extra {extra}"
                    + ("; same actions in another order" if not missing and not extra else "")
                )
                return result
        action = choose(state, rng)
        if events:
            want_events = apply_unchecked(state, action)
            got_events = native.apply_events(action)
            if want_events != got_events:
                pairs = zip(want_events, got_events, strict=False)
                at = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(want_events), len(got_events)))
                result.disagreements.append(
                    f"after {result.actions} actions, the events of {action} differ from event {at}: "
                    f"python {want_events[at : at + 2]!r}, native {got_events[at : at + 2]!r} "
                    f"({len(want_events)} and {len(got_events)} events)"
                )
                return result
        else:
            apply_unchecked(state, action, events=False)
            native.apply_id(encode(native.rules, action))
        result.actions += 1


def deal_explicit(config: GameConfig, rng: random.Random) -> tuple[GameState, list[Event]]:
    """An explicit-chance deal by the Python engine, every draw's outcome drawn from ``rng``
    with its probability (the native core plays on from the state)."""
    decided: tuple[list[str], list[str]] = ([], [])
    while True:
        try:
            return new_game(config, 0, explicit_chance=True, decided=(tuple(decided[0]), tuple(decided[1])))
        except ChanceNeeded as e:
            codes, probs = zip(*chance_outcomes(e.state, e.kind), strict=True)
            decided[0 if e.kind == "card" else 1].append(rng.choices(codes, probs)[0])


def check_chance_game(config: GameConfig, seed: int, policy: str | Policy = "kinds") -> CheckResult:
    """Explicit chance (:mod:`alhambra.chance`, as OpenSpiel plays): after a deal by the Python
    engine, play on in both engines, each action retried with one more decided draw until it
    completes, as the OpenSpiel game does. At every draw the kind and the outcomes (with their
    probabilities) must be equal; after every action the state, the legal actions and the
    events."""
    rng = random.Random(seed)
    state, _ = deal_explicit(config, rng)
    result = CheckResult(config, seed)
    native = NativeGame.from_state(state)
    choose = POLICIES[policy] if isinstance(policy, str) else policy
    while True:
        diff = compare_states(state, native.state())
        if diff:
            result.disagreements += [f"after {result.actions} actions: {d}" for d in diff]
            return result
        if state.is_over:
            return result
        for mode in ("all", "minimal"):
            if legal_actions(state, payments=mode) != native.legal_actions(mode):
                result.disagreements.append(f"after {result.actions} actions, legal actions ({mode}) differ")
                return result
        action = choose(state, rng)
        while True:
            trial = state.copy()
            twin = native.copy()
            try:
                want = apply_unchecked(trial, action)
                kind = None
            except ChanceNeeded as e:
                kind, outcomes = e.kind, chance_outcomes(e.state, e.kind)
            got_kind, got = twin.apply_chance(action)
            if got_kind != kind:
                result.disagreements.append(f"after {result.actions} actions, {action}: python needs {kind}, native {got_kind}")
                return result
            if kind is None:
                if got != want:
                    result.disagreements.append(f"after {result.actions} actions, the events of {action} differ")
                    return result
                state, native = trial, twin
                break
            if chance_outcomes(twin.chance_state(), kind) != outcomes:
                result.disagreements.append(f"after {result.actions} actions, {action}: the outcomes of a {kind} draw differ")
                return result
            codes, probs = zip(*outcomes, strict=True)
            code = rng.choices(codes, probs)[0]
            decide(state, kind, code)
            native.decide(kind, code)
        result.actions += 1
