"""Actions: immutable, imperative values with a compact text notation that round-trips.

Notation (one action per line; squares and display slots are numbered 1-4)::

    take b3+g2                 take money cards from the display (by face)
    buy 2 b7+b2                buy the tile on market square 2, paying blue 7 and blue 2
    place G8sw 1,-2            build a bought tile at x=1, y=-2 (x east, y south of the fountain)
    place G8sw reserve         put a bought tile on the reserve board
    place G8sw neutral         give a bought tile to the neutral player (2-player game)
    redesign build G8sw 1,-2   reserve board -> Alhambra
    redesign remove G8sw       Alhambra -> reserve board
    redesign exchange T9ne G8sw  reserve tile T9ne takes the place of G8sw in the Alhambra
    buy BZo2 o4                buy something a module offers (an item token starts with a letter)
    end                        pass the turn when no other action is possible
    pass                       between turns: make no out-of-turn move

Modules register their own keywords (``vizier wake`` ...). :func:`parse_action` reads any of
them; ``str(action)`` writes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .components import CURRENCY_LETTERS
from .errors import NotationError
from .values import Value

Target = tuple[int, int] | str
"""Where a tile goes: ``(x, y)`` in the Alhambra, ``"reserve"`` or ``"neutral"``."""

_PARSERS: dict[str, Callable[[list[str]], Action]] = {}


class Action(Value):
    """Base of every action. ``str(action)`` is its notation."""

    __slots__ = ()
    registry: ClassVar[dict[str, type[Value]]] = {}

    def notation(self) -> str:
        """The action in text notation."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.notation()


def register_parser(keyword: str, parser: Callable[[list[str]], Action]) -> None:
    """Make ``parse_action`` read lines starting with ``keyword`` (one or two words)."""
    _PARSERS[keyword] = parser


def registered_keywords() -> list[str]:
    """Every keyword ``parse_action`` reads (one or two words), sorted; modules add theirs when loaded."""
    return sorted(_PARSERS)


def parse_action(text: str) -> Action:
    """Parse one action in text notation; raise :class:`NotationError` with the reason."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty action")
    for n in (2, 1):
        key = " ".join(words[:n]).lower()
        if len(words) >= n and key in _PARSERS:
            try:
                return _PARSERS[key](words[n:])
            except NotationError:
                raise
            except (ValueError, IndexError) as e:
                raise NotationError(f"cannot read {text.strip()!r}: {e}") from None
    raise NotationError(f"unknown action {words[0]!r} in {text.strip()!r}")


def card_sort_key(code: str) -> tuple[int, str, int]:
    """Canonical order of card codes: special cards first, then money by currency, high to low."""
    if code and code[0] in CURRENCY_LETTERS and code[1:].isdigit():
        return (1, code[0], -int(code[1:]))
    return (0, code, 0)


def canonical_cards(codes: Iterable[str]) -> tuple[str, ...]:
    """Card codes in canonical order."""
    return tuple(sorted(codes, key=card_sort_key))


_CARD_RE = re.compile(r"^[a-z][a-z0-9]*$")


def parse_cards(text: str) -> tuple[str, ...]:
    """Read ``b7+b2`` into canonical card codes."""
    parts = [p.strip().lower() for p in text.split("+")]
    if not parts or any(not _CARD_RE.match(p) for p in parts):
        raise NotationError(f"bad card list {text!r} (write cards like b7+b2)")
    return canonical_cards(parts)


def format_target(t: Target) -> str:
    """``(1, -2)`` -> ``1,-2``; names pass through."""
    if isinstance(t, str):
        return t
    return f"{t[0]},{t[1]}"


def parse_xy(text: str) -> tuple[int, int]:
    """Read ``1,-2`` into ``(1, -2)``."""
    m = re.fullmatch(r"\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?", text)
    if not m:
        raise NotationError(f"bad position {text!r} (write x,y like 1,-2)")
    return int(m.group(1)), int(m.group(2))


def parse_target(text: str) -> Target:
    """Read a position, ``reserve`` or ``neutral``."""
    low = text.lower()
    if low in ("reserve", "neutral"):
        return low
    return parse_xy(text)


def _need(words: list[str], n: int, usage: str) -> None:
    if len(words) != n:
        raise NotationError(f"usage: {usage}")


@dataclass(frozen=True, slots=True)
class TakeMoney(Action):
    """Take money cards from the display: one card, or several money cards totalling at most 5."""

    cards: tuple[str, ...]

    def notation(self) -> str:
        return "take " + "+".join(self.cards)


@dataclass(frozen=True, slots=True)
class BuyBuilding(Action):
    """Buy the tile on a market square (1-4) with these cards from the hand."""

    square: int
    payment: tuple[str, ...]

    def notation(self) -> str:
        return f"buy {self.square} " + "+".join(self.payment)


@dataclass(frozen=True, slots=True)
class BuyItem(Action):
    """Buy something a module offers besides the market squares (``Module.offers``): a bazaar, a
    sultan card, treasure chests... ``item`` is the offer's token (it starts with a letter)."""

    item: str
    payment: tuple[str, ...]

    def notation(self) -> str:
        return f"buy {self.item} " + "+".join(self.payment)


@dataclass(frozen=True, slots=True)
class PlaceBuilding(Action):
    """Place a tile that waits next to the Alhambra: into the Alhambra, the reserve, or to the neutral player."""

    tile: str
    target: Target

    def notation(self) -> str:
        return f"place {self.tile} {format_target(self.target)}"


@dataclass(frozen=True, slots=True)
class BuildFromReserve(Action):
    """Redesign: build a tile from the reserve board into the Alhambra."""

    tile: str
    target: tuple[int, int]

    def notation(self) -> str:
        return f"redesign build {self.tile} {format_target(self.target)}"


@dataclass(frozen=True, slots=True)
class MoveToReserve(Action):
    """Redesign: take a tile out of the Alhambra onto the reserve board."""

    tile: str

    def notation(self) -> str:
        return f"redesign remove {self.tile}"


@dataclass(frozen=True, slots=True)
class ExchangeTiles(Action):
    """Redesign: a reserve tile takes exactly the place of a tile in the Alhambra, which goes to the reserve."""

    reserve_tile: str
    city_tile: str

    def notation(self) -> str:
        return f"redesign exchange {self.reserve_tile} {self.city_tile}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Pass the turn: only when no other action is possible (every money card in the hands,
    nothing affordable, nothing to redesign)."""

    def notation(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Between turns: make no out-of-turn move now."""

    def notation(self) -> str:
        return "pass"


def _tile_word(w: str) -> str:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", w):
        raise NotationError(f"bad tile code {w!r}")
    return w[0].upper() + w[1:].lower()


def _parse_take(w: list[str]) -> Action:
    _need(w, 1, "take b3+g2")
    return TakeMoney(parse_cards(w[0]))


def _parse_buy(w: list[str]) -> Action:
    _need(w, 2, "buy SQUARE CARDS (e.g. buy 2 b7+b2) or buy ITEM CARDS")
    if w[0].isdigit():
        return BuyBuilding(int(w[0]), parse_cards(w[1]))
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", w[0]):
        raise NotationError(f"bad market square or item {w[0]!r} (a square is 1-4; an item starts with a letter)")
    return BuyItem(w[0], parse_cards(w[1]))


def _parse_place(w: list[str]) -> Action:
    _need(w, 2, "place TILE x,y|reserve|neutral")
    return PlaceBuilding(_tile_word(w[0]), parse_target(w[1]))


def _parse_rbuild(w: list[str]) -> Action:
    _need(w, 2, "redesign build TILE x,y")
    return BuildFromReserve(_tile_word(w[0]), parse_xy(w[1]))


def _parse_rremove(w: list[str]) -> Action:
    _need(w, 1, "redesign remove TILE")
    return MoveToReserve(_tile_word(w[0]))


def _parse_rexchange(w: list[str]) -> Action:
    _need(w, 2, "redesign exchange RESERVE_TILE ALHAMBRA_TILE")
    return ExchangeTiles(_tile_word(w[0]), _tile_word(w[1]))


def _parse_end(w: list[str]) -> Action:
    _need(w, 0, "end")
    return EndTurn()


def _parse_pass(w: list[str]) -> Action:
    _need(w, 0, "pass")
    return Pass()


register_parser("take", _parse_take)
register_parser("buy", _parse_buy)
register_parser("place", _parse_place)
register_parser("redesign build", _parse_rbuild)
register_parser("redesign remove", _parse_rremove)
register_parser("redesign exchange", _parse_rexchange)
register_parser("end", _parse_end)
register_parser("pass", _parse_pass)


def action_from_dict(data: dict[str, Any]) -> Action:
    """Rebuild any registered action from its JSON dict, checking it is well formed.

    The dict is read into an action and checked by a round trip through the text notation, so
    a field of the wrong type (``"cards": 5``) is a :class:`NotationError`, never a crash later.
    """
    action = Action.from_dict(data)
    try:
        again = parse_action(action.notation())
    except (NotationError, TypeError, ValueError, AttributeError, IndexError, KeyError):
        again = None
    if again != action:
        raise NotationError(f"malformed action {data!r}")
    return action
