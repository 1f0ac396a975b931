"""The Vizier's favour: an out-of-turn purchase with exact money, once per awakening.

Flow (all through the plug-in hooks):

* ``setup`` gives every seat an awake vizier (:class:`VizierState` in ``state.mods["vizier"]``).
* ``after_turn`` (after the refills and any scoring) pushes a :class:`VizierOffer` unless the
  market could not be refilled or the turn limit has been reached.
* ``resume`` asks the awake seats one at a time in priority order (the seat due to play next
  first, the seat that just finished last) and silently skips seats that cannot pay any market
  tile exactly. ``vizier pass`` moves on; ``vizier buy`` pays, puts the vizier to sleep and
  pushes a core :class:`~alhambra.state.PlaceTiles` above the offer. Once the tile is placed,
  ``resume`` refills the market and asks every seat that is still awake again, from the top.
* ``vizier wake`` is a whole turn action that turns a sleeping vizier awake.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from ...actions import Action, parse_cards, register_parser
from ...engine import check_purchase, finish_turn_action, pay_for_purchase, purchase_options, refill_market
from ...errors import IllegalAction, InvalidPayment, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module
from ...state import ChooseAction, GameConfig, GameState, Pending, PlaceTiles

MODULE_ID: Final = "vizier"


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class VizierState:
    """The module's state slice: ``awake[seat]`` is True while that seat's vizier is awake."""

    awake: tuple[bool, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"awake": list(self.awake)}

    @classmethod
    def from_dict(cls, data: Any) -> VizierState:
        """Read the JSON form back."""
        if not isinstance(data, dict) or not isinstance(data.get("awake"), list) or not all(isinstance(v, bool) for v in data["awake"]):
            raise NotationError(f"bad vizier state {data!r}")
        return cls(tuple(data["awake"]))

    def with_seat(self, seat: int, awake: bool) -> VizierState:
        """A copy with one seat's vizier turned."""
        flags = list(self.awake)
        flags[seat] = awake
        return VizierState(tuple(flags))


@dataclass(frozen=True, slots=True)
class VizierOffer(Pending):
    """Between turns: ``seat`` may use their awake vizier now (``vizier buy`` or ``vizier pass``).

    ``later`` are the seats that will be asked after ``seat``, in priority order. ``refill`` is
    set while the tile bought with a vizier waits to be placed: once it is placed, the market is
    refilled and every seat still awake is asked again.
    """

    module = MODULE_ID
    seat: int
    later: tuple[int, ...] = ()
    refill: bool = False


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class VizierBuy(Action):
    """Use the vizier: buy the tile on market square ``square`` (1-4) with exactly its price."""

    module = MODULE_ID
    keyword = "vizier buy"
    grammar = ("square", "cards")
    square: int
    payment: tuple[str, ...]

    def notation(self) -> str:
        return f"vizier buy {self.square} " + "+".join(self.payment)


@dataclass(frozen=True, slots=True)
class VizierPass(Action):
    """Do not use the vizier now."""

    module = MODULE_ID
    keyword = "vizier pass"
    grammar = ()

    def notation(self) -> str:
        return "vizier pass"


@dataclass(frozen=True, slots=True)
class VizierWake(Action):
    """Turn action: bring the vizier back into play (turn it awake)."""

    module = MODULE_ID
    keyword = "vizier wake"
    grammar = ()

    def notation(self) -> str:
        return "vizier wake"


def _parse_buy(w: list[str]) -> Action:
    if len(w) != 2:
        raise NotationError("usage: vizier buy SQUARE CARDS, e.g. vizier buy 2 b5+b2")
    if not w[0].isdigit():
        raise NotationError(f"bad market square {w[0]!r} (1-4)")
    return VizierBuy(int(w[0]), parse_cards(w[1]))


def _parse_word(action: Action, usage: str) -> Callable[[list[str]], Action]:
    def parse(w: list[str]) -> Action:
        if w:
            raise NotationError(f"usage: {usage}")
        return action

    return parse


register_parser("vizier buy", _parse_buy, VizierBuy)
register_parser("vizier pass", _parse_word(VizierPass(), "vizier pass"), VizierPass)
register_parser("vizier wake", _parse_word(VizierWake(), "vizier wake"), VizierWake)


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class VizierUsed(Event):
    """A player used their vizier: bought ``tile`` from ``square`` out of turn with exact money."""

    seat: int
    square: int
    tile: str
    payment: tuple[str, ...]

    def describe(self) -> str:
        return f"{_p(self.seat)} uses the vizier: buys {self.tile} from square {self.square} for {'+'.join(self.payment)}"


@dataclass(frozen=True, slots=True)
class VizierPassed(Event):
    """A player was offered the vizier's favour and declined."""

    seat: int

    def describe(self) -> str:
        return f"{_p(self.seat)} does not use the vizier"


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


def _slice(state: GameState) -> VizierState:
    value = state.mods[MODULE_ID]
    assert isinstance(value, VizierState)
    return value


def exact_purchases(state: GameState, seat: int) -> list[VizierBuy]:
    """Every vizier purchase ``seat`` could make now: any market tile, paid with exactly its
    price (the square's currency or any module's payment option, e.g. an exchange card)."""
    comp = state.components
    money_value = {c.code: c.value for c in comp.cards if c.is_money}
    out: list[VizierBuy] = []
    for buy in purchase_options(state, seat):
        price = comp.tile_price[state.market[buy.square - 1]]
        if sum(money_value.get(code, 0) for code in buy.payment) == price:
            out.append(VizierBuy(buy.square, buy.payment))
    return out


# ---------------------------------------------------------------------------------- module
class Vizier(Module):
    """The Vizier's favour."""

    id = MODULE_ID
    title = "The Vizier's favour"
    description = (
        "After every turn, a player whose vizier is awake may buy one market tile out of turn with exact money, "
        "without an extra action; the vizier then sleeps until its owner spends a turn action to wake it."
    )
    assumptions = (
        "Players are asked one at a time in priority order (next to play first, the player who just finished last); "
        "a player who passes is asked again only after somebody else has used a vizier.",
        "Players who cannot pay any market tile exactly are skipped without being asked.",
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
        return [] if _slice(state).awake[seat] else [VizierWake()]

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """For a :class:`VizierOffer`: every exact purchase, then ``vizier pass``."""
        if not isinstance(pending, VizierOffer) or pending.refill:
            return []
        out: list[Action] = list(exact_purchases(state, pending.seat))
        out.append(VizierPass())
        return out

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        if isinstance(action, VizierWake):
            if not isinstance(top, ChooseAction):
                raise WrongPhase("the vizier can be woken only as an action on your own turn")
            if _slice(state).awake[top.seat]:
                raise IllegalAction("your vizier is already awake")
            return
        if not isinstance(action, VizierBuy | VizierPass):
            raise IllegalAction(f"{action} is not a vizier action")
        if not isinstance(top, VizierOffer) or top.refill:
            raise WrongPhase("the vizier can be used only between turns, when the game offers it to you")
        if isinstance(action, VizierPass):
            return
        if not _slice(state).awake[top.seat]:  # pragma: no cover - offers go to awake seats only
            raise IllegalAction("your vizier is asleep")
        if not check_purchase(state, top.seat, action.square, action.payment):
            raise InvalidPayment("the vizier's favour needs exact money: pay exactly the price")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry out a checked vizier action."""
        if isinstance(action, VizierWake):
            top = state.pending[-1]
            state.mods[self.id] = _slice(state).with_seat(top.seat, True)
            events.append(VizierWoken(top.seat))
            finish_turn_action(state)
            return
        offer = state.pending[-1]
        assert isinstance(offer, VizierOffer)
        seat = offer.seat
        if isinstance(action, VizierPass):
            events.append(VizierPassed(seat))
            if offer.later:
                state.pending[-1] = VizierOffer(offer.later[0], offer.later[1:])
            else:
                state.pending.pop()
            return
        assert isinstance(action, VizierBuy)
        tile = pay_for_purchase(state, seat, action.square, action.payment)
        code = state.components.tiles[tile].code
        state.mods[self.id] = _slice(state).with_seat(seat, False)
        events.append(VizierUsed(seat, action.square, code, action.payment))
        state.pending[-1] = replace(offer, later=(), refill=True)
        state.pending.append(PlaceTiles(seat, (code,), state.neutral is not None, "vizier"))

    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """Refill after a vizier purchase, then ask the first seat that can use the vizier (or close)."""
        assert isinstance(pending, VizierOffer)
        if pending.refill:
            if state.market_exhausted or not refill_market(state, events):
                state.pending.pop()  # the last tiles will be distributed: no more viziers
                return
            awake = _slice(state).awake
            queue = [s for s in priority_order(state) if awake[s]]
        else:
            if state.market_exhausted:
                state.pending.pop()
                return
            queue = [pending.seat, *pending.later]
        for i, s in enumerate(queue):
            if self._can_use(state, s):
                offer = VizierOffer(s, tuple(queue[i + 1 :]))
                if offer != pending:
                    state.pending[-1] = offer
                return
        state.pending.pop()

    # ----- flow -------------------------------------------------------------------------
    def after_turn(self, state: GameState, events: list[Event]) -> None:
        """Offer the vizier to the awake seats, unless the game is about to end."""
        if state.market_exhausted:
            return
        limit = state.config.turn_limit
        if limit is not None and state.turn >= limit:
            return
        awake = _slice(state).awake
        queue = [s for s in priority_order(state) if awake[s]]
        if queue:
            state.pending.append(VizierOffer(queue[0], tuple(queue[1:])))

    # ----- views and persistence --------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: whose vizier is awake."""
        return {"awake": list(_slice(state).awake)}

    def max_actions_between_turns(self, config: GameConfig) -> int:
        """Every seat buys at most once (its vizier then sleeps until its own turn), each
        purchase places one tile, and each of the at most ``n + 1`` rounds of asking has at
        most ``n`` passes."""
        n = config.players
        return n + n + n * (n + 1)

    def observation_flags(self, config: GameConfig) -> tuple[str, ...]:
        """The view's ``awake`` list: one flag per seat."""
        return ("awake",)

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public: who is awake."""
        return VizierState(tuple(bool(a) for a in module_view["awake"]))

    def slice_to_json(self, value: Any) -> Any:
        """``{"awake": [bool, ...]}``."""
        assert isinstance(value, VizierState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`VizierState`."""
        return VizierState.from_dict(data)

    # ----- helpers ----------------------------------------------------------------------
    def _can_use(self, state: GameState, seat: int) -> bool:
        return _slice(state).awake[seat] and bool(exact_purchases(state, seat))


MODULE: Final = Vizier()
