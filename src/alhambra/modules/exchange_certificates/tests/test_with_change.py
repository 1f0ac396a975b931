"""Exchange certificates with change in the same game: an overpayment is stored or given as
change, the player's choice ("Even if played with the [change] module, players can store
money on their exchange certificate boards")."""

from __future__ import annotations

import pytest

from alhambra import apply, legal_actions, parse_action, view
from alhambra.modules.change import ChangeGiven, change_slice, check_coins
from alhambra.modules.exchange_certificates import NO_CREDIT, CreditDeclined, StoreChoice, check_tokens
from alhambra.state import PlaceTiles
from alhambra.testing import set_hand

from .helpers import credit, fresh, store

BOTH = ("change", "exchange_certificates")


def coins(state: object, seat: int) -> int:
    return sum(change_slice(state).coins[seat])  # type: ignore[arg-type]


def test_an_overpayment_of_5_is_stored_or_given_as_2_coins() -> None:
    state = fresh(modules=BOTH)
    seat = state.current
    set_hand(state, seat, ["y9"])
    state, events = apply(state, parse_action("buy 4 y9"), seat)
    assert not [e for e in events if isinstance(e, ChangeGiven)]  # not yet: the player decides
    assert state.pending[-1] == StoreChoice(seat, 5, 2)
    assert view(state, seat)["module_views"]["exchange_certificates"]["with_change"] is True
    stored, events = apply(state, parse_action("certificate store g"), seat)
    assert credit(stored, seat) == (1, 5) and coins(stored, seat) == 0
    assert not [e for e in events if isinstance(e, ChangeGiven)]
    changed, events = apply(state, parse_action("certificate decline"), seat)
    assert events[0] == CreditDeclined(seat, 5)
    (got,) = [e for e in events if isinstance(e, ChangeGiven)]
    assert got.overpaid == 5 and len(got.coins) == 2
    assert credit(changed, seat) == NO_CREDIT and coins(changed, seat) == 2
    assert isinstance(changed.pending[-1], PlaceTiles)
    for s in (stored, changed):
        check_coins(s)
        check_tokens(s)


def test_an_overpayment_of_1_may_be_stored_and_declining_gives_nothing() -> None:
    state = fresh(modules=BOTH)
    seat = state.current
    set_hand(state, seat, ["y5"])
    state, _ = apply(state, parse_action("buy 4 y5"), seat)
    assert state.pending[-1] == StoreChoice(seat, 1, 0)
    after, events = apply(state, parse_action("certificate decline"), seat)
    assert [e for e in events if isinstance(e, ChangeGiven)] == [] and coins(after, seat) == 0


@pytest.mark.parametrize("why", ["7 or more", "a credit is stored", "no token left"])
def test_an_overpayment_that_cannot_be_stored_is_given_as_change_at_once(why: str) -> None:
    state = fresh(modules=BOTH)
    seat = state.current
    hand = ["y9", "y4"] if why == "7 or more" else ["y9"]
    if why == "a credit is stored":
        store(state, seat, 0, 3)
    if why == "no token left":
        from alhambra.modules.exchange_certificates import CertificatesState, certificates_slice

        state.mods["exchange_certificates"] = CertificatesState((0, 0, 0, 0), certificates_slice(state).credit)
    set_hand(state, seat, hand)
    after, events = apply(state, parse_action("buy 4 " + "+".join(hand)), seat)
    assert not isinstance(after.pending[-1], StoreChoice)
    (got,) = [e for e in events if isinstance(e, ChangeGiven)]
    assert got.due == (9 if why == "7 or more" else 5) // 2
    assert coins(after, seat) == got.due


def test_spending_the_credit_with_an_overpayment_offers_store_or_change() -> None:
    state = fresh(modules=BOTH)
    seat = state.current
    store(state, seat, 0, 6)
    set_hand(state, seat, ["b9"])
    # 9 + 6 = 15 for the 12 tower: 3 overpaid, the board is free again
    state, _ = apply(state, parse_action("buy 1 cr+b9"), seat)
    assert state.pending[-1] == StoreChoice(seat, 3, 1)
    assert "certificate store b" in [str(a) for a in legal_actions(state)]  # the token just returned
    after, _ = apply(state, parse_action("certificate decline"), seat)
    assert coins(after, seat) == 1
