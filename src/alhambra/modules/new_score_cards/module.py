"""New score cards: three of eighteen cards, drawn open at setup, set the points per building kind
for each scoring round.

Each card orders the six building kinds from row 1 (top) to row 6 (bottom); the kind in row ``k``
of the round's card scores ``k`` in round 1 (1st place only), ``7+k`` / ``k`` in round 2 and
``15+k`` / ``7+k`` / ``k`` in round 3, for every player and the neutral player. The base game's
scoring table (printed on the scoring cards and the reserve boards) is not used; the two scoring
cards still trigger rounds 1 and 2 when they are drawn.

Flow (plug-in hooks): ``setup`` draws the three cards (``engine.module_draw`` in explicit-chance
mode, so each is a chance node; otherwise the setup's random generator); ``kind_points`` answers
the core's majority scoring, the bots and other modules (``engine.kind_points``). Everything is
public: ``view`` shows the three cards with their points.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from ...components import KINDS
from ...engine.services import module_draw
from ...events import Event
from ...hooks import Module
from ...slices import ModuleState
from ...state import GameConfig, GameState

MODULE_ID: Final = "new_score_cards"
ROUNDS: Final = 3


@dataclass(frozen=True, slots=True)
class ScoreCard:
    """One score card: its number (1-18) and the six building kinds from row 1 (top) to row 6."""

    number: int
    kinds: tuple[str, ...]

    def row(self, kind: str) -> int:
        """The row (1 = top ... 6 = bottom) of a building kind on this card."""
        return self.kinds.index(kind) + 1


@dataclass(frozen=True, slots=True)
class CardData:
    """The module's data file, read once."""

    cards: tuple[ScoreCard, ...]
    offsets: tuple[tuple[int, ...], ...]
    """Per round (index 0-2): what each place (1st, 2nd, ...) adds to the row number."""


@cache
def data() -> CardData:
    """Read ``components.json`` (the eighteen cards and the points rule) and check it."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    letters: dict[str, str] = dict(raw["letters"])
    if sorted(letters.values()) != sorted(KINDS):
        raise ValueError("new score cards: the letters must name each building kind once")
    cards: list[ScoreCard] = []
    for number, order in raw["cards"].items():
        kinds = tuple(letters[c] for c in order)
        if sorted(kinds) != sorted(KINDS):
            raise ValueError(f"new score card {number}: it must list each building kind once")
        cards.append(ScoreCard(int(number), kinds))
    cards.sort(key=lambda c: c.number)
    if [c.number for c in cards] != list(range(1, len(cards) + 1)):
        raise ValueError("new score cards: the cards must be numbered 1, 2, 3 ...")
    offsets = tuple(tuple(int(v) for v in r) for r in raw["points"]["offsets"])
    if [len(r) for r in offsets] != [1, 2, 3]:
        raise ValueError("new score cards: round 1 pays one place, round 2 two, round 3 three")
    if int(raw["slots"]) != ROUNDS:
        raise ValueError("new score cards: one card per scoring round")
    return CardData(tuple(cards), offsets)


def cards() -> tuple[ScoreCard, ...]:
    """The eighteen score cards, by number."""
    return data().cards


def card(number: int) -> ScoreCard:
    """The score card with this number (1-18); ``KeyError`` for any other."""
    if not 1 <= number <= len(cards()):
        raise KeyError(number)
    return cards()[number - 1]


def points(number: int, round_no: int, kind: str) -> tuple[int, ...]:
    """Points for 1st, 2nd ... place of ``kind`` in scoring round ``round_no`` (1-3) by card ``number``."""
    row = card(number).row(kind)
    return tuple(off + row for off in data().offsets[round_no - 1])


@dataclass(frozen=True, slots=True)
class ScoreCardsDrawn(Event):
    """At setup: the three score cards drawn, by slot (round 1, 2, 3). Public."""

    cards: tuple[int, ...]

    def describe(self) -> str:
        slots = ("1st", "2nd", "3rd")
        named = "; ".join(f"{slots[i]} scoring: card {n} ({', '.join(card(n).kinds)})" for i, n in enumerate(self.cards))
        return f"the score cards are drawn (kinds from the fewest points to the most): {named}"


@dataclass(frozen=True, slots=True)
class ScoreCardsState(ModuleState):
    """The module's state slice: the card number in each of the three slots (round 1, 2, 3).
    Public; JSON form from :class:`~alhambra.slices.ModuleState`."""

    module = MODULE_ID
    cards: tuple[int, ...]

    def check(self) -> None:
        """Three different cards of the box."""
        n = len(cards())
        if len(self.cards) != ROUNDS or len(set(self.cards)) != ROUNDS or not all(1 <= v <= n for v in self.cards):
            raise ValueError(f"bad new score cards: {list(self.cards)} (three different cards 1-{n})")


score_cards: Final = ScoreCardsState.of
"""The module's slice of a game."""


class NewScoreCards(Module):
    """Three of eighteen score cards set the points per building kind, one card per scoring round."""

    id = MODULE_ID
    state_type = ScoreCardsState
    title = "New score cards"
    summary = "Three score cards rank the building kinds, replacing the scoring table."
    description = (
        "Three of eighteen score cards are drawn open at the start, one for each scoring round. Each card ranks the six "
        "building kinds: the kind in row k scores k in round 1, 7+k and k in round 2, 15+k, 7+k and k in round 3, "
        "instead of the base game's table."
    )
    assumptions = (
        "The card in the first slot scores the first round, the second slot the second, the third slot the last "
        "(the cards are laid out 'one after the other from left to right'; the rulebook's picture labels the slots "
        "'1st soring 2nd soring 3rd soring', sic).",
        "The neutral player (2 players) is scored with the same cards.",
    )

    def setup(self, state: GameState, rng: random.Random) -> None:
        """Draw three different cards, open, for the three slots (chance nodes in explicit-chance mode)."""
        pool = [str(c.number) for c in cards()]
        decided = module_draw(state, self.id, pool, ROUNDS)
        drawn = [int(v) for v in decided] if decided is not None else rng.sample(range(1, len(pool) + 1), ROUNDS)
        state.mods[self.id] = ScoreCardsState(tuple(drawn))

    def game_set_up(self, state: GameState, events: list[Event]) -> None:
        """Announce the three cards (:class:`ScoreCardsDrawn`)."""
        events.append(ScoreCardsDrawn(score_cards(state).cards))

    def chance_items(self, config: GameConfig) -> list[str]:
        """The card numbers ``1``..``18``."""
        return [str(c.number) for c in cards()]

    def kind_points(self, state: GameState, round_no: int, kind: str) -> tuple[int, ...] | None:
        """The points of the round's card (None for a kind no card ranks, which cannot happen in Alhambra)."""
        number = score_cards(state).cards[round_no - 1]
        if kind not in card(number).kinds:
            return None
        return points(number, round_no, kind)

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: per slot the card number, its kinds from row 1 to row 6 and the points per kind
        for that round (1st, 2nd ...); ``next`` is the round scored next (None once all are)."""
        sl = score_cards(state)
        slots = []
        for i, number in enumerate(sl.cards):
            c = card(number)
            table = {k: list(points(number, i + 1, k)) for k in c.kinds}
            slots.append({"round": i + 1, "card": number, "kinds": list(c.kinds), "points": table})
        nxt = state.rounds_scored + 1 if state.rounds_scored < ROUNDS and state.outcome is None else None
        return {"cards": slots, "next": nxt}

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public: the three card numbers."""
        return ScoreCardsState(tuple(int(s["card"]) for s in module_view["cards"]))


MODULE: Final = NewScoreCards()
