"""The one transition path: :func:`apply` (checked, on a copy) and :func:`apply_unchecked` (the
documented fast path for search, in place)."""

from __future__ import annotations

from ..actions import Action
from ..errors import GameOver, IllegalAction, NotYourTurn
from ..events import Event
from ..state import GameState
from .check import _check
from .common import _reads_events, _waiting_for, plain_flow
from .flow import _advance, _after_action, _notify
from .perform import _PERFORM, _perform


def apply(state: GameState, action: Action, seat: int | None = None) -> tuple[GameState, list[Event]]:
    """Check ``action`` and return ``(new_state, events)``; ``state`` itself is not changed.

    ``seat``, when given, is who submits the action: it must be the seat the game waits for.
    Raises :class:`~alhambra.errors.IllegalAction` (or a subclass) with a readable reason.
    """
    if state.outcome is not None:
        raise GameOver("the game is over")
    if not isinstance(action, Action):
        raise IllegalAction(f"not an action: {action!r}")
    if seat is not None and seat != state.to_act:
        raise NotYourTurn(f"it is not your turn: {_waiting_for(state)}")
    new = state.copy()
    try:
        _check(new, action)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError):
        raise IllegalAction(f"malformed action {action!r}") from None
    events: list[Event] = []
    handler = _PERFORM.get(type(action))
    if handler is None:
        _perform(new, action, events)
    else:
        handler(new, action, events)
    config = new.config
    if not config.modules or plain_flow(config):
        if not new.pending:  # without modules, nothing is automatic while a decision waits
            _advance(new, events)
    else:
        _after_action(new, events)
        _advance(new, events)
        _notify(new, events)
    return new, events


def apply_unchecked(state: GameState, action: Action, *, events: bool = True) -> list[Event]:
    """Fast path for search: apply a legal action to ``state`` in place, without any check.

    Only pass actions from :func:`legal_actions` of this very state; anything else may leave
    the state corrupt. Returns the events; with ``events=False`` no event is built (a search
    reads none) and the list is empty. The game goes exactly as with events: a module that
    reads the events of an action (``after_action``, ``on_events``) still gets them, and the
    other hooks that take an ``events`` list get one that is thrown away.
    """
    config = state.config
    handler = _PERFORM.get(type(action))
    if not config.modules or plain_flow(config):  # the flow of a game without modules
        evs: list[Event] | None = [] if events else None
        if handler is None:
            _perform(state, action, evs)
        else:
            handler(state, action, evs)
        if not state.pending:  # without modules, nothing is automatic while a decision waits
            _advance(state, evs)
        return evs if evs is not None else []
    evs = [] if events or _reads_events(config) else None
    if handler is None:
        _perform(state, action, evs)
    else:
        handler(state, action, evs)
    _after_action(state, evs)
    _advance(state, evs)
    _notify(state, evs)
    return evs if events and evs is not None else []
