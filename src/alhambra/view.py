"""The one function that makes what a viewer may see: :func:`view`.

A viewer is a seat (0-based) or ``None`` for a spectator. A view shows every public fact and
the viewer's own hand; another seat's hand shows only as a card count. The seed, the order of
the draw pile and the order of the tile bag never appear. Everything that leaves the engine for
a player goes through this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from . import city as geo
from .actions import Action
from .components import CURRENCIES, CURRENCY_NAMES
from .engine import build_components, kind_points, legal_actions, money_of, wall_points
from .events import Event
from .hooks import hook_users, modules_of
from .rulesets import ruleset
from .state import GameConfig, GameState

ALL_PAYMENTS_UP_TO: Final = 14
"""Cards in hand up to which a seat is offered every payment the rules accept; with more, only
the minimal payments (no card that could be left out): the number of payments grows with the
subsets of the hand (22 cards: 36,861 actions and 7.8 MB of JSON, against 14 minimal ones)."""


def table_actions(state: GameState) -> list[Action]:
    """The legal actions offered to the seat to act (the view's ``legal_actions`` and the
    server's structured ``actions``): every legal action, except that with a hand of more than
    :data:`ALL_PAYMENTS_UP_TO` cards the purchases come with their minimal payments only
    (an overpayment with a card that could be left out only gives money away; the engine still
    accepts one sent as notation)."""
    seat = state.to_act
    many = seat is not None and len(state.players[seat].hand) > ALL_PAYMENTS_UP_TO
    return legal_actions(state, payments="minimal") if many else legal_actions(state)


def view(state: GameState, viewer: int | None, *, with_legal_actions: bool = True) -> dict[str, Any]:
    """Everything ``viewer`` may see, as JSON-ready data (legal actions when it is their turn,
    unless ``with_legal_actions`` is False: then the list is always empty, which saves time)."""
    n = state.config.players
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < n):
        raise ValueError(f"viewer must be a seat 0-{n - 1} or None")
    comp = state.components
    tc = state.tile_code
    cc = state.card_code
    walls = state.walls
    top = state.pending[-1] if state.pending else None
    to_act = state.to_act
    seats = []
    source_modules = hook_users(state.config, "money_sources") if state.config.modules else ()
    for s, p in enumerate(state.players):
        seats.append(
            {
                "seat": s,
                "score": state.scores[s],
                "hand": _hand(state, p.hand) if s == viewer else None,
                "hand_count": len(p.hand),
                "alhambra": [{"x": geo.xy(q)[0], "y": geo.xy(q)[1], "tile": tc(t)} for q, t in sorted(p.city.items())],
                "reserve": sorted(tc(t) for t in p.reserve),
                "longest_wall": geo.longest_wall(p.city, walls),
                "money_sources": [
                    {"token": src.token, "currency": comp.currencies[src.currency], "value": src.value, "module": src.module}
                    for m in source_modules
                    for src in m.money_sources(state, s)
                ],
            }
        )
    out: dict[str, Any] = {
        "players": n,
        "modules": list(state.config.modules),
        "turn_limit": state.config.turn_limit,
        "viewer": viewer,
        "turn": state.turn,
        "current": state.current,
        "to_act": to_act,
        "pending": None if top is None else top.to_dict(),
        "pending_stack": [p.to_dict() for p in state.pending],
        "stage": state.stage,
        "flow": state.flow,
        "outcome": state.outcome,
        "market": [
            {"square": i + 1, "currency": CURRENCIES[state.market_currency[i]], "tile": tc(t) if t >= 0 else None}
            for i, t in enumerate(state.market)
        ],
        "display": [cc(c) if c >= 0 else None for c in state.display],
        "deck_count": len(state.deck),
        "discard": sorted(cc(c) for c in state.discard),
        "bag_count": len(state.bag),
        "scoring_cards_drawn": len(state.removed),
        "rounds_scored": state.rounds_scored,
        "score_history": [list(s) for s in state.score_history],
        "seats": seats,
        "neutral": None if state.neutral is None else {"tiles": sorted(tc(t) for t in state.neutral), "score": state.neutral_score},
        # at the end the hands are shown: how much of each currency everybody held (it decided
        # which market tiles were handed out and why one stayed)
        "final_money": None
        if state.outcome is None
        else [{CURRENCIES[c]: money_of(state, s, c) for c in range(len(CURRENCIES))} for s in range(n)],
        "module_views": {m.id: m.view(state, viewer) for m in modules_of(state.config)},
        "legal_actions": [str(a) for a in table_actions(state)] if with_legal_actions and viewer is not None and viewer == to_act else [],
    }
    out["game"] = state.config.game
    out["kinds"] = list(comp.kinds)
    if state.config.modules and hook_users(state.config, "kind_points"):
        # a module replaces the scoring table (``Module.kind_points``): the points per round
        # (index 0-2) and kind for 1st, 2nd ... place; absent in every other game
        out["kind_points"] = [{k: list(kind_points(state, r, k)) for k in comp.kinds} for r in (1, 2, 3)]
    if state.config.modules and hook_users(state.config, "wall_points"):
        # a module changes what walls score (``Module.wall_points``): the points they would
        # score in the next round now, beside the longest wall
        rnd = min(state.rounds_scored + 1, 3)
        for s, seat in enumerate(seats):
            seat["wall_points"] = wall_points(state, s, rnd)
    changed = state.changed_walls()
    if changed:  # tiles whose walls a module changed (segments added, a tile turned): code -> letters
        out["walls"] = changed
    if comp.twins:  # two-sided tiles (Granada): the marker, the turned faces, each market tile's back
        twin = comp.tile_twin
        out["market_face"] = "odd" if state.market_face else "even"
        out["turned"] = sorted(tc(t) for t in state.turned)
        for sq, t in zip(out["market"], state.market, strict=True):
            sq["back"] = tc(twin[t]) if t >= 0 and twin[t] >= 0 else None
    return out


def _hand(state: GameState, hand: list[int]) -> list[str]:
    comp = state.components
    return [state.card_code(c) for c in sorted(hand, key=lambda c: (comp.card_currency[c], comp.card_value[c], state.card_code(c)))]


def view_events(events: Iterable[Event], viewer: int | None) -> list[dict[str, Any]]:
    """The events a viewer may see, as JSON-ready dicts: every core event is public; a module's
    private event is shown as its ``seen_by(viewer)`` says (a redacted copy)."""
    out: list[dict[str, Any]] = []
    for e in events:
        seen = e.seen_by(viewer)
        out.append(dict(seen.to_dict(), text=seen.describe()))
    return out


def catalogue(config: GameConfig) -> dict[str, Any]:
    """Static facts a client needs to draw a game: every tile and card type by code, and the
    module of every token that names money held outside the hand in payments (``money_tokens``)."""
    comp = build_components(config)
    rules = comp.ruleset or ruleset()
    tiles = {}
    for i, t in enumerate(comp.tiles):
        tiles[t.code] = {"kind": t.kind, "price": t.price, "walls": t.wall_letters, "module": t.module}
        if comp.twins and comp.tile_twin[i] >= 0:
            tiles[t.code]["back"] = comp.tile_code[comp.tile_twin[i]]
    cards = {}
    for c in comp.cards:
        cards[c.code] = {
            "kind": c.kind,
            "currency": comp.currencies[c.currency] if c.currency >= 0 else None,
            "value": c.value,
            "module": c.module,
        }
    return {
        "game": rules.id,
        "title": rules.title,
        "kinds": list(comp.kinds),
        "kind_names": [rules.kind_names[k] for k in comp.kinds],
        "wall_name": rules.wall_name,
        "marker": rules.refill == "marker",
        "scoring": rules.scoring,
        "turn_over_cost": rules.turn_over_cost,
        "assumptions": list(rules.assumptions),
        "readings": list(rules.readings),
        "currencies": [{"colour": c, "name": CURRENCY_NAMES[c]} for c in CURRENCIES],
        "extra_currencies": list(comp.currencies[len(CURRENCIES) :]),
        "tiles": tiles,
        "cards": cards,
        "money_tokens": {token: m.id for m in modules_of(config) for token in m.payment_tokens(config)},
    }
