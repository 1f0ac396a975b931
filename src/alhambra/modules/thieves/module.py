"""The thieves: secret cards that take one face-up money card between turns.

Flow (all through the plug-in hooks of protocol 2):

* ``setup`` shuffles the 12 thieves (3 per currency) and deals them face down (4 each with 2 and
  3 players, 3 with 4, 2 with 5 and 6); the rest are removed face down. Everything lives in the
  module's slice (:class:`ThievesState`): the thieves are not cards of the money deck.
* Between turns the core opens its shared window (``BetweenTurns``) and asks, in priority order
  (the seat due to play next first, the seat that has just finished last), every seat for which
  ``may_interrupt`` is True: every seat that holds a thief (the count is public), except the seat
  due to play next ("the player whose turn it is may not play a thief").
* ``interrupt_actions`` lists ``thief CARD`` for every money card of the display whose currency
  matches a thief of the seat; the core adds ``pass``. Playing a thief moves the card into the
  hand, removes the thief from the game (face up) and refills the display at once
  (``engine.refill_display``). The core then asks every seat again from the top of the order, so
  several thieves (and then a vizier) may be played one after another.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Final

from ...actions import Action, register_action
from ...components import CURRENCIES, KINDS, ComponentSet
from ...engine.services import module_deal, refill_display
from ...errors import ConfigError, IllegalAction, NotationError, WrongPhase
from ...events import Event, MoneyTaken
from ...hooks import Module
from ...slices import slice_reader
from ...state import BetweenTurns, GameConfig, GameState

MODULE_ID: Final = "thieves"


# ---------------------------------------------------------------------------------- components
def _load_components() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    return data


_DATA: Final = _load_components()
PER_CURRENCY: Final[int] = int(_DATA["thieves"]["per_currency"])
"""Thief cards of each currency (3)."""
THIEF_CURRENCIES: Final[tuple[int, ...]] = tuple(CURRENCIES.index(c) for c in _DATA["thieves"]["currencies"])
"""The currencies (indices into ``CURRENCIES``) that have thieves: all four."""
DEALT: Final[dict[int, int]] = {int(k): int(v) for k, v in _DATA["dealt_per_player"].items()}
"""Thieves dealt to each player, by number of players."""
ALL_THIEVES: Final[tuple[int, ...]] = tuple(c for c in THIEF_CURRENCIES for _ in range(PER_CURRENCY))
"""The 12 thief cards as currencies, sorted."""


def currency_name(currency: int) -> str:
    """``0`` -> ``"blue"``."""
    return CURRENCIES[currency]


def _currency_of_name(name: Any) -> int:
    if not isinstance(name, str) or name not in CURRENCIES:
        raise NotationError(f"bad thief currency {name!r} (one of {', '.join(CURRENCIES)})")
    return CURRENCIES.index(name)


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class ThievesState:
    """The module's state slice.

    ``hands[seat]``: the currencies of the thieves a seat still holds (sorted; secret from the
    other seats, who see the count). ``aside``: the thieves removed face down at setup (sorted;
    unknown to everybody). ``played``: ``(seat, currency)`` of every thief played, in order
    (public; those thieves are out of the game).
    """

    hands: tuple[tuple[int, ...], ...]
    aside: tuple[int, ...]
    played: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form (currencies by name)."""
        return {
            "hands": [[currency_name(c) for c in h] for h in self.hands],
            "aside": [currency_name(c) for c in self.aside],
            "played": [[s, currency_name(c)] for s, c in self.played],
        }

    @classmethod
    def from_dict(cls, data: Any) -> ThievesState:
        """Read the JSON form back (:class:`NotationError` on junk)."""
        if not isinstance(data, dict) or set(data) != {"hands", "aside", "played"}:
            raise NotationError(f"bad thieves state {data!r}")
        hands, aside, played = data["hands"], data["aside"], data["played"]
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands) or not isinstance(aside, list):
            raise NotationError(f"bad thieves state {data!r}")
        if not isinstance(played, list) or not all(
            isinstance(p, list) and len(p) == 2 and isinstance(p[0], int) and not isinstance(p[0], bool) and 0 <= p[0] < len(hands)
            for p in played
        ):
            raise NotationError(f"bad played thieves {played!r}")
        value = cls(
            tuple(tuple(sorted(_currency_of_name(c) for c in h)) for h in hands),
            tuple(sorted(_currency_of_name(c) for c in aside)),
            tuple((int(p[0]), _currency_of_name(p[1])) for p in played),
        )
        if sorted(value.all_thieves()) != list(ALL_THIEVES):
            raise NotationError(f"the thieves state does not hold the {len(ALL_THIEVES)} thieves exactly once: {data!r}")
        return value

    def all_thieves(self) -> list[int]:
        """Every thief's currency, wherever it is (for the conservation check: always the 12)."""
        out = [c for h in self.hands for c in h] + list(self.aside) + [c for _, c in self.played]
        return out

    def after_play(self, seat: int, currency: int) -> ThievesState:
        """A copy in which ``seat`` has played one thief of ``currency``."""
        hand = list(self.hands[seat])
        hand.remove(currency)
        hands = list(self.hands)
        hands[seat] = tuple(hand)
        return ThievesState(tuple(hands), self.aside, (*self.played, (seat, currency)))


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class ThiefPlay(Action):
    """Between turns: play a thief of ``card``'s currency to take the face-up money card ``card``
    (one card code, e.g. ``b4``) from the display."""

    module = MODULE_ID
    keyword = "thief"
    grammar = ("card",)
    card: str


register_action(ThiefPlay)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class ThiefPlayed(Event):
    """A player played a thief (its currency was secret until now); it is out of the game. The
    money card it took follows as a core ``MoneyTaken`` event, the refill as ``DisplayRefilled``."""

    reveals: ClassVar[bool] = True
    seat: int
    currency: str

    def describe(self) -> str:
        article = "an" if self.currency[:1] in "aeiou" else "a"
        return f"{_p(self.seat)} plays {article} {self.currency} thief"


# ---------------------------------------------------------------------------------- helpers
_slice: Final = slice_reader(MODULE_ID, ThievesState)


def next_seat(state: GameState) -> int:
    """The seat due to play next (between turns ``state.current`` is the seat that just finished)."""
    return (state.current + 1) % state.config.players


def stealable(comp: ComponentSet, card: int, currency: int) -> bool:
    """Whether a thief of ``currency`` may take the display card ``card``: a card that shows this
    currency and a value (a money card; other modules' money cards count, exchange cards do not)."""
    ct = comp.cards[card]
    return ct.currency == currency and ct.value > 0 and ct.kind != "scoring"


def thief_plays(state: GameState, seat: int) -> list[ThiefPlay]:
    """Every ``thief CARD`` that ``seat`` may play now (one per distinct card code)."""
    if seat == next_seat(state):
        return []
    held = set(_slice(state).hands[seat])
    if not held:
        return []
    comp = state.components
    out: list[ThiefPlay] = []
    seen: set[str] = set()
    for c in state.display:
        if c < 0:
            continue
        code = comp.card_code[c]
        if code not in seen and any(stealable(comp, c, cur) for cur in held):
            seen.add(code)
            out.append(ThiefPlay(code))
    return out


_TILE_TOTAL: dict[int, int] = {}


def _building_tiles(comp: ComponentSet) -> int:
    got = _TILE_TOTAL.get(id(comp))
    if got is None:
        got = _TILE_TOTAL[id(comp)] = max(1, sum(1 for t in comp.tiles if t.kind in KINDS))
    return got


THIEF_COINS: Final = 4.5
"""For the bots: a thief held is worth about a money card of this value (a thief takes one card
of its currency; the bots then play it for a card worth more than this)."""


def _redraw(view: dict[str, Any], order: list[int]) -> ThievesState:
    """The slice for a view, with the unseen thieves (``order`` of them: a permutation of the
    unseen pool) dealt into the hidden hands in seat order and the rest set aside."""
    seats = view["seats"]
    played = tuple((int(s), _currency_of_name(c)) for s, c in view["played"])
    hands: list[tuple[int, ...]] = []
    i = 0
    for sv in seats:
        if sv["thieves"] is not None:
            hands.append(tuple(sorted(_currency_of_name(c) for c in sv["thieves"])))
        else:
            k = int(sv["count"])
            hands.append(tuple(sorted(order[i : i + k])))
            i += k
    aside = tuple(sorted(order[i:]))
    return ThievesState(tuple(hands), aside, played)


def _unseen(view: dict[str, Any]) -> list[int]:
    """The thieves a view does not show (hidden hands and the ones set aside), sorted."""
    pool = list(ALL_THIEVES)
    for _, c in view["played"]:
        pool.remove(_currency_of_name(c))
    for sv in view["seats"]:
        for c in sv["thieves"] or ():
            pool.remove(_currency_of_name(c))
    return pool


# ---------------------------------------------------------------------------------- module
class Thieves(Module):
    """The thieves."""

    id = MODULE_ID
    title = "The thieves"
    summary = "Secret thief cards steal a face-up money card after any turn."
    description = (
        "Every player gets secret thief cards (3 per currency in all). After any turn, a player who is not next to play "
        "may play a thief to take one face-up money card of its currency from the display; the display is refilled at once."
    )
    assumptions = (
        "Who may play a thief: every player except the one due to play next ('a player cannot use a thief before his own "
        "turn', 'the player whose turn it is may not play a thief'), including the player whose turn has just ended, who is "
        "asked last. The vizier note 'The player whose turn is just ending may only play a vizier' is read as a slip of the "
        "translation for the player whose turn it is (due next): it repeats the note just above, and the literal reading would "
        "leave thieves unusable with 2 players although 2-player games deal 4 each.",
        "One thief at a time: after each thief the display is refilled and every player is asked again from the top of the "
        "priority order, so a player plays several thieves one after another, and priority decides who gets a card first.",
        "Between turns every player who holds a thief (not the one due next) is asked, also when no display card matches "
        "their thieves: the thieves are secret, so skipping them would tell.",
        "Thieves are played only in the window after a turn (not before the first turn, not once the market could not be "
        "refilled and the last tiles are handed out, not after the last turn of a game with a turn limit).",
        "A thief takes any display card that shows its currency and a value: money cards, also other modules' money cards; "
        "never an exchange card or another card without a single currency.",
        "A scoring card drawn while the display is refilled after a thief is scored at once, before anybody is asked "
        "again (as a card drawn at a turn's end is scored before the window opens).",
        "Thieves are not money: they never pay, never count at the end-of-game hand-out of the last market tiles, and "
        "unplayed thieves are worth nothing at the end.",
    )
    component_assumptions = ()

    # ----- setup ------------------------------------------------------------------------
    def check_config(self, config: GameConfig) -> None:
        """Any player count the rulebook deals for (2-6)."""
        if config.players not in DEALT:
            raise ConfigError(f"the thieves are dealt for 2-6 players, not {config.players}")

    def setup(self, state: GameState, rng: random.Random) -> None:
        """Shuffle the 12 thieves, deal them face down, remove the rest face down."""
        k = DEALT[state.config.players]
        n = state.config.players
        # explicit chance (OpenSpiel): each seat's thieves are chance nodes only that seat sees
        deal = module_deal(state, self.id, [currency_name(c) for c in ALL_THIEVES], [k] * n)
        if deal is not None:
            got, left = deal
            hands = tuple(tuple(sorted(_currency_of_name(c) for c in h)) for h in got)
            state.mods[self.id] = ThievesState(hands, tuple(sorted(_currency_of_name(c) for c in left)))
            return
        pool = list(ALL_THIEVES)
        rng.shuffle(pool)
        hands = tuple(tuple(sorted(pool[s * k : (s + 1) * k])) for s in range(n))
        state.mods[self.id] = ThievesState(hands, tuple(sorted(pool[n * k :])))

    # ----- between turns ----------------------------------------------------------------
    def may_interrupt(self, state: GameState, seat: int) -> bool:
        """A seat that holds a thief (the count is public), unless it is due to play next."""
        return bool(_slice(state).hands[seat]) and seat != next_seat(state)

    def interrupt_actions(self, state: GameState, seat: int) -> list[Action]:
        """``thief CARD`` for every display money card of a currency the seat holds a thief of."""
        return list(thief_plays(state, seat))

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        if not isinstance(action, ThiefPlay):
            raise IllegalAction(f"{action} is not a thieves action")
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, BetweenTurns):
            raise WrongPhase("a thief can be played only between turns, when the game asks you")
        seat = top.seat
        if seat == next_seat(state):
            raise IllegalAction("you play next: the player whose turn it is may not play a thief")
        held = _slice(state).hands[seat]
        if not held:
            raise IllegalAction("you hold no thief")
        comp = state.components
        slot = next((i for i, c in enumerate(state.display) if c >= 0 and comp.card_code[c] == action.card), None)
        if slot is None:
            raise IllegalAction(f"{action.card} is not face up in the display")
        card = state.display[slot]
        ct = comp.cards[card]
        if not any(stealable(comp, card, cur) for cur in THIEF_CURRENCIES):
            raise IllegalAction(f"{action.card} is not a money card: a thief takes one money card of its currency")
        if ct.currency not in held:
            raise IllegalAction(f"you hold no {currency_name(ct.currency)} thief")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Take the card, remove the thief from the game, refill the display."""
        assert isinstance(action, ThiefPlay)
        top = state.pending[-1]
        seat = top.seat
        comp = state.components
        slot = next(i for i, c in enumerate(state.display) if c >= 0 and comp.card_code[c] == action.card)
        card = state.display[slot]
        currency = comp.card_currency[card]
        state.display[slot] = -1
        state.players[seat].hand.append(card)
        state.mods[self.id] = _slice(state).after_play(seat, currency)
        events.append(ThiefPlayed(seat, currency_name(currency)))
        events.append(MoneyTaken(seat, (action.card,)))
        refill_display(state, events)

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Each thief held is worth about a money card of value :data:`THIEF_COINS`, at a rate per
        coin that fades as the bag empties (like the greedy evaluation's money) and falls to 0 over
        the last quarter of the bag: an unplayed thief is worth nothing at the end."""
        hands = _slice(state).hands
        left = len(state.bag) / _building_tiles(state.components)
        rate = (0.06 + 0.22 * left) * min(1.0, 4.0 * left)
        return [THIEF_COINS * rate * len(h) for h in hands]

    # ----- views and persistence --------------------------------------------------------
    def chance_items(self, config: GameConfig) -> list[str]:
        return list(CURRENCIES)  # the thieves, by currency

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: how many thieves each seat holds, how many were removed at setup, every played
        thief. Private: the viewer's own thieves (other seats show ``None``)."""
        value = _slice(state)
        return {
            "per_currency": PER_CURRENCY,
            "counts": [len(h) for h in value.hands],
            "seats": [
                {"count": len(h), "thieves": [currency_name(c) for c in h] if s == viewer else None} for s, h in enumerate(value.hands)
            ],
            "aside_count": len(value.aside),
            "played": [[s, currency_name(c)] for s, c in value.played],
            "next": next_seat(state),
        }

    def observation_counts(self, config: GameConfig) -> tuple[tuple[str, int], ...]:
        """The view's ``counts``: how many thieves each seat holds (public)."""
        return (("counts", PER_CURRENCY * len(THIEF_CURRENCIES)),)

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The slice with the unseen thieves dealt to the hidden hands in a fixed order (the
        counts, the viewer's own thieves and the played ones are as the view shows)."""
        return _redraw(module_view, _unseen(module_view))

    def sample_slice(self, state: GameState, module_view: dict[str, Any], viewer: int, rng: random.Random) -> Any:
        """Per sample: the unseen thieves shuffled and dealt to the other seats' hidden hands."""
        pool = _unseen(module_view)
        rng.shuffle(pool)
        return _redraw(module_view, pool)

    def slice_to_json(self, value: Any) -> Any:
        """``{"hands": [[currency, ...], ...], "aside": [...], "played": [[seat, currency], ...]}``."""
        assert isinstance(value, ThievesState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`ThievesState`."""
        return ThievesState.from_dict(data)


def check_thieves(state: GameState) -> None:
    """Assert that the 12 thieves are each in exactly one place (a hand, set aside, played)."""
    value = _slice(state)
    assert len(value.hands) == state.config.players, "a hand of thieves per seat"
    assert sorted(value.all_thieves()) == list(ALL_THIEVES), "a thief is missing or in two places"
    assert all(list(h) == sorted(h) for h in value.hands) and list(value.aside) == sorted(value.aside)


MODULE: Final = Thieves()
