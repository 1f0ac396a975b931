"""Currency exchange cards: components, setup, the rulebook example, limits, end of game, reshuffles."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, view
from alhambra.actions import BuyBuilding, PlaceBuilding, TakeMoney
from alhambra.engine import build_components, draw_card, money_of
from alhambra.errors import IllegalAction, InvalidPayment
from alhambra.events import BuildingBought, DeckReshuffled, Event, MarketTileAwarded
from alhambra.hooks import PaymentOption, load_module
from alhambra.modules.currency_exchange import EXCHANGE_PAIRS, MODULE, exchange_code
from alhambra.state import ChooseAction, GameState
from alhambra.testing import check_conservation, play_random_game, set_hand, set_market

CONFIG = GameConfig(players=3, modules=("currency_exchange",))
BLUE, GREEN, ORANGE, YELLOW = range(4)


def ids_of(state: GameState, *codes: str) -> list[int]:
    cards = state.components.cards
    return [next(i for i, c in enumerate(cards) if c.code == code) for code in codes]


def codes(state: GameState, ids: list[int]) -> list[str]:
    return sorted(state.card_code(c) for c in ids)


def example(seed: int = 2) -> GameState:
    """The rulebook example's hand: b7, b2, y9 and the blue-yellow card; garden 11 on the yellow
    square (4), pavilion 7 on the blue square (1) (the picture's squares: :func:`rulebook_example`)."""
    state, _ = new_game(CONFIG, seed)
    set_market(state, 1, "P7e")
    set_market(state, 4, "G11")
    set_market(state, 2, "S9")
    set_market(state, 3, "C11")
    set_hand(state, state.current, ["b7", "b2", "y9", "xby"])
    return state


# ---------------------------------------------------------------------------------- components and setup
def test_six_cards_one_per_pair_of_currencies() -> None:
    comp = build_components(CONFIG)
    ex = [c for c in comp.cards if c.module == "currency_exchange"]
    assert sorted(c.code for c in ex) == ["xbg", "xbo", "xby", "xgo", "xgy", "xoy"]
    assert sorted(c.extra for c in ex) == sorted(EXCHANGE_PAIRS) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert all(c.kind == "exchange" and c.value == 0 and not c.is_money and c.currency == -1 for c in ex)
    assert exchange_code(YELLOW, BLUE) == "xby"
    assert load_module("currency_exchange") is MODULE and MODULE.assumptions


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_two_cards_in_each_of_piles_two_three_and_four(players: int, seed: int) -> None:
    state, _ = new_game(GameConfig(players=players, modules=("currency_exchange",)), seed)
    comp = state.components
    ex = set(MODULE.card_ids(state))
    assert not ex & {c for p in state.players for c in p.hand} and not ex & set(state.display)
    assert ex <= set(state.deck)
    # rebuild the five piles: equal shares of the money, +1 scoring card in piles 2 and 4, +2 exchange cards in piles 2-4
    money = sum(1 for c in state.deck if comp.card_is_money[c])
    size, extra = divmod(money, 5)
    sizes = [size + (i < extra) + (i in (1, 3)) + 2 * (i in (1, 2, 3)) for i in range(5)]
    assert sum(sizes) == len(state.deck)
    top_first = state.deck[::-1]
    piles, at = [], 0
    for k in sizes:
        piles.append(top_first[at : at + k])
        at += k
    assert [sum(c in ex for c in pile) for pile in piles] == [0, 2, 2, 2, 0]
    assert [sum(comp.cards[c].kind == "scoring" for c in pile) for pile in piles] == [0, 1, 0, 1, 0]


def test_cards_are_shuffled_differently_by_seed() -> None:
    orders = set()
    for seed in range(6):
        state, _ = new_game(CONFIG, seed)
        ex = set(MODULE.card_ids(state))
        orders.add(tuple(state.card_code(c) for c in state.deck if c in ex))
    assert len(orders) > 1


# ---------------------------------------------------------------------------------- the rulebook's example
def test_rulebook_example_garden_with_florins_and_denars() -> None:
    state = example()
    seat = state.current
    acts = legal_actions(state)
    garden = BuyBuilding(4, ("xby", "b2", "y9"))
    assert garden in acts
    assert BuyBuilding(1, ("b7",)) in acts
    state, events = apply(state, garden, seat)
    bought = events[0]
    assert isinstance(bought, BuildingBought) and bought.tile == "G11" and bought.exact  # 9 + 2 = 11
    assert codes(state, state.players[seat].hand) == ["b7"]
    assert codes(state, state.discard[-3:]) == ["b2", "xby", "y9"]  # the card is spent with the money
    assert state.pending[-1] == ChooseAction(seat, 1, ("G11",))  # exact: another action
    # the card cannot be used twice
    with pytest.raises(InvalidPayment, match="do not hold"):
        apply(state, BuyBuilding(1, ("xby", "b7")), seat)
    assert not any(isinstance(a, BuyBuilding) and "xby" in a.payment for a in legal_actions(state))
    state, events = apply(state, BuyBuilding(1, ("b7",)), seat)  # the pavilion with exact denars
    assert isinstance(events[0], BuildingBought) and events[0].exact
    check_conservation(state)


def rulebook_example(seed: int = 2) -> GameState:
    """The rulebook's example as pictured: b7, b2, y9 and the blue-yellow card; the garden 11 and
    the pavilion 7 each on a square where the card is needed (garden: blue square 1; pavilion:
    yellow square 4)."""
    state = example(seed)
    set_market(state, 1, "G11")
    set_market(state, 4, "P7e")
    return state


def test_rulebook_example_the_card_is_played_for_the_garden_or_for_the_pavilion() -> None:
    """Rulebook, Currency exchange: "either he pays 9 florins and 2 denars for the garden or he
    pays 7 denars which is the exact money for the pavilion. In either of these cases he plays
    his currency exchange card which he must then discard. He is not allowed to use his currency
    exchange card twice." (The README's example once bought the pavilion with `buy 1 b7`,
    without the card; issue 24, item 6.)"""
    state = rulebook_example()
    seat = state.current
    acts = legal_actions(state)
    garden, pavilion = BuyBuilding(1, ("xby", "b2", "y9")), BuyBuilding(4, ("xby", "b7"))
    assert garden in acts and pavilion in acts
    assert BuyBuilding(4, ("b7",)) not in acts and BuyBuilding(1, ("b2", "y9")) not in acts  # never without the card
    after, events = apply(state, pavilion, seat)  # the pavilion: 7 denars and the card, exact
    assert isinstance(events[0], BuildingBought) and events[0].tile == "P7e" and events[0].exact
    assert "xby" not in codes(after, after.players[seat].hand) and codes(after, after.discard[-2:]) == ["b7", "xby"]
    after, events = apply(state, garden, seat)  # or the garden: 9 florins and 2 denars and the card, exact
    assert isinstance(events[0], BuildingBought) and events[0].tile == "G11" and events[0].exact
    assert codes(after, after.players[seat].hand) == ["b7"]
    assert not any(isinstance(a, BuyBuilding) and "xby" in a.payment for a in legal_actions(after))  # not twice
    with pytest.raises(InvalidPayment, match="do not hold"):
        apply(after, BuyBuilding(4, ("xby", "b7")), seat)


def test_a_pavilion_on_the_blue_square_needs_no_card() -> None:
    state = example()
    seat = state.current
    state, events = apply(state, BuyBuilding(1, ("b7",)), seat)
    assert isinstance(events[0], BuildingBought) and events[0].exact
    assert "xby" in codes(state, state.players[seat].hand)  # not needed, so kept


def test_the_card_pays_a_yellow_square_with_denars() -> None:
    state = example()
    set_market(state, 4, "P7e")
    set_market(state, 1, "G11")
    seat = state.current
    assert BuyBuilding(4, ("xby", "b7")) in legal_actions(state)
    state, events = apply(state, BuyBuilding(4, ("xby", "b7")), seat)
    assert isinstance(events[0], BuildingBought) and events[0].tile == "P7e" and events[0].exact


def test_without_the_card_the_mix_is_refused() -> None:
    state = example()
    seat = state.current
    set_hand(state, seat, ["b7", "b2", "y9"])
    assert BuyBuilding(4, ("b2", "y9")) not in legal_actions(state)
    with pytest.raises(InvalidPayment, match="takes yellow"):
        apply(state, BuyBuilding(4, ("b2", "y9")), seat)


# ---------------------------------------------------------------------------------- limits
def test_the_card_only_helps_on_a_square_of_one_of_its_currencies() -> None:
    state = example()
    seat = state.current
    set_hand(state, seat, ["b7", "y2", "xby", "g9"])
    assert MODULE.payment_options(state, seat, GREEN) == []
    assert MODULE.payment_options(state, seat, BLUE) == [PaymentOption(tuple(ids_of(state, "xby")), frozenset({BLUE, YELLOW}))]
    with pytest.raises(InvalidPayment, match="cannot be used"):
        apply(state, BuyBuilding(2, ("xby", "b7", "y2")), seat)  # S9 on the green square
    assert not any(isinstance(a, BuyBuilding) and a.square == 2 and "xby" in a.payment for a in legal_actions(state))


def test_only_one_card_per_purchase_and_never_without_money() -> None:
    state = example()
    seat = state.current
    set_hand(state, seat, ["xby", "xbg", "b2", "y5", "g5"])
    with pytest.raises(InvalidPayment, match="cannot be used"):
        apply(state, BuyBuilding(1, ("xbg", "xby", "b2", "g5", "y5")), seat)  # 12 for P7e, but two cards
    with pytest.raises(InvalidPayment, match="needs money"):
        apply(state, BuyBuilding(1, ("xby",)), seat)
    acts = [a for a in legal_actions(state) if isinstance(a, BuyBuilding)]
    assert all(sum(code.startswith("x") for code in a.payment) <= 1 for a in acts)
    assert BuyBuilding(1, ("xby", "b2", "y5")) in acts and BuyBuilding(1, ("xbg", "b2", "g5")) in acts
    state, events = apply(state, BuyBuilding(1, ("xby", "b2", "y5")), seat)
    assert isinstance(events[0], BuildingBought) and events[0].exact
    assert codes(state, state.players[seat].hand) == ["g5", "xbg"]  # only the card that was played is gone


def test_an_overpayment_with_the_card_ends_the_action_phase() -> None:
    state = example()
    seat = state.current
    set_hand(state, seat, ["xby", "b2", "y9"])
    state, events = apply(state, BuyBuilding(1, ("xby", "b2", "y9")), seat)  # 11 for a 7
    assert isinstance(events[0], BuildingBought) and not events[0].exact
    assert not isinstance(state.pending[-1], ChooseAction)


def test_no_limit_on_cards_held() -> None:
    state, _ = new_game(CONFIG, 4)
    seat = state.current
    set_hand(state, seat, ["xbg", "xbo", "xby", "xgo", "xgy", "xoy", "b3"])
    opts = MODULE.payment_options(state, seat, BLUE)
    assert sorted(state.card_code(o.special[0]) for o in opts) == ["xbg", "xbo", "xby"]


# ---------------------------------------------------------------------------------- taking the cards
def test_an_exchange_card_in_the_display_is_taken_alone_instead_of_money() -> None:
    state, _ = new_game(CONFIG, 6)
    seat = state.current
    cards = state.components.cards
    xby = ids_of(state, "xby")[0]
    state.deck.remove(xby)
    small = [c for c in state.deck if cards[c].is_money and cards[c].value == 1][:3]
    for c in small:
        state.deck.remove(c)
    state.deck.extend(state.display)
    state.display = [xby, *small]  # x + three 1s: the 1s alone may be taken together
    acts = [a for a in legal_actions(state) if isinstance(a, TakeMoney)]
    assert TakeMoney(("xby",)) in acts
    assert all(len(a.cards) == 1 for a in acts if "xby" in a.cards)
    with pytest.raises(IllegalAction, match="only money cards"):
        apply(state, TakeMoney(("xby", state.card_code(small[0]))), seat)
    state, _ = apply(state, TakeMoney(("xby",)), seat)
    assert xby in state.players[seat].hand
    assert state.current != seat  # taking it was the whole action: the turn is over
    check_conservation(state)


# ---------------------------------------------------------------------------------- the end of the game and reshuffles
def test_exchange_cards_never_count_as_money_at_the_end() -> None:
    state, _ = new_game(CONFIG, 7)
    s = state.current
    s1, s2 = (s + 1) % 3, (s + 2) % 3
    for sq, tile in ((1, "P2new"), (2, "S3esw"), (3, "A4nes"), (4, "C5nsw")):
        set_market(state, sq, tile)
    set_hand(state, s, ["b9"])
    set_hand(state, s1, ["xby", "xgy", "xoy"])  # three cards showing yellow, but no yellow money
    set_hand(state, s2, ["y1"])
    assert money_of(state, s1, YELLOW) == 0 and money_of(state, s2, YELLOW) == 1
    state.bag.clear()
    state, _ = apply(state, BuyBuilding(1, ("b9",)), s)  # overpaid: the turn ends
    state, events = apply(state, PlaceBuilding("P2new", "reserve"), s)
    assert state.market_exhausted
    awarded = {e.square: e.seat for e in events if isinstance(e, MarketTileAwarded)}
    assert awarded[4] == s2


def test_used_cards_are_reshuffled_with_the_discards() -> None:
    state = example()
    seat = state.current
    state, _ = apply(state, BuyBuilding(4, ("xby", "b2", "y9")), seat)
    xby = ids_of(state, "xby")[0]
    assert xby in state.discard
    rest = state.deck[:]
    state.deck.clear()
    events: list[Event] = []
    drawn = [draw_card(state, events)]
    assert isinstance(events[0], DeckReshuffled)
    assert xby in state.deck + drawn
    state.deck[:0] = rest


def test_view_shows_the_cards_currencies_and_discarded_cards_only() -> None:
    state = example()
    seat = state.current
    state, _ = apply(state, BuyBuilding(4, ("xby", "b2", "y9")), seat)
    mv = view(state, None)["module_views"]["currency_exchange"]
    assert mv["cards"]["xby"] == ["blue", "yellow"] and len(mv["cards"]) == 6
    assert mv["discarded"] == ["xby"]
    other = (seat + 1) % 3
    assert view(state, other)["seats"][seat]["hand"] is None
    json.dumps(view(state, seat))


# ---------------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_exchange_cards_finish(players: int) -> None:
    game = play_random_game(GameConfig(players=players, modules=("currency_exchange",)), seed=300 + players)
    assert game.state.outcome == "finished"
    texts = [str(a) for a in game.record.actions]
    taken = Counter(t.split()[1] for t in texts if t.startswith("take x"))
    assert taken and set(taken) <= {"xbg", "xbo", "xby", "xgo", "xgy", "xoy"}
    assert any(t.startswith("buy") and " x" in t for t in texts)


def test_turn_limited_game_with_exchange_cards() -> None:
    game = play_random_game(GameConfig(players=4, modules=("currency_exchange",), turn_limit=20), seed=9)
    assert game.state.outcome == "truncated" and game.state.turn == 20


def test_the_readme_example_plays_the_card_in_either_case() -> None:
    """The README's worked example is the rulebook's: "In either of these cases he plays his
    currency exchange card" (it once bought the pavilion with ``buy 1 b7``, without the card)."""
    from pathlib import Path

    import alhambra.modules.currency_exchange as module

    readme = " ".join((Path(module.__file__).parent / "README.md").read_text(encoding="utf-8").split())
    example_text = readme[readme.index("Worked example (rulebook)") :]
    example_text = example_text[: example_text.index("## ")]
    buys = re.findall(r"`(buy [^`]+)`", example_text)
    assert buys == ["buy 1 xby+b2+y9", "buy 4 xby+b7"]
    state = rulebook_example()
    legal = {str(a) for a in legal_actions(state)}
    for text in buys:
        assert text in legal and "xby" in text
