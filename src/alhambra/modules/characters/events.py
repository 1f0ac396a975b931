"""The characters' events (past tense, for the log and the trackers)."""

from __future__ import annotations

from dataclasses import dataclass

from ...events import Event
from .components import BY_KEY


def _p(seat: int) -> str:
    return f"player {seat + 1}"


def _n(key: str) -> str:
    return BY_KEY[key].name


@dataclass(frozen=True, slots=True)
class CharacterDrawn(Event):
    """A character card came up from the money pile: ``character`` is auctioned."""

    character: str

    def describe(self) -> str:
        return f"the {_n(self.character)} comes up and is auctioned"


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """``seat`` bid ``amount`` for ``character``."""

    seat: int
    character: str
    amount: int

    def describe(self) -> str:
        return f"{_p(self.seat)} bids {self.amount} for the {_n(self.character)}"


@dataclass(frozen=True, slots=True)
class BidPassed(Event):
    """``seat`` is out of the auction of ``character``."""

    seat: int
    character: str

    def describe(self) -> str:
        return f"{_p(self.seat)} passes on the {_n(self.character)}"


@dataclass(frozen=True, slots=True)
class CharacterWon(Event):
    """``seat`` paid ``payment`` (its bid ``bid``) and owns ``character``."""

    seat: int
    character: str
    bid: int
    payment: tuple[str, ...]

    def describe(self) -> str:
        return f"{_p(self.seat)} pays {'+'.join(self.payment)} for the {_n(self.character)} (bid {self.bid})"


@dataclass(frozen=True, slots=True)
class CharacterRemoved(Event):
    """``character`` leaves the game (nobody bid for it, or it was used up)."""

    character: str
    why: str

    def describe(self) -> str:
        return f"the {_n(self.character)} leaves the game ({self.why})"


@dataclass(frozen=True, slots=True)
class EntertainerDecided(Event):
    """``seat`` kept the Entertainer, or swapped it for ``got`` from the surplus pile."""

    seat: int
    got: str | None

    def describe(self) -> str:
        if self.got is None:
            return f"{_p(self.seat)} keeps the Travelling Entertainer (8 points)"
        return f"{_p(self.seat)} swaps the Travelling Entertainer for the {_n(self.got)} from the surplus pile"


@dataclass(frozen=True, slots=True)
class CharacterUsed(Event):
    """``seat`` used ``character``; ``detail`` says how (for the log)."""

    seat: int
    character: str
    detail: str

    def describe(self) -> str:
        return f"{_p(self.seat)} uses the {_n(self.character)}: {self.detail}"


@dataclass(frozen=True, slots=True)
class CardGivenUp(Event):
    """``seat`` discarded ``payment`` (the Moneychanger's exchange): the tracker reads ``payment``."""

    seat: int
    payment: tuple[str, ...]

    def describe(self) -> str:
        return f"{_p(self.seat)} discards {'+'.join(self.payment)}"
