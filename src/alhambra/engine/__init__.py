"""The rules engine: setup, legal actions and the one transition path.

* :func:`new_game` deals a new game from a configuration and a seed.
* :func:`legal_actions` lists every action the game accepts now; it is the single source of
  truth for UI hints, bots and validation.
* :func:`apply` checks an action, and returns a new state and the events it caused; the input
  state is never changed. An illegal action raises a subclass of
  :class:`~alhambra.errors.IllegalAction` whose ``reason`` a person can read.
* :func:`apply_unchecked` is the documented fast path for search: it changes the given state in
  place and skips every check, so feed it only actions taken from :func:`legal_actions`.

Who acts next is explicit: ``state.to_act`` is the seat whose pending decision is on top of
``state.pending``, or None once the game is over. Chance (the deck order, the tile bag,
reshuffles) is fixed by the seed inside the state and resolved inside the transition, so the
game always waits for a seat or has ended; in explicit-chance mode (:mod:`alhambra.chance`)
every draw is instead an outcome decided from outside, with exact probabilities.

The engine is a package of rooms, each one concern (see docs/engine.md): :mod:`.core` (apply),
:mod:`.setup`, :mod:`.supply` (draws, refills), :mod:`.payments`, :mod:`.generate` and
:mod:`.redesign` (legal actions), :mod:`.check`, :mod:`.perform`, :mod:`.flow` (the end-of-turn
steps), :mod:`.scoring`, :mod:`.caches` (every speed cache) and :mod:`.common`. Modules call the
engine only through :mod:`.services`. Every name is importable from ``alhambra.engine`` as before.
"""

from __future__ import annotations

# What modules may call comes through .services (where each name's room is said once); the rest
# from its room. The private names are imported by the policies and by tests (speed and scoring
# tests); everything else private stays in its room. ``__all__`` is one literal list (ruff
# checks it); tests/test_engine_rooms.py checks that it holds every name of services.__all__.
from .caches import _PLAIN as _PLAIN, _tables as _tables, clear_caches
from .common import _match_cards as _match_cards, _users as _users
from .core import apply, apply_unchecked
from .generate import (
    _buy_actions as _buy_actions,
    _list_takes as _list_takes,
    _place_actions as _place_actions,
    _stuck as _stuck,
    _take_actions as _take_actions,
    _window_actions as _window_actions,
    action_kinds,
    can_buy,
    kind_forms,
    legal_actions,
)
from .payments import (
    PAYMENTS,
    _check_payment as _check_payment,
    _enumerate_payments as _enumerate_payments,
    _plain_payment as _plain_payment,
)
from .redesign import REDESIGN_KINDS, _redesign_actions as _redesign_actions
from .scoring import _score_round as _score_round, winners
from .services import (
    PASSIVE_HOOKS,
    add_points,
    build_components,
    build_spots,
    build_tile,
    building_counts,
    buy_covered,
    check_options,
    check_purchase,
    city_problem,
    dearest_buildings,
    draw_card,
    finish_redesign,
    finish_turn_action,
    give_cards,
    kind_points,
    module_deal,
    module_draw,
    module_random,
    module_redesigns,
    money_of,
    money_sources_of,
    occupied_places,
    offers_of,
    pay_for_offer,
    pay_for_purchase,
    payment_value,
    perform_redesign,
    place_waiting,
    placement_veto,
    plain_flow,
    purchase_options,
    put_on_market,
    redesign_options,
    redesign_seat,
    refill_display,
    refill_market,
    set_walls,
    spend_cards,
    take_limit,
    unbuilt_tiles,
    wall_points,
)
from .setup import new_game

__all__ = [
    "PASSIVE_HOOKS",
    "PAYMENTS",
    "REDESIGN_KINDS",
    "action_kinds",
    "add_points",
    "apply",
    "apply_unchecked",
    "build_components",
    "build_spots",
    "build_tile",
    "building_counts",
    "buy_covered",
    "can_buy",
    "check_options",
    "check_purchase",
    "city_problem",
    "clear_caches",
    "dearest_buildings",
    "draw_card",
    "finish_redesign",
    "finish_turn_action",
    "give_cards",
    "kind_forms",
    "kind_points",
    "legal_actions",
    "module_deal",
    "module_draw",
    "module_random",
    "module_redesigns",
    "money_of",
    "money_sources_of",
    "new_game",
    "occupied_places",
    "offers_of",
    "pay_for_offer",
    "pay_for_purchase",
    "payment_value",
    "perform_redesign",
    "place_waiting",
    "placement_veto",
    "plain_flow",
    "purchase_options",
    "put_on_market",
    "redesign_options",
    "redesign_seat",
    "refill_display",
    "refill_market",
    "set_walls",
    "spend_cards",
    "take_limit",
    "unbuilt_tiles",
    "wall_points",
    "winners",
]
