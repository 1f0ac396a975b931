"""The characters with other modules, as the rulebook names them: the Rich Patron buys a bazaar
(p.23: "Bazaars can be bought with ... The Rich Patron") with exact money, which also lets a
scout be used (p.22); a scoring card the Beggar draws is scored at the end of the turn."""

from __future__ import annotations

from alhambra.events import ItemBought, RoundScored
from alhambra.hooks import Purchase
from alhambra.modules.bazaars import BazaarsState
from alhambra.modules.characters import MODULE
from alhambra.modules.characters.state import TurnStart
from alhambra.state import ChooseAction
from alhambra.testing import check_conservation, set_hand, take_first, take_tile

from .helpers import act, chars, fresh, give, legal


def test_the_rich_patron_takes_a_bazaar_with_another_action() -> None:
    state = fresh(3, seed=3, modules=("bazaars",))
    s = state.current
    take_tile(state, "Zg1")
    state.mods["bazaars"] = BazaarsState(("Zg1",))
    give(state, s, "rich_patron")
    assert "character patron Zg1" in legal(state)
    state, events = act(state, "character patron Zg1")
    bought = next(e for e in events if isinstance(e, ItemBought))
    assert bought.exact and bought.payment == ()
    top = state.pending[-1]
    assert isinstance(top, ChooseAction) and top.actions == 1 and top.bought == ("Zg1",)
    assert state.mods["bazaars"].beside == () and "rich_patron" in chars(state).out
    check_conservation(state)


def test_the_rich_patrons_purchase_is_exact_for_the_other_modules() -> None:
    heard: list[Purchase] = []
    state = fresh(3, modules=("invaders",))
    s = state.current
    give(state, s, "rich_patron")
    from alhambra.modules import invaders

    original = invaders.MODULE.purchase_made

    def spy(st: object, purchase: Purchase, events: list[object]) -> None:
        heard.append(purchase)
        original(st, purchase, events)  # type: ignore[arg-type]

    invaders.MODULE.purchase_made = spy  # type: ignore[method-assign,assignment]
    try:
        state, _ = act(state, "character patron 1")
    finally:
        del invaders.MODULE.purchase_made
    assert heard and heard[0].exact and heard[0].payment == () and not heard[0].out_of_turn


def test_a_scoring_card_the_beggar_draws_is_scored_at_the_end_of_the_turn() -> None:
    state = fresh(3)
    s = state.current
    nxt = (s + 1) % 3
    give(state, nxt, "beggar")
    set_hand(state, nxt, [])
    cards = state.components.cards
    score = min((c for c in state.deck if cards[c].kind == "scoring"), key=lambda c: cards[c].value)
    state.deck.remove(score)
    state, _ = take_first(state)
    state.deck.append(score)  # on top: the Beggar's draw meets it
    assert isinstance(state.pending[-1], TurnStart)
    state, events = act(state, "character beggar")
    assert state.scoring_queue == [1] and not any(isinstance(e, RoundScored) for e in events)
    assert len(state.players[nxt].hand) == 1  # then the next card was drawn
    state, events = take_first(state)
    assert [e.round for e in events if isinstance(e, RoundScored)] == [1]
    assert MODULE.id == "characters"


def test_change_for_an_overpaid_bid() -> None:
    """p.18: "Players also receive change if they pay too much to obtain character cards"."""
    from alhambra.modules.change.module import change_slice

    from .helpers import auction

    state = fresh(3, modules=("change",))
    first = state.current
    set_hand(state, first, ["b9"])
    auction(state, "miser")
    state, _ = act(state, "character bid 5")
    for _ in range(2):
        state, _ = act(state, "character pass")
    assert legal(state) == ["character pay b9"]
    state, _ = act(state, "character pay b9")
    assert sum(change_slice(state).coins[first]) == 2  # 4 overpaid: one coin per 2
    assert "miser" in chars(state).owned[first]
    check_conservation(state)
