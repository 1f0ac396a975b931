"""The Vizier's favour: an out-of-turn purchase with exact money, once per awakening.

Flow (all through the plug-in hooks of protocol 2):

* ``setup`` gives every seat an awake vizier (:class:`VizierState` in ``state.mods["vizier"]``).
* Between turns the core opens its shared window (``BetweenTurns``) and asks, in priority order
  (the seat due to play next first, the seat that has just finished last), every seat for which
  ``may_interrupt`` is True: every seat whose vizier is awake, whether or not it can pay (money
  is secret). ``interrupt_actions`` lists ``vizier buy`` for every market tile (and every module
  offer that may be bought out of turn, e.g. a bazaar) the seat can pay exactly; the core adds
  ``pass``.
* ``vizier buy`` pays, puts the vizier to sleep, and pushes a :class:`VizierRefill` with a core
  :class:`~alhambra.state.PlaceTiles` above it. Once the tile is placed, ``resume`` refills the
  market; the core then asks every seat again from the top of the priority order.
* ``vizier wake`` is a whole turn action that turns a sleeping vizier awake.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from ...actions import Action, BuyBuilding, register_action
from ...engine.services import check_purchase, finish_turn_action, pay_for_offer, pay_for_purchase, purchase_options, refill_market
from ...errors import IllegalAction, InvalidPayment, WrongPhase
from ...events import Event
from ...hooks import Module
from ...slices import ModuleState
from ...state import BetweenTurns, ChooseAction, GameConfig, GameState, Pending, PlaceTiles

MODULE_ID: Final = "vizier"


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class VizierState(ModuleState):
    """The module's state slice (public): ``awake[seat]`` is True while that seat's vizier is awake.
    Its JSON form, view and rebuild come from :class:`~alhambra.slices.ModuleState`."""

    module = MODULE_ID
    awake: tuple[bool, ...]

    def with_seat(self, seat: int, awake: bool) -> VizierState:
        """A copy with one seat's vizier turned."""
        flags = list(self.awake)
        flags[seat] = awake
        return VizierState(tuple(flags))


@dataclass(frozen=True, slots=True)
class VizierRefill(Pending):
    """After a vizier purchase: once the bought tile is placed, refill the market (automatic;
    ``seat`` is the buyer)."""

    module = MODULE_ID
    seat: int


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class VizierBuy(Action):
    """Use the vizier: buy the tile on market square ``square`` (1-4), or a module's offer
    that may be bought out of turn (its item token, e.g. a bazaar), with exactly its price."""

    module = MODULE_ID
    keyword = "vizier buy"
    grammar = ("square", "cards")
    square: int
    payment: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VizierBuyItem(Action):
    """Use the vizier on a module's offer that may be bought out of turn (``item``, e.g. a
    bazaar), paying exactly its price."""

    module = MODULE_ID
    keyword = "vizier buy"
    grammar = ("item", "cards")
    item: str
    payment: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VizierWake(Action):
    """Turn action: bring the vizier back into play (turn it awake)."""

    module = MODULE_ID
    keyword = "vizier wake"
    grammar = ()


register_action(VizierBuy, VizierBuyItem)  # a square is a number, an item starts with a letter
register_action(VizierWake)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class VizierUsed(Event):
    """A player used their vizier: bought ``tile`` from ``square`` (or a module's item) out of
    turn with exact money."""

    seat: int
    square: int | str
    tile: str
    payment: tuple[str, ...]

    def describe(self) -> str:
        where = f"from square {self.square}" if isinstance(self.square, int) else f"({self.square})"
        return f"{_p(self.seat)} uses the vizier: buys {self.tile} {where} for {'+'.join(self.payment)}"


@dataclass(frozen=True, slots=True)
class VizierWoken(Event):
    """A player spent a turn action to wake their vizier."""

    seat: int

    def describe(self) -> str:
        return f"{_p(self.seat)} wakes the vizier"


# ---------------------------------------------------------------------------------- helpers
def priority_order(state: GameState) -> list[int]:
    """Seats in vizier priority after the turn of ``state.current``: the seat due to play next
    first, the seat that has just finished last."""
    n = state.config.players
    return [(state.current + 1 + i) % n for i in range(n)]


def exact_purchases(state: GameState, seat: int) -> list[VizierBuy | VizierBuyItem]:
    """Every vizier purchase ``seat`` could make now: any market tile, or any module offer that
    may be bought out of turn, paid with exactly its price (the square's currency or any module's
    payment option, e.g. an exchange card)."""
    out: list[VizierBuy | VizierBuyItem] = []
    for buy in purchase_options(state, seat, out_of_turn=True, exact=True):
        out.append(VizierBuy(buy.square, buy.payment) if isinstance(buy, BuyBuilding) else VizierBuyItem(buy.item, buy.payment))
    return out


# ---------------------------------------------------------------------------------- module
class Vizier(Module):
    """The Vizier's favour."""

    id = MODULE_ID
    state_type = VizierState
    title = "The Vizier's favour"
    summary = "An awake vizier buys a market tile out of turn with exact money."
    description = (
        "After every turn, a player whose vizier is awake may buy one market tile out of turn with exact money, "
        "without an extra action; the vizier then sleeps until its owner spends a turn action to wake it."
    )
    assumptions = (
        "Between turns every player whose vizier is awake is asked, in priority order (next to play first, the player who "
        "just finished last), also when they cannot pay any tile exactly: money is secret, so skipping them would tell.",
        "A player who passes is asked again only after somebody else has made an out-of-turn move.",
        "After a vizier purchase the market is refilled and every player whose vizier is still awake is asked again, "
        "from the top of the priority order.",
        "The vizier is not offered once the market could not be refilled (the last tiles are being distributed), "
        "nor after the last turn of a game with a turn limit (it could not change anything).",
        "Waking the vizier is a whole action; like a redesign it may be the extra action after an exact payment, "
        "and it ends the action phase.",
        "A vizier purchase in a 2-player game may be given to the neutral player, like any purchase.",
    )

    # ----- setup ------------------------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """Every seat's vizier starts awake."""
        state.mods[self.id] = VizierState((True,) * state.config.players)

    # ----- actions ----------------------------------------------------------------------
    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """``vizier wake`` while the seat's vizier sleeps."""
        return [] if VizierState.of(state).awake[seat] else [VizierWake()]

    def may_interrupt(self, state: GameState, seat: int) -> bool:
        """Every seat whose vizier is awake is asked between turns (a public fact)."""
        return VizierState.of(state).awake[seat]

    def interrupt_actions(self, state: GameState, seat: int) -> list[Action]:
        """Every exact purchase of an awake seat."""
        return list(exact_purchases(state, seat)) if VizierState.of(state).awake[seat] else []

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        if isinstance(action, VizierWake):
            if not isinstance(top, ChooseAction):
                raise WrongPhase("the vizier can be woken only as an action on your own turn")
            if VizierState.of(state).awake[top.seat]:
                raise IllegalAction("your vizier is already awake")
            return
        if not isinstance(action, VizierBuy | VizierBuyItem):
            raise IllegalAction(f"{action} is not a vizier action")
        if not isinstance(top, BetweenTurns):
            raise WrongPhase("the vizier can be used only between turns, when the game asks you")
        if not VizierState.of(state).awake[top.seat]:
            raise IllegalAction("your vizier is asleep")
        what = action.square if isinstance(action, VizierBuy) else action.item
        if not check_purchase(state, top.seat, what, action.payment):
            raise InvalidPayment("the vizier's favour needs exact money: pay exactly the price")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry out a checked vizier action."""
        top = state.pending[-1]
        if isinstance(action, VizierWake):
            state.mods[self.id] = VizierState.of(state).with_seat(top.seat, True)
            events.append(VizierWoken(top.seat))
            finish_turn_action(state)
            return
        assert isinstance(action, VizierBuy | VizierBuyItem)
        seat = top.seat
        if isinstance(action, VizierBuy):
            where: int | str = action.square
            tile = pay_for_purchase(state, seat, action.square, action.payment, events)
        else:
            where = action.item
            tile = pay_for_offer(state, seat, action.item, action.payment, events).tile
        state.mods[self.id] = VizierState.of(state).with_seat(seat, False)
        pending: list[Pending] = [VizierRefill(seat)]
        code = ""
        if tile >= 0:
            code = state.components.tiles[tile].code
            pending.append(PlaceTiles(seat, (code,), state.neutral is not None, "vizier"))
        events.append(VizierUsed(seat, where, code, action.payment))
        state.pending.extend(pending)

    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """After the vizier's tile is placed: refill the market (it may pause for another module's
        decision; then this runs again once that is resolved)."""
        assert isinstance(pending, VizierRefill)
        depth = len(state.pending)
        refill_market(state, events)
        if len(state.pending) == depth:
            state.pending.pop()

    # ----- observation -----------------------------------------------------------------
    def max_actions_between_turns(self, config: GameConfig) -> int:
        """Every seat buys at most once (its vizier then sleeps until its own turn), each
        purchase places one tile, and each of the at most ``n + 1`` rounds of asking has at
        most ``n`` passes."""
        n = config.players
        return n + n + n * (n + 1)

    def observation_flags(self, config: GameConfig) -> tuple[str, ...]:
        """The view's ``awake`` list: one flag per seat."""
        return ("awake",)


MODULE: Final = Vizier()
