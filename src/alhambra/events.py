"""Events: immutable, past-tense values describing what an action caused.

Every event here is public (it describes something every player at the table sees). Events
never carry the seed, the deck order or the bag order. Seats are 0-based; ``-1`` never appears.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .values import Value, fast_init


class Event(Value):
    """Base of every event."""

    __slots__ = ()
    registry: ClassVar[dict[str, type[Value]]] = {}
    reveals: ClassVar[bool] = False
    """True for an event that shows something hidden until then (a secret card played): the
    server's undo never takes back an action that caused one."""

    def seen_by(self, viewer: int | None) -> Event:
        """This event as ``viewer`` (a seat, or None for a spectator) may see it: itself for a
        public event; a private event returns a redacted copy for everybody else (one event per
        event, so event logs keep the same length for every viewer)."""
        return self

    def describe(self) -> str:
        """One readable line for logs (seats as 'player N', 1-based)."""
        return type(self).__name__


def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """Setup is done. Starting money was dealt face up, so it is public."""

    players: int
    starting_player: int
    starting_money: tuple[tuple[str, ...], ...]
    market: tuple[str | None, ...]
    display: tuple[str | None, ...]
    neutral_tiles: tuple[str, ...]
    modules: tuple[str, ...]

    def describe(self) -> str:
        return f"game of {self.players} starts; {_p(self.starting_player)} begins"


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A player's turn begins."""

    seat: int
    turn: int

    def describe(self) -> str:
        return f"turn {self.turn}: {_p(self.seat)}"


@dataclass(frozen=True, slots=True)
class MoneyTaken(Event):
    """A player took money cards from the display."""

    seat: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        return f"{_p(self.seat)} takes {'+'.join(self.cards)}"


@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    """Cards went into a seat's hand from anywhere but the display (a module gave them: a card
    drawn for a rule, a card won; ``source`` is the module's id). ``count`` is how many. A ``secret`` gift
    shows the cards to the seat only; everybody else sees the count (``cards`` empty). Made by
    :func:`alhambra.engine.services.give_cards`; the bots' tracker and the research hands read it."""

    seat: int
    cards: tuple[str, ...]
    count: int
    source: str
    secret: bool = False

    def seen_by(self, viewer: int | None) -> Event:
        if not self.secret or viewer == self.seat or not self.cards:
            return self
        return CardsReceived(self.seat, (), self.count, self.source, True)

    def describe(self) -> str:
        if self.cards:
            return f"{_p(self.seat)} receives {'+'.join(self.cards)}"
        return f"{_p(self.seat)} receives {self.count} card{'s' if self.count != 1 else ''} in secret"


@dataclass(frozen=True, slots=True)
class ItemBought(Event):
    """A player bought something a module offers (``buy ITEM CARDS``); ``label`` says what.
    ``never_exact``: the offer never counts as an exact payment (a building site)."""

    seat: int
    item: str
    label: str
    payment: tuple[str, ...]
    exact: bool
    never_exact: bool = False

    def describe(self) -> str:
        how = "never an exact payment" if self.never_exact else "exactly" if self.exact else "with overpayment"
        return f"{_p(self.seat)} buys {self.label or self.item} for {'+'.join(self.payment)} ({how})"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """Between turns, a player made no out-of-turn move."""

    seat: int

    def describe(self) -> str:
        return f"{_p(self.seat)} passes"


@dataclass(frozen=True, slots=True)
class BuildingBought(Event):
    """A player bought a tile from the market; ``exact`` means they may act again."""

    seat: int
    square: int
    tile: str
    payment: tuple[str, ...]
    exact: bool

    def describe(self) -> str:
        how = "exactly" if self.exact else "with overpayment"
        return f"{_p(self.seat)} buys {self.tile} from square {self.square} for {'+'.join(self.payment)} ({how})"


@dataclass(frozen=True, slots=True)
class TileTurnedOver(Event):
    """A player paid to turn a waiting tile over (two-sided tiles, Granada): ``tile`` was the
    face shown, ``face`` is the face now shown; it must be built at once."""

    seat: int
    tile: str
    face: str
    payment: tuple[str, ...]

    def describe(self) -> str:
        return f"{_p(self.seat)} turns {self.tile} over to {self.face} for {'+'.join(self.payment)}"


@dataclass(frozen=True, slots=True)
class MarkerSwitched(Event):
    """The market was completely restocked: the black marker now shows ``face`` ("even"/"odd")."""

    face: str

    def describe(self) -> str:
        return f"the marker now shows the {self.face} side"


@dataclass(frozen=True, slots=True)
class BuildingPlaced(Event):
    """A waiting tile went into the Alhambra (``target`` x,y), the reserve or to the neutral player."""

    seat: int
    tile: str
    target: tuple[int, int] | str

    def describe(self) -> str:
        t = self.target
        where = f"at {t[0]},{t[1]}" if isinstance(t, tuple) else ("to the neutral player" if t == "neutral" else "on the reserve board")
        return f"{_p(self.seat)} places {self.tile} {where}"


@dataclass(frozen=True, slots=True)
class AlhambraRedesigned(Event):
    """A redesign: ``how`` is build (reserve->Alhambra), remove, or exchange (``tile`` in, ``other`` out)."""

    seat: int
    how: str
    tile: str
    x: int
    y: int
    other: str | None = None

    def describe(self) -> str:
        if self.how == "build":
            return f"{_p(self.seat)} builds {self.tile} from the reserve at {self.x},{self.y}"
        if self.how == "remove":
            return f"{_p(self.seat)} moves {self.tile} from {self.x},{self.y} to the reserve"
        return f"{_p(self.seat)} exchanges {self.other} at {self.x},{self.y} for {self.tile} from the reserve"


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """A player's turn is over."""

    seat: int

    def describe(self) -> str:
        return f"{_p(self.seat)} ends the turn"


@dataclass(frozen=True, slots=True)
class DisplayRefilled(Event):
    """New cards were laid face up on display slots (1-4)."""

    slots: tuple[int, ...]
    cards: tuple[str, ...]

    def describe(self) -> str:
        return "display refilled: " + ", ".join(f"{s}:{c}" for s, c in zip(self.slots, self.cards, strict=True))


@dataclass(frozen=True, slots=True)
class MarketRefilled(Event):
    """New tiles were put on market squares (1-4), in ascending order."""

    squares: tuple[int, ...]
    tiles: tuple[str, ...]

    def describe(self) -> str:
        return "market refilled: " + ", ".join(f"{s}:{t}" for s, t in zip(self.squares, self.tiles, strict=True))


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    """The draw pile ran out; the discard pile was shuffled into a new one of ``cards`` cards."""

    cards: int

    def describe(self) -> str:
        return f"discards shuffled into a new draw pile of {self.cards} cards"


@dataclass(frozen=True, slots=True)
class ScoringCardDrawn(Event):
    """A scoring card came up; scoring happens before the next turn."""

    round: int

    def describe(self) -> str:
        return f"scoring card {self.round} drawn"


@dataclass(frozen=True, slots=True)
class NeutralTilesReceived(Event):
    """The neutral player (Dirk) received tiles from the bag."""

    tiles: tuple[str, ...]

    def describe(self) -> str:
        return f"the neutral player receives {' '.join(self.tiles) or 'nothing'}"


@dataclass(frozen=True, slots=True)
class RoundScored(Event):
    """A scoring round. ``kinds`` maps kind to points per seat (neutral last in 2-player games);
    ``walls`` are the longest-wall lengths per seat; ``points`` the round's total per seat;
    ``extra`` is what modules added per seat, by module id; ``scores`` the totals after it."""

    round: int
    kinds: dict[str, tuple[int, ...]]
    counts: dict[str, tuple[float, ...]]
    walls: tuple[int, ...]
    points: tuple[int, ...]
    extra: dict[str, tuple[int, ...]]
    scores: tuple[int, ...]
    neutral_points: int
    neutral_score: int

    def describe(self) -> str:
        pts = ", ".join(f"{_p(i)} {p:+d}" for i, p in enumerate(self.points))
        return f"scoring round {self.round}: {pts}"


@dataclass(frozen=True, slots=True)
class MarketTileAwarded(Event):
    """At the end, a market tile went to the player with the most money of its square's currency."""

    seat: int
    square: int
    tile: str

    def describe(self) -> str:
        return f"{_p(self.seat)} receives {self.tile} from square {self.square}"


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over; ``outcome`` is ``finished`` or ``truncated`` (turn limit)."""

    outcome: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self) -> str:
        w = " and ".join(_p(s) for s in self.winners)
        return f"game {self.outcome}: scores {list(self.scores)}; winner {w}"


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild any registered event from its JSON dict."""
    return Event.from_dict(data)


for _cls in list(Event.registry.values()):
    fast_init(_cls)
