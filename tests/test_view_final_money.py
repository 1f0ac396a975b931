"""The view reveals everybody's money per currency once the game is over (``final_money``): it
decided which market tiles were handed out at the end, and the end screen says why a tile stayed."""

from __future__ import annotations

from alhambra.components import CURRENCIES
from alhambra.engine import new_game
from alhambra.events import MarketTileAwarded
from alhambra.state import GameConfig
from alhambra.testing import play_random_game
from alhambra.view import view


def test_final_money_only_once_the_game_is_over() -> None:
    state, _ = new_game(GameConfig(players=3), 4)
    assert view(state, 0)["final_money"] is None  # hands stay hidden during the game
    game = play_random_game(GameConfig(players=3), 4, try_every_action=False)
    end = game.state
    assert end.is_over
    comp = end.components
    for viewer in (None, 0):
        money = view(end, viewer)["final_money"]
        assert len(money) == 3
        for s, player in enumerate(end.players):
            expected = {c: 0 for c in CURRENCIES}
            for card in player.hand:
                if comp.card_is_money[card]:
                    expected[comp.currencies[comp.card_currency[card]]] += comp.card_value[card]
            assert money[s] == expected
    # each tile handed out went to the one seat with the most money of its square's currency
    money = view(end, None)["final_money"]
    awards = [e for e in game.events if isinstance(e, MarketTileAwarded)]
    assert awards
    for e in awards:
        cur = CURRENCIES[end.market_currency[e.square - 1]]
        amounts = [m[cur] for m in money]
        assert amounts[e.seat] == max(amounts) and amounts.count(max(amounts)) == 1
