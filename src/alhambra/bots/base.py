"""The bot protocol: what a bot is given, what it returns, and how budgets are expressed.

A bot never sees a :class:`~alhambra.state.GameState`. It is given an :class:`Observation`
built only from :func:`alhambra.view.view` for its seat and the public event history
(:func:`alhambra.view.view_events`), a :class:`Budget` and a ``random.Random``; it returns one
of the legal actions listed in the view. Search bots rebuild full states consistent with the
observation through :mod:`alhambra.bots.tracker`.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..actions import Action, parse_action
from ..errors import NotationError
from ..events import Event
from ..state import GameConfig, GameState
from ..view import view, view_events

__all__ = ["Bot", "Budget", "EventLog", "Observation", "fallback_action", "log", "observe", "set_yield_point", "yield_point"]

log = logging.getLogger("alhambra.bots")
"""Bots log unexpected situations (an unknown decision, a sampler mismatch) here."""

_yield_point: Callable[[], float] | None = None


def set_yield_point(fn: Callable[[], float] | None) -> None:
    """Install ``fn`` as this process's yield point (None removes it; none by default).

    A search calls it once per iteration; it may pause (the table server's search workers pause
    an all-bot table's search while a table with people has a move in hand) and returns the
    seconds it paused, which the search adds to its time budget, so a paused search still gets
    the CPU time it was given. Without a yield point a search is exactly as before."""
    global _yield_point
    _yield_point = fn


def yield_point() -> Callable[[], float] | None:
    """The yield point installed by :func:`set_yield_point` (None: none)."""
    return _yield_point


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a bot may think about one decision: ``iterations`` (deterministic) and/or
    ``seconds`` (wall clock). ``None`` means no limit of that kind; a bot with neither uses its
    own default."""

    iterations: int | None = None
    seconds: float | None = None

    def deadline(self, start: float | None = None) -> float | None:
        """The ``time.perf_counter()`` value at which thinking must stop, or None."""
        if self.seconds is None:
            return None
        return (time.perf_counter() if start is None else start) + self.seconds


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may know at one decision: its view and the public history.

    ``view`` is :func:`alhambra.view.view` for ``seat``; ``events`` are the JSON-ready public
    events of the game so far (:func:`alhambra.view.view_events`), oldest first.
    """

    seat: int
    view: dict[str, Any]
    events: Sequence[dict[str, Any]]

    @property
    def config(self) -> GameConfig:
        """The game's configuration as the view states it."""
        v = self.view
        return GameConfig(players=v["players"], modules=tuple(v["modules"]), turn_limit=v["turn_limit"], game=v.get("game", "alhambra"))

    @property
    def legal(self) -> list[str]:
        """The legal actions in text notation (empty unless the seat must decide)."""
        return list(self.view["legal_actions"])

    def legal_actions(self) -> list[Action]:
        """The legal actions, parsed."""
        return [parse_action(a) for a in self.view["legal_actions"]]


class EventLog:
    """The event history of one game as each seat sees it, converted to dicts once per seat
    (for the runner; a module's private event reads differently for its owner)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._seen: dict[int | None, list[dict[str, Any]]] = {}

    def extend(self, events: Sequence[Event]) -> None:
        """Append new engine events."""
        self.events.extend(events)

    @property
    def dicts(self) -> list[dict[str, Any]]:
        """The log as a spectator sees it."""
        return self.for_seat(None)

    def for_seat(self, seat: int | None) -> list[dict[str, Any]]:
        """The log as ``seat`` (None: a spectator) may see it (:func:`alhambra.view.view_events`)."""
        got = self._seen.setdefault(seat, [])
        if len(got) < len(self.events):
            got.extend(view_events(self.events[len(got) :], seat))
        return got


def observe(state: GameState, seat: int, events: Sequence[dict[str, Any]] | Sequence[Event]) -> Observation:
    """The observation of ``seat``: its view of ``state`` and the public events.

    ``events`` may be engine events or the dicts of :class:`EventLog`; either way only their
    public JSON form reaches the bot.
    """
    dicts: Sequence[dict[str, Any]]
    if events and isinstance(events[0], Event):
        dicts = view_events([e for e in events if isinstance(e, Event)], seat)
    else:
        dicts = [e for e in events if isinstance(e, dict)]
    return Observation(seat, view(state, seat), tuple(dicts))


@runtime_checkable
class Bot(Protocol):
    """A player: ``choose`` returns one legal action for the observation."""

    name: str
    budget: Budget

    def choose(self, obs: Observation, budget: Budget, rng: random.Random) -> Action:
        """One of ``obs.legal_actions()``, within ``budget``, drawing chance only from ``rng``."""
        ...


def fallback_action(obs: Observation, rng: random.Random, why: str) -> Action:
    """A uniformly random legal action, logging why a bot had to fall back on it."""
    log.warning("seat %d falls back on a random action: %s", obs.seat, why)
    legal = obs.legal
    if not legal:
        raise NotationError("no legal action to choose from")
    return parse_action(legal[int(rng.random() * len(legal))])
