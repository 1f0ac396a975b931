"""Building Sites with the modules its section names and the ones it meets: the vizier, currency
exchange cards, a module currency that pays on its own (like diamonds), money held outside the
hand (like change coins), the purchase report other modules read (change, exchange
certificates: the set-up overpay is measured against the half price), and the neutral player."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from alhambra import GameConfig, apply, hooks, new_game, parse_action
from alhambra.components import CardType
from alhambra.engine import building_counts
from alhambra.errors import IllegalAction
from alhambra.events import Event, ItemBought
from alhambra.hooks import Module, MoneySource, PaymentOption, Purchase
from alhambra.modules.building_sites import SiteChoice, check_sites, site_location, sites_slice
from alhambra.modules.change import ChangeGiven, change_slice
from alhambra.modules.exchange_certificates.module import StoreChoice
from alhambra.modules.vizier.module import VizierBuyItem
from alhambra.state import BetweenTurns, ChooseAction, GameState
from alhambra.testing import check_conservation, set_hand, set_market

from .helpers import ID, MARKET, act, end_turn, fresh, give_site, hand, legal, seat_to_act, set_stack

PROBE = "zz_sites_probe"


class MoneyProbe(Module):
    """A fifth currency ``gem`` (cards ``gm5``, ``gm3``) that pays any square on its own, like the
    diamonds; blue coins ``zc`` worth 1 held outside the hand (3 for every seat), like change; and
    a record of every purchase report."""

    id = PROBE
    purchases: ClassVar[list[Purchase]] = []

    def extra_currencies(self, config: GameConfig) -> list[str]:
        return ["gem"]

    def extra_cards(self, config: GameConfig) -> list[CardType]:
        return [CardType("gm5", "money", 4, 5, self.id), CardType("gm3", "money", 4, 3, self.id)]

    def setup(self, state: GameState, rng: random.Random) -> None:
        state.deck.extend(i for i, c in enumerate(state.components.cards) if c.module == self.id)
        state.mods[self.id] = (3,) * state.config.players

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

    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        MoneyProbe.purchases.append(purchase)

    def slice_to_json(self, value: Any) -> Any:
        return list(value)

    def slice_from_json(self, data: Any) -> Any:
        return tuple(data)


@pytest.fixture
def probe(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(hooks._CACHE, PROBE, MoneyProbe())
    MoneyProbe.purchases.clear()
    yield
    for config_key in [k for k in hooks._BY_CONFIG if PROBE in k]:
        del hooks._BY_CONFIG[config_key]
    for users_key in [k for k in hooks._USERS if PROBE in k[0]]:
        del hooks._USERS[users_key]


# ---------------------------------------------------------------------------------- vizier
def test_the_vizier_cannot_set_up_or_complete_a_site() -> None:
    state = fresh(3, modules=("vizier",))
    seat = seat_to_act(state)
    other = (seat + 1) % 3
    give_site(state, other, "C5nsw", "b", x=-1, y=0)
    hand(state, other, ["b2", "b5"])
    state, _ = end_turn(state)
    while isinstance(state.pending[-1], BetweenTurns) and state.pending[-1].seat != other:
        state, _ = act(state, "pass")
    assert isinstance(state.pending[-1], BetweenTurns) and state.pending[-1].seat == other
    assert not [a for a in legal(state) if "site" in a or "fin" in a]
    with pytest.raises(IllegalAction, match="'site1' cannot be bought now out of turn"):
        apply(state, VizierBuyItem("site1", ("b2",)), other)
    with pytest.raises(IllegalAction, match="'fin1' cannot be bought now out of turn"):
        apply(state, VizierBuyItem("fin1", ("b5",)), other)


# ---------------------------------------------------------------------------------- currency exchange
def test_an_exchange_card_pays_a_site_and_its_completion() -> None:
    state = fresh(3, modules=("currency_exchange",))
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "o", x=-1, y=0)
    hand(state, seat, ["xby", "y2", "xgo", "g5"])
    assert "buy site1 xby+y2" in legal(state)  # blue square paid in yellow with the blue/yellow card
    assert "buy fin1 xgo+g5" in legal(state)  # the orange site completed in green with the green/orange card
    after, _ = act(state, "buy fin1 xgo+g5")
    top = after.pending[-1]
    assert sites_slice(after).sites == () and isinstance(top, ChooseAction) and top.actions == 1


# ---------------------------------------------------------------------------------- module currency, outside money, reports
def _probe_game(seed: int = 1) -> GameState:
    state, _ = new_game(GameConfig(players=3, modules=(ID, PROBE)), seed)
    for sq, code in enumerate(MARKET, 1):
        set_market(state, sq, code)
    for s in range(3):
        set_hand(state, s, [])
    return state


def test_a_module_currency_pays_a_site_alone_and_never_mixed(probe: None) -> None:
    state = _probe_game()
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "o", x=-1, y=0)
    set_hand(state, seat, ["gm3", "gm5", "o1"])
    acts = legal(state)
    assert "buy site4 gm3" in acts and "buy fin1 gm5" in acts  # like diamonds: set-up and completion
    assert not [a for a in acts if "gm" in a and "o1" in a]
    after, _ = act(state, "buy fin1 gm5")
    assert sites_slice(after).sites == ()
    report = MoneyProbe.purchases[-1]
    assert report.building and report.square == 0 and report.tile == -1 and report.price == 5 and report.exact


def test_money_outside_the_hand_pays_a_site(probe: None) -> None:
    state = _probe_game()
    seat = seat_to_act(state)
    acts = legal(state)
    assert "buy site1 zc+zc" in acts  # two blue coins pay half of the blue P4es
    after, _ = act(state, "buy site1 zc+zc")
    assert after.mods[PROBE][seat] == 1 and isinstance(after.pending[-1], SiteChoice)


def test_the_set_up_overpay_is_measured_against_the_half_price(probe: None) -> None:
    """What change and exchange certificates read: a building purchase, price = half the tile."""
    state = _probe_game()
    seat = seat_to_act(state)
    set_hand(state, seat, ["y9"])
    after, _ = act(state, "buy site4 y9")  # C7sw: half is 3, so 6 overpaid
    report = MoneyProbe.purchases[-1]
    assert report.building and report.offer is not None and report.offer.item == "site4"
    assert (report.price, report.paid, report.overpaid, report.out_of_turn, report.tile) == (
        3,
        9,
        6,
        False,
        after.components.tile_ids["C7sw"],
    )
    # the report comes after the action was closed; the site choice is pushed by this module first
    assert isinstance(after.pending[-1], SiteChoice)


# ---------------------------------------------------------------------------------- the neutral player
def test_a_site_given_to_the_neutral_player_stays_a_site_and_counts_nothing() -> None:
    state = fresh(2)
    seat = seat_to_act(state)
    set_stack(state, "b")
    hand(state, seat, ["g3"])
    before = building_counts(state, -1)
    state, _ = act(state, "buy site2 g3")  # S5sw
    assert "place S5sw neutral" in legal(state)
    state, _ = act(state, "place S5sw neutral")
    site = sites_slice(state).sites[0]
    assert site_location(state, site) == "neutral"
    assert building_counts(state, -1) == before
    check_sites(state)
    check_conservation(state)


def test_a_site_with_the_neutral_player_is_never_completed_or_revealed() -> None:
    state = fresh(2)
    seat = seat_to_act(state)
    set_stack(state, "bg")
    hand(state, seat, ["g3"])
    state, _ = act(state, "buy site2 g3")
    state, _ = act(state, "site keep b")
    state, _ = act(state, "place S5sw neutral")
    # no completion is offered for it, and the end-of-game reveal passes it by
    module = hooks.load_module(ID)
    assert all(not o.item.startswith("fin") for o in module.offers(state, seat, False))
    sl = sites_slice(state)
    events: list[Event] = []
    module.final_starting(state, events)
    assert events == [] and sites_slice(state) == sl


# ---------------------------------------------------------------------------------- street traders
def test_no_citizen_moves_into_a_building_site() -> None:
    """Residents go on completed buildings only: a site built on the trader's place offers the
    exchange (as a bazaar does), never a citizen moving in."""
    from alhambra.modules.street_traders.tests.support import started

    state = started(players=2, modules=(ID, "street_traders"))  # everybody holds pavilion, seraglio, arcades
    seat = seat_to_act(state)
    set_stack(state, "bg")
    set_market(state, 1, "P4es")
    set_hand(state, seat, ["b2"])
    state, _ = act(state, "buy site1 b2")
    state, _ = act(state, "site keep b")
    state, _ = act(state, "place P4es 1,0")  # where the trader tile stands
    assert state.pending[-1].__class__.__name__ == "StreetTraderArrival"
    acts = legal(state)
    assert not [a for a in acts if a.startswith("trader move")]
    assert "trader skip" in acts and [a for a in acts if a.startswith("trader exchange")]
    with pytest.raises(IllegalAction, match="only finished buildings"):
        apply(state, parse_action("trader move pavilion"), seat)


# ---------------------------------------------------------------------------------- the money modules of issue 14
def test_diamonds_pay_a_set_up_and_a_completion_and_survive_the_reveal() -> None:
    state = fresh(3, modules=("diamonds",))
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "o", x=-1, y=0)
    set_hand(state, seat, ["d3", "d5", "o2"])
    acts = legal(state)
    assert "buy site4 d3" in acts and "buy fin1 d5" in acts  # "You can pay with diamonds when setting up or completing"
    assert not [a for a in acts if "d3" in a and "o2" in a]  # diamonds never mix with other money
    after, _ = act(state, "buy fin1 d5")
    assert sites_slice(after).sites == () and isinstance(after.pending[-1], ChooseAction)
    # at the end only money cards of the site's currency are discarded: diamonds stay
    state = fresh(3, modules=("diamonds",))
    seat = seat_to_act(state)
    give_site(state, seat, "C5nsw", "o", x=-1, y=0)
    set_hand(state, seat, ["d3", "o2", "o4", "b1"])
    module = hooks.load_module(ID)
    revealed: list[Event] = []
    module.final_starting(state, revealed)
    assert sorted(state.card_code(c) for c in state.players[seat].hand) == ["b1", "d3"]


def test_change_for_an_overpaid_set_up_against_the_half_price() -> None:
    state = fresh(3, modules=("change",))
    seat = seat_to_act(state)
    set_hand(state, seat, ["y9"])
    after, events = act(state, "buy site4 y9")  # C7sw: half is 3, 6 overpaid: 3 coins
    given = [e for e in events if isinstance(e, ChangeGiven)]
    assert len(given) == 1 and given[0].overpaid == 6 and len(given[0].coins) == 3
    assert sum(change_slice(after).coins[seat]) == 3
    assert isinstance(after.pending[-1], SiteChoice)


def test_a_certificate_may_store_the_set_up_overpay() -> None:
    state = fresh(3, modules=("exchange_certificates",))
    seat = seat_to_act(state)
    set_hand(state, seat, ["y9"])
    after, _ = act(state, "buy site4 y9")  # 6 overpaid on a building purchase: the certificate asks first
    top = after.pending[-1]
    assert isinstance(top, StoreChoice) and top.seat == seat and top.amount == 6
    assert isinstance(after.pending[-2], SiteChoice)
    assert "certificate store y" in legal(after)
    after, _ = act(after, "certificate store y")
    assert isinstance(after.pending[-1], SiteChoice)


# ---------------------------------------------------------------------------------- never exact (issue 24, item 4)
def test_a_site_for_exactly_half_is_never_exact_in_the_event_the_log_and_the_record(probe: None) -> None:
    """Rulebook, Building Sites: "The player pays at least half (rounded down) of a building tile's
    cost and takes the tile. Such a purchase is never regarded as paying the exact amount." The
    public event, its log line and the purchase record handed to other modules all say so."""
    state = _probe_game()
    seat = seat_to_act(state)
    set_hand(state, seat, ["y3"])
    after, events = act(state, "buy site4 y3")  # C7sw: half of 7 is 3, paid exactly
    bought = next(e for e in events if isinstance(e, ItemBought))
    assert bought.exact is False and bought.never_exact
    assert "exactly" not in bought.describe() and "never an exact payment" in bought.describe()
    report = MoneyProbe.purchases[-1]
    assert report.offer is not None and report.offer.never_exact
    assert report.paid == report.price == 3 and report.exact is False
    assert not any(isinstance(p, ChooseAction) for p in after.pending)  # no further action
    assert type(bought).from_dict(bought.to_dict()) == bought
