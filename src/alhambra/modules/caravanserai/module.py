"""Caravanserai: eight cards whose marker is money of a changing value and currency.

Flow (all through the plug-in hooks of protocol 2):

* ``offers``: every card still in the stack is an offer ``caraN`` for the seat to act on its own
  turn (never out of turn, so never with the vizier): 8 / 4 / 2 with 4 / 5 / 6 different base
  building kinds built in the Alhambra (the reserve board does not count), in any one currency;
  an exact payment gives another action. The first card needs 4 kinds, the second 5; nobody holds
  more than 2. ``offer_bought`` lays the card in front of the buyer with its marker on 0.
* ``turn_started``: at the beginning of a normal turn a seat whose markers can move is asked
  first (:class:`CaravanseraiMove`): move ONE marker one step forward (``cara move caraN
  forward``) or sideways into the branch at its level (``cara move caraN side``), or leave them
  (``cara stay``). The vizier's purchases are no turns, so they never ask.
* ``money_sources``: a marker on a value above 0 pays like a money card of its currency and value
  (token ``kN`` for card N) wherever that currency may pay; ``source_spent`` sends it back to 0
  and ``purchase_made`` logs that (:class:`CaravanseraiMarkerSpent`).
* ``held_money``: the current value of every marker counts in the end-of-game hand-out.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any, Final

from ...actions import Action, register_action
from ...components import CURRENCIES, CURRENCY_NAMES, KINDS
from ...engine.services import building_counts
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module, MoneySource, Offer, Purchase
from ...slices import slice_reader
from ...state import GameConfig, GameState, Pending

MODULE_ID: Final = "caravanserai"
ITEM_PREFIX: Final = "cara"
"""Card N is the item ``caraN`` (``buy cara3 g4+g4``, ``cara move cara3 forward``)."""
TOKEN_PREFIX: Final = "k"
"""The marker of card N pays as the token ``kN`` (``buy 2 k3+b4``)."""
BRANCH: Final = 10
"""A marker spot is its level 0-5 on the main column, or ``BRANCH`` + level in the branch at that level."""
DIRECTIONS: Final = ("forward", "side")


# ---------------------------------------------------------------------------------- components
@dataclass(frozen=True, slots=True)
class CardFacts:
    """One caravanserai card: its number (1-8), its own currency (main column) and the currency
    of the branch at each branch level."""

    number: int
    currency: int
    branches: tuple[tuple[int, int], ...]
    """(level, currency) of each branch, by level."""
    assumed: bool

    @property
    def item(self) -> str:
        """The card's notation word (``cara3``)."""
        return f"{ITEM_PREFIX}{self.number}"

    @property
    def token(self) -> str:
        """The token of its marker in payments (``k3``)."""
        return f"{TOKEN_PREFIX}{self.number}"

    def branch_currency(self, level: int) -> int | None:
        """The currency of the branch at ``level`` (None: no branch there)."""
        return next((c for lv, c in self.branches if lv == level), None)


@dataclass(frozen=True, slots=True)
class Components:
    """The module's component facts, read from ``components.json``."""

    prices: tuple[tuple[int, int], ...]
    """(kinds built, price), by kinds."""
    kinds_needed: tuple[int, ...]
    """Kinds built needed for the 1st, 2nd... card (its length is the most cards a player holds)."""
    top_level: int
    branch_levels: tuple[int, ...]
    cards: tuple[CardFacts, ...]
    marker_cubes: int

    @property
    def max_cards(self) -> int:
        """The most caravanserai cards one player may hold."""
        return len(self.kinds_needed)


@cache
def components() -> Components:
    """The component facts of ``components.json`` (checked when read)."""
    data = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    prices = tuple(sorted((int(p["kinds"]), int(p["price"])) for p in data["prices"]))
    levels = tuple(int(v) for v in data["branch_levels"])
    top = int(data["top_level"])
    cards: list[CardFacts] = []
    for i, c in enumerate(data["cards"], 1):
        cur = CURRENCIES.index(c["currency"])
        branches = tuple(sorted((int(lv), CURRENCIES.index(b)) for lv, b in c["branches"].items()))
        if int(c["number"]) != i or tuple(lv for lv, _ in branches) != levels:
            raise ValueError(f"caravanserai/components.json: card {i} is inconsistent")
        if sorted(b for _, b in branches) != sorted(set(range(len(CURRENCIES))) - {cur}):
            raise ValueError(f"caravanserai/components.json: card {i} must branch once to each other currency")
        cards.append(CardFacts(i, cur, branches, "assumption" in c))
    if not all(0 < lv < top for lv in levels) or top >= BRANCH or len(cards) > 9:
        raise ValueError("caravanserai/components.json: bad track shape")
    return Components(prices, tuple(int(k) for k in data["kinds_needed"]), top, levels, tuple(cards), int(data["marker_cubes"]))


def card_facts(number: int) -> CardFacts:
    """The facts of card ``number`` (1-8)."""
    return components().cards[number - 1]


def card_number(item: str) -> int:
    """The number of the card ``caraN``; :class:`NotationError` for anything else."""
    n = len(components().cards)
    if item.startswith(ITEM_PREFIX) and item[len(ITEM_PREFIX) :].isdigit():
        k = int(item[len(ITEM_PREFIX) :])
        if 1 <= k <= n:
            return k
    raise NotationError(f"{item!r} is no caravanserai card (cara1-cara{n})")


def token_number(token: str) -> int | None:
    """The card number of a marker token ``kN`` (None for any other code)."""
    if token.startswith(TOKEN_PREFIX) and token[len(TOKEN_PREFIX) :].isdigit():
        k = int(token[len(TOKEN_PREFIX) :])
        if 1 <= k <= len(components().cards):
            return k
    return None


def price_for(kinds: int) -> int | None:
    """The price of a card with ``kinds`` different base kinds built (None: too few kinds)."""
    got = None
    for k, p in components().prices:
        if kinds >= k:
            got = p
    return got


# ---------------------------------------------------------------------------------- the track
def spot_value(spot: int) -> int:
    """The money value of a marker spot."""
    return spot - BRANCH if spot >= BRANCH else spot


def spot_currency(card: CardFacts, spot: int) -> int:
    """The currency a marker spot of ``card`` pays in."""
    if spot >= BRANCH:
        cur = card.branch_currency(spot - BRANCH)
        assert cur is not None
        return cur
    return card.currency


def valid_spot(card: CardFacts, spot: int) -> bool:
    """Whether ``spot`` is a spot of ``card``'s track."""
    if spot >= BRANCH:
        return card.branch_currency(spot - BRANCH) is not None
    return 0 <= spot <= components().top_level


def moves(card: CardFacts, spot: int) -> list[tuple[str, int]]:
    """The steps a marker on ``spot`` may take, as (direction, new spot): forward up the main
    column, or sideways into the branch at its level. A branch is a dead end."""
    if spot >= BRANCH:
        return []
    out: list[tuple[str, int]] = []
    if spot < components().top_level:
        out.append(("forward", spot + 1))
    if card.branch_currency(spot) is not None:
        out.append(("side", BRANCH + spot))
    return out


def spot_words(card: CardFacts, spot: int) -> str:
    """``3 green`` (the value and currency of a spot)."""
    return f"{spot_value(spot)} {CURRENCIES[spot_currency(card, spot)]}"


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class CaravanseraiState:
    """The module's state slice (all public), one entry per card (card N at index N-1).

    ``owners``: the seat holding each card, -1 while it is in the stack beside the market.
    ``spots``: where each card's marker stands (0-5 on the main column, ``BRANCH`` + level in a branch).
    ``spent``: markers spent by the payment being made, as (card, currency, value), until
    ``purchase_made`` logs them (empty between actions).
    """

    owners: tuple[int, ...]
    spots: tuple[int, ...]
    spent: tuple[tuple[int, int, int], ...] = ()

    def owned(self, seat: int) -> list[int]:
        """The numbers of the cards ``seat`` holds."""
        return [i + 1 for i, o in enumerate(self.owners) if o == seat]

    def stack(self) -> list[int]:
        """The numbers of the cards nobody holds yet."""
        return [i + 1 for i, o in enumerate(self.owners) if o < 0]

    def with_card(self, number: int, owner: int | None = None, spot: int | None = None) -> CaravanseraiState:
        """A copy with card ``number``'s owner and/or marker spot changed."""
        owners = list(self.owners)
        spots = list(self.spots)
        if owner is not None:
            owners[number - 1] = owner
        if spot is not None:
            spots[number - 1] = spot
        return CaravanseraiState(tuple(owners), tuple(spots), self.spent)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"owners": list(self.owners), "spots": list(self.spots), "spent": [list(s) for s in self.spent]}

    @classmethod
    def from_dict(cls, data: Any) -> CaravanseraiState:
        """Read the JSON form back (:class:`NotationError` on junk)."""
        n = len(components().cards)
        if not isinstance(data, dict) or set(data) != {"owners", "spots", "spent"}:
            raise NotationError(f"bad caravanserai state {data!r}")
        owners, spots, spent = data["owners"], data["spots"], data["spent"]
        if not (isinstance(owners, list) and isinstance(spots, list) and len(owners) == len(spots) == n):
            raise NotationError(f"bad caravanserai cards {data!r}")
        if not all(type(v) is int for v in owners + spots) or any(o < -1 for o in owners):
            raise NotationError(f"bad caravanserai cards {data!r}")
        if not all(valid_spot(card_facts(i + 1), s) for i, s in enumerate(spots)):
            raise NotationError(f"bad caravanserai marker spots {spots!r}")
        if not (isinstance(spent, list) and all(isinstance(s, list) and len(s) == 3 and all(type(v) is int for v in s) for s in spent)):
            raise NotationError(f"bad spent caravanserai markers {spent!r}")
        return cls(tuple(owners), tuple(spots), tuple((s[0], s[1], s[2]) for s in spent))


# ---------------------------------------------------------------------------------- pending
@dataclass(frozen=True, slots=True)
class CaravanseraiMove(Pending):
    """The first thing of ``seat``'s turn: move one caravanserai marker one step
    (``cara move caraN forward|side``) or leave them (``cara stay``)."""

    module = MODULE_ID
    seat: int


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class CaravanseraiStep(Action):
    """Move the marker of caravanserai card ``card`` (``caraN``) one step: ``forward`` up the
    main column or ``side`` into the branch at its level."""

    module = MODULE_ID
    keyword = "cara move"
    grammar = ("item", "word:forward|side")
    card: str
    direction: str


@dataclass(frozen=True, slots=True)
class CaravanseraiStay(Action):
    """Leave every caravanserai marker where it is this turn."""

    module = MODULE_ID
    keyword = "cara stay"
    grammar = ()

    declines = True


def _card_item(word: str) -> str:
    """The item word of a caravanserai card (``cara3``, any case); :class:`NotationError` for another."""
    card = word.lower()
    card_number(card)
    return card


register_action(CaravanseraiStep, item=_card_item)
register_action(CaravanseraiStay)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class CaravanseraiMarkerMoved(Event):
    """A player moved the marker of card ``card`` (``caraN``) one step ``direction``; it now
    stands on ``value`` in ``currency``."""

    seat: int
    card: str
    direction: str
    currency: str
    value: int

    def describe(self) -> str:
        way = "forward" if self.direction == "forward" else "sideways"
        return f"{_p(self.seat)} moves the marker of {_card_words(self.card)} {way} to {_money_words(self.value, self.currency)}"


@dataclass(frozen=True, slots=True)
class CaravanseraiMarkersStayed(Event):
    """A player left the caravanserai markers where they are this turn."""

    seat: int

    def describe(self) -> str:
        return f"{_p(self.seat)} leaves the caravanserai markers where they are"


@dataclass(frozen=True, slots=True)
class CaravanseraiMarkerSpent(Event):
    """The marker of card ``card`` paid ``value`` in ``currency`` and went back to 0."""

    seat: int
    card: str
    currency: str
    value: int

    def describe(self) -> str:
        return f"{_p(self.seat)} spends {_card_words(self.card)} as {_money_words(self.value, self.currency)}; its marker goes back to 0"


# ---------------------------------------------------------------------------------- helpers
def _card_words(item: str) -> str:
    """A card in words for the log: ``cara3`` -> "caravanserai card 3"."""
    return f"caravanserai card {item.removeprefix(ITEM_PREFIX)}"


def _money_words(value: int, currency: str) -> str:
    """An amount in words for the log: (3, "yellow") -> "3 florin"."""
    return f"{value} {CURRENCY_NAMES.get(currency, currency)}"


cara_slice: Final = slice_reader(MODULE_ID, CaravanseraiState)
"""The module's slice of ``state``."""


def kinds_built(state: GameState, seat: int) -> int:
    """How many of the 6 base building kinds ``seat`` has built in the Alhambra (the reserve
    board does not count; modules that change the scoring counts change this too)."""
    counts = building_counts(state, seat)
    return sum(1 for k in KINDS if counts.get(k, 0) > 0)


def seat_price(state: GameState, seat: int) -> int | None:
    """What a caravanserai card costs ``seat`` now (None: it may not buy one)."""
    comp = components()
    held = len(cara_slice(state).owned(seat))
    if held >= comp.max_cards:
        return None
    kinds = kinds_built(state, seat)
    if kinds < comp.kinds_needed[held]:
        return None
    return price_for(kinds)


IDLE: Final = 0.7
"""What a marker that cannot climb (at the top or in a branch) loses for the bots, in coins."""

_WAYS: Final = tuple(frozenset((c,)) for c in range(len(CURRENCIES)))
"""Any one base currency (one-currency ways also take the modules' payment options)."""


# ---------------------------------------------------------------------------------- module
class Caravanserai(Module):
    """Caravanserai."""

    id = MODULE_ID
    title = "Caravanserai"
    summary = "Caravanserai cards, for players of many kinds, pay out growing money."
    description = (
        "Eight caravanserai cards, bought for 8, 4 or 2 by players with 4, 5 or 6 kinds of buildings. "
        "At the start of each turn one marker moves one step up its card's track; the card pays as money of the "
        "marker's value and currency, and its marker then starts again from 0."
    )
    assumptions = (
        "All cards of the stack are open to choose from ('picks one'): each is offered as its own item cara1-cara8.",
        "The kinds built are counted as the scoring counts them: buildings in the Alhambra only (not the reserve), the six "
        "base kinds only, and modules that change a player's counts (a played bonus card, a building site not yet "
        "completed) change them here too.",
        "The price is the price for the kinds built at the moment of buying (5 kinds: 4 for the first card as well as the "
        "second); the second card needs 5 kinds even when the first was bought with 6.",
        "The price may be overpaid (no change is given for a caravanserai card); an exact payment gives another action. "
        "Several cards may be bought in one turn.",
        "A marker at 0 is no money. A card's marker pays as one money card: it cannot be split, it may pay together with "
        "hand cards of its currency, it pays wherever money of its currency may pay (market squares, offers, the vizier's "
        "exact purchases, another caravanserai card) and with modules' payment options (exchange cards) like a card.",
        "The marker move is a decision at the very beginning of the player's own turn, before the turn's first action; "
        "when no marker of the player can move (all at 5 or in a branch) nobody is asked.",
        "A marker in a branch stays there (a dead end) until the card is spent.",
        "Caravanserai cards are no building purchases: buying one never gives change coins or stores an overpayment on "
        "an exchange certificate.",
    )
    component_assumptions = (
        "The tracks of 5 of the 8 cards (a blue, a green and an orange card are pictured): 2 cards per currency, and over "
        "all 8 cards each currency is the branch of exactly 2 cards at each of the levels 2, 3 and 4 (components.json).",
    )

    # ----- setup ------------------------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """All 8 cards lie in the stack beside the market."""
        n = len(components().cards)
        state.mods[self.id] = CaravanseraiState((-1,) * n, (0,) * n)

    def notation_items(self, config: GameConfig) -> list[str]:
        """``cara1`` ... ``cara8``: the items of ``buy ITEM CARDS`` and ``cara move``."""
        return [c.item for c in components().cards]

    def payment_tokens(self, config: GameConfig) -> list[str]:
        """``k1`` ... ``k8``: the markers in payments."""
        return [c.token for c in components().cards]

    def max_actions_between_turns(self, config: GameConfig) -> int:
        """The marker move and up to two card purchases a turn may have beyond the core's count
        (this bound only sizes the research game length)."""
        return 1 + components().max_cards

    # ----- purchases ----------------------------------------------------------------------
    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        """Every card of the stack, in the seat's own turn only, at the seat's price."""
        if out_of_turn:
            return []
        sl = state.mods.get(self.id)
        if not isinstance(sl, CaravanseraiState) or -1 not in sl.owners:
            return []
        price = seat_price(state, seat)
        if price is None:
            return []
        out = []
        for n in sl.stack():
            card = card_facts(n)
            label = f"{_card_words(card.item)} ({CURRENCY_NAMES[CURRENCIES[card.currency]]})"
            out.append(Offer(card.item, self.id, price, _WAYS, label=label))
        return out

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        """The buyer lays the card face up in front of them, its marker on 0."""
        state.mods[self.id] = cara_slice(state).with_card(card_number(offer.item), owner=seat, spot=0)

    def money_sources(self, state: GameState, seat: int) -> list[MoneySource]:
        """Every marker of the seat above 0: money of the marker's currency and value."""
        sl = state.mods.get(self.id)
        if not isinstance(sl, CaravanseraiState):
            return []
        out = []
        for i, o in enumerate(sl.owners):
            if o == seat and sl.spots[i]:
                card = card_facts(i + 1)
                spot = sl.spots[i]
                out.append(MoneySource(card.token, spot_currency(card, spot), spot_value(spot), self.id))
        return out

    def source_spent(self, state: GameState, seat: int, source: MoneySource) -> None:
        """The spent marker goes back to 0 (logged by ``purchase_made``)."""
        n = token_number(source.token)
        sl = cara_slice(state)
        assert n is not None and sl.owners[n - 1] == seat
        moved = sl.with_card(n, spot=0)
        state.mods[self.id] = replace(moved, spent=(*sl.spent, (n, source.currency, source.value)))

    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        """Log the markers the purchase spent."""
        sl = state.mods.get(self.id)
        if isinstance(sl, CaravanseraiState) and sl.spent:
            for n, cur, value in sl.spent:
                events.append(CaravanseraiMarkerSpent(purchase.seat, card_facts(n).item, CURRENCIES[cur], value))
            state.mods[self.id] = replace(sl, spent=())

    def held_money(self, state: GameState, seat: int, currency: int) -> int:
        """The current value of the seat's markers in ``currency`` (the end-of-game hand-out)."""
        return sum(s.value for s in self.money_sources(state, seat) if s.currency == currency)

    # ----- the marker move ----------------------------------------------------------------
    def turn_started(self, state: GameState, seat: int, events: list[Event]) -> None:
        """A normal turn begins: a seat with a marker that can move is asked first."""
        sl = state.mods.get(self.id)
        if isinstance(sl, CaravanseraiState) and seat in sl.owners and self._steps(sl, seat):
            state.pending.append(CaravanseraiMove(seat))

    @staticmethod
    def _steps(sl: CaravanseraiState, seat: int) -> list[CaravanseraiStep]:
        return [CaravanseraiStep(card_facts(n).item, d) for n in sl.owned(seat) for d, _ in moves(card_facts(n), sl.spots[n - 1])]

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """Every one-step move of one of the seat's markers, and staying."""
        if not isinstance(pending, CaravanseraiMove):
            return []
        return [*self._steps(cara_slice(state), pending.seat), CaravanseraiStay()]

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is a legal marker move now."""
        top = state.pending[-1] if state.pending else None
        if not isinstance(action, CaravanseraiStep | CaravanseraiStay):
            raise IllegalAction(f"{action} is not a caravanserai action")
        if not isinstance(top, CaravanseraiMove):
            raise WrongPhase("a caravanserai marker moves only as the first thing of its owner's own turn")
        if isinstance(action, CaravanseraiStay):
            return
        n = card_number(action.card)
        sl = cara_slice(state)
        if sl.owners[n - 1] != top.seat:
            raise IllegalAction(f"{action.card} is not one of your caravanserai cards")
        if action.direction not in DIRECTIONS:
            raise IllegalAction(f"a marker moves forward or side, not {action.direction!r}")
        card = card_facts(n)
        spot = sl.spots[n - 1]
        if not any(d == action.direction for d, _ in moves(card, spot)):
            if spot >= BRANCH:
                raise IllegalAction(f"the marker of {action.card} is in a branch (a dead end): it moves again only after it is spent")
            if action.direction == "forward":
                raise IllegalAction(f"the marker of {action.card} is at the top ({spot}) of its track")
            levels = ", ".join(map(str, components().branch_levels))
            raise IllegalAction(f"{action.card} has no branch at {spot}: markers turn aside only at {levels}")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Move the marker (or not) and go on with the turn."""
        top = state.pending[-1]
        assert isinstance(top, CaravanseraiMove)
        if isinstance(action, CaravanseraiStep):
            n = card_number(action.card)
            sl = cara_slice(state)
            card = card_facts(n)
            spot = dict(moves(card, sl.spots[n - 1]))[action.direction]
            state.mods[self.id] = sl.with_card(n, spot=spot)
            cur = CURRENCIES[spot_currency(card, spot)]
            events.append(CaravanseraiMarkerMoved(top.seat, action.card, action.direction, cur, spot_value(spot)))
        else:
            events.append(CaravanseraiMarkersStayed(top.seat))
        state.pending.pop()

    # ----- bots ----------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """A card is money now (its marker's value) and money to come (a little more than half a
        coin per own turn left; a bit less while its marker cannot climb: at the top or in a
        branch, until it is spent), at the greedy bot's default rate for money, which
        fades as the bag empties; a marker that makes a market tile affordable adds a little
        buying power."""
        sl = state.mods.get(self.id)
        if not isinstance(sl, CaravanseraiState) or all(o < 0 for o in sl.owners):
            return None
        n = state.config.players
        bag_left = len(state.bag) / max(1, len(state.components.tiles))
        rate = 0.06 + 0.22 * bag_left
        turns_left = len(state.bag) / (0.6 * n)
        out = [0.0] * n
        extra: list[list[int]] = [[0] * len(CURRENCIES) for _ in range(n)]
        for i, o in enumerate(sl.owners):
            if o < 0:
                continue
            spot = sl.spots[i]
            card = card_facts(i + 1)
            value = spot_value(spot)
            idle = 0.0 if moves(card, spot) else IDLE
            out[o] += rate * (value + 0.6 * turns_left - idle)
            if value:
                extra[o][spot_currency(card, spot)] += value
        comp = state.components
        for s in range(n):
            if not any(extra[s]):
                continue
            purse = [0] * len(comp.currencies)
            for c in state.players[s].hand:
                if comp.card_is_money[c]:
                    purse[comp.card_currency[c]] += comp.card_value[c]
            for sq, t in enumerate(state.market):
                cur = state.market_currency[sq]
                if t >= 0 and extra[s][cur] and purse[cur] < comp.tile_price[t] <= purse[cur] + extra[s][cur]:
                    out[s] += 0.5
        return out

    # ----- views, persistence ------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Everything is public: every card with its track, owner and marker; what a card costs
        each player now (None: may not buy one); the price table."""
        sl = cara_slice(state)
        comp = components()
        cards = []
        for i, facts in enumerate(comp.cards):
            spot = sl.spots[i]
            cards.append(
                {
                    "card": facts.item,
                    "number": facts.number,
                    "token": facts.token,
                    "currency": CURRENCIES[facts.currency],
                    "branches": [[lv, CURRENCIES[c]] for lv, c in facts.branches],
                    "owner": sl.owners[i] if sl.owners[i] >= 0 else None,
                    "spot": spot,
                    "level": spot_value(spot),
                    "in_branch": spot >= BRANCH,
                    "marker_currency": CURRENCIES[spot_currency(facts, spot)],
                    "value": spot_value(spot),
                    "moves": [[d, CURRENCIES[spot_currency(facts, to)], spot_value(to)] for d, to in moves(facts, spot)],
                    "assumed": facts.assumed,
                }
            )
        players = state.config.players
        return {
            "cards": cards,
            "top_level": comp.top_level,
            "branch_levels": list(comp.branch_levels),
            "prices": [list(p) for p in comp.prices],
            "kinds_needed": list(comp.kinds_needed),
            "max_cards": comp.max_cards,
            "kinds": [kinds_built(state, s) for s in range(players)],
            "price": [seat_price(state, s) for s in range(players)],
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        cards = module_view["cards"]
        return CaravanseraiState(tuple(-1 if c["owner"] is None else int(c["owner"]) for c in cards), tuple(int(c["spot"]) for c in cards))

    def slice_to_json(self, value: Any) -> Any:
        """``{"owners": [seat or -1 per card], "spots": [...], "spent": [[card, currency, value]...]}``."""
        assert isinstance(value, CaravanseraiState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`CaravanseraiState`."""
        return CaravanseraiState.from_dict(data)


MODULE: Final = Caravanserai()
"""Caravanserai (Big Box module ``caravanserai``): see ``README.md``."""
