"""Other modules that value buildings by the scoring table read it through
``engine.kind_points``: with new score cards their values follow the drawn cards."""

from __future__ import annotations

from alhambra.modules.bonus_cards import MODULE as BONUS
from alhambra.modules.bonus_cards.module import CARD_KINDS, CARD_TILES, bonus_state
from alhambra.modules.building_sites import MODULE as SITES
from alhambra.modules.building_sites.tests.helpers import fresh as sites_game, give_site
from alhambra.modules.new_score_cards import ScoreCardsState, cards

from .helpers import ID, build, game


def rows(kind: str, row: int) -> tuple[int, ...]:
    """The three cards with ``kind`` in ``row`` (each kind is in each row of three cards)."""
    got = tuple(c.number for c in cards() if c.row(kind) == row)
    assert len(got) == 3
    return got


def test_a_bonus_card_is_worth_what_the_cards_pay_for_its_kind() -> None:
    state = game(players=3, seed=2, cards=None, modules=("bonus_cards", ID))
    seat = 0
    i = bonus_state(state).hands[seat][0]
    kind = CARD_KINDS[i]
    build(state, seat, [CARD_TILES[i]])  # the card's tile is built: the card would add one building
    state.mods[ID] = ScoreCardsState(rows(kind, 6))
    high = BONUS.bot_values(state)
    state.mods[ID] = ScoreCardsState(rows(kind, 1))
    low = BONUS.bot_values(state)
    assert high is not None and low is not None
    assert high[seat] > low[seat] > 0


def test_a_building_site_is_worth_what_the_cards_pay_for_its_kind() -> None:
    state = sites_game(players=3, seed=1, modules=(ID,))
    give_site(state, 0, "T11", "b")  # a tower site of seat 0 in its Alhambra, blue to complete
    state.mods[ID] = ScoreCardsState(rows("tower", 6))
    high = SITES.bot_values(state)
    state.mods[ID] = ScoreCardsState(rows("tower", 1))
    low = SITES.bot_values(state)
    assert high is not None and low is not None
    assert high[0] > low[0]
