"""Small helpers every room of the engine shares: hook lookups (:func:`_users`, the plain flow of
:data:`PASSIVE_HOOKS`), the pending decision on top, card matching and readable rule texts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .. import city as geo
from ..components import ComponentSet
from ..errors import IllegalAction, WrongPhase
from ..events import Event
from ..hooks import _USERS as _HOOK_USERS, PASSIVE_HOOKS as _DECLARED_PASSIVE, Module, hook_users, modules_of
from ..state import ChooseAction, GameConfig, GameState, PlaceTiles, PlayerState
from .caches import _PLAIN, _READS_EVENTS


def payment_value(comp: ComponentSet, cards: Iterable[int]) -> int:
    """Sum of the values of these cards."""
    cv = comp.card_value
    total = 0
    for c in cards:
        total += cv[c]
    return total


def _match_cards(comp: ComponentSet, pool: Sequence[int], codes: Sequence[str]) -> list[int] | None:
    """Indices into ``pool`` of cards with these codes (a multiset), or None if some are missing."""
    code_of = comp.card_code
    if len(codes) == 1:
        want = codes[0]
        for i, c in enumerate(pool):
            if c >= 0 and code_of[c] == want:
                return [i]
        return None
    have: list[str | None] = [code_of[c] if c >= 0 else None for c in pool]
    used: list[int] = []
    for code in codes:
        try:
            i = have.index(code)  # the first one not used yet
        except ValueError:
            return None
        have[i] = None
        used.append(i)
    return used


def _tile_id(state: GameState, code: str) -> int:
    tid = state.components.tile_ids.get(code)
    if tid is None:
        raise IllegalAction(f"there is no building tile {code!r} in this game")
    return tid


def _seat_of_turn(state: GameState) -> ChooseAction:
    top = state.pending[-1] if state.pending else None
    if not isinstance(top, ChooseAction):
        raise WrongPhase(_waiting_for(state))
    return top


def _waiting_for(state: GameState) -> str:
    top = state.pending[-1] if state.pending else None
    if isinstance(top, ChooseAction):
        return f"the game waits for player {top.seat + 1} to choose an action"
    if isinstance(top, PlaceTiles):
        return f"the game waits for player {top.seat + 1} to place {' '.join(top.tiles)}"
    if top is not None:
        return f"the game waits for player {top.seat + 1} ({type(top).__name__})"
    return "the game waits for nobody"


PASSIVE_HOOKS: Final = _DECLARED_PASSIVE
"""Hooks that leave the turn flow alone, derived from the passive facets of the hooks
(:data:`alhambra.hooks.FACETS`): the core calls them at setup, in scoring, at the end and for
views, bots and persistence, never while a turn is played. A game whose modules override only
these (new score cards, medina) plays its turns on the flow of a game without modules
(:func:`plain_flow`): no module pendings, no window between turns, no reactions to actions."""


def plain_flow(config: GameConfig) -> bool:
    """True when the turns of this game need none of the modules' flow hooks: no module, or
    modules that override only :data:`PASSIVE_HOOKS` (cached per module list)."""
    got = _PLAIN.get(config.modules)
    if got is None:
        got = _PLAIN[config.modules] = all(_passive(m) for m in modules_of(config))
    return got


def _passive(module: Module) -> bool:
    cls = type(module)
    for name, value in vars(Module).items():
        if callable(value) and not name.startswith("_") and name not in PASSIVE_HOOKS and getattr(cls, name) is not value:
            return False
    return True


def _users(state: GameState, hook: str) -> tuple[Module, ...]:
    """The game's modules that use ``hook`` (empty, at no cost, for a game without modules)."""
    modules = state.config.modules
    if not modules:
        return ()
    got = _HOOK_USERS.get((modules, hook))  # hook_users' own cache, read without a call
    return hook_users(state.config, hook) if got is None else got


def _reads_events(config: GameConfig) -> bool:
    """Does a module of this game read the events of an action (so they must be built)?"""
    got = _READS_EVENTS.get(config.modules)
    if got is None:
        reads = hook_users(config, "after_action") or hook_users(config, "on_events")
        got = _READS_EVENTS[config.modules] = bool(config.modules) and bool(reads)
    return got


def _sink(events: list[Event] | None) -> list[Event]:
    """The list a module hook appends its events to: a throwaway one when no events are built."""
    return [] if events is None else events


def _rule_text(rule: str) -> str:
    return geo.RULE_MESSAGES.get(rule, rule)


def _city_pos(p: PlayerState, tile: int, code: str) -> int:
    for q, t in p.city.items():
        if t == tile:
            return q
    raise IllegalAction(f"{code} is not in your Alhambra")


def _exchange_problem(state: GameState, seat: int, q: int, new_tile: int) -> str | None:
    p = state.players[seat]
    rule = geo.exchange_problem(p.city, state.walls, q, new_tile, geo.ORIGIN)
    if rule is None:
        for m in _users(state, "placement_problem"):
            rule = m.placement_problem(state, seat, new_tile, q)
            if rule is not None:
                break
    if rule is None:
        rule = _removal_veto(state, seat, q, new_tile)
    return rule


def _removal_veto(state: GameState, seat: int, q: int, incoming: int | None = None) -> str | None:
    """The first module's reason why the tile on ``q`` may not leave ``seat``'s Alhambra in a
    redesign (``Module.removal_problem``; ``incoming``: the tile exchanged for it), or None."""
    if not state.config.modules:
        return None
    users = _users(state, "removal_problem")
    if not users:
        return None
    t = state.players[seat].city[q]
    for m in users:
        why = m.removal_problem(state, seat, t, q, incoming)
        if why is not None:
            return why
    return None


def placement_veto(
    state: GameState, seat: int, tile: int, position: int, walls: int | None = None, skip: tuple[Module, ...] = ()
) -> str | None:
    """The first module building rule (``Module.placement_problem``) that refuses ``tile`` on
    ``position`` of ``seat``'s Alhambra, asking every module but those in ``skip``, or None.
    With ``walls`` the tile is asked about as if it showed those walls (a tile built turned):
    they are set in ``state.walls`` while the modules are asked (a module reads walls there),
    then taken back."""
    users = [m for m in _users(state, "placement_problem") if m not in skip]
    if not users:
        return None
    old = state.walls
    if walls is not None and old[tile] != walls:
        set_walls(state, tile, walls)
    try:
        for m in users:
            rule = m.placement_problem(state, seat, tile, position)
            if rule is not None:
                return rule
        return None
    finally:
        state.walls = old


_NOTHING_FILLED: Final[frozenset[int]] = frozenset()


def occupied_places(state: GameState, seat: int) -> frozenset[int]:
    """Places of ``seat``'s Alhambra that modules' pieces fill outside ``PlayerState.city``
    (``Module.occupied_places``: camps): no tile is built there, no trader tile stands there,
    and the hole test counts them as filled. Empty, at no cost, when no module overrides it."""
    if not state.config.modules:
        return _NOTHING_FILLED
    users = _users(state, "occupied_places")
    if not users:
        return _NOTHING_FILLED
    out: set[int] = set()
    for m in users:
        out.update(m.occupied_places(state, seat))
    return frozenset(out)


def build_spots(state: GameState, seat: int, mask: int) -> list[int]:
    """Every place of ``seat``'s Alhambra where a tile showing the walls ``mask`` may be built under
    the core's building rules, with the places modules fill (:func:`occupied_places`) taken and
    counted in the hole test; ascending. The Alhambra's memoised analysis when none is filled."""
    p = state.players[seat]
    walls = state.walls
    filled = occupied_places(state, seat) if state.config.modules else _NOTHING_FILLED
    spots = p.analysis(walls).spots(mask)
    return geo.legal_spots_filled(p.city, walls, mask, filled, spots) if filled else spots


def position_problem(state: GameState, seat: int, mask: int, q: int) -> str | None:
    """The core's building rule (an id) that a tile showing ``mask`` on ``q`` of ``seat``'s
    Alhambra breaks, the places modules fill counted (:func:`occupied_places`), or None."""
    p = state.players[seat]
    walls = state.walls
    filled = occupied_places(state, seat) if state.config.modules else _NOTHING_FILLED
    if filled:
        return geo.placement_problem_filled(p.city, walls, mask, q, filled)
    return None if q in p.analysis(walls).spots(mask) else geo.placement_problem(p.city, walls, mask, q)


def set_walls(state: GameState, tile: int, walls: int) -> None:
    """Give ``tile`` the wall mask ``walls`` (N=1, E=2, S=4, W=8) for the rest of the game, or
    until a module sets it again: city-wall segments added, a magical building turned, a gate
    opening a double wall. ``state.walls`` is replaced (copy on write), so every Alhambra's
    analysis is recomputed on its next use; nothing is checked (see :func:`city_problem`)."""
    if not 0 <= walls <= 15:
        raise ValueError(f"a wall mask is 0-15, not {walls!r}")
    old = state.walls
    if old[tile] != walls:
        state.walls = (*old[:tile], walls, *old[tile + 1 :])


def city_problem(state: GameState, seat: int) -> str | None:
    """The first building rule ``seat``'s Alhambra breaks with the walls as they are now
    (``state.walls``), as a readable sentence with the place, or None when it is built by the
    rules: for a module that changes walls of built tiles ("after building a city wall, the
    Alhambra must still be built according to the building rules")."""
    got = geo.validate_layout(state.players[seat].city, state.walls, geo.ORIGIN)
    if not got:
        return None
    v = got[0]
    return f"{v.message} (at {v.x},{v.y})"
