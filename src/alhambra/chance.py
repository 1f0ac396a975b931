"""Explicit chance: every draw as a decision with exact probabilities (for OpenSpiel and friends).

Normally the seed fixes the tile bag, the money deck and every reshuffle, and draws happen
inside :func:`~alhambra.engine.apply`. In *explicit-chance* mode
(``new_game(config, explicit_chance=True)``) the deck and the bag have no order. Each draw
takes the next outcome from the state's queue of decided draws; when that queue is empty the
engine raises :class:`ChanceNeeded` and leaves the state it was given untouched (``apply``
works on a copy). The caller then asks :func:`chance_outcomes` for the distribution of that
draw, picks an outcome, records it with :func:`decide` on its own state (or passes it to
``new_game(..., decided=...)`` during setup) and retries. Setup deals its draws the same way.

Probabilities follow the physical deck:

* tiles: every tile still in the bag is equally likely;
* money cards before the piles are built (starting money, first display) and after a reshuffle:
  every card in the deck is equally likely;
* from the five piles: the next card comes from the top pile that still has cards. A special
  card (a scoring card, or a module's card such as a currency exchange card) can only come from
  the pile it was shuffled into: the engine tracks, per pile, how many cards are left and how
  many special cards of each class (``S1``, ``S2``, ``exchange``...) it holds. With ``r`` cards
  left in the current pile, ``k`` of them of class ``c`` and ``m`` undrawn cards of that class,
  a given card of the class comes next with probability ``k / r / m``; a money face with
  ``n`` copies among the ``N`` money cards in the deck comes next with probability
  ``(r - specials) / r * n / N``. (Cards of one class are interchangeable: which exchange card
  went into which pile is unknown to everyone, so each undrawn one is equally likely.) Money
  cards a module puts into chosen piles (master builders: piles 3 and 5) are tracked the same
  way, each code its own class; money shuffled in with the rest (diamonds) is plain money.

Modules' own draws during play (a chest from the treasure chamber's bag, change coins, a
sultan's extra tile, building-site tiles) are chance nodes too: a module calls
:func:`alhambra.engine.module_draw` with the pool it draws from, and an undecided draw raises
:class:`ChanceNeeded` of kind ``module`` whose :attr:`ChanceNeeded.draw` gives the pool (each
entry equally likely) and, for a secret draw, the one seat that sees the item. Outcomes are
``MODULE:ITEM`` codes, decided with ``decide(state, "module", code)``. Secret deals at setup
(thieves, bonus cards, master builders) are such draws too, one per item, each shown to its
seat alone (:func:`alhambra.engine.module_deal`); cards set aside face down are drawn with
``secret_to`` :data:`NOBODY`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import AlhambraError, IllegalAction

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["NOBODY", "ChanceNeeded", "ModuleDraw", "card_class", "chance_outcomes", "decide", "tracked_classes"]

NOBODY = -1
"""``secret_to`` of a draw no seat sees (a card set aside face down)."""


@dataclass(frozen=True, slots=True)
class ModuleDraw:
    """A module's random draw of one item from ``pool`` (one entry per physical item);
    ``secret_to``: the only seat that sees the item drawn (None: everybody; :data:`NOBODY`: no
    seat, as for a card set aside face down)."""

    module: str
    pool: tuple[str, ...]
    secret_to: int | None = None

    def outcomes(self) -> list[tuple[str, float]]:
        """``MODULE:ITEM`` codes with their probabilities (the item's share of the pool)."""
        n = len(self.pool)
        return [(f"{self.module}:{item}", k / n) for item, k in sorted(Counter(self.pool).items())]


class ChanceNeeded(AlhambraError):
    """A draw (``kind`` is ``"card"``, ``"tile"`` or ``"module"``) has no decided outcome yet.

    ``state`` is the partial state at the moment of the draw: pass it to
    :func:`chance_outcomes` (with ``draw``, the module's draw, for kind ``module``). It is a
    throwaway copy; never continue play from it.
    """

    def __init__(self, kind: str, state: GameState, draw: ModuleDraw | None = None) -> None:
        super().__init__(f"a {kind} draw needs a chance outcome")
        self.kind = kind
        self.state = state
        self.draw = draw


def card_class(kind: str, code: str) -> str | None:
    """The class a special card is tracked by in the pile model (None for money cards)."""
    if kind == "money":
        return None
    if kind == "scoring":
        return code
    return kind


def tracked_classes(piles: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] | None) -> frozenset[str]:
    """Every class the pile model tracks; besides the special cards' classes, the codes of money
    cards a module put into chosen piles (master builders), which are drawn by pile like them."""
    return frozenset(k for _, classes in piles or () for k, _ in classes)


def chance_outcomes(state: GameState, kind: str, draw: ModuleDraw | None = None) -> list[tuple[str, float]]:
    """The outcomes of the next draw of ``kind`` with their probabilities (summing to 1).

    Outcomes are card codes (``"b7"``, ``"S1"``, ``"xbg"``...), tile codes (``"G8sw"``) or,
    for kind ``module`` (pass the exception's ``draw``), ``MODULE:ITEM`` codes, in a stable order.
    """
    if kind == "module":
        if draw is None:
            raise ValueError("a module draw's outcomes need the draw (ChanceNeeded.draw)")
        return draw.outcomes()
    comp = state.components
    if kind == "tile":
        if not state.bag:
            return []
        p = 1.0 / len(state.bag)
        return sorted((comp.tiles[t].code, p) for t in state.bag)
    if kind != "card":
        raise ValueError(f"unknown chance kind {kind!r}")
    if state.piles is None:
        raise ValueError("the game is not in explicit-chance mode")
    cards = comp.cards
    deck = state.deck
    if not deck:
        return []
    slots, classes = next(((s, c) for s, c in state.piles if s > 0), (len(deck), ()))
    placed = tracked_classes(state.piles)
    money = Counter(cards[c].code for c in deck if cards[c].kind == "money" and cards[c].code not in placed)
    members: dict[str, list[str]] = {}
    for c in deck:
        cls = card_class(cards[c].kind, cards[c].code)
        if cls is None and cards[c].code in placed:
            cls = cards[c].code
        if cls is not None:
            members.setdefault(cls, []).append(cards[c].code)
    out: list[tuple[str, float]] = []
    specials = 0
    for cls, k in classes:
        codes = members.get(cls, [])
        if k <= 0 or not codes:
            continue
        specials += k
        for code, n in sorted(Counter(codes).items()):
            out.append((code, k / slots * n / len(codes)))
    total_money = sum(money.values())
    if total_money:
        share = (slots - specials) / slots
        for code, n in sorted(money.items()):
            out.append((code, share * n / total_money))
    return [(c, p) for c, p in out if p > 0]


def decide(state: GameState, kind: str, code: str) -> None:
    """Queue ``code`` as the outcome of the next undecided draw of ``kind`` in ``state``.

    ``state`` must be in explicit-chance mode. Outcomes are kept as codes and matched against
    the deck (or bag, or the module's pool: ``MODULE:ITEM`` for kind ``module``) when the draw
    happens, after any reshuffle; an outcome that is not possible then makes that draw raise
    :class:`~alhambra.errors.IllegalAction`.
    """
    if state.decided is None:
        raise IllegalAction("the game is not in explicit-chance mode")
    if kind == "module":
        if ":" not in code:
            raise IllegalAction(f"a module draw's outcome is MODULE:ITEM, not {code!r}")
        state.module_decided = (*state.module_decided, code)
        return
    cards, tiles = state.decided
    if kind == "card":
        state.decided = ((*cards, code), tiles)
    elif kind == "tile":
        state.decided = (cards, (*tiles, code))
    else:
        raise ValueError(f"unknown chance kind {kind!r}")
