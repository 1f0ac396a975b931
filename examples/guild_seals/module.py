"""Guild seals: four seal cards in the money deck; a seal used draws a card and scores each round.

Made up for docs/writing-a-module.md, which walks through this file. It lives outside
``alhambra/modules`` and is loaded with ``hooks.register_module`` (a package inside
``alhambra/modules/guild_seals/`` would be found by its folder name, with no such call).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from alhambra.actions import Action, parse_card, register_action
from alhambra.components import CardType
from alhambra.engine.services import draw_card, finish_turn_action, give_cards
from alhambra.errors import IllegalAction, NotationError, WrongPhase
from alhambra.events import Event
from alhambra.hooks import Module, register_module
from alhambra.slices import ModuleState
from alhambra.state import ChooseAction, GameConfig, GameState

ID: Final = "guild_seals"
CODES: Final = ("gs1", "gs2", "gs3", "gs4")
"""Card codes: never English words (the replay's sentences replace codes by names)."""
SEAL_KIND: Final = "seal"


@dataclass(frozen=True, slots=True)
class SealsState(ModuleState):
    """The slice: the seals each seat has used (all public). JSON, view and the bots' rebuild
    come from ``ModuleState``: nothing to write."""

    module = ID
    used: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class SealUse(Action):
    """Turn action: use a seal from the hand (``seal use gs2``)."""

    module = ID
    keyword = "seal use"
    grammar = ("card",)
    card: str


def _seal(word: str) -> str:
    """Read a seal's code (a ``card`` word that must be one of :data:`CODES`)."""
    code = parse_card(word)
    if code not in CODES:
        raise NotationError(f"{word!r} is no guild seal ({', '.join(CODES)})")
    return code


register_action(SealUse, card=_seal)  # the parser comes from the grammar; seals narrow its card reader


@dataclass(frozen=True, slots=True)
class SealUsed(Event):
    """A player used a seal (the card drawn is told by the core's ``CardsReceived``)."""

    seat: int
    card: str

    def describe(self) -> str:
        return f"player {self.seat + 1} uses a guild seal"


def _id(state: GameState, code: str) -> int:
    return state.components.card_code.index(code)  # each seal code is on one card only


class GuildSeals(Module):
    """Four seals; a used seal draws a money card now and scores 1 point in every scoring round."""

    id = ID
    state_type = SealsState
    title = "Guild seals"
    description = "Four seal cards come out with the money. Use one as your action: draw a card; it scores 1 per round."
    assumptions = ("A seal in the display is taken alone, like every card that is not money (the core's take rule).",)

    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """The four seals: no currency, no value."""
        return [CardType(code, SEAL_KIND, module=self.id) for code in CODES]

    def deck_piles(self, state: GameState, piles: list[list[int]], rng: random.Random) -> None:
        """One seal at a random place in each of piles 2-5 (pile 1 ends on top)."""
        for pile, code in zip(piles[1:], CODES, strict=True):
            pile.insert(rng.randrange(len(pile) + 1), _id(state, code))

    def setup(self, state: GameState, rng: random.Random) -> None:
        """Nobody has used a seal."""
        state.mods[self.id] = SealsState(((),) * state.config.players)

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """``seal use CARD`` for each seal in the hand."""
        code = state.components.card_code
        return [SealUse(c) for c in sorted({code[c] for c in state.players[seat].hand} & set(CODES))]

    def check(self, state: GameState, action: Action) -> None:
        """Only on your turn's action choice, with a seal you hold."""
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, ChooseAction):
            raise WrongPhase("a seal is used as your turn's action")
        assert isinstance(action, SealUse)
        if _id(state, action.card) not in state.players[top.seat].hand:
            raise IllegalAction(f"you hold no seal {action.card}")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Lay the seal down, draw the top money card into the hand, end the action."""
        assert isinstance(action, SealUse)
        seat = state.pending[-1].seat
        state.players[seat].hand.remove(_id(state, action.card))
        sl = SealsState.of(state)
        state.mods[self.id] = SealsState(tuple((*u, action.card) if s == seat else u for s, u in enumerate(sl.used)))
        events.append(SealUsed(seat, action.card))
        card = draw_card(state, events)
        if card is not None:
            give_cards(state, seat, [card], events, self.id)
        finish_turn_action(state)

    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """1 point per used seal, in every scoring round."""
        return [len(u) for u in SealsState.of(state).used]

    def held_cards(self, state: GameState) -> list[int]:
        """The used seals lie in front of their players, in the slice."""
        return [_id(state, c) for u in SealsState.of(state).used for c in u]

    def bot_values(self, state: GameState) -> list[float] | None:
        """A used seal still scores in the rounds to come."""
        return [2.0 * len(u) for u in SealsState.of(state).used]


MODULE: Final = GuildSeals()
register_module(MODULE)
