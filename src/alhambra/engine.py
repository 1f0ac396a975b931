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
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence, Set
from typing import Final, TypeVar

from . import city as geo
from .actions import (
    Action,
    BuildFromReserve,
    BuyBuilding,
    BuyItem,
    EndTurn,
    ExchangeTiles,
    MoveToReserve,
    Pass,
    PlaceBuilding,
    TakeMoney,
    TurnOver,
    canonical_cards,
    card_sort_key,
)
from .chance import ChanceNeeded, ModuleDraw, card_class, tracked_classes
from .components import (
    CURRENCIES,
    CURRENCY_LETTERS,
    DECK_PILES,
    DISPLAY_SIZE,
    FOUNTAIN,
    MARKET_SIZE,
    NEUTRAL_AFTER_FIRST_SCORING,
    NEUTRAL_START_TILES,
    SCORING_CARDS,
    STARTING_MONEY,
    TAKE_LIMIT,
    ComponentSet,
    base_money_cards,
)
from .errors import ConfigError, GameOver, IllegalAction, IllegalPlacement, InvalidPayment, NotYourTurn, WrongPhase
from .events import (
    AlhambraRedesigned,
    BuildingBought,
    BuildingPlaced,
    DeckReshuffled,
    DisplayRefilled,
    Event,
    GameEnded,
    GameStarted,
    ItemBought,
    MarkerSwitched,
    MarketRefilled,
    MarketTileAwarded,
    MoneyTaken,
    NeutralTilesReceived,
    Passed,
    RoundScored,
    ScoringCardDrawn,
    TileTurnedOver,
    TurnEnded,
    TurnStarted,
)
from .hooks import _USERS as _HOOK_USERS
from .hooks import Module, MoneySource, Offer, PaymentOption, Purchase, hook_users, load_module, modules_of
from .rulesets import ruleset
from .scoring import majority_awards
from .state import (
    STAGE_BETWEEN,
    STAGE_FINAL,
    STAGE_OVER,
    STAGE_SETUP,
    STAGE_TURN,
    BetweenTurns,
    ChooseAction,
    GameConfig,
    GameState,
    PlaceTiles,
    PlayerState,
)

__all__ = [
    "PAYMENTS",
    "action_kinds",
    "add_points",
    "apply",
    "apply_unchecked",
    "build_components",
    "can_buy",
    "check_options",
    "check_purchase",
    "draw_card",
    "finish_turn_action",
    "kind_forms",
    "kind_points",
    "legal_actions",
    "module_random",
    "new_game",
    "pay_for_offer",
    "pay_for_purchase",
    "payment_value",
    "purchase_options",
    "put_on_market",
    "redesign_options",
    "refill_market",
    "spend_cards",
    "unbuilt_tiles",
]

_COMPONENT_CACHE: dict[GameConfig, ComponentSet] = {}
_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


# ---------------------------------------------------------------------------------- setup
def build_components(config: GameConfig) -> ComponentSet:
    """Every tile and card of a game with this configuration (cached per configuration).

    The building tiles are the ruleset's (``GameConfig.game``); a two-sided tile has both faces
    here, front then back, paired in ``ComponentSet.twins``."""
    key = GameConfig(config.players, config.modules, options=config.options, game=config.game)
    cached = _COMPONENT_CACHE.get(key)
    if cached is not None:
        return cached
    mods = modules_of(config)
    rules = ruleset(config.game)
    _check_games(config)
    tiles = [FOUNTAIN] * config.players
    twins: list[tuple[int, int]] = []
    for i, front in enumerate(rules.tiles):
        tiles.append(front)
        if rules.backs:
            tiles.append(rules.backs[i])
            twins.append((len(tiles) - 2, len(tiles) - 1))
    cards = base_money_cards(config.players) + list(SCORING_CARDS)
    currencies = list(CURRENCIES)
    for m in mods:
        currencies += m.extra_currencies(config)
    for m in mods:
        tiles += m.extra_tiles(config)
        cards += m.extra_cards(config)
    comp = ComponentSet(tuple(tiles), tuple(cards), tuple(range(config.players)), tuple(currencies), rules, tuple(twins))
    _COMPONENT_CACHE[key] = comp
    return comp


def _check_games(config: GameConfig) -> None:
    """Refuse a module that does not declare the configuration's game (``Module.games``)."""
    for m in modules_of(config):
        if config.game not in m.games:
            title = ruleset(config.game).title
            raise ConfigError(f"the module {m.id!r} cannot be played with {title} (it works with: {', '.join(m.games)})")


def new_game(
    config: GameConfig | None = None,
    seed: int = 0,
    *,
    explicit_chance: bool = False,
    decided: tuple[tuple[str, ...], ...] = ((), ()),
) -> tuple[GameState, list[Event]]:
    """Set up a game (rulebook "Getting ready to play") and return it with its start events.

    With ``explicit_chance`` the deck and the bag have no order: every draw, during setup too,
    takes its outcome from ``decided`` (card codes, tile codes and, optionally third, the
    ``MODULE:ITEM`` outcomes of modules' draws) and then from the state's own queue, raising
    :class:`~alhambra.chance.ChanceNeeded` when none is left (see :mod:`alhambra.chance`).
    """
    config = config or GameConfig()
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("the seed must be an int")
    mods = modules_of(config)
    check_options(config)
    _check_games(config)
    for m in mods:
        m.check_config(config)
    comp = build_components(config)
    n = config.players
    rng = random.Random(seed)
    twin = comp.tile_twin
    bag = [i for i, t in enumerate(comp.tiles) if i >= n and (t.module is None or t.in_bag) and not 0 <= twin[i] < i]
    money = [i for i, c in enumerate(comp.cards) if c.module is None and c.is_money]
    state = GameState(
        config=config,
        components=comp,
        seed=seed,
        deck=money,
        display=[-1] * DISPLAY_SIZE,
        discard=[],
        market=[-1] * MARKET_SIZE,
        bag=bag,
        players=[PlayerState([], {geo.ORIGIN: comp.fountains[s]}, []) for s in range(n)],
        scores=[0] * n,
        neutral=[] if n == 2 else None,
    )
    if explicit_chance:
        state.decided = (tuple(decided[0]), tuple(decided[1]))
        state.module_decided = tuple(decided[2]) if len(decided) > 2 else ()
        state.piles = ((len(money), ()),)
    events: list[Event] = []
    if not explicit_chance:
        rng.shuffle(bag)
    for m in mods:
        m.setup(state, rng)
    if mods:
        asked = [p for m in _users(state, "setup_decisions") for p in m.setup_decisions(state)]
        if asked:  # decisions before the market is filled: the rest of the setup waits for them
            state.stage = STAGE_SETUP
            state.pending.extend(reversed(asked))
            _advance(state, events)
            return state, events
    _finish_setup(state, rng, events)
    _advance(state, events)
    _notify(state, events)
    return state, events


def _finish_setup(state: GameState, rng: random.Random, events: list[Event] | None) -> None:
    """The setup from filling the market on (after the modules' setup decisions, if any):
    market, starting money, starting player, display, the draw pile's five piles, the neutral
    player's tiles; ``GameStarted``; then the first turn starts."""
    comp = state.components
    config = state.config
    mods = modules_of(config)
    n = config.players
    explicit_chance = state.decided is not None
    money = state.deck
    bag = state.bag
    events = _sink(events)
    setup_events: list[Event] = []
    _fill_market(state, setup_events, announce=False)
    if not explicit_chance:
        rng.shuffle(money)
    dealt: list[list[int]] = []
    for p in state.players:
        total = 0
        got: list[int] = []
        while total < STARTING_MONEY:
            c = _next_card(state)
            got.append(c)
            total += comp.card_value[c]
        p.hand.extend(got)
        dealt.append(got)
    start = min(range(n), key=lambda s: (len(dealt[s]), payment_value(comp, dealt[s]), s))
    state.current = start
    for i in range(DISPLAY_SIZE):
        state.display[i] = _next_card(state)

    # five roughly equal piles, pile 0 on top; scoring cards into piles 2 and 4
    size, extra = divmod(len(money), DECK_PILES)
    piles: list[list[int]] = []
    for i in range(DECK_PILES):
        k = size + (1 if i < extra else 0)
        piles.append([money.pop() for _ in range(k)])
    scoring_ids = [i for i, c in enumerate(comp.cards) if c.kind == "scoring"]
    for card, pile in zip(scoring_ids, (1, 3), strict=True):
        piles[pile].insert(rng.randrange(len(piles[pile]) + 1), card)
    shuffled = {c for pile in piles for c in pile}
    for m in mods:
        m.deck_piles(state, piles, rng)
    deck: list[int] = []
    for one_pile in reversed(piles):
        deck.extend(one_pile)
    state.deck = deck
    if explicit_chance:
        # money cards a module put into chosen piles (master builders: piles 3 and 5) are
        # tracked by pile like the special cards; money shuffled in (diamonds) is not
        placed = {c for pile in piles for c in pile} - shuffled
        state.piles = tuple(_pile_model(state, pile, placed) for pile in piles)
    if state.neutral is not None:
        for _ in range(min(NEUTRAL_START_TILES, len(bag))):
            state.neutral.append(_shown(state, _draw_tile(state)))
    events.append(
        GameStarted(
            players=n,
            starting_player=start,
            starting_money=tuple(tuple(comp.cards[c].code for c in got) for got in dealt),
            market=tuple(comp.tiles[t].code for t in state.market),
            display=tuple(comp.cards[c].code for c in state.display),
            neutral_tiles=tuple(comp.tiles[t].code for t in state.neutral or ()),
            modules=config.modules,
        )
    )
    events += setup_events
    for m in _users(state, "game_set_up"):
        m.game_set_up(state, events)
    _start_turn(state, start, events)


def check_options(config: GameConfig) -> None:
    """Raise :class:`ConfigError` unless every option of ``config`` is declared by its module
    (``Module.options``) with a value of the declared type (and one of its choices)."""
    for mid, key, value in config.options:
        spec = next((o for o in load_module(mid).options if o.key == key), None)
        if spec is None:
            known = ", ".join(o.key for o in load_module(mid).options) or "none"
            raise ConfigError(f"the module {mid!r} has no option {key!r} (its options: {known})")
        if type(value) is not type(spec.default):
            raise ConfigError(f"option {mid}.{key} takes a {type(spec.default).__name__}, not {value!r}")
        if spec.choices and value not in spec.choices:
            raise ConfigError(f"option {mid}.{key} is one of {', '.join(spec.choices)}, not {value!r}")


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


# ---------------------------------------------------------------------------------- helpers
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


# ---------------------------------------------------------------------------------- payments
def _money_payments(
    comp: ComponentSet,
    hand: Sequence[int],
    currencies: frozenset[int],
    price: int,
    special: tuple[str, ...],
    exact: bool = False,
    sources: Sequence[MoneySource] = (),
    minimal: bool = False,
) -> list[tuple[str, ...]]:
    """:func:`_enumerate_payments` (a new list), memoised by its arguments, with the hand
    reduced to the signature of its money of ``currencies`` (which codes, how many of each)."""
    last = _LAST_TABLES[0]
    tables = last if last is not None and last.comp is comp else _tables(comp)
    coin = tables.coin
    cut = tables.cuts.get(currencies)
    if cut is None:
        cut = 0
        for cur in currencies:
            cut |= tables.purse_digits.get(cur, 0)
        tables.cuts[currencies] = cut
    purse = 0
    for c in hand:
        purse += coin[c]
    key = (purse & cut, currencies, price, special, exact, minimal, tuple(sources) if sources else ())
    got = tables.payments.get(key)
    if got is None:
        got = _enumerate_payments(comp, hand, currencies, price, special, exact, sources, minimal)
        _memo_put(tables.payments, key, got)
    return got[:]


def _enumerate_payments(
    comp: ComponentSet,
    hand: Sequence[int],
    currencies: frozenset[int],
    price: int,
    special: tuple[str, ...],
    exact: bool = False,
    sources: Sequence[MoneySource] = (),
    minimal: bool = False,
) -> list[tuple[str, ...]]:
    """Every multiset of money cards of ``currencies`` from the hand (and money ``sources`` of
    those currencies held outside it) worth at least ``price`` (exactly ``price`` with ``exact``;
    with ``minimal`` only those from which no money could be left out, see :data:`PAYMENTS`).
    The order is fixed (higher values first, more copies first), and the exact or minimal
    payments come in the order they have among all payments: the search prunes, it does not
    filter afterwards."""
    cc = comp.card_currency
    cm = comp.card_is_money
    cards = comp.cards
    counts: dict[str, int] = {}
    value_of: dict[str, int] = {}
    for c in hand:
        if cm[c] and cc[c] in currencies:
            code = cards[c].code
            counts[code] = counts.get(code, 0) + 1
            value_of[code] = cards[c].value
    plain = all(card_sort_key(code)[0] == 1 for code in counts)  # False: a module's money card (mb3) is in the mix
    for src in sources:
        if src.currency in currencies and src.value > 0:
            counts[src.token] = counts.get(src.token, 0) + 1
            value_of[src.token] = src.value
            plain = False
    if not counts:
        return []
    items = sorted(counts.items(), key=lambda kv: (-value_of[kv[0]], kv[0]))
    values = [value_of[code] for code, _ in items]
    total_left = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        total_left[i] = total_left[i + 1] + values[i] * items[i][1]
    if total_left[0] < price:
        return []
    out: list[tuple[str, ...]] = []
    chosen: list[str] = []

    end = len(items)

    def rec(i: int, s: int, low: int) -> None:
        # low: the smallest value chosen so far (items come by falling value: the last one)
        if s + total_left[i] < price or (exact and s > price):
            return
        if minimal and s >= price:
            # the price is paid: any further money could be left out again
            if s - low >= price:
                return
            i = end
        if i == end:
            if chosen and (not exact or s == price):
                out.append(canonical_cards(list(special) + chosen) if special or len(currencies) > 1 or not plain else tuple(chosen))
            return
        code, n = items[i]
        v = values[i]
        for k in range(n, -1, -1):
            chosen.extend([code] * k)
            rec(i + 1, s + v * k, v if k else low)
            if k:
                del chosen[-k:]

    rec(0, 0, 0)
    return out


PASSIVE_HOOKS: Final = frozenset(
    {
        "check_config",
        "extra_tiles",
        "deck_piles",
        "setup",
        "game_set_up",
        "final_starting",
        "building_counts",
        "round_points",
        "round_scored",
        "kind_points",
        "bot_values",
        "held_cards",
        "held_tiles",
        "held_money",
        "view",
        "observation_flags",
        "max_actions_between_turns",
        "chance_items",
        "notation_items",
        "slice_from_view",
        "sample_slice",
        "slice_to_json",
        "slice_from_json",
    }
)
"""Hooks that leave the turn flow alone: the core calls them at setup, in scoring, at the end
and for views, bots and persistence, never while a turn is played. A game whose modules override
only these (new score cards, medina) plays its turns on the flow of a game without modules
(:func:`plain_flow`): no module pendings, no window between turns, no reactions to actions."""

_PLAIN: dict[tuple[str, ...], bool] = {(): True}


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


def _payment_options(state: GameState, seat: int, currency: int) -> list[PaymentOption]:
    opts: list[PaymentOption] = []
    for m in _users(state, "payment_options"):
        opts.extend(m.payment_options(state, seat, currency))
    return opts


def _sources(state: GameState, seat: int) -> list[MoneySource]:
    """The money ``seat`` holds outside the hand (``Module.money_sources``)."""
    out: list[MoneySource] = []
    for m in _users(state, "money_sources"):
        out.extend(m.money_sources(state, seat))
    return out


def _offers(state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
    out: list[Offer] = []
    for m in _users(state, "offers"):
        out.extend(m.offers(state, seat, out_of_turn))
    return out


def _way_payments(
    state: GameState, seat: int, way: frozenset[int], price: int, exact: bool = False, minimal: bool = False, building: bool = True
) -> list[tuple[str, ...]]:
    """Every payment of one way: money of its currencies worth at least ``price`` (exactly with
    ``exact``; with ``minimal`` none that could leave a card out), and for a one-currency way also
    every module payment option (exchange cards...). Unless ``building``, no money source that
    pays only for building tiles (``MoneySource.buildings_only``)."""
    comp = state.components
    hand = state.players[seat].hand
    srcs = _sources(state, seat)
    if not building:
        srcs = [src for src in srcs if not src.buildings_only]
    pays = _money_payments(comp, hand, way, price, (), exact, srcs, minimal)
    if len(way) == 1:
        (cur,) = way
        for opt in _payment_options(state, seat, cur):
            special = tuple(comp.cards[c].code for c in opt.special)
            pays += _money_payments(comp, hand, opt.currencies, price, special, exact, srcs, minimal)
    return pays


def _offer_actions(state: GameState, seat: int, out_of_turn: bool, exact: bool = False, minimal: bool = False) -> list[Action]:
    """``buy ITEM ...`` for every offer (only exact payments with ``exact``, only payments with
    no money to spare with ``minimal``)."""
    out: list[Action] = []
    for offer in _offers(state, seat, out_of_turn):
        if out_of_turn and not offer.out_of_turn:
            continue
        seen: set[tuple[str, ...]] = set()
        only_exact = exact or offer.exact_only
        for way in offer.ways:
            for pay in _way_payments(state, seat, way, offer.price, only_exact, minimal or offer.minimal, offer.buys_building):
                if pay not in seen:
                    seen.add(pay)
                    out.append(BuyItem(offer.item, pay))
    return out


PAYMENTS = ("all", "exact", "minimal")
"""Which payments buy actions are generated with (:func:`legal_actions`' ``payments``):
``all`` every payment the rules accept (overpayments included), ``exact`` only those worth
exactly the price, ``minimal`` only those from which no money card (or money source) could be
left out with the price still paid: the exact ones and the overpayments that cannot be avoided
with these cards. Each is in the order the payments have in ``all``."""


def _buy_actions(state: GameState, seat: int, payments: str = "all", square: int | None = None, offers: bool = True) -> list[Action]:
    """``buy`` actions of ``seat`` with ``payments`` (see :data:`PAYMENTS`): the market squares
    in order (only ``square`` when given), then the module offers (unless ``square`` is given
    or ``offers`` is False)."""
    comp = state.components
    hand = state.players[seat].hand
    market = state.market
    exact = payments == "exact"
    minimal = payments == "minimal"
    out: list[Action] = []
    squares = range(MARKET_SIZE) if square is None else (square - 1,) if 1 <= square <= MARKET_SIZE else ()
    if state.config.modules and (_users(state, "payment_options") or _users(state, "money_sources")):
        for sq in squares:
            t = market[sq]
            if t >= 0:
                seen: set[tuple[str, ...]] = set()
                for pay in _way_payments(state, seat, frozenset((state.market_currency[sq],)), comp.tile_price[t], exact, minimal):
                    if pay not in seen:
                        seen.add(pay)
                        out.append(BuyBuilding(sq + 1, pay))
    else:
        # Payments depend only on the price and on the money of the square's currency in the
        # hand: memoised by price and the purse's signature (which codes, how many of each).
        last = _LAST_TABLES[0]
        tables = last if last is not None and last.comp is comp else _tables(comp)
        coin = tables.coin
        purse = 0
        for c in hand:
            purse += coin[c]
        memo = tables.buys
        mode = 0 if payments == "all" else PAYMENTS.index(payments)
        currency = state.market_currency
        masks = tables.masks.get(currency)
        if masks is None:
            masks = tables.masks[currency] = tuple(tables.purse_digits.get(cur, 0) for cur in currency)
        price_of = comp.tile_price
        for sq in squares:
            t = market[sq]
            if t < 0:
                continue
            sig = purse & masks[sq]
            if not sig:
                continue
            by_sig = memo.get(sig)
            got = None if by_sig is None else by_sig.get(price_of[t] << 4 | sq << 2 | mode)
            if got is None:
                got = _buy_list(tables, hand, sq, currency[sq], price_of[t], sig, mode)
            out += got
    if offers and square is None and state.config.modules and _users(state, "offers"):
        out += _offer_actions(state, seat, False, exact, minimal)
    return out


def _buy_list(tables: _Tables, hand: Sequence[int], sq: int, cur: int, price: int, sig: int, mode: int) -> list[Action]:
    """The buy actions of market square index ``sq`` (memoised in ``tables.buys``): every
    payment of ``price`` in currency ``cur`` from the hand (purse signature ``sig``) that
    payments mode ``mode`` (an index into :data:`PAYMENTS`) lists."""
    by_sig = tables.buys.get(sig)
    if by_sig is None:
        by_sig = {}
        _memo_put(tables.buys, sig, by_sig)
    subsets = tables.subsets.get(sig)
    if subsets is None:
        subsets = _subsets(tables.comp, hand, cur)
        _memo_put(tables.subsets, sig, subsets)
    if mode == 1:  # exact
        pays = [pay for total, _, pay in subsets if total == price]
    elif mode == 2:  # minimal
        pays = [pay for total, low, pay in subsets if total >= price and total - low < price]
    else:
        pays = [pay for total, _, pay in subsets if total >= price]
    got = by_sig[price << 4 | sq << 2 | mode] = [tables.buy_action(sq + 1, pay) for pay in pays]
    return got


def _subsets(comp: ComponentSet, hand: Sequence[int], cur: int) -> list[tuple[int, int, tuple[str, ...]]]:
    """Every non-empty multiset of the money cards of currency ``cur`` in the hand, as (value,
    lowest card value, card codes), in the order of :func:`_money_payments` (whose pruned search
    yields the same payments for a price in the same order: filtering these by the price does
    not change it, and they do not depend on the price)."""
    counts: dict[str, int] = {}
    value_of: dict[str, int] = {}
    cc = comp.card_currency
    cm = comp.card_is_money
    code_of = comp.card_code
    value = comp.card_value
    for c in hand:
        if cm[c] and cc[c] == cur:
            code = code_of[c]
            counts[code] = counts.get(code, 0) + 1
            value_of[code] = value[c]
    plain = all(card_sort_key(code)[0] == 1 for code in counts)  # False: a module's money card (mb3) is in the mix
    partial: list[tuple[int, int, tuple[str, ...]]] = [(0, 0, ())]
    for code, n in sorted(counts.items(), key=lambda kv: (-value_of[kv[0]], kv[0])):
        v = value_of[code]
        if n == 1:
            partial = [x for total, low, codes in partial for x in ((total + v, v, (*codes, code)), (total, low, codes))]
            continue
        grown: list[tuple[int, int, tuple[str, ...]]] = []
        for total, low, codes in partial:
            for k in range(n, 0, -1):
                grown.append((total + v * k, v, codes + (code,) * k))
            grown.append((total, low, codes))
        partial = grown
    partial.pop()  # the empty one comes last
    if not plain:
        partial = [(total, low, canonical_cards(codes)) for total, low, codes in partial]
    return partial


def can_buy(state: GameState, square: int, seat: int | None = None) -> bool:
    """Can ``seat`` (default: the seat to act) pay for the tile on market square ``square``
    (1-4) now? Without module payment options or money sources this is one sum over the hand,
    not a list of payments."""
    if seat is None:
        seat = state.to_act
        if seat is None:
            return False
    if not 1 <= square <= MARKET_SIZE or state.market[square - 1] < 0:
        return False
    if state.config.modules and (_users(state, "payment_options") or _users(state, "money_sources")):
        return bool(_buy_actions(state, seat, "minimal", square))
    comp = state.components
    cur = state.market_currency[square - 1]
    currency = comp.card_currency
    is_money = comp.card_is_money
    value = comp.card_value
    purse = 0
    for c in state.players[seat].hand:
        if is_money[c] and currency[c] == cur:
            purse += value[c]
    return purse >= comp.tile_price[state.market[square - 1]]


def _check_payment(state: GameState, seat: int, square: int, payment: tuple[str, ...]) -> tuple[list[int], bool]:
    """Validate a payment; return the hand indices used and whether it is exact."""
    comp = state.components
    if not 1 <= square <= MARKET_SIZE:
        raise IllegalAction(f"there is no market square {square} (squares are 1-{MARKET_SIZE})")
    tile = state.market[square - 1]
    if tile < 0:
        raise IllegalAction(f"market square {square} is empty")
    cur = state.market_currency[square - 1]
    return _check_money(state, seat, payment, (frozenset((cur,)),), comp.tile_price[tile], comp.tiles[tile].code, f"square {square}")


def _plain_payment(state: GameState, seat: int, square: int, payment: tuple[str, ...]) -> bool:
    """True when ``payment`` surely pays for the tile on ``square``: money cards of the
    square's currency in ``seat``'s hand, worth at least the price (what :func:`_check_payment`
    accepts first, found more cheaply). False says nothing: the full check decides then."""
    if type(square) is not int or not 1 <= square <= MARKET_SIZE or not payment:
        return False
    tile = state.market[square - 1]
    if tile < 0:
        return False
    comp = state.components
    hand = state.players[seat].hand
    idx = _match_cards(comp, hand, payment)
    if idx is None:
        return False
    cur = state.market_currency[square - 1]
    is_money = comp.card_is_money
    currency = comp.card_currency
    value = comp.card_value
    total = 0
    for i in idx:
        c = hand[i]
        if not is_money[c] or currency[c] != cur:
            return False
        total += value[c]
    return total >= comp.tile_price[tile]


def _check_money(
    state: GameState, seat: int, payment: tuple[str, ...], ways: tuple[frozenset[int], ...], price: int, what: str, where: str
) -> tuple[list[int], bool]:
    """Validate paying ``price`` for ``what`` with ``payment`` by one of ``ways``; return the hand
    indices used and whether the money is exactly the price."""
    comp = state.components
    if not payment:
        raise InvalidPayment("a purchase needs at least one card")
    hand = state.players[seat].hand
    idx, srcs = _match_payment(state, seat, payment)
    ids = [hand[i] for i in idx]
    special = tuple(sorted(c for c in ids if not comp.card_is_money[c]))
    money = [comp.card_currency[c] for c in ids if comp.card_is_money[c]] + [src.currency for src in srcs]
    total = payment_value(comp, [c for c in ids if comp.card_is_money[c]]) + sum(src.value for src in srcs)
    if not special:
        if not any(all(cur in way for cur in money) for way in ways) and not any(
            len(way) == 1 and opt.currencies.issuperset(money)
            for way in ways
            for opt in _payment_options(state, seat, next(iter(way)))
            if not opt.special
        ):
            if len(ways) == 1 and len(ways[0]) == 1:
                (cur,) = ways[0]
                wrong = [code for code in payment if _currency_of(state, seat, code) != cur]
                raise InvalidPayment(f"{where} takes {CURRENCIES[cur]} ({CURRENCY_LETTERS[cur]}) money, not {'+'.join(wrong)}")
            raise InvalidPayment(f"{what} cannot be paid with this mix of currencies: {'+'.join(payment)}")
    else:
        codes = sorted(comp.cards[c].code for c in special)
        ok = False
        for way in ways:
            if len(way) != 1:
                continue
            (cur,) = way
            for opt in _payment_options(state, seat, cur):
                if sorted(comp.cards[c].code for c in opt.special) == codes and opt.currencies.issuperset(money):
                    ok = True
                    break
        if not ok:
            raise InvalidPayment(f"{'+'.join(codes)} cannot be used to pay for {where} with these cards")
        if not money:
            raise InvalidPayment("a purchase needs money cards")
    if total < price:
        raise InvalidPayment(f"{what} costs {price}; {'+'.join(payment)} is only {total}")
    return idx, total == price


def _currency_of(state: GameState, seat: int, code: str) -> int:
    """The currency of a card code or money-source token in a payment (-1 if unknown)."""
    ids = state.components.card_ids_by_code().get(code)
    if ids:
        return state.components.card_currency[ids[0]]
    return next((src.currency for src in _sources(state, seat) if src.token == code), -1)


def _match_payment(state: GameState, seat: int, payment: tuple[str, ...]) -> tuple[list[int], list[MoneySource]]:
    """The hand indices and the money sources a payment names; :class:`InvalidPayment` if
    ``seat`` does not hold all of it."""
    comp = state.components
    hand = state.players[seat].hand
    idx = _match_cards(comp, hand, payment)
    if idx is not None:
        return idx, []
    srcs = _sources(state, seat)
    if srcs:
        tokens = {src.token for src in srcs}
        idx = _match_cards(comp, hand, [c for c in payment if c not in tokens])
        if idx is not None:
            left = list(srcs)
            used: list[MoneySource] = []
            for code in payment:
                if code in tokens:
                    src = next((x for x in left if x.token == code), None)
                    if src is None:
                        break
                    left.remove(src)
                    used.append(src)
            else:
                return idx, used
    raise InvalidPayment(f"you do not hold all of {'+'.join(payment)}")


def _paid_value(state: GameState, seat: int, payment: tuple[str, ...]) -> int:
    """The money value of a payment: its money cards and money sources."""
    mv = state.components.money_value
    total = 0
    try:
        for c in payment:
            total += mv[c]
        return total
    except KeyError:
        idx, srcs = _match_payment(state, seat, payment)
        hand = state.players[seat].hand
        return sum(mv[state.components.card_code[hand[i]]] for i in idx) + sum(src.value for src in srcs)


def _find_offer(state: GameState, seat: int, item: str, out_of_turn: bool) -> Offer:
    for offer in _offers(state, seat, out_of_turn):
        if offer.item == item and (offer.out_of_turn or not out_of_turn):
            return offer
    raise IllegalAction(f"{item!r} cannot be bought now" + (" out of turn" if out_of_turn else ""))


def _check_offer(state: GameState, seat: int, item: str, payment: tuple[str, ...], out_of_turn: bool) -> tuple[Offer, bool]:
    offer = _find_offer(state, seat, item, out_of_turn)
    _, exact = _check_money(state, seat, payment, offer.ways, offer.price, offer.label or offer.item, offer.label or offer.item)
    if not offer.buys_building:
        for src in _match_payment(state, seat, payment)[1]:
            if src.buildings_only:
                raise InvalidPayment(f"{src.token} pays only for building tiles, not for {offer.label or offer.item}")
    if offer.exact_only and not exact:
        raise InvalidPayment(f"{offer.label or offer.item} can only be bought with exact money ({offer.price})")
    if offer.minimal and not exact:
        idx, srcs = _match_payment(state, seat, payment)
        comp = state.components
        hand = state.players[seat].hand
        values = [comp.card_value[hand[i]] for i in idx if comp.card_is_money[hand[i]]] + [src.value for src in srcs]
        total = sum(values)
        if values and total - min(values) >= offer.price:
            raise InvalidPayment(
                f"{offer.label or offer.item} costs {offer.price} and gives nothing back: {'+'.join(payment)} ({total}) "
                f"pays with a card that is not needed (leave out one worth {min(values)})"
            )
    return offer, exact and not offer.never_exact


def _spend(state: GameState, seat: int, payment: tuple[str, ...]) -> list[int]:
    """Take the paid cards out of ``seat``'s hand: onto the discard pile, or to their module when
    it disposes of them (``Module.card_spent``); money sources go back to their module
    (``Module.source_spent``). Returns the card ids."""
    comp = state.components
    hand = state.players[seat].hand
    idx, srcs = _match_payment(state, seat, payment)
    if len(idx) == 1:
        paid = [hand.pop(idx[0])]
    else:
        paid = [hand[i] for i in idx]
        for i in sorted(idx, reverse=True):
            del hand[i]
    cards = comp.cards
    discard = state.discard
    for c in paid:
        owner = cards[c].module
        if owner is None or not load_module(owner).card_spent(state, c):
            discard.append(c)
    for src in srcs:
        load_module(src.module).source_spent(state, seat, src)
    return paid


def spend_cards(state: GameState, seat: int, payment: Sequence[str]) -> list[int]:
    """Pay with these card codes from ``seat``'s hand outside a purchase of a building or an
    offer (a falcon costs "one money card"): each card goes onto the discard pile, or to its
    module when that module disposes of it (``Module.card_spent``). Returns the card ids.
    Check first that the hand holds them (``ValueError`` otherwise)."""
    hand = state.players[seat].hand
    code_of = state.components.card_code
    left = list(hand)
    for code in payment:
        c = next((c for c in left if code_of[c] == code), None)
        if c is None:
            raise ValueError(f"{code} is not in the hand of seat {seat}")
        left.remove(c)
    return _spend(state, seat, tuple(payment))


def _purchase_made(state: GameState, purchase: Purchase, events: list[Event] | None) -> None:
    for m in _users(state, "purchase_made"):
        m.purchase_made(state, purchase, _sink(events))


# ---------------------------------------------------------------------------------- helpers for modules
def purchase_options(state: GameState, seat: int, out_of_turn: bool = False, exact: bool = False) -> list[BuyBuilding | BuyItem]:
    """Every purchase ``seat`` can pay for now, as ``buy`` actions in the core's order: each
    market square with each payment in the square's currency or by any module's
    :class:`~alhambra.hooks.PaymentOption` (overpayments included unless ``exact``). With
    ``out_of_turn``, also the module offers that may be bought out of turn (``Offer.out_of_turn``).

    For modules that let a player buy outside the turn action; check such a purchase with
    :func:`check_purchase` and carry it out with :func:`pay_for_purchase` (:func:`pay_for_offer`
    for a ``BuyItem``).
    """
    out: list[BuyBuilding | BuyItem] = []
    for a in _buy_actions(state, seat, "exact" if exact else "all", offers=False):
        if isinstance(a, BuyBuilding):
            out.append(a)
    if out_of_turn:
        out += [a for a in _offer_actions(state, seat, True, exact) if isinstance(a, BuyItem)]
    return out


def check_purchase(state: GameState, seat: int, square: int | str, payment: tuple[str, ...], out_of_turn: bool = True) -> bool:
    """Check ``seat`` paying ``payment`` for the tile on ``square`` (1-4), or for a module offer's
    item (a str; with ``out_of_turn`` only offers that allow it), exactly as ``buy`` is checked
    (raises :class:`~alhambra.errors.InvalidPayment` or another
    :class:`~alhambra.errors.IllegalAction`); return True when the money is exactly the price."""
    if isinstance(square, str):
        return _check_offer(state, seat, square, payment, out_of_turn)[1]
    return _check_payment(state, seat, square, payment)[1]


def pay_for_purchase(
    state: GameState, seat: int, square: int, payment: tuple[str, ...], events: list[Event] | None = None, out_of_turn: bool = True
) -> int:
    """Carry out a checked purchase: the paid cards go from ``seat``'s hand to the discard pile
    (or to their module, ``Module.card_spent``) and the tile leaves ``square`` (1-4), which stays
    empty until :func:`refill_market`; then every ``Module.purchase_made`` hears of it (with
    ``events``; push your own pending first if theirs must come before it). Returns the tile id."""
    hooked = bool(state.config.modules) and bool(_users(state, "purchase_made"))
    paid = _paid_value(state, seat, payment) if hooked else 0
    t = _pay_square(state, seat, square, payment)
    if hooked:
        price = state.components.tile_price[t]
        _purchase_made(
            state, Purchase(seat, square, None, t, price, paid, payment, paid == price, out_of_turn), [] if events is None else events
        )
    return t


def _pay_square(state: GameState, seat: int, square: int, payment: tuple[str, ...]) -> int:
    _spend(state, seat, payment)
    t = state.market[square - 1]
    state.market[square - 1] = -1
    return t


def pay_for_offer(
    state: GameState, seat: int, item: str, payment: tuple[str, ...], events: list[Event] | None, out_of_turn: bool = True
) -> Offer:
    """Carry out a checked purchase of a module offer: pay, let the module deliver it
    (``Module.offer_bought``) and record ``ItemBought``. Returns the offer (its ``tile``, if any,
    is for the caller to have placed). Every ``Module.purchase_made`` then hears of it."""
    return _pay_offer(state, seat, item, payment, events, out_of_turn)[0]


def _pay_offer(
    state: GameState,
    seat: int,
    item: str,
    payment: tuple[str, ...],
    events: list[Event] | None,
    out_of_turn: bool,
    announce: bool = True,
) -> tuple[Offer, Purchase]:
    offer = _find_offer(state, seat, item, out_of_turn)
    paid = _paid_value(state, seat, payment)
    _spend(state, seat, payment)
    exact = paid == offer.price and not offer.never_exact
    if events is not None:
        events.append(ItemBought(seat, offer.item, offer.label, payment, exact, offer.never_exact))
    load_module(offer.module).offer_bought(state, seat, offer, _sink(events))
    purchase = Purchase(seat, 0, offer, offer.tile, offer.price, paid, payment, exact, out_of_turn)
    if announce:
        _purchase_made(state, purchase, events)
    return offer, purchase


def finish_turn_action(state: GameState, again: bool = False) -> None:
    """Close a module's turn action (one offered by ``Module.turn_actions``) the way the core
    closes its own: with ``again`` the player may take one more action (as after an exact
    payment); otherwise the action phase ends and the tiles bought this turn wait to be placed.
    Call it from ``Module.perform`` while the ``ChooseAction`` is still on top."""
    top = state.pending[-1] if state.pending else None
    if not isinstance(top, ChooseAction):
        raise WrongPhase(_waiting_for(state))
    _finish_action(state, top, again, None)


# ---------------------------------------------------------------------------------- legal actions
def legal_actions(state: GameState, kind: str | None = None, *, payments: str = "all") -> list[Action]:
    """Every action the game accepts now, in a stable order (empty once the game is over).

    With ``kind`` (one of :func:`action_kinds`), only the actions of that kind: ``take``,
    ``buy``, ``redesign-build``, ``redesign-remove``, ``redesign-exchange`` (or ``redesign``
    for all three), ``end``, ``place``, or a module id for a module's actions.

    ``payments`` (see :data:`PAYMENTS`) narrows the turn's ``buy`` actions without listing the
    others first: ``exact`` only exact payments, ``minimal`` no payment from which money could
    be left out (what a search needs: every other payment only gives away more money). The
    rest of the list is the same, in the same order.
    """
    if state.outcome is not None or not state.pending:
        return []
    top = state.pending[-1]
    if isinstance(top, ChooseAction):
        if payments != "all" and payments not in PAYMENTS:
            raise ValueError(f"payments is one of {', '.join(PAYMENTS)}, not {payments!r}")
        if kind is None:
            return _turn_actions(state, top, payments)
        if kind == "take":
            return _take_actions(state)
        if kind == "buy":
            return _buy_actions(state, top.seat, payments)
        if kind == "redesign":
            return list(_redesign_actions(state, top.seat))
        if kind in REDESIGN_KINDS:
            return list(_redesign_actions(state, top.seat, kind[9:]))
        if kind == "end":
            return [EndTurn()] if _stuck(state, top) else []
        if kind in state.config.modules:
            return load_module(kind).turn_actions(state, top.seat)
        return []
    if isinstance(top, PlaceTiles):
        if kind in (None, "place"):
            out = _place_actions(state, top)
            if kind is None and state.components.twins:
                out += _turn_over_actions(state, top, payments)
            return out
        return _turn_over_actions(state, top, payments) if kind == "turn" and state.components.twins else []
    if isinstance(top, BetweenTurns):
        return _window_actions(state, top, kind)
    if top.module is None:  # pragma: no cover - every core pending is handled above
        raise AssertionError(f"unhandled pending {top!r}")
    if kind not in (None, top.module):
        return []
    return load_module(top.module).pending_actions(state, top)


def action_kinds(state: GameState) -> list[str]:
    """The kinds of action that may be legal now (a kind listed here can still turn out empty).

    Cheap: lets a policy pick a kind first and generate only that kind's actions. ``redesign``
    has three forms (see :func:`kind_forms`) that can be generated one by one.
    """
    if state.outcome is not None or not state.pending:
        return []
    top = state.pending[-1]
    if isinstance(top, ChooseAction):
        p = state.players[top.seat]
        redesign = p.reserve or len(p.city) > 1
        shown = max(state.display) >= 0
        kinds = ["take", "buy"] if shown else ["buy"]
        if redesign:
            kinds.append("redesign")
        if state.config.modules:
            kinds += [m.id for m in _users(state, "turn_actions")]
        if not shown:
            kinds.append("end")
        return kinds
    if isinstance(top, PlaceTiles):
        return ["place", "turn"] if state.components.twins else ["place"]
    if isinstance(top, BetweenTurns):
        return [m.id for m in _users(state, "interrupt_actions")] + ["pass"]
    return [top.module] if top.module else []


def kind_forms(state: GameState, kind: str) -> tuple[str, ...]:
    """The forms of a kind that can be generated separately: for ``redesign`` the three
    ``redesign-*`` kinds (only ``redesign-remove`` while the reserve board is empty); any other
    kind is its own single form."""
    if kind != "redesign":
        return (kind,)
    top = state.pending[-1] if state.pending else None
    if isinstance(top, ChooseAction) and not state.players[top.seat].reserve:
        return ("redesign-remove",)
    return REDESIGN_KINDS


_MEMO_LIMIT = 200_000
_TAKE_MEMO: dict[tuple[str, ...], list[Action]] = {}


def _memo_put(memo: dict[_K, _V], key: _K, value: _V) -> None:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value


class _Tables:
    """Facts about one game's components that legal-action generation looks up per card or
    tile id, and the action objects it hands out (actions are immutable values, so every
    generator shares one object per action)."""

    __slots__ = (
        "build",
        "buy",
        "buys",
        "coin",
        "comp",
        "cuts",
        "exchange",
        "masks",
        "payments",
        "place",
        "plain_card",
        "purse_digits",
        "remove",
        "rep",
        "small",
        "subsets",
        "take_one",
        "takes",
    )

    def __init__(self, comp: ComponentSet) -> None:
        self.comp = comp
        cards = comp.cards
        takes: dict[str, Action] = {}
        self.take_one = tuple(takes.setdefault(c.code, TakeMoney((c.code,))) for c in cards)
        """Per card id: taking that card alone."""
        self.small = tuple(c.code if c.is_money and c.value < TAKE_LIMIT else None for c in cards)
        """Per card id: its code if it may be taken together with others."""
        self.plain_card = tuple(c.module is None and c.kind != "scoring" for c in cards)
        """Per card id: a drawn card that simply goes to the display."""
        first: dict[str, int] = {}
        self.rep = (*(first.setdefault(c.code, i) for i, c in enumerate(cards)), -1)
        """Per card id: the first id of its code (copies are interchangeable); the extra last
        entry makes ``rep[-1]`` (an empty display slot) -1."""
        self.takes: dict[tuple[int, ...], list[Action]] = {}
        """``take`` actions by the display's :attr:`rep` ids."""
        money = sorted({(c.currency, c.code) for c in cards if c.is_money})
        index = {code: i for i, (_, code) in enumerate(money)}
        copies: dict[str, int] = {}
        for c in cards:
            if c.is_money:
                copies[c.code] = copies.get(c.code, 0) + 1
        width = max(copies.values(), default=1).bit_length()  # a hand holds at most every copy of a code
        self.coin = tuple(1 << (width * index[c.code]) if c.is_money else 0 for c in cards)
        """Per card id: its money code as one digit (of ``width`` bits, enough to count every
        copy of a code) of a purse signature: the sum over a hand says which money codes it
        holds, how many of each; the codes of one currency are neighbouring digits
        (:attr:`purse_digits`). Narrow digits keep the sums small ints, cheap to add and hash."""
        self.purse_digits: dict[int, int] = {}
        """Per currency: the mask that cuts its part (its digits) out of a hand's signature."""
        for cur in {cur for cur, _ in money}:
            digits = [index[code] for c, code in money if c == cur]
            self.purse_digits[cur] = ((1 << (width * len(digits))) - 1) << (width * digits[0])
        self.place: dict[str, dict[int | str, Action]] = {}
        self.build: dict[str, dict[int, Action]] = {}
        self.remove: dict[str, Action] = {}
        self.exchange: dict[tuple[str, str], Action] = {}
        self.buy: dict[tuple[int, tuple[str, ...]], Action] = {}
        self.buys: dict[int, dict[int, list[Action]]] = {}
        """Buy actions of one square by purse signature, then by price, square index and
        payments mode packed into one int (``price << 4 | square << 2 | mode``)."""
        self.payments: dict[tuple[object, ...], list[tuple[str, ...]]] = {}
        """Payments with module payment options or money sources (see :func:`_money_payments`)."""
        self.cuts: dict[frozenset[int], int] = {}
        """Per set of currencies: the mask of their digits in a purse signature."""
        self.masks: dict[tuple[int, ...], tuple[int, ...]] = {}
        """Per market currencies (``GameState.market_currency``): each square's purse mask."""
        self.subsets: dict[int, list[tuple[int, int, tuple[str, ...]]]] = {}
        """Every payment of one currency by purse signature (see :func:`_subsets`)."""

    def buy_action(self, square: int, payment: tuple[str, ...]) -> Action:
        key = (square, payment)
        got = self.buy.get(key)
        if got is None:
            _memo_put(self.buy, key, BuyBuilding(square, payment))
            got = self.buy[key]
        return got


_TABLES: dict[int, _Tables] = {}
_LAST_TABLES: list[_Tables | None] = [None]
"""The tables asked for last (most calls are for the same game's components)."""


def _tables(comp: ComponentSet) -> _Tables:
    last = _LAST_TABLES[0]
    if last is not None and last.comp is comp:
        return last
    got = _TABLES.get(id(comp))
    if got is None or got.comp is not comp:
        got = _TABLES[id(comp)] = _Tables(comp)  # it keeps ``comp`` alive, so the id stays its own
    _LAST_TABLES[0] = got
    return got


def _take_actions(state: GameState) -> list[Action]:
    """``take`` actions for the display (a new list): memoised by the display with each card
    standing for its code (cards of one code are interchangeable)."""
    comp = state.components
    last = _LAST_TABLES[0]
    tables = last if last is not None and last.comp is comp else _tables(comp)
    rep = tables.rep
    d = state.display
    key = (rep[d[0]], rep[d[1]], rep[d[2]], rep[d[3]]) if len(d) == 4 else tuple([rep[c] for c in d])
    takes = tables.takes
    got = takes.get(key)
    if got is None:
        got = _list_takes(state, tables)
        _memo_put(takes, key, got)
    return got[:]


def _list_takes(state: GameState, tables: _Tables) -> list[Action]:
    comp = state.components
    one = tables.take_one
    small_code = tables.small
    code_of = comp.card_code
    out: list[Action] = []
    singles: list[str] = []
    small: list[str] = []
    for c in state.display:
        if c >= 0:
            code = code_of[c]
            if code not in singles:
                singles.append(code)
                out.append(one[c])
            sc = small_code[c]
            if sc is not None:
                small.append(sc)
    if len(small) < 2:
        return out
    small.sort()
    key = tuple(small)
    got = _TAKE_MEMO.get(key)
    if got is None:
        got = []
        seen: set[tuple[str, ...]] = set()
        values = [comp.money_value[code] for code in key]
        m = len(key)
        for mask in range(1, 1 << m):
            if mask & (mask - 1) == 0:
                continue  # single cards are listed already
            total = 0
            chosen = []
            for i in range(m):
                if mask >> i & 1:
                    total += values[i]
                    chosen.append(key[i])
            if total <= TAKE_LIMIT:
                several = canonical_cards(chosen)
                if several not in seen:
                    seen.add(several)
                    got.append(TakeMoney(several))
        _memo_put(_TAKE_MEMO, key, got)
    return out + got


def _place_actions_of(tables: _Tables, code: str) -> dict[int | str, Action]:
    """``PlaceBuilding`` of ``code`` by packed position, ``reserve`` or ``neutral`` (filled as
    targets come up)."""
    got = tables.place.get(code)
    if got is None or len(got) >= _MEMO_LIMIT:
        got = tables.place[code] = {}
    return got


def _build_actions(tables: _Tables, code: str) -> dict[int, Action]:
    """``BuildFromReserve`` of ``code`` by packed position (filled as positions come up)."""
    got = tables.build.get(code)
    if got is None or len(got) >= _MEMO_LIMIT:
        got = tables.build[code] = {}
    return got


def _remove_action(tables: _Tables, code: str) -> Action:
    got = tables.remove.get(code)
    if got is None:
        got = tables.remove[code] = MoveToReserve(code)
    return got


def _exchange_action(tables: _Tables, code: str, city_code: str) -> Action:
    key = (code, city_code)
    got = tables.exchange.get(key)
    if got is None:
        got = tables.exchange[key] = ExchangeTiles(code, city_code)
    return got


REDESIGN_KINDS = ("redesign-build", "redesign-remove", "redesign-exchange")
"""The three forms of redesign, as action kinds."""


def _redesign_actions(state: GameState, seat: int, form: str | None = None) -> list[Action]:
    """Redesign actions of one form (``build``, ``remove``, ``exchange``) or of all three.

    Without a module that adds building rules, each form's list is memoised with the
    Alhambra's analysis: removals by the Alhambra alone, builds and exchanges by the tiles on
    the reserve board. The lists of one form are shared: do not change them."""
    p = state.players[seat]
    in_reserve = p.reserve
    city = p.city
    if not in_reserve and len(city) == 1:
        return []
    comp = state.components
    an = p.analysis(comp.tile_walls)
    if state.config.modules and _users(state, "placement_problem"):
        return _redesign_with_rules(state, seat, form, an)
    if form == "remove":
        return _removals(an, city, comp)
    if not in_reserve:
        return [] if form is not None else _removals(an, city, comp)[:]
    if form is None:
        build = _reserve_moves(an, city, comp, in_reserve, "build")
        return build + _removals(an, city, comp) + _reserve_moves(an, city, comp, in_reserve, "exchange")
    return _reserve_moves(an, city, comp, in_reserve, form)


def _removals(an: geo.CityAnalysis, city: dict[int, int], comp: ComponentSet) -> list[Action]:
    """``redesign remove`` for every removable tile (memoised with the analysis)."""
    memo = an.memo
    cached = memo.get("redesign-remove")
    if cached is not None:
        return cached  # type: ignore[return-value]
    code_of = comp.tile_code
    remove = _tables(comp).remove
    got: list[Action] = []
    for q in an.removable():
        code = code_of[city[q]]
        a = remove.get(code)
        if a is None:
            a = remove[code] = MoveToReserve(code)
        got.append(a)
    memo["redesign-remove"] = got
    return got


def _reserve_moves(an: geo.CityAnalysis, city: dict[int, int], comp: ComponentSet, in_reserve: list[int], form: str) -> list[Action]:
    """``redesign build`` or ``redesign exchange`` for the reserve tiles, by tile code
    (memoised with the analysis, by form and reserve board)."""
    memo = an.memo
    if len(in_reserve) > 1:
        key: tuple[object, ...] = (form, *sorted(in_reserve))
        cached = memo.get(key)
        if cached is not None:
            return cached  # type: ignore[return-value]
        code_of = comp.tile_code
        reserve = sorted({code_of[t]: t for t in in_reserve}.items())
    else:
        t = in_reserve[0]
        key = (form, t)
        cached = memo.get(key)
        if cached is not None:
            return cached  # type: ignore[return-value]
        code_of = comp.tile_code
        reserve = [(code_of[t], t)]
    tables = _LAST_TABLES[0]
    if tables is None or tables.comp is not comp:
        tables = _tables(comp)
    walls = comp.tile_walls
    got: list[Action] = []
    if form == "build":
        builds = tables.build
        spots = an.spots
        for code, t in reserve:
            acts = builds.get(code)
            if acts is None or len(acts) >= _MEMO_LIMIT:
                acts = builds[code] = {}
            for q in spots(walls[t]):
                a = acts.get(q)
                if a is None:
                    a = acts[q] = BuildFromReserve(code, geo.xy(q))
                got.append(a)
    elif form == "exchange":
        exchange = tables.exchange
        exchanges = an.exchanges
        for code, t in reserve:
            for q in exchanges(walls[t]):
                ekey = (code, code_of[city[q]])
                a = exchange.get(ekey)
                if a is None:
                    a = exchange[ekey] = ExchangeTiles(*ekey)
                got.append(a)
    memo[key] = got
    return got


def _redesign_with_rules(state: GameState, seat: int, form: str | None, an: geo.CityAnalysis) -> list[Action]:
    """:func:`_redesign_actions` when modules add building rules (``placement_problem``): the
    rules may depend on anything in the state, so nothing is memoised."""
    p = state.players[seat]
    comp = state.components
    walls = comp.tile_walls
    mods = _users(state, "placement_problem")
    tables = _tables(comp)
    code_of = comp.tile_code
    city = p.city
    out: list[Action] = []
    reserve = sorted(set(p.reserve), key=code_of.__getitem__)
    if form is None or form == "build":
        for t in reserve:
            code = code_of[t]
            acts = _build_actions(tables, code)
            for q in an.spots(walls[t]):
                if all(m.placement_problem(state, seat, t, q) is None for m in mods):
                    a = acts.get(q)
                    if a is None:
                        a = acts[q] = BuildFromReserve(code, geo.xy(q))
                    out.append(a)
    if form is None or form == "remove":
        for q in an.removable():
            out.append(_remove_action(tables, code_of[city[q]]))
    if form is None or form == "exchange":
        for rt in reserve:
            code = code_of[rt]
            for q in an.exchanges(walls[rt]):
                if _exchange_problem(state, seat, q, rt) is None:
                    out.append(_exchange_action(tables, code, code_of[city[q]]))
    return out


def redesign_options(state: GameState, seat: int, form: str | None = None) -> list[Action]:
    """Every redesign ``seat`` could make now under all building rules (modules' included), as
    core redesign actions (``redesign build/remove/exchange``); ``form`` is ``build``,
    ``remove`` or ``exchange`` for one form only. For modules that grant an extra redesign."""
    return list(_redesign_actions(state, seat, form))


def _turn_actions(state: GameState, top: ChooseAction, payments: str = "all") -> list[Action]:
    out = _take_actions(state)
    out += _buy_actions(state, top.seat, payments)
    out += _redesign_actions(state, top.seat)
    if state.config.modules:
        for m in _users(state, "turn_actions"):
            out += m.turn_actions(state, top.seat)
    if not out:
        out.append(EndTurn())
    return out


def _stuck(state: GameState, top: ChooseAction) -> bool:
    """True when a player has no action at all (every money card is in the hands, nothing is
    affordable, nothing can be redesigned): they may only pass the turn (``end``). After an
    exact payment the player must take another action (rulebook: "decide once more which of the
    three options"); only a player with no possible action ends the turn."""
    if any(c >= 0 for c in state.display):
        return False
    return _turn_actions(state, top) == [EndTurn()]


def _window_seats(state: GameState) -> list[int]:
    """Seats to ask in the window between turns, in priority order (next to play first, the
    seat that has just finished last), only those a module may let interrupt (public facts)."""
    n = state.config.players
    users = _users(state, "may_interrupt")
    order = [(state.current + 1 + i) % n for i in range(n)]
    return [s for s in order if any(m.may_interrupt(state, s) for m in users)]


def _window_actions(state: GameState, top: BetweenTurns, kind: str | None = None) -> list[Action]:
    out: list[Action] = []
    for m in _users(state, "interrupt_actions"):
        if kind in (None, m.id):
            out += m.interrupt_actions(state, top.seat)
    if kind in (None, "pass"):
        out.append(Pass())
    return out


def _place_actions(state: GameState, top: PlaceTiles) -> list[Action]:
    comp = state.components
    walls = comp.tile_walls
    seat = top.seat
    an = state.players[seat].analysis(walls)
    mods = _users(state, "placement_problem")
    neutral = top.neutral and state.neutral is not None
    tables = _tables(comp)
    out: list[Action] = []
    tiles = top.tiles
    twins = comp.twins
    for code in sorted(set(tiles)) if len(tiles) > 1 else tiles:
        t = comp.tile_ids[code]
        spots = an.spots(walls[t])
        if mods:
            spots = [q for q in spots if all(m.placement_problem(state, seat, t, q) is None for m in mods)]
        acts = _place_actions_of(tables, code)
        for q in spots:
            a = acts.get(q)
            if a is None:
                a = acts[q] = PlaceBuilding(code, geo.xy(q))
            out.append(a)
        if twins and spots and t in state.turned:
            continue  # paid to turn it over: it is built (unless the other waiting tiles took every place for it)
        for target in ("reserve", "neutral") if neutral else ("reserve",):
            a = acts.get(target)
            if a is None:
                a = acts[target] = PlaceBuilding(code, target)
            out.append(a)
        if twins and t not in state.turned:  # a tile paid to be turned over keeps that face
            out.append(PlaceBuilding(comp.tile_code[comp.tile_twin[t]], "reserve"))  # the other face, for free
    return out


def _turn_over_actions(state: GameState, top: PlaceTiles, payments: str = "all") -> list[Action]:
    """``turn`` actions (two-sided tiles): each waiting tile not turned yet whose other face can
    be built now, with each payment of the turn-over cost in one currency (``payments`` as for
    ``buy``: see :data:`PAYMENTS`)."""
    comp = state.components
    cost = comp.ruleset.turn_over_cost if comp.ruleset is not None else 0
    if cost <= 0:
        return []
    seat = top.seat
    hand = state.players[seat].hand
    walls = comp.tile_walls
    an = state.players[seat].analysis(walls)
    pays: list[tuple[str, ...]] = []
    for cur in range(len(CURRENCIES)):
        for total, low, pay in _subsets(comp, hand, cur):
            if total >= cost and (payments == "all" or (total == cost if payments == "exact" else total - low < cost)):
                pays.append(pay)
    if not pays:
        return []
    out: list[Action] = []
    for code in sorted(set(top.tiles)):
        t = comp.tile_ids[code]
        other = comp.tile_twin[t]
        if other < 0 or t in state.turned or not an.spots(walls[other]):
            continue
        out += [TurnOver(code, pay) for pay in pays]
    return out


# ---------------------------------------------------------------------------------- apply
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


def _reads_events(config: GameConfig) -> bool:
    """Does a module of this game read the events of an action (so they must be built)?"""
    got = _READS_EVENTS.get(config.modules)
    if got is None:
        reads = hook_users(config, "after_action") or hook_users(config, "on_events")
        got = _READS_EVENTS[config.modules] = bool(config.modules) and bool(reads)
    return got


_READS_EVENTS: dict[tuple[str, ...], bool] = {}


def _sink(events: list[Event] | None) -> list[Event]:
    """The list a module hook appends its events to: a throwaway one when no events are built."""
    return [] if events is None else events


def _after_action(state: GameState, events: list[Event] | None) -> None:
    if state.config.modules:
        for m in _users(state, "after_action"):
            m.after_action(state, _sink(events))


def _notify(state: GameState, events: list[Event] | None) -> None:
    if state.config.modules:
        for m in _users(state, "on_events"):
            m.on_events(state, _sink(events))


def _check(state: GameState, action: Action) -> None:
    kind = type(action)
    if kind is TakeMoney or kind is BuyBuilding:  # the usual turn actions, straight to their checks
        top = state.pending[-1] if state.pending else None
        if type(top) is ChooseAction:
            if kind is TakeMoney:
                _check_take(state, action)  # type: ignore[arg-type]
            else:
                _check_buy(state, top.seat, action)  # type: ignore[arg-type]
            return
    comp = state.components
    if action.module is not None:
        if action.module not in state.config.modules:
            raise IllegalAction(f"{action} needs the {action.module!r} module, which this game does not use")
        load_module(action.module).check(state, action)
        return
    if isinstance(action, PlaceBuilding):
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, PlaceTiles):
            raise WrongPhase(f"there is no tile to place now; {_waiting_for(state)}")
        if action.tile not in top.tiles:
            other = _twin_code(state, action.tile)
            if action.target == "reserve" and other is not None and other in top.tiles:
                if _tile_id(state, other) in state.turned:
                    if _must_build(state, top.seat, _tile_id(state, other)):
                        raise IllegalAction(f"{other} was paid to be turned over: build it in your city")
                    raise IllegalAction(f"{other} was paid to be turned over: it keeps that face, in the reserve too")
                return  # into the reserve on either face, for free
            raise IllegalAction(f"{action.tile} is not waiting to be placed (waiting: {' '.join(top.tiles)})")
        tgt = action.target
        if comp.twins and tgt in ("reserve", "neutral") and _must_build(state, top.seat, _tile_id(state, action.tile)):
            raise IllegalAction(f"{action.tile} was paid to be turned over: build it in your city")
        if tgt == "reserve":
            return
        if tgt == "neutral":
            if not (top.neutral and state.neutral is not None):
                raise IllegalAction("only a tile bought in a 2-player game can be given to the neutral player")
            return
        if not isinstance(tgt, tuple):
            raise IllegalAction(f"bad target {tgt!r}")
        _check_position(state, top.seat, _tile_id(state, action.tile), tgt)
        return
    if isinstance(action, TurnOver):
        _check_turn_over(state, action)
        return
    if isinstance(action, Pass):
        if not (state.pending and isinstance(state.pending[-1], BetweenTurns)):
            raise WrongPhase(f"there is nothing to pass now; {_waiting_for(state)}")
        return
    top = _seat_of_turn(state)
    seat = top.seat
    p = state.players[seat]
    if isinstance(action, TakeMoney):
        _check_take(state, action)
    elif isinstance(action, BuyBuilding):
        _check_buy(state, seat, action)
    elif isinstance(action, BuildFromReserve):
        t = _tile_id(state, action.tile)
        if t not in p.reserve:
            raise IllegalAction(f"{action.tile} is not on your reserve board")
        _check_position(state, seat, t, action.target)
    elif isinstance(action, MoveToReserve):
        t = _tile_id(state, action.tile)
        q = _city_pos(p, t, action.tile)
        rule = None if q in p.analysis(comp.tile_walls).removable() else geo.removal_problem(p.city, comp.tile_walls, q, geo.ORIGIN)
        if rule is not None:
            raise IllegalPlacement(f"removing {action.tile} breaks a building rule: {geo.RULE_MESSAGES[rule]}", rule)
    elif isinstance(action, ExchangeTiles):
        rt = _tile_id(state, action.reserve_tile)
        if rt not in p.reserve:
            raise IllegalAction(f"{action.reserve_tile} is not on your reserve board")
        q = _city_pos(p, _tile_id(state, action.city_tile), action.city_tile)
        rule = _exchange_problem(state, seat, q, rt)
        if rule is not None:
            raise IllegalPlacement(f"{action.reserve_tile} cannot take the place of {action.city_tile}: {_rule_text(rule)}", rule)
    elif isinstance(action, BuyItem):
        _check_offer(state, seat, action.item, action.payment, False)
    elif isinstance(action, EndTurn):
        if not _stuck(state, top):
            if top.actions:
                raise IllegalAction("after an exact payment you take another action (take money, buy or redesign); the turn cannot end now")
            raise IllegalAction("you must take an action; a turn is passed only when no action is possible")
    else:
        raise IllegalAction(f"{action} is not a core action")


def _check_take(state: GameState, action: TakeMoney) -> None:
    comp = state.components
    if not action.cards:
        raise IllegalAction("take at least one card")
    idx = _match_cards(comp, state.display, action.cards)
    if idx is None:
        raise IllegalAction(f"the display does not show {'+'.join(action.cards)}")
    if len(idx) > 1:
        ids = [state.display[i] for i in idx]
        if not all(comp.card_is_money[c] for c in ids):
            raise IllegalAction("only money cards can be taken together")
        total = payment_value(comp, ids)
        if total > TAKE_LIMIT:
            raise IllegalAction(f"several cards may be taken only if they total at most {TAKE_LIMIT}; these total {total}")


def _check_buy(state: GameState, seat: int, action: BuyBuilding) -> None:
    if not _plain_payment(state, seat, action.square, action.payment):
        _check_payment(state, seat, action.square, action.payment)


def _twin_code(state: GameState, code: str) -> str | None:
    """The code of the other face of tile ``code`` (None: unknown or one-sided)."""
    comp = state.components
    t = comp.tile_ids.get(code, -1)
    return comp.tile_code[comp.tile_twin[t]] if t >= 0 and comp.tile_twin[t] >= 0 else None


def _must_build(state: GameState, seat: int, tile: int) -> bool:
    """A tile paid to be turned over must be built, unless no place is left for it."""
    if tile not in state.turned:
        return False
    walls = state.components.tile_walls
    return bool(state.players[seat].analysis(walls).spots(walls[tile]))


def _check_turn_over(state: GameState, action: TurnOver) -> None:
    comp = state.components
    cost = comp.ruleset.turn_over_cost if comp.ruleset is not None else 0
    if cost <= 0 or not comp.twins:
        raise IllegalAction(f"tiles are never turned over in {comp.ruleset.title if comp.ruleset else 'Alhambra'}")
    top = state.pending[-1] if state.pending else None
    if not isinstance(top, PlaceTiles):
        raise WrongPhase(f"only a tile waiting to be placed can be turned over; {_waiting_for(state)}")
    if action.tile not in top.tiles:
        raise IllegalAction(
            f"{action.tile} is not waiting to be placed (waiting: {' '.join(top.tiles)}); a tile in a reserve or a city is never turned"
        )
    t = _tile_id(state, action.tile)
    if t in state.turned:
        raise IllegalAction(f"{action.tile} has been turned over already")
    other = comp.tile_twin[t]
    walls = comp.tile_walls
    if not state.players[top.seat].analysis(walls).spots(walls[other]):
        raise IllegalPlacement(
            f"{comp.tile_code[other]} (the other face of {action.tile}) cannot be built anywhere in your city now", "adjacent"
        )
    ways = tuple(frozenset((c,)) for c in range(len(CURRENCIES)))
    _check_money(state, top.seat, action.payment, ways, cost, f"turning {action.tile} over", "turning a tile over")


def _rule_text(rule: str) -> str:
    return geo.RULE_MESSAGES.get(rule, rule)


def _city_pos(p: PlayerState, tile: int, code: str) -> int:
    for q, t in p.city.items():
        if t == tile:
            return q
    raise IllegalAction(f"{code} is not in your Alhambra")


def _exchange_problem(state: GameState, seat: int, q: int, new_tile: int) -> str | None:
    p = state.players[seat]
    rule = geo.exchange_problem(p.city, state.components.tile_walls, q, new_tile, geo.ORIGIN)
    if rule is None:
        for m in _users(state, "placement_problem"):
            rule = m.placement_problem(state, seat, new_tile, q)
            if rule is not None:
                break
    return rule


def _check_position(state: GameState, seat: int, tile: int, target: tuple[int, int]) -> None:
    if not (isinstance(target, tuple) and len(target) == 2 and type(target[0]) is int and type(target[1]) is int):
        raise IllegalAction(f"bad position {target!r}")
    x, y = target
    if not (-500 < x < 500 and -500 < y < 500):
        raise IllegalPlacement(f"{x},{y} is far outside any Alhambra", "adjacent")
    q = geo.pos(x, y)
    walls = state.components.tile_walls
    p = state.players[seat]
    rule = None if q in p.analysis(walls).spots(walls[tile]) else geo.placement_problem(p.city, walls, walls[tile], q)
    if rule is None and state.config.modules:
        for m in _users(state, "placement_problem"):
            rule = m.placement_problem(state, seat, tile, q)
            if rule is not None:
                break
    if rule is not None:
        raise IllegalPlacement(f"{state.components.tiles[tile].code} cannot go to {x},{y}: {_rule_text(rule)}", rule)


def _perform(state: GameState, action: Action, events: list[Event] | None) -> None:
    handler = _PERFORM.get(type(action))
    if handler is not None:
        handler(state, action, events)
    elif action.module is not None:
        at = len(state.pending) - 1
        window = state.pending[at] if at >= 0 and isinstance(state.pending[at], BetweenTurns) else None
        load_module(action.module).perform(state, action, _sink(events))
        if window is not None and at < len(state.pending) and state.pending[at] is window:
            # somebody acted in the window: once that is resolved, everybody may decide again
            state.pending[at] = BetweenTurns(window.seat, (), True)
    else:  # pragma: no cover - _check refuses anything else
        raise IllegalAction(f"{action} is not a core action")


def _do_place(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, PlaceBuilding)
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles)
    seat = top.seat
    t = state.components.tile_ids[action.tile]
    tgt = action.target
    if action.tile not in top.tiles:  # the other face of a waiting tile goes into the reserve
        other = state.components.tile_code[state.components.tile_twin[t]]
        top = PlaceTiles(seat, tuple(action.tile if c == other else c for c in top.tiles), top.neutral, top.reason)
    if tgt == "reserve":
        state.players[seat].reserve.append(t)
    elif tgt == "neutral":
        assert state.neutral is not None
        state.neutral.append(t)
    else:
        assert isinstance(tgt, tuple)
        state.players[seat].build(geo.pos(*tgt), t)
    if events is not None:
        events.append(BuildingPlaced(seat, action.tile, tgt))
    if len(top.tiles) > 1:
        rest = list(top.tiles)
        rest.remove(action.tile)
        state.pending[-1] = PlaceTiles(seat, tuple(rest), top.neutral, top.reason)
    else:
        state.pending.pop()


def _do_turn_over(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, TurnOver)
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles)
    comp = state.components
    _spend(state, top.seat, action.payment)
    other = comp.tile_twin[comp.tile_ids[action.tile]]
    face = comp.tile_code[other]
    state.turned = (*state.turned, other)
    tiles = list(top.tiles)
    tiles[tiles.index(action.tile)] = face
    state.pending[-1] = PlaceTiles(top.seat, tuple(tiles), top.neutral, top.reason)
    if events is not None:
        events.append(TileTurnedOver(top.seat, action.tile, face, action.payment))


def _turn_top(state: GameState) -> ChooseAction:
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    return top


def _do_take(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, TakeMoney)
    pending = state.pending
    top = pending[-1]
    assert isinstance(top, ChooseAction)
    seat = top.seat
    hand = state.players[seat].hand
    display = state.display
    cards = action.cards
    if len(cards) == 1:
        want = cards[0]
        code_of = state.components.card_code
        for i, c in enumerate(display):
            if c >= 0 and code_of[c] == want:
                hand.append(c)
                display[i] = -1
                break
    else:
        idx = _match_cards(state.components, display, cards)
        assert idx is not None
        for i in idx:
            hand.append(display[i])
            display[i] = -1
    if events is not None:
        events.append(MoneyTaken(seat, cards))
    pending.pop()  # _finish_action(state, top, False, events), inlined
    if top.bought:
        pending.append(PlaceTiles(seat, top.bought, state.neutral is not None, "bought"))


def _do_buy(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, BuyBuilding)
    top = _turn_top(state)
    seat = top.seat
    comp = state.components
    price = comp.tile_price[state.market[action.square - 1]]
    paid = _paid_value(state, seat, action.payment)
    exact = paid == price
    t = _pay_square(state, seat, action.square, action.payment)
    code = comp.tile_code[t]
    if events is not None:
        events.append(BuildingBought(seat, action.square, code, action.payment, exact))
    # _finish_action(state, ChooseAction(seat, top.actions, bought), exact, events), inlined
    bought = (*top.bought, code)
    pending = state.pending
    if exact:
        pending[-1] = ChooseAction(seat, top.actions + 1, bought)
    else:
        pending.pop()
        pending.append(PlaceTiles(seat, bought, state.neutral is not None, "bought"))
    if state.config.modules and _users(state, "purchase_made"):
        _purchase_made(state, Purchase(seat, action.square, None, t, price, paid, action.payment, exact, False), events)


def _do_build(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, BuildFromReserve)
    top = _turn_top(state)
    p = state.players[top.seat]
    t = state.components.tile_ids[action.tile]
    p.reserve.remove(t)
    p.build(geo.pos(*action.target), t)
    if events is not None:
        events.append(AlhambraRedesigned(top.seat, "build", action.tile, action.target[0], action.target[1]))
    _finish_action(state, top, False, events)


def _do_remove(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, MoveToReserve)
    top = _turn_top(state)
    p = state.players[top.seat]
    t = state.components.tile_ids[action.tile]
    q = _city_pos(p, t, action.tile)
    p.unbuild(q)
    p.reserve.append(t)
    x, y = geo.xy(q)
    if events is not None:
        events.append(AlhambraRedesigned(top.seat, "remove", action.tile, x, y))
    _finish_action(state, top, False, events)


def _do_exchange(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, ExchangeTiles)
    top = _turn_top(state)
    p = state.players[top.seat]
    comp = state.components
    rt = comp.tile_ids[action.reserve_tile]
    ct = comp.tile_ids[action.city_tile]
    q = _city_pos(p, ct, action.city_tile)
    p.reserve.remove(rt)
    p.reserve.append(ct)
    p.build(q, rt)
    x, y = geo.xy(q)
    if events is not None:
        events.append(AlhambraRedesigned(top.seat, "exchange", action.reserve_tile, x, y, action.city_tile))
    _finish_action(state, top, False, events)


def _do_end(state: GameState, action: Action, events: list[Event] | None) -> None:
    _finish_action(state, _turn_top(state), False, events)


def _do_buy_item(state: GameState, action: Action, events: list[Event] | None) -> None:
    assert isinstance(action, BuyItem)
    top = _turn_top(state)
    offer, purchase = _pay_offer(state, top.seat, action.item, action.payment, events, False, announce=False)
    bought = top.bought if offer.tile < 0 else (*top.bought, state.components.tile_code[offer.tile])
    _finish_action(state, ChooseAction(top.seat, top.actions, bought), purchase.exact and offer.again_if_exact, events)
    _purchase_made(state, purchase, events)


def _do_pass(state: GameState, action: Action, events: list[Event] | None) -> None:
    top = state.pending[-1]
    assert isinstance(top, BetweenTurns)
    if events is not None:
        events.append(Passed(top.seat))
    if top.later:
        state.pending[-1] = BetweenTurns(top.later[0], top.later[1:])
    else:
        state.pending.pop()


_PERFORM: dict[type, Callable[[GameState, Action, list[Event] | None], None]] = {
    PlaceBuilding: _do_place,
    TurnOver: _do_turn_over,
    TakeMoney: _do_take,
    BuyBuilding: _do_buy,
    BuildFromReserve: _do_build,
    MoveToReserve: _do_remove,
    ExchangeTiles: _do_exchange,
    EndTurn: _do_end,
    BuyItem: _do_buy_item,
    Pass: _do_pass,
}
"""How each core action is carried out (by exact class; module actions go to their module)."""


def _finish_action(state: GameState, top: ChooseAction, again: bool, events: list[Event] | None) -> None:
    """After a turn action: continue (exact payment) or close the action phase."""
    if again:
        state.pending[-1] = ChooseAction(top.seat, top.actions + 1, top.bought)
        return
    state.pending.pop()
    if top.bought:
        state.pending.append(PlaceTiles(top.seat, top.bought, state.neutral is not None, "bought"))


# ---------------------------------------------------------------------------------- flow
_TURN_START = tuple(ChooseAction(seat) for seat in range(6))
"""The decision a turn starts with, one shared (immutable) value per seat."""


def _start_turn(state: GameState, seat: int, events: list[Event] | None) -> None:
    state.current = seat
    state.turn += 1
    state.stage = STAGE_TURN
    state.flow = 0
    state.pending.append(_TURN_START[seat])
    if events is not None:
        events.append(TurnStarted(seat, state.turn))
    if state.config.modules:
        for m in _users(state, "turn_started"):
            m.turn_started(state, seat, _sink(events))


def _advance(state: GameState, events: list[Event] | None) -> None:
    """Run automatic steps until a seat must decide or the game is over."""
    pending = state.pending
    if pending:
        kind = type(pending[-1])
        if (kind is ChooseAction or kind is PlaceTiles) and state.outcome is None:
            return  # a core decision waits (the usual case)
        top = pending[-1]
        if top.module is None and state.outcome is None and (type(top) is not BetweenTurns or not top.restart):
            return
    elif state.stage == STAGE_TURN and (not state.config.modules or plain_flow(state.config)) and state.outcome is None:
        # A turn of a game without modules is over: nothing can pause its end or open the window
        # between turns, so the next turn starts at once unless a scoring round, the end of the
        # game or the turn limit is due (the same steps the loop below takes, straight through:
        # _complete_turn and _start_turn, inlined).
        if events is not None:
            events.append(TurnEnded(state.current))
        if -1 in state.display:
            refill_display(state, events)
        if -1 in state.market:
            _fill_market(state, events, True)
        if state.scoring_queue:
            _run_scoring_queue(state, events)
        config = state.config
        limit = config.turn_limit
        if not state.market_exhausted and (limit is None or state.turn < limit):
            seat = (state.current + 1) % config.players
            state.current = seat
            state.turn += 1
            state.flow = 0  # the stage stays STAGE_TURN
            pending.append(_TURN_START[seat])
            if events is not None:
                events.append(TurnStarted(seat, state.turn))
            return
        state.stage = STAGE_BETWEEN
        state.flow = 1  # the window is opened (and empty)
    guard = 0
    while state.outcome is None:
        guard += 1
        if guard > 10_000:  # pragma: no cover - a module that never settles
            raise RuntimeError("the game flow does not settle (a module's resume hook loops)")
        if state.pending:
            top = state.pending[-1]
            if top.module is None:
                if type(top) is BetweenTurns and top.restart:
                    _reopen_window(state)
                    continue
                return
            before = (len(state.pending), top)
            load_module(top.module).resume(state, top, _sink(events))
            if state.pending and (len(state.pending), state.pending[-1]) == before:
                return
            continue
        if state.stage == STAGE_TURN:
            _complete_turn(state, events)
        elif state.stage == STAGE_SETUP:  # the setup decisions are taken: fill the market, deal...
            _finish_setup(state, random.Random(f"{state.seed}:setup"), events)
        elif state.stage == STAGE_BETWEEN:
            if state.flow == 0:
                state.flow = 1
                _open_window(state)
            elif state.scoring_queue:
                # a scoring card drawn by an out-of-turn move (a module refilled the display in
                # the window) is scored before the next turn begins, like one drawn at a turn's end
                if _before_scoring(state, state.scoring_queue[0], 1, events):
                    continue
                _run_scoring_queue(state, events, 1)
                state.flow = 1
            elif state.market_exhausted:
                _start_final(state, events)
            else:
                limit = state.config.turn_limit
                if limit is not None and state.turn >= limit:
                    _end_game(state, "truncated", events)
                else:
                    _start_turn(state, (state.current + 1) % state.config.players, events)
        elif state.stage == STAGE_FINAL:
            if _before_scoring(state, 3, 0, events):
                continue
            _score_round(state, 3, events)
            _end_game(state, "finished", events)
        else:  # pragma: no cover
            raise AssertionError(state.stage)


def _complete_turn(state: GameState, events: list[Event] | None) -> None:
    """The automatic end of a turn, step by step (``state.flow`` counts the steps done, so a
    step that pushed a pending decision is not repeated): the modules' ``turn_ending``, then
    ``TurnEnded`` and the display refill, the market refill (which may pause for a decision and
    goes on when called again), the queued scoring rounds and ``after_turn``. (A game without
    modules takes the same steps straight through in :func:`_advance`.)"""
    enders = _users(state, "turn_ending")
    while True:
        step = state.flow
        if step < len(enders):
            state.flow += 1
            enders[step].turn_ending(state, _sink(events))
            if state.pending:
                return
        elif step == len(enders):
            state.flow += 1
            if events is not None:
                events.append(TurnEnded(state.current))
            refill_display(state, events)
        elif step == len(enders) + 1:
            refill_market(state, events)
            if state.pending:
                return  # paused for a decision; called again once it is resolved
            state.flow += 1
        elif state.scoring_queue:
            if _before_scoring(state, state.scoring_queue[0], len(enders) + 2, events):
                return
            _run_scoring_queue(state, events, 1)
            state.flow = len(enders) + 2
        else:
            state.stage = STAGE_BETWEEN
            state.flow = 0
            if state.config.modules:
                for m in _users(state, "after_turn"):
                    m.after_turn(state, _sink(events))
            return


def _window_open(state: GameState) -> bool:
    if state.market_exhausted or not state.config.modules or not _users(state, "interrupt_actions"):
        return False
    limit = state.config.turn_limit
    return limit is None or state.turn < limit


def _open_window(state: GameState) -> None:
    """Between turns: ask the seats that may make an out-of-turn move (none when the last tiles
    are about to be distributed, or after the last turn of a game with a turn limit)."""
    if _window_open(state):
        seats = _window_seats(state)
        if seats:
            state.pending.append(BetweenTurns(seats[0], tuple(seats[1:])))


def _reopen_window(state: GameState) -> None:
    """Somebody acted in the window and what it started is resolved: ask everybody again."""
    seats = _window_seats(state) if _window_open(state) else []
    if seats:
        state.pending[-1] = BetweenTurns(seats[0], tuple(seats[1:]))
    else:
        state.pending.pop()


def _before_scoring(state: GameState, round_no: int, base: int, events: list[Event] | None) -> bool:
    """Let the modules' ``before_scoring`` act before scoring round ``round_no`` (``state.flow``
    counts from ``base``). True when one pushed a pending decision: the flow comes back here
    once it is resolved, to the next module."""
    if not state.config.modules:
        return False
    users = _users(state, "before_scoring")
    while state.flow - base < len(users):
        m = users[state.flow - base]
        state.flow += 1
        m.before_scoring(state, round_no, _sink(events))
        if state.pending:
            return True
    return False


def _run_scoring_queue(state: GameState, events: list[Event] | None, limit: int | None = None) -> None:
    done = 0
    while state.scoring_queue and (limit is None or done < limit):
        done += 1
        rnd = state.scoring_queue.pop(0)
        _score_round(state, rnd, events)
        if state.neutral is not None:
            k = NEUTRAL_AFTER_FIRST_SCORING if rnd == 1 else len(state.bag) // 3
            k = min(k, len(state.bag))
            got = [_shown(state, _draw_tile(state)) for _ in range(k)]
            state.neutral.extend(got)
            if events is not None:
                events.append(NeutralTilesReceived(tuple(state.components.tiles[t].code for t in got)))


def unbuilt_tiles(state: GameState, seat: int) -> set[int]:
    """Tiles of ``seat``'s Alhambra (``-1``: the neutral player's tiles) that are not buildings
    yet (``Module.unbuilt_tiles``: a building site): nothing that goes into a building (a treasure chest, a citizen) goes there."""
    out: set[int] = set()
    for m in _users(state, "unbuilt_tiles"):
        out.update(m.unbuilt_tiles(state, seat))
    return out


def building_counts(state: GameState, seat: int) -> dict[str, int]:
    """Buildings per kind that ``seat`` scores with (``-1``: the neutral player), modules included."""
    comp = state.components
    tiles: Iterable[int] = state.neutral or () if seat < 0 else state.players[seat].city.values()
    counts = dict.fromkeys(comp.kinds, 0)
    for t in tiles:
        k = comp.tiles[t].kind
        if k in counts:
            counts[k] += 1
    for m in _users(state, "building_counts"):
        m.building_counts(state, seat, counts)
    return counts


def kind_points(state: GameState, round_no: int, kind: str) -> tuple[int, ...]:
    """The points for 1st, 2nd ... most buildings of ``kind`` in scoring round ``round_no``
    (1-3) in a game with table scoring: a module's (``Module.kind_points``, the first in id
    order that answers) or the ruleset's table. Empty for a game without a table (Granada)."""
    if state.config.modules:
        for m in _users(state, "kind_points"):
            got = m.kind_points(state, round_no, kind)
            if got is not None:
                return got
    rules = state.components.ruleset or ruleset()
    if rules.scoring != "table":
        return ()
    return rules.points[kind][round_no - 1]


def dearest_buildings(state: GameState, seat: int) -> dict[str, int]:
    """The price of the most expensive building of each kind ``seat`` has built (``-1``: the
    neutral player); kinds it has none of are left out. Granada breaks ties with it."""
    comp = state.components
    tiles: Iterable[int] = state.neutral or () if seat < 0 else state.players[seat].city.values()
    out: dict[str, int] = {}
    for t in tiles:
        tt = comp.tiles[t]
        if tt.price > out.get(tt.kind, 0):
            out[tt.kind] = tt.price
    return out


def _score_round(state: GameState, rnd: int, events: list[Event] | None) -> None:
    n = state.config.players
    seats = list(range(n)) + ([-1] if state.neutral is not None else [])
    counts = [building_counts(state, s) for s in seats]
    kinds: dict[str, tuple[int, ...]] = {}
    kind_counts: dict[str, tuple[int, ...]] = {}
    points = [0] * len(seats)
    comp = state.components
    rules = comp.ruleset or ruleset()
    dearest = [dearest_buildings(state, s) for s in seats] if rules.scoring != "table" else []
    table = bool(state.config.modules) and rules.scoring == "table" and bool(_users(state, "kind_points"))
    for kind in comp.kinds:
        c = [cnt.get(kind, 0) for cnt in counts]
        if table:
            aw = majority_awards(c, kind_points(state, rnd, kind))
        else:
            aw = rules.round_points(rnd, c, [d.get(kind, 0) for d in dearest] if dearest else c, kind)
        kinds[kind] = tuple(aw)
        kind_counts[kind] = tuple(c)
        for i, a in enumerate(aw):
            points[i] += a
    walls = tuple(geo.longest_wall(state.players[s].city, state.components.tile_walls) for s in range(n))
    extra: dict[str, tuple[int, ...]] = {}
    for m in _users(state, "round_points"):
        got = m.round_points(state, rnd)
        if got is not None:
            extra[m.id] = tuple(got)
            for s in range(len(points) if len(got) > n else n):  # an entry past the seats: the neutral player's
                points[s] += got[s]
    for s in range(n):
        points[s] += walls[s]
        state.scores[s] += points[s]
    neutral_points = points[n] if state.neutral is not None else 0
    state.neutral_score += neutral_points
    state.rounds_scored += 1
    state.score_history.append(tuple(state.scores))
    if events is not None:
        events.append(
            RoundScored(
                round=rnd,
                kinds=kinds,
                counts=kind_counts,
                walls=walls,
                points=tuple(points[:n]),
                extra=extra,
                scores=tuple(state.scores),
                neutral_points=neutral_points,
                neutral_score=state.neutral_score,
            )
        )
    if state.config.modules:
        for m in _users(state, "round_scored"):
            m.round_scored(state, rnd, _sink(events))
        state.score_history[-1] = tuple(state.scores)


def add_points(state: GameState, seat: int, delta: int, floor: int | None = None) -> int:
    """Add ``delta`` points to ``seat``'s score (a module's adjustment, e.g. after a scoring
    round); with ``floor`` a loss never takes the score below it (a score already below stays
    where it is). Returns the change actually made."""
    score = state.scores[seat]
    new = score + delta
    if floor is not None and delta < 0:
        new = max(new, min(score, floor))
    state.scores[seat] = new
    return new - score


def money_of(state: GameState, seat: int, currency: int) -> int:
    """A seat's money of one currency for the end-of-game hand-out: the money cards in the hand
    plus what modules hold for it outside the hand (``Module.held_money``)."""
    comp = state.components
    total = sum(comp.card_value[c] for c in state.players[seat].hand if comp.card_is_money[c] and comp.card_currency[c] == currency)
    if state.config.modules:
        for m in _users(state, "held_money"):
            total += m.held_money(state, seat, currency)
    return total


def _start_final(state: GameState, events: list[Event] | None) -> None:
    """The market could not be refilled: hand out the remaining market tiles, then score."""
    state.stage = STAGE_FINAL
    state.flow = 0
    for m in _users(state, "final_starting"):
        m.final_starting(state, _sink(events))
    n = state.config.players
    got: dict[int, list[str]] = {}
    for sq in range(MARKET_SIZE):
        t = state.market[sq]
        if t < 0:
            continue
        cur = state.market_currency[sq]
        amounts = [money_of(state, s, cur) for s in range(n)]
        best = max(amounts)
        if best > 0 and amounts.count(best) == 1:
            s = amounts.index(best)
            state.market[sq] = -1
            code = state.components.tiles[t].code
            got.setdefault(s, []).append(code)
            if events is not None:
                events.append(MarketTileAwarded(s, sq + 1, code))
    order = [(state.current + 1 + i) % n for i in range(n)]
    for s in reversed(order):
        if s in got:
            state.pending.append(PlaceTiles(s, tuple(got[s]), False, "final"))


def _end_game(state: GameState, outcome: str, events: list[Event] | None) -> None:
    state.outcome = outcome
    state.stage = STAGE_OVER
    state.pending.clear()
    if events is not None:
        events.append(GameEnded(outcome, tuple(state.scores), winners(state)))


def winners(state: GameState) -> tuple[int, ...]:
    """Seats with the highest score (several on a tie: a shared win)."""
    best = max(state.scores)
    return tuple(s for s, v in enumerate(state.scores) if v == best)
