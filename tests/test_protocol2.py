"""Module protocol 2, tested through small probe modules that use one family of hooks each.

The probes are registered for the test only (``hooks._CACHE``); the real modules are tested in
their own folders. What is checked here is the core's side of every hook: when it is called, in
which order, what the core does with the answer, and that a hook nobody uses changes nothing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from alhambra import hooks
from alhambra.actions import Action, BuyBuilding, BuyItem, EndTurn, Pass, TakeMoney, parse_action, register_parser
from alhambra.bots.base import EventLog
from alhambra.components import CardType
from alhambra.engine import apply, apply_unchecked, legal_actions, money_of, new_game, purchase_options, put_on_market
from alhambra.errors import ConfigError, IllegalAction, InvalidPayment, WrongPhase
from alhambra.events import BuildingBought, Event, ItemBought, MarketRefilled, Passed, RoundScored, TurnEnded, TurnStarted
from alhambra.hooks import Module, MoneySource, Offer, OptionSpec, PaymentOption, Purchase, hook_users
from alhambra.record import GameRecord, replay
from alhambra.serialize import state_from_json, state_to_json
from alhambra.state import BetweenTurns, ChooseAction, GameConfig, GameState, Pending, PlaceTiles
from alhambra.testing import check_conservation, set_hand, set_market
from alhambra.view import view_events

from .helpers import first_take


# ---------------------------------------------------------------------------------- probes
@dataclass(frozen=True, slots=True)
class ProbePoke(Action):
    """A probe's out-of-turn move."""

    module = "zz_window"
    keyword = "probe poke"
    grammar = ()

    def notation(self) -> str:
        return "probe poke"


@dataclass(frozen=True, slots=True)
class ProbeRelease(Action):
    """Answer the probe's hold: let the held tile go onto the market."""

    module = "zz_draws"
    keyword = "probe release"
    grammar = ()

    def notation(self) -> str:
        return "probe release"


@dataclass(frozen=True, slots=True)
class ProbeHold(Pending):
    """The probe holds a drawn tile until ``seat`` releases it."""

    module = "zz_draws"
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class ProbeSecret(Event):
    """A private event: its seat sees the number, everybody else a redacted copy."""

    seat: int
    number: int

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.seat else ProbeSecret(self.seat, -1)

    def describe(self) -> str:
        return f"player {self.seat + 1} notes {'a secret' if self.number < 0 else self.number}"


def _word(action: Action) -> Any:
    def parse(w: list[str]) -> Action:
        return action

    return parse


register_parser("probe poke", _word(ProbePoke()), ProbePoke)
register_parser("probe release", _word(ProbeRelease()), ProbeRelease)


class NothingModule(Module):
    """Overrides no hook at all."""

    id = "zz_nothing"


class WindowModule(Module):
    """Every seat may poke between turns, at most twice a game each (kept in ``pokes``)."""

    id = "zz_window"
    pokes: ClassVar[dict[int, int]] = {}

    def setup(self, state: GameState, rng: random.Random) -> None:
        state.mods[self.id] = (0,) * state.config.players

    def may_interrupt(self, state: GameState, seat: int) -> bool:
        return True

    def interrupt_actions(self, state: GameState, seat: int) -> list[Action]:
        return [ProbePoke()] if state.mods[self.id][seat] < 2 else []

    def check(self, state: GameState, action: Action) -> None:
        if not isinstance(state.pending[-1], BetweenTurns):
            raise WrongPhase("only between turns")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        seat = state.pending[-1].seat
        counts = list(state.mods[self.id])
        counts[seat] += 1
        state.mods[self.id] = tuple(counts)
        events.append(ProbeSecret(seat, counts[seat]))

    def slice_to_json(self, value: Any) -> Any:
        return list(value)

    def slice_from_json(self, data: Any) -> Any:
        return tuple(data)


class OfferModule(Module):
    """Offers ``Qb5`` (5 blue, any payment), ``Qx6`` (6 in blue or green, exact only, no extra
    action) and the tile ``G12s`` kept aside in its slice, bought like a market tile for 3 orange;
    only ``Qb5`` may be bought out of turn. Holds 4 yellow outside every hand for seat 0."""

    id = "zz_offers"

    def setup(self, state: GameState, rng: random.Random) -> None:
        t = state.components.tile_ids["G12s"]
        if t in state.bag:
            state.bag.remove(t)
        elif t in state.market:
            state.market[state.market.index(t)] = state.bag.pop()
        state.mods[self.id] = (t,)

    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        out = [
            Offer("Qb5", self.id, 5, (frozenset({0}),), out_of_turn=True, label="the probe's blue thing"),
            Offer("Qx6", self.id, 6, (frozenset({0, 1}),), exact_only=True, again_if_exact=False),
        ]
        if state.mods[self.id]:
            out.append(Offer("G12s", self.id, 3, (frozenset({2}),), tile=state.mods[self.id][0]))
        return out

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        if offer.tile >= 0:
            state.mods[self.id] = ()

    def held_tiles(self, state: GameState) -> list[int]:
        return list(state.mods[self.id])

    def held_money(self, state: GameState, seat: int, currency: int) -> int:
        return 4 if seat == 0 and currency == 3 else 0

    def slice_to_json(self, value: Any) -> Any:
        return list(value)

    def slice_from_json(self, data: Any) -> Any:
        return tuple(data)


class DrawsModule(Module):
    """Holds every pavilion drawn for the market until the current seat releases it; records
    the turn points it is called at."""

    id = "zz_draws"
    calls: ClassVar[list[str]] = []
    options = (OptionSpec("hold", True, "hold pavilions"), OptionSpec("mood", "calm", "a word", ("calm", "wild")))

    def setup(self, state: GameState, rng: random.Random) -> None:
        state.mods[self.id] = -1

    def tile_drawn(self, state: GameState, tile: int, events: list[Event]) -> bool:
        if not self.option(state.config, "hold") or state.components.tiles[tile].kind != "pavilion" or state.turn == 0:
            return False
        state.mods[self.id] = tile
        state.pending.append(ProbeHold(state.current, tile))
        return True

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        return [ProbeRelease()]

    def check(self, state: GameState, action: Action) -> None:
        if not isinstance(state.pending[-1], ProbeHold):
            raise WrongPhase("nothing is held")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        hold = state.pending.pop()
        assert isinstance(hold, ProbeHold)
        put_on_market(state, hold.tile, events)
        state.mods[self.id] = -1

    def held_tiles(self, state: GameState) -> list[int]:
        t = state.mods[self.id]
        return [t] if t >= 0 else []

    def turn_started(self, state: GameState, seat: int, events: list[Event]) -> None:
        self.calls.append(f"start {state.turn}")

    def after_action(self, state: GameState, events: list[Event]) -> None:
        self.calls.append("action")

    def turn_ending(self, state: GameState, events: list[Event]) -> None:
        self.calls.append("ending")

    def before_scoring(self, state: GameState, round_no: int, events: list[Event]) -> None:
        self.calls.append(f"scoring {round_no}")

    def slice_to_json(self, value: Any) -> Any:
        return value

    def slice_from_json(self, data: Any) -> Any:
        return int(data)


class MoneyModule(Module):
    """A fifth currency ``gem`` (cards ``gm5``, ``gm4``) that pays for any square on its own; blue
    coins ``zc`` worth 1 held outside the hand (2 for seat 0 at the start), spent back to the
    probe; records every purchase and the call before the final hand-out."""

    id = "zz_money"
    purchases: ClassVar[list[Any]] = []
    finals: ClassVar[list[int]] = []

    def extra_currencies(self, config: GameConfig) -> list[str]:
        return ["gem"]

    def extra_cards(self, config: GameConfig) -> list[CardType]:
        return [CardType("gm5", "money", 4, 5, self.id), CardType("gm4", "money", 4, 4, self.id)]

    def setup(self, state: GameState, rng: random.Random) -> None:
        state.deck.extend(i for i, c in enumerate(state.components.cards) if c.module == self.id)
        state.mods[self.id] = (2,) + (0,) * (state.config.players - 1)

    def payment_options(self, state: GameState, seat: int, currency: int) -> list[PaymentOption]:
        return [PaymentOption((), frozenset({4}))]

    def money_sources(self, state: GameState, seat: int) -> list[MoneySource]:
        return [MoneySource("zc", 0, 1, self.id)] * state.mods[self.id][seat]

    def source_spent(self, state: GameState, seat: int, source: MoneySource) -> None:
        coins = list(state.mods[self.id])
        coins[seat] -= 1
        state.mods[self.id] = tuple(coins)

    def payment_tokens(self, config: GameConfig) -> list[str]:
        return ["zc"]

    def purchase_made(self, state: GameState, purchase: Any, events: list[Event]) -> None:
        MoneyModule.purchases.append((purchase, type(state.pending[-1]).__name__ if state.pending else None))

    def final_starting(self, state: GameState, events: list[Event]) -> None:
        MoneyModule.finals.append(len(events))

    def slice_to_json(self, value: Any) -> Any:
        return list(value)

    def slice_from_json(self, data: Any) -> Any:
        return tuple(data)


class LeastModule(Module):
    """Offer ``Qm8``: at least 8 in any mix of the four currencies, nothing back for overpaying
    (``Offer.minimal``, like treasure chests); says seat 0's fountain is not built yet."""

    id = "zz_least"

    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        return [Offer("Qm8", self.id, 8, (frozenset({0, 1, 2, 3}),), again_if_exact=False, minimal=True)]

    def unbuilt_tiles(self, state: GameState, seat: int) -> list[int]:
        return list(state.players[seat].city.values()) if seat == 0 else []


PROBES = {m.id: m for m in (NothingModule(), WindowModule(), OfferModule(), DrawsModule(), MoneyModule(), LeastModule())}


@pytest.fixture(autouse=True)
def probes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for mid, m in PROBES.items():
        monkeypatch.setitem(hooks._CACHE, mid, m)
    DrawsModule.calls.clear()
    MoneyModule.purchases.clear()
    MoneyModule.finals.clear()
    yield
    for key in [k for k in hooks._BY_CONFIG if any(m in PROBES for m in k)]:
        del hooks._BY_CONFIG[key]
    for key in [k for k in hooks._USERS if any(m in PROBES for m in k[0])]:
        del hooks._USERS[key]


def game(*modules: str, players: int = 3, seed: int = 5, **kw: Any) -> GameState:
    state, _ = new_game(GameConfig(players=players, modules=modules, **kw), seed)
    return state


def take_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """The player to act takes the first single card (ends the action phase)."""
    return apply(state, next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1))


# ---------------------------------------------------------------------------------- free when unused
def test_a_hook_nobody_uses_is_never_called_and_changes_nothing() -> None:
    config = GameConfig(players=4, modules=("zz_nothing",))
    for hook in ("tile_drawn", "interrupt_actions", "offers", "payment_options", "placement_problem", "turn_ending", "bot_values"):
        assert hook_users(config, hook) == ()
    assert hook_users(GameConfig(players=4, modules=("zz_window",)), "may_interrupt") == (PROBES["zz_window"],)
    # the same seeds play the same games with and without the do-nothing module
    for seed in range(3):
        plain, _ = new_game(GameConfig(players=4), seed)
        probed, _ = new_game(config, seed)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while not plain.is_over:
            a, b = legal_actions(plain), legal_actions(probed)
            assert a == b
            pick = a[int(rng_a.random() * len(a))]
            assert pick == b[int(rng_b.random() * len(b))]
            apply_unchecked(plain, pick)
            apply_unchecked(probed, pick)
        assert probed.is_over and probed.scores == plain.scores


# ---------------------------------------------------------------------------------- the window between turns
def test_the_window_asks_next_player_first_and_restarts_after_a_move() -> None:
    state = game("zz_window")
    s = state.current
    order = [(s + 1) % 3, (s + 2) % 3, s]
    state, events = take_turn(state)
    assert isinstance(events[-1], TurnEnded) or any(isinstance(e, TurnEnded) for e in events)
    assert state.pending[-1] == BetweenTurns(order[0], tuple(order[1:]))
    assert set(map(str, legal_actions(state))) == {"probe poke", "pass"}
    state, events = apply(state, Pass())
    assert events == [Passed(order[0])]
    assert state.pending[-1] == BetweenTurns(order[1], (order[2],))
    with pytest.raises(IllegalAction):
        apply(state, Pass(), order[2])  # not your decision yet
    state, events = apply(state, ProbePoke())
    # after a move everybody is asked again, from the top
    assert state.pending[-1] == BetweenTurns(order[0], tuple(order[1:]))
    for seat in order:
        state, events = apply(state, Pass(), seat)
    assert state.pending == [ChooseAction(order[0])]
    assert any(isinstance(e, TurnStarted) and e.seat == order[0] for e in events)
    with pytest.raises(WrongPhase):
        apply(state, Pass())


def test_no_window_after_the_last_turn_of_a_limited_game() -> None:
    state = game("zz_window", turn_limit=1)
    state, _events = take_turn(state)
    assert state.outcome == "truncated"


def test_private_events_are_redacted_for_everybody_else() -> None:
    state = game("zz_window")
    state, _ = take_turn(state)
    seat = state.to_act
    assert seat is not None
    state, events = apply(state, ProbePoke())
    secret = next(e for e in events if isinstance(e, ProbeSecret))
    assert view_events([secret], seat)[0]["number"] == 1
    for viewer in (None, (seat + 1) % 3):
        shown = view_events([secret], viewer)[0]
        assert shown["number"] == -1 and shown["text"] == f"player {seat + 1} notes a secret"
    log = EventLog()
    log.extend(events)
    assert next(e for e in log.for_seat(seat) if e["type"] == "ProbeSecret")["number"] == 1
    assert next(e for e in log.for_seat(None) if e["type"] == "ProbeSecret")["number"] == -1
    assert len(log.for_seat(seat)) == len(log.for_seat(None)) == len(events)


# ---------------------------------------------------------------------------------- offers
def test_offers_are_bought_with_the_buy_action_and_their_rules() -> None:
    state = game("zz_offers")
    seat = state.current
    set_hand(state, seat, ["b3", "b2", "b9", "g4", "g2", "o3"])
    buys = {str(a) for a in legal_actions(state, "buy") if isinstance(a, BuyItem)}
    assert {"buy Qb5 b3+b2", "buy Qb5 b9", "buy Qx6 g4+g2", "buy Qx6 b2+g4", "buy G12s o3"} <= buys
    assert "buy Qx6 b9" not in buys  # exact only
    assert parse_action("buy Qb5 b3+b2") == BuyItem("Qb5", ("b3", "b2"))
    with pytest.raises(InvalidPayment, match="exact"):
        apply(state, BuyItem("Qx6", ("b9",)))
    with pytest.raises(InvalidPayment, match="blue"):
        apply(state, BuyItem("Qb5", ("g4", "g2")))
    with pytest.raises(IllegalAction, match="cannot be bought"):
        apply(state, BuyItem("Qzz", ("b9",)))
    # exact: another action; the event says what was bought
    after, events = apply(state, BuyItem("Qb5", ("b3", "b2")))
    assert events[0] == ItemBought(seat, "Qb5", "the probe's blue thing", ("b3", "b2"), True)
    assert after.pending[-1] == ChooseAction(seat, 1)
    assert EndTurn() not in legal_actions(after)
    # exact but again_if_exact=False: the action phase ends
    after, _ = apply(state, BuyItem("Qx6", ("g4", "g2")))
    assert after.pending == [ChooseAction((seat + 1) % 3)] and after.turn == state.turn + 1
    # a tile offer joins the turn's bought tiles and is placed like a market tile
    after, _ = apply(state, BuyItem("G12s", ("o3",)))
    assert after.pending[-1] == ChooseAction(seat, 1, ("G12s",))
    after, _ = apply(after, first_take(after))
    assert after.pending[-1] == PlaceTiles(seat, ("G12s",), False, "bought")
    check_conservation(after)
    back = state_from_json(json.loads(json.dumps(state_to_json(after))))
    assert state_to_json(back) == state_to_json(after)


def test_out_of_turn_purchases_list_only_offers_that_allow_it() -> None:
    state = game("zz_offers")
    seat = state.current
    set_hand(state, seat, ["b3", "b2", "g4", "g2", "o3"])
    items = {a.item for a in purchase_options(state, seat, out_of_turn=True) if isinstance(a, BuyItem)}
    assert items == {"Qb5"}
    assert all(not isinstance(a, BuyItem) for a in purchase_options(state, seat))


def test_money_held_outside_the_hand_counts_in_the_hand_out() -> None:
    state = game("zz_offers")
    set_hand(state, 0, ["y2"])
    set_hand(state, 1, ["y5"])
    assert money_of(state, 0, 3) == 2 + 4  # the probe holds 4 yellow for seat 0
    assert money_of(state, 1, 3) == 5
    assert money_of(state, 0, 0) == 0


def test_a_minimal_offer_lists_and_accepts_only_payments_without_a_needless_card() -> None:
    state = game("zz_least")
    seat = state.current
    set_hand(state, seat, ["b5", "g3", "o4", "y1"])
    pays = {frozenset(a.payment) for a in legal_actions(state) if isinstance(a, BuyItem)}
    assert pays == {frozenset(p) for p in (("b5", "g3"), ("b5", "o4"), ("g3", "o4", "y1"))}
    with pytest.raises(InvalidPayment, match="not needed"):
        apply(state, BuyItem("Qm8", ("b5", "g3", "y1")), seat)  # 9: the 1 could be left out
    after, events = apply(state, BuyItem("Qm8", ("b5", "o4")), seat)  # 9, but nothing can be left out
    assert [type(e) for e in events][:2] == [ItemBought, TurnEnded] and after.current != seat


def test_unbuilt_tiles_is_the_union_of_the_modules_answers() -> None:
    from alhambra.engine import unbuilt_tiles

    state = game("zz_least")
    assert unbuilt_tiles(state, 0) == set(state.players[0].city.values()) and unbuilt_tiles(state, 1) == set()
    assert unbuilt_tiles(game("zz_nothing"), 0) == set()


# ---------------------------------------------------------------------------------- draws and turn points
def test_a_held_tile_pauses_the_refill_which_goes_on_afterwards() -> None:
    state = game("zz_draws", seed=8)
    seat = state.current
    set_market(state, 1, "G10")
    set_hand(state, seat, ["b9", "b2"])
    # the next two tiles of the bag: a pavilion first (held), then another tile
    pav = state.components.tile_ids["P2new"]
    other = state.components.tile_ids["T13e"]
    for t in (pav, other):
        if t in state.market:
            set_market(state, state.market.index(t) + 1, "A4nes" if t == pav else "C5nsw")
        state.bag.remove(t)
    state.bag += [other, pav]
    state, _ = apply(state, parse_action("buy 1 b9+b2"))
    state, events = apply(state, parse_action("place G10 reserve"))
    assert state.pending[-1] == ProbeHold(seat, pav)
    assert state.market[0] == -1  # paused: square 1 waits
    check_conservation(state)
    assert legal_actions(state) == [ProbeRelease()]
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_to_json(state_from_json(data)) == data
    state, events = apply(state, ProbeRelease())
    assert state.market[0] == pav  # the released tile goes where the refill was
    assert MarketRefilled((1,), ("P2new",)) in events
    assert state.pending[-1] == ChooseAction((seat + 1) % 3)
    check_conservation(state)


def test_turn_points_are_called_in_order() -> None:
    state = game("zz_draws", options=(("zz_draws", "hold", False),))
    assert DrawsModule.calls == ["start 1"]
    state, _ = take_turn(state)
    assert DrawsModule.calls == ["start 1", "action", "ending", "start 2"]


def test_before_scoring_runs_before_every_round(monkeypatch: pytest.MonkeyPatch) -> None:
    state = game("zz_draws", options=(("zz_draws", "hold", False),))
    scoring = next(c for c in state.deck if state.components.cards[c].code == "S1")
    state.deck.remove(scoring)
    state.deck.append(scoring)  # next card to be drawn
    DrawsModule.calls.clear()
    state, events = take_turn(state)
    assert any(isinstance(e, RoundScored) for e in events)
    assert DrawsModule.calls[:3] == ["action", "ending", "scoring 1"]


# ---------------------------------------------------------------------------------- options
def test_options_are_checked_and_round_trip() -> None:
    config = GameConfig(players=2, modules=("zz_draws",), options=(("zz_draws", "mood", "wild"),))
    draws = hooks.load_module("zz_draws")
    assert draws.option(config, "mood") == "wild" and draws.option(config, "hold") is True
    with pytest.raises(ConfigError, match="no option 'colour'"):
        draws.option(config, "colour")
    assert GameConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    assert "options" not in GameConfig(players=2).to_dict()
    for bad, message in (
        ((("zz_draws", "mood", "angry"),), "one of calm, wild"),
        ((("zz_draws", "hold", 1),), "takes a bool"),
        ((("zz_draws", "colour", "red"),), "no option 'colour'"),
    ):
        with pytest.raises(ConfigError, match=message):
            new_game(GameConfig(players=2, modules=("zz_draws",), options=bad), 1)
    with pytest.raises(ConfigError, match="does not use"):
        GameConfig(players=2, options=(("zz_draws", "hold", True),))
    with pytest.raises(ConfigError, match="twice"):
        GameConfig(players=2, modules=("zz_draws",), options=(("zz_draws", "hold", True), ("zz_draws", "hold", False)))


def test_records_with_module_moves_replay_exactly() -> None:
    config = GameConfig(players=3, modules=("zz_draws", "zz_offers", "zz_window"))
    state, _ = new_game(config, 21)
    record = GameRecord(config, 21)
    rng = random.Random(4)
    while not state.is_over and len(record.actions) < 400:
        acts = legal_actions(state)
        pick = acts[int(rng.random() * len(acts))]
        state, _ = apply(state, pick)
        record.actions.append(pick)
        check_conservation(state)
    again, _ = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert state_to_json(again) == state_to_json(state)


def test_an_action_whose_event_reveals_a_secret_cannot_be_undone() -> None:
    from alhambra.server.service import is_final

    @dataclass(frozen=True, slots=True)
    class ProbeRevealed(Event):
        reveals = True
        seat: int

    state = game("zz_window")
    same = state.copy()
    assert not is_final(state, same, [ProbeSecret(0, 1)])
    assert is_final(state, same, [ProbeRevealed(0)])


def test_exact_purchases_are_the_exact_ones_of_the_full_list() -> None:
    """``purchase_options(exact=True)`` generates only exact payments; it must list exactly the
    exact payments of the full list, in the same order (real modules: exchange cards, bazaars)."""
    from alhambra.actions import BuyBuilding

    config = GameConfig(players=3, modules=("bazaars", "currency_exchange", "vizier"))
    state, _ = new_game(config, 17)
    rng = random.Random(3)
    mv = state.components.money_value
    bazaars = hooks.load_module("bazaars")

    def is_exact(state: GameState, seat: int, a: Any) -> bool:
        if isinstance(a, BuyBuilding):
            return sum(mv[c] for c in a.payment) == state.components.tile_price[state.market[a.square - 1]]
        offer = next(o for o in bazaars.offers(state, seat, True) if o.item == a.item)
        return sum(mv[c] for c in a.payment) == offer.price

    compared = 0
    while not state.is_over and compared < 400:
        for seat in range(3):
            full = purchase_options(state, seat, out_of_turn=True)
            assert purchase_options(state, seat, out_of_turn=True, exact=True) == [a for a in full if is_exact(state, seat, a)]
            compared += 1
        apply_unchecked(state, rng.choice(legal_actions(state)))


# ---------------------------------------------------------------------------------- money of modules
def test_a_module_currency_pays_any_square_alone_and_never_mixes() -> None:
    state = game("zz_money")
    assert state.components.currencies == ("blue", "green", "orange", "yellow", "gem")
    from alhambra.view import catalogue

    assert catalogue(state.config)["extra_currencies"] == ["gem"]
    assert catalogue(state.config)["cards"]["gm5"]["currency"] == "gem"
    seat = state.current
    for s in range(3):
        set_hand(state, s, [])  # the gems may have been dealt as starting money
    set_hand(state, seat, ["gm5", "gm4", "b3"])
    for sq in range(1, 5):
        set_market(state, sq, ["P2new", "S4ne", "A6sw", "C9w"][sq - 1])
    buys = {str(a) for a in legal_actions(state, "buy")}
    assert "buy 4 gm4+gm5" in buys and "buy 3 gm4+gm5" in buys and "buy 2 gm5" in buys
    assert not any("gm" in b and "b3" in b for b in buys)  # never mixed with another currency
    with pytest.raises(InvalidPayment):
        apply(state, BuyBuilding(4, ("b3", "gm5", "gm4")))
    after, events = apply(state, BuyBuilding(4, ("gm4", "gm5")))  # exact: another action
    assert isinstance(events[0], BuildingBought) and events[0].exact
    assert after.pending[-1] == ChooseAction(seat, 1, ("C9w",))
    assert [after.components.card_code[c] for c in after.players[seat].hand] == ["b3"]
    check_conservation(after)


def test_money_outside_the_hand_pays_like_cards_and_goes_back_to_its_module() -> None:
    state = game("zz_money")
    seat = state.current
    state.mods["zz_money"] = tuple(2 if s == seat else 0 for s in range(3))
    set_hand(state, seat, ["b3", "g2"])
    set_market(state, 1, "S4ne")
    blue = state.market_currency.index(0)
    set_market(state, blue + 1, "P5nw")
    buys = {str(a) for a in legal_actions(state, "buy")}
    assert f"buy {blue + 1} zc+zc+b3" in buys
    exact = {str(a) for a in purchase_options(state, seat, out_of_turn=True, exact=True)}  # the vizier's list
    assert f"buy {blue + 1} zc+zc+b3" in exact and f"buy {blue + 1} zc+zc+zc+b3" not in exact
    with pytest.raises(InvalidPayment, match="do not hold"):
        apply(state, BuyBuilding(blue + 1, ("zc", "zc", "zc", "b3")))
    with pytest.raises(InvalidPayment, match="only 4"):
        apply(state, BuyBuilding(blue + 1, ("zc", "b3")))
    after, events = apply(state, BuyBuilding(blue + 1, ("zc", "zc", "b3")))
    assert events[0].exact and after.mods["zz_money"][seat] == 0  # both coins spent
    assert after.pending[-1] == ChooseAction(seat, 1, ("P5nw",))
    (purchase, top), *_ = MoneyModule.purchases
    assert purchase == Purchase(seat, blue + 1, None, after.components.tile_ids["P5nw"], 5, 5, ("zc", "zc", "b3"), True, False)
    assert top == "ChooseAction"  # heard after the action was closed
    assert purchase.overpaid == 0
    # the exact purchases of out-of-turn buyers (the vizier) include money sources too
    exact = {str(a) for a in purchase_options(state, seat, out_of_turn=True, exact=True)}
    assert f"buy {blue + 1} zc+zc+b3" in exact and f"buy {blue + 1} zc+b3" not in exact
    # the research encoding has a card token for the module's payment token
    from alhambra.research.encoding import codec_for

    assert "zc" in codec_for(state.config).card_codes
    # and the table's catalogue names the module of the token
    from alhambra.view import catalogue

    assert catalogue(state.config)["money_tokens"] == {"zc": "zz_money"}


def test_overpaid_purchases_are_reported_and_the_final_hook_runs_before_the_hand_out() -> None:
    state = game("zz_money", players=2, seed=3)
    seat = state.current
    set_hand(state, seat, ["b9", "g9", "o9", "y9"])
    square = 1
    set_market(state, square, "P2new")
    cur = "bgoy"[state.market_currency[0]]
    after, _ = apply(state, BuyBuilding(square, (f"{cur}9",)))
    (purchase, top), *_ = MoneyModule.purchases
    assert purchase.overpaid == 7 and not purchase.exact and top == "PlaceTiles"
    rng = random.Random(1)
    while not after.is_over:
        apply_unchecked(after, rng.choice(legal_actions(after)))
    assert len(MoneyModule.finals) == 1


def test_the_greedy_candidates_count_money_sources_as_money_of_their_currency() -> None:
    from alhambra.bots.greedy import canonical_actions, dominated

    state = game("zz_money")
    seat = state.current
    state.mods["zz_money"] = tuple(2 if s == seat else 0 for s in range(3))
    set_hand(state, seat, ["b3", "b4"])
    blue = state.market_currency.index(0)
    set_market(state, blue + 1, "P5nw")
    kept = {str(a) for a in canonical_actions(state) if str(a).startswith(f"buy {blue + 1} ")}
    assert f"buy {blue + 1} zc+zc+b3" in kept  # a coin is money, not a special card spent in vain
    assert f"buy {blue + 1} zc+b4" in kept
    assert dominated(state, BuyBuilding(blue + 1, ("zc", "zc", "b4")))  # one coin could be left out
    state.mods["zz_money"] = (0, 0, 0)
    assert not dominated(state, BuyBuilding(blue + 1, ("b3", "b4")))
