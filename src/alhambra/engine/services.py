"""What modules may call: the one list of engine names a module package imports.

A module (``alhambra/modules/<id>/``) imports engine names from here and from nowhere else
(``tests/test_engine_rooms.py`` holds every module to it), so the rooms behind these names can
move and change without touching a module. Each name is documented in docs/hooks.md ("Public
engine helpers for modules"); a helper a new module needs is added here, with its line there.
"""

from __future__ import annotations

from .common import PASSIVE_HOOKS, build_spots, city_problem, occupied_places, payment_value, placement_veto, plain_flow, set_walls
from .generate import purchase_options, take_limit
from .payments import buy_covered, check_purchase, money_sources_of, offers_of, pay_for_offer, pay_for_purchase, spend_cards
from .perform import build_tile, finish_redesign, finish_turn_action, place_waiting, redesign_seat
from .redesign import module_redesigns, redesign_options
from .scoring import add_points, building_counts, dearest_buildings, kind_points, money_of, unbuilt_tiles, wall_points
from .setup import build_components, check_options
from .supply import draw_card, give_cards, module_deal, module_draw, module_random, put_on_market, refill_display, refill_market

__all__ = [
    "PASSIVE_HOOKS",
    "add_points",
    "build_components",
    "build_spots",
    "build_tile",
    "building_counts",
    "buy_covered",
    "check_options",
    "check_purchase",
    "city_problem",
    "dearest_buildings",
    "draw_card",
    "finish_redesign",
    "finish_turn_action",
    "give_cards",
    "kind_points",
    "module_deal",
    "module_draw",
    "module_random",
    "module_redesigns",
    "money_of",
    "money_sources_of",
    "occupied_places",
    "offers_of",
    "pay_for_offer",
    "pay_for_purchase",
    "payment_value",
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
]
