"""The characters' state: the module's slice (all public) and its pending choices."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...errors import NotationError
from ...state import GameState, Pending
from .components import BY_KEY, MODULE_ID, NAMES


@dataclass(frozen=True, slots=True)
class CharactersState:
    """The module's slice (all public: which character a face-down card is, is drawn when it is
    turned up). ``cards``: the character cards not in the money pile (surplus pile, set aside
    for an auction, owned, out of the game). ``owned`` per seat; ``queue``: drawn, waiting for
    (the first: in) their auction; ``out``: removed from the game; ``surplus``: face-down
    cards in the surplus pile; ``known``: characters known to lie in it (the Entertainer given
    back); ``used``: round-symbol abilities used in the current turn; ``wise``: per seat the
    kind its Wise Man counts for in the coming scoring round ('' none)."""

    cards: tuple[int, ...]
    owned: tuple[tuple[str, ...], ...]
    queue: tuple[str, ...] = ()
    out: tuple[str, ...] = ()
    surplus: int = 4
    known: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    wise: tuple[str, ...] = ()
    scored_wise: tuple[str, ...] = ()
    """Per seat the kind its Wise Man counted for in the last scoring round ('' none): the record."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "cards": list(self.cards),
            "owned": [list(o) for o in self.owned],
            "queue": list(self.queue),
            "out": list(self.out),
            "surplus": self.surplus,
            "known": list(self.known),
            "used": list(self.used),
            "wise": list(self.wise),
            "scored_wise": list(self.scored_wise),
        }

    @classmethod
    def from_dict(cls, raw: Any) -> CharactersState:
        """Read the JSON form back (a :class:`NotationError` on junk)."""
        try:
            out = cls(
                tuple(int(c) for c in raw["cards"]),
                tuple(tuple(str(k) for k in o) for o in raw["owned"]),
                tuple(str(k) for k in raw["queue"]),
                tuple(str(k) for k in raw["out"]),
                int(raw["surplus"]),
                tuple(str(k) for k in raw["known"]),
                tuple(str(k) for k in raw["used"]),
                tuple(str(k) for k in raw["wise"]),
                tuple(str(k) for k in raw.get("scored_wise", ())),
            )
        except (TypeError, KeyError, ValueError) as e:
            raise NotationError(f"bad characters state {raw!r}") from e
        named = [k for o in out.owned for k in o] + list(out.queue) + list(out.out) + list(out.known)
        if any(k not in BY_KEY for k in named + list(out.used)) or len(set(named)) != len(named):
            raise NotationError(f"bad characters state {raw!r}: unknown or repeated characters")
        return out

    def seen(self) -> set[str]:
        """Characters whose card has been turned up (or is known to lie in the surplus pile)."""
        return {k for o in self.owned for k in o} | set(self.queue) | set(self.out) | set(self.known)

    def unseen(self) -> list[str]:
        """Characters nobody has seen yet (the face-down cards show one of these)."""
        s = self.seen()
        return [k for k in NAMES if k not in s]


def chars(state: GameState) -> CharactersState:
    """The module's slice of a game."""
    value = state.mods[MODULE_ID]
    assert isinstance(value, CharactersState)
    return value


def owns(state: GameState, seat: int, key: str) -> bool:
    """Whether ``seat`` owns the character ``key``."""
    return 0 <= seat < len(chars(state).owned) and key in chars(state).owned[seat]


def usable(state: GameState, seat: int, key: str) -> bool:
    """``seat`` owns ``key`` and has not used it in this turn (round symbol)."""
    sl = chars(state)
    return owns(state, seat, key) and not (BY_KEY[key].usage == "round" and key in sl.used)


def with_owner(sl: CharactersState, seat: int, key: str) -> CharactersState:
    """``sl`` with ``key`` owned by ``seat`` (kept in the data file's order)."""
    owned = list(sl.owned)
    owned[seat] = tuple(sorted((*owned[seat], key), key=NAMES.index))
    return replace(sl, owned=tuple(owned))


def without_owner(sl: CharactersState, seat: int, key: str) -> CharactersState:
    """``sl`` with ``key`` no longer owned by ``seat``."""
    owned = list(sl.owned)
    owned[seat] = tuple(k for k in owned[seat] if k != key)
    return replace(sl, owned=tuple(owned))


def use(state: GameState, key: str) -> None:
    """Mark ``key``'s round-symbol ability used in this turn."""
    sl = chars(state)
    if BY_KEY[key].usage == "round" and key not in sl.used:
        state.mods[MODULE_ID] = replace(sl, used=(*sl.used, key))


# ----- pending choices (data in the state) ------------------------------------------------
@dataclass(frozen=True, slots=True)
class Auction(Pending):
    """The auction of ``character``: ``seat`` (= ``order[0]``) bids or passes. ``order``: the
    seats still in, in bidding order from the one to act; ``high``: the highest bid (0: none
    yet) by ``leader`` (-1: none); ``auctioneer``: the seat due to play next when it was drawn."""

    module = MODULE_ID
    seat: int
    character: str
    order: tuple[int, ...]
    high: int = 0
    leader: int = -1
    auctioneer: int = 0


@dataclass(frozen=True, slots=True)
class CharacterPayment(Pending):
    """``seat`` won ``character`` for ``bid``: it pays with money of one currency (or diamonds)."""

    module = MODULE_ID
    seat: int
    character: str
    bid: int


@dataclass(frozen=True, slots=True)
class EntertainerChoice(Pending):
    """``seat`` has just won the Travelling Entertainer: keep it (8 points) or swap it for the
    top card of the surplus pile."""

    module = MODULE_ID
    seat: int


@dataclass(frozen=True, slots=True)
class TurnStart(Pending):
    """The start of ``seat``'s turn: it may use the Dancer and the Beggar first (or go on)."""

    module = MODULE_ID
    seat: int


@dataclass(frozen=True, slots=True)
class MiserChoice(Pending):
    """``seat`` bought a building of price 10 or more: it may take an open money card."""

    module = MODULE_ID
    seat: int


@dataclass(frozen=True, slots=True)
class MasterBuilderChoice(Pending):
    """The end of ``seat``'s turn: the Master Builder's extra redesign (or skip)."""

    module = MODULE_ID
    seat: int


@dataclass(frozen=True, slots=True)
class MasonRedesign(Pending):
    """``seat`` used its Master Builder for an extra redesign by another module's own redesign
    (``character redesign``): that redesign is taken now (``Module.redesign_actions``; the
    module's action ends it with :func:`alhambra.engine.finish_redesign`)."""

    module = MODULE_ID
    extra_redesign = True
    seat: int


@dataclass(frozen=True, slots=True)
class WiseChoice(Pending):
    """Before scoring round ``round_no``: ``seat`` names the kind its Wise Man counts for."""

    module = MODULE_ID
    seat: int
    round_no: int
