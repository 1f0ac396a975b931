"""The characters' rules (rulebook p.14): setup, the auction at draw time, every ability with its
timing, and what the README records as our readings."""

from __future__ import annotations

import pytest

from alhambra import apply, legal_actions
from alhambra.engine import building_counts
from alhambra.errors import IllegalAction
from alhambra.events import RoundScored
from alhambra.modules.characters.auction import max_bid
from alhambra.modules.characters.components import card_ids
from alhambra.modules.characters.state import (
    Auction,
    CharacterPayment,
    EntertainerChoice,
    MasterBuilderChoice,
    MiserChoice,
    TurnStart,
    WiseChoice,
)
from alhambra.state import ChooseAction, PlaceTiles
from alhambra.testing import build_tiles, check_conservation, score_next_round, set_hand, set_market, take_first

from .helpers import act, auction, chars, fresh, give, legal


def test_setup_six_cards_in_piles_two_to_four_four_in_the_surplus_pile() -> None:
    state = fresh(4)
    sl = chars(state)
    ids = set(card_ids(state))
    assert len(ids) == 10 and sl.surplus == 4 and len(sl.cards) == 4
    in_deck = [i for i, c in enumerate(state.deck) if c in ids]
    assert len(in_deck) == 6
    assert sl.unseen() == list(chars(state).unseen()) and len(sl.unseen()) == 10  # nobody knows which six


def test_a_character_drawn_at_the_end_of_a_turn_is_auctioned_before_the_market_refill() -> None:
    state = fresh(3, market=("P2new", "S5sw", "A6ne", "C9s"))
    s = state.current
    c = next(c for c in state.deck if c in card_ids(state))
    state.deck.remove(c)
    state.deck.append(c)  # the next card drawn
    letter = "bgoy"[state.market_currency[0]]
    set_hand(state, s, [letter + "2"])
    state, _ = act(state, f"buy 1 {letter}2")  # exact: another action
    state, _ = take_first(state)  # the display is refilled: the character comes up
    state, _events = act(state, "place P2new reserve")
    top = state.pending[-1]
    assert isinstance(top, Auction)
    assert top.seat == top.auctioneer == (s + 1) % 3  # the player due to play next opens
    assert state.market[0] == -1  # the market is refilled only after the auction
    assert top.character in chars(state).queue and -1 not in state.display


def test_the_auction_goes_round_until_one_bidder_is_left_who_pays() -> None:
    state = fresh(3)
    first = state.current  # drawn during a turn (as by the Beggar): that player opens
    for s, hand in enumerate([["b5", "b3"], ["g9"], ["y2", "o2"]]):
        set_hand(state, s, hand)
    auction(state, "trader")
    order = [(first + i) % 3 for i in range(3)]
    assert state.to_act == order[0]
    state, _ = act(state, "character bid 2")
    assert state.to_act == order[1]
    state, _ = act(state, "character bid 3")
    state, _ = act(state, "character pass" if max_bid(state, order[2]) <= 3 else "character bid 4")
    while isinstance(state.pending[-1], Auction):
        acts = legal(state)
        state, _ = act(state, acts[0] if acts[0] != "character pass" else "character pass")
    pay = state.pending[-1]
    assert isinstance(pay, CharacterPayment)
    winner = pay.seat
    options = legal(state)
    assert options and all(o.startswith("character pay ") for o in options)
    before = len(state.players[winner].hand)
    state, events = act(state, options[-1])
    assert "trader" in chars(state).owned[winner] and len(state.players[winner].hand) < before
    assert not chars(state).queue
    assert any(type(e).__name__ == "CharacterWon" for e in events)


def test_bids_rise_and_must_be_payable_in_one_currency_not_exactly() -> None:
    state = fresh(3)
    first = state.current
    set_hand(state, first, ["b5", "b3", "g7"])
    auction(state, "miser")
    acts = legal(state)
    assert "character bid 8" in acts and "character bid 9" not in acts  # 5+3 blue; 7 green: 8 at most
    assert "character bid 15" not in acts  # two currencies cannot be combined
    with pytest.raises(IllegalAction, match="one currency"):
        apply(state, legal_actions(state)[0].__class__(9), first)  # type: ignore[call-arg]
    state, _ = act(state, "character bid 6")
    for _ in range(2):
        if isinstance(state.pending[-1], Auction):
            state, _ = act(state, "character pass")
    assert isinstance(state.pending[-1], CharacterPayment)
    assert "character pay b5+b3" in legal(state) and "character pay g7" in legal(state)  # overpaying is allowed


def test_a_seat_with_no_money_can_only_pass_and_nobody_bidding_removes_the_card() -> None:
    state = fresh(3)
    for s in range(3):
        set_hand(state, s, [])
    auction(state, "beggar")
    for _ in range(3):
        assert legal(state) == ["character pass"]
        state, events = act(state, "character pass")
    assert "beggar" in chars(state).out and not any(isinstance(p, Auction) for p in state.pending)
    assert any(type(e).__name__ == "CharacterRemoved" for e in events)
    check_conservation(state)


def test_diamonds_alone_pay_a_bid() -> None:
    state = fresh(3, modules=("diamonds",))
    first = state.current
    set_hand(state, first, ["d5", "d4", "b2"])
    auction(state, "city_watch")
    assert "character bid 9" in legal(state) and "character bid 10" not in legal(state)
    state, _ = act(state, "character bid 9")
    while isinstance(state.pending[-1], Auction):
        state, _ = act(state, "character pass")
    assert legal(state) == ["character pay d4+d5"]


def test_two_players_the_neutral_player_never_bids() -> None:
    state = fresh(2)
    auction(state, "dancer")
    top = state.pending[-1]
    assert isinstance(top, Auction) and sorted(top.order) == [0, 1]


def test_the_entertainer_kept_scores_eight_at_the_end_or_is_swapped_for_the_surplus_top() -> None:
    state = fresh(3)
    first = state.current
    set_hand(state, first, ["b3"])
    auction(state, "entertainer")
    state, _ = act(state, "character bid 1")
    while isinstance(state.pending[-1], Auction):
        state, _ = act(state, "character pass")
    state, _ = act(state, "character pay b3")
    assert isinstance(state.pending[-1], EntertainerChoice)
    assert legal(state) == ["character keep", "character swap"]
    kept, _ = act(state, "character keep")
    assert "entertainer" in chars(kept).owned[first]
    swapped, _events = act(state, "character swap")
    got = chars(swapped).owned[first]
    assert "entertainer" not in got and len(got) == 1 and chars(swapped).known == ("entertainer",)
    assert chars(swapped).surplus == 4  # one card taken, the Entertainer put back face down


def test_entertainer_points_only_in_the_final_scoring() -> None:
    from alhambra.modules.characters import MODULE

    state = fresh(3)
    give(state, 1, "entertainer")
    assert MODULE.round_points(state, 1) is None
    assert MODULE.round_points(state, 3) == [0, 8, 0]


def test_city_watch_one_point_per_three_wall_points() -> None:
    from alhambra.modules.characters import MODULE

    state = fresh(3)
    give(state, 0, "city_watch")
    build_tiles(state, 0, {(1, 0): "P6n", (2, 0): "G10n", (3, 0): "T11n"})
    from alhambra.modules.characters.scoring import wall_points

    walls = wall_points(state, 0)
    assert walls == 3
    assert MODULE.round_points(state, 1) == [1, 0, 0]
    build_tiles(state, 0, {(4, 0): "S4ne", (5, 0): "C10", (6, 0): "A6ne"})
    assert wall_points(state, 0) >= 4


def test_rich_patron_takes_a_building_free_with_another_action_and_leaves_the_game() -> None:
    state = fresh(3, market=("P2new", "S5sw", "A6ne", "C9s"))
    s = state.current
    give(state, s, "rich_patron")
    set_hand(state, s, [])
    assert "character patron 4" in legal(state)
    state, _events = act(state, "character patron 4")
    top = state.pending[-1]
    assert isinstance(top, ChooseAction) and top.actions == 1 and top.bought == ("C9s",)  # a bonus action
    assert "rich_patron" in chars(state).out and "rich_patron" not in chars(state).owned[s]
    assert not any(a.startswith("character patron") for a in legal(state))


def test_miser_takes_an_open_money_card_after_a_building_of_ten_or_more() -> None:
    state = fresh(3, market=("P2new", "S5sw", "A6ne", "T10w"))
    s = state.current
    give(state, s, "miser")
    set_market(state, 4, "T10w")
    cur = state.market_currency[3]
    letter = "bgoy"[cur]
    set_hand(state, s, [f"{letter}9", f"{letter}1"])
    state, _ = act(state, f"buy 4 {letter}9+{letter}1")
    assert isinstance(state.pending[-1], MiserChoice)
    opts = legal(state)
    assert opts[-1] == "character skip" and all(o.startswith("character miser ") for o in opts[:-1])
    n = len(state.players[s].hand)
    state, _ = act(state, opts[0])
    assert len(state.players[s].hand) == n + 1 and -1 in state.display
    assert isinstance(state.pending[-1], ChooseAction | PlaceTiles)


def test_no_miser_after_a_cheaper_building() -> None:
    state = fresh(3, market=("P2new", "S5sw", "A6ne", "C9s"))
    s = state.current
    give(state, s, "miser")
    letter = "bgoy"[state.market_currency[0]]
    set_hand(state, s, [f"{letter}2"])
    state, _ = act(state, f"buy 1 {letter}2")
    assert not isinstance(state.pending[-1], MiserChoice)


def test_trader_takes_several_cards_up_to_seven() -> None:
    state = fresh(3)
    s = state.current
    code_of = state.components.card_code
    for i, code in enumerate(["b3", "g4", "o2", "y5"]):
        c = next(c for c in state.deck if code_of[c] == code)
        state.deck[state.deck.index(c)] = state.display[i]
        state.display[i] = c
    before = legal(state)
    give(state, s, "trader")
    after = legal(state)
    assert set(before) <= set(after)
    assert "take b3+o2" in before and "take b3+g4" not in before
    assert {"take b3+g4", "take o2+y5", "take g4+o2"} <= set(after) and "take g4+y5" not in after
    assert "take b3+g4+o2" not in after  # 9
    state, _ = act(state, "take b3+g4")
    assert len(state.players[s].hand) == 2


def test_master_builder_gives_an_extra_redesign_at_the_end_of_the_turn() -> None:
    state = fresh(3, market=("P2new", "S5sw", "A6ne", "C9s"))
    s = state.current
    give(state, s, "master_builder")
    build_tiles(state, s, {(1, 0): "C7ne"})
    state, _ = take_first(state)
    assert isinstance(state.pending[-1], MasterBuilderChoice)
    opts = legal(state)
    assert "character remove C7ne" in opts and opts[-1] == "character skip"
    state, events = act(state, "character remove C7ne")
    assert state.components.tile_ids["C7ne"] in state.players[s].reserve
    assert any(type(e).__name__ == "AlhambraRedesigned" for e in events)


def test_wise_man_counts_half_a_building_of_the_chosen_kind() -> None:
    state = fresh(3)
    give(state, 2, "wise_man")
    build_tiles(state, 0, {(1, 0): "C7ne"})
    state2 = state.copy()
    from alhambra.testing import scoring_card_next

    scoring_card_next(state2)
    state2, _ = take_first(state2)
    assert isinstance(state2.pending[-1], WiseChoice) and state2.to_act == 2
    assert legal(state2) == ["character wise " + k for k in ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")]
    state2, events = act(state2, "character wise tower")
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert rounds and rounds[0].counts["tower"][2] == 0.5
    assert rounds[0].kinds["tower"][2] > 0  # half a tower beats none and takes the place
    assert chars(state2).wise == ("", "", "")
    assert building_counts(state2, 2)["tower"] == 0


def test_dancer_exchanges_a_market_building_for_one_from_the_bag() -> None:
    state = fresh(3, market=("P2new", "S5sw", "A6ne", "C9s"))
    s = state.current
    nxt = (s + 1) % 3
    give(state, nxt, "dancer")
    state, _ = take_first(state)
    while state.to_act != nxt or not isinstance(state.pending[-1], TurnStart):
        state, _ = act(state, legal(state)[-1])
    old = state.market[1]
    bag = len(state.bag)
    state, _events = act(state, "character dancer 2")
    assert state.market[1] != old and state.market[1] >= 0 and old in state.bag and len(state.bag) == bag
    assert not any(a.startswith("character dancer") for a in legal(state))  # once per turn
    assert isinstance(state.pending[-1], ChooseAction)


def test_beggar_draws_with_at_most_two_money_cards() -> None:
    state = fresh(3)
    s = state.current
    nxt = (s + 1) % 3
    give(state, nxt, "beggar")
    set_hand(state, nxt, ["b2", "g3"])
    state, _ = take_first(state)
    assert isinstance(state.pending[-1], TurnStart) and state.to_act == nxt
    assert "character beggar" in legal(state)
    state, _events = act(state, "character beggar")
    assert len(state.players[nxt].hand) >= 3
    assert "character beggar" not in legal(state)


def test_no_beggar_with_three_money_cards() -> None:
    state = fresh(3)
    s = state.current
    nxt = (s + 1) % 3
    give(state, nxt, "beggar")
    set_hand(state, nxt, ["b2", "g3", "o4"])
    state, _ = take_first(state)
    assert not isinstance(state.pending[-1], TurnStart)


def test_moneychanger_swaps_for_an_open_card_of_equal_or_lesser_value_once_a_turn() -> None:
    state = fresh(3)
    s = state.current
    give(state, s, "moneychanger")
    comp = state.components
    low = min(comp.card_value[c] for c in state.display if c >= 0)
    set_hand(state, s, ["b9"])
    opts = [a for a in legal(state) if a.startswith("character change")]
    assert opts and all(a.startswith("character change b9 ") for a in opts)
    state, _events = act(state, opts[0])
    assert isinstance(state.pending[-1], ChooseAction) and state.pending[-1].actions == 0  # a free action
    assert not any(a.startswith("character change") for a in legal(state))
    assert low <= 9


def test_the_vizier_buy_uses_no_character() -> None:
    from alhambra.hooks import Purchase
    from alhambra.modules.characters import MODULE

    state = fresh(3, modules=("vizier",))
    give(state, 1, "miser")
    MODULE.purchase_made(state, Purchase(1, 1, None, state.market[0], 10, 10, ("b9", "b1"), True, True), [])
    assert not any(isinstance(p, MiserChoice) for p in state.pending)


def test_score_round_counts_no_half_without_the_wise_man() -> None:
    state = fresh(3)
    state, events = score_next_round(state)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert all(float(v).is_integer() for kind in rounds[0].counts.values() for v in kind)
