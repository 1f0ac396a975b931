"""Bonus cards: ten secret cards, one for each building tile without walls.

Flow (all through the plug-in hooks of protocol 2):

* ``extra_cards`` adds the ten cards (kind ``bonus``, codes ``bcp8`` ... ``bct12``); they never
  enter the money deck. ``setup`` shuffles them and deals 3 / 2 / 1 face down to every seat
  (2-3 / 4-5 / 6 players); the rest are set aside face down (:class:`BonusState`).
* A seat whose Alhambra holds the tile pictured on a card it holds may play the card face up
  (``bonus play TILE``): during its own turn while it chooses its action (a free move: the
  action choice stays open, no action is used up), and when the game asks before every scoring
  round (``before_scoring`` pushes a :class:`BonusOffer`; ``bonus play TILE`` or ``bonus pass``).
* A played card counts as one more building of its kind in the scoring rounds
  (``building_counts``). When its tile leaves the Alhambra (redesign, exchange, another
  module), the card goes back to its owner's hand (``after_action``, ``on_events`` and
  ``before_scoring`` check) and counts no more until the tile is built again and the card
  played again.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Final

from ...actions import Action, parse_tile, register_action
from ...components import BASE_TILE_CODES, KINDS, CardType, ComponentSet, parse_tile_code
from ...engine.services import building_counts, kind_points, module_deal
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module
from ...scoring import majority_awards
from ...slices import slice_reader
from ...state import ChooseAction, GameConfig, GameState, Pending

MODULE_ID: Final = "bonus_cards"
BONUS_KIND: Final = "bonus"
"""``CardType.kind`` of a bonus card."""


# ---------------------------------------------------------------------------------- data
def _load_data() -> dict[str, Any]:
    text = resources.files(__package__ or "alhambra.modules.bonus_cards").joinpath("components.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


_DATA: Final = _load_data()

CARD_CODES: Final[tuple[str, ...]] = tuple(str(c["code"]) for c in _DATA["cards"])
"""Card code of each bonus card, by card number (0-9)."""
CARD_TILES: Final[tuple[str, ...]] = tuple(str(c["tile"]) for c in _DATA["cards"])
"""The tile pictured on each bonus card, by card number."""
CARD_KINDS: Final[tuple[str, ...]] = tuple(parse_tile_code(t).kind for t in CARD_TILES)
"""The building kind of each bonus card, by card number."""
DEAL: Final[dict[int, int]] = {int(k): int(v) for k, v in _DATA["deal"].items()}
"""Bonus cards dealt to each player, by number of players."""
CARD_OF_TILE: Final[dict[str, int]] = {t: i for i, t in enumerate(CARD_TILES)}
CARD_OF_CODE: Final[dict[str, int]] = {c: i for i, c in enumerate(CARD_CODES)}
NUM_CARDS: Final = len(CARD_CODES)

RESERVE_SHARE: Final = 0.33
"""Bots: a held card whose tile is on the owner's reserve board counts this share of its value."""
SURPRISE: Final = 0.25
"""Bots: points for keeping a playable card secret until the scoring round (the rulebook's tip)."""
ROUND_WEIGHTS: Final = (1.0, 0.75, 0.55)
"""Bots: weight of the next scoring round, the one after and the one after that."""

for _t in CARD_TILES:  # the data file must name base tiles without walls
    if _t not in BASE_TILE_CODES or parse_tile_code(_t).walls:
        raise ValueError(f"bonus_cards/components.json: {_t} is not a base tile without walls")


# ---------------------------------------------------------------------------------- state
def _codes(cards: Sequence[int]) -> list[str]:
    return [CARD_CODES[i] for i in cards]


def _numbers(data: Any, what: str) -> tuple[int, ...]:
    if not isinstance(data, list) or not all(isinstance(c, str) and c in CARD_OF_CODE for c in data):
        raise NotationError(f"bad bonus card list for {what}: {data!r}")
    return tuple(sorted(CARD_OF_CODE[c] for c in data))


@dataclass(frozen=True, slots=True)
class BonusState:
    """The module's state slice. Cards are numbers 0-9 (:data:`CARD_TILES`).

    ``hands[seat]``: the seat's unplayed cards (secret, except those in ``known``);
    ``played[seat]``: its cards lying face up (they count while their tile is in its Alhambra);
    ``known[seat]``: cards in its hand that everybody knows (played once, then taken back);
    ``aside``: the cards set aside face down at setup (unknown to everybody).
    """

    hands: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], ...]
    known: tuple[tuple[int, ...], ...]
    aside: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form (card codes)."""
        return {
            "hands": [_codes(h) for h in self.hands],
            "played": [_codes(p) for p in self.played],
            "known": [_codes(k) for k in self.known],
            "aside": _codes(self.aside),
        }

    @classmethod
    def from_dict(cls, data: Any) -> BonusState:
        """Read the JSON form back (clear error on junk)."""
        if not isinstance(data, dict) or set(data) != {"hands", "played", "known", "aside"}:
            raise NotationError(f"bad bonus card state {data!r}")
        lists = [data["hands"], data["played"], data["known"]]
        if not all(isinstance(x, list) for x in lists) or not len(lists[0]) == len(lists[1]) == len(lists[2]):
            raise NotationError(f"bad bonus card state {data!r}")
        hands = tuple(_numbers(h, "a hand") for h in data["hands"])
        played = tuple(_numbers(p, "the played cards") for p in data["played"])
        known = tuple(_numbers(k, "the known cards") for k in data["known"])
        aside = _numbers(data["aside"], "the cards set aside")
        every = [c for h in hands for c in h] + [c for p in played for c in p] + list(aside)
        if sorted(every) != list(range(NUM_CARDS)) or any(not set(k) <= set(h) for k, h in zip(known, hands, strict=True)):
            raise NotationError(f"bad bonus card state {data!r}: every card must be in exactly one place")
        return cls(hands, played, known, aside)

    def moved(self, seat: int, card: int, play: bool) -> BonusState:
        """A copy with ``card`` played by ``seat`` (``play``) or taken back into its hand (public)."""
        hands = list(self.hands)
        played = list(self.played)
        known = list(self.known)
        if play:
            hands[seat] = tuple(c for c in hands[seat] if c != card)
            known[seat] = tuple(c for c in known[seat] if c != card)
            played[seat] = tuple(sorted((*played[seat], card)))
        else:
            played[seat] = tuple(c for c in played[seat] if c != card)
            hands[seat] = tuple(sorted((*hands[seat], card)))
            known[seat] = tuple(sorted((*known[seat], card)))
        return BonusState(tuple(hands), tuple(played), tuple(known), self.aside)


@dataclass(frozen=True, slots=True)
class BonusOffer(Pending):
    """Before scoring round ``round_no``: ``seat`` may play bonus cards (``bonus play TILE``,
    asked again after each card) or pass (``bonus pass``); ``later`` are asked next. After a
    card is played, every other seat that could play one is asked again."""

    module = MODULE_ID
    seat: int
    later: tuple[int, ...] = ()
    round_no: int = 1


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class PlayBonusCard(Action):
    """Lay the bonus card that shows ``tile`` face up (the tile must be in the player's Alhambra)."""

    module = MODULE_ID
    keyword = "bonus play"
    grammar = ("tile",)
    tile: str


@dataclass(frozen=True, slots=True)
class PassBonus(Action):
    """Before a scoring round: play no (more) bonus card now."""

    module = MODULE_ID
    keyword = "bonus pass"
    grammar = ()

    declines = True


def _base_tile(word: str) -> str:
    """The code of a base building tile (``G10``, any case)."""
    try:
        return parse_tile_code(parse_tile(word)).code
    except ValueError as e:
        raise NotationError(str(e)) from None


register_action(PlayBonusCard, tile=_base_tile)
register_action(PassBonus)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class BonusCardPlayed(Event):
    """A player laid a bonus card face up: it now counts as one more building of ``kind``.
    ``round_no`` is the scoring round the game asked about (0: during the player's own turn)."""

    reveals: ClassVar[bool] = True
    seat: int
    tile: str
    kind: str
    round_no: int = 0

    def describe(self) -> str:
        when = f" before scoring round {self.round_no}" if self.round_no else ""
        return f"{_p(self.seat)} plays the bonus card {self.tile}{when}: one more {self.kind}"


@dataclass(frozen=True, slots=True)
class BonusCardReturned(Event):
    """The tile of a played bonus card left its owner's Alhambra: the card goes back into the
    hand (everybody has seen it) and counts no more."""

    seat: int
    tile: str
    kind: str

    def describe(self) -> str:
        return f"{self.tile} left the Alhambra of {_p(self.seat)}: the bonus card {self.tile} goes back to the hand"


@dataclass(frozen=True, slots=True)
class BonusPassed(Event):
    """A player played no (more) bonus card before scoring round ``round_no``."""

    seat: int
    round_no: int

    def describe(self) -> str:
        return f"{_p(self.seat)} plays no bonus card before scoring round {self.round_no}"


# ---------------------------------------------------------------------------------- helpers
class _Ids:
    """Component ids of the bonus cards and of their tiles in one component set."""

    __slots__ = ("cards", "comp", "tiles")

    def __init__(self, comp: ComponentSet) -> None:
        self.comp = comp
        by_code = {c.code: i for i, c in enumerate(comp.cards) if c.module == MODULE_ID}
        self.cards = tuple(by_code[code] for code in CARD_CODES)
        self.tiles = tuple(comp.tile_ids[t] for t in CARD_TILES)


_IDS: dict[int, _Ids] = {}


def ids_of(state: GameState) -> _Ids:
    """The (cached) ids of the bonus cards and their tiles in this game."""
    comp = state.components
    got = _IDS.get(id(comp))
    if got is None or got.comp is not comp:
        got = _IDS[id(comp)] = _Ids(comp)
    return got


bonus_state: Final = slice_reader(MODULE_ID, BonusState)
"""The module's slice."""


def seat_order(state: GameState) -> list[int]:
    """Seats in the order they are asked before a scoring round: the current player first."""
    n = state.config.players
    return [(state.current + i) % n for i in range(n)]


def playable(state: GameState, seat: int) -> list[int]:
    """The cards ``seat`` holds whose tile is in its Alhambra (private to the seat)."""
    s = bonus_state(state)
    hand = s.hands[seat]
    if not hand:
        return []
    tiles = ids_of(state).tiles
    city = state.players[seat].city.values()
    return [i for i in hand if tiles[i] in city]


def could_play(state: GameState, seat: int) -> bool:
    """Whether the table cannot rule out that ``seat`` may play a bonus card now, from public
    facts only (its number of unplayed cards, the cards everybody knows, its Alhambra): it holds
    an unplayed card and its Alhambra holds a tile whose card it may hold."""
    s = bonus_state(state)
    hand = s.hands[seat]
    if not hand:
        return False
    unknown = len(hand) - len(s.known[seat])
    elsewhere = {c for k in s.known for c in k}
    tiles = ids_of(state).tiles
    city = state.players[seat].city.values()
    for i in range(NUM_CARDS):
        if tiles[i] in city and i not in s.played[seat] and (i in s.known[seat] or (unknown > 0 and i not in elsewhere)):
            return True
    return False


def _sync(state: GameState, events: list[Event]) -> None:
    """Take back every played card whose tile is no longer in its owner's Alhambra."""
    s = bonus_state(state)
    if not any(s.played):
        return
    tiles = ids_of(state).tiles
    for seat, cards in enumerate(s.played):
        city = state.players[seat].city.values()
        for i in cards:
            if tiles[i] not in city:
                s = s.moved(seat, i, False)
                events.append(BonusCardReturned(seat, CARD_TILES[i], CARD_KINDS[i]))
    state.mods[MODULE_ID] = s


def _deal(cards: list[int], counts: Sequence[int], known: Sequence[Sequence[int]], players: int) -> tuple[list[list[int]], list[int]]:
    """Hands for the seats with ``counts[seat]`` cards each, ``known[seat]`` first, the others
    from ``cards`` in order; the rest of ``cards`` is set aside."""
    hands: list[list[int]] = []
    k = 0
    for seat in range(players):
        need = max(0, counts[seat] - len(known[seat]))
        hands.append(sorted([*known[seat], *cards[k : k + need]]))
        k += need
    return hands, sorted(cards[k:])


# ---------------------------------------------------------------------------------- module
class BonusCards(Module):
    """Bonus cards."""

    id = MODULE_ID
    title = "Bonus cards"
    summary = "Secret cards count one more building of a kind once their tile is built."
    description = (
        "Ten secret cards, one for each building tile without walls, dealt 3/2/1 each (2-3/4-5/6 players). Once its tile "
        "is in your Alhambra, lay the card face up at any time: it counts as one more building of that kind in the "
        "scoring rounds. If the tile leaves the Alhambra, the card goes back to your hand."
    )
    assumptions = (
        "'At any time' is offered at the moments where playing can matter: during your own turn while you choose your "
        "action (a free move that uses up no action and does not end the action phase), and before every scoring round, "
        "when the game asks each player in turn, starting with the current player. A card only counts in scoring "
        "rounds, so playing it at another moment would only reveal it sooner.",
        "Before a scoring round every player who may be able to play a card is asked, judged from public facts only "
        "(an unplayed card in hand and a tile in the Alhambra whose card is not known to be elsewhere), whether or not "
        "they actually hold a playable card, so the question reveals nothing. After a card is played, the others are "
        "asked again, so anybody may answer a surprise with a card of their own.",
        "A card taken back into the hand (its tile left the Alhambra) stays known to everybody: all have seen it face up.",
        "No card is played while tiles are being placed or in the window between turns; a card for a tile placed at the "
        "end of a turn can be played at the next scoring round's question or on the player's next turn.",
        "The bonus cards are not money and never count in the end-of-game hand-out of the last market tiles.",
        "The neutral player of a 2-player game has no bonus cards.",
        "The deal uses the game's setup random generator (seed), also in explicit-chance mode: it is not one of the "
        "decided chance outcomes.",
    )

    # ----- components and setup -----------------------------------------------------------
    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """The ten bonus cards (no value, no currency; ``extra`` = kind index and price of the tile)."""
        out = []
        for code, tile in zip(CARD_CODES, CARD_TILES, strict=True):
            t = parse_tile_code(tile)
            out.append(CardType(code, BONUS_KIND, module=self.id, extra=(KINDS.index(t.kind), t.price)))
        return out

    def setup(self, state: GameState, rng: random.Random) -> None:
        """Shuffle the cards, deal them face down, set the rest aside face down."""
        n = state.config.players
        # explicit chance (OpenSpiel): each seat's cards are chance nodes only that seat sees
        deal = module_deal(state, self.id, CARD_CODES, [DEAL[n]] * n)
        if deal is not None:
            got, left = deal
            hands = [sorted(CARD_OF_CODE[c] for c in h) for h in got]
            aside = sorted(CARD_OF_CODE[c] for c in left)
            state.mods[self.id] = BonusState(tuple(tuple(h) for h in hands), ((),) * n, ((),) * n, tuple(aside))
            return
        cards = list(range(NUM_CARDS))
        rng.shuffle(cards)
        hands, aside = _deal(cards, [DEAL[n]] * n, [()] * n, n)
        state.mods[self.id] = BonusState(tuple(tuple(h) for h in hands), ((),) * n, ((),) * n, tuple(aside))

    # ----- actions --------------------------------------------------------------------------
    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """``bonus play TILE`` for every held card whose tile is in the Alhambra (a free move)."""
        return [PlayBonusCard(CARD_TILES[i]) for i in playable(state, seat)]

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """Before a scoring round: every playable card, or pass."""
        assert isinstance(pending, BonusOffer)
        out: list[Action] = [PlayBonusCard(CARD_TILES[i]) for i in playable(state, pending.seat)]
        out.append(PassBonus())
        return out

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        if isinstance(action, PassBonus):
            if not isinstance(top, BonusOffer):
                raise WrongPhase("there is no bonus card question to pass now")
            return
        if not isinstance(action, PlayBonusCard):
            raise IllegalAction(f"{action} is not a bonus card action")
        if not isinstance(top, ChooseAction | BonusOffer):
            raise WrongPhase(
                "a bonus card is played during your own turn while you choose your action, or when the game asks before a scoring round"
            )
        seat = top.seat
        i = CARD_OF_TILE.get(action.tile)
        if i is None:
            raise IllegalAction(
                f"no bonus card shows {action.tile}: the bonus cards show the tiles without walls ({', '.join(CARD_TILES)})"
            )
        s = bonus_state(state)
        if i in s.played[seat]:
            raise IllegalAction(f"your bonus card {action.tile} is already played")
        if i not in s.hands[seat]:
            raise IllegalAction(f"you do not hold the bonus card {action.tile}")
        t = ids_of(state).tiles[i]
        p = state.players[seat]
        if t not in p.city.values():
            where = " (it is on your reserve board)" if t in p.reserve else ""
            raise IllegalAction(f"the bonus card {action.tile} can be played only once {action.tile} is in your Alhambra{where}")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry out a checked bonus card action. A play during the turn leaves the action choice
        as it was (a free move); a play before a scoring round asks the player again, then every
        other player."""
        top = state.pending[-1]
        if isinstance(action, PassBonus):
            assert isinstance(top, BonusOffer)
            events.append(BonusPassed(top.seat, top.round_no))
            if top.later:
                state.pending[-1] = BonusOffer(top.later[0], top.later[1:], top.round_no)
            else:
                state.pending.pop()
            return
        assert isinstance(action, PlayBonusCard)
        seat = top.seat
        i = CARD_OF_TILE[action.tile]
        state.mods[self.id] = bonus_state(state).moved(seat, i, True)
        round_no = top.round_no if isinstance(top, BonusOffer) else 0
        events.append(BonusCardPlayed(seat, action.tile, CARD_KINDS[i], round_no))
        if isinstance(top, BonusOffer):
            others = tuple(s for s in seat_order(state) if s != seat and could_play(state, s))
            state.pending[-1] = BonusOffer(seat, others, top.round_no)

    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """Skip the seats that cannot play a card (public facts); close when nobody is left."""
        assert isinstance(pending, BonusOffer)
        top = pending
        while not could_play(state, top.seat):
            if not top.later:
                state.pending.pop()
                return
            top = BonusOffer(top.later[0], top.later[1:], top.round_no)
            state.pending[-1] = top

    # ----- flow -----------------------------------------------------------------------------
    def before_scoring(self, state: GameState, round_no: int, events: list[Event]) -> None:
        """Ask, from the current player on, every player who may be able to play a card."""
        _sync(state, events)
        seats = [s for s in seat_order(state) if could_play(state, s)]
        if seats:
            state.pending.append(BonusOffer(seats[0], tuple(seats[1:]), round_no))

    def after_action(self, state: GameState, events: list[Event]) -> None:
        """A played card whose tile left the Alhambra goes back to the hand."""
        _sync(state, events)

    def on_events(self, state: GameState, events: list[Event]) -> None:
        """The same after the automatic flow (another module may have moved a tile)."""
        _sync(state, events)

    # ----- scoring ----------------------------------------------------------------------------
    def building_counts(self, state: GameState, seat: int, counts: dict[str, float]) -> None:
        """Every played card whose tile is in the seat's Alhambra counts one building of its kind."""
        if seat < 0:
            return
        played = bonus_state(state).played[seat]
        if not played:
            return
        tiles = ids_of(state).tiles
        city = state.players[seat].city.values()
        for i in played:
            if tiles[i] in city:
                counts[CARD_KINDS[i]] = counts.get(CARD_KINDS[i], 0) + 1

    # ----- bots -------------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """A held card whose tile is built is worth what one more building of its kind would
        earn in the scoring rounds to come (weighted like the greedy bot's rounds; half with the
        counts as they are, half with the strongest rival one building further, except for a
        round being scored now), plus a little for keeping it secret; a third of that when the
        tile is on the reserve board. Once the seat has passed before a scoring round, that round
        no longer counts for it. Played cards count through ``building_counts`` already."""
        if state.outcome is not None:
            return None
        s = bonus_state(state)
        if not any(s.hands):
            return None
        nxt = state.rounds_scored + 1
        if nxt > 3:
            return None
        n = state.config.players
        tiles = ids_of(state).tiles
        top = state.pending[-1] if state.pending else None
        offer = top if isinstance(top, BonusOffer) else None
        values = [0.0] * n
        counts: list[dict[str, float]] | None = None
        for seat in range(n):
            hand = s.hands[seat]
            if not hand:
                continue
            p = state.players[seat]
            city = p.city.values()
            first = nxt
            if offer is not None and seat != offer.seat and seat not in offer.later:
                first = offer.round_no + 1
            if first > 3:
                continue
            for i in hand:
                t = tiles[i]
                if t in city:
                    share = 1.0
                elif t in p.reserve:
                    share = RESERVE_SHARE
                else:
                    continue
                if counts is None:
                    counts = [building_counts(state, x) for x in range(n)]
                    if state.neutral is not None:
                        counts.append(building_counts(state, -1))
                kind = CARD_KINDS[i]
                col = [c[kind] for c in counts]
                if share < 1.0:
                    col[seat] += 1  # the card adds to the tile once that is built
                # the strongest rival catching up by one building before the round
                rival = max((x for x in range(len(col)) if x != seat), key=col.__getitem__)
                caught = col[:]
                caught[rival] += 1
                gain = 0.0
                for r in range(first, 4):
                    pts = kind_points(state, r, kind)  # the round's table (new score cards may change it)
                    now = _gain(col, seat, pts)
                    if offer is not None and r == offer.round_no:
                        gain += ROUND_WEIGHTS[r - nxt] * now  # the round is scored now: the counts are final
                    else:
                        gain += ROUND_WEIGHTS[r - nxt] * 0.5 * (now + _gain(caught, seat, pts))
                values[seat] += share * (gain + SURPRISE)
        return values

    # ----- research ------------------------------------------------------------------------
    def observation_counts(self, config: GameConfig) -> tuple[tuple[str, int], ...]:
        """The view's ``hand_counts``: how many unplayed bonus cards each seat holds (public)."""
        return (("hand_counts", len(CARD_CODES)),)

    def max_actions_between_turns(self, config: GameConfig) -> int:
        """An upper bound on this module's actions within one turn and the moves after it (the
        research hook that sizes the OpenSpiel game length): at most ``P`` cards played (every
        card in the hands, free plays included; nothing returns a card in between) and, before
        each of at most two scoring rounds, at most ``n`` passes after each play and at the start;
        plus two plays of slack for a card taken back and played again (another module's extra
        redesign)."""
        n = config.players
        cards = min(NUM_CARDS, n * DEAL[n]) + 2
        return cards + (cards + 2) * n

    # ----- accounting, views, persistence ---------------------------------------------------
    def held_cards(self, state: GameState) -> list[int]:
        """Every bonus card: in the hands, played, or set aside."""
        s = bonus_state(state)
        ids = ids_of(state).cards
        out = [ids[i] for h in s.hands for i in h]
        out += [ids[i] for p in s.played for i in p]
        out += [ids[i] for i in s.aside]
        return out

    def chance_items(self, config: GameConfig) -> list[str]:
        return list(CARD_CODES)

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: every seat's played cards, how many unplayed cards it holds and which of them
        everybody knows, how many are set aside; the viewer's own hand. Cards are named by
        their tile."""
        s = bonus_state(state)
        return {
            "viewer": viewer,
            "cards": dict(zip(CARD_CODES, CARD_TILES, strict=True)),
            "hand": None if viewer is None else [CARD_TILES[i] for i in s.hands[viewer]],
            "hand_counts": [len(h) for h in s.hands],
            "known": [[CARD_TILES[i] for i in k] for k in s.known],
            "played": [[CARD_TILES[i] for i in p] for p in s.played],
            "aside_count": len(s.aside),
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The slice with the hidden cards (other seats' unknown cards, the cards set aside)
        filled in a fixed order from the cards the viewer has not seen."""
        return _from_view(module_view, config, None)

    def sample_slice(self, state: GameState, module_view: dict[str, Any], viewer: int, rng: random.Random) -> Any:
        """The slice with the hidden cards drawn at random from the cards ``viewer`` has not seen
        (not played, not known, not in its own hand), respecting every seat's card count."""
        return _from_view(module_view, state.config, rng)

    def slice_to_json(self, value: Any) -> Any:
        """``{"hands": [[code, ...], ...], "played": ..., "known": ..., "aside": [...]}``."""
        assert isinstance(value, BonusState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`BonusState`."""
        return BonusState.from_dict(data)


def _gain(col: list[float], seat: int, points: Sequence[int]) -> int:
    """What one more building of a kind earns ``seat`` in a round with these counts."""
    more = col[:]
    more[seat] += 1
    return majority_awards(more, points)[seat] - majority_awards(col, points)[seat]


def _from_view(mv: dict[str, Any], config: GameConfig, rng: random.Random | None) -> BonusState:
    n = config.players
    viewer = mv["viewer"]
    played = tuple(tuple(sorted(CARD_OF_TILE[t] for t in p)) for p in mv["played"])
    known = [tuple(sorted(CARD_OF_TILE[t] for t in k)) for k in mv["known"]]
    counts = list(mv["hand_counts"])
    if viewer is not None:
        known[viewer] = tuple(sorted(CARD_OF_TILE[t] for t in mv["hand"]))
    seen = {c for p in played for c in p} | {c for k in known for c in k}
    unseen = [c for c in range(NUM_CARDS) if c not in seen]
    if rng is not None:
        rng.shuffle(unseen)
    hands, aside = _deal(unseen, counts, known, n)
    public_known = tuple(tuple(sorted(CARD_OF_TILE[t] for t in k)) for k in mv["known"])
    return BonusState(tuple(tuple(h) for h in hands), played, public_known, tuple(aside))


MODULE: Final = BonusCards()
"""Bonus cards (Big Box module ``bonus_cards``): see ``README.md``."""
