"""Treasure Chamber: chests bought for at least 8 go into the buyer's buildings of their colours.

Flow (all through the plug-in hooks of protocol 2):

* ``setup`` puts the 42 chests (``components.json``) into the bag and draws 4 into each of the
  3 rooms of the treasure chamber (:class:`ChamberState` in ``state.mods["treasure_chamber"]``).
* ``offers``: on a turn, each full room is an offer ``room1``..``room3`` for at least 8 in any
  mix of the four currencies (or diamonds alone, when the game has them); an exact payment gives
  no extra action, and no card that is not needed may be paid (``Offer.minimal``: no change is
  given). ``offer_bought`` takes the room's chests aside until the end of the turn.
* ``turn_ending`` (after the turn's tiles are placed): the chests go into the buyer's built
  buildings of their colours, one per building (:class:`TreasureChestPlacement`); where the
  buyer has more free buildings of a colour than chests of it, the buyer chooses
  (``chest put X,Y``), otherwise they go in by themselves. Leftovers pass to the left (with 2
  players first to the neutral player, whose buildings take them by themselves), then back to the
  bag; then the emptied room is refilled with 4 chests drawn from the bag at random
  (:func:`alhambra.engine.module_random`). If the bag holds fewer than 4, the room stays empty
  and no room is refilled again.
* ``after_action``: a building that left an Alhambra sends its chest back to the bag.
* ``round_points``: the most chests score 7 / 14, 7 / 22, 14, 7 (ties as for buildings); the
  neutral player's chests take part in that majority and his points go to his score.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any, ClassVar, Final

from ... import city as geo
from ...actions import Action, register_action
from ...components import CURRENCIES, KINDS
from ...engine.services import module_draw, module_random, unbuilt_tiles
from ...errors import IllegalAction, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module, Offer
from ...scoring import majority_awards
from ...slices import slice_reader
from ...state import GameConfig, GameState, Pending, PlaceTiles

MODULE_ID: Final = "treasure_chamber"
NEUTRAL: Final = -1
"""The neutral player (Dirk) in a chain of recipients."""


# ---------------------------------------------------------------------------------- components
def _load_components() -> dict[str, Any]:
    text = resources.files(__name__.rpartition(".")[0]).joinpath("components.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


COMPONENTS: Final = _load_components()
"""The module's component facts (``components.json``)."""

CHESTS: Final[dict[str, int]] = {str(k): int(v) for k, v in COMPONENTS["chests"].items()}
"""How many chests of each colour (named by the building kind of that colour) are in the game."""
COLOUR_OF: Final[dict[str, str]] = {str(k): str(v) for k, v in COMPONENTS["colours"].items()}
"""The colour of each kind's chests (and buildings)."""
ROOMS: Final[int] = int(COMPONENTS["rooms"])
ROOM_SIZE: Final[int] = int(COMPONENTS["room_size"])
PRICE: Final[int] = int(COMPONENTS["price"])
POINTS: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(int(p) for p in r) for r in COMPONENTS["points"])
"""``POINTS[r - 1]``: the points for the most, second most... chests in scoring round ``r``."""

if tuple(CHESTS) != KINDS or tuple(COLOUR_OF) != KINDS or len(POINTS) != 3:  # pragma: no cover - a broken data file
    raise ImportError(
        "treasure_chamber/components.json: chests and colours per building kind, in the order of KINDS, and 3 rounds of points"
    )

_KI: Final = {k: i for i, k in enumerate(KINDS)}
ITEMS: Final = tuple(f"room{i}" for i in range(1, ROOMS + 1))
"""The offers' items: ``buy room2 CARDS`` buys the chests of room 2."""


def sort_chests(kinds: Iterable[str]) -> tuple[str, ...]:
    """Chests (kinds) in the order of the building kinds."""
    return tuple(sorted(kinds, key=_KI.__getitem__))


def chest_name(kind: str) -> str:
    """``green (garden) chest``."""
    return f"{COLOUR_OF[kind]} ({kind}) chest"


def _chests_text(kinds: Sequence[str]) -> str:
    counts = Counter(kinds)
    return ", ".join(f"{n} {COLOUR_OF[k]}" for k, n in sorted(counts.items(), key=lambda kv: _KI[kv[0]]))


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class ChamberState:
    """The module's state slice (all public).

    ``rooms``: the chests in each room (kinds, sorted; empty for an empty room). ``bag``: chests
    in the bag per kind (in the order of the kinds). ``homes``: per seat, the building tiles of
    its Alhambra holding a chest (tile codes, sorted; the chest has the building's colour).
    ``neutral``: the neutral player's tiles holding a chest. ``bought``: chests bought this turn,
    waiting for the end of the turn; ``room``: the room they came from (0: none). ``closed``: a
    refill failed, so no room is refilled any more.
    """

    rooms: tuple[tuple[str, ...], ...]
    bag: tuple[int, ...]
    homes: tuple[tuple[str, ...], ...]
    neutral: tuple[str, ...] = ()
    bought: tuple[str, ...] = ()
    room: int = 0
    closed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "rooms": [list(r) for r in self.rooms],
            "bag": list(self.bag),
            "homes": [list(h) for h in self.homes],
            "neutral": list(self.neutral),
            "bought": list(self.bought),
            "room": self.room,
            "closed": self.closed,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ChamberState:
        """Read the JSON form back (:class:`NotationError` on junk)."""
        keys = {"rooms", "bag", "homes", "neutral", "bought", "room", "closed"}
        if not (isinstance(data, dict) and set(data) == keys):
            raise NotationError(f"bad treasure chamber state {data!r}")
        rooms, bag, homes = data["rooms"], data["bag"], data["homes"]
        if not (isinstance(rooms, list) and len(rooms) == ROOMS and all(_kind_list(r) for r in rooms)):
            raise NotationError(f"bad treasure chamber rooms {rooms!r}")
        if not (isinstance(bag, list) and len(bag) == len(KINDS) and all(type(v) is int and v >= 0 for v in bag)):
            raise NotationError(f"bad chest bag {bag!r}")
        if not (isinstance(homes, list) and all(_code_list(h) for h in homes)):
            raise NotationError(f"bad chest homes {homes!r}")
        if not (_code_list(data["neutral"]) and _kind_list(data["bought"])):
            raise NotationError(f"bad treasure chamber state {data!r}")
        if not (type(data["room"]) is int and 0 <= data["room"] <= ROOMS and isinstance(data["closed"], bool)):
            raise NotationError(f"bad treasure chamber state {data!r}")
        return cls(
            tuple(tuple(r) for r in rooms),
            tuple(bag),
            tuple(tuple(h) for h in homes),
            tuple(data["neutral"]),
            tuple(data["bought"]),
            data["room"],
            data["closed"],
        )

    def with_bag(self, kinds: Iterable[str], sign: int = 1) -> ChamberState:
        """A copy with the chests ``kinds`` put into the bag (``sign`` -1: taken out)."""
        bag = list(self.bag)
        for k in kinds:
            bag[_KI[k]] += sign
        return replace(self, bag=tuple(bag))

    def with_home(self, seat: int, codes: tuple[str, ...]) -> ChamberState:
        """A copy with ``seat``'s chest-holding tiles (``NEUTRAL``: the neutral player's) replaced."""
        if seat == NEUTRAL:
            return replace(self, neutral=tuple(sorted(codes)))
        homes = list(self.homes)
        homes[seat] = tuple(sorted(codes))
        return replace(self, homes=tuple(homes))

    def with_room(self, room: int, chests: tuple[str, ...]) -> ChamberState:
        """A copy with room ``room`` (1-3) holding ``chests``."""
        rooms = list(self.rooms)
        rooms[room - 1] = sort_chests(chests)
        return replace(self, rooms=tuple(rooms))

    def bag_chests(self) -> list[str]:
        """The chests in the bag, one entry per chest, in the order of the kinds."""
        return [k for k, n in zip(KINDS, self.bag, strict=True) for _ in range(n)]


def _kind_list(v: Any) -> bool:
    return isinstance(v, list) and all(k in _KI for k in v)


def _code_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(c, str) for c in v)


# ---------------------------------------------------------------------------------- pendings
@dataclass(frozen=True, slots=True)
class TreasureChestPlacement(Pending):
    """``seat`` puts ``chests`` (kinds) into its built buildings of their colours, one per
    building. The game puts them in where there is no choice; where ``seat`` has more free
    buildings of a colour than chests of it, it chooses the buildings (``chest put X,Y``).
    Chests that find no building pass on to ``later`` (seats in order; -1: the neutral player),
    then back to the bag; then room ``room`` is refilled."""

    module = MODULE_ID
    seat: int
    chests: tuple[str, ...]
    later: tuple[int, ...] = ()
    room: int = 0


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class ChestPut(Action):
    """Put one of the chests to place into the building at ``target`` (its colour decides which)."""

    module = MODULE_ID
    keyword = "chest put"
    grammar = ("cell",)
    target: tuple[int, int]


register_action(ChestPut)


# ---------------------------------------------------------------------------------- events
def _who(seat: int) -> str:
    return "the neutral player" if seat == NEUTRAL else f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class ChestsPlaced(Event):
    """Chests went into buildings of their colours (``tiles``: the building tiles) of a player
    (``seat`` -1: the neutral player)."""

    seat: int
    tiles: tuple[str, ...]
    kinds: tuple[str, ...]

    def describe(self) -> str:
        what = ", ".join(f"{COLOUR_OF[k]} into {t}" for t, k in zip(self.tiles, self.kinds, strict=True))
        n = len(self.tiles)
        return f"{_who(self.seat)} puts {n} treasure chest{'s' if n != 1 else ''} into buildings ({what})"


@dataclass(frozen=True, slots=True)
class ChestsPassed(Event):
    """Chests that found no building of their colour pass from ``seat`` to ``to`` (-1: the neutral player)."""

    seat: int
    to: int
    chests: tuple[str, ...]

    def describe(self) -> str:
        what = _chests_text(self.chests)
        return f"{_who(self.seat)} cannot place {len(self.chests)} treasure chest(s) ({what}): they pass to {_who(self.to)}"


@dataclass(frozen=True, slots=True)
class ChestsReturned(Event):
    """Chests nobody could place went back into the bag."""

    chests: tuple[str, ...]

    def describe(self) -> str:
        return f"the treasure chest(s) nobody can place ({_chests_text(self.chests)}) go back into the bag"


@dataclass(frozen=True, slots=True)
class ChestLost(Event):
    """The building ``tile`` left the Alhambra of ``seat``: its chest went back into the bag."""

    seat: int
    tile: str
    kind: str

    def describe(self) -> str:
        return f"{self.tile} leaves the Alhambra of {_who(self.seat)}: its {chest_name(self.kind)} goes back into the bag"


@dataclass(frozen=True, slots=True)
class ChamberRefilled(Event):
    """Room ``room`` of the treasure chamber was refilled with ``chests`` drawn from the bag (a
    random draw: it cannot be taken back)."""

    reveals: ClassVar[bool] = True
    room: int
    chests: tuple[str, ...]

    def describe(self) -> str:
        return f"room {self.room} of the treasure chamber is refilled from the bag: {_chests_text(self.chests)}"


@dataclass(frozen=True, slots=True)
class ChamberRoomLeftEmpty(Event):
    """The bag held fewer than 4 chests (``left``): room ``room`` stays empty and no room is refilled any more."""

    room: int
    left: int

    def describe(self) -> str:
        return f"only {self.left} treasure chest(s) are left in the bag: room {self.room} stays empty, and no room is refilled any more"


@dataclass(frozen=True, slots=True)
class ChestsCounted(Event):
    """Scoring round ``round_no`` counts the chests: ``counts`` per seat, ``neutral`` the neutral
    player's (-1 without him) and the points each wins (``points`` per seat; ``neutral_points``
    are added to the neutral player's score, like his building majorities)."""

    round_no: int
    counts: tuple[int, ...]
    points: tuple[int, ...]
    neutral: int = -1
    neutral_points: int = 0

    def describe(self) -> str:
        have = [f"{_who(s)} {c}" for s, c in enumerate(self.counts)]
        if self.neutral >= 0:
            have.append(f"the neutral player {self.neutral}")
        won = [f"{_who(s)} +{p}" for s, p in enumerate(self.points) if p]
        if self.neutral_points:
            won.append(f"the neutral player +{self.neutral_points}")
        return f"scoring round {self.round_no}, treasure chests: {', '.join(have)}; {', '.join(won) or 'nobody scores'}"


# ---------------------------------------------------------------------------------- helpers
chamber: Final = slice_reader(MODULE_ID, ChamberState)
"""The module's slice of ``state``."""


def free_buildings(state: GameState, seat: int, sl: ChamberState | None = None) -> dict[str, list[str]]:
    """Per kind, the tile codes of ``seat``'s built buildings without a chest (``seat`` -1: the
    neutral player's tiles). Only the six building kinds take chests (no squares, no building
    sites, nothing on the reserve board); an Alhambra's buildings are listed north to south,
    west to east."""
    sl = sl or chamber(state)
    comp = state.components
    out: dict[str, list[str]] = {k: [] for k in KINDS}
    if seat == NEUTRAL:
        taken = set(sl.neutral)
        for code in sorted(comp.tiles[t].code for t in state.neutral or ()):
            kind = comp.tiles[comp.tile_ids[code]].kind
            if kind in out and code not in taken:
                out[kind].append(code)
        return out
    taken = set(sl.homes[seat])
    unbuilt = unbuilt_tiles(state, seat) if state.config.modules else set()
    for _, t in sorted(state.players[seat].city.items()):  # a position grows with y, then x
        tt = comp.tiles[t]
        if tt.kind in out and tt.code not in taken and t not in unbuilt:
            out[tt.kind].append(tt.code)
    return out


def chest_counts(state: GameState) -> list[int]:
    """Chests in each seat's buildings, then (2 players) the neutral player's."""
    sl = chamber(state)
    counts = [len(h) for h in sl.homes]
    if state.neutral is not None:
        counts.append(len(sl.neutral))
    return counts


def recipients(state: GameState, seat: int) -> tuple[int, ...]:
    """Who gets the chests ``seat`` cannot place, in order: the players to the left; with 2
    players the neutral player first (-1)."""
    n = state.config.players
    others = tuple((seat + i) % n for i in range(1, n))
    return (NEUTRAL, *others) if state.neutral is not None else others


def placement_choices(state: GameState, pending: TreasureChestPlacement) -> list[ChestPut]:
    """The buildings ``pending.seat`` may choose for a chest: for every colour with more free
    buildings than chests to place, each of those buildings."""
    free = free_buildings(state, pending.seat)
    counts = Counter(pending.chests)
    positions = {state.components.tiles[t].code: q for q, t in state.players[pending.seat].city.items()}
    out: list[ChestPut] = []
    for kind in KINDS:
        c = counts.get(kind, 0)
        if 0 < c < len(free[kind]):
            out += [ChestPut(geo.xy(positions[code])) for code in free[kind]]
    return out


# ---------------------------------------------------------------------------------- module
class TreasureChamber(Module):
    """Treasure Chamber."""

    id = MODULE_ID
    title = "Treasure Chamber"
    summary = "Buy rooms of treasure chests; the most chests score in every round."
    description = (
        "Three rooms of four treasure chests: a turn action buys one room for at least 8 in any mix of currencies. "
        "The chests go into the buyer's buildings of their colours, one each; leftovers pass to the left. "
        "The most chests score 7 / 14, 7 / 22, 14, 7 in the three scorings."
    )
    assumptions = (
        "Buying a room is a turn action like buying a building, but it never gives another action (the rulebook: not even "
        "for the exact amount), so it is the last action of the turn; it cannot be bought with the vizier, out of turn or "
        "at the end of the game.",
        "Any money pays, in any mix of the four currencies: money cards and money held outside the hand (change coins, "
        "caravanserai markers; not a certificate's credit, which pays for building tiles only). Diamonds pay on their "
        "own only (never mixed). Exchange cards are not needed "
        "and not accepted (they change one currency into another for a market square).",
        "No change is given, so a card that is not needed (the rest would still pay 8) may not be paid: the game lists and "
        "accepts only payments from which no card can be left out. This forbids nothing a player would want to do.",
        "The chests are put into buildings at the end of the buyer's turn, after the turn's tiles were placed (buildings "
        "bought this turn and put into the Alhambra take chests; the reserve board does not). Putting them in is not "
        "optional: every chest that fits must go in, also for a player who receives leftovers (the rulebook's 'has the "
        "opportunity' is read as the same duty; a chest never harms its owner). Where a player has more free buildings of "
        "a colour than chests of it, the player chooses which buildings (this matters only if a building is removed "
        "later); otherwise the chests go in by themselves.",
        "'The player to the left' is the next player in turn order.",
        "Only the six building kinds take chests: no squares, no building sites before they are completed, nothing else "
        "(camps, bazaars...).",
        "Chests nobody can place go back into the bag before the emptied room is refilled, so they may come back at once.",
        "Once a refill fails because the bag holds fewer than 4 chests, no room is ever refilled again, even if chests "
        "come back into the bag later (a removed building).",
        "A chest belongs to its building tile: when the tile leaves the Alhambra (onto the reserve board, also by an "
        "exchange) the chest goes back into the bag; the tile takes no chest when it is built again, until another room "
        "is bought.",
        "With 2 players, the neutral player's chests take part in the chest majority like his buildings in the building "
        "majorities (he can take a place, or tie and share), and the points he wins are added to his score like his "
        "building points (one bookkeeping for every module's points of the neutral player).",
        "The rooms and the bag are open: everybody knows how many chests of each colour are in the bag; the refill is drawn at random.",
    )
    component_assumptions = ()

    # ----- setup ------------------------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """All 42 chests into the bag; 4 drawn at random into each room."""
        sl = ChamberState((), tuple(CHESTS[k] for k in KINDS), ((),) * state.config.players)
        rooms = []
        for _ in range(ROOMS):
            drawn = sort_chests(rng.sample(sl.bag_chests(), ROOM_SIZE))
            sl = sl.with_bag(drawn, -1)
            rooms.append(drawn)
        state.mods[self.id] = replace(sl, rooms=tuple(rooms))

    def max_actions_between_turns(self, config: GameConfig) -> int:
        """At the end of a turn, after its tiles are placed: at most one ``chest put`` per chest of
        the room bought (the research game length counts them here)."""
        return ROOM_SIZE

    def chance_items(self, config: GameConfig) -> list[str]:
        return list(KINDS)  # the chests, by building kind

    def notation_items(self, config: GameConfig) -> list[str]:
        """``room1``..``room3``: the items of ``buy ITEM CARDS``."""
        return list(ITEMS)

    # ----- purchases --------------------------------------------------------------------
    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        """Each full room, on a turn only: at least 8 in any mix of the base currencies (or
        diamonds alone), no extra action, no needless card."""
        if out_of_turn:
            return []
        sl = chamber(state)
        if sl.bought:
            return []  # pragma: no cover - a room bought ends the action phase
        ways: tuple[frozenset[int], ...] = (frozenset(range(len(CURRENCIES))),)
        currencies = state.components.currencies
        if "diamond" in currencies:
            ways += (frozenset({currencies.index("diamond")}),)
        return [
            Offer(ITEMS[i], self.id, PRICE, ways, again_if_exact=False, minimal=True, label=f"the treasure chests of room {i + 1}")
            for i, room in enumerate(sl.rooms)
            if room
        ]

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        """The room's chests wait beside the buyer's Alhambra until the end of the turn."""
        sl = chamber(state)
        room = ITEMS.index(offer.item) + 1
        state.mods[self.id] = replace(sl.with_room(room, ()), bought=sl.rooms[room - 1], room=room)

    # ----- turn points ------------------------------------------------------------------
    def turn_ending(self, state: GameState, events: list[Event]) -> None:
        """After the turn's tiles are placed: the chests bought this turn go into buildings."""
        sl = chamber(state)
        if not sl.bought:
            return
        state.mods[self.id] = replace(sl, bought=(), room=0)
        seat = state.current
        state.pending.append(TreasureChestPlacement(seat, sl.bought, recipients(state, seat), sl.room))

    def after_action(self, state: GameState, events: list[Event]) -> None:
        """A building that left an Alhambra sends its chest back to the bag."""
        sl = chamber(state)
        comp = state.components
        new = sl
        for s, homes in enumerate(sl.homes):
            if not homes:
                continue
            present = set(state.players[s].city.values())
            gone = [code for code in homes if comp.tile_ids[code] not in present]
            if gone:
                for code in gone:
                    kind = comp.tiles[comp.tile_ids[code]].kind
                    events.append(ChestLost(s, code, kind))
                    new = new.with_bag((kind,))
                new = new.with_home(s, tuple(c for c in homes if c not in gone))
        if new is not sl:
            state.mods[self.id] = new

    # ----- the placement ----------------------------------------------------------------
    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """Put in the chests that have only one way to go; wait while the player has a choice;
        then pass the rest on (the neutral player's buildings take theirs by themselves), put
        what is left back into the bag and refill the room."""
        assert isinstance(pending, TreasureChestPlacement)
        chests, free = _place_forced(state, pending.seat, pending.chests, events)
        counts = Counter(chests)
        if any(0 < counts[k] < len(free[k]) for k in counts):
            if chests != pending.chests:
                state.pending[-1] = replace(pending, chests=chests)
            return
        state.pending.pop()
        self._pass_on(state, pending.seat, chests, pending.later, pending.room, events)

    def _pass_on(
        self, state: GameState, seat: int, chests: tuple[str, ...], later: tuple[int, ...], room: int, events: list[Event]
    ) -> None:
        """Chests ``seat`` could not place go to the next recipients; the rest back to the bag, then the refill."""
        rest = list(later)
        while chests and rest:
            to = rest.pop(0)
            events.append(ChestsPassed(seat, to, chests))
            if to != NEUTRAL:
                state.pending.append(TreasureChestPlacement(to, chests, tuple(rest), room))
                return
            chests = _place_forced(state, NEUTRAL, chests, events, choose=True)[0]
            seat = to
        sl = chamber(state)
        if chests:
            events.append(ChestsReturned(chests))
            sl = sl.with_bag(chests)
        if room:
            sl = self._refill(state, sl, room, events)
        state.mods[self.id] = sl

    def _refill(self, state: GameState, sl: ChamberState, room: int, events: list[Event]) -> ChamberState:
        left = sum(sl.bag)
        if sl.closed or left < ROOM_SIZE:
            if not sl.closed:
                events.append(ChamberRoomLeftEmpty(room, left))
            return replace(sl, closed=True)
        chests = sl.bag_chests()
        decided = module_draw(state, self.id, chests, ROOM_SIZE)  # explicit chance, else seeded:
        drawn = sort_chests(module_random(state, self.id).sample(chests, ROOM_SIZE) if decided is None else decided)
        events.append(ChamberRefilled(room, drawn))
        return sl.with_bag(drawn, -1).with_room(room, drawn)

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """The buildings the player may choose for a chest."""
        assert isinstance(pending, TreasureChestPlacement)
        return list(placement_choices(state, pending))

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` puts a chest into a building that may take it now."""
        if not isinstance(action, ChestPut):
            raise IllegalAction(f"{action} is not a treasure chamber action")
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, TreasureChestPlacement):
            raise WrongPhase("treasure chests are put into buildings only at the end of the turn in which they were bought")
        x, y = action.target
        if not (-500 < x < 500 and -500 < y < 500):
            raise IllegalAction(f"{x},{y} is far outside your Alhambra")
        comp = state.components
        t = state.players[top.seat].city.get(geo.pos(x, y))
        if t is None:
            raise IllegalAction(f"there is no building at {x},{y} in your Alhambra")
        tt = comp.tiles[t]
        if tt.kind not in _KI:
            raise IllegalAction(f"{tt.code} at {x},{y} is no building of the six kinds: chests go only into buildings")
        if t in unbuilt_tiles(state, top.seat):
            raise IllegalAction(f"{tt.code} at {x},{y} is not built yet (a building site): chests go only into built buildings")
        if tt.code in chamber(state).homes[top.seat]:
            raise IllegalAction(f"{tt.code} at {x},{y} already holds a treasure chest (one chest per building)")
        if tt.kind not in top.chests:
            left = _chests_text(top.chests)
            raise IllegalAction(f"you have no {COLOUR_OF[tt.kind]} chest to put into {tt.code} (chests to place: {left})")
        if action not in placement_choices(state, top):  # pragma: no cover - resume puts forced chests in first
            raise IllegalAction(f"the {COLOUR_OF[tt.kind]} chests go in by themselves")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Put one chest into the chosen building."""
        assert isinstance(action, ChestPut)
        top = state.pending[-1]
        assert isinstance(top, TreasureChestPlacement)
        t = state.players[top.seat].city[geo.pos(*action.target)]
        tt = state.components.tiles[t]
        sl = chamber(state)
        state.mods[self.id] = sl.with_home(top.seat, (*sl.homes[top.seat], tt.code))
        events.append(ChestsPlaced(top.seat, (tt.code,), (tt.kind,)))
        chests = list(top.chests)
        chests.remove(tt.kind)
        state.pending[-1] = replace(top, chests=tuple(chests))

    # ----- scoring ----------------------------------------------------------------------
    def before_scoring(self, state: GameState, round_no: int, events: list[Event]) -> None:
        """Record the chest counts the round is scored with (for the log and the breakdown)."""
        counts = chest_counts(state)
        n = state.config.players
        aw = majority_awards(counts, POINTS[round_no - 1])
        neutral = counts[n] if len(counts) > n else -1
        events.append(ChestsCounted(round_no, tuple(counts[:n]), tuple(aw[:n]), neutral, aw[n] if len(aw) > n else 0))

    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """The chest majority: 7 / 14, 7 / 22, 14, 7 (ties as for buildings). With 2 players the
        neutral player takes part and his points, the last entry, go to his score (one
        bookkeeping for every module: docs/rules-notes.md)."""
        return majority_awards(chest_counts(state), POINTS[round_no - 1])

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """The chest majority for every scoring round still to come (the next one counts
        fully, later ones less: others may catch up), with the chests still waiting to be
        placed given to whoever will get them."""
        if state.outcome is not None or state.rounds_scored >= 3:
            return None
        counts = _projected_counts(state)
        n = state.config.players
        out = [0.0] * n
        for i, r in enumerate(range(state.rounds_scored, 3)):
            aw = majority_awards(counts, POINTS[r])
            w = _ROUND_WEIGHTS[i]
            for s in range(n):
                out[s] += w * aw[s]
        return out

    # ----- views and persistence --------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Everything is public: the rooms, the bag's chests per colour, the chests in every
        player's buildings (with where they stand), the chests bought this turn or being placed."""
        sl = chamber(state)
        comp = state.components
        seats = []
        for s, homes in enumerate(sl.homes):
            where = {comp.tiles[t].code: geo.xy(q) for q, t in state.players[s].city.items()}
            tiles = []
            for code in homes:
                x, y = where.get(code, (None, None))
                tiles.append({"tile": code, "kind": comp.tiles[comp.tile_ids[code]].kind, "x": x, "y": y})
            seats.append({"seat": s, "count": len(homes), "chests": tiles})
        neutral = None
        if state.neutral is not None:
            neutral = {"count": len(sl.neutral), "chests": [{"tile": c, "kind": comp.tiles[comp.tile_ids[c]].kind} for c in sl.neutral]}
        placing = next((p for p in reversed(state.pending) if isinstance(p, TreasureChestPlacement)), None)
        counts = chest_counts(state)
        return {
            "price": PRICE,
            "rooms": [list(r) for r in sl.rooms],
            "bag": {k: v for k, v in zip(KINDS, sl.bag, strict=True)},
            "bag_total": sum(sl.bag),
            "closed": sl.closed,
            "bought": list(sl.bought),
            "bought_room": sl.room,
            "seats": seats,
            "neutral": neutral,
            "placing": None
            if placing is None
            else {"seat": placing.seat, "chests": list(placing.chests), "later": list(placing.later), "room": placing.room},
            "leaders": _leaders(counts, state.config.players),
            "points": [list(p) for p in POINTS],
            "colours": dict(COLOUR_OF),
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public."""
        mv = module_view
        neutral = mv["neutral"]
        return ChamberState(
            tuple(tuple(r) for r in mv["rooms"]),
            tuple(int(mv["bag"][k]) for k in KINDS),
            tuple(tuple(c["tile"] for c in s["chests"]) for s in mv["seats"]),
            () if neutral is None else tuple(c["tile"] for c in neutral["chests"]),
            tuple(mv["bought"]),
            int(mv["bought_room"]),
            bool(mv["closed"]),
        )

    def slice_to_json(self, value: Any) -> Any:
        """The slice as plain JSON data."""
        assert isinstance(value, ChamberState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`ChamberState`."""
        return ChamberState.from_dict(data)


def _leaders(counts: list[int], players: int) -> list[int]:
    """The seats (-1: the neutral player) with the most chests now (none while nobody has one)."""
    best = max(counts, default=0)
    if best <= 0:
        return []
    return [s if s < players else NEUTRAL for s, c in enumerate(counts) if c == best]


def _place_forced(
    state: GameState, seat: int, chests: tuple[str, ...], events: list[Event], choose: bool = False
) -> tuple[tuple[str, ...], dict[str, list[str]]]:
    """Put in every chest of a colour for which ``seat`` has no more free buildings than chests
    (every free building of that colour takes one); with ``choose`` (the neutral player) also
    the others, into his first free buildings. Returns the chests still to place and the free
    buildings left."""
    if not chests:
        return chests, {k: [] for k in KINDS}
    free = free_buildings(state, seat)
    counts = Counter(chests)
    tiles: list[str] = []
    kinds: list[str] = []
    for kind in KINDS:
        c = counts.get(kind, 0)
        if c and (choose or len(free[kind]) <= c):
            got = free[kind][:c]
            del free[kind][:c]
            tiles += got
            kinds += [kind] * len(got)
            counts[kind] -= len(got)
    if not tiles:
        return chests, free
    sl = chamber(state)
    home = sl.neutral if seat == NEUTRAL else sl.homes[seat]
    state.mods[MODULE_ID] = sl.with_home(seat, (*home, *tiles))
    events.append(ChestsPlaced(seat, tuple(tiles), tuple(kinds)))
    return sort_chests(counts.elements()), free


_ROUND_WEIGHTS: Final = (1.0, 0.8, 0.6)
"""Bots: the weight of the next scoring round, the one after and the one after that."""


def _projected_counts(state: GameState) -> list[int]:
    """Chest counts (seats, then the neutral player) once the chests still on their way are
    placed: bought this turn (the tiles waiting to be placed count as built) or being placed."""
    sl = chamber(state)
    counts = chest_counts(state)
    placing = next((p for p in reversed(state.pending) if isinstance(p, TreasureChestPlacement)), None)
    if sl.bought:
        chain: tuple[int, ...] = (state.current, *recipients(state, state.current))
        chests: tuple[str, ...] = sl.bought
    elif placing is not None:
        chain = (placing.seat, *placing.later)
        chests = placing.chests
    else:
        return counts
    n = state.config.players
    left = Counter(chests)
    waiting: Counter[str] = Counter()
    for p in state.pending:
        if isinstance(p, PlaceTiles) and p.seat == state.current:
            waiting.update(state.components.tiles[state.components.tile_ids[c]].kind for c in p.tiles)
    for i, s in enumerate(chain):
        free = free_buildings(state, s, sl)
        for kind in KINDS:
            c = left[kind]
            if not c:
                continue
            room = len(free[kind]) + (waiting[kind] if (i == 0 and sl.bought) else 0)
            got = min(c, room)
            left[kind] -= got
            counts[n if s == NEUTRAL else s] += got
    return counts


MODULE: Final = TreasureChamber()
"""Treasure Chamber (Big Box module ``treasure_chamber``): see ``README.md``."""
