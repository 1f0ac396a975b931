"""The supply: the money deck and its display, the tile bag and the building market, and the
random draws modules make during play (:func:`module_random`, :func:`module_draw`)."""

from __future__ import annotations

import random
from collections.abc import Sequence, Set

from ..chance import ChanceNeeded, ModuleDraw, card_class, tracked_classes
from ..components import DISPLAY_SIZE, MARKET_SIZE
from ..errors import IllegalAction
from ..events import CardsReceived, DeckReshuffled, DisplayRefilled, Event, MarkerSwitched, MarketRefilled, ScoringCardDrawn
from ..hooks import load_module
from ..state import GameState
from .caches import _LAST_TABLES, _tables
from .common import _sink, _users, plain_flow


def _pile_model(state: GameState, pile: list[int], placed: Set[int] = frozenset()) -> tuple[int, tuple[tuple[str, int], ...]]:
    """A pile of the explicit-chance deck: its size and its special cards by class
    (:func:`~alhambra.chance.card_class`; a money card in ``placed``, put there by a module's
    ``deck_piles``, by its code)."""
    cards = state.components.cards
    classes: dict[str, int] = {}
    for c in pile:
        cls = card_class(cards[c].kind, cards[c].code)
        if cls is None and c in placed:
            cls = cards[c].code
        if cls is not None:
            classes[cls] = classes.get(cls, 0) + 1
    return len(pile), tuple(sorted(classes.items()))


def _next_card(state: GameState) -> int:
    """The next card of the deck during setup (the deck holds only money cards then)."""
    c = draw_card(state, [])
    if c is None:  # pragma: no cover - 108 cards always cover setup
        raise AssertionError("the deck ran out during setup")
    return c


def _draw_tile(state: GameState) -> int:
    """Take the next tile from the bag (the bag must not be empty)."""
    if state.decided is None:
        return state.bag.pop()
    cards, tiles = state.decided
    if not tiles:
        raise ChanceNeeded("tile", state)
    code = tiles[0]
    comp = state.components
    for i, t in enumerate(state.bag):
        if comp.tiles[t].code == code:
            del state.bag[i]
            state.decided = (cards, tiles[1:])
            return t
    raise IllegalAction(f"chance outcome {code!r}: that tile is not in the bag")


def _shown(state: GameState, tile: int) -> int:
    """The face a tile drawn from the bag shows: the one the marker shows (two-sided tiles)."""
    other = state.components.tile_twin[tile] if state.market_face else -1
    return other if other >= 0 else tile


def _decided_card(state: GameState) -> int:
    """Explicit-chance mode: take the decided next card out of the (unordered) deck."""
    assert state.decided is not None and state.piles is not None
    cards, tiles = state.decided
    if not cards:
        raise ChanceNeeded("card", state)
    code = cards[0]
    comp = state.components
    idx = next((i for i, c in enumerate(state.deck) if comp.cards[c].code == code), None)
    if idx is None:
        raise IllegalAction(f"chance outcome {code!r}: no such card is left in the deck")
    c = state.deck[idx]
    cls = card_class(comp.cards[c].kind, code)
    if cls is None and code in tracked_classes(state.piles):
        cls = code  # a money card a module placed in chosen piles
    piles = list(state.piles)
    top = next(i for i, (left, _) in enumerate(piles) if left > 0)
    left, classes = piles[top]
    counts = dict(classes)
    if cls is None:
        if left - sum(counts.values()) <= 0:
            raise IllegalAction(f"chance outcome {code!r}: the current pile holds only special cards")
    else:
        if counts.get(cls, 0) <= 0:
            raise IllegalAction(f"chance outcome {code!r}: that card cannot be in the current pile")
        counts[cls] -= 1
    piles[top] = (left - 1, tuple(sorted((k, v) for k, v in counts.items() if v > 0)))
    state.piles = tuple(piles)
    del state.deck[idx]
    state.decided = (cards[1:], tiles)
    return c


def draw_card(state: GameState, events: list[Event] | None) -> int | None:
    """Draw the top card of the money pile (reshuffling the discards when it is empty).

    Scoring cards are set aside and queue a scoring round; the next card is drawn instead.
    Returns None when neither the pile nor the discards hold a card. ``events`` None: record
    no events (the fast path without events, see :func:`apply_unchecked`).
    """
    cards = state.components.cards
    while True:
        if not state.deck:
            if not state.discard:
                return None
            state.reshuffles += 1
            state.deck = state.discard
            state.discard = []
            if state.piles is None:
                random.Random(f"{state.seed}/reshuffle/{state.reshuffles}").shuffle(state.deck)
            else:
                state.deck.sort()
                state.piles = (_pile_model(state, state.deck),)  # module cards (exchange...) come back too
            if events is not None:
                events.append(DeckReshuffled(len(state.deck)))
        c = state.deck.pop() if state.piles is None else _decided_card(state)
        ct = cards[c]
        if ct.module is None and ct.kind != "scoring":
            return c  # a money card (the usual case)
        if ct.kind == "scoring":
            state.removed.append(c)
            state.scoring_queue.append(ct.value)
            if events is not None:
                events.append(ScoringCardDrawn(ct.value))
            continue
        if ct.module is not None and load_module(ct.module).card_drawn(state, c, _sink(events)):
            continue
        return c


def refill_display(state: GameState, events: list[Event] | None) -> None:
    """Fill every empty display slot from the money pile."""
    display = state.display
    if -1 not in display:
        return
    deck = state.deck
    comp = state.components
    last = _LAST_TABLES[0]
    plain = (last if last is not None and last.comp is comp else _tables(comp)).plain_card if state.piles is None else None
    if events is None:
        for i in range(DISPLAY_SIZE):
            if display[i] < 0:
                if deck and plain is not None and plain[deck[-1]]:
                    display[i] = deck.pop()  # a money card from the pile (draw_card's usual case)
                    continue
                c = draw_card(state, None)
                if c is None:
                    break
                display[i] = c
                deck = state.deck  # a reshuffle replaces the pile
        return
    slots: list[int] = []
    codes: list[str] = []
    code_of = comp.card_code
    for i in range(DISPLAY_SIZE):
        if display[i] < 0:
            if deck and plain is not None and plain[deck[-1]]:
                c = display[i] = deck.pop()
            else:
                got = draw_card(state, events)
                if got is None:
                    break
                c = display[i] = got
                deck = state.deck
            slots.append(i + 1)
            codes.append(code_of[c])
    if slots:
        events.append(DisplayRefilled(tuple(slots), tuple(codes)))


def refill_market(state: GameState, events: list[Event] | None) -> bool:
    """Fill empty market squares in ascending order as far as the bag allows.

    Every drawn tile is shown to the modules' ``tile_drawn`` first; a module may take it (the
    square is then filled with the next tile). When a module pushed a pending decision, the refill
    pauses there (the squares still empty stay empty) and the caller must let the flow run: call
    ``refill_market`` again once the stack is clear to go on. Returns False (and records that
    the game must end) when some square stays empty because the bag ran out.
    """
    return _fill_market(state, events, announce=True)


def _fill_market(state: GameState, events: list[Event] | None, announce: bool) -> bool:
    market = state.market
    if -1 not in market:
        return True
    if events is None and (not state.config.modules or plain_flow(state.config)) and state.decided is None and not state.components.twins:
        # the usual refill of the fast path: the next tiles of the bag, square by square
        bag = state.bag
        for i in range(MARKET_SIZE):
            if market[i] < 0:
                if not bag:
                    state.market_exhausted = True
                    return False
                market[i] = bag.pop()
        return True
    squares: list[int] = []
    tiles: list[str] = []
    complete = True
    watchers = _users(state, "tile_drawn") if state.config.modules else ()
    sink = _sink(events) if watchers else None
    depth = len(state.pending)
    announce = announce and events is not None
    for i in range(MARKET_SIZE):
        while state.market[i] < 0:
            if not state.bag:
                complete = False
                break
            t = _draw_tile(state)
            if sink is not None and any(m.tile_drawn(state, t, sink) for m in watchers):
                if len(state.pending) != depth:
                    if squares and announce and events is not None:
                        events.append(MarketRefilled(tuple(squares), tuple(tiles)))
                    return True  # paused for a decision
                continue
            if state.market_face and state.components.tile_twin[t] >= 0:
                t = state.components.tile_twin[t]
            state.market[i] = t
            if announce:
                squares.append(i + 1)
                tiles.append(state.components.tiles[t].code)
    if squares and announce and events is not None:
        events.append(MarketRefilled(tuple(squares), tuple(tiles)))
    if not complete:
        state.market_exhausted = True
    elif state.components.twins:
        # the market has been completely restocked: the black marker moves to its other side
        state.market_face = 1 - state.market_face
        if events is not None:
            events.append(MarkerSwitched("odd" if state.market_face else "even"))
    return complete


def module_random(state: GameState, module_id: str) -> random.Random:
    """A fresh random generator for one random draw of a module during play (a chest from a bag,
    an extra tile turned up...): fixed by the game's seed and the number of such draws so far,
    so replays are exact; the bots' sampler gives each sample its own seed, so what a module
    will draw stays unknown to them. The draw must be from a pool every seat may know the
    contents of (the view shows what was drawn through the module's events and view)."""
    state.draws += 1
    return random.Random(f"{state.seed}/{module_id}/{state.draws}")


def module_draw(state: GameState, module_id: str, pool: Sequence[str], count: int = 1, *, secret_to: int | None = None) -> list[str] | None:
    """``count`` items a module draws at random, one after the other without putting them
    back, from ``pool`` (item codes, one entry per physical item: each entry is equally likely),
    in explicit-chance mode (:mod:`alhambra.chance`): the decided outcomes, in the order drawn.
    When a draw has no decided outcome yet it raises :class:`~alhambra.chance.ChanceNeeded`
    (kind ``module``, with the draw's pool); the caller decides one and retries the action.
    ``secret_to``: only that seat sees what is drawn (the others learn of the draws, not their
    items); :data:`~alhambra.chance.NOBODY` for a draw no seat sees. Every item must be one
    of the module's :meth:`~alhambra.hooks.Module.chance_items`.

    In a seeded game it returns None and draws nothing: the module then draws with
    :func:`module_random` as it always has, so seeded games and their records stay as they were."""
    if state.decided is None:
        return None
    left = list(pool)
    if count > len(left):
        raise ValueError(f"{module_id} draws {count} items from a pool of {len(left)}")
    drawn: list[str] = []
    for _ in range(count):
        queue = state.module_decided
        if not queue:
            raise ChanceNeeded("module", state, ModuleDraw(module_id, tuple(left), secret_to))
        module, _, item = queue[0].partition(":")
        if module != module_id or item not in left:
            raise IllegalAction(f"chance outcome {queue[0]!r}: {module_id} cannot draw that now")
        state.module_decided = queue[1:]
        left.remove(item)
        drawn.append(item)
    return drawn


def module_deal(state: GameState, module_id: str, pool: Sequence[str], counts: Sequence[int]) -> tuple[list[list[str]], list[str]] | None:
    """A module's secret deal (at setup, say) in explicit-chance mode: ``counts[seat]`` items
    drawn from ``pool`` for each seat in turn, each a chance node only that seat sees
    (:func:`module_draw` with ``secret_to``); returns the hands (in the order drawn) and what is
    left of the pool. None in a seeded game: the module deals with its own random generator."""
    left = list(pool)
    hands: list[list[str]] = []
    for seat, k in enumerate(counts):
        got = module_draw(state, module_id, left, k, secret_to=seat) if k else []
        if got is None:
            return None
        for item in got:
            left.remove(item)
        hands.append(got)
    return hands, left


def put_on_market(state: GameState, tile: int, events: list[Event] | None) -> int:
    """Put a tile a module held back (``tile_drawn``) on the lowest empty market square, as the
    refill would have; returns the square (1-4). Raises ``ValueError`` when no square is empty."""
    for i in range(MARKET_SIZE):
        if state.market[i] < 0:
            state.market[i] = tile
            if events is not None:
                events.append(MarketRefilled((i + 1,), (state.components.tiles[tile].code,)))
            return i + 1
    raise ValueError("no market square is empty")


def give_cards(state: GameState, seat: int, cards: Sequence[int], events: list[Event], module: str, *, secret: bool = False) -> None:
    """Put ``cards`` (ids, taken by the caller from wherever they were) into ``seat``'s hand and
    say so with a :class:`~alhambra.events.CardsReceived` event, which the bots' tracker and the
    research observation's public hands read: with ``secret`` only ``seat`` sees which cards
    (the others see how many; the bots' sampler then draws them per sample from the unseen
    cards). Every module that gives a seat cards other than by a core ``take`` calls this, so no
    seat's hand is ever miscounted by the bots."""
    if not cards:
        return
    state.players[seat].hand.extend(cards)
    code = state.components.card_code
    events.append(CardsReceived(seat, tuple(code[c] for c in cards), len(cards), module, secret))
